//! Counts of tiny programs, worked out by hand.

use super::*;
use crate::exec::Executor;
use crate::exec::reference::Reference;
use crate::program::{Program, Rule};

fn program(rules: &[(&str, &str)]) -> ValidProgram {
    Program::from_rules(rules.iter().map(|(p, r)| Rule::new(*p, *r)).collect())
        .validate()
        .unwrap()
}

/// Two threads of 17 bytes each: `q` only in the first, `z` only in the second.
const STATE: &str = "%%\n#stack:\n#x: q\n%%\n#stack:\n#x: z\n";

#[test]
fn segments_start_at_each_percent_line() {
    assert_eq!(segment_starts(STATE), [0, 17]);
    assert_eq!(segment_starts("fen\n%%\n"), [0, 4]);
    assert_eq!(segment_starts(""), [0]);
}

#[test]
fn a_rule_sees_only_the_threads_holding_its_literal() {
    let p = program(&[("q", "bb")]);
    let counted = count(&p, STATE);
    let expected = RuleCounts {
        state: 34,
        matches: 1,
        must_see: 17,
        written: 2,
        matched: 1,
    };
    assert_eq!(counted.rules, [expected]);
    assert_eq!(counted.state, Reference::new(p).run(STATE).unwrap());
}

#[test]
fn an_absent_literal_costs_nothing_and_no_literal_costs_everything() {
    let p = program(&[("#y: ", "x"), ("[qz]\n", "$0$0")]);
    let counted = count(&p, STATE);
    assert_eq!(
        counted.rules[0],
        RuleCounts {
            state: 34,
            ..RuleCounts::default()
        }
    );
    // `[qz]\n` requires only `\n`, in both threads: both are seen; each match writes
    // its two bytes twice.
    assert_eq!(
        counted.rules[1],
        RuleCounts {
            state: 34,
            matches: 2,
            must_see: 34,
            written: 8,
            matched: 4,
        }
    );
    assert_eq!(counted.total().matches, 2);
    assert_eq!(counted.state, Reference::new(p).run(STATE).unwrap());
}

#[test]
fn each_rule_meets_the_state_the_previous_one_left() {
    // The first rule forks the `q` thread (17 bytes written, the thread copied); the
    // second sees the three threads now holding `q` (17 + 17 bytes; the original
    // thread kept its `q`), not the `z` thread.
    let p = program(&[
        ("(%%\n#stack:\n#x: q\n)", "$1$1"),
        ("q\n", "r\n"),
        ("#x: [rz]\n%%", "$0"),
    ]);
    let counted = count(&p, STATE);
    assert_eq!(counted.rules[0].matches, 1);
    assert_eq!(counted.rules[0].written, 34);
    assert_eq!(counted.rules[0].must_see, 17);
    assert_eq!(counted.rules[1].state, 51);
    assert_eq!(
        (counted.rules[1].matches, counted.rules[1].must_see),
        (2, 34)
    );
    assert_eq!(counted.rules[1].written, 4);
    // A match across two threads makes both seen: `#x: r\n%%` ends in the next
    // thread, twice (the first thread into the second, the second into the third).
    assert_eq!(
        (counted.rules[2].matches, counted.rules[2].must_see),
        (2, 51)
    );
    assert_eq!(counted.state, Reference::new(p).run(STATE).unwrap());
}
