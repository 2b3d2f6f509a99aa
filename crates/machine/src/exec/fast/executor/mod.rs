//! The fast executor ([`Fast`]): a program's rules prepared once ([`Rules`]), the options
//! that choose each path of a run, the pool of scratch spaces kept between runs, and the
//! [`Executor`] implementation that sets a run up and hands it to the run loop
//! (`run.rs`).
//!
//! Contract: see the module doc of `exec::fast`: every run gives the reference's state
//! and reports, whatever the options; they change only the cost.
//!
//! Trade-offs: preparing a program only deduplicates its patterns; nothing is compiled
//! until a rule runs (and, when the needed literals are remembered, finds them all in
//! the state), so a run that touches few patterns pays for few. A run that meets
//! patterns not compiled yet has a helper thread compile them ahead of it
//! ([`Fast::compile_ahead`], `compile_ahead.rs`). Scratch spaces (the lazy DFAs' caches, the
//! rope's buffers) are pooled between runs so that repeated runs (a game, a benchmark)
//! reuse the states already built, and trimmed so that a game does not grow them
//! without end.
//!
//! Layer 9 (the top): uses `rules`, `state`, `rope`, `parallel`, `ahead`, `run` and
//! `counters`.

use std::ops::Range;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Mutex, PoisonError, RwLock};

use crate::exec::fast::compile_ahead::CompileAhead;
use crate::exec::fast::counters::{Counters, Tally};
use crate::exec::fast::parallel::{Crew, Parallel};
use crate::exec::fast::rope::Scratch;
use crate::exec::fast::rules::Rules;
use crate::exec::fast::run::{Options, Runner};
use crate::exec::fast::segments::State;
use crate::exec::{Executor, Observer};
use crate::program::ValidProgram;

/// The default size below which the multi-core mode does not cut a state (see PERF.md,
/// "Several cores").
pub const DEFAULT_SPLIT_MIN: usize = 1 << 16;

/// The default size from which one core runs runs of local rules as a rope (see
/// [`Fast::rope`]): 4 MB. Below it the flat state (the text and its spare buffer) stays
/// within or near a core's L2 cache on the machine measured, and each rule's fixed
/// cost, paid once per piece on the rope, outweighs the copies the rope saves: the warm
/// 2-ply move on the bench positions took as much CPU time or more with a rope from
/// small states although it runs fewer instructions, and the 3-ply search on the
/// promotion position more with the rope from half this size, as much from this size;
/// on kiwipete's 3-ply search the rope from this size took less (PERF.md, "The rope by
/// default from 4 MB", and "Figures behind the fast executor's constants"). Several
/// cores always use it on the states they cut.
pub const DEFAULT_ROPE_MIN: usize = 1 << 22;

/// The default length of a rope's pieces (see [`Fast::rope`]).
pub const DEFAULT_ROPE_PIECE: usize = 1 << 15;

/// The default size from which the state keeps an index of its `%` bytes for rules whose
/// matches start with a `%`-literal (see `starts.rs`): 1 KB. The endgames' states are of
/// a few KB, where walking the index still costs less than a `memmem` search per
/// candidate: from the earlier, larger default, king and pawn's warm move ran more
/// instructions (PERF.md, "Small states").
pub const DEFAULT_INDEX_MIN: usize = 1 << 10;

/// How many bytes of lazy-DFA states a scratch space may keep between runs, and how
/// many it keeps when it had more (see `Caches::trim`).
const KEPT_STATES_MAX: usize = 24 << 20;
const KEPT_STATES_AFTER_TRIM: usize = 8 << 20;

/// What a finished run leaves for the next: the caller's scratch space and its helper
/// threads' (empty on one core).
#[derive(Debug, Default)]
struct Pooled {
    scratch: Scratch,
    helpers: Vec<Scratch>,
}

/// Runs programs quickly.
#[derive(Debug)]
pub struct Fast {
    rules: Rules,
    /// Whether every replacement of the program is ASCII: a rule only copies bytes of
    /// the state and writes its template's literals, so a run whose text is ASCII then
    /// keeps an ASCII state throughout, and its lazy DFAs need no quit bytes (see
    /// `syntax::AsciiDfa`).
    ascii_templates: bool,
    /// Scratch spaces of finished runs, reused by later runs.
    pool: Mutex<Vec<Pooled>>,
    /// The sizes from which a run takes each path.
    options: Options,
    /// The multi-core mode, when on.
    parallel: Option<Parallel>,
    /// Whether a run that meets patterns not compiled yet has a helper thread compile
    /// them ahead of it (see [`Fast::compile_ahead`]).
    compile_ahead: bool,
    /// Whether the caller, too, searches each of its pieces of a rule that is not local
    /// from the piece's start (see [`Fast::speculate`]).
    speculate: bool,
    /// Set once a helper went through every rule of the program: later runs start none
    /// (a pattern still not compiled, one no run has needed, is compiled on first use).
    all_compiled: AtomicBool,
    /// A panic planted on a helper of the multi-core mode (see
    /// [`Fast::plant_helper_panic`]).
    planted: Option<&'static str>,
    /// The totals of the paths that cut the state (see [`Fast::counters`]).
    tally: Tally,
}

