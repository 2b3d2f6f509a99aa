//! The fast executor: same results as [`super::reference::Reference`], byte for byte, with
//! far less work per rule.
//!
//! Contract: for every program, state and rule range, [`Fast`] returns the state the
//! reference returns and reports every rule index in order to the observer (with the same
//! match counts when the observer wants them). `skipped: true` means the rule was not
//! searched: a literal every match needs is absent (0 matches), or the identical previous
//! rule changed nothing (it then reports that rule's matches, which it would find again).
//!
//! Pieces, in layers (a file uses only files of the layers below it):
//! 1. Shared helpers. `syntax`: a pattern's parse, its ASCII cut-down form for the lazy
//!    DFAs, and a binary form of parses. `literal`: literal prefixes, required literals
//!    and fixed literal groups, from the pattern's HIR, and the `memmem` finders of the
//!    executor, which rank bytes by their frequency in the machine's states.
//!    `remembered` (uses both): what the program cache keeps of each pattern
//!    ([`parse_table`], [`remember_parses`]), its parse and its needed literals, so
//!    that a fresh process does not parse again and
//!    skips a rule whose state lacks a needed literal before compiling its pattern;
//!    with it, each compiled pattern's plain data ([`parse_table`]). `nfa_form`: an
//!    NFA as plain data, its states that behave alike merged, replayed into the NFA
//!    builder (the program cache keeps the NFAs of the lazy DFAs a fresh process is sure
//!    to build, and those of the `lines` parts).
//!    `starts`: the index of the state's `%` bytes, built on first need on large states
//!    and kept by `rewrite`: rules whose matches start with a `%`-literal walk it for
//!    their candidates instead of calling memmem once per thread. `local`: which
//!    patterns may run on pieces cut at thread boundaries.
//! 2. Matchers. `linear`: plain-sequence patterns (push, pop, lookups, forks): an
//!    anchored depth-first search with memchr/memmem that finds the match end and its
//!    groups at once. `lockstep`: several anchored lazy-DFA walks interleaved. `lines`
//!    (uses `linear`, `lockstep`, `nfa_form`): patterns that skip whole lines to one line of a
//!    thread (`L (?:[^%\n]*\n)* M R [^%]*`): memchr/memmem to the lines starting with
//!    `M`, an anchored DFA for the rest only there.
//! 3. The compiled pattern. `pattern`: each distinct pattern compiled once, lazily on
//!    first use, into the matchers above, an anchored lazy DFA (or `meta::Regex` when
//!    there is no literal to anchor at) and capture engines built only when a template
//!    needs them.
//! 4. The rewrite. `rewrite`: one output pass per rule with `replace_all`'s empty-match
//!    rules, over the whole text or a stretch of it (the matches that start before a
//!    limit).
//! 5. The state, the rope and the cores. `state`: the state between rules, flat (with its
//!    `%` index) or cut into thread segments. `rope`: a run of consecutive local rules
//!    taken through the pieces of the state cut at thread boundaries, piece after piece,
//!    each written into the state's spare buffer once done (on one core, by default on
//!    states from [`DEFAULT_ROPE_MIN`]; [`Fast::rope`]). `stretch`: one rule that is not
//!    local, on a state cut anywhere: each piece searched from its start, the pieces
//!    joined in order with the matches that cross a cut searched again. `parallel`: the
//!    opt-in multi-core mode ([`Fast::parallel`]): the pieces of each rope run, and of
//!    each stretch, shared between the cores. They run rules through this module's
//!    [`Fast`], the one place where files use each other.
//!
//! Trade-offs: start-up only deduplicates patterns; nothing is compiled until a rule runs
//! (and, when the needed literals are remembered, finds them all in the state), so a run
//! that touches few patterns pays for few. A run that meets patterns not yet
//! compiled has a helper thread compile them ahead of it ([`Fast::compile_ahead`]). Lazy-DFA caches are pooled between
//! runs so that repeated runs (a game, a benchmark) reuse the states already built.

mod linear;
mod lines;
mod literal;
mod local;
mod lockstep;
mod nfa_form;
mod parallel;
mod pattern;
mod remembered;
mod rewrite;
mod rope;
mod starts;
mod state;
mod stretch;
mod syntax;

#[cfg(test)]
mod generated;
#[cfg(test)]
mod tests;

use std::collections::HashMap;
use std::ops::{ControlFlow, Range};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, OnceLock, PoisonError, RwLock};

use super::{Executor, Observer, RuleReport};
use crate::program::ValidProgram;
use pattern::{Cache, Compiled};
use rewrite::GroupNeed;
use state::State;

pub use remembered::{forget as forget_parses, remember as remember_parses};

/// The table the program cache keeps of `patterns` (see `remembered.rs`): for each
/// distinct pattern its parse, the literals its matches need and its compiled form's
/// plain data ([`Compiled::store`]), for [`remember_parses`].
pub fn parse_table<'a>(patterns: impl IntoIterator<Item = &'a str>) -> Vec<u8> {
    remembered::table(patterns, Compiled::store)
}
pub use syntax::DecodeError as ParsedTableError;

/// The default size below which the multi-core mode does not cut a state (see PERF.md,
/// "Several cores").
pub const DEFAULT_SPLIT_MIN: usize = 1 << 16;

/// One distinct pattern: its source and its engines, compiled on first use.
#[derive(Debug)]
struct PatternSlot {
    source: String,
    compiled: OnceLock<Compiled>,
    /// The pattern's needed literals ([`Compiled::needed_literals`]) when the program
    /// cache remembered them (see `remembered.rs`): a rule can then be skipped before
    /// its pattern is compiled.
    needed: Option<remembered::Needed>,
    /// The ids of the needed literals.
    literal_ids: OnceLock<Box<[LiteralId]>>,
    /// [`Compiled::splittable`], decided on first use.
    splittable: OnceLock<bool>,
}

