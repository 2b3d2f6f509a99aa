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
//! - The lazy DFAs (forward, reverse, and those of [`super::lines`]) are built from the
//!   pattern with its classes cut down to ASCII (`syntax::ascii_hir`) and quit at the first
//!   non-ASCII byte they read (`syntax::ascii_config`); a search that quits falls back to an
//!   engine built from the pattern itself (`meta::Regex`). The machine's texts are ASCII,
//!   and on ASCII bytes both forms agree; the cut-down automata are much smaller (Unicode
//!   `.` and `[^\n]` widen every DFA state), which took a move's peak memory from ~52 to
//!   ~45 MB. Texts with non-ASCII chars pay for it with meta searches. A run whose text
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
//!   [`super::lines`]), the linear search, the DFA. Patterns searched by `lines` or by
//!   the DFA alone take their candidates in batches, searched ahead with several
//!   lazy-DFA walks interleaved ([`super::lockstep`]); undecided ones take the path above.
//! - Unanchored searches (patterns without a prefix, and rules whose candidates rarely
//!   match) run the same forward lazy DFA unanchored, skipping ahead with the prefix
//!   literal, to find where the leftmost-first match ends, then a reverse lazy DFA back
//!   from there to find where it starts: what `meta::Regex` (the engine inside `regex`)
//!   does, without its other engines and their caches.
//! - Groups: groups at fixed offsets from either edge of the match are computed from
//!   the match span; linear
//!   patterns (see [`super::linear`]) are resolved by a budgeted search on the span, and
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

use super::linear::Linear;
use super::lines::{self, Lines, LinesPlan};
use super::literal::{self, KnownPrefix, Literals, Prefix};
use super::lockstep::{self, Ahead, Outcome};
use super::nfa_form;
use super::starts::{Needle, Starts};
use super::syntax::{self, AsciiDfa, DecodeError, Direction};
use crate::codec::{Reader, put, put_bytes};

/// Texts at least this long count towards choosing between anchored and unanchored
/// search (see [`Compiled::begin_rule`]); shorter ones (single threads of a segmented
/// state, small states) always search anchored.
const LARGE_TEXT: usize = 1 << 16;

/// The most memory the forward lazy DFA's cache of one pattern may hold, in bytes,
/// unless the automaton needs more to work at all; when full it is cleared and states
/// are rebuilt as needed. Smaller caps save little memory and cost time: over a
/// ten-move game, 256 KB took 20% more instructions and 128 KB 30% more, because the
/// states one move needs no longer fit. What a game accumulates across moves is bounded
/// by the fast executor instead (`Scratch::trim`). At 1 MB one pattern's cache was still
/// cleared once or twice in every move on kiwipete, and rebuilding its states cost 11% of
/// a warm move's instructions (PERF.md); 4 MB holds them (16 MB saves nothing more).
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
    /// [`super::lines`]). Candidates are searched ahead in lockstep. When the search gives
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
    ahead: Ahead,
    /// Set when the current rule of a linear pattern searches its candidates ahead with
    /// the lazy DFA instead of running unanchored (see [`Compiled::sparse_ahead`]).
    dfa_ahead: bool,
    /// Set when a search of the current rule looked at or past the end of the text, so
    /// its answer might change if the text went on (see `state.rs`).
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

/// What compiling a pattern reads off its parse: plain data (its `lines` form keeps the
/// stored NFAs of its parts, whose lazy DFAs are built on first use). The program cache keeps it (see `remembered.rs` and PERF.md, "Cold
/// start"), so that a fresh process compiles a pattern without decoding and walking its
/// parse.
#[derive(Debug)]
struct Plain {
    /// Group slots (two per group, group 0 included).
    slot_len: usize,
    literals: Literals,
    /// The linear form, unless the pattern has none or it is a trie the DFA searches.
    linear: Option<Linear>,
    /// The linear form finds matches slowly, or is a trie: the DFA finds them.
    dense: bool,
    /// The `lines` form's plan, when the pattern has one and it is searched first.
    lines: Option<LinesPlan>,
    /// See [`Compiled::is_local`].
    local: bool,
    /// Whether the prefix literal is a [`Compiled::segment_prefix`].
    segment_prefix: bool,
    /// The stored form ([`nfa_form`]) of the forward lazy DFA's NFA, kept for the
    /// patterns that always build that DFA (see [`Plain::stored`]); `None` otherwise
    /// and when compiling from the parse.
    forward: Option<Box<[u8]>>,
}

impl Plain {
    /// The facts of the pattern whose parse is `hir` and whose prefix is `known` when
    /// given (as [`literal::analyze_known`] would find it).
    fn from_hir(hir: &Hir, known: Option<&KnownPrefix>) -> Plain {
        let linear = Linear::new(hir);
        let group_len = group_len(hir);
        let literals = literal::analyze_known(hir, group_len, known);
        let anchored = matches!(literals.prefix, Prefix::One(_) | Prefix::Many(_));
        let segment_prefix = match &literals.prefix {
            Prefix::One(f) => {
                f.needle().first() == Some(&b'%')
                    && memchr::memmem::find(f.needle(), b"\n%").is_none()
                    && hir.properties().look_set().is_empty()
            }
            _ => false,
        };
        // A dense linear form, or a trie, finds matches slowly: the DFA finds them.
        let trie = anchored && trie_for_dfa(hir, linear.as_ref(), &literals);
        let dense = linear.as_ref().is_some_and(Linear::dense) || trie;
        // A trie's linear form would never run (the DFA finds its matches, and its groups
        // are fixed): it is dropped, which pays for part of the DFA's memory.
        let linear = linear.filter(|_| !trie);
        // A linear pattern that backtracks little finds its match and groups in one
        // pass; jumping to the line first would search twice (kiwipete's lookups
        // `(%%\n#stack:\n)((?:[^%\n]*\n)*#_97: )([^\n]*)\n`: 522 -> 244 µs a rule).
        let linear_first = !dense && linear.as_ref().is_some_and(Linear::backtracks_little);
        let lines = if anchored && !linear_first {
            LinesPlan::new(hir)
        } else {
            None
        };
        Plain {
            slot_len: 2 * group_len,
            literals,
            linear,
            dense,
            lines,
            // A walk of the parse (see `local.rs`), while it is at hand.
            local: super::local::is_local(hir),
            segment_prefix,
            forward: None,
        }
    }

