//! Opt-in multi-core mode of the fast executor: the pieces of a rope run (`rope.rs`: a
//! run of consecutive local rules on a large state cut at thread boundaries) are shared
//! between the cores, each piece taken through the whole run by one thread; so are the
//! pieces of a rule that is not local (`stretch.rs`: each piece searched from its
//! start, joined by the caller).
//!
//! Contract: [`Crew::run`] writes into its [`Join`] and totals exactly what [`Run::piece`]
//! writes for every piece, in order, whichever thread ran each (or says [`Broken`] when
//! one piece does); [`Crew::stretch`] returns [`StretchRun`]s that [`Stretch::join`]
//! turns into exactly the rule's result.
//!
//! Why cutting is exact. A pattern is local (`local.rs`) when it has no look-around, cannot
//! match the empty string, and no string it matches contains `\n%`. The state is cut only
//! just before a `%` that follows a `\n` (so every cut is a char boundary). Then:
//! - no match of the whole-text search contains a cut (it would contain that `\n%`), so
//!   every match lies inside one piece;
//! - without look-around, whether a span matches, and which match the leftmost-first
//!   search prefers from a start, depends only on the bytes of the span and after it
//!   within reach; paths that would run past a cut are not matches anyway, so each piece's
//!   search finds exactly the whole search's matches that start in it, in order;
//! - matches are never empty, so `replace_all`'s empty-match rule (which looks at the
//!   previous match's end) never applies, and the pieces are independent.
//!
//! Nothing here depends on the text being a chess state: stray `%`s and lines without
//! threads only change where cuts can go (a state without `\n%` is not cut).
//!
//! Work sharing ([`Crew`]): each executor run starts `cores - 1` helper threads (scoped
//! to it) that read the state through an `RwLock`. For a rope run the caller publishes
//! the run's plan and piece bounds, runs the first piece, then claims, first to last,
//! every piece no helper has claimed yet while helpers claim from the last piece back
//! (one compare-and-swap on a word holding both ends per piece); so on a busy machine a
//! sleeping helper costs a wake-up call, not a wait, and the caller waits only for the
//! pieces a helper took. The caller's pieces (a prefix) go into the join as they are
//! done, the helpers' after it. One hand-off per run of rules, not per rule: the state
//! is cut and joined once per run. A rule that is not local but splittable
//! (`Compiled::splittable`) on a state of at least `min_len` bytes is one hand-off of
//! its own: the caller's pieces, a prefix taken in order, start exactly where the piece
//! before ended; a helper's start at their bounds and are mended by the join where a
//! match crossed into them.
//!
//! Panics: a panic on a helper ends the run as a panic on the calling thread, with the
//! helper's payload, as soon as the caller next waits for a piece (the helper stops
//! taking pieces); a panic on the caller stops the helpers before it leaves the crew. In
//! both cases every helper thread is gone when [`Parallel::with_crew`] returns or
//! unwinds, so no thread waits for a piece that will never come.
//!
//! Trade-offs: every helper has its own scratch (lazy DFA caches are per thread of
//! execution), pooled with the caller's between runs. Waking a helper costs a few
//! microseconds, so only states of at least `min_len` bytes are shared (see PERF.md,
//! "Several cores"). A helper descheduled while running its piece delays the run.
//!
//! Layer 7: uses `rope`, `stretch`, `state`, `rules`, `rewrite`, `starts` and `counters`.

use std::any::Any;
use std::panic::{self, AssertUnwindSafe};
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Condvar, Mutex, MutexGuard, PoisonError, RwLock};

use crate::exec::fast::counters::Tally;
use crate::exec::fast::rewrite::Hay;
use crate::exec::fast::rope::{self, Broken, Join, Kept, Piece, Plan, Run, Scratch, Total};
use crate::exec::fast::rules::Rules;
use crate::exec::fast::segments::{self, State};
use crate::exec::fast::starts::Starts;
use crate::exec::fast::stretch::{self, Stretch, StretchRun};

/// Pieces per core in a cut state: small pieces bound how long the caller can wait for a
/// helper that was descheduled in the middle of one.
const PIECES_PER_CORE: usize = 4;

