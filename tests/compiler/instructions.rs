//! Every instruction, lowered alone, on both executors, on states where paused threads
//! sit between the active ones; edge cases as documented in `compiler::lower`.

use regex_chess_testkit::lowered as common;

use common::{bystander, check_local, int, rules, run_both, stack};
use proptest::prelude::*;
use regex_chess_compiler::encode::{self, Segment, Thread};
use regex_chess_compiler::ir::{Best, CmpOp, EnumDef, Instruction as I, Scalar, Side, Tag, Var};

fn var(name: &str) -> Var {
    Var::new(name)
}

fn t(stack: &[&str], vars: &[(&str, &str)]) -> Thread {
    Thread::active(stack, vars)
}

// ----- stack -----

#[test]
fn push_pop_dup_swap() {
    check_local(
        &[I::Push("T".into())],
        &[
            (stack(&[]), stack(&["T"])),
            (t(&["a"], &[("x", "1")]), t(&["T", "a"], &[("x", "1")])),
        ],
    );
    check_local(
        &[I::Pop],
        &[
            (stack(&["a", "b"]), stack(&["b"])),
            (stack(&["", "b"]), stack(&["b"])),
            (stack(&[]), stack(&[])),
            (t(&[], &[("x", "1")]), t(&[], &[("x", "1")])),
        ],
    );
    check_local(
        &[I::Dup],
        &[
            (stack(&["a", "b"]), stack(&["a", "a", "b"])),
            (stack(&[""]), stack(&["", ""])),
            (t(&[], &[("x", "1")]), t(&[], &[("x", "1")])),
        ],
    );
    check_local(
        &[I::Swap],
        &[
            (stack(&["a", "b", "c"]), stack(&["b", "a", "c"])),
            (stack(&["a", ""]), stack(&["", "a"])),
            (t(&["a"], &[("x", "1")]), t(&["a"], &[("x", "1")])),
            (stack(&[]), stack(&[])),
        ],
    );
}

// ----- variables -----

#[test]
fn lookup_assign_delete() {
    check_local(
        &[I::Lookup(var("x"))],
        &[
            (
                t(&["a"], &[("xy", "9"), ("x", "1")]),
                t(&["1", "a"], &[("xy", "9"), ("x", "1")]),
            ),
            (t(&[], &[("x", "")]), t(&[""], &[("x", "")])),
            // Missing: nothing is pushed.
            (t(&["a"], &[("xy", "9")]), t(&["a"], &[("xy", "9")])),
        ],
    );
    check_local(
        &[I::Assign(var("x"))],
        &[
            (
                t(&["5", "a"], &[("x", "1"), ("y", "2")]),
                t(&["a"], &[("y", "2"), ("x", "5")]),
            ),
            (t(&["", "a"], &[]), t(&["a"], &[("x", "")])),
            (
                t(&["5"], &[("xy", "2")]),
                t(&[], &[("xy", "2"), ("x", "5")]),
            ),
            // Empty stack: the variable is deleted, nothing assigned.
            (t(&[], &[("x", "1"), ("y", "2")]), t(&[], &[("y", "2")])),
            (t(&[], &[]), t(&[], &[])),
        ],
    );
    check_local(
        &[I::Define(var("x"))],
        &[
            (
                t(&["5", "a"], &[("xy", "1"), ("y", "2")]),
                t(&["a"], &[("xy", "1"), ("y", "2"), ("x", "5")]),
            ),
            (t(&[""], &[]), t(&[], &[("x", "")])),
            (t(&[], &[("y", "2")]), t(&[], &[("y", "2")])),
        ],
    );
    check_local(
        &[I::Take(var("x"))],
        &[
            (
                t(&["a"], &[("xy", "9"), ("x", "1"), ("z", "")]),
                t(&["1", "a"], &[("xy", "9"), ("z", "")]),
            ),
            (t(&[], &[("x", "")]), t(&[""], &[])),
            (t(&["a"], &[("xy", "9")]), t(&["a"], &[("xy", "9")])),
        ],
    );
    check_local(
        &[I::Delete(var("x"))],
        &[
            (
                t(&["a"], &[("xy", "9"), ("x", "1"), ("z", "")]),
                t(&["a"], &[("xy", "9"), ("z", "")]),
            ),
            (t(&["a"], &[("xy", "9")]), t(&["a"], &[("xy", "9")])),
        ],
    );
}

