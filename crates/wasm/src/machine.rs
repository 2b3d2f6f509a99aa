//! The machine the page drives: one program, run by the fast executor on one thread.
//!
//! Contract: [`Machine::run`] returns exactly what [`Fast`] returns on a native build
//! (and so what the reference executor returns), calling its progress function with
//! every rule's index in order. A replay ([`Machine::replay`], [`Machine::step`]) goes
//! through the same rules on a state one rule at a time, or from one rule that changes
//! the state to the next, and ends on the state a run gives. A rule that would grow the
//! state past the state limit ends a run, or a replay's step, with the executor's
//! [`StateTooLarge`], as natively; the replay then stays where it was.
//!
//! The state limit is [`PAGE_MAX_STATE`] (256 MiB) by default, lower than the native
//! default: a wasm32 module has 4 GiB of memory at most (browsers often allow it less),
//! the fast executor holds a state with its spare buffer and the output it writes, and
//! the page copies the state out to JavaScript; the widest state of the page's programs
//! on the bench positions is under 1 MB (`play`, PERF.md), so the limit never stops a
//! game.
//!
//! Trade-offs: the executor compiles each pattern on first use, as it does natively; no
//! helper thread compiles ahead (the browser gives a worker one thread), so the first
//! run of a program pays for every pattern it meets. A replay's step runs the rules it
//! skips at the executor's full speed and stops after the first that replaced a match;
//! only then does it compare the states (a match may be replaced by the same text).

use std::ops::ControlFlow;

use regex_chess_machine::exec::fast::Fast;
use regex_chess_machine::exec::{EachRule, Executor, Observer, RuleReport, StateTooLarge};
use regex_chess_machine::program::ValidProgram;
use regex_chess_machine::program::wire::{self, Damaged};

/// The state limit of the page's machine, in bytes (see the module doc).
pub const PAGE_MAX_STATE: usize = 256 << 20;

/// A loaded program and, while the page watches one, a replay.
#[derive(Debug)]
pub struct Machine {
    fast: Fast,
    replay: Option<Replay>,
}

/// A replay under way: the state so far and the next rule to apply.
#[derive(Debug)]
struct Replay {
    state: String,
    next: usize,
}

impl Machine {
    /// The machine for `program`.
    pub fn new(program: ValidProgram) -> Machine {
        // One thread: no helper compiling ahead (it could not start anyway).
        let fast = Fast::new(program)
            .compile_ahead(false)
            .with_max_state(PAGE_MAX_STATE);
        Machine { fast, replay: None }
    }

    /// The same machine with a state limit of `bytes`.
    pub fn with_max_state(mut self, bytes: usize) -> Machine {
        self.fast.set_max_state(bytes);
        self
    }

    /// The machine for the program `name` from the bytes of its two files, written
    /// together (`regex-chess site` writes them beside the WebAssembly module it builds
    /// from the same checkout; [`wire::read_pair`]): the program is not validated again
    /// (its `regex` compilation of every pattern takes seconds in a browser) and its
    /// patterns' parses are read, not made. The error says what is wrong with the bytes.
    pub fn from_files(name: &str, program: &[u8], parses: &[u8]) -> Result<Machine, Damaged> {
        Ok(Machine::new(wire::read_pair(name, program, parses)?))
    }

    /// The number of rules.
    pub fn rules(&self) -> usize {
        self.fast.program().rules().len()
    }

    /// The pattern of rule `index`.
    pub fn pattern(&self, index: usize) -> Option<&str> {
        self.fast
            .program()
            .rules()
            .get(index)
            .map(|r| r.pattern.as_str())
    }

    /// Where rule `index` comes from, as the exports write it.
    pub fn origin(&self, index: usize) -> Option<String> {
        self.fast
            .program()
            .rules()
            .get(index)
            .map(|r| r.origin.to_string())
    }

    /// Runs every rule on `state`, calling `progress` with each rule's index after it.
    pub fn run(
        &self,
        state: &str,
        progress: &mut dyn FnMut(usize),
    ) -> Result<String, StateTooLarge> {
        self.fast.run_observed(
            state,
            &mut EachRule(|index| {
                progress(index);
                ControlFlow::Continue(())
            }),
        )
    }

    /// Starts a replay of the rules on `state` (ending any other).
    pub fn replay(&mut self, state: String) {
        self.replay = Some(Replay { state, next: 0 });
    }

    /// The replay's state, or `None` when no replay was started.
    pub fn replay_state(&self) -> Option<&str> {
        self.replay.as_ref().map(|r| r.state.as_str())
    }

    /// Applies the replay's next rule; with `skip`, goes on until a rule changes the
    /// state or the rules end. The index of the last rule applied, or `None` when none
    /// was left (or no replay was started); the error of a rule that would grow the
    /// state past the limit (the replay stays before it).
    pub fn step(&mut self, skip: bool) -> Result<Option<usize>, StateTooLarge> {
        let n = self.rules();
        let Some(replay) = self.replay.as_mut() else {
            return Ok(None);
        };
        let mut last = None;
        while replay.next < n {
            let mut stop = StopAfter {
                any: !skip,
                last: None,
            };
            let after = self
                .fast
                .run_range(&replay.state, replay.next..n, &mut stop)?;
            let index = stop.last.unwrap_or(n - 1);
            last = Some(index);
            replay.next = index + 1;
            let changed = after != replay.state;
            replay.state = after;
            if changed || !skip {
                break;
            }
        }
        Ok(last)
    }
}

/// Stops a run after its first rule (`any`) or after the first rule that replaced a
/// match, remembering the rule.
struct StopAfter {
    any: bool,
    last: Option<usize>,
}

impl Observer for StopAfter {
    fn after_rule(
        &mut self,
        index: usize,
        report: &RuleReport,
        _: &dyn Fn() -> String,
    ) -> ControlFlow<()> {
        self.last = Some(index);
        if self.any || report.matches > 0 {
            ControlFlow::Break(())
        } else {
            ControlFlow::Continue(())
        }
    }

    fn reads_states(&self) -> bool {
        false
    }
}