impl PatternSlot {
    fn get(&self) -> &Compiled {
        self.compiled.get_or_init(|| self.build())
    }

    /// The compiled pattern, built outside the lock when it is not built yet (see
    /// `syntax::set_built`): for the helper that compiles ahead, so that a run that
    /// meets the pattern meanwhile compiles it itself instead of waiting.
    fn get_ahead(&self) -> &Compiled {
        syntax::set_built(&self.compiled, || self.build())
    }

    /// Compiles the pattern.
    fn build(&self) -> Compiled {
        // The stored form when the program cache kept one (shared out of the table,
        // which is not locked while the pattern is compiled), else the parse.
        let stored = remembered::stored(&self.source, |form, stored| {
            (Arc::clone(form), Arc::clone(stored))
        });
        let from_stored = stored.and_then(|(form, stored)| {
            let compiled = Compiled::from_stored(form, &stored);
            debug_assert!(compiled.is_ok(), "the stored form of {:?}", self.source);
            compiled.ok()
        });
        let compiled = from_stored.unwrap_or_else(|| {
            let (hir, prefix) = remembered::parse(&self.source);
            Compiled::from_hir_known(&hir, prefix.as_ref())
        });
        debug_assert!(
            self.needed
                .as_ref()
                .is_none_or(|needed| needed.iter().map(|l| &l[..]).eq(compiled.needed_literals())),
            "the remembered needed literals of {:?}",
            self.source
        );
        compiled
    }

    /// The compiled pattern and the ids of its needed literals.
    fn get_with_ids(&self, literals: &Literals) -> (&Compiled, &[LiteralId]) {
        let compiled = self.get();
        (compiled, self.ids(literals))
    }

    /// The ids of the needed literals, compiling the pattern only when they were not
    /// remembered.
    fn ids(&self, literals: &Literals) -> &[LiteralId] {
        self.literal_ids.get_or_init(|| match &self.needed {
            Some(needed) => literals.ids(needed.iter().map(|l| &l[..])),
            None => literals.ids(self.get().needed_literals()),
        })
    }

    /// Whether the pattern may run on a state cut anywhere (see `stretch.rs`).
    fn splittable(&self) -> bool {
        *self.splittable.get_or_init(|| self.get().splittable())
    }

    /// The remembered needed literals when the pattern is not compiled yet.
    fn needed_before_compiling(&self) -> Option<&[Box<[u8]>]> {
        match self.compiled.get() {
            Some(_) => None,
            None => self.needed.as_deref(),
        }
    }
}

/// The default size from which one core runs runs of local rules as a rope (see
/// [`Fast::rope`]): 4 MB. Below it the flat state (the text and its spare buffer) stays
/// within or near a core's 2 MB L2 cache on the machine measured, and each rule's fixed
/// cost, paid once per piece on the rope, outweighs the copies the rope saves: the warm
/// 2-ply move on the bench positions took as much CPU time or up to 10% more with the
/// rope from 64 KB although it runs 2% fewer instructions, and the 3-ply search on the
/// promotion position (states to 5.9 MB) 10-15% more with the rope from 2 MB, as much
/// from 4 MB. On kiwipete's 3-ply search (27 MB) the rope from 4 MB took 10-25% less
/// (PERF.md, "The rope by default from 4 MB"). Several cores always use it on the
/// states they cut.
pub const DEFAULT_ROPE_MIN: usize = 1 << 22;

/// The largest state on which the helper that compiles ahead checks a pattern's needed
/// literals before compiling it (see [`Fast::lacks_needed`]): one search per literal
/// of every pattern ahead costs little on a small state, and the patterns it leaves out
/// are what a small state's first move wastes most on.
const AHEAD_CHECK_MAX: usize = 1 << 15;

/// The default length of a rope's pieces (see [`Fast::rope`]).
pub const DEFAULT_ROPE_PIECE: usize = 1 << 15;

/// The default size from which the state keeps an index of its `%` bytes for rules whose
/// matches start with a `%`-literal (see `starts.rs`): 1 KB. The endgames' states are of
/// a few KB, where walking the index still costs less than a `memmem` search per
/// candidate: from 16 KB (the earlier default), king and pawn's warm move ran 2% more
/// instructions (PERF.md, "Small states").
pub const DEFAULT_INDEX_MIN: usize = 1 << 10;

/// Scratch space for one run: one cache per distinct pattern, made on first use.
#[derive(Debug, Default)]
struct Scratch {
    caches: Vec<Option<Box<Cache>>>,
    /// Whether the run's texts are all ASCII throughout (see [`Fast::ascii_templates`]):
    /// every cache taken through [`Scratch::cache`] is set to it ([`Cache::set_ascii`]).
    /// `false` (the default) is right for every text.
    ascii: bool,
    /// The scratch spaces of the multi-core mode's helper threads (empty on one core).
    helpers: Vec<Scratch>,
    /// The pieces of earlier rope runs, whose buffers later runs reuse (see
    /// `rope::recycle`).
    piece_runs: Vec<rope::PieceRun>,
    /// Text buffers of earlier rope runs' pieces, for the next pieces (see
    /// `rope::release_buffers`).
    piece_buffers: Vec<String>,
    /// The spare index of `%` bytes of a rope's piece (see `rope::run_piece`), reused
    /// between pieces.
    piece_starts: starts::Starts,
}