// ----- booleans and enumerations -----

#[test]
fn boolean_operations() {
    check_local(
        &[I::Not],
        &[
            (stack(&["T", "x"]), stack(&["F", "x"])),
            (stack(&["F", "x"]), stack(&["T", "x"])),
        ],
    );
    for (instruction, f) in [
        (I::And, (|a, b| a && b) as fn(bool, bool) -> bool),
        (I::Or, |a, b| a || b),
    ] {
        let mut cases = Vec::new();
        for a in [false, true] {
            for b in [false, true] {
                let before = stack(&[encode::bool(b), encode::bool(a), "T"]);
                let after = stack(&[encode::bool(f(a, b)), "T"]);
                cases.push((before, after));
            }
        }
        check_local(&[instruction], &cases);
    }
}

static PIECE: EnumDef = EnumDef {
    name: "piece",
    variants: &["P", "N", "Bq", "B"],
};

const OPS: [CmpOp; 6] = [
    CmpOp::Eq,
    CmpOp::Ne,
    CmpOp::Lt,
    CmpOp::Le,
    CmpOp::Gt,
    CmpOp::Ge,
];

#[test]
fn enum_and_bool_comparisons() {
    for op in OPS {
        let mut cases = Vec::new();
        for (i, a) in PIECE.variants.iter().enumerate() {
            for (j, b) in PIECE.variants.iter().enumerate() {
                let result = encode::bool(op.holds(i.cmp(&j)));
                cases.push((stack(&[b, a, "F"]), stack(&[result, "F"])));
            }
        }
        check_local(
            &[I::Compare {
                op,
                ty: Scalar::Enum(&PIECE),
            }],
            &cases,
        );
        let mut cases = Vec::new();
        for a in [false, true] {
            for b in [false, true] {
                let result = encode::bool(op.holds(a.cmp(&b)));
                let before = stack(&[encode::bool(b), encode::bool(a)]);
                cases.push((before, stack(&[result])));
            }
        }
        check_local(
            &[I::Compare {
                op,
                ty: Scalar::Bool,
            }],
            &cases,
        );
    }
}

#[test]
fn equality_with_a_constant_text() {
    check_local(
        &[I::EqText("e2e4".into())],
        &[
            (stack(&["e2e4", "x"]), stack(&["T", "x"])),
            (stack(&["e2e4q", "x"]), stack(&["F", "x"])),
            (stack(&["", "x"]), stack(&["F", "x"])),
            (t(&[], &[("m", "e2e4")]), t(&[], &[("m", "e2e4")])),
        ],
    );
    check_local(
        &[I::EqText(String::new())],
        &[
            (stack(&[""]), stack(&["T"])),
            (stack(&["a"]), stack(&["F"])),
        ],
    );
}

// ----- integers -----

/// All values of a 3-bit integer, and the edges of a 16-bit one.
fn samples(bits: u8) -> Vec<i64> {
    if bits <= 4 {
        (encode::int_min(bits)..=encode::int_max(bits)).collect()
    } else {
        let (min, max) = (encode::int_min(bits), encode::int_max(bits));
        vec![min, min + 1, -2, -1, 0, 1, 2, 1000, max - 1, max]
    }
}