/// The most pieces the crew shares out in one hand-off (the claim word holds a piece
/// number in 16 bits).
pub const MAX_PIECES: usize = 1 << 14;

/// The multi-core mode: how many cores and from which state size.
#[derive(Debug)]
pub struct Parallel {
    /// The number of cores: the caller and `cores - 1` helpers.
    cores: usize,
    /// Pieces per cut state, at least.
    pieces: usize,
    /// States shorter than this are not cut.
    min_len: usize,
    /// A panic planted in the last piece of every hand-off, on a helper (see
    /// [`Parallel::plant_panic`]).
    planted: Option<&'static str>,
}

impl Parallel {
    /// A mode with `cores` cores (`cores - 1` helper threads besides the caller's during
    /// each run), cutting states of at least `min_len` bytes. `None` when `cores < 2`.
    pub fn new(cores: usize, min_len: usize) -> Option<Parallel> {
        (cores >= 2).then_some(Parallel {
            cores,
            pieces: cores * PIECES_PER_CORE,
            min_len: min_len.max(2),
            planted: None,
        })
    }

    /// Has a helper panic with `message` in the last piece of every hand-off (the caller
    /// leaves that piece to the helpers when one started): for the tests of what a panic
    /// on a helper does to a run.
    pub fn plant_panic(&mut self, message: &'static str) {
        self.planted = Some(message);
    }

    /// The number of cores.
    pub fn cores(&self) -> usize {
        self.cores
    }

