//! Unit tests: the fast executor against the reference, rule by rule, plus a small
//! randomized self-check (the big equivalence suite lives elsewhere).

use std::ops::ControlFlow;

use super::Fast;
use crate::exec::fast::generated::Rng;
use crate::exec::reference::Reference;
use crate::exec::{Executor, Observer, RuleReport};
use crate::program::{Program, Rule};

/// Records every report and the state after every rule.
#[derive(Default)]
struct Recorder {
    seen: Vec<(usize, RuleReport, String)>,
}

impl Observer for Recorder {
    fn after_rule(&mut self, i: usize, r: &RuleReport, s: &dyn Fn() -> String) -> ControlFlow<()> {
        self.seen.push((i, *r, s()));
        ControlFlow::Continue(())
    }
}

/// Runs both executors and compares the state after every rule and the match counts.
fn check(rules: &[(&str, &str)], state: &str) -> String {
    let program = Program::from_rules(rules.iter().map(|(p, r)| Rule::new(*p, *r)).collect())
        .validate()
        .unwrap();
    let reference = Reference::new(program.clone());
    let mut a = Recorder::default();
    let ra = reference.run_observed(state, &mut a);
    // Flat (patterns compiled by the run alone, and with a helper compiling ahead), then
    // flat with the index of `%` bytes on every state, then segmented for every
    // non-empty state.
    let alone = Fast::new(program.clone()).compile_ahead(false);
    let rb = compare(&a, &ra, alone, rules, state);
    let ahead = Fast::new(program.clone()).compile_ahead(true);
    compare(&a, &ra, ahead, rules, state);
    let indexed = Fast::new(program.clone()).index_starts(0);
    compare(&a, &ra, indexed, rules, state);
    compare(
        &a,
        &ra,
        Fast::new(program.clone()).segmented(1),
        rules,
        state,
    );
    // Several cores, cutting states of any size.
    compare(
        &a,
        &ra,
        Fast::new(program.clone()).parallel(2, 1),
        rules,
        state,
    );
    compare(
        &a,
        &ra,
        Fast::new(program.clone()).parallel(3, 1),
        rules,
        state,
    );
    // Every piece of a rule that is not local searched from its own start, as a
    // helper's: the join searches again wherever a match crosses a cut.
    let speculating = Fast::new(program.clone()).parallel(2, 1).speculate(true);
    compare(&a, &ra, speculating, rules, state);
    // The rope on one core on every state, cut at every thread boundary (a piece per
    // thread), alone and with each piece keeping its index of `%` bytes.
    compare(&a, &ra, Fast::new(program.clone()).rope(1, 1), rules, state);
    let rope_indexed = Fast::new(program.clone()).rope(1, 1).index_starts(0);
    compare(&a, &ra, rope_indexed, rules, state);
    // The index dropped and built again as rules alternate between paths.
    let mixed = Fast::new(program).index_starts(0).parallel(2, 1);
    compare(&a, &ra, mixed, rules, state);
    rb
}

fn compare(a: &Recorder, ra: &str, fast: Fast, rules: &[(&str, &str)], state: &str) -> String {
    let mut b = Recorder::default();
    let rb = fast.run_observed(state, &mut b);
    assert_eq!(a.seen.len(), b.seen.len());
    for ((i, x, sx), (j, y, sy)) in a.seen.iter().zip(&b.seen) {
        assert_eq!(i, j);
        assert_eq!(sx, sy, "state after rule {i} {:?} on {state:?}", rules[*i]);
        assert_eq!(x.state_len, y.state_len);
        // Skipped or not, a rule reports the matches the reference counts: 0 when its
        // literal is absent, those of its identical predecessor at a fixpoint.
        assert_eq!(x.matches, y.matches, "matches of rule {i} {:?}", rules[*i]);
    }
    assert_eq!(ra, rb);
    // A second run reuses pooled caches and must agree too.
    assert_eq!(fast.run(state), ra);
    rb
}

const THREADS: &str = "%%\n#stack:\nTrue\nFalse\n#x: 12\n#y: a\n\
                       %p\n#stack:\nFalse\n#x: 7\n\
                       %%\n#stack:\n#x: 3\n#y: b\n";

#[test]
fn machine_dialect() {
    let rules = [
        ("(%%\n#stack:\n)", "${1}True\n"),
        ("(%%\n#stack:\n)[^\n]*\n", "${1}"),
        (
            "(%%\n#stack:\n)([^%]*\n#x: )([^\n]*)\n",
            "${1}${3}\n${2}${3}\n",
        ),
        ("%%\n([^%]*)", "%%\n${1}%%\n${1}"),
        ("%%\n(#stack:\nFalse\n)", "%p\n${1}"),
        ("%p\n", "%%\n"),
        ("(%%\n#stack:\n)(True|False)\n", "${1}${2}${2}\n"),
    ];
    check(&rules, THREADS);
    check(&rules, "");
    check(&rules, "no threads at all");
}

#[test]
fn empty_matches() {
    let patterns = [
        "a*", "x?", "^", "$", "(?m)^", "(?m)$", r"\b", r"\B", "", "a*?", "(?:ab)*",
    ];
    let states = [
        "",
        "a",
        "baaac",
        "é",
        "aéa\nb",
        "ab\nab\n",
        "日本\n語",
        "xx x",
    ];
    for p in patterns {
        for s in states {
            check(&[(p, "<$0>")], s);
            check(&[(p, "-")], s);
        }
    }
}

#[test]
fn unicode_word_boundaries() {
    for s in ["é a", "aé b", "x日y", "ab cd"] {
        check(&[(r"a\b", "[$0]"), (r"\bb", "{$0}"), (r"\w+\b", "<$0>")], s);
    }
}

