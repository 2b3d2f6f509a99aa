//! Which patterns may run on pieces of the state cut at thread boundaries.
//!
//! Contract: [`is_local`] is true only when no match of the pattern contains `\n%`, no
//! match is empty, and the pattern has no look-around. Then every match of a search of
//! the whole state lies inside one piece of a state cut just before a `%` that follows a
//! `\n`, and each piece's search finds exactly those of the whole search (the argument
//! is in `parallel.rs`). False is always safe: the rule then runs on the whole state.
//!
//! How: one walk of the pattern's parse, bottom up, computing for each sub-pattern what
//! its matches may look like at their edges ([`Edges`]): whether one may be empty, start
//! with `%`, end with `\n`, or hold `\n%`. A concatenation holds `\n%` when a part does or
//! when a part that may end with `\n` is followed, past parts that may be empty, by one
//! that may start with `%`; a repetition of two or more when its part may both end with
//! `\n` and start with `%`. Every flag over-approximates (a sub-pattern that can never
//! match still counts), so the answer is conservative.
//!
//! Trade-offs: a pattern judged not local although it is only runs on the whole state
//! (correct, and on several cores slower); in exchange the decision costs a walk of the
//! parse, no automaton: a fresh process decides it for every pattern it meets on a
//! large state (an NFA per pattern cost about 640 M instructions on the first move,
//! PERF.md).
//!
//! Layer 1: depends on nothing else in the executor.

use regex_syntax::hir::{Class, Hir, HirKind};

/// Whether matches of the pattern `hir` can never contain a thread boundary `\n%`, can
/// never be empty and look at nothing outside themselves: the rule may then run on
/// pieces cut before such boundaries.
pub fn is_local(hir: &Hir) -> bool {
    let props = hir.properties();
    if !props.look_set().is_empty() || props.minimum_len().is_none_or(|n| n == 0) {
        return false;
    }
    !edges(hir).inside
}

/// What a sub-pattern's matches may look like (each flag: some match may).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct Edges {
    /// Be empty.
    empty: bool,
    /// Start with `%` (and so be non-empty).
    percent_first: bool,
    /// End with `\n` (and so be non-empty).
    newline_last: bool,
    /// Hold `\n%`.
    inside: bool,
}

impl Edges {
    /// Matches of `self` followed by matches of `next`.
    fn then(self, next: Edges) -> Edges {
        Edges {
            empty: self.empty && next.empty,
            percent_first: self.percent_first || (self.empty && next.percent_first),
            newline_last: next.newline_last || (next.empty && self.newline_last),
            inside: self.inside || next.inside || (self.newline_last && next.percent_first),
        }
    }

    /// Matches of `self` or of `other`.
    fn or(self, other: Edges) -> Edges {
        Edges {
            empty: self.empty || other.empty,
            percent_first: self.percent_first || other.percent_first,
            newline_last: self.newline_last || other.newline_last,
            inside: self.inside || other.inside,
        }
    }
}

/// The edges of the matches of `hir`.
fn edges(hir: &Hir) -> Edges {
    const EMPTY: Edges = Edges {
        empty: true,
        percent_first: false,
        newline_last: false,
        inside: false,
    };
    match hir.kind() {
        HirKind::Empty | HirKind::Look(_) => EMPTY,
        HirKind::Literal(literal) => {
            let bytes = &literal.0;
            Edges {
                empty: bytes.is_empty(),
                percent_first: bytes.first() == Some(&b'%'),
                newline_last: bytes.last() == Some(&b'\n'),
                inside: bytes.windows(2).any(|w| w == b"\n%"),
            }
        }
        // One char (or byte): `\n%` is two bytes, so never inside it.
        HirKind::Class(class) => Edges {
            empty: false,
            percent_first: class_has(class, b'%'),
            newline_last: class_has(class, b'\n'),
            inside: false,
        },
        HirKind::Capture(capture) => edges(&capture.sub),
        HirKind::Repetition(repetition) => {
            if repetition.max == Some(0) {
                return EMPTY;
            }
            let once = edges(&repetition.sub);
            let again = repetition.max.is_none_or(|max| max >= 2);
            Edges {
                empty: repetition.min == 0 || once.empty,
                inside: once.inside || (again && once.newline_last && once.percent_first),
                ..once
            }
        }
        HirKind::Concat(subs) => subs.iter().fold(EMPTY, |acc, sub| acc.then(edges(sub))),
        HirKind::Alternation(subs) => subs.iter().map(edges).fold(Edges::default(), Edges::or),
    }
}