fn binary_int_cases(bits: u8, f: impl Fn(i64, i64) -> String) -> Vec<(Thread, Thread)> {
    let mut cases = Vec::new();
    for a in samples(bits) {
        for b in samples(bits) {
            let (ea, eb) = (int(bits, a), int(bits, b));
            let before = t(&[&eb, &ea, "T"], &[("x", "1")]);
            let after = t(&[&f(a, b), "T"], &[("x", "1")]);
            cases.push((before, after));
        }
    }
    cases
}

#[test]
fn integer_add_and_sub_wrap() {
    for bits in [1u8, 3, 16] {
        let wrap = |v: i128| int(bits, encode::wrap(bits, v));
        check_local(
            &[I::Add { bits }],
            &binary_int_cases(bits, |a, b| wrap(a as i128 + b as i128)),
        );
        check_local(
            &[I::Sub { bits }],
            &binary_int_cases(bits, |a, b| wrap(a as i128 - b as i128)),
        );
    }
    // Overflow as documented: max + 1 = min, min - 1 = max.
    let bits = 16;
    check_local(
        &[I::Add { bits }],
        &[(
            stack(&[&int(bits, 1), &int(bits, 32767)]),
            stack(&[&int(bits, -32768)]),
        )],
    );
}

#[test]
fn integer_negation() {
    for bits in [1u8, 3, 16] {
        let cases: Vec<_> = samples(bits)
            .into_iter()
            .map(|a| {
                let negated = encode::wrap(bits, -(a as i128));
                (
                    stack(&[&int(bits, a), "x"]),
                    stack(&[&int(bits, negated), "x"]),
                )
            })
            .collect();
        check_local(&[I::Neg { bits }], &cases);
    }
}

#[test]
fn integer_comparisons() {
    for bits in [3u8, 16] {
        for op in OPS {
            check_local(
                &[I::Compare {
                    op,
                    ty: Scalar::Int { bits },
                }],
                &binary_int_cases(bits, |a, b| encode::bool(op.holds(a.cmp(&b))).to_string()),
            );
        }
    }
}

// ----- control -----

#[test]
fn cond_pause_reactivate() {
    let tag = |side| Tag { id: 5, side };
    let program = rules(&[I::Cond {
        tag: tag(Side::Else),
    }]);
    let before = encode::render(&[
        stack(&["T", "a"]),
        bystander("p0"),
        stack(&["F", "a"]),
        stack(&["T"]),
    ]);
    let out = encode::threads(&run_both(&program, &before));
    assert_eq!(
        out,
        vec![
            stack(&["a"]),
            bystander("p0"),
            stack(&["a"]).paused("e5"),
            stack(&[]),
        ]
    );
    let program = rules(&[I::Pause(tag(Side::Then))]);
    let before = encode::render(&[stack(&["a"]), bystander("e5"), stack(&[])]);
    let out = encode::threads(&run_both(&program, &before));
    assert_eq!(
        out,
        vec![
            stack(&["a"]).paused("t5"),
            bystander("e5"),
            stack(&[]).paused("t5"),
        ]
    );
    let program = rules(&[I::Reactivate(tag(Side::Else))]);
    let before = encode::render(&[
        stack(&["a"]).paused("e5"),
        bystander("e55"),
        stack(&["b"]),
        stack(&[]).paused("e5"),
    ]);
    let out = encode::threads(&run_both(&program, &before));
    assert_eq!(
        out,
        vec![stack(&["a"]), bystander("e55"), stack(&["b"]), stack(&[])]
    );
}

#[test]
fn cond_not_pauses_the_true_threads() {
    let tag = Tag {
        id: 5,
        side: Side::Then,
    };
    let program = rules(&[I::CondNot { tag }]);
    let before = encode::render(&[
        stack(&["T", "a"]),
        bystander("p0"),
        stack(&["F", "a"]),
        stack(&["F"]),
        stack(&["x"]),
    ]);
    let out = encode::threads(&run_both(&program, &before));
    assert_eq!(
        out,
        vec![
            stack(&["a"]).paused("t5"),
            bystander("p0"),
            stack(&["a"]),
            stack(&[]),
            stack(&["x"]),
        ]
    );
}