#[test]
fn dollars_and_missing_groups() {
    check(&[("(a)|(b)", "$$[$1|$2]$$")], "abcab");
    check(&[("(x)?y", "<${1}>")], "y xy");
    check(&[("(?P<v>a+)", "${v}$$v")], "baab");
}

#[test]
fn fixpoint_runs() {
    let rules = vec![("ab", "b"); 8];
    let program = Program::from_rules(rules.iter().map(|(p, r)| Rule::new(*p, *r)).collect())
        .validate()
        .unwrap();
    let fast = Fast::new(program);
    let mut rec = Recorder::default();
    let out = fast.run_observed("aaab", &mut rec);
    assert_eq!(out, "b");
    let indices: Vec<usize> = rec.seen.iter().map(|s| s.0).collect();
    assert_eq!(indices, (0..8).collect::<Vec<_>>());
    let skipped: Vec<bool> = rec.seen.iter().map(|s| s.1.skipped).collect();
    // Three rules change the state; then `ab` is absent, so the fourth is skipped by its
    // literal and the rest by the fixpoint.
    assert_eq!(skipped, [false, false, false, true, true, true, true, true]);

    // A rule that matches but changes nothing is applied once, then its copies skipped;
    // they report the matches they would find again, as the reference counts them.
    let rules2 = vec![("b", "b"); 4];
    let program = Program::from_rules(rules2.iter().map(|(p, r)| Rule::new(*p, *r)).collect())
        .validate()
        .unwrap();
    let mut rec = Recorder::default();
    assert_eq!(Fast::new(program).run_observed("abcb", &mut rec), "abcb");
    let reports: Vec<(bool, usize)> = rec
        .seen
        .iter()
        .map(|s| (s.1.skipped, s.1.matches))
        .collect();
    assert_eq!(reports, [(false, 2), (true, 2), (true, 2), (true, 2)]);
    check(&rules2, "abcb");
    check(&rules, "aaab");
}

#[test]
fn absent_literal_skips() {
    let program = Program::from_rules(vec![Rule::new("%%\n#stack:\n", "x")])
        .validate()
        .unwrap();
    let fast = Fast::new(program);
    let mut rec = Recorder::default();
    assert_eq!(
        fast.run_observed("%p\n#stack:\n", &mut rec),
        "%p\n#stack:\n"
    );
    assert!(rec.seen[0].1.skipped);
    check(&[("([^%]*)#z: ", "")], THREADS);
}

/// Threads in the chess programs' shape: a stack, a board line, more variables. One
/// thread has two board lines, one has none, one has a `%` inside its board line and the
/// last one ends without a newline.
const BOARDS: &str = "%%\n#stack:\n1010:a8d8\n#b: r..k//pP.1//\n#t: w\n#_20: ..Kq//\n\
                      %%\n#stack:\n#b: ..k.//.P.5//\n#c: KQ\n#b: R..k//p.=.//\n#t: b\n\
                      %p\n#stack:\n#b: r..k//pP.1//\n\
                      %%\n#stack:\na1\n#t: w\n#_113: 7\n\
                      %%\n#stack:\n#b: r.%k//pP.1//\n#t: w\n\
                      %%\n#stack:\nb1\n#b: ...k//.P.7//";

#[test]
fn line_lookups() {
    let rules = [
        // A move rule (linear, dense): fork on a pattern of the board line.
        (
            "%%\n#stack:\n((?:[^%\n]*\n)*#b: )([^\n]*)([.pP])([^\n]{2})([kK])([^%]*)",
            "%%\n#stack:\n${1}${2}<${3}${4}${5}>${6}",
        ),
        // A legality rule: two lines loops, an alternation, a group around all but `\n`.
        (
            "(%%\n#stack:\n(?:[^%\n]*\n)*#b: (?:[^\n]{4})*[^\n]{0,2}[0-9=][^\n]*\n(?:[^%\n]*\n)*#t: [^\n]*)\n",
            "${1}!\n",
        ),
        (
            "%%\n#stack:\n(?:[^%\n]*\n)*#b: [^\n]*(?:[kq](?:[^\n]{2}\\.)*[^\n]{2}[Pp]|1[^\n]?=)[^%]*",
            "",
        ),
        // Square lookups: alternations with groups in every branch.
        (
            "(%%\n#stack:\n)(?:(a1)\n.{6}(.)|(b1)\n.{7}(.)|(a1)\n(.))",
            "$1[$2$3|$4$5|$6$7]",
        ),
        // Groups fixed from the end, and a tail that is not `[^%]*`.
        ("(%%\n(?:[^%\n]*\n)*#t: )([wb])(\n)", "$1<$2>$3"),
        ("%%\n(?:[^%\n]*\n)*(#_20: )(.*)", "$2$1"),
        ("%%\n(?:[^%\n]*\n)*?#b: ", "{$0}"),
        ("(%%\n#stack:\n)((?:[^%\n]*\n)*)", "$1"),
    ];
    check(&rules, BOARDS);
    for rule in rules {
        check(&[rule], BOARDS);
        check(&[rule], &BOARDS[..BOARDS.len() - 3]);
    }
    // Large enough for the choice between anchored and unanchored search (64 KiB).
    let wide = BOARDS.repeat(600);
    for rule in rules {
        check(&[rule, rule, rule, rule, rule, rule], &wide);
    }
}

#[test]
fn observer_break_stops() {
    struct StopAt(usize, Vec<usize>);
    impl Observer for StopAt {
        fn after_rule(
            &mut self,
            i: usize,
            _: &RuleReport,
            _: &dyn Fn() -> String,
        ) -> ControlFlow<()> {
            self.1.push(i);
            if i == self.0 {
                ControlFlow::Break(())
            } else {
                ControlFlow::Continue(())
            }
        }
    }
    let program = Program::from_rules(vec![
        Rule::new("a", "b"),
        Rule::new("b", "c"),
        Rule::new("c", "d"),
    ])
    .validate()
    .unwrap();
    let fast = Fast::new(program);
    let mut stop = StopAt(1, Vec::new());
    assert_eq!(fast.run_observed("a", &mut stop), "c");
    assert_eq!(stop.1, vec![0, 1]);
    assert_eq!(fast.run_range("a", 1..3, &mut crate::exec::NoObserver), "a");
}

