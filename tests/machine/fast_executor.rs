//! The fast executor against the reference, byte for byte, on hand-written programs and
//! states: machine-dialect rules, empty matches, Unicode, `$$`, non-participating groups,
//! fixpoint runs, absent-literal skips and observer breaks.

use std::ops::ControlFlow;

use regex_chess_machine::exec::fast::Fast;
use regex_chess_machine::exec::reference::Reference;
use regex_chess_machine::exec::{Executor, Observer, RuleReport};
use regex_chess_machine::program::{Program, Rule, ValidProgram};

fn program(rules: &[(&str, &str)]) -> ValidProgram {
    Program::from_rules(rules.iter().map(|(p, r)| Rule::new(*p, *r)).collect())
        .validate()
        .expect("test rules are valid")
}

#[derive(Default)]
struct Log(Vec<(usize, RuleReport, String)>);

impl Observer for Log {
    fn after_rule(&mut self, i: usize, r: &RuleReport, s: &dyn Fn() -> String) -> ControlFlow<()> {
        self.0.push((i, *r, s()));
        ControlFlow::Continue(())
    }
}

/// Compares final states, every intermediate state and the match counts of applied rules.
fn same(rules: &[(&str, &str)], state: &str) -> String {
    let out = same_with(rules, state, Fast::new);
    // The thread-segmented state, for every non-empty state, must agree too.
    same_with(rules, state, |p| Fast::new(p).segmented(1));
    out
}

fn same_with(rules: &[(&str, &str)], state: &str, build: impl Fn(ValidProgram) -> Fast) -> String {
    let p = program(rules);
    let reference = Reference::new(p.clone());
    let fast = build(p);
    let (mut a, mut b) = (Log::default(), Log::default());
    let out_a = reference.run_observed(state, &mut a).unwrap();
    let out_b = fast.run_observed(state, &mut b).unwrap();
    assert_eq!(out_a, out_b, "final state for {rules:?} on {state:?}");
    assert_eq!(a.0.len(), b.0.len());
    for ((i, ra, sa), (j, rb, sb)) in a.0.iter().zip(&b.0) {
        assert_eq!(i, j);
        assert_eq!(sa, sb, "state after rule {i}");
        assert_eq!(ra.state_len, rb.state_len);
        if !rb.skipped {
            assert_eq!(ra.matches, rb.matches, "match count of rule {i}");
        }
    }
    assert_eq!(fast.run(state).unwrap(), out_a, "second run (warm caches)");
    out_b
}

/// `n` threads, every other one paused, with a stack and a few variables.
fn threads(n: usize) -> String {
    let mut s = String::new();
    for i in 0..n {
        let marker = if i % 3 == 2 { "%p\n" } else { "%%\n" };
        s.push_str(marker);
        s.push_str("#stack:\n");
        s.push_str(if i % 2 == 0 { "True\n" } else { "False\n" });
        s.push_str(&format!(
            "#x: {}\n#score: {}\n#sq: é{}\n",
            i % 7,
            i * 3,
            i % 5
        ));
    }
    s
}

const PUSH: (&str, &str) = ("(%%\n#stack:\n)", "${1}True\n");
const POP: (&str, &str) = ("(%%\n#stack:\n)[^\n]*\n", "${1}");
const LOOKUP: (&str, &str) = (
    "(%%\n#stack:\n)([^%]*\n#score: )([^\n]*)\n",
    "${1}${3}\n${2}${3}\n",
);
const FORK: (&str, &str) = ("%%\n([^%]*)", "%%\n${1}%%\n${1}");
const PAUSE: (&str, &str) = ("%%\n(#stack:\nFalse\n)", "%q\n${1}");
const REACTIVATE: (&str, &str) = ("%q\n", "%%\n");

#[test]
fn machine_rules_one_by_one() {
    let state = threads(40);
    for rule in [PUSH, POP, LOOKUP, FORK, PAUSE, REACTIVATE] {
        same(&[rule], &state);
    }
}

#[test]
fn machine_program() {
    let rules = [
        PUSH, LOOKUP, PAUSE, POP, FORK, POP, REACTIVATE, POP, POP, POP, POP, LOOKUP,
    ];
    same(&rules, &threads(30));
    same(&rules, "");
    same(&rules, "%%\n#stack:\n");
}

#[test]
fn empty_matching_patterns() {
    for p in ["a*", "x?", "^", "$", "(?m)^", "(?m)$", r"\b", r"(?m)^\s*"] {
        for s in ["", "a", "aa b", "xaxx", "é", "aéé\nxa\n", "日本語 a"] {
            same(&[(p, "<$0>")], s);
            same(&[(p, "")], s);
        }
    }
}

#[test]
fn unicode_next_to_empty_matches() {
    same(&[("é*", "-")], "aéébé");
    same(&[("(?m)$", "|")], "é\n日\n");
    same(&[(r"\b", "|")], "é a日b");
    same(&[(r"\w*", "[$0]")], "ab é日 c");
}

#[test]
fn dollar_replacements_and_groups() {
    same(&[("(a)|(b)", "$$1${1}${2}$$")], "abba c");
    same(&[("(x)?(y)", "[$1|$2]")], "y xy yy");
    same(&[("(?P<n>[0-9]+)", "${n}$$n")], "a1b22");
    same(&[("%%\n", "$$%%\n")], "%%\n%%\n");
}

