//! Opt-in multi-core mode of the fast executor: the pieces of a rope run (`rope.rs`: a
//! run of consecutive local rules on a large state cut at thread boundaries) are shared
//! between the cores, each piece taken through the whole run by one thread; so are the
//! pieces of a rule that is not local (`stretch.rs`: each piece searched from its
//! start, joined by the caller).
//!
//! Contract: [`Crew::run`] returns exactly the [`PieceRun`]s that [`Run::piece`] gives
//! for every piece, in order, whichever thread ran each; [`Crew::stretch`] returns
//! [`StretchRun`]s that [`Stretch::join`] turns into exactly the rule's result.
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
//! the rules and piece bounds, runs the first piece, then claims, first to last, every
//! piece no helper has claimed yet (one compare-and-swap per piece) while helpers claim
//! from the last piece back; so on a busy machine a sleeping helper costs a wake-up call,
//! not a wait, and the caller waits only for the pieces a helper took. One hand-off per
//! run of rules, not per rule: the state is cut and joined once per run. A rule that is
//! not local but splittable (`Compiled::splittable`) on a state of at least `min_len`
//! bytes is one hand-off of its own: the caller's pieces, a prefix taken in order,
//! start exactly where the piece before ended; a helper's start at their bounds and are
//! mended by the join where a match crossed into them.
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
//! Layer 7: uses `rope`, `stretch`, `state`, `rules` and `rewrite`.

use std::any::Any;
use std::panic::{self, AssertUnwindSafe};
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Condvar, Mutex, MutexGuard, PoisonError, RwLock};

use std::ops::Range;

use super::rewrite::Hay;
use super::rope::{Known, Mode, Piece, PieceRun, Run, Scratch};
use super::rules::Rules;
use super::state::{self, State};
use super::stretch::{self, Stretch, StretchRun};

/// Cut points for `pieces` pieces of `text`: each is the position of a `%` right after a
/// `\n`, at or after an equal share of the text, in increasing order (fewer when the text
/// has too few boundaries).
pub fn cuts(text: &[u8], pieces: usize) -> Vec<usize> {
    let mut out: Vec<usize> = Vec::with_capacity(pieces);
    for k in 1..pieces {
        let target = (text.len() * k / pieces).max(out.last().map_or(1, |&c| c + 1));
        if target >= text.len() {
            break;
        }
        match memchr::memmem::find(&text[target - 1..], b"\n%") {
            Some(i) => out.push(target + i),
            None => break,
        }
    }
    out
}

/// Pieces per core in a cut state: small pieces bound how long the caller can wait for a
/// helper that was descheduled in the middle of one.
const PIECES_PER_CORE: usize = 4;

/// The most pieces the crew shares out in one run.
pub const MAX_PIECES: usize = 256;

