//! Executors: run a validated program on a state.
//!
//! The machine's semantics are simple: for each rule in order, replace every
//! non-overlapping leftmost-first match of its pattern in the state by its expanded
//! replacement, exactly as [`regex::Regex::replace_all`] does (including its treatment of
//! empty matches). Two executors implement it:
//!
//! - [`reference::Reference`] is `replace_all`, rule by rule. It defines the semantics.
//! - [`fast::Fast`] is built for speed: DFAs, literal prefilters, a thread-segmented
//!   buffer, fixpoint skips. It must return byte-identical states.
//!
//! Both implement [`Executor`]. Besides a plain [`Executor::run`], an executor reports
//! what each rule did to an [`Observer`]; tracing ([`trace`]) and profiling are built on
//! that, and so is the run a caller can cut short ([`run_unless`]).
//!
//! Every run has a state limit ([`limit`], 1 GiB by default, set with
//! [`Executor::set_max_state`] or [`Choice::with_max_state`]): a rule that would grow the state
//! past it ends the run with [`StateTooLarge`], the same error from both executors.

pub mod fast;
pub mod limit;
pub mod reference;
pub mod trace;

pub use limit::{DEFAULT_MAX_STATE, StateTooLarge};

use std::num::NonZeroUsize;
use std::ops::ControlFlow;

use crate::program::ValidProgram;

/// What one rule did to the state.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct RuleReport {
    /// How many matches were replaced.
    pub matches: usize,
    /// True when the executor knew without searching that the rule changes nothing
    /// (its required literal is absent, or an identical rule just changed nothing).
    pub skipped: bool,
    /// The state's length in bytes after the rule.
    pub state_len: usize,
}

/// Receives a report after every rule, in order. Every rule is reported, skipped or not.
pub trait Observer {
    /// Called after rule `index`. `state` renders the current state when called (which
    /// may cost a copy). Returning [`ControlFlow::Break`] stops the run there.
    fn after_rule(
        &mut self,
        index: usize,
        report: &RuleReport,
        state: &dyn Fn() -> String,
    ) -> ControlFlow<()>;

    /// Whether this observer reads [`RuleReport::matches`]. An executor may skip counting
    /// matches (and report 0) when it does not; the default is true.
    fn wants_match_counts(&self) -> bool {
        true
    }

    /// Whether this observer may call the `state` of [`Observer::after_rule`]. It is a
    /// hint: an executor may keep what makes that call cheap when true (the default);
    /// when false the call still gives the right state, at a higher cost.
    fn reads_states(&self) -> bool {
        true
    }
}

/// Totals for one run.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct RunStats {
    /// Rules that were searched.
    pub rules_applied: usize,
    /// Rules skipped without a search.
    pub rules_skipped: usize,
    /// Matches replaced, over all rules.
    pub matches: usize,
    /// The largest state seen, in bytes.
    pub max_state_len: usize,
}

impl RunStats {
    /// Adds one rule's report.
    pub fn record(&mut self, report: &RuleReport) {
        if report.skipped {
            self.rules_skipped += 1;
        } else {
            self.rules_applied += 1;
        }
        self.matches += report.matches;
        self.max_state_len = self.max_state_len.max(report.state_len);
    }
}

/// Collects [`RunStats`] and never stops the run.
#[derive(Debug, Default)]
pub struct StatsObserver(pub RunStats);

impl Observer for StatsObserver {
    fn after_rule(
        &mut self,
        _: usize,
        report: &RuleReport,
        _: &dyn Fn() -> String,
    ) -> ControlFlow<()> {
        self.0.record(report);
        ControlFlow::Continue(())
    }

    fn reads_states(&self) -> bool {
        false
    }
}

/// A way to run a program. Implementations are built once per program and can run many
/// states; `run` takes `&self` so one executor serves several threads.
pub trait Executor: Send + Sync {
    /// A short name for messages (`reference`, `fast`).
    fn name(&self) -> &'static str;

    /// The program this executor runs.
    fn program(&self) -> &ValidProgram;

    /// Runs rules `range` in order on `state`, reporting each to `observer`, and returns
    /// the state when the range ends or the observer stops the run; or the error of the
    /// first rule that would grow the state past the limit ([`Executor::max_state`]),
    /// which is not reported to the observer.
    fn run_range(
        &self,
        state: &str,
        range: std::ops::Range<usize>,
        observer: &mut dyn Observer,
    ) -> Result<String, StateTooLarge>;