// ----- threads -----

#[test]
fn fork_and_fork_bool_copy_active_threads_only() {
    let a = t(&["1"], &[("x", "a")]);
    let b = t(&[], &[]);
    let state = encode::render(&[a.clone(), bystander("p"), b.clone()]);
    let out = encode::threads(&run_both(&rules(&[I::Fork]), &state));
    assert_eq!(
        out,
        vec![a.clone(), a.clone(), bystander("p"), b.clone(), b.clone()]
    );
    let out = encode::threads(&run_both(&rules(&[I::ForkBool]), &state));
    assert_eq!(
        out,
        vec![
            t(&["T", "1"], &[("x", "a")]),
            t(&["F", "1"], &[("x", "a")]),
            bystander("p"),
            stack(&["T"]),
            stack(&["F"]),
        ]
    );
}

#[test]
fn destroy_removes_active_threads() {
    let state = encode::render(&[stack(&["1"]), bystander("p"), stack(&[]), bystander("q")]);
    let out = encode::threads(&run_both(&rules(&[I::Destroy]), &state));
    assert_eq!(out, vec![bystander("p"), bystander("q")]);
}

#[test]
fn fork_list_gives_one_thread_per_element_in_order() {
    for max_len in [1usize, 2, 5, 8, 13] {
        let program = rules(&[I::ForkList { max_len }]);
        let mut before = Vec::new();
        let mut after = Vec::new();
        for len in 0..=max_len {
            let elements: Vec<String> = (0..len).map(|i| format!("{len}_{i}")).collect();
            let id = len.to_string();
            before.push(t(&[&encode::list(&elements), "below"], &[("id", &id)]));
            for e in &elements {
                after.push(t(&[e, "below"], &[("id", &id)]));
            }
            before.push(bystander(&format!("p{len}")));
            after.push(bystander(&format!("p{len}")));
        }
        let out = run_both(&program, &encode::render(&before));
        assert_eq!(encode::threads(&out), after, "max_len {max_len}");
    }
}

#[test]
fn fork_list_of_one_and_of_empty_elements() {
    let program = rules(&[I::ForkList { max_len: 4 }]);
    let state = encode::render(&[stack(&[";x"]), stack(&[";;"]), stack(&[""])]);
    let out = encode::threads(&run_both(&program, &state));
    assert_eq!(out, vec![stack(&["x"]), stack(&[""]), stack(&[""])]);
}

fn scored(bits: u8, score: i64, id: &str) -> Thread {
    t(&[&int(bits, score)], &[("id", id)])
}

#[test]
fn tournament_keeps_the_best_of_each_run_with_ties_to_the_earliest() {
    let bits = 5;
    for best in [Best::Max, Best::Min] {
        let program = rules(&[I::Tournament {
            bits,
            max_threads: 7,
            best,
        }]);
        // Run 1: seven threads with ties at the best value; run 2: one thread; run 3
        // (after a group boundary): two equal threads.
        let run1 = [3, -16, 15, 7, 15, -16, 0];
        let mut segments: Vec<Segment> = run1
            .iter()
            .enumerate()
            .map(|(i, &s)| Segment::Thread(scored(bits, s, &format!("a{i}"))))
            .collect();
        segments.push(Segment::Thread(bystander("p")));
        segments.push(Segment::Thread(scored(bits, -3, "b0")));
        segments.push(Segment::Boundary(1));
        segments.push(Segment::Thread(scored(bits, 2, "c0")));
        segments.push(Segment::Thread(scored(bits, 2, "c1")));
        let state = render_segments(&segments);
        let out = encode::threads(&run_both(&program, &state));
        let winner = match best {
            Best::Max => scored(bits, 15, "a2"),
            Best::Min => scored(bits, -16, "a1"),
        };
        assert_eq!(
            out,
            vec![
                winner,
                bystander("p"),
                scored(bits, -3, "b0"),
                scored(bits, 2, "c0")
            ],
            "{best:?}"
        );
    }
}

