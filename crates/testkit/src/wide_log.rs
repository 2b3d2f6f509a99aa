//! A light comparison of the two executors for long programs (used by
//! `tests/machine/equivalence_wide.rs`): the reference runs once, recording every rule's match
//! count, state length and a hash of the state after it, and stops where the state
//! outgrows a cap; each fast executor then runs the same rules and must report the same
//! steps and return the same state. `exec_compare::compare` runs the reference a dozen
//! times, which thousands of rules on states of tens of KB cannot afford.

use std::ops::ControlFlow;

use regex_chess_machine::exec::fast::Fast;
use regex_chess_machine::exec::reference::Reference;
use regex_chess_machine::exec::{Executor, Observer, RuleReport, trace};
use regex_chess_machine::program::{Program, ValidProgram};

use crate::exec_compare::digest;

/// What one rule did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Step {
    index: usize,
    matches: usize,
    state_len: usize,
    /// A hash of the state after the rule, when the log reads states.
    state: Option<u64>,
}

/// Records every rule's step; stops after the first rule whose state is longer than
/// `cap`.
struct Log {
    steps: Vec<Step>,
    cap: usize,
    read_states: bool,
}

impl Observer for Log {
    fn after_rule(
        &mut self,
        index: usize,
        report: &RuleReport,
        state: &dyn Fn() -> String,
    ) -> ControlFlow<()> {
        self.steps.push(Step {
            index,
            matches: report.matches,
            state_len: report.state_len,
            state: self.read_states.then(|| digest(&state())),
        });
        if report.state_len > self.cap {
            return ControlFlow::Break(());
        }
        ControlFlow::Continue(())
    }

    fn reads_states(&self) -> bool {
        self.read_states
    }
}

/// What the reference did with a program on a state: the program cut after the rule
/// where the state outgrew the cap, the steps and the final state.
pub struct Expected {
    pub program: ValidProgram,
    pub state: String,
    steps: Vec<Step>,
    want: Result<String, regex_chess_machine::exec::StateTooLarge>,
}

/// Runs `program` on `state` with the reference, cut after the first rule that leaves
/// a state longer than `cap`.
pub fn expect(program: ValidProgram, state: &str, cap: usize) -> Expected {
    let mut log = Log {
        steps: Vec::new(),
        cap,
        read_states: true,
    };
    let want = Reference::new(program.clone()).run_observed(state, &mut log);
    let program = if log.steps.len() < program.rules().len() {
        Program::from_rules(program.rules()[..log.steps.len()].to_vec())
            .validate()
            .expect("a prefix of a valid program is valid")
    } else {
        program
    };
    Expected {
        program,
        state: state.to_string(),
        steps: log.steps,
        want,
    }
}

impl Expected {
    /// `fast` (built on [`Expected::program`]) must return the reference's state by
    /// `run`, and report the same steps through an observer that reads states and one
    /// that does not (`observe`: both observed runs, else `run` alone). The error names
    /// the executor (`what`) and the first rule where the two differ.
    pub fn check(&self, fast: &Fast, what: &str, observe: bool) -> Result<(), String> {
        let explain = |how: String| {
            let reference = Reference::new(self.program.clone());
            let divergence = trace::first_divergence(&reference, fast, &self.state)
                .map_or_else(|| "no rule's state differs".to_string(), |d| d.to_string());
            Err(format!(
                "{what} ({} rules, state of {} bytes): {how}\n{divergence}",
                self.program.rules().len(),
                self.state.len()
            ))
        };
        if fast.run(&self.state) != self.want {
            return explain("run returns another state".to_string());
        }
        if !observe {
            return Ok(());
        }
        for read_states in [true, false] {
            let mut log = Log {
                steps: Vec::new(),
                cap: usize::MAX,
                read_states,
            };
            if fast.run_observed(&self.state, &mut log) != self.want {
                return explain(format!("run_observed (reading states: {read_states})"));
            }
            if log.steps.len() != self.steps.len() {
                return explain(format!(
                    "{} rules reported, the reference reports {}",
                    log.steps.len(),
                    self.steps.len()
                ));
            }
            for (got, want) in log.steps.iter().zip(&self.steps) {
                let want = Step {
                    state: got.state.and(want.state),
                    ..*want
                };
                if *got != want {
                    return explain(format!(
                        "rule {}: fast {got:?}, reference {want:?}",
                        want.index
                    ));
                }
            }
        }
        Ok(())
    }
}