#[test]
fn randomized_self_check() {
    let atoms = [
        "a",
        "b",
        "%",
        "%%\n",
        "\n",
        "é",
        "[^%]*",
        "[^\n]*",
        "a*",
        "b?",
        "(a|b)",
        "(%%|%p)",
        "(x)?",
        "^",
        "$",
        "(?m)^",
        "(?m)$",
        r"\b",
        ".",
        "(a*)",
        "(?:ab)+",
        "[a-c]",
        "#x: ",
        "(é|a)*",
        "([^%]*)",
        "(b+?)",
        "(é?)",
        "([a-c]{1,2})",
        "(\n#x: )",
        "([^\n]*)",
        "(.)",
        "(?s:.)*?",
        "[^%\n]+",
        "(?i)A",
        "(?i:é)+",
        "(a|ab)(c|bcd)?",
        "((a)|b)+",
        "[é日]{2}",
        r"\w+",
        r"\W",
        "a{2,}?",
        r"(?-u:\w)",
        "(?:%%\n|%p\n)",
        "(?m:^#)",
        r"\s*",
    ];
    let bits = [
        "a", "b", "%", "%%\n", "%p\n", "\n", "é", "日", "#x: ", "ab", " ", "c", "A", "É", "bcd",
    ];
    let pieces = ["${0}", "${1}", "${2}", "${3}", "[", "$$", "x"];
    // FAST_SELF_CHECK=<iterations>,<seed> widens the check while developing.
    let (iterations, seed) = std::env::var("FAST_SELF_CHECK")
        .ok()
        .and_then(|v| {
            let (n, s) = v.split_once(',')?;
            Some((n.parse().ok()?, s.parse().ok()?))
        })
        .unwrap_or((600, 0x9e37_79b9_7f4a_7c15));
    let mut rng = Rng(seed);
    for _ in 0..iterations {
        let mut rules = Vec::new();
        for _ in 0..(1 + rng.next() % 4) {
            let mut pattern = String::new();
            for _ in 0..(1 + rng.next() % 4) {
                pattern.push_str(rng.pick(&atoms));
            }
            let groups = regex::Regex::new(&pattern).unwrap().captures_len();
            let mut rep = String::new();
            for _ in 0..(rng.next() % 4) {
                let piece = rng.pick(&pieces);
                let usable = match piece.strip_prefix("${") {
                    Some(g) => g[..1].parse::<usize>().unwrap() < groups,
                    None => true,
                };
                if usable {
                    rep.push_str(piece);
                }
            }
            rules.push((pattern, rep));
        }
        let mut state = String::new();
        for _ in 0..(rng.next() % 24) {
            state.push_str(rng.pick(&bits));
        }
        let borrowed: Vec<(&str, &str)> = rules
            .iter()
            .map(|(p, r)| (p.as_str(), r.as_str()))
            .collect();
        check(&borrowed, &state);
    }
}

/// Thread-shaped programs and states, to exercise the segmented path (every state is cut
/// in unit tests) and its guard against matches that cross into the next thread.
#[test]
fn randomized_threads_self_check() {
    let heads = [
        "%%\n",
        "%p\n",
        "%%\n#stack:\n",
        "(%%\n#stack:\n)",
        "%",
        "%%",
    ];
    let atoms = [
        "[^%]*",
        "[^\n]*\n",
        "([^%]*\n#x: )",
        "([^\n]*)\n",
        "%",
        "\n%",
        "(True|False)\n",
        "[^%]*?",
        "(?:[^%]|%p)*",
        "#x: ",
        "\n",
        "[^%\n]+",
        "(a|%)",
        ".*",
        "(?s:.)*?%%",
    ];
    let lines = [
        "True\n",
        "False\n",
        "#x: 1\n",
        "#x: \n",
        "a%b\n",
        "\n",
        "#y: é\n",
        "%%",
        "#stack:\n",
    ];
    let markers = ["%%\n", "%p\n", "%%\n#stack:\n", "%p\n#stack:\n", "%"];
    let pieces = ["${0}", "${1}", "[", "%%\n", "\n", ""];
    let (iterations, seed) = std::env::var("FAST_SELF_CHECK")
        .ok()
        .and_then(|v| {
            let (n, s) = v.split_once(',')?;
            Some((n.parse().ok()?, s.parse().ok()?))
        })
        .unwrap_or((500, 0x2545_f491_4f6c_dd1d));
    let mut rng = Rng(seed);
    for _ in 0..iterations {
        let mut rules = Vec::new();
        for _ in 0..(1 + rng.next() % 4) {
            let mut pattern = rng.pick(&heads).to_string();
            for _ in 0..(rng.next() % 3) {
                pattern.push_str(rng.pick(&atoms));
            }
            let groups = regex::Regex::new(&pattern).unwrap().captures_len();
            let mut rep = String::new();
            for _ in 0..(rng.next() % 3) {
                let piece = rng.pick(&pieces);
                if piece != "${1}" || groups > 1 {
                    rep.push_str(piece);
                }
            }
            rules.push((pattern, rep));
        }
        let mut state = String::new();
        for _ in 0..(rng.next() % 8) {
            state.push_str(rng.pick(&markers));
            for _ in 0..(rng.next() % 4) {
                state.push_str(rng.pick(&lines));
            }
        }
        let borrowed: Vec<(&str, &str)> = rules
            .iter()
            .map(|(p, r)| (p.as_str(), r.as_str()))
            .collect();
        check(&borrowed, &state);
    }
}