/// The multi-core mode: how many cores and from which state size.
#[derive(Debug)]
pub struct Parallel {
    /// The number of cores: the caller and `cores - 1` helpers.
    cores: usize,
    /// Pieces per cut state.
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
    /// when `body` returns. `helpers` are their scratch spaces (grown as needed). With
    /// `speculate`, the caller too searches each of its pieces of a stretch from the
    /// piece's start (see [`Crew::stretch`]).
    pub fn with_crew<R>(
        &self,
        rules: &Rules,
        speculate: bool,
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
            state,
            parallel: self,
            job: Mutex::new(Job::default()),
            wake: Condvar::new(),
            claims: (1..MAX_PIECES).map(|_| AtomicU64::new(1)).collect(),
            results: Mutex::new((0..MAX_PIECES).map(|_| Done::default()).collect()),
            done: Condvar::new(),
            buffers: stretch::Buffers::default(),
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
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
enum Work {
    /// A rope run (`rope.rs`).
    #[default]
    Rope,
    /// One rule that is not local, each piece from its start (`stretch.rs`).
    Stretch,
}

/// The run the crew works on: its number (0: none yet), what it is, its rules, whether
/// pieces record their history and keep an index, and the piece bounds.
#[derive(Clone, Debug, Default)]
struct Job {
    generation: u64,
    work: Work,
    rules: Range<usize>,
    absent: Vec<Known>,
    mode: Mode,
    bounds: Vec<usize>,
    stop: bool,
}

/// A piece's result: the generation it belongs to and the piece taken through the run
/// (or through the rule, for [`Work::Stretch`]).
#[derive(Debug, Default)]
struct Done {
    generation: u64,
    run: PieceRun,
    stretch: StretchRun,
}

/// The helper threads of one run and what they share with the caller.
///
/// Each piece but the first has a claim word: `2g` while piece of job `g` is open,
/// `2g + 1` once a thread took it. The caller runs the first piece, then takes every
/// piece still open, so it never waits for a helper that has not started (a busy
/// machine only loses the hand-off, not the caller's time); it waits only for pieces a
/// helper is running.
pub struct Crew<'a> {
    rules: &'a Rules,
    /// Whether the caller searches each of its pieces of a stretch from the piece's start.
    speculate: bool,
    state: &'a RwLock<State>,
    parallel: &'a Parallel,
    job: Mutex<Job>,
    wake: Condvar,
    claims: Vec<AtomicU64>,
    results: Mutex<Vec<Done>>,
    done: Condvar,
    /// The buffers of stretch pieces, from one rule to the next.
    buffers: stretch::Buffers,
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
    /// A helper's loop: wait for a job, take the open pieces, publish their results.
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
            // From the last piece back, while the caller goes forward: a late helper
            // takes few.
            for k in (1..job.bounds.len() - 1).rev() {
                let open = 2 * job.generation;
                if self.claims[k - 1]
                    .compare_exchange(open, open + 1, Ordering::AcqRel, Ordering::Acquire)
                    .is_err()
                {
                    continue;
                }
                let mut done = Done {
                    generation: job.generation,
                    ..Done::default()
                };
                let piece = panic::catch_unwind(AssertUnwindSafe(|| {
                    if let Some(message) = self.parallel.planted
                        && k + 2 == job.bounds.len()
                    {
                        panic!("{message}");
                    }
                    let state = state::read(self.state);
                    let (text, index) = (state.flat_text(), state.flat_index());
                    let (from, limit) = (job.bounds[k], job.bounds[k + 1]);
                    match job.work {
                        Work::Rope => {
                            let whole = Piece {
                                text,
                                whole_index: index.map(|whole| (whole, 0)),
                            };
                            let run = Run {
                                rules: self.rules,
                                range: job.rules.clone(),
                                known: &job.absent,
                                mode: job.mode,
                            };
                            done.run = run.piece(scratch, whole.cut(from..limit));
                        }
                        Work::Stretch => {
                            let stretch = Stretch {
                                rule: self.rules.parts(job.rules.start),
                                hay: Hay { text, index },
                                indexed: job.mode.indexed,
                            };
                            let caches = &mut scratch.caches;
                            done.stretch = stretch.run_piece(caches, &self.buffers, from..limit);
                        }
                    }
                }));
                if let Err(payload) = piece {
                    // The caller re-raises it; this helper takes no more pieces (its
                    // scratch space may be half updated).
                    lock(&self.failure).get_or_insert(payload);
                    self.failed.store(true, Ordering::Release);
                    let _results = lock(&self.results);
                    self.done.notify_all();
                    return;
                }
                let mut results = lock(&self.results);
                results[k] = done;
                self.done.notify_all();
            }
        }
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

    /// How many pieces the crew cuts a state into.
    pub fn pieces(&self) -> usize {
        self.parallel.pieces
    }

    /// States shorter than this are not cut for the crew.
    pub fn min_len(&self) -> usize {
        self.parallel.min_len
    }