    /// The state limit in bytes ([`DEFAULT_MAX_STATE`] unless set).
    fn max_state(&self) -> usize;

    /// Sets the state limit in bytes for the runs that follow.
    fn set_max_state(&mut self, bytes: usize);

    /// Drops what earlier runs left cached for later ones (search caches grown on large
    /// states), so that a long-lived executor holds no more than its next run needs;
    /// results never change, the next run may be slower. Nothing, for an executor that
    /// keeps nothing between runs (the default).
    fn release_caches(&mut self) {}

    /// The totals of the paths that cut the state, for an executor that counts them
    /// ([`fast::Fast::counters`]); `None` for one that does not (the reference).
    fn counters(&self) -> Option<fast::Counters> {
        None
    }

    /// Runs every rule and returns the final state.
    fn run(&self, state: &str) -> Result<String, StateTooLarge> {
        self.run_observed(state, &mut NoObserver)
    }

    /// Runs every rule, reporting each to `observer`.
    fn run_observed(
        &self,
        state: &str,
        observer: &mut dyn Observer,
    ) -> Result<String, StateTooLarge> {
        self.run_range(state, 0..self.program().rules().len(), observer)
    }

    /// Runs every rule and returns the final state with totals.
    fn run_with_stats(&self, state: &str) -> Result<(String, RunStats), StateTooLarge> {
        let mut stats = StatsObserver::default();
        let out = self.run_observed(state, &mut stats)?;
        Ok((out, stats.0))
    }
}

/// Calls a function with each rule's index after the rule has run; its answer continues
/// or stops the run. It wants neither match counts nor states, so the executors skip
/// their bookkeeping: what a progress display or a cancellable run needs and no more.
pub struct EachRule<F: FnMut(usize) -> ControlFlow<()>>(pub F);

impl<F: FnMut(usize) -> ControlFlow<()>> Observer for EachRule<F> {
    fn after_rule(
        &mut self,
        index: usize,
        _: &RuleReport,
        _: &dyn Fn() -> String,
    ) -> ControlFlow<()> {
        (self.0)(index)
    }

    fn wants_match_counts(&self) -> bool {
        false
    }

    fn reads_states(&self) -> bool {
        false
    }
}

/// Runs every rule of `exec`'s program on `state`, asking `stop` after each rule (an
/// atomic load is all it should cost): the final state, or `None` when `stop` answered
/// true before the last rule had run. A cut run's state is thrown away: half a program's
/// state means nothing. A rule that would grow the state past the limit ends the run
/// with its error.
pub fn run_unless(
    exec: &dyn Executor,
    state: &str,
    mut stop: impl FnMut() -> bool,
) -> Result<Option<String>, StateTooLarge> {
    let rules = exec.program().rules().len();
    let mut last = None;
    let out = exec.run_observed(
        state,
        &mut EachRule(|index| {
            last = Some(index);
            match stop() {
                true => ControlFlow::Break(()),
                false => ControlFlow::Continue(()),
            }
        }),
    )?;
    let finished = rules == 0 || last == Some(rules - 1);
    Ok(finished.then_some(out))
}

/// An observer that does nothing.
#[derive(Debug, Default)]
pub struct NoObserver;

impl Observer for NoObserver {
    fn after_rule(&mut self, _: usize, _: &RuleReport, _: &dyn Fn() -> String) -> ControlFlow<()> {
        ControlFlow::Continue(())
    }

    fn wants_match_counts(&self) -> bool {
        false
    }

    fn reads_states(&self) -> bool {
        false
    }
}

/// Which executor to use, as named on the command line.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum ExecutorKind {
    /// [`reference::Reference`].
    Reference,
    /// [`fast::Fast`].
    #[default]
    Fast,
}

impl ExecutorKind {
    /// Builds the executor for `program`.
    pub fn build(self, program: ValidProgram) -> Box<dyn Executor> {
        match self {
            ExecutorKind::Reference => Box::new(reference::Reference::new(program)),
            ExecutorKind::Fast => Box::new(fast::Fast::new(program)),
        }
    }
}