/// Rules of one pattern on a large state where few threads match: after a few rules the
/// pattern is searched unanchored (see `Compiled::begin_rule`); results stay the same.
#[test]
fn sparse_matches_on_large_states() {
    let mut state = String::new();
    for i in 0..4000 {
        state.push_str("%%\n#stack:\nx\n#v: 1\n");
        if i % 97 == 0 {
            state.push_str("#w: é2\n");
        }
        if i % 5 == 0 {
            state.push_str("%paused\n#w: 3\n");
        }
    }
    assert!(state.len() > 1 << 16);
    let lookup = (
        "(%%\n#stack:\n)((?:[^%\n]*\n)*#w: )([^\n]*)\n",
        "${1}${3}\n${2}${3}\n",
    );
    let pop = ("(%%\n#stack:\n)[^\n]*\n", "${1}");
    let mut rules = Vec::new();
    for _ in 0..12 {
        rules.push(lookup);
        rules.push(pop);
    }
    check(&rules, &state);
}

#[test]
fn a_literal_found_absent_is_searched_again_once_the_state_changes() {
    // Rules 0 and 2 need `%q`, absent at first; rule 1 creates it; rule 3 needs `zz`
    // as a required literal inside, and rule 4 creates that; rule 5 needs both again.
    let out = check(
        &[
            ("%q\n#stack:\n", "%%\n#stack:\nX\n"),
            ("%q\n#stack:\n", "never"),
            ("(%)p", "${1}q"),
            ("%q\n#stack:\n", "%q\n#stack:\nseen\n"),
            ("#x: [0-9]+zz", "hit"),
            ("#x: 7", "#x: 7zz"),
            ("#x: [0-9]+zz", "hit"),
            ("%q\n#stack:\n(seen)", "%q\n#stack:\n${1} twice"),
        ],
        THREADS,
    );
    assert!(out.contains("%q\n#stack:\nseen twice\n"), "{out}");
    assert!(out.contains("hit"), "{out}");
}

#[test]
fn a_literal_found_present_is_searched_again_once_the_state_changes() {
    // Rule 0 finds `%p` at its first place and matches nothing there; rule 1 starts
    // from that place without a search; rule 2 writes a `%p` before it, so rule 3 must
    // not start from the place remembered (it would miss `%p3`); rule 4 changes nothing,
    // rule 5 takes `%p`'s new first place from it, and rule 6 needs `%p` inside.
    let out = check(
        &[
            ("%p[13]", "one"),
            ("%p4", "four"),
            ("(a )", "${1}%p3 "),
            ("%p[13]", "three"),
            ("%p5", "five"),
            ("%p2", "%p6 second"),
            ("[a-z]+ %p", "word"),
        ],
        "a x %p2 y %p4\n",
    );
    assert_eq!(out, "a three word6 second y four\n");
}

#[test]
fn groups_dropped_by_zero_repetitions_keep_their_numbers() {
    // `(a){0}` leaves no group 1 in the parse, but `(b)` is still group 2.
    check(
        &[
            ("(a){0}(b)", "[$2]"),
            ("((x){0}){0}(c)", "<$3>"),
            ("%(a){0}(b)", "{$2}"),
        ],
        "abcb %b",
    );
}

/// A program whose rules need the lazy DFAs: a prefixed alternation (anchored DFA) and
/// prefix-less patterns (the unanchored forward and reverse DFAs).
fn lazy_program() -> (crate::program::ValidProgram, String) {
    let rules = vec![
        Rule::new("%%\n(?:ab|b)+c", "%%\n<$0>"),
        Rule::new("[ab]+c", "($0)"),
        Rule::new("(?:x|yz)*y", "Y"),
    ];
    let state = "%%\nababbc q abc yzyzy\n".repeat(40);
    (Program::from_rules(rules).validate().unwrap(), state)
}

#[test]
fn forgotten_lazy_states_are_rebuilt_with_the_same_results() {
    let (program, state) = lazy_program();
    let expected = Reference::new(program.clone()).run(&state);
    let fast = Fast::new(program);
    assert_eq!(fast.run(&state), expected);
    let total = |fast: &Fast| -> usize {
        let pool = fast.pool.lock().unwrap();
        pool.iter()
            .flat_map(|p| p.scratch.caches.lazy_sizes())
            .sum()
    };
    assert!(total(&fast) > 0);
    for pooled in fast.pool.lock().unwrap().iter_mut() {
        pooled.scratch.caches.trim(0, 0);
    }
    assert_eq!(total(&fast), 0);
    assert_eq!(fast.run(&state), expected);
    assert!(total(&fast) > 0);
}

#[test]
fn trimming_forgets_the_largest_caches_first_and_only_past_the_limit() {
    let (program, state) = lazy_program();
    let fast = Fast::new(program);
    fast.run(&state);
    let mut caches = fast.pool.lock().unwrap().pop().unwrap().scratch.caches;
    let sizes = |c: &crate::exec::fast::caches::Caches| -> Vec<usize> { c.lazy_sizes() };
    let before = sizes(&caches);
    let total: usize = before.iter().sum();
    let largest = *before.iter().max().unwrap();
    assert!(before.iter().filter(|&&n| n > 0).count() >= 2, "{before:?}");
    // At the limit: nothing is forgotten.
    caches.trim(total, 0);
    assert_eq!(sizes(&caches), before);
    // Past it: the largest cache goes, which is enough to get down to `after`.
    caches.trim(total - 1, total - largest);
    let after = sizes(&caches);
    let gone: Vec<usize> = (0..before.len())
        .filter(|&i| before[i] > 0 && after[i] == 0)
        .collect();
    assert_eq!(gone.len(), 1, "{before:?} -> {after:?}");
    assert_eq!(before[gone[0]], largest);
}