/// Whether `class` matches the ASCII byte `byte`.
fn class_has(class: &Class, byte: u8) -> bool {
    match class {
        Class::Unicode(set) => set
            .ranges()
            .iter()
            .any(|r| r.start() <= char::from(byte) && char::from(byte) <= r.end()),
        Class::Bytes(set) => set
            .ranges()
            .iter()
            .any(|r| r.start() <= byte && byte <= r.end()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use regex_automata::nfa::thompson;
    use regex_automata::util::syntax;

    /// The earlier decision, on the NFA, kept as an independent check: a pattern the
    /// parse calls local must be local on the NFA too.
    mod on_the_nfa {
        use regex_automata::nfa::thompson::{NFA, State as NfaState};
        use regex_automata::util::primitives::StateID;
        use regex_syntax::hir::Hir;

        /// No useful state (reachable from the anchored start and able to reach a
        /// match) has a `\n` transition into a state whose epsilon closure has a `%`
        /// transition into a useful state; no look-around, no empty match.
        pub(in crate::exec::fast) fn is_local(hir: &Hir, nfa: &NFA) -> bool {
            let props = hir.properties();
            if !props.look_set().is_empty() || props.minimum_len().is_none_or(|n| n == 0) {
                return false;
            }
            let n = nfa.states().len();
            let mut forward: Vec<Vec<usize>> = vec![Vec::new(); n];
            let mut backward: Vec<Vec<usize>> = vec![Vec::new(); n];
            for (id, state) in nfa.states().iter().enumerate() {
                for next in successors(state) {
                    forward[id].push(next.as_usize());
                    backward[next.as_usize()].push(id);
                }
            }
            let reachable = closure(&forward, [nfa.start_anchored().as_usize()]);
            let matches = nfa
                .states()
                .iter()
                .enumerate()
                .filter(|(_, s)| matches!(s, NfaState::Match { .. }))
                .map(|(id, _)| id);
            let coreachable = closure(&backward, matches);
            for (id, state) in nfa.states().iter().enumerate() {
                if !(reachable[id] && coreachable[id]) {
                    continue;
                }
                for after_newline in byte_successors(state, b'\n') {
                    let eps = epsilon_closure(nfa, after_newline);
                    for (other, inside) in eps.iter().enumerate() {
                        if *inside
                            && byte_successors(&nfa.states()[other], b'%')
                                .any(|next| coreachable[next.as_usize()])
                        {
                            return false;
                        }
                    }
                }
            }
            true
        }
        /// Every state `state` can move to, on a byte or without one.
        fn successors(state: &NfaState) -> Vec<StateID> {
            match state {
                NfaState::ByteRange { trans } => vec![trans.next],
                NfaState::Sparse(sparse) => sparse.transitions.iter().map(|t| t.next).collect(),
                NfaState::Dense(dense) => dense
                    .transitions
                    .iter()
                    .copied()
                    .filter(|&s| s != StateID::ZERO)
                    .collect(),
                NfaState::Look { next, .. } | NfaState::Capture { next, .. } => vec![*next],
                NfaState::Union { alternates } => alternates.to_vec(),
                NfaState::BinaryUnion { alt1, alt2 } => vec![*alt1, *alt2],
                NfaState::Fail | NfaState::Match { .. } => Vec::new(),
            }
        }

        /// The states `state` moves to on `byte`.
        fn byte_successors(state: &NfaState, byte: u8) -> impl Iterator<Item = StateID> {
            let found: Vec<StateID> = match state {
                NfaState::ByteRange { trans } => trans
                    .matches_byte(byte)
                    .then_some(trans.next)
                    .into_iter()
                    .collect(),
                NfaState::Sparse(sparse) => sparse.matches_byte(byte).into_iter().collect(),
                NfaState::Dense(dense) => dense.matches_byte(byte).into_iter().collect(),
                _ => Vec::new(),
            };
            found.into_iter()
        }

        /// The states reachable from `start` without reading a byte (look-arounds count as
        /// passable, which only makes the caller more conservative).
        fn epsilon_closure(nfa: &NFA, start: StateID) -> Vec<bool> {
            let mut seen = vec![false; nfa.states().len()];
            let mut stack = vec![start];
            while let Some(id) = stack.pop() {
                if std::mem::replace(&mut seen[id.as_usize()], true) {
                    continue;
                }
                match &nfa.states()[id.as_usize()] {
                    NfaState::Look { next, .. } | NfaState::Capture { next, .. } => {
                        stack.push(*next)
                    }
                    NfaState::Union { alternates } => stack.extend(alternates.iter().copied()),
                    NfaState::BinaryUnion { alt1, alt2 } => stack.extend([*alt1, *alt2]),
                    _ => {}
                }
            }
            seen
        }

        /// The nodes reachable from `starts` along `edges` (the starts included).
        fn closure(edges: &[Vec<usize>], starts: impl IntoIterator<Item = usize>) -> Vec<bool> {
            let mut seen = vec![false; edges.len()];
            let mut stack: Vec<usize> = starts.into_iter().collect();
            while let Some(id) = stack.pop() {
                if !std::mem::replace(&mut seen[id], true) {
                    stack.extend(edges[id].iter().copied());
                }
            }
            seen
        }
    }

    /// Whether `pattern` is local, checked against the NFA's answer.
    fn local(pattern: &str) -> bool {
        let hir = syntax::parse_with(pattern, &syntax::Config::default()).unwrap();
        let nfa = thompson::Compiler::new().build_from_hir(&hir).unwrap();
        let by_parse = is_local(&hir);
        assert!(
            !by_parse || on_the_nfa::is_local(&hir, &nfa),
            "{pattern:?}: local by the parse, not on the NFA"
        );
        by_parse
    }

    #[test]
    fn locality_follows_newline_then_percent() {
        // Matches never hold `\n%`.
        assert!(local("%%\n#x: [0-9]*\n"));
        assert!(local("[^%]*\nb"));
        assert!(local("(?s)."));
        assert!(local("%%\n#stack:\n(True|False)\n"));
        assert!(local("(%%\n#x: )((?:[^%\n]*\n)*#y: )([^\n]*)\n"));
        assert!(local("a\n(?:%){0}b"));
        // The pop of an empty stack runs into the next thread.
        assert!(!local("(%%\n#stack:\n)[^\n]*\n"));
        assert!(!local("a\n%"));
        assert!(!local("(?s).."));
        assert!(!local("x\n(?:y|[%z])"));
        assert!(!local("a(?:\n|b)(?:c?)(?:%|d)"));
        assert!(!local("\n(?:x|)(?:y?)[a%]"));
        assert!(!local("(?:[a\n][%b])"));
        assert!(local("(?:b[\n%])+"));
        assert!(!local("(?:b\n|%c)+"));
        assert!(!local("(?:\n|%){2}"));
        assert!(!local("(?-u:[\n\\x7F])%"));
        // Look-around and empty matches are never cut.
        assert!(!local("^a"));
        assert!(!local("a$"));
        assert!(!local(r"\ba"));
        assert!(!local("a*"));
        assert!(!local("[a&&b]"));
    }

    #[test]
    fn repetitions_of_one_never_meet_themselves() {
        // `\n` then `%` inside one repetition is no boundary unless it repeats.
        assert!(local("b(?:%a\n)?"));
        assert!(local("b(?:%a\n){1}"));
        assert!(!local("b(?:%a\n){1,2}"));
        assert!(!local("b(?:%a\n)+"));
    }

    mod generated {
        use proptest::prelude::*;

        fn pattern() -> BoxedStrategy<String> {
            crate::exec::fast::generated::patterns(
                "[a%\\n]",
                &[
                    "\n%",
                    "%%\n",
                    "[^\\n]",
                    "[^%]",
                    "[^%\\n]",
                    "[%\\n]",
                    "(?s:.)",
                    "(?-u:[\\n\\x41])",
                    "\\b",
                ],
                &[
                    "({})",
                    "(?:{})*",
                    "(?:{})?",
                    "(?:{}){0,1}",
                    "(?:{}){2}",
                    "(?:{})+",
                ],
            )
        }

        proptest! {
            #![proptest_config(ProptestConfig::with_cases(2000))]
            /// Whatever the parse calls local is local on the NFA.
            #[test]
            fn local_by_the_parse_is_local_on_the_nfa(p in pattern()) {
                if regex::Regex::new(&p).is_ok() {
                    super::local(&p);
                }
            }
        }
    }
}