/// Which executor to build, and on how many cores the fast one runs local rules on
/// large states (see [`fast::Fast::parallel`]; the reference executor always uses one),
/// and the state limit its runs have ([`limit`]). Results are the same whatever the
/// number of cores.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Choice {
    /// The executor.
    pub kind: ExecutorKind,
    /// The cores the fast executor may use.
    pub cores: NonZeroUsize,
    /// The state limit in bytes.
    pub max_state: usize,
}

impl Choice {
    /// `kind` on `cores` cores, with the default state limit.
    pub fn new(kind: ExecutorKind, cores: NonZeroUsize) -> Choice {
        Choice {
            kind,
            cores,
            max_state: DEFAULT_MAX_STATE,
        }
    }

    /// The same choice with a state limit of `bytes`.
    pub fn with_max_state(self, bytes: usize) -> Choice {
        Choice {
            max_state: bytes,
            ..self
        }
    }

    /// Builds the executor for `program`. For tests of the commands, in a build with the
    /// `test-hooks` feature only: with several cores and [`PLANT_HELPER_PANIC`] set in the
    /// environment, the fast executor's helpers panic with its value (see
    /// [`fast::Fast::plant_helper_panic`]). A release build never reads the variable.
    pub fn build(self, program: ValidProgram) -> Box<dyn Executor> {
        match self.kind {
            ExecutorKind::Reference => {
                Box::new(reference::Reference::new(program).with_max_state(self.max_state))
            }
            ExecutorKind::Fast => {
                let fast = fast::Fast::new(program)
                    .parallel(self.cores.get(), fast::DEFAULT_SPLIT_MIN)
                    .with_max_state(self.max_state);
                #[cfg(feature = "test-hooks")]
                let fast = match std::env::var(PLANT_HELPER_PANIC) {
                    Ok(message) if self.cores.get() > 1 => fast.plant_helper_panic(message.leak()),
                    _ => fast,
                };
                Box::new(fast)
            }
        }
    }
}

/// The environment variable that makes [`Choice::build`] plant a panic on the fast
/// executor's helper threads, for tests of how the commands report a panic on another
/// core. Read only in a build with the crate's `test-hooks` feature, which the root
/// package's tests turn on (its dev-dependencies) and no release build has.
#[doc(hidden)]
pub const PLANT_HELPER_PANIC: &str = "REGEX_CHESS_TEST_HELPER_PANIC";

impl From<ExecutorKind> for Choice {
    fn from(kind: ExecutorKind) -> Choice {
        Choice::new(kind, NonZeroUsize::MIN)
    }
}

/// The error of the executors' layer: a name that is no executor's (see
/// [`ExecutorKind`]'s `FromStr`). The fast executor's program-cache table has its own,
/// [`fast::ParsedTableError`].
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("unknown executor `{0}` (expected reference or fast)")]
pub struct UnknownExecutor(pub String);

impl std::str::FromStr for ExecutorKind {
    type Err = UnknownExecutor;
    fn from_str(s: &str) -> Result<Self, UnknownExecutor> {
        match s {
            "reference" => Ok(ExecutorKind::Reference),
            "fast" => Ok(ExecutorKind::Fast),
            other => Err(UnknownExecutor(other.to_string())),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::program::{Program, Rule};

    #[test]
    fn a_run_is_cut_when_asked_and_whole_otherwise() {
        let program = Program::from_rules(vec![
            Rule::new("a", "b"),
            Rule::new("b", "c"),
            Rule::new("c", "d"),
        ])
        .validate()
        .unwrap();
        for kind in [ExecutorKind::Reference, ExecutorKind::Fast] {
            let exec = kind.build(program.clone());
            assert_eq!(
                run_unless(exec.as_ref(), "aa", || false)
                    .unwrap()
                    .as_deref(),
                Some("dd")
            );
            // Asked after each rule: stopping after the second cuts the run.
            let mut asked = 0;
            let cut = run_unless(exec.as_ref(), "aa", || {
                asked += 1;
                asked == 2
            })
            .unwrap();
            assert_eq!((cut, asked), (None, 2), "{}", exec.name());
            // Stopping after the last rule leaves a whole run.
            let mut asked = 0;
            let whole = run_unless(exec.as_ref(), "aa", || {
                asked += 1;
                asked == 3
            })
            .unwrap();
            assert_eq!(whole.as_deref(), Some("dd"), "{}", exec.name());
        }
    }
}