#[test]
fn ascii_only_automata_hand_non_ascii_text_to_the_pattern_itself() {
    // The lazy DFAs are built with their classes cut down to ASCII and give up at a
    // non-ASCII byte: a match that needs one must still be found, also where a
    // prefilter made from the cut-down form would have skipped it.
    let rules = [
        ("%%\n#stack:\n%%\n|(?i:[^\\x00-\\x7F])", "<$0>"),
        ("a.b|x", "[$0]"),
        ("%%\n(?:[^%\n]*\n)*#b: (.)", "%%\n#b: <$1>"),
        ("[^\n]+?b", "{$0}"),
        ("(?:é|q)+z", "Z"),
    ];
    for state in [
        "é",
        "aéb x",
        "%%\n#b: é\n%%\n#b: e\n",
        "%%\n#a: 1\n#b: ü\n",
        "ééqz aéb",
        "all ascii: a-b x %%\n#b: q\n",
    ] {
        check(&rules, state);
    }
    assert_eq!(check(&rules[..1], "aéb"), "a<é>b");
    assert_eq!(check(&rules[1..2], "aéb"), "[aéb]");
}

/// Whether the last run of `fast` declared its texts all ASCII (the lazy DFAs then run
/// without quit bytes, see `syntax::AsciiDfa`).
fn last_run_ascii(fast: &Fast) -> bool {
    let pool = fast.pool.lock().unwrap();
    let pooled = pool.last().expect("a finished run pools its scratch");
    let ascii = pooled.scratch.caches.ascii();
    assert!(pooled.helpers.iter().all(|h| h.caches.ascii() == ascii));
    ascii
}

/// Rules whose patterns hold classes the ASCII cut changes (`.`, `[^\n]`, negated
/// classes, Unicode word boundaries), searched unanchored (forward and reverse DFAs),
/// anchored at literal candidates, in lockstep and by `lines`.
const CUT_CLASS_RULES: [(&str, &str); 8] = [
    ("a.b|x", "[$0]"),
    ("[^\n]+?b", "{$0}"),
    ("%%\n(?:[^%\n]*\n)*#b: ([^\n]*)", "%%\n#b: <$1>"),
    ("#q: [^\n]*(?:a|b(?:[^\n]{2}\\.)*c)", "<$0>"),
    ("\\bab\\b", "AB"),
    ("(?:[^a-z%]|q)+z", "Z"),
    ("#c: (\\w+)", "#c: $1$1"),
    ("(?s:.)y", "Y"),
];

#[test]
fn ascii_runs_drop_quit_bytes_and_agree_with_the_reference() {
    let program = |rules: &[(&str, &str)]| {
        Program::from_rules(rules.iter().map(|(p, r)| Rule::new(*p, *r)).collect())
            .validate()
            .unwrap()
    };
    let ascii_states = [
        "aab x %%\n#b: q\n#q: xbx.c\n",
        "%%\n#a: 1\n#b: 2y\n%%\n#c: ab ab_c\n#b: \n",
        "q_qz ab\nab\n#q: a\n1z",
    ];
    let other_states = ["aéb x %%\n#b: é\n", "é ab éab\n#c: ééé", "#q: bé.c\n"];
    for state in ascii_states.iter().chain(&other_states) {
        check(&CUT_CLASS_RULES, state);
        let fast = Fast::new(program(&CUT_CLASS_RULES)).parallel(2, 1);
        fast.run(state);
        assert_eq!(last_run_ascii(&fast), state.is_ascii(), "{state:?}");
    }
    // One executor, its pooled caches switching between the two forms run after run.
    let fast = Fast::new(program(&CUT_CLASS_RULES));
    let reference = Reference::new(program(&CUT_CLASS_RULES));
    for state in ascii_states
        .iter()
        .chain(&other_states)
        .chain(&ascii_states)
    {
        assert_eq!(fast.run(state), reference.run(state), "{state:?}");
    }
}

#[test]
fn a_non_ascii_template_keeps_the_quitting_automata_on_ascii_texts() {
    // The first rule writes a non-ASCII char into an ASCII state; later rules must see
    // it (`.` and `[^\n]` step over it, `\b` meets it), which the automata without quit
    // bytes would not.
    let mut rules = vec![("#b: (.)", "#b: é$1")];
    rules.extend(CUT_CLASS_RULES);
    rules.push(("#b: [^\n]{3}", "<$0>"));
    let program = Program::from_rules(rules.iter().map(|(p, r)| Rule::new(*p, *r)).collect())
        .validate()
        .unwrap();
    for state in ["%%\n#b: ab\n#q: xbx.c\n", "#b: xy ab\n%%\n#b: 1\n"] {
        let fast = Fast::new(program.clone());
        let got = fast.run(state);
        assert!(!last_run_ascii(&fast));
        assert!(!got.is_ascii(), "{got:?}");
        assert_eq!(check(&rules, state), got);
    }
    // `a.b` across the char written mid-run.
    assert_eq!(check(&[("x", "é"), ("a.b", "[$0]")], "axb"), "[aéb]");
}

/// Rules that move, make and delete `%` bytes and the newlines around them, run with
/// the index of `%` bytes on (every [`check`] runs one executor with it on every state,
/// and the state asserts after each rewrite that the kept index equals a fresh scan).
#[test]
fn percent_index_survives_edits_around_markers() {
    let rules = [
        // A `%`-prefixed rule before anything changes (the index is built here).
        ("(%%\n#stack:\n)", "${1}a\n"),
        // `%` inserted in the middle of a line, then a `%`-prefixed search that must
        // see it there (thread starts alone would miss it).
        ("a\n", "x%%\ny\n"),
        ("%%\ny", "[$0]"),
        // Newlines before a `%` deleted and inserted.
        ("\n%", "%"),
        ("%%%", "%\n%%"),
        // Empty matches and look-around among `%`-prefixed rules.
        ("x*", "-"),
        (r"\b%", "<%>"),
        ("(?m)^%", "^%"),
        ("%%\n|%p\n", "%p\n%%\n"),
        // `%` deleted everywhere, then searched for.
        ("%", ""),
        ("%%", "!"),
    ];
    for state in [
        THREADS,
        "",
        "no percent",
        "%",
        "%%\n#stack:\n",
        "a%%\n#stack:\nb\n%%\n#stack:\n",
        "é%%\n#stack:\n%p\n",
    ] {
        check(&rules, state);
    }
}