    /// Takes every piece of `whole` (the flat state the crew reads, cut at `bounds`, which
    /// start at 0, end at its length and hold at least one cut and at most
    /// [`MAX_PIECES`] pieces) through `run` (whose rules must be the crew's), sharing the
    /// pieces with the helpers; returns the pieces' runs in order.
    pub fn run(
        &self,
        run: &Run<'_>,
        whole: Piece<'_>,
        bounds: &[usize],
        scratch: &mut Scratch,
    ) -> Vec<PieceRun> {
        let job = Job {
            work: Work::Rope,
            rules: run.range.clone(),
            absent: run.known.to_vec(),
            mode: run.mode,
            bounds: bounds.to_vec(),
            ..Job::default()
        };
        let mine = |k: usize, scratch: &mut Scratch| {
            run.piece(scratch, whole.cut(bounds[k]..bounds[k + 1]))
        };
        self.share(job, scratch, mine, |done| std::mem::take(&mut done.run))
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
            work: Work::Stretch,
            rules: rule..rule + 1,
            mode: Mode {
                history: false,
                indexed: stretch.indexed,
            },
            bounds: bounds.to_vec(),
            ..Job::default()
        };
        let mut end = from;
        let exact = !self.speculate;
        let buffers = &self.buffers;
        let mine = |k: usize, scratch: &mut Scratch| {
            let from = match (k, exact) {
                (0, _) | (_, true) => end.max(bounds[k]),
                (_, false) => bounds[k],
            };
            let run = stretch.run_piece(&mut scratch.caches, buffers, from..bounds[k + 1]);
            end = run.end;
            run
        };
        self.share(job, scratch, mine, |done| std::mem::take(&mut done.stretch))
    }

    /// Publishes `job` (its generation set here), runs the first piece and every piece
    /// no helper has claimed with `mine`, in order, and collects the others' results
    /// with `take` as they arrive.
    fn share<T>(
        &self,
        mut job: Job,
        scratch: &mut Scratch,
        mut mine: impl FnMut(usize, &mut Scratch) -> T,
        take: impl Fn(&mut Done) -> T,
    ) -> Vec<T> {
        let pieces = job.bounds.len() - 1;
        let generation = {
            let mut current = lock(&self.job);
            let generation = current.generation + 1;
            for (k, claim) in self.claims.iter().enumerate() {
                let open = k + 1 < pieces;
                claim.store(2 * generation + u64::from(!open), Ordering::Release);
            }
            job.generation = generation;
            *current = job;
            generation
        };
        self.wake.notify_all();
        // With a planted panic, the last piece is left to a helper that started.
        let planted = self.parallel.planted.is_some() && self.started.load(Ordering::Relaxed) > 0;
        let mut runs: Vec<Option<T>> = Vec::with_capacity(pieces);
        runs.push(Some(mine(0, scratch)));
        for k in 1..pieces {
            if planted && k + 1 == pieces {
                runs.push(None);
                continue;
            }
            let open = 2 * generation;
            let claimed = self.claims[k - 1]
                .compare_exchange(open, open + 1, Ordering::AcqRel, Ordering::Acquire)
                .is_ok();
            runs.push(claimed.then(|| mine(k, scratch)));
        }
        let mut results = lock(&self.results);
        let mut out = Vec::with_capacity(runs.len());
        for (k, run) in runs.into_iter().enumerate() {
            out.push(match run {
                Some(run) => run,
                None => {
                    while results[k].generation != generation {
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
                    take(&mut results[k])
                }
            });
        }
        out
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

    #[test]
    fn cuts_sit_before_a_percent_after_a_newline() {
        let text = b"%%\na\n%%\nb\n%p\nc\n";
        assert_eq!(cuts(text, 2), [10]);
        assert_eq!(cuts(text, 3), [5, 10]);
        // No boundary: no cut; a boundary only near the start: one cut at most.
        assert!(cuts(b"abc%\nd%", 2).is_empty());
        assert_eq!(cuts(b"\n%abcdefgh", 4), Vec::<usize>::new());
        assert_eq!(cuts(b"a\n%\n%\n%", 8), [2, 4, 6]);
        for (text, n) in [(&text[..], 5), (b"\n%\n%", 3)] {
            for c in cuts(text, n) {
                assert!(c > 0 && text[c] == b'%' && text[c - 1] == b'\n');
            }
        }
    }
}
