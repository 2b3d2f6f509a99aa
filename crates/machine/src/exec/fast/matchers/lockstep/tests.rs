//! The unit tests of `lockstep`.

use super::*;
use std::cell::Cell;

thread_local! {
    /// Keeps lockstep on for this thread's tests however little it pays, so that
    /// the executor tests exercise it on every rule.
    pub static ALWAYS: Cell<bool> = const { Cell::new(false) };
}
use crate::exec::Executor;
use crate::exec::fast::generated::Rng;
use crate::exec::fast::pattern::Compiled;
use crate::exec::fast::syntax::{AsciiDfa, Direction, ascii_hir};
use regex_automata::nfa::thompson;
use regex_automata::util::prefilter::Prefilter;

/// The forward lazy DFA as the executor builds it: ASCII-cut classes, quitting at
/// non-ASCII bytes unless `ascii` (the exact form, for ASCII texts), tagged start
/// states (with a prefilter) or not, a cache of `capacity` bytes (the least that
/// works with 0).
fn dfa(pattern: &str, prefilter: bool, capacity: usize, ascii: bool) -> DFA {
    let hir = regex_syntax::parse(pattern).unwrap();
    let nfa = thompson::Compiler::new()
        .build_from_hir(&ascii_hir(&hir))
        .unwrap();
    let pre = prefilter
        .then(|| Prefilter::from_hir_prefix(regex_automata::MatchKind::LeftmostFirst, &hir))
        .flatten();
    let config = DFA::config()
        .unicode_word_boundary(true)
        .cache_capacity(capacity)
        .skip_cache_capacity_check(true)
        .prefilter(pre);
    let dfas = AsciiDfa::new(nfa, config, Direction::Forward);
    dfas.get(ascii).unwrap().clone()
}

/// The answers at every char boundary of `hay` (overlapping starts, every lane
/// position) against one search at a time; returns how many were `Redo`, which is
/// only allowed where the single search gives up, reads `LONG` bytes or more, or
/// (`clears_allowed`) the cache was cleared during the batch. On an ASCII `hay` the
/// exact DFA is checked too, and must never redo more than the quitting one.
fn agrees(pattern: &str, hay: &str, prefilter: bool, capacity: usize) -> usize {
    let quitting = agrees_with(pattern, hay, prefilter, capacity, false);
    if hay.is_ascii() {
        let exact = agrees_with(pattern, hay, prefilter, capacity, true);
        assert!(
            exact <= quitting || capacity < 1 << 16,
            "{pattern:?} on {hay:?}"
        );
    }
    quitting
}

fn agrees_with(pattern: &str, hay: &str, prefilter: bool, capacity: usize, ascii: bool) -> usize {
    let dfa = dfa(pattern, prefilter, capacity, ascii);
    let clears_allowed = capacity < 1 << 16;
    let mut cache = dfa.create_cache();
    let starts: Vec<usize> = (0..=hay.len())
        .filter(|&i| hay.is_char_boundary(i))
        .collect();
    let mut answers = Vec::new();
    let mut redo = 0;
    for batch in starts.chunks(BATCH) {
        let clears = cache.clear_count();
        search(&dfa, &mut cache, hay.as_bytes(), batch, &mut answers);
        let cleared = cache.clear_count() != clears;
        assert_eq!(answers.len(), batch.len());
        for (&s, answer) in batch.iter().zip(&answers) {
            let input = Input::new(hay).range(s..).anchored(Anchored::Yes);
            let (before, clears) = (cache.search_total_len(), cache.clear_count());
            let want = dfa.try_search_fwd(&mut cache, &input);
            // The count starts again when the cache is cleared.
            let read = (cache.clear_count() == clears).then(|| cache.search_total_len() - before);
            let at = format!("{pattern:?} at {s} of {hay:?}");
            match (answer.outcome, want) {
                (Outcome::Redo, want) => {
                    assert!(
                        want.is_err()
                            || read.is_none_or(|r| r >= LONG)
                            || (cleared && clears_allowed),
                        "needless redo: {at}"
                    );
                    redo += 1;
                    continue;
                }
                (Outcome::End(end), Ok(Some(m))) => assert_eq!(end, m.offset(), "{at}"),
                (Outcome::None, Ok(None)) => {}
                (got, want) => panic!("{got:?} against {want:?}: {at}"),
            }
            if let Some(read) = read {
                assert_eq!(answer.scanned, read, "bytes read: {at}");
            }
        }
    }
    redo
}

const PATTERNS: &[&str] = &[
    "ab[^\n]*(?:x[^\n]{2}y|y[^\n]{2}x)",
    "a(?:b|bx)*",
    "a|ab",
    "(?:ab)+y?",
    "a[^\n]*",
    "a[^%]*",
    "(?m)a.*$",
    "a.*\\z",
    "\\ba\\w*\\b",
    "a(?:[^\n]{3}\\.)*[^\n]{3}[xy]",
    "b(?:a|é)x",
    // Many match states a line (the quick mobility test): lanes cross match states
    // while others walk plain ones.
    "q[^\n]*(?:n[^\n]{2}[.K]|[.K][^\n]{2}n|[rq][.K]|[.K][rq])",
];