impl Fast {
    /// Prepares `program`: finds its distinct patterns and runs of identical rules. No
    /// pattern is compiled yet.
    pub fn new(program: ValidProgram) -> Fast {
        let ascii_templates = program.rules().iter().all(|r| r.replacement.is_ascii());
        Fast {
            rules: Rules::new(program),
            ascii_templates,
            pool: Mutex::new(Vec::new()),
            options: Options {
                segment_min_len: usize::MAX,
                rope_min_len: DEFAULT_ROPE_MIN,
                rope_piece_len: DEFAULT_ROPE_PIECE,
                index_min_len: DEFAULT_INDEX_MIN,
            },
            parallel: None,
            compile_ahead: std::thread::available_parallelism().is_ok_and(|n| n.get() > 1),
            speculate: false,
            all_compiled: AtomicBool::new(false),
            planted: None,
            tally: Tally::default(),
        }
    }

    /// A hook for tests of how a run ends when a core panics: with several cores
    /// ([`Fast::parallel`]), a helper thread panics with `message` in the last piece of
    /// every hand-off (the caller leaves that piece to the helpers when one started).
    /// The run then panics on the calling thread with the same payload, within the
    /// piece's time; the executor stays usable (without the hook, later runs are
    /// whole). On one core it does nothing. Not for use outside tests.
    #[doc(hidden)]
    pub fn plant_helper_panic(mut self, message: &'static str) -> Fast {
        self.planted = Some(message);
        if let Some(parallel) = &mut self.parallel {
            parallel.plant_panic(message);
        }
        self
    }

    /// With several cores, has the caller search each of its pieces of a rule that is
    /// not local from the piece's start, as the helpers do, instead of from where the
    /// piece before it ended (see `stretch.rs`). Off by default; the tests and the fuzz
    /// target turn it on so that the join's second search runs at every match that
    /// crosses a cut, whichever thread ran the pieces. Results are identical either way.
    pub fn speculate(mut self, on: bool) -> Fast {
        self.speculate = on;
        self
    }

    /// Has a run that meets patterns not compiled yet start a helper thread that
    /// compiles them, in the order the run's rules use them, ahead of the rule the run
    /// is at (on by default when the machine has more than one core). A fresh process
    /// pays for compiling on first use (see PERF.md, "Cold start"); the helper takes
    /// part of that to a second core. Results are identical either way.
    pub fn compile_ahead(mut self, on: bool) -> Fast {
        self.compile_ahead = on;
        self
    }

    /// Turns on the thread-segmented state (see `segments.rs`) for states of at least
    /// `min_len` bytes. Off by default: on the benchmarks in PERF.md, where every thread
    /// matches, its per-segment overhead makes it about three times slower than the flat
    /// path; it pays only when rules touch few of many threads. Results are identical
    /// either way.
    pub fn segmented(mut self, min_len: usize) -> Fast {
        self.options.segment_min_len = min_len;
        self
    }

    /// Has states of at least `min_len` bytes keep the index of their `%` bytes (see
    /// `starts.rs`), from which rules whose matches start with a `%`-literal take their
    /// candidates instead of scanning ([`DEFAULT_INDEX_MIN`] by default; `usize::MAX`
    /// turns it off). Results are identical either way.
    pub fn index_starts(mut self, min_len: usize) -> Fast {
        self.options.index_min_len = min_len;
        self
    }

    /// Runs runs of consecutive local rules (see `local.rs`) on states of at least
    /// `min_len` bytes on `cores` cores: as a rope (see `rope.rs`, even a run of one
    /// rule), its pieces shared between the cores (see `parallel.rs`). One core (the
    /// default) turns it off; a failure to start the helper threads leaves every piece to
    /// the caller. Results, match counts and reports are identical either way.
    pub fn parallel(mut self, cores: usize, min_len: usize) -> Fast {
        self.parallel = Parallel::new(cores, min_len);
        if let (Some(parallel), Some(message)) = (&mut self.parallel, self.planted) {
            parallel.plant_panic(message);
        }
        self
    }

    /// On one core, runs runs of at least two consecutive local rules (see `local.rs`)
    /// on states of at least `min_len` bytes as a rope (see `rope.rs`): the state cut at
    /// thread boundaries into pieces of about `piece_len` bytes, each taken through the
    /// whole run in turn (from [`DEFAULT_ROPE_MIN`] by default; pieces of
    /// [`DEFAULT_ROPE_PIECE`] bytes by default). With several cores ([`Fast::parallel`])
    /// local rules on states of the multi-core mode's size always run as a rope, its
    /// pieces shared between the cores, and no shorter than `piece_len`. Results are
    /// identical either way.
    pub fn rope(mut self, min_len: usize, piece_len: usize) -> Fast {
        self.options.rope_min_len = min_len;
        self.options.rope_piece_len = piece_len.max(1);
        self
    }

