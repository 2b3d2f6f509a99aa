//! One distinct pattern, compiled for the fast executor, and its per-run scratch space.
//!
//! Contract: [`Compiled::find_at`] returns exactly the match `regex::Regex` would report
//! for a search of the whole state starting at byte `at` (leftmost-first, look-around seen
//! through the whole state, empty matches never splitting a char), and
//! [`Compiled::resolve_groups`] fills exactly the group spans `regex` gives for that match.
//!
//! How:
//! - The pattern is parsed (with `regex`'s syntax defaults) to find its literals and its
//!   linear form; the parse is then dropped. All that is read off the parse is plain
//!   data (`Plain`), which the program cache keeps ([`Compiled::store`]), with the NFA
//!   of the forward lazy DFA of the patterns that always search with it: a fresh process
//!   compiles a pattern from it ([`Compiled::from_stored`]) without reading the parse. Engines are built on first need: a linear
//!   pattern whose linear search always decides never builds one (most of the chess
//!   patterns), which keeps memory down.
//! - The lazy DFAs (forward, reverse, and those of [`crate::exec::fast::lines`]) are built from the
//!   pattern with its classes cut down to ASCII (`syntax::ascii_hir`) and quit at the first
//!   non-ASCII byte they read (`syntax::ascii_config`); a search that quits falls back to an
//!   engine built from the pattern itself (`meta::Regex`). The machine's texts are ASCII,
//!   and on ASCII bytes both forms agree; the cut-down automata are much smaller (Unicode
//!   `.` and `[^\n]` widen every DFA state), which lowered a move's peak memory
//!   (PERF.md, "Figures behind the fast executor's constants"). Texts with non-ASCII chars pay for it with meta searches. A run whose text
//!   and every template are ASCII keeps an ASCII state throughout: its caches say so
//!   ([`Cache::set_ascii`]) and it runs the same automata without quit bytes
//!   ([`AsciiDfa`]), which makes new lazy-DFA states cheaper.
//! - Patterns with a literal prefix ([`literal::Prefix`]) find candidates with memmem or
//!   aho-corasick (or, for a prefix that starts with `%`, by walking the state's index of
//!   `%` bytes when the caller holds one: [`Starts`]) and run an **anchored** lazy DFA (`hybrid`) from each candidate in order;
//!   the first candidate that matches starts the leftmost match and the anchored
//!   leftmost-first DFA gives its end. Such patterns cannot match the empty string. The
//!   anchored search at a candidate is, in order of preference: a comparison (plain
//!   literals), the `lines` search (a lines loop, then the tested line only; see
//!   [`crate::exec::fast::lines`]), the linear search, the DFA. Patterns searched by `lines` or by
//!   the DFA alone take their candidates in batches, searched ahead with several
//!   lazy-DFA walks interleaved ([`crate::exec::fast::lockstep`]); undecided ones take the path above.
//! - Unanchored searches (patterns without a prefix, and rules whose candidates rarely
//!   match) run the same forward lazy DFA unanchored, skipping ahead with the prefix
//!   literal, to find where the leftmost-first match ends, then a reverse lazy DFA back
//!   from there to find where it starts: what `meta::Regex` (the engine inside `regex`)
//!   does, without its other engines and their caches.
//! - Groups: groups at fixed offsets from either edge of the match are computed from
//!   the match span; linear
//!   patterns (see [`crate::exec::fast::linear`]) are resolved by a budgeted search on the span, and
//!   so are patterns whose form for groups is linear (`for_groups`: a leading `\A`
//!   left out for matches at 0, loops like `(?:;[^;\n]*)+` merged into `;[^\n]*`, which
//!   give the same matches with the same groups);
//!   otherwise a one-pass DFA when the pattern is one-pass, else the bounded backtracker, else the
//!   PikeVM, always anchored on the match span, as `regex` itself does.
//!
//! Trade-offs: candidates that fail after long scans (a pattern like `a[^\n]*c` on a long
//! line of `a`s) would make candidate enumeration quadratic; the linear search counts the
//! work spent on failed candidates and, past a few scans of the state, the rest of the
//! rule runs unanchored; the lazy DFA's byte count does the same for
//! the DFA path. (Machine patterns stop at the next `%` or newline, so each byte is
//! scanned about once and the guard never fires.) A DFA that quits (at a non-ASCII byte) falls
//! back to `meta::Regex` for that one search. Engines that only some rules need (reverse
//! DFA, meta, capture engines) are built on first use. Each lazy DFA's cache is capped
//! (see [`FORWARD_CACHE`]) and can be dropped between runs ([`Cache::forget_states`]).
//!
//! Layer 3: uses the matchers (`linear`, `lines`, `lockstep`) and the helpers of layer 1
//! (`literal`, `local`, `nfa_form`, `starts`, `syntax`).