fn render_segments(segments: &[Segment]) -> String {
    let mut out = String::new();
    for s in segments {
        match s {
            Segment::Thread(t) => t.render_into(&mut out),
            Segment::Boundary(level) => out.push_str(&format!("%/{level}\n")),
        }
    }
    out
}

#[test]
fn gather_collects_each_run_in_order() {
    let program = rules(&[I::Gather { max_threads: 5 }]);
    let threads: Vec<Thread> = (0..5)
        .map(|i| t(&[&format!("v{i}"), "below"], &[("id", &i.to_string())]))
        .collect();
    let mut segments: Vec<Segment> = threads.iter().cloned().map(Segment::Thread).collect();
    segments.push(Segment::Thread(bystander("p")));
    segments.push(Segment::Thread(stack(&["only"])));
    segments.push(Segment::Boundary(2));
    segments.push(Segment::Thread(stack(&[""])));
    segments.push(Segment::Thread(stack(&["z"])));
    let out = encode::threads(&run_both(&program, &render_segments(&segments)));
    assert_eq!(
        out,
        vec![
            t(&[";v0;v1;v2;v3;v4", "below"], &[("id", "0")]),
            bystander("p"),
            stack(&[";only"]),
            stack(&[";;z"]),
        ]
    );
}

#[test]
fn group_marks_are_added_and_removed_by_level() {
    let program = rules(&[I::MarkGroups {
        level: 2,
        one_left: false,
    }]);
    let state = encode::render(&[stack(&["a"]), bystander("p"), stack(&[])]);
    let marked = run_both(&program, &state);
    assert_eq!(
        encode::parse(&marked).unwrap(),
        vec![
            Segment::Boundary(2),
            Segment::Thread(stack(&["a"])),
            Segment::Thread(bystander("p")),
            Segment::Boundary(2),
            Segment::Thread(stack(&[])),
        ]
    );
    let with_other_level = format!("%/1\n{marked}");
    let out = run_both(&rules(&[I::UnmarkGroups { level: 2 }]), &with_other_level);
    assert_eq!(out, format!("%/1\n{state}"));
}

// ----- lists and text -----

#[test]
fn lists_and_strings() {
    check_local(
        &[I::ListPush],
        &[
            (stack(&["c", ";a;b"]), stack(&[";a;b;c"])),
            (stack(&["a", ""]), stack(&[";a"])),
        ],
    );
    check_local(
        &[I::Concat],
        &[
            (stack(&["cd", "ab", "z"]), stack(&["abcd", "z"])),
            (stack(&["", ""]), stack(&[""])),
            (stack(&["a"]), stack(&["a"])),
        ],
    );
    check_local(
        &[I::Slice { start: 2, len: 3 }],
        &[
            (stack(&["abcdefg"]), stack(&["cde"])),
            (stack(&["♜♞♝♛♚"]), stack(&["♝♛♚"])),
            (stack(&["abcd"]), stack(&["abcd"])),
            (t(&[], &[("x", "abcdef")]), t(&[], &[("x", "abcdef")])),
        ],
    );
    check_local(
        &[I::Slice { start: 0, len: 2 }],
        &[(stack(&["abc"]), stack(&["ab"]))],
    );
    check_local(
        &[I::Slice { start: 0, len: 0 }],
        &[(stack(&["abc"]), stack(&[""]))],
    );
    check_local(
        &[I::MapChars {
            table: vec![('♜', "r".into()), ('.', "".into()), ('a', "$1".into())],
            max_len: 6,
        }],
        &[
            (stack(&["♜.a♜b"]), stack(&["r$1rb"])),
            (stack(&[""]), stack(&[""])),
            (stack(&["......"]), stack(&[""])),
        ],
    );
    check_local(
        &[I::Split {
            sep: '/',
            max_len: 8,
        }],
        &[
            (stack(&["ab/c//d"]), stack(&[";ab;c;;d"])),
            (stack(&[""]), stack(&[";"])),
            (stack(&["abc"]), stack(&[";abc"])),
        ],
    );
    check_local(
        &[I::Join {
            sep: '/',
            max_len: 8,
        }],
        &[
            (stack(&[";ab;c;;d"]), stack(&["ab/c//d"])),
            (stack(&[""]), stack(&[""])),
            (stack(&[";"]), stack(&[""])),
        ],
    );
}