/// A trie of keys whose groups sit at fixed offsets (the gain's digit rules) is searched
/// by the lazy DFA; its matches and groups must still be `regex`'s, on threads that match,
/// fail at any byte of the key, hold non-ASCII chars (the DFA quits) or end the text.
#[test]
fn key_tries_searched_by_the_dfa() {
    // 8 files x 2 pieces, each with 2 or 3 ranks: well over 16 branches.
    let mut keys = Vec::new();
    for piece in ["B", "n"] {
        let files: Vec<String> = "abcdefgh"
            .chars()
            .map(|f| format!("{f}(?:[12]:[PNp\\.]|[78]:[Qq]|3:\\.x)"))
            .collect();
        keys.push(format!("{piece}[a-h][1-8](?:{})", files.join("|")));
    }
    let trie = format!("(%%\n#stack:\n(?:{})\n[01]{{2}})0", keys.join("|"));
    let whole = format!("%%\n#stack:\n(?:{})\\.", keys.join("|"));
    let tail = format!("(%%\n#stack:\n)((?:{}))(.)", keys.join("|"));
    let rules = [
        (trie.as_str(), "${1}1"),
        (whole.as_str(), "[$0]"),
        (tail.as_str(), "${3}${2}${1}"),
    ];
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    let mut changed = 0;
    let parts = [
        "Ba1a2:P", "nh8c3:.x", "Bc7h8:q", "Ba1", "nh8", "c3:", "a2:", ":P", ".x", "B", "n", "K",
        "a", "h", "1", "7", ":", ".", "x", "P", "q", "é", "\n",
    ];
    for _ in 0..40 {
        let mut state = String::new();
        for _ in 0..rng.below(60) + 1 {
            state.push_str(rng.pick(&["%%\n#stack:\n", "%p\n#stack:\n", "%%\n"]));
            for _ in 0..rng.below(4) {
                state.push_str(rng.pick(&parts));
            }
            state.push_str(rng.pick(&["\n00", "\n01", "\n1", "\n000\n", ""]));
            state.push('\n');
        }
        // Long enough states run the rules' large-text paths too.
        let wide = state.repeat(1 + (1 << 16) / state.len());
        changed += usize::from(check(&rules, &state) != state);
        check(&rules, &wide);
        check(&rules, state.trim_end());
    }
    assert!(changed >= 20, "only {changed} states had a match");
    check(&rules, "%%\n#stack:\nBa1a2:P\n00");
    check(
        &rules,
        "%%\n#stack:\nBa1a2:P\n00\n%%\n#stack:\nnh8c3:.x\n01",
    );
}

/// A linear pattern whose candidates rarely match and fail after a scan of their line
/// (the quick mobility tests) searches ahead with the lazy DFA once its rules are known
/// to be sparse; matches, groups and the fallbacks (a non-ASCII line, a line at the end
/// of the text) must stay `regex`'s.
#[test]
fn sparse_linear_rules_search_ahead() {
    let mut state = String::new();
    let lines = [
        "#q: bF..R..p..k..Q.....\n",
        "#q: bF..R...k..p.Q.....\n",
        "#q: bF.Q.....k..n......\n",
        "#q: bF..R..é..p..k.....\n",
    ];
    for i in 0..3000 {
        state.push_str("%%\n#stack:\nx\n");
        // One thread in 200 matches (`R..p..k`), a few hold a non-ASCII char.
        let line = match i % 200 {
            0 => lines[0],
            7 => lines[3],
            _ => lines[1 + i % 2],
        };
        state.push_str(line);
    }
    state.push_str("%%\n#q: bF..R..p..k");
    let rule = ("#q: bF([^\n]*[RQ]\\.*)[pn](\\.*k)", "#q: bT${2}${1}");
    let rules = vec![rule; 12];
    let out = check(&rules, &state);
    assert_eq!(out.matches("#q: bT").count(), 16);
}

/// `threads` threads, `#x: ` the thread's number modulo 100, every seventh one paused.
fn numbered_threads(threads: usize) -> String {
    let mut state = String::from("head\n");
    for i in 0..threads {
        let marker = if i % 7 == 3 { "%p" } else { "%%" };
        state.push_str(&format!("{marker}\n#x: {}\n#stack:\n", i % 100));
    }
    state
}

/// The rope on one core where most pieces have no match: runs of local rules that each
/// change one thread in a hundred or none (a piece no rule changes is never copied;
/// the join writes the others as they are done), a rule that is not local between
/// them, skipped for an absent literal or matching (the state is joined and cut
/// again), on one executor run after run on states of different sizes, so that the
/// pieces' buffers kept from a run serve pieces of other lengths in the next.
#[test]
fn rope_runs_where_most_pieces_have_no_match() {
    let rules = [
        ("(%%\n#x: )7\n", "${1}seven\n"),
        ("#x: seven\n", "#x: 8\n#y: z\n"),
        ("#never", "x"),
        ("%p\n#x: 5", "%%\n#x: p5"),
        // Not local (a match holds `\n%`), and absent.
        ("\n%q", "\n%r"),
        ("(%%\n#x: )8", "${1}9"),
        ("#y: z\n", ""),
        // Not local, and matching one thread in a hundred.
        ("\n%%\n#x: 9\n", "\n%%\n#x: 9\n%%\n#x: 10\n"),
        ("(%%\n#x: )1(0)\n", "${1}${2}\n"),
        ("#x: 0\n#stack:\n", "#x: 0\n#stack:\nzero\n"),
        ("#x: 0\n#stack:\nzero\n", "#x: 0\n#stack:\nzero\n"),
    ];
    let program = Program::from_rules(rules.iter().map(|(p, r)| Rule::new(*p, *r)).collect())
        .validate()
        .unwrap();
    let reference = Reference::new(program.clone());
    let states: Vec<String> = [3000, 40, 1, 0, 1200, 3000]
        .iter()
        .map(|&n| numbered_threads(n))
        .collect();
    for (min, piece) in [(1, 1), (1, 4096), (1 << 14, 1 << 12)] {
        let plain = Fast::new(program.clone()).rope(min, piece);
        let indexed = Fast::new(program.clone()).rope(min, piece).index_starts(0);
        for state in &states {
            let want = reference.run(state);
            assert_eq!(plain.run(state), want, "rope({min}, {piece})");
            assert_eq!(indexed.run(state), want, "rope({min}, {piece}), indexed");
        }
    }
    for state in &states[1..3] {
        check(&rules, state);
    }
}