    /// What the program cache keeps of the pattern whose parse is `hir`: its facts, and
    /// the NFA of its forward lazy DFA when the pattern searches with that DFA whenever
    /// it runs (no prefix to anchor at, or candidates that the DFA decides), so that a
    /// fresh process builds the DFA without reading and compiling the parse.
    fn stored(hir: &Hir) -> Plain {
        let mut plain = Plain::from_hir(hir, None);
        let anchored = matches!(plain.literals.prefix, Prefix::One(_) | Prefix::Many(_));
        let never = matches!(plain.literals.prefix, Prefix::Never);
        let literal = plain
            .linear
            .as_ref()
            .is_some_and(|l| l.as_literal().is_some());
        let dfa_candidates = anchored
            && !literal
            && plain.lines.is_none()
            && (plain.linear.is_none() || plain.dense);
        if (!anchored && !never) || dfa_candidates {
            let nfa = thompson::Compiler::new().build_from_hir(&syntax::ascii_hir(hir));
            let mut form = Vec::new();
            if let Ok(nfa) = nfa
                && nfa_form::encode(&nfa, &mut form)
            {
                plain.forward = Some(form.into());
            }
        }
        plain
    }

    /// Appends the stored form, or returns false when a part is not kept (see
    /// [`Compiled::store`]); `out` may then hold part of it.
    fn encode(&self, out: &mut Vec<u8>) -> bool {
        put(out, self.slot_len);
        if !self.literals.encode(out) {
            return false;
        }
        match &self.linear {
            None => out.push(0),
            Some(linear) => {
                out.push(1);
                linear.encode(out);
            }
        }
        match &self.lines {
            None => out.push(0),
            Some(plan) => {
                out.push(1);
                plan.encode(out);
            }
        }
        out.extend([self.dense, self.local, self.segment_prefix].map(u8::from));
        match &self.forward {
            None => out.push(0),
            Some(form) => {
                out.push(1);
                put_bytes(out, form);
            }
        }
        true
    }