    /// Runs `body` with a crew of helper threads that run `rules` on `state`; they stop
    /// when `body` returns. Hand-offs and the pieces the helpers ran are counted in
    /// `tally`. `helpers` are their scratch spaces (grown as needed). With
    /// `speculate`, the caller too searches each of its pieces of a stretch from the
    /// piece's start (see [`Crew::stretch`]).
    pub fn with_crew<R>(
        &self,
        rules: &Rules,
        speculate: bool,
        tally: &Tally,
        state: &RwLock<State>,
        helpers: &mut Vec<Scratch>,
        body: impl FnOnce(&Crew<'_>) -> R,
    ) -> R {
        if helpers.len() < self.cores - 1 {
            helpers.resize_with(self.cores - 1, Scratch::default);
        }
        let crew = Crew {
            rules,
            speculate,
            tally,
            state,
            parallel: self,
            job: Mutex::new(Job::default()),
            wake: Condvar::new(),
            claims: AtomicU64::new(0),
            results: Mutex::new(Results::default()),
            done: Condvar::new(),
            buffers: stretch::Buffers::default(),
            texts: Mutex::new(Vec::new()),
            started: AtomicUsize::new(0),
            failed: AtomicBool::new(false),
            failure: Mutex::new(None),
        };
        std::thread::scope(|scope| {
            let mut started = Vec::new();
            let crew = &crew;
            for scratch in helpers.iter_mut().take(self.cores - 1) {
                // A helper that cannot start is no error: the caller takes every piece
                // no helper claims, so fewer helpers (even none) give the same result.
                match spawn_helper(scope, move || crew.help(scratch)) {
                    Ok(handle) => started.push(handle),
                    Err(_) => break,
                }
            }
            crew.started.store(started.len(), Ordering::Relaxed);
            let result = {
                // Stops the helpers however the body ends, unwinding included: the
                // scope waits for them before it lets a panic of the caller go on.
                let _stop = Stop(crew);
                body(crew)
            };
            // Joined explicitly: the scope's own wait ends when a helper's closure
            // returns, before the thread has run its thread-local destructors; a join
            // waits for the thread to be gone, so nothing of it outlives the run (a
            // leak checker scanning then would report the destructor list; see
            // docs/fuzzing.md).
            for handle in started {
                if let Err(panic) = handle.join() {
                    panic::resume_unwind(panic);
                }
            }
            // A helper that panicked in a piece the caller never waited for.
            crew.rethrow();
            result
        })
    }
}

/// Tells the crew's helpers to stop when dropped.
struct Stop<'c, 'a>(&'c Crew<'a>);

impl Drop for Stop<'_, '_> {
    fn drop(&mut self) {
        lock(&self.0.job).stop = true;
        self.0.wake.notify_all();
    }
}

#[cfg(test)]
thread_local! {
    /// Tests set this to make every helper thread fail to start.
    static REFUSE_HELPERS: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

/// Starts a helper thread in `scope`; an error when the system refuses one.
fn spawn_helper<'scope, 'env>(
    scope: &'scope std::thread::Scope<'scope, 'env>,
    body: impl FnOnce() + Send + 'scope,
) -> std::io::Result<std::thread::ScopedJoinHandle<'scope, ()>> {
    #[cfg(test)]
    if REFUSE_HELPERS.with(std::cell::Cell::get) {
        return Err(std::io::Error::other("helper threads refused by the test"));
    }
    std::thread::Builder::new()
        .name("regex-chess-helper".to_string())
        .spawn_scoped(scope, body)
}

/// What the crew's pieces go through.
#[derive(Clone, Debug, Default)]
enum Work {
    /// Nothing yet.
    #[default]
    None,
    /// A rope run (`rope.rs`).
    Rope(Arc<Plan>),
    /// One rule that is not local, each piece from its start (`stretch.rs`), with the
    /// pieces' outputs indexed or not.
    Stretch { rule: usize, indexed: bool },
}

/// The hand-off the crew works on: its number (0: none yet), its work and the piece
/// bounds (piece `k` is `bounds[k]..bounds[k + 1]` of the state).
#[derive(Clone, Debug, Default)]
struct Job {
    generation: u64,
    work: Work,
    bounds: Arc<[usize]>,
    stop: bool,
}

/// A helper's piece: a rope piece's final texts when a rule changed it, or a stretch
/// piece's run.
#[derive(Debug)]
enum Output {
    Rope(Result<Option<Kept>, Broken>),
    Stretch(StretchRun),
}

/// What the helpers handed in: each piece with its hand-off's number, and the sum of
/// their totals for the hand-off `totals.0`.
#[derive(Debug, Default)]
struct Results {
    pieces: Vec<(u64, usize, Output)>,
    totals: (u64, Vec<Total>),
}

/// The claim word of hand-off `generation` with pieces `front..back` open.
fn claim_word(generation: u64, front: usize, back: usize) -> u64 {
    (generation << 32) | ((front as u64) << 16) | back as u64
}

/// The helper threads of one run and what they share with the caller.
///
/// The claim word holds the hand-off's number (32 bits) and the open pieces
/// `front..back` (16 bits each): the caller runs the first piece, then takes pieces from
/// the front while helpers take them from the back, so the caller never waits for a
/// helper that has not started (a busy machine only loses the hand-off, not the
/// caller's time); it waits only for pieces a helper is running.
pub struct Crew<'a> {
    rules: &'a Rules,
    /// Whether the caller searches each of its pieces of a stretch from the piece's start.
    speculate: bool,
    /// The executor's counters of hand-offs and helper pieces.
    tally: &'a Tally,
    state: &'a RwLock<State>,
    parallel: &'a Parallel,
    job: Mutex<Job>,
    wake: Condvar,
    claims: AtomicU64,
    results: Mutex<Results>,
    done: Condvar,
    /// The buffers of stretch pieces, from one rule to the next.
    buffers: stretch::Buffers,
    /// The text buffers of the helpers' rope pieces, from one run to the next.
    texts: Mutex<Vec<String>>,
    /// How many helper threads started.
    started: AtomicUsize,
    /// Set when a helper panicked; its payload waits in `failure` for the caller.
    failed: AtomicBool,
    failure: Mutex<Option<Box<dyn Any + Send + 'static>>>,
}

fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(PoisonError::into_inner)
}