/// Runs of local rules that change no piece, only the first, only the last, or both:
/// the stretches of unchanged pieces around a changed one are copied whole, and
/// nothing is copied when no piece changed.
#[test]
fn rope_joins_stretches_of_unchanged_pieces() {
    let state = numbered_threads(2000) + "%%\n#x: end\n";
    let none = [("#absent", "x"), ("#x: 1000\n", "never")];
    let first = ("head\n", "HEAD\n");
    let last = ("#x: end\n", "#x: END\n");
    check(&none, &state);
    check(&[none[0], first, none[1]], &state);
    check(&[none[0], last, none[1]], &state);
    check(&[first, none[0], last], &state);
}

/// The program of `rules` for the compile-ahead helper's tests, with its parses
/// remembered (`remember_parses`) as the two tests need them.
fn ahead_program(rules: &[(&str, &str)]) -> crate::program::ValidProgram {
    let program = Program::from_rules(rules.iter().map(|(p, r)| Rule::new(*p, *r)).collect())
        .validate()
        .unwrap();
    let table = crate::exec::fast::parse_table(program.rules().iter().map(|r| r.pattern.as_str()));
    assert!(crate::exec::fast::remember_parses(&table).is_ok());
    program
}

/// Which of `fast`'s rules have their pattern compiled, in rule order (the tests' rules
/// have distinct patterns).
fn compiled(fast: &Fast) -> Vec<bool> {
    (0..fast.rules.count())
        .map(|i| fast.rules.slot(i).is_compiled())
        .collect()
}

/// The helper that compiles ahead leaves out the patterns whose remembered needed
/// literals a small flat state lacks right now, compiles the others, and still marks the
/// program as gone through; on a state past [`AHEAD_CHECK_MAX`](crate::exec::fast::compile_ahead::AHEAD_CHECK_MAX)
/// it compiles them all. A run then compiles a left-out pattern itself when it needs it, and answers as
/// the reference does. (`stop` is set from the start: the helper then makes no second
/// pass over the left-out patterns, see the next test.)
#[test]
fn the_helper_leaves_out_patterns_whose_literals_are_absent() {
    use crate::exec::fast::segments::State;
    use std::sync::RwLock;
    use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
    let rules = [
        ("(#ahead-present: )(x)", "${1}y"),
        ("#ahead-absent: (x)", "z"),
        ("#ahead-present: y", "#ahead-absent: x"),
        ("#ahead-absent: x", "done"),
    ];
    let program = ahead_program(&rules);
    let (at, stop) = (AtomicUsize::new(0), AtomicBool::new(false));
    let small = "#ahead-present: x\n#ahead-present: y\n";
    let fast = Fast::new(program.clone());
    let state = RwLock::new(State::new(small));
    std::thread::scope(|scope| {
        let helper = scope.spawn(|| fast.compile_rules(0..4, &at, &stop, &state, true));
        // The first pass is done once the program is marked as gone through.
        while !fast.all_compiled.load(Ordering::Relaxed) {
            std::thread::yield_now();
        }
        stop.store(true, Ordering::Relaxed);
        helper.join().unwrap();
    });
    stop.store(false, Ordering::Relaxed);
    // Rule 0 is the run's own (the helper starts after `at`).
    assert_eq!(compiled(&fast), [false, false, true, false]);
    assert!(fast.all_compiled.load(Ordering::Relaxed));
    let mut large = String::from(small);
    large.push_str(&".".repeat(crate::exec::fast::compile_ahead::AHEAD_CHECK_MAX));
    let fast = Fast::new(program.clone());
    fast.compile_rules(0..4, &at, &stop, &RwLock::new(State::new(&large)), true);
    assert!(fast.all_compiled.load(Ordering::Relaxed));
    assert_eq!(compiled(&fast), [false, true, true, true]);
    let fast = Fast::new(program.clone()).compile_ahead(true);
    let reference = Reference::new(program);
    assert_eq!(fast.run(small), reference.run(small));
    assert_eq!(fast.run(small), "done\ndone\n");
}