    /// Reads what [`Plain::encode`] wrote (all of `bytes`).
    fn decode(bytes: &[u8]) -> Result<Plain, DecodeError> {
        let mut reader = Reader::new(bytes);
        let slot_len = reader.varint()?;
        let literals = Literals::decode(&mut reader)?;
        if slot_len == 0 || slot_len % 2 == 1 || literals.fixed_groups.len() != slot_len / 2 {
            return Err(DecodeError("groups that do not fit the pattern"));
        }
        let linear = if reader.flag()? {
            Some(Linear::decode(&mut reader, slot_len)?)
        } else {
            None
        };
        let lines = if reader.flag()? {
            Some(LinesPlan::decode(&mut reader)?)
        } else {
            None
        };
        let (dense, local, segment_prefix) = (reader.flag()?, reader.flag()?, reader.flag()?);
        let forward = if reader.flag()? {
            Some(reader.bytes()?.into())
        } else {
            None
        };
        if !reader.at_end() {
            return Err(DecodeError("bytes after a stored pattern"));
        }
        Ok(Plain {
            slot_len,
            literals,
            linear,
            dense,
            lines,
            local,
            segment_prefix,
            forward,
        })
    }
}

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
    /// `state.rs`): every match starts with this literal, which starts with `%` and holds
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

    /// The pattern's parse, read back from its binary form.
    fn hir(&self) -> Hir {
        syntax::decode(&self.parsed).expect("the executor's own encoding reads back")
    }

    /// The pattern's parse cut down to ASCII (`syntax::ascii_hir`), read from its binary form.
    fn ascii_hir(&self) -> Hir {
        syntax::decode_ascii(&self.parsed).expect("the executor's own encoding reads back")
    }

    /// Builds the engines that a search of the pattern builds on its first use whatever
    /// the text, for texts that are all ASCII when `ascii` (see [`AsciiDfa`]): the forward
    /// lazy DFA when candidates are searched with it or when the program cache kept its
    /// NFA (see `Plain::stored`), and the lazy DFAs of the `lines` form. The helper thread
    /// that compiles ahead of a run calls it, so that the run finds them built; results
    /// are the same either way.
    pub fn build_search_engines(&self, ascii: bool) {
        // Built outside the locks and then set (see `syntax::set_built`): a run that
        // needs one meanwhile builds its own instead of waiting for the helper's.
        if self.forward.is_some() || matches!(self.strategy, Strategy::Anchored(Candidate::Dfa)) {
            let dfa = syntax::set_built(&self.dfa, || self.new_dfa());
            if let Some(dfa) = dfa {
                dfa.build_ahead(ascii);
            }
        }
        if let Some(lines) = self.lines() {
            lines.build_dfas(ascii);
        }
    }

    /// The NFA, built on first use.
    fn nfa(&self) -> &NFA {
        self.nfa.get_or_init(|| {
            let nfa = thompson::Compiler::new()
                .build_from_hir(&self.hir())
                .expect("a validated pattern compiles to an NFA");
            debug_assert_eq!(nfa.group_info().slot_len(), self.slot_len);
            nfa
        })
    }

    /// The forward lazy DFAs, built on first use; `None` when the NFA cannot be built.
    fn dfa(&self) -> Option<&AsciiDfa> {
        self.dfa.get_or_init(|| self.new_dfa()).as_deref()
    }

    /// Builds the forward lazy DFAs (see [`Compiled::dfa`]).
    fn new_dfa(&self) -> Option<Box<AsciiDfa>> {
        // The prefilter comes from the pattern itself: it must not skip a
        // non-ASCII byte where a match of the pattern could start (the DFA
        // would not see it and quit), and skipping places where none can start
        // is right for both forms. When every match starts with one literal,
        // that literal is the prefilter (much cheaper to build than the one
        // read off the parse, and as right).
        let prefilter = match &self.literals.prefix {
            Prefix::One(finder) => Prefilter::new(MatchKind::LeftmostFirst, &[finder.needle()]),
            _ => Prefilter::from_hir_prefix(MatchKind::LeftmostFirst, &self.hir()),
        };
        let stored = self.forward.as_deref().map(nfa_form::decode);
        let nfa = match stored {
            Some(Ok(nfa)) => {
                #[cfg(debug_assertions)]
                {
                    let fresh = thompson::Compiler::new()
                        .build_from_hir(&self.ascii_hir())
                        .ok()?;
                    let mut form = Vec::new();
                    nfa_form::encode(&fresh, &mut form);
                    debug_assert!(
                        self.forward.as_deref() == Some(&form[..]),
                        "a stored NFA that is not the pattern's"
                    );
                }
                nfa
            }
            _ => thompson::Compiler::new()
                .build_from_hir(&self.ascii_hir())
                .ok()?,
        };
        let config = lazy_config(FORWARD_CACHE).prefilter(prefilter);
        Some(Box::new(AsciiDfa::new(nfa, config, Direction::Forward)))
    }

    /// The reverse lazy DFAs (all matches, no groups), built on first use, as
    /// `regex_automata::hybrid::regex` builds them; `None` when the NFA cannot be built.
    fn reverse(&self) -> Option<&AsciiDfa> {
        self.reverse
            .get_or_init(|| {
                let nfa = thompson::Compiler::new()
                    .configure(
                        thompson::Config::new()
                            .reverse(true)
                            .shrink(true)
                            .which_captures(thompson::WhichCaptures::None),
                    )
                    .build_from_hir(&self.ascii_hir())
                    .ok()?;
                let config = lazy_config(REVERSE_CACHE)
                    .prefilter(None)
                    .specialize_start_states(false)
                    .match_kind(MatchKind::All);
                Some(Box::new(AsciiDfa::new(nfa, config, Direction::Reverse)))
            })
            .as_deref()
    }

    /// The leftmost-first match in `input` (unanchored) with the lazy DFAs, as
    /// `hybrid::regex::Regex::try_search` finds it: the forward DFA gives its end, the
    /// reverse DFA run back from there its start. The forward DFA and its cache are the
    /// ones anchored searches use. `Err` when a DFA cannot be built or gives up.
    fn lazy_search(
        &self,
        cache: &mut Cache,
        input: &Input<'_>,
    ) -> Result<Option<(usize, usize)>, ()> {
        let ascii = cache.ascii;
        let forward = self.dfa().and_then(|d| d.get(ascii));
        let reverse = self.reverse().and_then(|d| d.get(ascii));
        let (Some(forward), Some(reverse)) = (forward, reverse) else {
            return Err(());
        };
        let fcache = cache.dfa.get_or_insert_with(|| forward.create_cache());
        let Some(end) = forward.try_search_fwd(fcache, input).map_err(|_| ())? else {
            return Ok(None);
        };
        let end = end.offset();
        if input.start() == end || forward.get_nfa().is_always_start_anchored() {
            return Ok(Some((input.start(), end)));
        }
        let back = input
            .clone()
            .span(input.start()..end)
            .anchored(Anchored::Yes)
            .earliest(false);
        let rcache = cache.reverse.get_or_insert_with(|| reverse.create_cache());
        match reverse.try_search_rev(rcache, &back) {
            Ok(Some(start)) => Ok(Some((start.offset(), end))),
            _ => Err(()),
        }
    }

    /// The meta regex, the fallback when a lazy DFA cannot be built or gives up (a
    /// Unicode word boundary meeting non-ASCII text). It only ever reports whole
    /// matches, so it is built without explicit groups and without the one-pass DFA (a
    /// capture engine): a smaller NFA and cache, the same matches.
    fn meta(&self) -> &meta::Regex {
        self.meta.get_or_init(|| {
            meta::Builder::new()
                .configure(
                    meta::Config::new()
                        .nfa_size_limit(Some(10 * (1 << 20)))
                        .hybrid_cache_capacity(2 * (1 << 20))
                        .which_captures(thompson::WhichCaptures::Implicit)
                        .onepass(false),
                )
                .build_from_hir(&self.hir())
                .expect("a validated pattern builds a meta regex")
        })
    }

    /// The linear form for group resolution (see `group_linear`) and whether it left out
    /// a leading `\A`, built on first use.
    fn group_linear(&self) -> Option<(&Linear, bool)> {
        self.group_linear
            .get_or_init(|| {
                let (hir, from_start) = for_groups(&self.hir());
                Linear::new(&hir).map(|linear| (linear, from_start))
            })
            .as_ref()
            .map(|(linear, from_start)| (linear, *from_start))
    }

    fn pikevm(&self) -> &pikevm::PikeVM {
        self.pikevm.get_or_init(|| {
            pikevm::PikeVM::new_from_nfa(self.nfa().clone()).expect("PikeVM builds from any NFA")
        })
    }

    /// Resets the per-rule bookkeeping of `cache`; call before each rule's first search
    /// of a text of `hay_len` bytes.
    ///
    /// Choosing the search: an anchored search per candidate pays a set-up and a scan of
    /// the candidate's thread even when the thread does not match; the unanchored
    /// search scans the text once with a DFA and finds groups only on the matches. When
    /// earlier rules of this pattern on large texts matched at fewer than one candidate
    /// in 32, the rule starts unanchored (every fourth such rule still runs anchored to
    /// measure the rate again), unless the last anchored rule's failed candidates cost
    /// less than half a scan of the text (linear and `lines` searches jump to the one
    /// line they test, so a miss is cheap). Both give `regex`'s matches; only the cost
    /// differs.
    pub fn begin_rule(&self, cache: &mut Cache, hay_len: usize) {
        cache.stop = None;
        if let Some(len) = cache.measuring.take() {
            cache.cheap_failures = cache.failed_work.saturating_mul(2) < len;
        }
        cache.failed_work = 0;
        cache.touched_end = false;
        cache.groups_for = None;
        cache.unanchored = false;
        cache.ahead.begin_rule();
        let measured = match &self.strategy {
            Strategy::Anchored(Candidate::Literal(_)) | Strategy::Never | Strategy::Unanchored => {
                false
            }
            Strategy::Anchored(_) => true,
        };
        if hay_len >= LARGE_TEXT && measured {
            cache.large_rules = cache.large_rules.wrapping_add(1);
            let sparse = cache.tried >= 64 && cache.hits.saturating_mul(32) < cache.tried;
            cache.unanchored =
                sparse && !cache.cheap_failures && !cache.large_rules.is_multiple_of(4);
            if !cache.unanchored {
                cache.tried /= 2;
                cache.hits /= 2;
                cache.measuring = Some(hay_len);
            }
        }
        cache.dfa_ahead = self.sparse_ahead(cache);
        cache.unanchored &= !cache.dfa_ahead;
    }

    /// [`Compiled::begin_rule`] for a search of the matches of a splittable pattern that
    /// start before `stop` only: candidates from `stop` on are not searched (a search
    /// then reports no match), and every candidate is searched anchored, so that no
    /// search runs on far past `stop`.
    pub fn begin_stretch(&self, cache: &mut Cache, hay_len: usize, stop: usize) {
        self.begin_rule(cache, hay_len);
        cache.stop = Some(stop);
        cache.unanchored = false;
        cache.dfa_ahead = false;
    }

    /// Whether a rule that would run unanchored (its candidates rarely match) searches
    /// its candidates ahead with the lazy DFA instead: for linear patterns, whose
    /// candidates otherwise take the linear search one at a time. Both read about the
    /// same bytes (the candidates' lines, which is all a machine rule's match can span);
    /// the walks of four candidates interleaved overlap their loads, where the
    /// unanchored DFA walks one chain (the quick mobility tests `#_q: bF([^\n]*[RQ]\.*)...`
    /// on kiwipete's wide state: 2,059 lines, no match). The failed-work guard still
    /// sends a rule whose candidates rescan the text unanchored.
    fn sparse_ahead(&self, cache: &Cache) -> bool {
        cache.unanchored
            && cache.ahead.enabled()
            && self.linear.is_some()
            && !self.searches_ahead(cache.ascii)
            && self.dfa().and_then(|d| d.get(cache.ascii)).is_some()
    }

    /// The first match when searching `hay` from `at` (a char boundary, `at <= hay.len()`),
    /// or `None`. Whether the state even contains a required literal is checked first, by
    /// the caller, with [`Compiled::first_possible`]. `starts`, when given, is the index of
    /// `hay`'s `%` bytes.
    pub fn find_at(
        &self,
        cache: &mut Cache,
        hay: &str,
        at: usize,
        starts: Option<&Starts>,
    ) -> Option<(usize, usize)> {
        match self.strategy {
            Strategy::Never => return None,
            Strategy::Unanchored => return self.find_unanchored(cache, hay, at),
            Strategy::Anchored(_) => {}
        }
        // A sparse rule whose lockstep turned itself off runs unanchored after all.
        cache.unanchored |= cache.dfa_ahead && !cache.ahead.enabled();
        if cache.ahead.enabled() && (cache.dfa_ahead || self.searches_ahead(cache.ascii)) {
            return self.find_ahead(cache, hay, at, starts);
        }
        let bytes = hay.as_bytes();
        let mut from = at;
        let stop = cache.stop.unwrap_or(usize::MAX);
        while let Some(start) = self
            .next_candidate(bytes, from, starts, &mut cache.start_hint)
            .filter(|&start| start < stop)
        {
            if cache.unanchored {
                return self.find_unanchored(cache, hay, start);
            }
            let counted = hay.len() >= LARGE_TEXT;
            cache.tried += u32::from(counted);
            if let Some(end) = self.anchored_end(cache, hay, start) {
                cache.hits += u32::from(counted);
                return Some((start, end));
            }
            from = start + 1;
        }
        None
    }

    /// Whether candidates are searched ahead in lockstep: by the `lines` search, or by
    /// the lazy DFA when no other search comes first (and it builds; in its exact form
    /// when `ascii`, see [`Cache::set_ascii`]).
    pub(super) fn searches_ahead(&self, ascii: bool) -> bool {
        match self.strategy {
            Strategy::Anchored(Candidate::Lines { .. }) => true,
            Strategy::Anchored(Candidate::Dfa) => self.dfa().and_then(|d| d.get(ascii)).is_some(),
            _ => false,
        }
    }

    /// The `lines` form, when the pattern's candidates are searched with it.
    fn lines(&self) -> Option<&Lines> {
        match &self.strategy {
            Strategy::Anchored(Candidate::Lines { lines, .. }) => Some(lines),
            _ => None,
        }
    }

    /// [`Compiled::find_at`] for patterns whose candidates the lazy DFA decides: the
    /// candidates are searched ahead in batches, several in lockstep (see
    /// [`super::lockstep`]), and their answers taken in order. An anchored search's
    /// answer depends only on the text and its start, so answers of candidates after a
    /// match stay right; those inside a match are dropped. Undecided answers (`Redo`)
    /// take the one-at-a-time search.
    fn find_ahead(
        &self,
        cache: &mut Cache,
        hay: &str,
        at: usize,
        starts: Option<&Starts>,
    ) -> Option<(usize, usize)> {
        let bytes = hay.as_bytes();
        let mut from = at;
        loop {
            let Some((start, answer)) = cache.ahead.take(bytes, from) else {
                let hint = &mut cache.start_hint;
                let stop = cache.stop.unwrap_or(usize::MAX);
                let next = |i| {
                    self.next_candidate(bytes, i, starts, hint)
                        .filter(|&start| start < stop)
                };
                let ascii = cache.ascii;
                // The pattern's own DFA only when there is no `lines` form: building it
                // for a pattern that has one (compiling its parse) cost a fresh process
                // more than the `lines` searches themselves.
                let filled = match self.lines() {
                    Some(lines) => {
                        let lcache = cache.lines.get_or_insert_with(|| lines.create_cache(ascii));
                        cache.ahead.fill(bytes, from, next, |starts, out| {
                            lines.search_ahead(lcache, hay, starts, out)
                        })
                    }
                    None => {
                        // `searches_ahead` rules out a DFA that does not build.
                        let dfa = self.dfa().and_then(|d| d.get(ascii))?;
                        let dcache = cache.dfa.get_or_insert_with(|| dfa.create_cache());
                        cache.ahead.fill(bytes, from, next, |starts, out| {
                            lockstep::search(dfa, dcache, bytes, starts, out)
                        })
                    }
                };
                if !filled {
                    return None;
                }
                continue;
            };
            if cache.unanchored {
                return self.find_unanchored(cache, hay, start);
            }
            let counted = hay.len() >= LARGE_TEXT;
            cache.tried += u32::from(counted);
            cache.groups_for = None;
            let end = match answer.outcome {
                Outcome::End(end) => {
                    cache.touched_end |= answer.touched_end;
                    Some(end)
                }
                Outcome::None => {
                    cache.touched_end |= answer.touched_end;
                    self.note_failure(cache, hay, answer.scanned);
                    None
                }
                Outcome::Redo => self.anchored_end(cache, hay, start),
            };
            if let Some(end) = end {
                cache.hits += u32::from(counted);
                return Some((start, end));
            }
            from = start + 1;
        }
    }

    /// Whether a search since [`Compiled::begin_rule`] looked at or past the end of the
    /// text (conservatively: general-engine searches always count).
    pub fn touched_end(cache: &Cache) -> bool {
        cache.touched_end
    }

    /// The general search from `at`, as `regex` itself searches: the unanchored lazy
    /// DFAs, else `meta::Regex`.
    fn find_unanchored(&self, cache: &mut Cache, hay: &str, at: usize) -> Option<(usize, usize)> {
        cache.groups_for = None;
        cache.touched_end = true;
        let input = Input::new(hay).range(at..);
        if let Ok(found) = self.lazy_search(cache, &input) {
            return found;
        }
        let meta = self.meta();
        let mcache = cache.meta.get_or_insert_with(|| meta.create_cache());
        let m = meta.search_with(mcache, &input)?;
        Some((m.start(), m.end()))
    }

    /// Anchored search at `start`: the linear search when the pattern is linear (it also
    /// fills the groups), else (or when it gives up) the lazy DFA.
    fn anchored_end(&self, cache: &mut Cache, hay: &str, start: usize) -> Option<usize> {
        cache.groups_for = None;
        let linear_search = match &self.strategy {
            Strategy::Anchored(Candidate::Literal(literal)) => {
                // A literal cut off by the end of the text might go on past it.
                cache.touched_end |= start + literal.len() > hay.len();
                return hay.as_bytes()[start..]
                    .starts_with(literal)
                    .then_some(start + literal.len());
            }
            Strategy::Anchored(Candidate::Lines { then_linear, .. }) => *then_linear,
            Strategy::Anchored(Candidate::Linear) => true,
            _ => false,
        };
        if let Some(lines) = self.lines() {
            let ascii = cache.ascii;
            let lcache = cache.lines.get_or_insert_with(|| lines.create_cache(ascii));
            let mut effort = lines::Effort::default();
            let found = lines.find_at(lcache, hay, start, &mut effort);
            cache.touched_end |= effort.touched_end;
            match found {
                lines::Found::End(end) => return Some(end),
                lines::Found::None => {
                    self.note_failure(cache, hay, effort.scanned);
                    return None;
                }
                lines::Found::GaveUp => {}
            }
        }
        if let Some(linear) = self.linear.as_ref().filter(|_| linear_search) {
            // `find_end` clears the slots itself; they only need the right length.
            cache.groups.resize(self.slot_len, None);
            let mut work = 0;
            let found = linear.find_end(
                hay,
                start,
                &mut cache.groups,
                &mut work,
                &mut cache.touched_end,
            );
            match found {
                Ok(Some(end)) => {
                    cache.groups_for = Some((start, end));
                    return Some(end);
                }
                Ok(None) => {
                    // Failed candidates normally cost a few steps each (a thread each).
                    // When they add up to several scans of the whole state, candidates
                    // are rescanning the same text: finish the rule unanchored.
                    // One step scans about eight bytes.
                    self.note_failure(cache, hay, 8 * work);
                    return None;
                }
                Err(()) => {}
            }
        }
        let input = Input::new(hay).range(start..).anchored(Anchored::Yes);
        let Some(dfa) = self.dfa().and_then(|d| d.get(cache.ascii)) else {
            cache.touched_end = true;
            let meta = self.meta();
            let mcache = cache.meta.get_or_insert_with(|| meta.create_cache());
            return meta.search_with(mcache, &input).map(|m| m.end());
        };
        let dcache = cache.dfa.get_or_insert_with(|| dfa.create_cache());
        let before = dcache.search_total_len();
        let result = dfa.try_search_fwd(dcache, &input);
        // The lazy DFA counts the bytes it searched (from zero again if its cache was
        // cleared during this search).
        let after = dcache.search_total_len();
        let scanned = after.checked_sub(before).unwrap_or(after);
        // A search that stopped within a byte of the end may have needed what follows.
        cache.touched_end |= start + scanned + 1 >= hay.len() || after < before;
        match result {
            Ok(Some(hm)) => Some(hm.offset()),
            Ok(None) => {
                self.note_failure(cache, hay, scanned);
                None
            }
            Err(_) => {
                cache.touched_end = true;
                let meta = self.meta();
                let mcache = cache.meta.get_or_insert_with(|| meta.create_cache());
                meta.search_with(mcache, &input).map(|m| m.end())
            }
        }
    }

    /// Counts `scanned` bytes spent on a failed candidate; once failures add up to several
    /// scans of the whole state, candidates are rescanning the same text, and the rest of
    /// the rule is searched unanchored.
    fn note_failure(&self, cache: &mut Cache, hay: &str, scanned: usize) {
        cache.failed_work += scanned;
        if cache.failed_work > 4 * hay.len() + 32 * 1024 && cache.stop.is_none() {
            cache.unanchored = true;
        }
    }

    /// Resolves the groups of the match `start..end` into `cache.groups`. `start..end`
    /// must be a match [`Compiled::find_at`] reported.
    pub fn resolve_groups(&self, cache: &mut Cache, hay: &str, start: usize, end: usize) {
        if cache.groups_for == Some((start, end)) {
            return;
        }
        let slot_len = self.slot_len;
        cache.groups.clear();
        cache.groups.resize(slot_len, None);
        if let Some(linear) = &self.linear
            && linear.resolve(hay, start, end, &mut cache.groups)
        {
            return;
        }
        // A pattern with no linear form of its own whose form for groups is linear (see
        // [`for_groups`]: the `play` program's parsing of its input,
        // `\A([^%]*)(%%\n#stack:\n)...`, and the SAN's list forks,
        // `(%%\n#stack:\n)((?:;[^;\n]*){1})((?:;[^;\n]*)+)\n([^%]*)`): that form has the
        // same matches with the same groups, so its linear form resolves them, as
        // `Linear::resolve` would the pattern's own. The engines took 13,000 (one-pass
        // DFA) to 70,000 (backtracker) instructions a match on these.
        if self.linear.is_none()
            && let Some((linear, from_start)) = self.group_linear()
            && (start == 0 || !from_start)
            && linear.resolve(hay, start, end, &mut cache.groups)
        {
            return;
        }
        cache.slots.clear();
        cache.slots.resize(slot_len, None);
        let input = Input::new(hay).span(start..end).anchored(Anchored::Yes);
        let engine = self.groups.get_or_init(|| {
            let nfa = self.nfa();
            if let Ok(op) = onepass::Builder::new().build_from_nfa(nfa.clone()) {
                GroupEngine::OnePass(Box::new(op))
            } else if let Ok(bt) = backtrack::Builder::new().build_from_nfa(nfa.clone()) {
                GroupEngine::Backtrack(bt)
            } else {
                GroupEngine::PikeVm
            }
        });
        let found = match engine {
            GroupEngine::OnePass(op) => {
                let c = cache.onepass.get_or_insert_with(|| op.create_cache());
                op.try_search_slots(c, &input, &mut cache.slots).ok()
            }
            GroupEngine::Backtrack(bt) if end - start <= bt.max_haystack_len() => {
                let c = cache.backtrack.get_or_insert_with(|| bt.create_cache());
                bt.try_search_slots(c, &input, &mut cache.slots).ok()
            }
            _ => None,
        };
        if found.flatten().is_none() {
            let vm = self.pikevm();
            let c = cache.pikevm.get_or_insert_with(|| vm.create_cache());
            vm.search_slots(c, &input, &mut cache.slots);
        }
        for (group, slot) in cache.groups.iter_mut().zip(&cache.slots) {
            *group = slot.map(|s| s.get());
        }
        debug_assert_eq!(
            (cache.groups[0], cache.groups[1]),
            (Some(start), Some(end)),
            "group resolution must find the same match"
        );
    }
}