#[test]
fn matching_a_pattern_on_the_top_line() {
    check_local(
        &[I::Matches("R(?:\\.{7}\\.)*\\.{7}K".into())],
        &[
            (stack(&["R.......K", "x"]), stack(&["T", "x"])),
            (stack(&["..R...............K", "x"]), stack(&["T", "x"])),
            (stack(&["R.......P.......K"]), stack(&["F"])),
            (stack(&["R..K"]), stack(&["F"])),
            (stack(&[""]), stack(&["F"])),
            (t(&[], &[("b", "R.......K")]), t(&[], &[("b", "R.......K")])),
        ],
    );
    check_local(
        &[I::Matches("x*".into())],
        &[
            (stack(&[""]), stack(&["T"])),
            (t(&[], &[("b", "")]), t(&[], &[("b", "")])),
        ],
    );
}

#[test]
fn line_patterns_that_could_leave_the_line_are_refused() {
    use regex_chess_compiler::lower::strings::check_line_pattern;
    assert!(check_line_pattern("R[^K\\n]*K").is_ok());
    assert!(check_line_pattern("a.b|c{2,3}").is_ok());
    for bad in ["[^K]", "a\\nb", "\\s", "^a", "a$", "(?s).", "\\bK", "("] {
        assert!(check_line_pattern(bad).is_err(), "{bad}");
    }
}

// ----- the rules themselves -----

#[test]
fn thread_local_rules_start_at_an_active_thread_head() {
    let local = [
        I::Push("T".into()),
        I::Pop,
        I::Dup,
        I::Swap,
        I::Lookup(var("x")),
        I::Assign(var("x")),
        I::Define(var("x")),
        I::Delete(var("x")),
        I::Take(var("x")),
        I::EqText("a.b".into()),
        I::Matches("K.{7}R".into()),
        I::Not,
        I::And,
        I::Or,
        I::Compare {
            op: CmpOp::Lt,
            ty: Scalar::Int { bits: 4 },
        },
        I::Add { bits: 4 },
        I::Sub { bits: 4 },
        I::Neg { bits: 4 },
        I::ListPush,
        I::Concat,
        I::Slice { start: 1, len: 1 },
        I::MapChars {
            table: vec![('a', "b".into())],
            max_len: 3,
        },
        I::Split {
            sep: ',',
            max_len: 3,
        },
        I::Join {
            sep: ',',
            max_len: 3,
        },
    ];
    for instruction in local {
        let program = rules(std::slice::from_ref(&instruction));
        for rule in program.rules() {
            assert!(
                rule.pattern.starts_with("%%\n#stack:\n")
                    || rule.pattern.starts_with("(%%\n#stack:\n"),
                "{instruction:?}: {:?}",
                rule.pattern
            );
        }
    }
}

#[test]
fn rule_counts_match_the_documentation() {
    let count = |i: I| rules(&[i]).rules().len();
    assert_eq!(count(I::Add { bits: 16 }), 16 + 3);
    assert_eq!(count(I::Neg { bits: 16 }), 16 + 5);
    assert_eq!(
        count(I::Tournament {
            bits: 16,
            max_threads: 1024,
            best: Best::Max
        }),
        3 * 10
    );
    assert_eq!(count(I::Gather { max_threads: 1000 }), 1 + 10);
    assert_eq!(count(I::ForkList { max_len: 218 }), 2 + 8);
    assert_eq!(
        count(I::Split {
            sep: ',',
            max_len: 10
        }),
        2 * 10 + 3
    );
}