/// Needed literals searched for in the state, each with the state version it was
/// searched in and its first position there, or its absence: while the state has not
/// changed since, a rule that needs an absent one cannot match and is skipped without a
/// search (a branch whose threads are all elsewhere runs hundreds of rules that would
/// each scan the whole state for the same missing tag), and a rule whose literals were
/// all found takes their positions without a search (the machine's rules between two
/// changes of the state mostly share the stack's `%%\n#stack:\n` prefix). Literals are
/// known by their [`LiteralId`], so a lookup is an index, not a hash.
#[derive(Debug, Default)]
struct Seen {
    /// Bumped every time a rule changes the state.
    version: u64,
    /// For each literal id, one more than the version it was last searched in (0:
    /// never), and its first position then ([`Seen::ABSENT`]: none).
    found_in: Vec<(u64, usize)>,
}

impl Seen {
    /// The position recorded for a literal found absent.
    const ABSENT: usize = usize::MAX;

    /// What is known of `literal` in the current state: `Some(Some(at))`, its first
    /// position; `Some(None)`, absent; `None`, not searched since the state changed.
    fn known(&self, literal: LiteralId) -> Option<Option<usize>> {
        match self.found_in.get(literal.0) {
            Some(&(version, at)) if version == self.version + 1 => {
                Some((at != Self::ABSENT).then_some(at))
            }
            _ => None,
        }
    }

    fn is_absent(&self, literal: LiteralId) -> bool {
        self.known(literal) == Some(None)
    }

    /// Records the first position of `literal` in the current state (`None`: absent).
    fn record(&mut self, literal: LiteralId, first: Option<usize>) {
        if self.found_in.len() <= literal.0 {
            self.found_in.resize(literal.0 + 1, (0, 0));
        }
        self.found_in[literal.0] = (self.version + 1, first.unwrap_or(Self::ABSENT));
    }

    /// The first position of `literal`: the one recorded in the current state, else
    /// `find`'s answer, then recorded.
    fn first_of(
        &mut self,
        literal: LiteralId,
        find: &mut dyn FnMut() -> Option<usize>,
    ) -> Option<usize> {
        if let Some(known) = self.known(literal) {
            return known;
        }
        let first = find();
        self.record(literal, first);
        first
    }

    fn state_changed(&mut self) {
        self.version += 1;
    }
}

/// A literal some pattern needs ([`Compiled::needed_literals`]), numbered once per
/// executor: equal literals of different patterns share one id.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct LiteralId(usize);

/// Numbers needed literals as patterns are compiled.
#[derive(Debug, Default)]
struct Literals(Mutex<HashMap<Vec<u8>, usize>>);

impl Literals {
    /// The ids of `needed`, a pattern's needed literals, in order.
    fn ids<'a>(&self, needed: impl Iterator<Item = &'a [u8]>) -> Box<[LiteralId]> {
        let mut known = self.0.lock().unwrap_or_else(PoisonError::into_inner);
        needed
            .map(|literal| {
                let next = known.len();
                // A literal met before is looked up without copying it.
                match known.get(literal) {
                    Some(&id) => LiteralId(id),
                    None => LiteralId(*known.entry(literal.to_vec()).or_insert(next)),
                }
            })
            .collect()
    }
}

/// How many bytes of lazy-DFA states a scratch space may keep between runs, and how
/// many it keeps when it had more (see [`Scratch::trim`]).
const KEPT_STATES_MAX: usize = 24 << 20;
const KEPT_STATES_AFTER_TRIM: usize = 8 << 20;

impl Scratch {
    /// The cache of pattern `id`, made on first use, set for this run's texts.
    fn cache(&mut self, id: usize) -> &mut Cache {
        if self.caches.len() <= id {
            self.caches.resize_with(id + 1, || None);
        }
        let cache = self.caches[id].get_or_insert_with(Box::default);
        cache.set_ascii(self.ascii);
        cache
    }

    /// Bounds what is kept between runs: when the lazy DFAs' states add up to more than
    /// `max` bytes, the largest caches forget theirs until at most `after` are left. The
    /// gap between the two is room for the states one move builds (about 12 MB on the
    /// widest bench position), so repeated runs of one move keep all they need after
    /// at most one trim; a game, whose every move meets new texts and builds new
    /// states, no longer accumulates them without end (over 50 MB in ten moves).
    fn trim(&mut self, max: usize, after: usize) {
        let mut sizes: Vec<(usize, usize)> = self
            .caches
            .iter()
            .enumerate()
            .filter_map(|(id, c)| Some((c.as_ref()?.lazy_memory(), id)))
            .filter(|&(size, _)| size > 0)
            .collect();
        let mut total: usize = sizes.iter().map(|&(size, _)| size).sum();
        if total <= max {
            return;
        }
        sizes.sort_unstable_by(|a, b| b.cmp(a));
        for (size, id) in sizes {
            if total <= after {
                break;
            }
            if let Some(cache) = &mut self.caches[id] {
                cache.forget_states();
                total -= size;
            }
        }
    }
}