use std::sync::{Arc, OnceLock};

use regex_automata::dfa::onepass;
use regex_automata::hybrid::dfa as hybrid;
use regex_automata::nfa::thompson::{self, NFA, backtrack, pikevm};
use regex_automata::util::prefilter::Prefilter;
use regex_automata::util::primitives::NonMaxUsize;
use regex_automata::{Anchored, Input, MatchKind, meta};

use regex_syntax::hir::{Class, ClassUnicode, ClassUnicodeRange, Hir, HirKind, Look, Repetition};

use crate::codec::{Reader, put, put_bytes};
use crate::exec::fast::linear::Linear;
use crate::exec::fast::lines::{self, Lines, LinesPlan};
use crate::exec::fast::literal::{self, KnownPrefix, Literals, Prefix};
use crate::exec::fast::lockstep::{self, LockstepAnswers, Outcome};
use crate::exec::fast::nfa_form;
use crate::exec::fast::starts::{Needle, Starts};
use crate::exec::fast::syntax::{self, AsciiDfa, DecodeError, Direction};

/// Texts at least this long count towards choosing between anchored and unanchored
/// search (see [`Compiled::begin_rule`]); shorter ones (single threads of a segmented
/// state, small states) always search anchored.
const LARGE_TEXT: usize = 1 << 16;

/// The most memory the forward lazy DFA's cache of one pattern may hold, in bytes,
/// unless the automaton needs more to work at all; when full it is cleared and states
/// are rebuilt as needed. Smaller caps save little memory and cost time, because the
/// states one move needs no longer fit. What a game accumulates across moves is bounded
/// by the fast executor instead (`Scratch::trim`). A quarter of this cap still cleared
/// one pattern's cache in every move on kiwipete, a warm move paying to rebuild its
/// states; this cap holds them, and a larger one saves nothing more (PERF.md, "Figures
/// behind the fast executor's constants").
const FORWARD_CACHE: usize = 4 << 20;
/// The same for the reverse lazy DFA (it only runs back over a match).
const REVERSE_CACHE: usize = 1 << 20;

/// The lazy DFA configuration: Unicode word boundaries handled while the text is
/// ASCII, and a cache of `capacity` bytes, or the least the automaton needs.
fn lazy_config(capacity: usize) -> hybrid::Config {
    hybrid::Config::new()
        .unicode_word_boundary(true)
        .cache_capacity(capacity)
        .skip_cache_capacity_check(true)
}

/// Engines for group resolution, built on first need.
#[derive(Debug)]
enum GroupEngine {
    OnePass(Box<onepass::DFA>),
    Backtrack(backtrack::BoundedBacktracker),
    PikeVm,
}

/// How a pattern finds its matches: chosen once, from what its parse says
/// ([`Compiled::from_plain`]), and never changed. The rule-level choice between anchored
/// and unanchored search of an [`Strategy::Anchored`] pattern (see
/// [`Compiled::begin_rule`]) is a matter of cost only and lives in the [`Cache`].
#[derive(Debug)]
enum Strategy {
    /// No match is possible: every search finds nothing.
    Never,
    /// No literal to anchor at: the forward lazy DFA from the search start finds where
    /// the leftmost-first match ends, the reverse one where it starts (or `meta::Regex`
    /// when they give up).
    Unanchored,
    /// Every match starts at a literal prefix: candidates are found with memmem,
    /// aho-corasick or the state's index of `%` bytes, and each is searched anchored.
    /// Such patterns cannot match the empty string.
    Anchored(Candidate),
}