impl Crew<'_> {
    /// Claims the next open piece of hand-off `generation`: from the front for the
    /// caller (leaving the last piece to the helpers when `spare_last`), from the back
    /// for a helper.
    fn claim(&self, generation: u64, front_side: bool, spare_last: bool) -> Option<usize> {
        let mut word = self.claims.load(Ordering::Acquire);
        loop {
            let (front, back) = (((word >> 16) & 0xffff) as usize, (word & 0xffff) as usize);
            let open = back - usize::from(spare_last);
            if word >> 32 != (generation & 0xffff_ffff) || front >= open {
                return None;
            }
            let (next, piece) = match front_side {
                true => (claim_word(generation, front + 1, back), front),
                false => (claim_word(generation, front, back - 1), back - 1),
            };
            match self
                .claims
                .compare_exchange_weak(word, next, Ordering::AcqRel, Ordering::Acquire)
            {
                Ok(_) => return Some(piece),
                Err(now) => word = now,
            }
        }
    }

    /// A helper's loop: wait for a hand-off, take open pieces from the back, hand their
    /// results in.
    fn help(&self, scratch: &mut Scratch) {
        let mut seen = 0;
        loop {
            let job = {
                let mut job = lock(&self.job);
                while job.generation == seen && !job.stop {
                    job = self.wake.wait(job).unwrap_or_else(PoisonError::into_inner);
                }
                if job.stop {
                    return;
                }
                seen = job.generation;
                job.clone()
            };
            let done = panic::catch_unwind(AssertUnwindSafe(|| self.help_with(&job, scratch)));
            if let Err(payload) = done {
                // The caller re-raises it; this helper takes no more pieces (its
                // scratch space may be half updated).
                lock(&self.failure).get_or_insert(payload);
                self.failed.store(true, Ordering::Release);
                let _results = lock(&self.results);
                self.done.notify_all();
                return;
            }
        }
    }

    /// Takes the open pieces of `job` from the back and hands their results in; for a
    /// rope run, its totals before its last piece (so that the caller, once it has every
    /// piece, has every total).
    fn help_with(&self, job: &Job, scratch: &mut Scratch) {
        let generation = job.generation;
        let pieces = job.bounds.len() - 1;
        let mut totals = match &job.work {
            Work::Rope(plan) => vec![Total::default(); plan.range.len()],
            _ => Vec::new(),
        };
        let mut held: Option<(usize, Output)> = None;
        while let Some(k) = self.claim(generation, false, false) {
            if let Some((k, output)) = held.take() {
                self.hand_in(generation, k, output);
            }
            if let Some(message) = self.parallel.planted
                && k + 1 == pieces
            {
                panic!("{message}");
            }
            let state = segments::read(self.state);
            let (text, index) = (state.flat_text(), state.flat_index());
            let output = match &job.work {
                Work::None => return,
                Work::Rope(plan) => {
                    let run = Run {
                        rules: self.rules,
                        plan,
                    };
                    let piece = piece(text, index, &job.bounds, k);
                    let buffer = lock(&self.texts).pop().unwrap_or_default();
                    let mut kept = Kept::new(buffer, plan.indexed);
                    let result = run.piece(scratch, piece, &mut totals, &mut kept);
                    Output::Rope(result.map(|changed| changed.then_some(kept)))
                }
                Work::Stretch { rule, indexed } => {
                    let stretch = Stretch {
                        rule: self.rules.parts(*rule),
                        hay: Hay { text, index },
                        indexed: *indexed,
                    };
                    let span = job.bounds[k]..job.bounds[k + 1];
                    Output::Stretch(stretch.run_piece(&mut scratch.caches, &self.buffers, span))
                }
            };
            self.tally.helper_piece();
            held = Some((k, output));
        }
        if held.is_some() && !totals.is_empty() {
            let mut results = lock(&self.results);
            if results.totals.0 != generation {
                results.totals = (generation, vec![Total::default(); totals.len()]);
            }
            rope::add_totals(&mut results.totals.1, &totals);
        }
        if let Some((k, output)) = held {
            self.hand_in(generation, k, output);
        }
    }

    /// Hands in a helper's piece `k` of hand-off `generation`.
    fn hand_in(&self, generation: u64, k: usize, output: Output) {
        let mut results = lock(&self.results);
        results.pieces.push((generation, k, output));
        self.done.notify_all();
    }

    /// Re-raises on the calling thread the panic of a helper, if one panicked.
    fn rethrow(&self) {
        if self.failed.load(Ordering::Acquire)
            && let Some(payload) = lock(&self.failure).take()
        {
            panic::resume_unwind(payload);
        }
    }

    /// Keeps the buffers of `runs` (from [`Crew::stretch`]) for later pieces.
    pub fn keep(&self, runs: Vec<StretchRun>) {
        self.buffers.keep(runs);
    }

    /// How many pieces the crew cuts a state into, at least.
    pub fn pieces(&self) -> usize {
        self.parallel.pieces
    }

    /// States shorter than this are not cut for the crew.
    pub fn min_len(&self) -> usize {
        self.parallel.min_len
    }

    /// Takes every piece of the flat state the crew reads, cut at `bounds` (which start
    /// at 0, end at its length and hold at least one cut and at most [`MAX_PIECES`]
    /// pieces), through the run `plan`, sharing the pieces with the helpers: the
    /// caller's pieces go into `join` as they are done, the helpers' after them, and
    /// every piece's effects are added to `totals`. [`Broken`] when some piece says so
    /// (`join` then means nothing).
    pub fn run(
        &self,
        plan: Plan,
        bounds: &[usize],
        scratch: &mut Scratch,
        join: &mut Join<'_>,
        totals: &mut [Total],
    ) -> Result<(), Broken> {
        let plan = Arc::new(plan);
        let run = Run {
            rules: self.rules,
            plan: &plan,
        };
        let indexed = plan.indexed;
        let job = Job {
            work: Work::Rope(Arc::clone(&plan)),
            bounds: bounds.into(),
            ..Job::default()
        };
        let state = segments::read(self.state);
        let (text, index) = (state.flat_text(), state.flat_index());
        let mut broken = false;
        let mine = |k: usize, scratch: &mut Scratch| {
            let mut sink = join.sink(bounds[k]..bounds[k + 1]);
            let piece = piece(text, index, bounds, k);
            broken |= run.piece(scratch, piece, totals, &mut sink).is_err();
            sink.end();
        };
        let theirs = self.share(job, scratch, mine);
        let mut helpers = Vec::new();
        for (k, output) in theirs {
            let Output::Rope(result) = output else {
                unreachable!("a rope run's pieces are rope pieces")
            };
            match result {
                Err(Broken) => broken = true,
                Ok(kept) => helpers.push((k, kept)),
            }
        }
        let results = lock(&self.results);
        if results.totals.0 == job_generation(&self.job) {
            rope::add_totals(totals, &results.totals.1);
        }
        drop(results);
        if broken {
            return Err(Broken);
        }
        for (k, kept) in helpers {
            let range = bounds[k]..bounds[k + 1];
            match &kept {
                Some(kept) => {
                    let index = kept.index.as_ref().filter(|_| indexed);
                    join.piece_texts(range, [(kept.text.as_str(), index)]);
                }
                None => join.piece_texts(range, []),
            }
            if let Some(kept) = kept {
                lock(&self.texts).push(kept.text);
            }
        }
        Ok(())
    }

    /// Applies `stretch`, rule `rule` of the crew's rules, to every piece of its text
    /// (the flat state the crew reads, cut at `bounds` as for [`Crew::run`]) as
    /// [`Stretch::run_piece`] does, sharing the pieces with the helpers: the caller's
    /// pieces, a prefix taken in order, each start where the one before ended (from
    /// `from` for the first), exactly, unless the crew speculates; a helper's each start
    /// at its bound. Returns the pieces' runs in order, for [`Stretch::join`].
    pub fn stretch(
        &self,
        rule: usize,
        stretch: Stretch<'_>,
        bounds: &[usize],
        from: usize,
        scratch: &mut Scratch,
    ) -> Vec<StretchRun> {
        let job = Job {
            work: Work::Stretch {
                rule,
                indexed: stretch.indexed,
            },
            bounds: bounds.into(),
            ..Job::default()
        };
        let mut end = from;
        let exact = !self.speculate;
        let buffers = &self.buffers;
        let mut runs = Vec::with_capacity(bounds.len() - 1);
        let mine = |k: usize, scratch: &mut Scratch| {
            let from = match (k, exact) {
                (0, _) | (_, true) => end.max(bounds[k]),
                (_, false) => bounds[k],
            };
            let run = stretch.run_piece(&mut scratch.caches, buffers, from..bounds[k + 1]);
            end = run.end;
            runs.push(run);
        };
        let theirs = self.share(job, scratch, mine);
        for (_, output) in theirs {
            let Output::Stretch(run) = output else {
                unreachable!("a stretch's pieces are stretch pieces")
            };
            runs.push(run);
        }
        runs
    }

    /// Publishes `job` (its generation set here), runs the first piece and every piece
    /// it can claim from the front with `mine`, in order, then waits for the helpers'
    /// pieces and returns them in order (the pieces after the caller's).
    fn share(
        &self,
        mut job: Job,
        scratch: &mut Scratch,
        mut mine: impl FnMut(usize, &mut Scratch),
    ) -> Vec<(usize, Output)> {
        let pieces = job.bounds.len() - 1;
        let generation = {
            let mut current = lock(&self.job);
            let generation = current.generation + 1;
            self.claims
                .store(claim_word(generation, 1, pieces), Ordering::Release);
            job.generation = generation;
            *current = job;
            generation
        };
        self.wake.notify_all();
        self.tally.hand_off();
        // With a planted panic, the last piece is left to a helper that started.
        let spare_last =
            self.parallel.planted.is_some() && self.started.load(Ordering::Relaxed) > 0;
        mine(0, scratch);
        let mut taken = 1;
        while let Some(k) = self.claim(generation, true, spare_last) {
            mine(k, scratch);
            taken = k + 1;
        }
        // Every piece from `taken` on is a helper's.
        let mut theirs: Vec<Option<Output>> = (taken..pieces).map(|_| None).collect();
        let mut missing = theirs.len();
        let mut results = lock(&self.results);
        while missing > 0 {
            let mut k = 0;
            while k < results.pieces.len() {
                if results.pieces[k].0 == generation {
                    let (_, piece, output) = results.pieces.swap_remove(k);
                    theirs[piece - taken] = Some(output);
                    missing -= 1;
                } else if results.pieces[k].0 < generation {
                    results.pieces.swap_remove(k);
                } else {
                    k += 1;
                }
            }
            if missing == 0 {
                break;
            }
            if self.failed.load(Ordering::Acquire) {
                drop(results);
                self.rethrow();
                results = lock(&self.results);
                continue;
            }
            results = self
                .done
                .wait(results)
                .unwrap_or_else(PoisonError::into_inner);
        }
        drop(results);
        theirs
            .into_iter()
            .enumerate()
            .map(|(i, output)| (taken + i, output.expect("every helper piece handed in")))
            .collect()
    }
}