/// Runs programs quickly.
#[derive(Debug)]
pub struct Fast {
    program: ValidProgram,
    patterns: Vec<PatternSlot>,
    /// The pattern slot of each rule.
    rule_pattern: Vec<usize>,
    /// Whether rule `i` has the same pattern and replacement as rule `i - 1`.
    same_as_previous: Vec<bool>,
    /// Whether every replacement of the program is ASCII: a rule only copies bytes of
    /// the state and writes its template's literals, so a run whose text is ASCII then
    /// keeps an ASCII state throughout, and its lazy DFAs need no quit bytes (see
    /// `syntax::AsciiDfa`).
    ascii_templates: bool,
    /// How each rule's template uses groups, decided when its pattern is first compiled.
    needs: Vec<OnceLock<GroupNeed>>,
    /// Scratch spaces of finished runs, reused by later runs.
    pool: Mutex<Vec<Scratch>>,
    /// States at least this long use the segmented form for rules that allow it.
    segment_min_len: usize,
    /// The multi-core mode, when on.
    parallel: Option<parallel::Parallel>,
    /// On one core, states at least this long run runs of local rules as a rope.
    rope_min_len: usize,
    /// The length of a rope's pieces.
    rope_piece_len: usize,
    /// States at least this long keep an index of their `%` bytes once a rule whose
    /// prefix starts with `%` meets them.
    index_min_len: usize,
    /// Ids of the needed literals met so far.
    literals: Literals,
    /// Whether a run that meets patterns not compiled yet has a helper thread compile
    /// them ahead of it (see [`Fast::compile_ahead`]).
    compile_ahead: bool,
    /// Whether the caller, too, searches each of its pieces of a rule that is not local
    /// from the piece's start (see [`Fast::speculate`]).
    speculate: bool,
    /// Set once a helper went through every rule of the program: later runs start none
    /// (a pattern still not compiled, one no run has needed, is compiled on first use).
    all_compiled: AtomicBool,
}