/// How an [`Strategy::Anchored`] pattern decides one candidate.
#[derive(Debug)]
enum Candidate {
    /// The pattern is a plain literal, the whole text of every match: a comparison.
    Literal(Box<[u8]>),
    /// The pattern as `L (?:C*\n)* M R T`, when it is not linear, or its linear form is
    /// dense or backtracks much: a jump to the lines starting with `M` (see
    /// [`crate::exec::fast::lines`]). Candidates are searched ahead in lockstep. When the search gives
    /// up, the linear search (if `then_linear`) and then the lazy DFA decide.
    Lines { lines: Lines, then_linear: bool },
    /// The linear search, which finds the match end and its groups at once (the lazy DFA
    /// when it gives up).
    Linear,
    /// The forward lazy DFA alone (the pattern has no linear form, or a dense one, or is
    /// a trie): candidates are searched ahead in lockstep.
    Dfa,
}

/// One distinct pattern, ready to search.
#[derive(Debug)]
pub struct Compiled {
    /// The pattern's parse in binary form ([`syntax::encode`]): engines are built from
    /// it when first needed, without parsing the pattern again.
    parsed: Arc<[u8]>,
    /// Group slots (two per group, group 0 included).
    slot_len: usize,
    literals: Literals,
    /// The pattern as a plain sequence, when it is one (resolves groups without engine).
    linear: Option<Linear>,
    /// How matches are found, chosen once when the pattern is compiled.
    strategy: Strategy,
    /// See [`Compiled::segment_prefix`].
    segment_prefix: Option<Box<[u8]>>,
    /// The prefix literal when it starts with `%`: candidates can then come from the
    /// state's index of `%` bytes ([`Starts`]) instead of a scan.
    percent_prefix: Option<Needle>,
    /// The NFA of the capture engines, built on first need.
    nfa: OnceLock<NFA>,
    /// The forward lazy DFA, built on first need (`None` if it cannot be built: the meta
    /// regex then searches). Anchored searches run it from each candidate; unanchored
    /// ones from the search start, skipping ahead with the literal prefix if any.
    dfa: OnceLock<Option<Box<AsciiDfa>>>,
    /// The reverse lazy DFA, which finds where an unanchored match starts.
    reverse: OnceLock<Option<Box<AsciiDfa>>>,
    /// The last resort: `regex`'s own engine, for searches the lazy DFAs give up on.
    meta: OnceLock<meta::Regex>,
    /// See [`Compiled::is_local`].
    local: bool,
    /// The stored form of the forward lazy DFA's NFA, when the program cache kept it
    /// (see `Plain::stored`): the DFA is then built without the parse.
    forward: Option<Box<[u8]>>,
    groups: OnceLock<GroupEngine>,
    pikevm: OnceLock<pikevm::PikeVM>,
    /// When the pattern has no linear form of its own, the linear form of its parse
    /// rewritten for group resolution only ([`for_groups`]: a leading `\A` dropped, then
    /// `true`, since it then holds only for matches at 0; loops merged), which resolves
    /// the groups of its matches (see [`Compiled::resolve_groups`]). Built on first
    /// need.
    group_linear: OnceLock<Option<(Linear, bool)>>,
}