/// The number of the crew's current hand-off.
fn job_generation(job: &Mutex<Job>) -> u64 {
    lock(job).generation
}

/// Piece `k` of `text` (indexed by `index` when held) cut at `bounds`.
fn piece<'t>(text: &'t str, index: Option<&'t Starts>, bounds: &[usize], k: usize) -> Piece<'t> {
    let (from, to) = (bounds[k], bounds[k + 1]);
    Piece {
        text: &text[from..to],
        whole_index: index.map(|whole| (whole, from)),
        first: k == 0,
        last: k + 2 == bounds.len(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// When no helper thread can start, the caller runs every piece: same results.
    #[test]
    fn runs_without_helper_threads_when_none_can_start() {
        use crate::exec::Executor;
        use crate::exec::fast::Fast;
        use crate::exec::reference::Reference;
        use crate::program::{Program, Rule};
        let program = Program::from_rules(vec![
            Rule::new("(%%\n#x: )([01]+)\n", "${1}${2}1\n"),
            Rule::new("%%\n([^%]*)", "%%\n${1}%%\n${1}"),
            Rule::new("#x: 0", "#x: z"),
        ])
        .validate()
        .unwrap();
        let state = "%%\n#x: 0\n".repeat(300);
        let want = Reference::new(program.clone()).run(&state);
        REFUSE_HELPERS.with(|refuse| refuse.set(true));
        let got = Fast::new(program).parallel(4, 1).run(&state);
        REFUSE_HELPERS.with(|refuse| refuse.set(false));
        assert_eq!(got, want);
    }

    /// The counters see every path: a rope run and a stretch handed off on two cores
    /// (each piece counted once), the rope alone on one core, nothing below the
    /// thresholds.
    #[test]
    fn the_counters_count_rope_runs_stretches_and_hand_offs() {
        use crate::exec::Executor;
        use crate::exec::fast::{Counters, Fast};
        use crate::program::{Program, Rule};
        let program = Program::from_rules(vec![
            // Two local rules: one rope run (one core needs two rules for it).
            Rule::new("(%%\n#x: )([01]+)\n", "${1}${2}1\n"),
            Rule::new("(#x: 0)1", "${1}1"),
            // Not local (it spans a thread boundary), but splittable: a stretch.
            Rule::new("1\n%%", "2\n%%"),
        ])
        .validate()
        .unwrap();
        let state = "%%\n#x: 0\n".repeat(300);
        let two = Fast::new(program.clone()).rope(1, 64).parallel(2, 1);
        two.run(&state).unwrap();
        let counted = two.counters();
        assert_eq!(
            (counted.rope_runs, counted.stretches),
            (1, 1),
            "{counted:?}"
        );
        assert_eq!(counted.hand_offs, 2, "{counted:?}");
        assert!(counted.pieces >= 4, "{counted:?}");
        assert!(counted.helper_pieces <= counted.pieces, "{counted:?}");
        let one = Fast::new(program.clone()).rope(1, 64);
        one.run(&state).unwrap();
        let counted = one.counters();
        assert_eq!(
            (counted.rope_runs, counted.stretches),
            (1, 0),
            "{counted:?}"
        );
        assert_eq!((counted.hand_offs, counted.helper_pieces), (0, 0));
        assert!(counted.pieces >= 2, "{counted:?}");
        // The defaults: nothing this small is cut.
        let plain = Fast::new(program).parallel(2, 1 << 16);
        plain.run(&state).unwrap();
        assert_eq!(plain.counters(), Counters::default());
        assert_eq!(Executor::counters(&plain), Some(Counters::default()));
    }

    /// A helper that panics in its piece ends the run with its panic on the calling
    /// thread (a rope run's hand-off and a stretch's), instead of leaving the caller
    /// waiting for the piece; the executor then runs again. The run goes on a thread of
    /// its own so that a hang fails the test instead of holding it up.
    #[test]
    fn a_panic_on_a_helper_ends_the_run_with_its_message() {
        use crate::exec::Executor;
        use crate::exec::fast::Fast;
        use crate::program::{Program, Rule};
        use std::sync::mpsc;
        use std::time::Duration;
        let local = [Rule::new("(%%\n#x: )([01]+)\n", "${1}${2}1\n")];
        // Not local (it spans a thread boundary), but splittable: a stretch.
        let stretch = [Rule::new("0\n%%", "0\n%q")];
        let state = "%%\n#x: 0\n".repeat(300);
        for rules in [&local[..], &stretch[..]] {
            let program = Program::from_rules(rules.to_vec()).validate().unwrap();
            let fast = Fast::new(program)
                .parallel(2, 1)
                .plant_helper_panic("planted in a helper's piece");
            let state = state.clone();
            let (send, receive) = mpsc::channel();
            std::thread::spawn(move || {
                let first = std::panic::catch_unwind(|| fast.run(&state));
                let second = std::panic::catch_unwind(|| fast.run(&state));
                send.send((first.err(), second.err())).unwrap();
            });
            let (first, second) = receive
                .recv_timeout(Duration::from_secs(120))
                .expect("the runs end instead of waiting for the helper's piece");
            for payload in [first, second] {
                let payload = payload.expect("the helper's panic reaches the caller");
                let message = payload
                    .downcast_ref::<String>()
                    .map(String::as_str)
                    .or_else(|| payload.downcast_ref::<&str>().copied());
                assert_eq!(message, Some("planted in a helper's piece"), "{rules:?}");
            }
        }
    }
}