impl Fast {
    /// Prepares `program`: finds its distinct patterns and runs of identical rules. No
    /// pattern is compiled yet.
    pub fn new(program: ValidProgram) -> Fast {
        let mut ids: HashMap<&str, usize> = HashMap::new();
        let mut patterns = Vec::new();
        let mut rule_pattern = Vec::with_capacity(program.rules().len());
        for rule in program.rules() {
            let id = *ids.entry(rule.pattern.as_str()).or_insert_with(|| {
                patterns.push(PatternSlot {
                    source: rule.pattern.clone(),
                    compiled: OnceLock::new(),
                    needed: None,
                    literal_ids: OnceLock::new(),
                    splittable: OnceLock::new(),
                });
                patterns.len() - 1
            });
            rule_pattern.push(id);
        }
        let needed = remembered::needed(patterns.iter().map(|p| p.source.as_str()));
        for (slot, needed) in patterns.iter_mut().zip(needed) {
            slot.needed = needed;
        }
        let rules = program.rules();
        let same_as_previous = (0..rules.len())
            .map(|i| {
                i > 0
                    && rule_pattern[i] == rule_pattern[i - 1]
                    && rules[i].replacement == rules[i - 1].replacement
            })
            .collect();
        let needs = (0..rules.len()).map(|_| OnceLock::new()).collect();
        let ascii_templates = rules.iter().all(|r| r.replacement.is_ascii());
        Fast {
            program,
            patterns,
            rule_pattern,
            same_as_previous,
            ascii_templates,
            needs,
            pool: Mutex::new(Vec::new()),
            segment_min_len: usize::MAX,
            parallel: None,
            rope_min_len: DEFAULT_ROPE_MIN,
            rope_piece_len: DEFAULT_ROPE_PIECE,
            index_min_len: DEFAULT_INDEX_MIN,
            literals: Literals::default(),
            compile_ahead: std::thread::available_parallelism().is_ok_and(|n| n.get() > 1),
            all_compiled: AtomicBool::new(false),
            speculate: false,
        }
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

    /// Compiles, in rule order, the patterns of the rules of `range` from rule `at` on
    /// (read again after each pattern: the run compiles what it meets itself) until
    /// `stop` is set, leaving out those `state` lacks a needed literal of right now (see
    /// [`Fast::lacks_needed`]); sets `all_compiled` when it went through every rule of
    /// the program (later runs compile what they meet that is still not compiled, as
    /// they would without a helper). Then, until `stop`, goes again over the left-out
    /// rules still ahead of the run, in rule order, and compiles the patterns whose
    /// literals the state has gained meanwhile (the run's earlier rules write them):
    /// the first pass meets the state as the run started it, before the rules that
    /// write the tags most patterns need, so it used to leave out nearly all of them
    /// and end within the run's first rules (PERF.md, "Cold start"). With each pattern
    /// it builds the engines a search of it is sure to build
    /// ([`Compiled::build_search_engines`]) for texts that are all ASCII when `ascii`
    /// (the run's [`Scratch::ascii`]).
    fn compile_rules(
        &self,
        range: Range<usize>,
        at: &AtomicUsize,
        stop: &AtomicBool,
        state: &RwLock<State>,
        ascii: bool,
    ) {
        let whole = range == (0..self.rule_pattern.len());
        // The rules left out for a literal the state lacked, in rule order.
        let mut left_out = Vec::new();
        let mut index = range.start;
        while index < range.end {
            if stop.load(Ordering::Relaxed) {
                return;
            }
            // Patterns the run has already passed are its own business.
            index = index.max(at.load(Ordering::Relaxed) + 1);
            let Some(&id) = self.rule_pattern.get(index) else {
                break;
            };
            if index < range.end {
                if self.lacks_needed(&self.patterns[id], state) {
                    left_out.push(index);
                } else {
                    self.compile_rule(index, ascii);
                }
            }
            index += 1;
        }
        if whole && index >= range.end {
            self.all_compiled.store(true, Ordering::Relaxed);
        }
        // The state as last checked: the left-out patterns are checked against a copy,
        // taken under the lock only when the state changed, so that the helper holds the
        // lock for a copy's time, not for a search per pattern (a helper preempted while
        // it holds the lock would hold up the run's next rule).
        let mut text = String::new();
        while !left_out.is_empty() && !stop.load(Ordering::Relaxed) {
            let checkable = match state.try_read() {
                Ok(guard) => match guard.text_if_flat() {
                    Some(now) if now.len() <= AHEAD_CHECK_MAX && now == text => None,
                    Some(now) if now.len() <= AHEAD_CHECK_MAX => {
                        text.clear();
                        text.push_str(now);
                        Some(true)
                    }
                    // Too large to check, as in `lacks_needed`: compile them all.
                    _ => Some(false),
                },
                Err(_) => None,
            };
            let Some(checkable) = checkable else {
                // Unchanged, or being written: give the run time to change the state.
                std::thread::sleep(std::time::Duration::from_micros(100));
                continue;
            };
            left_out.retain(|&index| {
                let slot = &self.patterns[self.rule_pattern[index]];
                if stop.load(Ordering::Relaxed) {
                    return true;
                }
                // Passed by the run, or compiled for another rule of its pattern.
                if index <= at.load(Ordering::Relaxed) || slot.compiled.get().is_some() {
                    return false;
                }
                let lacks = |needed: &[Box<[u8]>]| {
                    let bytes = text.as_bytes();
                    needed
                        .iter()
                        .any(|l| memchr::memmem::find(bytes, l).is_none())
                };
                if checkable && slot.needed_before_compiling().is_some_and(lacks) {
                    return true;
                }
                self.compile_rule(index, ascii);
                false
            });
        }
    }

    /// Compiles the pattern of rule `index` and the engines its search is sure to build
    /// (for texts that are all ASCII when `ascii`), and decides how its template uses
    /// groups.
    fn compile_rule(&self, index: usize, ascii: bool) {
        let slot = &self.patterns[self.rule_pattern[index]];
        let compiled = slot.get_ahead();
        slot.ids(&self.literals);
        compiled.build_search_engines(ascii);
        let template = self.program.template(index);
        self.needs[index].get_or_init(|| rewrite::group_need(template, compiled));
    }

    /// Whether `state` lacks, right now, a literal that the pattern of `slot` needs (its
    /// remembered needed literals, while it is not compiled), on a flat state of at most
    /// [`AHEAD_CHECK_MAX`] bytes that no rule is writing: a rule of that pattern met
    /// now would be skipped without compiling it. The helper that compiles ahead leaves
    /// such patterns to the run, which compiles one itself if its literal appears by the
    /// time it gets there: in a fresh process's first move on the endgames, the helper
    /// compiled a pattern for every rule ahead, and about 10 M instructions of it went to
    /// patterns whose rules the run then skipped (PERF.md, "Cold start").
    fn lacks_needed(&self, slot: &PatternSlot, state: &RwLock<State>) -> bool {
        let Some(needed) = slot.needed_before_compiling() else {
            return false;
        };
        let Ok(guard) = state.try_read() else {
            return false;
        };
        match guard.text_if_flat() {
            Some(text) if text.len() <= AHEAD_CHECK_MAX => needed
                .iter()
                .any(|literal| memchr::memmem::find(text.as_bytes(), literal).is_none()),
            _ => false,
        }
    }

    /// Whether some rule of `range` has a pattern not compiled yet.
    fn uncompiled(&self, range: &Range<usize>) -> bool {
        !self.all_compiled.load(Ordering::Relaxed)
            && self.rule_pattern[range.clone()]
                .iter()
                .any(|&id| self.patterns[id].compiled.get().is_none())
    }

    /// Turns on the thread-segmented state (see `state.rs`) for states of at least
    /// `min_len` bytes. Off by default: on the benchmarks in PERF.md, where every thread
    /// matches, its per-segment overhead makes it about three times slower than the flat
    /// path; it pays only when rules touch few of many threads. Results are identical
    /// either way.
    pub fn segmented(mut self, min_len: usize) -> Fast {
        self.segment_min_len = min_len;
        self
    }

    /// Has states of at least `min_len` bytes keep the index of their `%` bytes (see
    /// `starts.rs`), from which rules whose matches start with a `%`-literal take their
    /// candidates instead of scanning ([`DEFAULT_INDEX_MIN`] by default; `usize::MAX`
    /// turns it off). Results are identical either way.
    pub fn index_starts(mut self, min_len: usize) -> Fast {
        self.index_min_len = min_len;
        self
    }

    /// Runs runs of consecutive local rules (see `local.rs`) on states of at least
    /// `min_len` bytes on `cores` cores: as a rope (see `rope.rs`, even a run of one
    /// rule), its pieces shared between the cores (see `parallel.rs`). One core (the
    /// default) turns it off; a failure to start the helper threads leaves every piece to
    /// the caller. Results, match counts and reports are identical either way.
    pub fn parallel(mut self, cores: usize, min_len: usize) -> Fast {
        self.parallel = parallel::Parallel::new(cores, min_len);
        self
    }

    /// On one core, runs runs of at least two consecutive local rules (see `local.rs`)
    /// on states of at least `min_len` bytes as a rope (see `rope.rs`): the state cut at
    /// thread boundaries into pieces of about `piece_len` bytes, each taken through the
    /// whole run in turn (from [`DEFAULT_ROPE_MIN`] by default; pieces of
    /// [`DEFAULT_ROPE_PIECE`] bytes by default). With several cores ([`Fast::parallel`]) local rules on
    /// states of the multi-core mode's size always run as a rope, its pieces shared between
    /// the cores, and no shorter than `piece_len`. Results are identical either way.
    pub fn rope(mut self, min_len: usize, piece_len: usize) -> Fast {
        self.rope_min_len = min_len;
        self.rope_piece_len = piece_len.max(1);
        self
    }

    /// The number of cores rules may run on (1 unless [`Fast::parallel`] turned more on).
    pub fn cores(&self) -> usize {
        self.parallel.as_ref().map_or(1, parallel::Parallel::cores)
    }

    /// The number of distinct patterns.
    pub fn distinct_patterns(&self) -> usize {
        self.patterns.len()
    }

    /// Applies rule `index` to the whole of `state`, sharing its pieces with `crew` when
    /// there is one and the state is large enough for it (see `stretch.rs`). Returns the
    /// report's `matches` and `skipped` and whether the state changed.
    fn apply(
        &self,
        index: usize,
        state: &RwLock<State>,
        scratch: &mut Scratch,
        seen: &mut Seen,
        crew: Option<&parallel::Crew<'_>>,
    ) -> (usize, bool, bool) {
        let id = self.rule_pattern[index];
        let slot = &self.patterns[id];
        let literal_ids = slot.ids(&self.literals);
        if literal_ids.iter().any(|&l| seen.is_absent(l)) {
            return (0, true, false);
        }
        if let Some(needed) = slot.needed_before_compiling() {
            // What `first_possible` would find, without compiling the pattern: many
            // rules of a fresh process are skipped for a literal their state lacks.
            let mut guard = write(state);
            if guard.len() < self.segment_min_len {
                let (text, _) = guard.flat();
                let missing = needed.iter().zip(literal_ids).any(|(literal, &id)| {
                    let mut find = || memchr::memmem::find(text.as_bytes(), literal);
                    seen.first_of(id, &mut find).is_none()
                });
                if missing {
                    return (0, true, false);
                }
            }
        }
        let compiled = slot.get();
        let template = self.program.template(index);
        let need = *self.needs[index].get_or_init(|| rewrite::group_need(template, compiled));
        let mut guard = write(state);
        let cache = scratch.cache(id);
        if let Some(prefix) = compiled.segment_prefix()
            && guard.len() >= self.segment_min_len
            && let Some(result) = by_segment(compiled, cache, template, need, prefix, &mut guard)
        {
            return result;
        }
        if compiled.percent_prefixed() && guard.len() >= self.index_min_len {
            guard.build_index();
        }
        let (text, starts) = guard.flat();
        let first_of = |k: usize, find: &mut dyn FnMut() -> Option<usize>| match literal_ids.get(k)
        {
            Some(&id) => seen.first_of(id, find),
            None => find(),
        };
        let Ok(from) = compiled.first_possible_known(text, starts, first_of) else {
            return (0, true, false);
        };
        if let Some(crew) = crew
            && text.len() >= crew.min_len()
            && slot.splittable()
        {
            drop(guard);
            return self.apply_stretched(index, state, scratch, crew, from);
        }
        let cache = scratch.cache(id);
        let (text, out, index) = guard.buffers();
        match rewrite::rewrite(compiled, cache, template, need, text, from, out, index) {
            None => (0, false, false),
            Some(done) => {
                if done.changed {
                    guard.swap();
                }
                (done.count, false, done.changed)
            }
        }
    }

    /// Applies rule `index` (splittable, see `stretch.rs`) to the whole of `state` with
    /// `crew`, no match starting before `from`; returns as [`Fast::apply`] does.
    fn apply_stretched(
        &self,
        index: usize,
        state: &RwLock<State>,
        scratch: &mut Scratch,
        crew: &parallel::Crew<'_>,
        from: usize,
    ) -> (usize, bool, bool) {
        let (mut out, mut out_starts) = write(state).take_spares();
        let guard = read(state);
        let text = guard.flat_text();
        let pieces = crew.pieces().max(text.len() / self.rope_piece_len.max(1));
        let mut bounds = parallel::cuts(text.as_bytes(), pieces.min(parallel::MAX_PIECES));
        bounds.insert(0, 0);
        bounds.push(text.len());
        let hay = stretch::Hay {
            text,
            index: guard.flat_index(),
        };
        let indexed = hay.index.is_some();
        let runs = crew.stretch(index, hay, &bounds, from, indexed, scratch);
        let mut done = stretch::Joined::default();
        if runs.iter().any(|run| run.count > 0) {
            let starts = indexed.then_some(&mut out_starts);
            done = stretch::join(self, index, scratch, hay, &bounds, &runs, &mut out, starts);
        }
        crew.keep(runs);
        drop(guard);
        let mut guard = write(state);
        let changed = done.count > 0 && done.changed;
        if changed {
            guard.install(out, out_starts, indexed);
        } else {
            out.clear();
            out_starts.clear();
            guard.give_back_spares(out, out_starts);
        }
        (done.count, false, changed)
    }

    /// The run loop over `range`, on one core or with `crew`.
    fn run_loop(
        &self,
        state: &RwLock<State>,
        range: Range<usize>,
        observer: &mut dyn Observer,
        scratch: &mut Scratch,
        crew: Option<&parallel::Crew<'_>>,
        at: &AtomicUsize,
    ) {
        let counts = observer.wants_match_counts();
        // True while the last applied rule changed nothing: an identical rule right after
        // it cannot change anything either.
        let mut fixpoint = false;
        // The matches of the last applied rule: an identical rule skipped at a fixpoint
        // meets the same state, so it has the same matches (which replace them by
        // themselves).
        let mut last_matches = 0;
        let mut seen = Seen::default();
        // The state's length, read again only when a rule changes the state (locks cost
        // atomic operations, a noticeable share of a rule on a small state).
        let mut len = read(state).len();
        // Rules before this one failed to run as a rope (see `rope.rs`): they run whole.
        let mut whole_until = range.start;
        let mut index = range.start;
        while index < range.end {
            at.store(index, Ordering::Relaxed);
            if index >= whole_until {
                let rope =
                    self.rope_run(index, range.end, len, state, scratch, crew, observer, &seen);
                match rope {
                    RopeRun::No => {}
                    RopeRun::Fallback(until) => whole_until = until,
                    RopeRun::Done(done) => {
                        if done.changed {
                            seen.state_changed();
                            len = read(state).len();
                        }
                        fixpoint = !done.last_changed;
                        last_matches = done.last_matches;
                        if done.stopped {
                            return;
                        }
                        index = done.next;
                        continue;
                    }
                }
            }
            let (matches, skipped) = if fixpoint && self.same_as_previous[index] {
                (last_matches, true)
            } else {
                let (matches, skipped, changed) =
                    self.apply(index, state, scratch, &mut seen, crew);
                if changed {
                    seen.state_changed();
                    len = read(state).len();
                }
                fixpoint = !changed;
                last_matches = matches;
                (matches, skipped)
            };
            let report = RuleReport {
                matches: if counts { matches } else { 0 },
                skipped,
                state_len: len,
            };
            let flow = observer.after_rule(index, &report, &|| read(state).render());
            if let ControlFlow::Break(()) = flow {
                break;
            }
            index += 1;
        }
    }

    /// Whether rule `index` is local (see `local.rs`), compiling its pattern if needed.
    fn is_local(&self, index: usize) -> bool {
        self.patterns[self.rule_pattern[index]].get().is_local()
    }

    /// Runs the rules from `index` on as a rope (see `rope.rs`) when the state (`len`
    /// bytes) is large enough and they start a run of local rules long enough, sharing
    /// the pieces with `crew` when there is one and the state is large enough for it;
    /// reports every rule of the run to `observer`.
    #[allow(clippy::too_many_arguments)]
    fn rope_run(
        &self,
        index: usize,
        end: usize,
        len: usize,
        state: &RwLock<State>,
        scratch: &mut Scratch,
        crew: Option<&parallel::Crew<'_>>,
        observer: &mut dyn Observer,
        seen: &Seen,
    ) -> RopeRun {
        let piece_len = self.rope_piece_len.max(1);
        let (crew, pieces, shortest) = match crew {
            Some(crew) if len >= crew.min_len() => {
                let pieces = crew.pieces().max(len / piece_len);
                (Some(crew), pieces.min(parallel::MAX_PIECES), 1)
            }
            _ if len >= self.rope_min_len => (None, len / piece_len, 2),
            _ => return RopeRun::No,
        };
        if pieces < 2 || !self.is_local(index) {
            return RopeRun::No;
        }
        let mut run_end = index + 1;
        while run_end < end && self.is_local(run_end) {
            run_end += 1;
        }
        if run_end - index < shortest {
            return RopeRun::No;
        }
        let rules = index..run_end;
        // The state's spare buffers, which the run joins its pieces into.
        let (mut out, mut out_starts) = write(state).take_spares();
        let guard = read(state);
        let text = guard.flat_text();
        let mut bounds = parallel::cuts(text.as_bytes(), pieces);
        if bounds.is_empty() {
            drop(guard);
            write(state).give_back_spares(out, out_starts);
            return RopeRun::No;
        }
        bounds.insert(0, 0);
        bounds.push(text.len());
        let mode = rope::Mode {
            history: observer.reads_states(),
            indexed: len >= self.index_min_len,
        };
        let whole_index = guard.flat_index();
        let whole = rope::Piece {
            text,
            whole_index: whole_index.map(|starts| (starts, 0)),
        };
        let known_of = |rule: usize| {
            let id = self.rule_pattern[rule];
            let (_, ids) = self.patterns[id].get_with_ids(&self.literals);
            match ids.iter().any(|&l| seen.is_absent(l)) {
                true => rope::Known::Absent,
                false => rope::Known::Nothing,
            }
        };
        let known: Vec<rope::Known> = rules.clone().map(known_of).collect();
        // The join as the pieces are done (one core), or after them (several cores).
        let mut joined: Option<rope::Join<'_>> = None;
        let runs = match crew {
            Some(crew) => crew.run(rules.clone(), &known, mode, whole, &bounds, scratch),
            None => {
                // Each piece in turn through the whole run, its text then written
                // straight into the state's spare buffer, so that the next piece reuses
                // the piece's buffers: the join, as the pieces are done.
                joined = Some(rope::Join::new(text, whole_index, mode.indexed));
                let join = joined.as_mut().expect("just set");
                let mut runs = Vec::with_capacity(bounds.len() - 1);
                for (i, w) in bounds.windows(2).enumerate() {
                    let piece = whole.cut(w[0]..w[1]);
                    let mut run =
                        rope::run_piece(self, rules.clone(), &known, scratch, piece, mode);
                    join.piece(&bounds, i, &run, &mut out, &mut out_starts);
                    rope::release_buffers(&mut run, scratch);
                    runs.push(run);
                }
                runs
            }
        };
        if !rope::cuts_hold(&runs, rules.len()) {
            rope::recycle(runs, scratch);
            drop(guard);
            out.clear();
            out_starts.clear();
            write(state).give_back_spares(out, out_starts);
            return RopeRun::Fallback(run_end);
        }
        let rope = rope::Rope {
            text,
            bounds,
            rules: rules.clone(),
            known,
            runs,
        };
        let counts = observer.wants_match_counts();
        let mut done = RopeDone {
            next: run_end,
            ..RopeDone::default()
        };
        let mut stopped_at = None;
        for (k, rule) in rules.clone().enumerate() {
            let (matches, skipped, changed, state_len) = rope.totals(k);
            done.last_matches = matches;
            done.last_changed = changed;
            let report = RuleReport {
                matches: if counts { matches } else { 0 },
                skipped,
                state_len,
            };
            let render = || rope.state_after(self, &mut Scratch::default(), k, mode.history);
            if let ControlFlow::Break(()) = observer.after_rule(rule, &report, &render) {
                stopped_at = Some(k);
                break;
            }
        }
        let mut indexed = false;
        match stopped_at {
            Some(k) => {
                done.stopped = true;
                done.changed = rope
                    .runs
                    .iter()
                    .any(|r| r.steps[..=k].iter().any(|s| s.changed));
                if done.changed {
                    out = rope.state_after(self, scratch, k, mode.history);
                }
            }
            None => {
                done.changed = rope.changed();
                if let Some(join) = joined {
                    indexed = join.finish(&mut out, &mut out_starts);
                } else if done.changed {
                    rope.join_into(&mut out);
                    // The index carried through: a later rule need not scan for it.
                    let kept = whole_index.is_some() || rope.runs.iter().any(|r| r.indexed());
                    if mode.indexed && kept {
                        rope.joined_index_into(whole_index, &mut out_starts);
                        indexed = true;
                    }
                }
            }
        }
        rope::recycle(rope.runs, scratch);
        drop(guard);
        let mut guard = write(state);
        if done.changed {
            guard.install(out, out_starts, indexed);
        } else {
            guard.give_back_spares(out, out_starts);
        }
        RopeRun::Done(done)
    }
}

/// What [`Fast::rope_run`] did.
enum RopeRun {
    /// Nothing: the rule runs whole.
    No,
    /// Nothing, because the cuts did not hold: the rules before this one run whole.
    Fallback(usize),
    /// Ran the rules.
    Done(RopeDone),
}

/// What a rope run did.
#[derive(Debug, Default)]
struct RopeDone {
    /// The next rule to run.
    next: usize,
    /// Whether the observer stopped the run.
    stopped: bool,
    /// Whether the state changed.
    changed: bool,
    /// The last rule's matches and whether it changed the state.
    last_matches: usize,
    last_changed: bool,
}

/// The state, locked for reading.
fn read(state: &RwLock<State>) -> std::sync::RwLockReadGuard<'_, State> {
    state.read().unwrap_or_else(PoisonError::into_inner)
}