/// The pattern `hir` rewritten for group resolution: its matches that start at 0 (all of
/// them when `true` comes back) are the same, with the same groups, as those of `hir`.
/// - A leading `\A` (the first part of a concatenation) is left out (`true`): at 0 it
///   holds and takes no width, so a match anchored there is the rest's.
/// - Loops are merged (see [`merged_loop`]).
///
/// Either may make a pattern linear that was not.
fn for_groups(hir: &Hir) -> (Hir, bool) {
    if let HirKind::Concat(parts) = hir.kind()
        && let Some(first) = parts.first()
        && matches!(first.kind(), HirKind::Look(Look::Start))
    {
        return (merged_loops(&Hir::concat(parts[1..].to_vec())), true);
    }
    (merged_loops(hir), false)
}

/// `hir` with every loop [`merged_loop`] takes merged.
fn merged_loops(hir: &Hir) -> Hir {
    if let HirKind::Repetition(rep) = hir.kind()
        && let Some(merged) = merged_loop(rep)
    {
        return merged;
    }
    syntax::map_subs(hir, merged_loops)
}

/// A greedy `(?:aC*)+` (`(?:aC*)*`), `a` one char, `C*` a greedy run of a class without
/// `a`, written as `a[Ca]*` (`(?:a[Ca]*)?`): the SAN's lists, `(?:;[^;\n]*)+`.
///
/// Why it is exact: both match the same texts (`a` then any chars of `C` or `a`, each
/// `a` starting the next turn of the loop), a text in one way only (a turn ends where
/// the next `a` is, since `C` lacks `a`), and with the same preference: from a start,
/// the loop's ends are tried from the farthest down to one char after the start (then,
/// for `*`, the start itself), one char at a time, as the merged run gives back. (The
/// last turn's run gives back to its `a`; then the turn is dropped, which ends before
/// that `a`; then the turn before it gives back a char, after which no turn can follow,
/// and so on.) The body holds no group, so only the end matters to what follows.
fn merged_loop(rep: &Repetition) -> Option<Hir> {
    if !rep.greedy || rep.max.is_some() || rep.min > 1 {
        return None;
    }
    let HirKind::Concat(parts) = rep.sub.kind() else {
        return None;
    };
    let [first, run] = &parts[..] else {
        return None;
    };
    let HirKind::Literal(lit) = first.kind() else {
        return None;
    };
    let mut chars = std::str::from_utf8(&lit.0).ok()?.chars();
    let (Some(a), None) = (chars.next(), chars.next()) else {
        return None;
    };
    let HirKind::Repetition(inner) = run.kind() else {
        return None;
    };
    if !inner.greedy || inner.min != 0 || inner.max.is_some() {
        return None;
    }
    let HirKind::Class(Class::Unicode(class)) = inner.sub.kind() else {
        return None;
    };
    let single = ClassUnicode::new([ClassUnicodeRange::new(a, a)]);
    let mut common = class.clone();
    common.intersect(&single);
    if !common.ranges().is_empty() {
        return None;
    }
    let mut wider = class.clone();
    wider.union(&single);
    let body = Hir::concat(vec![
        first.clone(),
        Hir::repetition(Repetition {
            min: 0,
            max: None,
            greedy: true,
            sub: Box::new(Hir::class(Class::Unicode(wider))),
        }),
    ]);
    Some(match rep.min {
        1 => body,
        _ => Hir::repetition(Repetition {
            min: 0,
            max: Some(1),
            greedy: true,
            sub: Box::new(body),
        }),
    })
}