/// Per-run scratch for one [`Compiled`]: lazy DFA states, engine caches, slots.
#[derive(Debug, Default)]
pub struct Cache {
    /// Whether the texts searched with this cache are all ASCII (see
    /// [`Cache::set_ascii`]): the lazy DFAs' caches below belong to the exact forms of
    /// the [`AsciiDfa`]s, else to their quitting forms.
    ascii: bool,
    dfa: Option<hybrid::Cache>,
    reverse: Option<hybrid::Cache>,
    /// The lazy DFA caches of [`Compiled::lines`], once made.
    lines: Option<lines::LinesCache>,
    meta: Option<meta::Cache>,
    onepass: Option<onepass::Cache>,
    backtrack: Option<backtrack::Cache>,
    pikevm: Option<pikevm::Cache>,
    /// Engine slots (2 per group).
    slots: Vec<Option<NonMaxUsize>>,
    /// Group offsets of the last resolved match: `2i` and `2i + 1` are group `i`'s start
    /// and end.
    pub groups: Vec<Option<usize>>,
    /// Bytes scanned (estimated, for the linear search) by candidates that did not
    /// match, in the current rule.
    failed_work: usize,
    /// Set when `failed_work` grew past the rule's allowance: the rest of the rule is
    /// searched unanchored, which is linear in the state.
    unanchored: bool,
    /// Answers of the current rule's next candidates, searched ahead in lockstep.
    ahead: LockstepAnswers,
    /// Set when the current rule of a linear pattern searches its candidates ahead with
    /// the lazy DFA instead of running unanchored (see [`Compiled::sparse_ahead`]).
    dfa_ahead: bool,
    /// Set when a search of the current rule looked at or past the end of the text, so
    /// its answer might change if the text went on (see `segments.rs`).
    touched_end: bool,
    /// Where the last walk of the state's index of `%` bytes stopped (a hint, see
    /// [`Starts::next_candidate`]).
    start_hint: usize,
    /// The match whose groups `groups` already holds (the linear search finds them while
    /// finding the match).
    groups_for: Option<(usize, usize)>,
    /// Candidates tried and candidates that matched, in anchored searches of large
    /// texts since the counts were last halved (kept across rules and runs).
    tried: u32,
    hits: u32,
    /// Rules of this pattern on large texts so far (every few re-check the anchored
    /// search's hit rate).
    large_rules: u32,
    /// The length of the text of the current rule, when it runs anchored on a large text
    /// (its failed work is then measured at the next [`Compiled::begin_rule`]).
    measuring: Option<usize>,
    /// Whether the last measured anchored rule spent less on failed candidates than half
    /// a scan of its text: then anchored search stays cheaper than the unanchored pass
    /// however few candidates match.
    cheap_failures: bool,
    /// Set by [`Compiled::begin_stretch`]: candidates at or after it are not searched
    /// (the search reports no match instead).
    stop: Option<usize>,
}

impl Cache {
    /// The bytes held by the lazy DFAs' caches (what their capacity limits; the
    /// allocator may hold somewhat more), the largest part of a cache by far.
    pub fn lazy_memory(&self) -> usize {
        self.dfa.as_ref().map_or(0, hybrid::Cache::memory_usage)
            + self.reverse.as_ref().map_or(0, hybrid::Cache::memory_usage)
            + self.meta.as_ref().map_or(0, meta::Cache::memory_usage)
            + self
                .lines
                .as_ref()
                .map_or(0, lines::LinesCache::memory_usage)
    }

    /// Declares whether every text searched with this cache from now on is all ASCII:
    /// the lazy DFAs then run without quit bytes ([`AsciiDfa`]). A cache starts with
    /// `false`, which is right for every text. Changing it drops the lazy DFAs' states
    /// (they belong to the other form).
    pub fn set_ascii(&mut self, ascii: bool) {
        if self.ascii != ascii {
            self.ascii = ascii;
            self.dfa = None;
            self.reverse = None;
            self.lines = None;
        }
    }

    /// Frees the lazy DFAs' states; they are built again when next needed. Results do
    /// not change.
    pub fn forget_states(&mut self) {
        self.dfa = None;
        self.reverse = None;
        self.lines = None;
        self.meta = None;
    }
}

mod engines;
mod groups;
mod plain;
mod search;
#[cfg(test)]
mod tests;

use plain::Plain;

impl Compiled {
    /// Compiles `pattern`, which `regex::Regex::new` accepts.
    #[cfg(test)]
    pub fn new(pattern: &str) -> Compiled {
        Compiled::from_hir(&syntax::parse(pattern))
    }

    /// Compiles the pattern whose parse is `hir`.
    #[cfg(test)]
    pub fn from_hir(hir: &Hir) -> Compiled {
        Compiled::from_hir_known(hir, None)
    }