/// The state, locked for writing (a poisoned lock is still consistent: every change is a
/// swap).
fn write(state: &RwLock<State>) -> std::sync::RwLockWriteGuard<'_, State> {
    state.write().unwrap_or_else(PoisonError::into_inner)
}

/// Applies a rule whose matches start with `prefix` (see `Compiled::segment_prefix`)
/// segment by segment: a clean segment is searched only if it starts with the prefix,
/// and only rewritten segments are replaced. Returns `None`, having changed nothing,
/// when a search in some segment other than the last looked at the segment's end: a
/// match there might continue into the next segment, so the caller runs the rule on the
/// flat text instead.
fn by_segment(
    compiled: &Compiled,
    cache: &mut Cache,
    template: &crate::program::Template,
    need: GroupNeed,
    prefix: &[u8],
    state: &mut State,
) -> Option<(usize, bool, bool)> {
    let segments = state.segments();
    let last = segments.len().saturating_sub(1);
    let mut edits = Vec::new();
    let mut count = 0;
    let mut searched = false;
    for (index, segment) in segments.iter().enumerate() {
        let text = segment.text.as_str();
        if segment.clean && !text.as_bytes().starts_with(prefix) {
            continue;
        }
        searched = true;
        let mut out = String::with_capacity(text.len() + 64);
        let result = rewrite::rewrite(compiled, cache, template, need, text, 0, &mut out, None);
        if index != last && Compiled::touched_end(cache) {
            return None;
        }
        if let Some(done) = result {
            count += done.count;
            if done.changed {
                edits.push((index, out));
            }
        }
    }
    let changed = !edits.is_empty();
    if changed {
        state.edit_segments(edits);
    }
    Some((count, !searched, changed))
}