#[test]
fn every_start_agrees() {
    let hays = [
        "",
        "a",
        "abab",
        "abxaay\nab ayyx\nabab\naaaa\nab.x..y",
        "ab ab ab ab ab ab ab ab ab ab ab ab ab ab ab ab ab ab ab ab ab",
        "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaabbbbbbbbbb%aaaaaa\n",
        "a...x...y...x%ab\nabé x\nbéx bax aé\nab xaby",
        "ab\nab\nab\nab\nab\nab\nab\nab\nab\nab\nab\nab\nab",
        "q.r.K.n..K.q\nq....\nqK.r.n.K..rq.\nq.K\nqq.Kn..n.Kr\nq.n..K.r.q..KK.\nqé.K",
    ];
    for pattern in PATTERNS {
        for hay in hays {
            for prefilter in [false, true] {
                agrees(pattern, hay, prefilter, 1 << 20);
            }
        }
    }
}

#[test]
fn non_ascii_bytes_are_redone_and_ascii_text_never() {
    assert!(agrees("a[^\n]*", "ab é\nab\nab\nab\nab\nab", true, 1 << 20) > 0);
    assert!(agrees("\\ba\\w*\\b", "aé ab ab ab ab ab ab ab", true, 1 << 20) > 0);
    assert_eq!(
        agrees("a[^\n]*", "ab e\nab\nab\nab\nab\nab", true, 1 << 20),
        0
    );
}

#[test]
fn long_lanes_are_redone() {
    let hay = format!("{}\nab", "ab".repeat(700));
    assert!(agrees("a[^\n]*", &hay, false, 1 << 20) > 0);
    assert!(agrees("a[^\n]{0,2000}z", &hay, false, 1 << 20) > 0);
}

#[test]
fn cleared_caches_leave_only_redos() {
    // The smallest cache: new states clear it again and again.
    let hay = "abxaay\nab ayyx\nabab\naaaa\nab.x..y ab ab ax..y a..y".repeat(4);
    for pattern in PATTERNS {
        agrees(pattern, &hay, true, 0);
    }
}

#[test]
fn random_texts_agree() {
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
    let pieces = [
        "a", "b", "ab", "x", "y", ".", " ", "\n", "%", "é", "q", "n", "K", "r",
    ];
    for round in 0..300 {
        let len = rng.below(120);
        let hay: String = (0..len).map(|_| pieces[rng.below(pieces.len())]).collect();
        let pattern = PATTERNS[round % PATTERNS.len()];
        agrees(pattern, &hay, round % 2 == 0, 1 << 20);
    }
}

/// Rules whose candidates are searched ahead, on states with many threads: the fast
/// executor against the reference.
#[test]
fn executors_agree_on_rules_searched_ahead() {
    let rules = [
        ("#b: [^\n]*(?:n[^\n]{2}K|K[^\n]{2}n)", "#b: hit"),
        ("#b: ([^\n]*)(?:q(?:[^\n]{3}\\.)*[^\n]{3}K)", "#b: ${1}Q"),
        ("#q: [^\n]*(?:a|b(?:[^\n]{2}\\.)*c)", "<$0>"),
        ("(?:#q|#b): [^\n]*(?:xx|y(?:[^\n]{2}\\.)*y)\n", "$0!"),
        // Candidates inside and at the last byte of matches.
        ("xa(?:\\.[^\n]{2})*[^\n]?x", "<$0>"),
        // `lines` patterns: one segment, two segments, a tail.
        // (Their repeats choose among many counts, so the linear search does not
        // come first.)
        (
            "(%%\n(?:[^%\n]*\n)*#b: )([^\n]{0,30}n[^\n]{2}K)",
            "${1}<$2>",
        ),
        (
            "(%%\n(?:[^%\n]*\n)*#q: [^\n]*b(?:[^\n]{2}\\.)*c\n(?:[^%\n]*\n)*#b: )",
            "$1!",
        ),
        ("(%%\n)((?:[^%\n]*\n)*#b: [^\n]{0,30}\n)([^%]*)", "$1$3$2"),
    ];
    for (pattern, _) in rules {
        assert!(Compiled::new(pattern).searches_ahead(false), "{pattern:?}");
        assert!(Compiled::new(pattern).searches_ahead(true), "{pattern:?}");
    }
    ALWAYS.set(true);
    let program = crate::program::Program::from_rules(
        rules
            .iter()
            .map(|(p, r)| crate::program::Rule::new(*p, *r))
            .collect(),
    )
    .validate()
    .unwrap();
    let fast = crate::exec::fast::Fast::new(program.clone());
    let reference = crate::exec::reference::Reference::new(program);
    let mut rng = Rng(7);
    let lines = [
        "#b: n..K.....",
        "#b: ..Kn",
        "#b: q...K",
        "#b: q....K",
        "#b: q...K...",
        "#q: abc",
        "#q: b...c",
        "#q: b..c",
        "#q: b...c",
        "#q: yy..y",
        "#q: xx",
        "#b: #b: n..K",
        "#q: é b..c",
        "#b: Kén..n",
    ];
    let fixed = "%%\nxaxaxaxa\nxa.xaxxa\n#b: n..K\n%%\n#q: b...c\n#b: x\n".repeat(20);
    assert_eq!(fast.run(&fixed), reference.run(&fixed));
    for round in 0..200 {
        let threads = 1 + rng.below(if round % 4 == 0 { 400 } else { 30 });
        let mut state = String::new();
        for _ in 0..threads {
            state.push_str("%%\n");
            for _ in 0..rng.below(4) {
                state.push_str(lines[rng.below(lines.len())]);
                state.push('\n');
            }
        }
        assert_eq!(fast.run(&state), reference.run(&state), "{state:?}");
    }
}