// ----- both executors on arbitrary instruction sequences -----

fn any_instruction() -> impl Strategy<Value = I> {
    let tag = |id, side| Tag { id, side };
    prop_oneof![
        Just(I::Push("1010".into())),
        Just(I::Pop),
        Just(I::Dup),
        Just(I::Swap),
        Just(I::Lookup(var("x"))),
        Just(I::Assign(var("y"))),
        Just(I::Define(var("z"))),
        Just(I::Delete(var("x"))),
        Just(I::Take(var("y"))),
        Just(I::Not),
        Just(I::And),
        Just(I::Or),
        Just(I::Compare {
            op: CmpOp::Le,
            ty: Scalar::Int { bits: 4 }
        }),
        Just(I::Compare {
            op: CmpOp::Ne,
            ty: Scalar::Enum(&PIECE)
        }),
        Just(I::EqText("T".into())),
        Just(I::Add { bits: 4 }),
        Just(I::Sub { bits: 4 }),
        Just(I::Neg { bits: 4 }),
        Just(I::Cond {
            tag: tag(1, Side::Else)
        }),
        Just(I::CondNot {
            tag: tag(1, Side::Then)
        }),
        Just(I::Pause(tag(1, Side::Then))),
        Just(I::Reactivate(tag(1, Side::Else))),
        Just(I::Fork),
        Just(I::ForkBool),
        Just(I::ForkList { max_len: 3 }),
        Just(I::Destroy),
        Just(I::MarkGroups {
            level: 1,
            one_left: false,
        }),
        Just(I::UnmarkGroups { level: 1 }),
        Just(I::Gather { max_threads: 4 }),
        Just(I::Tournament {
            bits: 4,
            max_threads: 4,
            best: Best::Max
        }),
        Just(I::KeepTop {
            bits: 4,
            keep: 2,
            max_threads: 5,
            best: Best::Min
        }),
        Just(I::Matches("1.1".into())),
        Just(I::ListPush),
        Just(I::Concat),
        Just(I::Slice { start: 1, len: 2 }),
        Just(I::MapChars {
            table: vec![('1', "a".into())],
            max_len: 4
        }),
        Just(I::Split {
            sep: '0',
            max_len: 4
        }),
        Just(I::Join {
            sep: '0',
            max_len: 4
        }),
    ]
}

fn any_value() -> impl Strategy<Value = String> {
    prop_oneof![
        Just("T".to_string()),
        Just("F".to_string()),
        Just("N".to_string()),
        "[01]{4}",
        Just(String::new()),
        "(;[01]{4}){1,3}",
    ]
}

fn any_thread() -> impl Strategy<Value = Thread> {
    (
        prop::collection::vec(any_value(), 0..4),
        prop::collection::vec(
            (prop_oneof![Just("x"), Just("y"), Just("z")], any_value()),
            0..3,
        ),
        prop_oneof![Just(None), Just(Some("e1")), Just(Some("p"))],
    )
        .prop_map(|(stack, vars, tag)| Thread {
            tag: tag.map(str::to_string),
            stack,
            vars: vars.into_iter().map(|(k, v)| (k.to_string(), v)).collect(),
        })
}

proptest! {
    #![proptest_config(ProptestConfig {
        rng_seed: proptest::test_runner::RngSeed::Fixed(0x5eed00021),
        ..ProptestConfig::with_cases(64)
    })]

    /// Whatever the instructions and the state (even ill-typed ones), both executors
    /// produce the same bytes.
    #[test]
    fn executors_agree_on_arbitrary_sequences(
        instructions in prop::collection::vec(any_instruction(), 1..6),
        threads in prop::collection::vec(any_thread(), 1..5),
    ) {
        let program = rules(&instructions);
        run_both(&program, &encode::render(&threads));
    }
}