impl Executor for Fast {
    fn name(&self) -> &'static str {
        "fast"
    }

    fn program(&self) -> &ValidProgram {
        &self.program
    }

    fn run_range(&self, state: &str, range: Range<usize>, observer: &mut dyn Observer) -> String {
        let mut scratch = self
            .pool
            .lock()
            .map(|mut p| p.pop())
            .ok()
            .flatten()
            .unwrap_or_default();
        // Decided once per run: every text the run meets is then ASCII too.
        scratch.ascii = self.ascii_templates && state.is_ascii();
        let state = RwLock::new(State::new(state));
        let at = AtomicUsize::new(range.start);
        let mut run = |scratch: &mut Scratch| match &self.parallel {
            Some(parallel) => {
                let mut helpers = std::mem::take(&mut scratch.helpers);
                if helpers.len() < parallel.cores() - 1 {
                    helpers.resize_with(parallel.cores() - 1, Scratch::default);
                }
                for helper in &mut helpers {
                    helper.ascii = scratch.ascii;
                }
                parallel.with_crew(self, &state, &mut helpers, |crew| {
                    self.run_loop(&state, range.clone(), observer, scratch, Some(crew), &at);
                });
                scratch.helpers = helpers;
            }
            None => self.run_loop(&state, range.clone(), observer, scratch, None, &at),
        };
        let ascii = scratch.ascii;
        if self.compile_ahead && self.uncompiled(&range) {
            let stop = AtomicBool::new(false);
            std::thread::scope(|scope| {
                // A helper that cannot start leaves the compiling to the run.
                let helper = std::thread::Builder::new().spawn_scoped(scope, || {
                    self.compile_rules(range.clone(), &at, &stop, &state, ascii)
                });
                run(&mut scratch);
                stop.store(true, Ordering::Relaxed);
                drop(helper);
            });
        } else {
            run(&mut scratch);
        }
        scratch.trim(KEPT_STATES_MAX, KEPT_STATES_AFTER_TRIM);
        if let Ok(mut pool) = self.pool.lock() {
            pool.push(scratch);
        }
        state
            .into_inner()
            .unwrap_or_else(PoisonError::into_inner)
            .into_string()
    }
}