    /// The number of cores rules may run on (1 unless [`Fast::parallel`] turned more on).
    pub fn cores(&self) -> usize {
        self.parallel.as_ref().map_or(1, Parallel::cores)
    }

    /// The totals of the rope runs, stretches, their pieces and the hand-offs to the
    /// helper cores of every run since the executor was built (see [`Counters`]): which
    /// paths ran, for the tests that must see the multi-core path taken. Counting costs
    /// a few atomic adds per rope run or stretch.
    pub fn counters(&self) -> Counters {
        self.tally.read()
    }

    /// The number of distinct patterns.
    pub fn distinct_patterns(&self) -> usize {
        self.rules.distinct_patterns()
    }

    /// Compiles the patterns of the rules of `range` ahead of a run on `state` that is at
    /// rule `at` until `stop` is set (see [`CompileAhead::compile_rules`]), for texts that are
    /// all ASCII when `ascii`.
    fn compile_rules(
        &self,
        range: Range<usize>,
        at: &AtomicUsize,
        stop: &AtomicBool,
        state: &RwLock<State>,
        ascii: bool,
    ) {
        let ahead = CompileAhead {
            rules: &self.rules,
            state,
            at,
            stop,
            ascii,
        };
        ahead.compile_rules(range, &self.all_compiled);
    }

    /// Whether some rule of `range` has a pattern not compiled yet.
    fn uncompiled(&self, range: &Range<usize>) -> bool {
        !self.all_compiled.load(Ordering::Relaxed)
            && range
                .clone()
                .any(|index| !self.rules.slot(index).is_compiled())
    }

    /// The run loop over `state`, with `crew` when several cores share it.
    fn runner<'a>(
        &'a self,
        state: &'a RwLock<State>,
        crew: Option<&'a Crew<'a>>,
        at: &'a AtomicUsize,
    ) -> Runner<'a> {
        Runner {
            rules: &self.rules,
            options: self.options,
            state,
            crew,
            at,
            tally: &self.tally,
        }
    }
}

impl Executor for Fast {
    fn name(&self) -> &'static str {
        "fast"
    }

    fn program(&self) -> &ValidProgram {
        self.rules.program()
    }

    fn counters(&self) -> Option<Counters> {
        Some(Fast::counters(self))
    }

    fn run_range(&self, state: &str, range: Range<usize>, observer: &mut dyn Observer) -> String {
        let mut pooled = self
            .pool
            .lock()
            .map(|mut p| p.pop())
            .ok()
            .flatten()
            .unwrap_or_default();
        // Decided once per run: every text the run meets is then ASCII too.
        let ascii = self.ascii_templates && state.is_ascii();
        pooled.scratch.caches.set_ascii(ascii);
        let state = RwLock::new(State::new(state));
        let at = AtomicUsize::new(range.start);
        let mut run = |pooled: &mut Pooled| match &self.parallel {
            Some(parallel) => {
                let Pooled { scratch, helpers } = pooled;
                if helpers.len() < parallel.cores() - 1 {
                    helpers.resize_with(parallel.cores() - 1, Scratch::default);
                }
                for helper in helpers.iter_mut() {
                    helper.caches.set_ascii(ascii);
                }
                let (rules, tally) = (&self.rules, &self.tally);
                parallel.with_crew(rules, self.speculate, tally, &state, helpers, |crew| {
                    let runner = self.runner(&state, Some(crew), &at);
                    runner.run(range.clone(), observer, scratch);
                });
            }
            None => {
                let runner = self.runner(&state, None, &at);
                runner.run(range.clone(), observer, &mut pooled.scratch);
            }
        };
        if self.compile_ahead && self.uncompiled(&range) {
            let stop = AtomicBool::new(false);
            std::thread::scope(|scope| {
                // A helper that cannot start leaves the compiling to the run.
                let helper = std::thread::Builder::new().spawn_scoped(scope, || {
                    self.compile_rules(range.clone(), &at, &stop, &state, ascii)
                });
                // Stops the helper however the run ends: a run that panics unwinds
                // through the scope, which waits for the helper first.
                let _stop = SetOnDrop(&stop);
                run(&mut pooled);
                drop(helper);
            });
        } else {
            run(&mut pooled);
        }
        let caches = &mut pooled.scratch.caches;
        caches.trim(KEPT_STATES_MAX, KEPT_STATES_AFTER_TRIM);
        if let Ok(mut pool) = self.pool.lock() {
            pool.push(pooled);
        }
        state
            .into_inner()
            .unwrap_or_else(PoisonError::into_inner)
            .into_string()
    }
}

/// Sets its flag when dropped.
struct SetOnDrop<'a>(&'a AtomicBool);

impl Drop for SetOnDrop<'_> {
    fn drop(&mut self) {
        self.0.store(true, Ordering::Relaxed);
    }
}

pub(in crate::exec::fast) mod run;

#[cfg(test)]
mod tests;