    /// Compiles the pattern whose parse is `hir` and whose prefix is `known` when given
    /// (as [`literal::analyze_known`] would find it).
    pub fn from_hir_known(hir: &Hir, known: Option<&KnownPrefix>) -> Compiled {
        let mut parsed = Vec::new();
        syntax::encode(hir, &mut parsed);
        Compiled::from_plain(Plain::from_hir(hir, known), parsed.into())
    }

    /// Appends the stored form of the pattern whose parse is `hir` (what
    /// [`Compiled::from_stored`] reads back), or returns false when the pattern has a
    /// part that is not kept (a prefix of several literals): it is then compiled from its
    /// parse.
    pub fn store(hir: &Hir, out: &mut Vec<u8>) -> bool {
        Plain::stored(hir).encode(out)
    }

    /// Compiles the pattern whose parse's binary form is `parsed` ([`syntax::encode`])
    /// and whose stored form is `stored` ([`Compiled::store`]), without reading the
    /// parse: it is read only when an engine is first needed. Bytes that do not read
    /// back are an error. Debug builds check the result against a compilation of the
    /// parse.
    pub fn from_stored(parsed: Arc<[u8]>, stored: &[u8]) -> Result<Compiled, DecodeError> {
        let plain = Plain::decode(stored)?;
        #[cfg(debug_assertions)]
        if let Ok(hir) = syntax::decode(&parsed) {
            let fresh = Plain::stored(&hir);
            debug_assert_eq!(
                format!("{plain:?}"),
                format!("{fresh:?}"),
                "a stored pattern that is not what its parse compiles to"
            );
        }
        Ok(Compiled::from_plain(plain, parsed))
    }

    /// The pattern ready to search, from the facts read off its parse and the parse's
    /// binary form.
    fn from_plain(plain: Plain, parsed: Arc<[u8]>) -> Compiled {
        let Plain {
            slot_len,
            literals,
            linear,
            dense,
            lines,
            local,
            segment_prefix,
            forward,
        } = plain;
        let strategy = match &literals.prefix {
            Prefix::Never => Strategy::Never,
            Prefix::None => Strategy::Unanchored,
            Prefix::One(_) | Prefix::Many(_) => {
                let literal = linear.as_ref().and_then(Linear::as_literal);
                let linear_search = linear.is_some() && !dense;
                Strategy::Anchored(match (literal, lines) {
                    (Some(literal), _) => Candidate::Literal(literal.into()),
                    (None, Some(plan)) => Candidate::Lines {
                        lines: plan.build(),
                        then_linear: linear_search,
                    },
                    (None, None) if linear_search => Candidate::Linear,
                    (None, None) => Candidate::Dfa,
                })
            }
        };
        let (segment_prefix, percent_prefix) = match &literals.prefix {
            Prefix::One(f) => (
                segment_prefix.then(|| f.needle().into()),
                Needle::new(f.needle()),
            ),
            _ => (None, None),
        };
        Compiled {
            strategy,
            parsed,
            slot_len,
            nfa: OnceLock::new(),
            segment_prefix,
            percent_prefix,
            linear,
            literals,
            dfa: OnceLock::new(),
            reverse: OnceLock::new(),
            meta: OnceLock::new(),
            local,
            forward,
            groups: OnceLock::new(),
            pikevm: OnceLock::new(),
            group_linear: OnceLock::new(),
        }
    }

    /// Where a match can first start in `hay`, or `Err` when the rule can be skipped
    /// without running an engine: a literal every match needs (the prefix, or a required
    /// literal inside) is absent, and `Err` names it (`None` when the pattern can never
    /// match), so that a caller that knows the text has not changed since can skip other
    /// patterns that need the same literal. Both checks stop at the first occurrence, so
    /// they are cheap when the literal is present early; the prefix position found is
    /// handed to the search so it is not looked for twice. `starts`, when given, is the
    /// index of `hay`'s `%` bytes (see [`Compiled::next_candidate`]).
    pub fn first_possible(
        &self,
        hay: &str,
        starts: Option<&Starts>,
    ) -> Result<usize, Option<&[u8]>> {
        self.first_possible_known(hay, starts, |_, find| find())
    }