/// After its first pass, the helper goes again over the patterns it left out, until the
/// run stops it: one whose needed literal the state has gained meanwhile is compiled (and
/// its search engines built), one the run has passed is dropped, and one whose literal is
/// still absent is left to the run.
#[test]
fn the_helper_compiles_left_out_patterns_once_their_literals_appear() {
    use crate::exec::fast::segments::State;
    use std::sync::RwLock;
    use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
    use std::time::{Duration, Instant};
    let rules = [
        ("#again-start: x", "#again-start: y"),
        ("#again-passed: (x)", "z"),
        ("#again-later: (x)+ ([a-z]+)", "${2}"),
        ("#again-never: (x)", "w"),
    ];
    let program = ahead_program(&rules);
    let fast = Fast::new(program.clone());
    let (at, stop) = (AtomicUsize::new(0), AtomicBool::new(false));
    let state = RwLock::new(State::new("#again-start: x\n"));
    // Waits (at most a minute, so that a broken helper fails instead of hanging) until
    // `done` holds.
    let wait_for = |done: &dyn Fn() -> bool| {
        let start = Instant::now();
        while !done() {
            assert!(
                start.elapsed() < Duration::from_secs(60),
                "the helper never got there"
            );
            std::thread::sleep(Duration::from_millis(1));
        }
    };
    std::thread::scope(|scope| {
        let helper = scope.spawn(|| fast.compile_rules(0..4, &at, &stop, &state, true));
        wait_for(&|| fast.all_compiled.load(Ordering::Relaxed));
        assert_eq!(compiled(&fast), [false, false, false, false]);
        // The run passes rule 1 and writes what rules 1 and 2 need.
        at.store(1, Ordering::Relaxed);
        *state.write().unwrap() = State::new("#again-passed: x\n#again-later: xx abc\n");
        wait_for(&|| fast.rules.slot(2).is_compiled());
        stop.store(true, Ordering::Relaxed);
        helper.join().unwrap();
    });
    // Rule 1's pattern may or may not be compiled: the helper can read `at` just before
    // the run passes the rule and the state just after it gains the literal.
    let done = compiled(&fast);
    assert_eq!((done[0], done[2], done[3]), (false, true, false));
    assert!(fast.rules.need_decided(2));
    // Runs with the helper answer as the reference does.
    let reference = Reference::new(program.clone());
    for text in [
        "#again-start: x\n",
        "#again-start: x\n#again-later: xxx abc\n#again-never: x\n",
        "#again-passed: x\n#again-later: x q\n",
    ] {
        let fast = Fast::new(program.clone()).compile_ahead(true);
        assert_eq!(fast.run(text), reference.run(text), "{text:?}");
        assert_eq!(fast.run(text), reference.run(text), "{text:?}");
    }
}

/// `syntax::set_built` builds outside the lock: a thread that needs the value while
/// another builds it does not wait, and the value set first is the one both get.
#[test]
fn set_built_does_not_hold_the_lock_while_it_builds() {
    use std::sync::OnceLock;
    use std::sync::mpsc;
    use std::time::Duration;
    let lock = OnceLock::new();
    let (go, wait) = mpsc::channel::<()>();
    let (started, on_start) = mpsc::channel::<()>();
    std::thread::scope(|scope| {
        let lock = &lock;
        let builder = scope.spawn(move || {
            *crate::exec::fast::syntax::set_built(lock, || {
                started.send(()).unwrap();
                // Held up until the other thread has its value (at most a minute: a
                // set_built that held the lock fails the test instead of hanging).
                let _ = wait.recv_timeout(Duration::from_secs(60));
                1
            })
        });
        on_start.recv().unwrap();
        assert_eq!(*lock.get_or_init(|| 2), 2);
        go.send(()).unwrap();
        assert_eq!(builder.join().unwrap(), 2);
    });
    assert_eq!(crate::exec::fast::syntax::set_built(&lock, || 3), &2);
}

/// Rules that pair a thread with the next (a tournament round, as the search's) or end
/// a thread at the next one's head: not local, so on several cores they run as
/// stretches (`stretch.rs`), and with every piece searched from its own start the
/// pairs that cross a cut are searched again until the search meets the piece's own.
#[test]
fn rules_that_pair_threads_across_cuts() {
    let pair = "(%%\n#stack:\n)([01]+)\n([^%]*%%\n#stack:\n)([01]+)\n";
    let rules = [
        (pair, "${1}!${2}${4}\n${3}${4}\n"),
        ("%%\n#stack:\n![01]*\n[^%]*(%%\n)", "${1}"),
        ("%ms\n[^%]*(%%\n)", "${1}"),
        // Leftmost-first prefers the shorter match that a cut could end early.
        ("(%%\n#stack:\n)(?:[01]+\n|[01]+\nt[0-9]+\n%%)", "${1}<>"),
    ];
    // Runs of active threads of several lengths, each ended by one that is not.
    for run in [3, 5, 9] {
        let mut state = String::new();
        for i in 0..40 {
            let key = format!("{:04b}", (i * 7) % 16);
            match i % run {
                2 => state.push_str(&format!("%ms\n#k: {key}\n")),
                _ => state.push_str(&format!("%%\n#stack:\n{key}\nt{i}\n")),
            }
        }
        check(&rules, &state);
    }
}

/// Whether a rule changed the state decides whether the identical rule after it is
/// searched, so a stretch must decide it exactly as a whole-text rewrite does, whichever
/// pieces were searched again: here a match that crosses a cut (a thread of one line,
/// `%%`, swapped with the next thread's head) changes nothing, and the match the next
/// piece found at that head (which would change it) is not taken.
#[test]
fn a_stretch_reports_changes_as_the_whole_text_does() {
    let swap = ("(%%\n#stack:\n)([^\n]*\n)([^\n]*\n)", "$1$3$2");
    let program = Program::from_rules(vec![Rule::new(swap.0, swap.1); 3])
        .validate()
        .unwrap();
    let state = "%%\n#stack:\n%%\n%%\n#stack:\nA\nB\n%%\n#stack:\nS\nS\n".repeat(30);
    let skipped = |fast: Fast| {
        let mut seen = Recorder::default();
        fast.run_observed(&state, &mut seen);
        seen.seen
            .iter()
            .map(|(_, r, _)| r.skipped)
            .collect::<Vec<_>>()
    };
    let whole = skipped(Fast::new(program.clone()));
    assert_eq!(whole, [false, true, true]);
    for _ in 0..5 {
        let speculating = Fast::new(program.clone()).parallel(2, 1).speculate(true);
        assert_eq!(skipped(speculating), whole);
    }
}