/// Alternation branches from which a linear pattern whose groups are all at fixed
/// offsets is searched by the lazy DFA instead (see [`trie_for_dfa`]).
const TRIE_BRANCHES: usize = 16;

/// A repetition of a class at least this many times keeps a trie on the linear search
/// (see [`trie_for_dfa`]).
const LONG_COUNT: u32 = 24;

/// Whether a linear pattern's candidates are better searched by the lazy DFA (in
/// lockstep) than by the linear search: the pattern holds many alternation branches (a
/// trie of keys such as the gain's `(%%\n#stack:\n(?:B[a-h][1-8](?:a[1-8]:[...]|...)|...)\n[01]{3})0`,
/// which the linear search steps through atom by atom, about 110 ns a thread on
/// kiwipete's wide state, where the lockstep DFA walks took 55), and every group sits at a
/// fixed offset from an edge of the match, so the match span alone gives the groups and
/// the linear search's one pass for match and groups saves nothing. A trie followed by a
/// long counted run (the board look-ups' `[./A-Za-z]{56}`) stays linear: the linear search
/// checks such a run with independent table loads, the DFA with one dependent load a
/// byte (258 against 314 us a rule). Only the cost differs: both searches are exact.
fn trie_for_dfa(hir: &Hir, linear: Option<&Linear>, literals: &Literals) -> bool {
    let groups_fixed = literals.fixed_groups.iter().skip(1).all(Option::is_some);
    groups_fixed
        && linear.is_some_and(|l| l.branches() >= TRIE_BRANCHES)
        && longest_count(hir) < LONG_COUNT
}