    /// [`Compiled::first_possible`], with the first position of each needed literal in
    /// `hay` asked of `first_of` (given the literal's place in
    /// [`Compiled::needed_literals`] and the search that finds it), so that a caller that
    /// remembers them for an unchanged text answers without a search. `first_of` must
    /// answer what the search would: the first position of the literal, or `None`.
    pub fn first_possible_known(
        &self,
        hay: &str,
        starts: Option<&Starts>,
        mut first_of: impl FnMut(usize, &mut dyn FnMut() -> Option<usize>) -> Option<usize>,
    ) -> Result<usize, Option<&[u8]>> {
        let bytes = hay.as_bytes();
        let (first, required_at) = match &self.literals.prefix {
            Prefix::Never => return Err(None),
            Prefix::One(finder) => {
                let mut find = || self.next_candidate(bytes, 0, starts, &mut 0);
                (first_of(0, &mut find).ok_or(Some(finder.needle()))?, 1)
            }
            Prefix::Many(_) => {
                let first = self.literals.prefix.next_candidate(bytes, 0).ok_or(None)?;
                (first, 0)
            }
            Prefix::None => (0, 0),
        };
        match &self.literals.required {
            Some(finder) => match first_of(required_at, &mut || finder.find(bytes)) {
                Some(_) => Ok(first),
                None => Err(Some(finder.needle())),
            },
            None => Ok(first),
        }
    }

    /// The literals every match needs (the prefix when it is one literal, and the
    /// required literal): when one of them is known to be absent, the rule cannot match.
    pub fn needed_literals(&self) -> impl Iterator<Item = &[u8]> {
        self.literals.needed()
    }

    /// Whether candidates can come from an index of the text's `%` bytes: every match
    /// starts with a literal that starts with `%`.
    pub fn percent_prefixed(&self) -> bool {
        self.percent_prefix.is_some()
    }

    /// The first position at or after `at` where a match may start
    /// ([`Prefix::next_candidate`]), found by walking `starts` (the index of `hay`'s `%`
    /// bytes) when given and the prefix starts with `%`, else by a scan.
    /// `hint` carries where the last walk stopped (see [`Starts::next_candidate`]).
    fn next_candidate(
        &self,
        hay: &[u8],
        at: usize,
        starts: Option<&Starts>,
        hint: &mut usize,
    ) -> Option<usize> {
        match (starts, &self.percent_prefix) {
            (Some(starts), Some(needle)) if at <= hay.len() => {
                starts.next_candidate(hay, needle, at, hint)
            }
            _ => self.literals.prefix.next_candidate(hay, at),
        }
    }

    /// The prefix literal when rules of this pattern may run thread by thread (see
    /// `segments.rs`): every match starts with this literal, which starts with `%` and holds
    /// no `\n%`, and the pattern has no look-around.
    pub fn segment_prefix(&self) -> Option<&[u8]> {
        self.segment_prefix.as_deref()
    }

    /// Whether rules of this pattern may run on pieces of the state cut before a `%` that
    /// follows a `\n` (see `parallel.rs`); decided when the pattern is compiled.
    pub fn is_local(&self) -> bool {
        self.local
    }

    /// Whether the pattern has no look-around and no empty match, and its matches start
    /// at a literal prefix: a search from any position then finds there what a search of
    /// the whole text finds once a match has ended at that position, whatever comes
    /// before it, and a search of the matches that start before some position can stop
    /// there ([`Compiled::begin_stretch`]; see `stretch.rs`). Decodes the parse: callers
    /// keep the answer.
    pub fn splittable(&self) -> bool {
        if !matches!(self.strategy, Strategy::Anchored(_)) {
            return false;
        }
        let hir = self.hir();
        let props = hir.properties();
        props.look_set().is_empty() && props.minimum_len().is_some_and(|n| n > 0)
    }

    /// The group spans that are fixed offsets from the match start, by group index.
    pub fn fixed_groups(&self) -> &[Option<(literal::Edge, literal::Edge)>] {
        &self.literals.fixed_groups
    }
}
