//! The fast-versus-reference comparison shared by `tests/equivalence.rs` and the fuzz
//! target `fuzz/fuzz_targets/exec_equivalence.rs` (which includes this file by path):
//! cutting a program where its state grows too large, and checking that every way of
//! running the fast executor gives what the reference gives.
//!
//! It uses only the library's public API, so that both crates can compile it.

use std::ops::ControlFlow;

use regex_chess::exec::fast::Fast;
use regex_chess::exec::reference::Reference;
use regex_chess::exec::{Executor, NoObserver, Observer, RuleReport, RunStats, trace};
use regex_chess::program::{Program, ValidProgram};

/// Records what every rule did, in order.
#[derive(Default)]
pub struct Recorder {
    pub reports: Vec<(usize, RuleReport)>,
}

impl Observer for Recorder {
    fn after_rule(
        &mut self,
        index: usize,
        report: &RuleReport,
        _: &dyn Fn() -> String,
    ) -> ControlFlow<()> {
        self.reports.push((index, *report));
        ControlFlow::Continue(())
    }
}

/// Stops the run after the first rule that leaves the state longer than `limit`.
struct Cap {
    limit: usize,
    stopped_after: Option<usize>,
}

impl Observer for Cap {
    fn after_rule(
        &mut self,
        index: usize,
        report: &RuleReport,
        _: &dyn Fn() -> String,
    ) -> ControlFlow<()> {
        if report.state_len > self.limit {
            self.stopped_after = Some(index);
            return ControlFlow::Break(());
        }
        ControlFlow::Continue(())
    }
    fn wants_match_counts(&self) -> bool {
        false
    }
}

/// `program` cut after the first rule where the reference's state outgrows `limit` on
/// any of `states` (the whole program when none does).
pub fn cut_at_cap(program: ValidProgram, states: &[String], limit: usize) -> ValidProgram {
    let reference = Reference::new(program.clone());
    let mut keep = program.rules().len();
    for state in states {
        let mut cap = Cap {
            limit,
            stopped_after: None,
        };
        reference.run_observed(state, &mut cap);
        if let Some(last) = cap.stopped_after {
            keep = keep.min(last + 1);
        }
    }
    if keep == program.rules().len() {
        return program;
    }
    Program::from_rules(program.rules()[..keep].to_vec())
        .validate()
        .expect("a prefix of a valid program is valid")
}

fn divergence_report(reference: &Reference, fast: &Fast, state: &str) -> String {
    match trace::first_divergence(reference, fast, state) {
        Some(divergence) => divergence.to_string(),
        None => "trace::first_divergence finds no rule where the states differ".to_string(),
    }
}

/// Every way of running `fast` on `state` (`run`, `run_with_stats`, `run_observed`, two
/// `run_range`s) must give what `reference` gives, with the same per-rule match counts
/// and state lengths and the same totals; the error says what differs.
pub fn compare(reference: &Reference, fast: &Fast, state: &str) -> Result<(), String> {
    let n = reference.program().rules().len();
    let mut expected = Recorder::default();
    let want = reference.run_observed(state, &mut expected);
    let differ = |how: &str| {
        Err(format!(
            "final states differ ({how})\n{}",
            divergence_report(reference, fast, state)
        ))
    };

    if fast.run(state) != want {
        return differ("run");
    }
    let (got, stats) = fast.run_with_stats(state);
    if got != want {
        return differ("run_with_stats");
    }
    let mut observed = Recorder::default();
    if fast.run_observed(state, &mut observed) != want {
        return differ("run_observed");
    }

    let indices: Vec<usize> = observed.reports.iter().map(|(i, _)| *i).collect();
    if indices != (0..n).collect::<Vec<_>>() {
        return Err(format!("rules reported out of order: {indices:?}"));
    }
    for ((index, theirs), (_, ours)) in observed.reports.iter().zip(&expected.reports) {
        let (theirs_pair, ours_pair) = (
            (theirs.matches, theirs.state_len),
            (ours.matches, ours.state_len),
        );
        if theirs_pair != ours_pair {
            let rule = &fast.program().rules()[*index];
            return Err(format!(
                "rule {index} ({:?} -> {:?}, skipped by fast: {}): (matches, state length) \
                 differ, fast {theirs_pair:?} vs reference {ours_pair:?}",
                rule.pattern, rule.replacement, theirs.skipped
            ));
        }
    }

    let mut want_stats = RunStats::default();
    for (_, report) in &expected.reports {
        want_stats.record(report);
    }
    if stats.matches != want_stats.matches {
        return Err(format!(
            "run_with_stats match totals differ: fast {} vs reference {}",
            stats.matches, want_stats.matches
        ));
    }
    if stats.max_state_len != want_stats.max_state_len {
        return Err(format!(
            "run_with_stats largest states differ: fast {} vs reference {}",
            stats.max_state_len, want_stats.max_state_len
        ));
    }
    if stats.rules_applied + stats.rules_skipped != n {
        return Err(format!(
            "run_with_stats counts {} applied and {} skipped rules of {n}",
            stats.rules_applied, stats.rules_skipped
        ));
    }

    let middle = n / 2;
    let first = fast.run_range(state, 0..middle, &mut NoObserver);
    if fast.run_range(&first, middle..n, &mut NoObserver) != want {
        return Err(format!(
            "running rules 0..{middle} then {middle}..{n} gives another state"
        ));
    }
    Ok(())
}