/// The largest minimum count of a repetition in `hir` (0 when it has none).
fn longest_count(hir: &Hir) -> u32 {
    match hir.kind() {
        HirKind::Repetition(rep) => rep.min.max(longest_count(&rep.sub)),
        HirKind::Capture(cap) => longest_count(&cap.sub),
        HirKind::Concat(subs) | HirKind::Alternation(subs) => {
            subs.iter().map(longest_count).max().unwrap_or(0)
        }
        HirKind::Empty | HirKind::Literal(_) | HirKind::Class(_) | HirKind::Look(_) => 0,
    }
}

/// The number of groups of the pattern `hir` was parsed from, group 0 included, as its NFA
/// and `regex` count them: one more than the highest group index left in the HIR (not
/// the number of groups left: `(a){0}(b)` drops group 1 but keeps group 2).
fn group_len(hir: &regex_syntax::hir::Hir) -> usize {
    use regex_syntax::hir::HirKind;
    fn highest(hir: &regex_syntax::hir::Hir) -> u32 {
        match hir.kind() {
            HirKind::Capture(cap) => cap.index.max(highest(&cap.sub)),
            HirKind::Concat(subs) | HirKind::Alternation(subs) => {
                subs.iter().map(highest).max().unwrap_or(0)
            }
            HirKind::Repetition(rep) => highest(&rep.sub),
            HirKind::Empty | HirKind::Literal(_) | HirKind::Class(_) | HirKind::Look(_) => 0,
        }
    }
    highest(hir) as usize + 1
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Whether `pattern` is a trie the DFA searches (see [`trie_for_dfa`]).
    fn trie(pattern: &str) -> bool {
        let hir = syntax::parse(pattern);
        let literals = literal::analyze(&hir, group_len(&hir));
        trie_for_dfa(&hir, Linear::new(&hir).as_ref(), &literals)
    }

    fn keys(after: &str) -> String {
        let files: Vec<String> = "abcdefgh"
            .chars()
            .map(|f| format!("{f}[1-8]:[PNp]{after}"))
            .collect();
        format!(
            "(?:B[a-h][1-8](?:{})|N[a-h][1-8](?:{}))",
            files.join("|"),
            files.join("|")
        )
    }

    /// The stored form of `hir` and the binary form of its parse.
    fn stored(hir: &Hir) -> Option<(Vec<u8>, Vec<u8>)> {
        let mut bytes = Vec::new();
        if !Compiled::store(hir, &mut bytes) {
            return None;
        }
        let mut parsed = Vec::new();
        syntax::encode(hir, &mut parsed);
        Some((parsed, bytes))
    }

    /// Every pattern of the chess programs: its stored form reads back to the same facts
    /// (and writes the same bytes again), so the pattern compiled from it is the one
    /// compiled from its parse.
    #[test]
    fn the_chess_programs_patterns_are_stored_whole() {
        let (mut kept, mut lines, mut nfas) = (0, 0, 0);
        for pattern in crate::exec::fast::generated::program_patterns(&["move", "move-qe"]) {
            let hir = syntax::parse(&pattern);
            let Some((_, bytes)) = stored(&hir) else {
                continue;
            };
            let fresh = Plain::stored(&hir);
            let read = Plain::decode(&bytes).expect("a stored form reads back");
            assert_eq!(format!("{read:?}"), format!("{fresh:?}"), "{:?}", pattern);
            let mut again = Vec::new();
            assert!(read.encode(&mut again));
            assert_eq!(again, bytes, "{:?}", pattern);
            kept += 1;
            lines += usize::from(read.lines.is_some());
            nfas += usize::from(read.forward.is_some());
        }
        // Nearly all are kept (a prefix of several literals is not), `lines` forms and
        // the NFAs of the patterns the DFA searches too.
        assert!(
            kept > 1000 && lines > 100 && nfas > 100,
            "{kept} kept, {lines} with lines, {nfas} with an NFA"
        );
    }

    /// A stored form cut short is an error, and damaged bytes never panic.
    #[test]
    fn damaged_stored_forms_are_errors_not_panics() {
        for pattern in [
            "(%%\n#stack:\n)((?:[^%\n]*\n)*#b: )([^\n]*)([45])([^%]*)",
            "(%%\n#stack:\n)(?:(a1)\n.{70}(.)|(b1)\n.{71}(.)|(c1)x)",
            "%%\n(?:[^%\n]*\n)*#b: [0-9]\n(?:[^%\n]*\n)*#c: [a-z]{2,5}?x?",
        ] {
            let hir = syntax::parse(pattern);
            let (parsed, bytes) = stored(&hir).expect("kept");
            for cut in 0..bytes.len() {
                assert!(
                    Plain::decode(&bytes[..cut]).is_err(),
                    "{pattern:?} cut at {cut}"
                );
            }
            let mut longer = bytes.clone();
            longer.push(0);
            assert!(Plain::decode(&longer).is_err());
            for i in 0..bytes.len() {
                for bit in 0..8 {
                    let mut flipped = bytes.clone();
                    flipped[i] ^= 1 << bit;
                    // Bytes that read back are trusted only after the program cache's
                    // checksum; here they must just not panic while being read.
                    if let Ok(plain) = Plain::decode(&flipped) {
                        drop(Compiled::from_plain(plain, parsed.clone().into()));
                    }
                }
            }
        }
    }

    mod generated {
        use super::*;
        use proptest::prelude::*;

        fn pattern() -> BoxedStrategy<String> {
            crate::exec::fast::generated::patterns(
                "[a-c%\\n#]",
                &[
                    "[^\\n]",
                    "[^%]",
                    ".",
                    "[0-9é]",
                    "(?:[^%\\n]*\\n)*",
                    "[^\\n]*",
                    "[^%]*",
                    "%%\\n",
                    "\\b",
                ],
                &[
                    "({})",
                    "(?:{})*",
                    "(?:{}){2}",
                    "(?:{})?",
                    "(?:{})??",
                    "({})[^%]*",
                ],
            )
        }

        proptest! {
            #![proptest_config(ProptestConfig::with_cases(400))]
            /// A pattern compiled from its stored form finds the same matches, the same
            /// groups and the same first candidates as one compiled from its parse, and
            /// both find what `regex` finds.
            #[test]
            fn stored_patterns_search_as_compiled_ones(
                p in pattern(),
                hay in "[a-c%\n#é0-9]{0,40}",
            ) {
                let Ok(re) = regex::Regex::new(&p) else {
                    return Ok(());
                };
                let hir = syntax::parse(&p);
                let Some((parsed, bytes)) = stored(&hir) else {
                    return Ok(());
                };
                let fresh = Compiled::from_hir(&hir);
                let read = Compiled::from_stored(parsed.clone().into(), &bytes).expect("reads back");
                prop_assert_eq!(fresh.first_possible(&hay, None), read.first_possible(&hay, None));
                let (mut a, mut b) = (Cache::default(), Cache::default());
                for at in (0..=hay.len()).filter(|&i| hay.is_char_boundary(i)) {
                    fresh.begin_rule(&mut a, hay.len());
                    read.begin_rule(&mut b, hay.len());
                    let found = fresh.find_at(&mut a, &hay, at, None);
                    prop_assert_eq!(found, read.find_at(&mut b, &hay, at, None));
                    let want = re.find_at(&hay, at).map(|m| (m.start(), m.end()));
                    prop_assert_eq!(found, want, "{:?} at {}", p, at);
                    if let Some((start, end)) = found {
                        fresh.resolve_groups(&mut a, &hay, start, end);
                        read.resolve_groups(&mut b, &hay, start, end);
                        prop_assert_eq!(&a.groups, &b.groups);
                    }
                }
            }
        }
    }

    #[test]
    fn tries_with_fixed_groups_go_to_the_dfa() {
        let k = keys("");
        assert!(trie(&format!("(%%\n#stack:\n{k}\n[01]{{7}})0")));
        assert!(trie(&format!("%%\n#stack:\n{k}")));
        assert!(trie(&format!("(%%\n#stack:\n)({k})(.)")));
    }

    #[test]
    fn other_shapes_stay_linear() {
        let k = keys("");
        // A group that is not at a fixed offset: the linear search finds it in its pass.
        assert!(!trie(&format!("(%%\n#stack:\n{k}[^\n]*)\n([01]*)")));
        // A long counted run after the trie.
        let long = keys("\n[./A-Za-z]{56}");
        assert!(!trie(&format!("(%%\n#stack:\n)({long})(.)")));
        // Few branches.
        assert!(!trie("(%%\n#stack:\n(?:a|b|c)[01]{3})0"));
        // Not linear at all.
        assert!(!trie("%%\n#stack:\n(?:ab)*c"));
    }

    /// Patterns whose form for groups ([`for_groups`]) is linear, where their own is
    /// not: those that start with `\A` and go on linearly (the `play` program's parsing
    /// of its input), and those with merged loops (the SAN's list forks). Their groups
    /// come out of that form's linear search (no engine behind it) exactly as `regex`
    /// gives them, at every start, on texts where the greedy runs must give back
    /// (several `%%` and history lines, unfinished last lines, lists ending in `;`,
    /// non-ASCII chars); other patterns keep the engines.
    #[test]
    fn group_forms_resolve_groups_linearly() {
        let patterns = [
            "\\A([^%]*)(%%\n#stack:\n)([^\n]*)\n",
            "\\A[^%]*%%\n#stack:\n([^\n]*)\n(?s:.*)",
            "\\A([^%]*\nHistory: ([^\n]*)\n[^%]*)(%%\n#stack:\n)",
            "\\A([^%]*\nMoves:)[^\n]*(\n[^%]*%%\n#stack:\n)([^\n]*)\n",
            "\\A([^%]*)#number: ([^\n]*)\n([^%]*%%\n#stack:\n)",
            "\\A(8 ([a-z.]) ([a-z.])\n7 ([a-z.]))",
            "\\A((?:[^%\n]*\n)*)(#x: )([^\n]*)\n",
            "\\A(x|xy)(y?)z?",
            "\\A((?:;[^;\n]*)+)(;?)",
            "(%%\n#stack:\n)((?:;[^;\n]*){1})((?:;[^;\n]*)+)\n([^%]*)",
            "(%%\n#stack:\n)((?:;[^;\n]*){2})((?:;[^;\n]*)+)\n([^%]*)",
            "(#stack:\n)((?:;[^;\n]*)*)(;?[^\n]*)",
            "((?:;[^;\n]*)+)(;[^\n]*)",
            "((?:;[^;\n]*)*)(;?)",
            "((?:é[^é%]*)+)(é?)([^%]*)",
            "(x(?:;[^;]*)+)(;?)",
        ];
        let hays = [
            "game\nHistory: e2e4 e7e5\nMoves: 3\n#number: 7\n%%\n#stack:\nabc\nd\n%%\n#stack:\n\n",
            "History: \nHistory: x\n\n%%\n#stack:\n",
            "\nMoves:\n%%\n#stack:\n♟é\n%x",
            "8 r .\n7 k\n%%\n#stack:\n",
            "#y: 1\n#x: 2\n#x: 3\n%%\n",
            "xyz",
            "xy",
            "%%\n#stack:\n",
            "%%\n#stack:\n;e4;d4;;Nf3\nrest\n%%\n#stack:\n;a\n%%\n#stack:\n;a;b;\n",
            ";;x;\n;y",
            "x;a;b;;\n;éé;é",
            "é;éaé\né%é",
            ";",
            "",
        ];
        for pattern in patterns {
            let re = regex::Regex::new(pattern).unwrap();
            let compiled = Compiled::new(pattern);
            assert!(compiled.linear.is_none(), "{pattern:?} is linear itself");
            let (linear, _) = compiled.group_linear().expect(pattern);
            for hay in hays {
                let mut cache = Cache::default();
                for at in (0..=hay.len()).filter(|&i| hay.is_char_boundary(i)) {
                    compiled.begin_rule(&mut cache, hay.len());
                    let found = compiled.find_at(&mut cache, hay, at, None);
                    let want = re.captures_at(hay, at);
                    let span = want
                        .as_ref()
                        .and_then(|c| c.get(0))
                        .map(|m| (m.start(), m.end()));
                    assert_eq!(found, span, "{pattern:?} on {hay:?} at {at}");
                    let (Some((start, end)), Some(want)) = (found, want) else {
                        continue;
                    };
                    let want: Vec<Option<usize>> = (0..want.len())
                        .flat_map(|g| {
                            let m = want.get(g);
                            [m.map(|m| m.start()), m.map(|m| m.end())]
                        })
                        .collect();
                    compiled.resolve_groups(&mut cache, hay, start, end);
                    assert_eq!(cache.groups, want, "{pattern:?} on {hay:?} at {at}");
                    // The linear form itself decides, at 0 for the `\A` patterns.
                    if start == 0 || !pattern.starts_with("\\A") {
                        let mut slots = vec![None; want.len()];
                        assert!(linear.resolve(hay, start, end, &mut slots));
                        assert_eq!(slots, want, "{pattern:?} on {hay:?} at {at}");
                    }
                }
            }
        }
        // `\A` elsewhere than first, a look-around after it, a lazy loop or run, a loop
        // whose run takes its first char, must be one char long or turns at least
        // twice: no linear form.
        for pattern in [
            "(\\A)x",
            "x|\\A",
            "\\A(x)\\z",
            "\\Ax\\b",
            "(?:;[^;\n]*)+?x",
            "(?:;[^;\n]*?)+x",
            "(?:;[^\n]*)+x",
            "(?:;[^;\n]+)+x",
            "(?:;[^;\n]*){2,}x",
        ] {
            assert!(
                Compiled::new(pattern).group_linear().is_none(),
                "{pattern:?}"
            );
        }
    }
}