#[test]
fn runs_of_identical_rules_reach_a_fixpoint() {
    let rules = vec![("(%%\n#stack:\n)[A-Z]\n", "${1}"); 10];
    let state = "%%\n#stack:\nA\nB\nC\n%%\n#stack:\nD\n";
    assert_eq!(same(&rules, state), "%%\n#stack:\n%%\n#stack:\n");
    let mut log = Log::default();
    Fast::new(program(&rules))
        .run_observed(state, &mut log)
        .unwrap();
    let skipped: Vec<usize> = log.0.iter().filter(|e| e.1.skipped).map(|e| e.0).collect();
    assert_eq!(skipped, (4..10).collect::<Vec<_>>());
    assert_eq!(
        log.0.iter().map(|e| e.0).collect::<Vec<_>>(),
        (0..10).collect::<Vec<_>>()
    );
}

#[test]
fn absent_literals_skip() {
    let rules = [("%z\n([^%]*)", "$1"), ("(%%\n)([^%]*#missing: )", "$2")];
    let state = threads(5);
    same(&rules, &state);
    let mut log = Log::default();
    Fast::new(program(&rules))
        .run_observed(&state, &mut log)
        .unwrap();
    assert!(log.0.iter().all(|e| e.1.skipped && e.1.matches == 0));
}

#[test]
fn observer_break_stops_the_run() {
    struct Stop(Vec<usize>);
    impl Observer for Stop {
        fn after_rule(
            &mut self,
            i: usize,
            _: &RuleReport,
            _: &dyn Fn() -> String,
        ) -> ControlFlow<()> {
            self.0.push(i);
            if i == 2 {
                ControlFlow::Break(())
            } else {
                ControlFlow::Continue(())
            }
        }
    }
    let rules = [("a", "b"), ("b", "c"), ("c", "d"), ("d", "e")];
    let mut stop = Stop(Vec::new());
    let out = Fast::new(program(&rules))
        .run_observed("a", &mut stop)
        .unwrap();
    assert_eq!(out, "d");
    assert_eq!(stop.0, vec![0, 1, 2]);
}

#[test]
fn match_counts_are_reported_only_when_wanted() {
    struct NoCounts(Vec<usize>);
    impl Observer for NoCounts {
        fn after_rule(
            &mut self,
            _: usize,
            r: &RuleReport,
            _: &dyn Fn() -> String,
        ) -> ControlFlow<()> {
            self.0.push(r.matches);
            ControlFlow::Continue(())
        }
        fn wants_match_counts(&self) -> bool {
            false
        }
    }
    let mut log = Log::default();
    let fast = Fast::new(program(&[PUSH]));
    fast.run_observed(&threads(6), &mut log).unwrap();
    assert_eq!(log.0[0].1.matches, 4);
    let mut quiet = NoCounts(Vec::new());
    fast.run_observed(&threads(6), &mut quiet).unwrap();
    assert_eq!(quiet.0, vec![0]);
}

#[test]
fn anchors_next_to_literal_prefixes() {
    let state = "ab ab\nab\nxab ab";
    for p in [
        "^ab", "(?m)^ab", "ab$", "(?m)ab$", r"\bab\b", r"\Bab", r"ab\B", r"\Aab", r"ab\z",
    ] {
        same(&[(p, "<$0>")], state);
    }
    same(&[(r"é\b", "|"), (r"\bé", "#")], "é éa aé é");
}

#[test]
fn literal_alternatives_and_case_folding() {
    same(&[("ab|cd", "[$0]")], "xcdabcab");
    same(&[("(?i)k+", "<$0>")], "xKk\u{212A}k y K");
    same(&[("(?i)straße", "S")], "STRASSE straße STRAẞE");
    same(&[("(foo|bar)baz", "$1")], "foobaz barbaz fooba");
}

#[test]
fn many_failing_candidates_stay_exact() {
    let line = "a".repeat(20_000);
    same(&[("a[^\n]*c", "<$0>")], &format!("c\n{line}\nc"));
    same(
        &[("(a)[^\n]*(c)", "$2$1")],
        &format!("{line}\nac\n{line}c\naxc"),
    );
    // Not linear (an alternation), so it takes the DFA path.
    same(&[("a(?:bb|[^\n])*c", "-")], &format!("{line}\nac"));
}

#[test]
fn matches_that_cross_threads() {
    let state = threads(12);
    for rule in [
        ("%%\n[^%]*%", "<$0>"),
        ("%%\n[^%]*\n%", "<$0>"),
        ("%%\n[^%]*?(%p|%%)", "<$0>"),
        ("(%%\n#stack:\n)[^\n]*\n", "$1"),
        ("%p\n[^\n]*\n[^%]*%%\n", "[$0]"),
        ("%%\n(?:[^%]|%p)*", "{$0}"),
        ("%%\n#stack:\n(?:True|False)\n[^%]*", "{$0}"),
    ] {
        same(&[rule], &state);
        same(&[rule, rule, rule], &state);
    }
    let big = threads(200);
    same(
        &[
            ("%%\n[^%]*%", "<$0>"),
            POP,
            POP,
            POP,
            POP,
            LOOKUP,
            FORK,
            POP,
        ],
        &big,
    );
}

#[test]
fn long_literals_across_threads() {
    // A plain literal longer than the prefix the extractor keeps, holding `\n%`: in a
    // segmented state it must still be found across the cut.
    let head = "%%\n".to_string() + &"x".repeat(300) + "\n";
    let pattern = format!("{}%%\ny", regex::escape(&head));
    let state = format!("{head}%%\ny\n{head}%%\nz\n");
    same(&[(pattern.as_str(), "<$0>")], &state);
}
