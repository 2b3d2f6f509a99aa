//! Whole programs written with the DSL: results against native Rust (property tests),
//! the passes, origins, and the `compile` command.

use regex_chess_testkit::lowered as common;

use std::sync::LazyLock;

use common::{bystander, run_both, run_both_with_peak, validate};
use proptest::prelude::*;
use regex_chess_compiler::dsl::{Builder, Value, kind};
use regex_chess_compiler::encode::{self, Thread};
use regex_chess_compiler::ir::{Best, IrProgram, Scalar};
use regex_chess_compiler::{self as compiler, CompileOptions};
use regex_chess_machine::program::{Origin, ValidProgram};

const BITS: u8 = 8;

fn compile(ir: IrProgram, options: CompileOptions) -> ValidProgram {
    validate(compiler::compile(ir, &options).program)
}

fn enc(v: i64) -> String {
    encode::int(BITS, v)
}

fn dec(text: &str) -> i64 {
    encode::decode_int(text).unwrap_or_else(|| panic!("not an integer: {text:?}"))
}

fn wrap(v: i128) -> i64 {
    encode::wrap(BITS, v)
}

/// A state of one active thread per input set, with a paused bystander after each.
fn state_of(inputs: &[Vec<(&str, String)>]) -> String {
    let mut threads = Vec::new();
    for (i, vars) in inputs.iter().enumerate() {
        let vars: Vec<(&str, &str)> = vars.iter().map(|(k, v)| (*k, v.as_str())).collect();
        threads.push(Thread::active(&[], &vars));
        threads.push(bystander(&format!("p{i}")));
    }
    encode::render(&threads)
}

/// The active threads of a result, checking that the bystanders are intact.
fn active_threads(out: &str, bystanders: usize) -> Vec<Thread> {
    let threads = encode::threads(out);
    let (active, paused): (Vec<_>, Vec<_>) = threads.into_iter().partition(|t| t.tag.is_none());
    let expected: Vec<Thread> = (0..bystanders)
        .map(|i| bystander(&format!("p{i}")))
        .collect();
    assert_eq!(paused, expected, "paused threads were touched");
    active
}

// ----- arithmetic expressions -----

#[derive(Clone, Debug)]
enum Expr {
    Input(usize),
    Const(i64),
    Add(Box<Expr>, Box<Expr>),
    Sub(Box<Expr>, Box<Expr>),
    Neg(Box<Expr>),
    /// `if a < b { c } else { d }`
    IfLess(Box<[Expr; 4]>),
}

const INPUTS: [&str; 3] = ["x", "y", "z"];

fn expr() -> impl Strategy<Value = Expr> {
    let leaf = prop_oneof![
        (0..INPUTS.len()).prop_map(Expr::Input),
        (-128i64..128).prop_map(Expr::Const),
    ];
    leaf.prop_recursive(3, 12, 4, |inner| {
        prop_oneof![
            (inner.clone(), inner.clone()).prop_map(|(a, b)| Expr::Add(a.into(), b.into())),
            (inner.clone(), inner.clone()).prop_map(|(a, b)| Expr::Sub(a.into(), b.into())),
            inner.clone().prop_map(|a| Expr::Neg(a.into())),
            [inner.clone(), inner.clone(), inner.clone(), inner]
                .prop_map(|parts| Expr::IfLess(Box::new(parts))),
        ]
    })
}

fn eval(e: &Expr, inputs: &[i64]) -> i64 {
    match e {
        Expr::Input(i) => inputs[*i],
        Expr::Const(c) => *c,
        Expr::Add(a, b) => wrap(eval(a, inputs) as i128 + eval(b, inputs) as i128),
        Expr::Sub(a, b) => wrap(eval(a, inputs) as i128 - eval(b, inputs) as i128),
        Expr::Neg(a) => wrap(-(eval(a, inputs) as i128)),
        Expr::IfLess(p) => {
            if eval(&p[0], inputs) < eval(&p[1], inputs) {
                eval(&p[2], inputs)
            } else {
                eval(&p[3], inputs)
            }
        }
    }
}

/// Records `e`: plain Rust recursion is how DSL functions compose.
fn record(b: &mut Builder, e: &Expr, inputs: &[Value<kind::Int>]) -> Value<kind::Int> {
    match e {
        Expr::Input(i) => inputs[*i].clone(),
        Expr::Const(c) => b.int(BITS, *c),
        Expr::Add(x, y) => {
            let (x, y) = (record(b, x, inputs), record(b, y, inputs));
            b.add(&x, &y)
        }
        Expr::Sub(x, y) => {
            let (x, y) = (record(b, x, inputs), record(b, y, inputs));
            b.sub(&x, &y)
        }
        Expr::Neg(x) => {
            let x = record(b, x, inputs);
            b.neg(&x)
        }
        Expr::IfLess(p) => {
            let (x, y) = (record(b, &p[0], inputs), record(b, &p[1], inputs));
            let less = b.lt(&x, &y);
            b.if_else(
                &less,
                |b| record(b, &p[2], inputs),
                |b| record(b, &p[3], inputs),
            )
        }
    }
}

fn expr_program(e: &Expr) -> IrProgram {
    let mut b = Builder::new("expr", "");
    let inputs: Vec<_> = INPUTS.iter().map(|n| b.input_int(n, BITS)).collect();
    let r = record(&mut b, e, &inputs);
    b.output("r", &r);
    b.finish()
}

fn run_expr(program: &ValidProgram, cases: &[[i64; 3]]) -> Vec<i64> {
    let inputs: Vec<Vec<(&str, String)>> = cases
        .iter()
        .map(|c| INPUTS.iter().zip(c).map(|(n, v)| (*n, enc(*v))).collect())
        .collect();
    let out = run_both(program, &state_of(&inputs));
    active_threads(&out, cases.len())
        .iter()
        .map(|t| {
            assert!(t.stack.is_empty(), "the stack is left empty: {t:?}");
            assert_eq!(t.vars.len(), 1, "only the output is left: {t:?}");
            dec(t.var("r").expect("r is set"))
        })
        .collect()
}

proptest! {
    #![proptest_config(ProptestConfig {
        rng_seed: proptest::test_runner::RngSeed::Fixed(0x5eed00011),
        ..ProptestConfig::with_cases(40)
    })]

    /// Expressions with conditionals, on three threads at once, with and without passes.
    #[test]
    fn expressions_match_native(
        e in expr(),
        cases in prop::array::uniform3(prop::array::uniform3(-128i64..128)),
    ) {
        let program = compile(expr_program(&e), CompileOptions::default());
        let expected: Vec<i64> = cases.iter().map(|c| eval(&e, c)).collect();
        prop_assert_eq!(run_expr(&program, &cases), expected.clone());
    }
}

#[test]
fn passes_change_no_result_on_expressions() {
    let e = Expr::IfLess(Box::new([
        Expr::Add(Expr::Input(0).into(), Expr::Const(127).into()),
        Expr::Neg(Expr::Input(1).into()),
        Expr::Sub(Expr::Input(2).into(), Expr::Input(0).into()),
        Expr::Neg(Expr::Neg(Expr::Input(2).into()).into()),
    ]));
    let cases = [[1, 2, 3], [-128, 127, 0], [127, -128, -1], [0, 0, 0]];
    let expected: Vec<i64> = cases.iter().map(|c| eval(&e, c)).collect();
    for mask in 0..16 {
        {
            let options = CompileOptions {
                const_inline: mask & 1 != 0,
                dead_var_elim: mask & 2 != 0,
                peephole: mask & 4 != 0,
                joins: mask & 8 != 0,
            };
            let program = compile(expr_program(&e), options);
            let inputs: Vec<Vec<(&str, String)>> = cases
                .iter()
                .map(|c| INPUTS.iter().zip(c).map(|(n, v)| (*n, enc(*v))).collect())
                .collect();
            let out = run_both(&program, &state_of(&inputs));
            let got: Vec<i64> = active_threads(&out, cases.len())
                .iter()
                .map(|t| dec(t.var("r").unwrap()))
                .collect();
            assert_eq!(got, expected, "{options:?}");
        }
    }
}

// ----- max over threads, groups, gather -----

#[test]
fn grouped_keeps_one_thread_per_parent() {
    // Two parents; each forks its list and keeps its own best, within its group.
    let mut b = Builder::new("groups", "");
    let xs = b.input_list::<kind::Int>("xs", Scalar::Int { bits: BITS });
    let best = b.grouped(|b| {
        let x = b.fork_list(&xs, 8);
        b.keep_best(&x, 8, Best::Min);
        x
    });
    b.output("best", &best);
    let program = compile(b.finish(), CompileOptions::default());
    let lists = [vec![5, -3, 7], vec![9], vec![], vec![4, 4, -100, 0]];
    let inputs: Vec<Vec<(&str, String)>> = lists
        .iter()
        .map(|l| {
            let elems: Vec<String> = l.iter().map(|v| enc(*v)).collect();
            vec![("xs", encode::list(&elems))]
        })
        .collect();
    let out = run_both(&program, &state_of(&inputs));
    let got: Vec<i64> = active_threads(&out, lists.len())
        .iter()
        .map(|t| dec(t.var("best").unwrap()))
        .collect();
    assert_eq!(got, vec![-3, 9, -100]);
    assert!(!out.contains("%/"), "group boundaries are removed");
}

/// Each parent forks over `xs`, scores `x + j` and keeps its best within its group; `k`
/// and `note` are read only after the group. `to_one` records the group with
/// [`Builder::grouped_to_one`] (so `k` and `note` wait in the boundaries), else plain.
fn stash_program(to_one: bool) -> ValidProgram {
    let mut b = Builder::new("stash", "");
    let xs = b.input_list::<kind::Int>("xs", Scalar::Int { bits: BITS });
    let j = b.input_int("j", BITS);
    let k = b.input_int("k", BITS);
    let note = b.input_str("note");
    let body = |b: &mut Builder| {
        let x = b.fork_list(&xs, 8);
        let s = b.add(&x, &j);
        b.keep_best(&s, 8, Best::Max);
        s
    };
    let best = match to_one {
        true => b.grouped_to_one(body),
        false => b.grouped(body),
    };
    let total = b.add(&best, &k);
    b.output("total", &total);
    b.output("note", &note);
    compile(b.finish(), CompileOptions::default())
}

#[test]
fn a_group_to_one_keeps_what_it_never_reads_in_its_boundary() {
    let (plain, to_one) = (stash_program(false), stash_program(true));
    assert!(
        to_one.rules().len() > plain.rules().len(),
        "the stash adds rules"
    );
    let lists = [vec![5, -3, 7], vec![], vec![9], vec![4, 4, -10, 0]];
    let inputs: Vec<Vec<(&str, String)>> = lists
        .iter()
        .enumerate()
        .map(|(i, l)| {
            let elems: Vec<String> = l.iter().map(|v| enc(*v)).collect();
            vec![
                ("xs", encode::list(&elems)),
                ("j", enc(i as i64)),
                ("k", enc(10 * i as i64)),
                ("note", format!("parent {i} {}", "n".repeat(200))),
            ]
        })
        .collect();
    let state = state_of(&inputs);
    let (out_plain, peak_plain) = run_both_with_peak(&plain, &state);
    let (out, peak) = run_both_with_peak(&to_one, &state);
    let read = |out: &str| -> Vec<(i64, String)> {
        active_threads(out, lists.len())
            .iter()
            .map(|t| {
                (
                    dec(t.var("total").unwrap()),
                    t.var("note").unwrap().to_string(),
                )
            })
            .collect()
    };
    let expected: Vec<(i64, String)> = [(0, 7), (2, 9), (3, 4)]
        .iter()
        .map(|&(i, x)| (x + i + 10 * i, format!("parent {i} {}", "n".repeat(200))))
        .collect();
    assert_eq!(read(&out_plain), expected);
    assert_eq!(
        read(&out),
        expected,
        "the one-left group gives the plain group's results"
    );
    assert!(
        !out.contains("%/"),
        "group boundaries and their lines are removed"
    );
    assert!(
        peak < peak_plain,
        "the forked threads carry no copy of `note`: {peak} < {peak_plain}"
    );
}

/// Minimax in the shape of a 2-ply search: for each parent thread, fork over its moves
/// `xs`, then over the replies `ys`; a reply scores `x - y`; the opponent keeps the
/// lowest score per move, then the best move per parent is kept.
fn minimax_program() -> ValidProgram {
    let mut b = Builder::new("minimax", "");
    let xs = b.input_list::<kind::Int>("xs", Scalar::Int { bits: BITS });
    let ys = b.input_list::<kind::Int>("ys", Scalar::Int { bits: BITS });
    let best = b.grouped(|b| {
        let x = b.fork_list(&xs, 6);
        let worst = b.grouped(|b| {
            let y = b.fork_list(&ys, 5);
            let score = b.sub(&x, &y);
            b.keep_best(&score, 5, Best::Min);
            score
        });
        b.keep_best(&worst, 6, Best::Max);
        worst
    });
    b.output("best", &best);
    compile(b.finish(), CompileOptions::default())
}

static MINIMAX: LazyLock<ValidProgram> = LazyLock::new(minimax_program);

proptest! {
    #![proptest_config(ProptestConfig {
        rng_seed: proptest::test_runner::RngSeed::Fixed(0x5eed00012),
        ..ProptestConfig::with_cases(64)
    })]

    /// Nested groups keep each reduction within its own parent, on several parents at once.
    #[test]
    fn nested_groups_compute_minimax(
        parents in prop::collection::vec(
            (prop::collection::vec(-60i64..60, 0..=6), prop::collection::vec(-60i64..60, 0..=5)),
            1..4,
        ),
    ) {
        let list = |v: &Vec<i64>| encode::list(&v.iter().map(|x| enc(*x)).collect::<Vec<_>>());
        let inputs: Vec<Vec<(&str, String)>> =
            parents.iter().map(|(xs, ys)| vec![("xs", list(xs)), ("ys", list(ys))]).collect();
        let out = run_both(&MINIMAX, &state_of(&inputs));
        let got: Vec<i64> = active_threads(&out, parents.len())
            .iter()
            .map(|t| dec(t.var("best").unwrap()))
            .collect();
        let expected: Vec<i64> = parents
            .iter()
            .filter_map(|(xs, ys)| xs.iter().filter_map(|x| ys.iter().map(|y| x - y).min()).max())
            .collect();
        prop_assert_eq!(got, expected);
        prop_assert!(!out.contains("%/"));
    }
}

/// Forks over `xs` (up to 12 scores), adds `k` to each, gathers the sums and keeps the
/// best thread; outputs `sums`, `best` and the `tag` of the winning element.
fn spread_program(best: Best) -> ValidProgram {
    let mut b = Builder::new("spread", "");
    let xs = b.input_list::<kind::Int>("xs", Scalar::Int { bits: BITS });
    let k = b.input_int("k", BITS);
    let x = b.fork_list(&xs, 12);
    let sum = b.add(&x, &k);
    let sums = b.gather(&sum, 12);
    let again = b.fork_list(&sums, 12);
    // Tag each thread with its value's position parity, to see which tie survives.
    let flag = b.fork_bool();
    let zero = b.int(BITS, 0);
    let from_first = b.if_else(&flag, |_| again.clone(), |_| zero.clone());
    b.keep_best(&from_first, 24, best);
    b.output("sums", &sums);
    b.output("best", &from_first);
    b.output("first", &flag);
    compile(b.finish(), CompileOptions::default())
}

static SPREAD_MAX: LazyLock<ValidProgram> = LazyLock::new(|| spread_program(Best::Max));
static SPREAD_MIN: LazyLock<ValidProgram> = LazyLock::new(|| spread_program(Best::Min));

proptest! {
    #![proptest_config(ProptestConfig {
        rng_seed: proptest::test_runner::RngSeed::Fixed(0x5eed00013),
        ..ProptestConfig::with_cases(64)
    })]

    /// Gather and tournament over values spread across threads, against native Rust.
    #[test]
    fn gather_and_best_match_native(
        xs in prop::collection::vec(-128i64..128, 0..=12),
        k in -128i64..128,
        max in any::<bool>(),
    ) {
        let program = if max { &*SPREAD_MAX } else { &*SPREAD_MIN };
        let elems: Vec<String> = xs.iter().map(|v| enc(*v)).collect();
        let inputs = vec![vec![("xs", encode::list(&elems)), ("k", enc(k))]];
        let out = run_both(program, &state_of(&inputs));
        let threads = active_threads(&out, 1);
        if xs.is_empty() {
            prop_assert!(threads.is_empty());
            return Ok(());
        }
        let sums: Vec<i64> = xs.iter().map(|x| wrap(*x as i128 + k as i128)).collect();
        // Each sum s appears twice: (s, first = T) then (0, first = F).
        let candidates: Vec<(i64, bool)> = sums.iter().flat_map(|s| [(*s, true), (0, false)]).collect();
        let pick = if max {
            candidates.iter().copied().reduce(|a, b| if b.0 > a.0 { b } else { a })
        } else {
            candidates.iter().copied().reduce(|a, b| if b.0 < a.0 { b } else { a })
        }.unwrap();
        prop_assert_eq!(threads.len(), 1);
        let t = &threads[0];
        let got_sums: Vec<i64> = encode::decode_list(t.var("sums").unwrap()).iter().map(|s| dec(s)).collect();
        prop_assert_eq!(got_sums, sums);
        prop_assert_eq!(dec(t.var("best").unwrap()), pick.0);
        prop_assert_eq!(t.var("first").unwrap(), encode::bool(pick.1));
        prop_assert!(t.stack.is_empty());
    }
}

// ----- conditionals -----

/// `r = if x < y { if x < z { x - z } else { y } } else { x + y }`, plus a `when` that
/// sets `flag` only where `z == 0` (elsewhere `flag` stays as given).
fn branchy_program(options: CompileOptions) -> ValidProgram {
    let mut b = Builder::new("branchy", "");
    let x = b.input_int("x", BITS);
    let y = b.input_int("y", BITS);
    let z = b.input_int("z", BITS);
    let xy = b.lt(&x, &y);
    let r = b.if_else(
        &xy,
        |b| {
            let xz = b.lt(&x, &z);
            b.if_else(&xz, |b| b.sub(&x, &z), |_| y.clone())
        },
        |b| b.add(&x, &y),
    );
    let zero = b.int(BITS, 0);
    let z_zero = b.eq(&z, &zero);
    b.when(&z_zero, |b| {
        let t = b.bool(true);
        b.output("flag", &t);
    });
    b.output("r", &r);
    compile(b.finish(), options)
}

static BRANCHY: LazyLock<ValidProgram> =
    LazyLock::new(|| branchy_program(CompileOptions::default()));

proptest! {
    #![proptest_config(ProptestConfig {
        rng_seed: proptest::test_runner::RngSeed::Fixed(0x5eed00014),
        ..ProptestConfig::with_cases(64)
    })]

    #[test]
    fn conditionals_match_native(cases in prop::collection::vec(prop::array::uniform3(-4i64..4), 1..6)) {
        let inputs: Vec<Vec<(&str, String)>> = cases
            .iter()
            .map(|c| vec![("x", enc(c[0])), ("y", enc(c[1])), ("z", enc(c[2])), ("flag", "F".to_string())])
            .collect();
        let out = run_both(&BRANCHY, &state_of(&inputs));
        let threads = active_threads(&out, cases.len());
        prop_assert_eq!(threads.len(), cases.len());
        for (t, c) in threads.iter().zip(&cases) {
            let [x, y, z] = *c;
            let r = if x < y { if x < z { wrap(x as i128 - z as i128) } else { y } } else { wrap(x as i128 + y as i128) };
            prop_assert_eq!(dec(t.var("r").unwrap()), r);
            prop_assert_eq!(t.var("flag").unwrap(), encode::bool(z == 0));
            prop_assert!(t.stack.is_empty());
        }
    }
}

// ----- text -----

const LINE_PATTERN: &str = "a[^a\\n]*♜|/.{2}/";

fn text_program() -> ValidProgram {
    let mut b = Builder::new("text", "");
    let s = b.input_str("s");
    let parts = b.split(&s, '/', 12);
    let joined = b.join(&parts, '-', 12);
    let mapped = b.map_chars(&s, &[('a', "xy"), ('♜', "")], 12);
    let field = b.slice(&s, 1, 3);
    let both = b.concat(&s, &mapped);
    let is = b.eq_text(&s, "a/b");
    let found = b.matches(&s, LINE_PATTERN);
    b.output("parts", &parts);
    b.output("joined", &joined);
    b.output("mapped", &mapped);
    b.output("field", &field);
    b.output("both", &both);
    b.output("is", &is);
    b.output("found", &found);
    compile(b.finish(), CompileOptions::default())
}

static TEXT: LazyLock<ValidProgram> = LazyLock::new(text_program);

proptest! {
    #![proptest_config(ProptestConfig {
        rng_seed: proptest::test_runner::RngSeed::Fixed(0x5eed00015),
        ..ProptestConfig::with_cases(64)
    })]

    /// Split, join, character maps, fields and concatenation against Rust's own.
    #[test]
    fn text_operations_match_native(words in prop::collection::vec(prop_oneof![Just("a/b".to_string()), "[ab/♜.]{0,12}"], 1..4)) {
        let inputs: Vec<Vec<(&str, String)>> = words.iter().map(|w| vec![("s", w.clone())]).collect();
        let out = run_both(&TEXT, &state_of(&inputs));
        let threads = active_threads(&out, words.len());
        let native = regex::Regex::new(LINE_PATTERN).unwrap();
        for (t, w) in threads.iter().zip(&words) {
            let parts: Vec<&str> = w.split('/').collect();
            prop_assert_eq!(encode::decode_list(t.var("parts").unwrap()), parts);
            prop_assert_eq!(t.var("joined").unwrap(), w.replace('/', "-"));
            let mapped = w.replace('a', "xy").replace('♜', "");
            prop_assert_eq!(t.var("mapped").unwrap(), mapped.as_str());
            let chars: Vec<char> = w.chars().collect();
            let field: String = if chars.len() >= 4 { chars[1..4].iter().collect() } else { w.clone() };
            prop_assert_eq!(t.var("field").unwrap(), field);
            prop_assert_eq!(t.var("both").unwrap(), format!("{w}{mapped}"));
            prop_assert_eq!(t.var("is").unwrap(), encode::bool(w == "a/b"));
            let found = native.is_match(w);
            prop_assert_eq!(t.var("found").unwrap(), encode::bool(found));
        }
    }
}

/// `(|x|, signum x)` through an `if_else` that returns a pair, with a nested `if_else`.
fn pairs_program() -> IrProgram {
    let mut b = Builder::new("pairs", "");
    let x = b.input_int("x", BITS);
    let zero = b.int(BITS, 0);
    let negative = b.lt(&x, &zero);
    let (magnitude, sign) = b.if_else(
        &negative,
        |b| (b.neg(&x), b.int(BITS, -1)),
        |b| {
            let is_zero = b.eq(&x, &zero);
            let sign = b.if_else(&is_zero, |b| b.int(BITS, 0), |b| b.int(BITS, 1));
            (x.clone(), sign)
        },
    );
    b.output("magnitude", &magnitude);
    b.output("sign", &sign);
    b.finish()
}

#[test]
fn branches_can_return_several_values_and_nest() {
    for options in [CompileOptions::none(), CompileOptions::default()] {
        let program = compile(pairs_program(), options);
        let values = [-128, -5, 0, 7, 127];
        let inputs: Vec<Vec<(&str, String)>> =
            values.iter().map(|v| vec![("x", enc(*v))]).collect();
        let out = run_both(&program, &state_of(&inputs));
        let got: Vec<(i64, i64)> = active_threads(&out, values.len())
            .iter()
            .map(|t| {
                (
                    dec(t.var("magnitude").unwrap()),
                    dec(t.var("sign").unwrap()),
                )
            })
            .collect();
        assert_eq!(got, vec![(-128, -1), (5, -1), (0, 0), (7, 1), (127, 1)]);
    }
}

// ----- dead-variable elimination -----

/// Many temporaries: a running sum of products-by-doubling, forked over a list so that
/// every thread carries every live variable.
fn temporaries_program(options: CompileOptions) -> ValidProgram {
    let mut b = Builder::new("temporaries", "");
    let xs = b.input_list::<kind::Int>("xs", Scalar::Int { bits: BITS });
    let seed = b.input_int("seed", BITS);
    let mut terms = Vec::new();
    let mut v = seed.clone();
    for _ in 0..6 {
        v = b.add(&v, &v);
        terms.push(v.clone());
    }
    let x = b.fork_list(&xs, 4);
    let mut acc = x.clone();
    for term in &terms {
        let bigger = b.gt(term, &acc);
        acc = b.if_else(&bigger, |b| b.sub(term, &acc), |b| b.add(&acc, term));
    }
    b.output("acc", &acc);
    compile(b.finish(), options)
}

#[test]
fn dead_variable_elimination_keeps_results_and_shrinks_the_state() {
    let state = state_of(&[
        vec![
            ("xs", encode::list(&[enc(3), enc(-7), enc(100), enc(0)])),
            ("seed", enc(1)),
        ],
        vec![("xs", encode::list(&[enc(-128)])), ("seed", enc(-5))],
    ]);
    let mut results = Vec::new();
    let mut peaks = Vec::new();
    for dead_var_elim in [false, true] {
        let options = CompileOptions {
            dead_var_elim,
            ..CompileOptions::default()
        };
        let (out, peak) = run_both_with_peak(&temporaries_program(options), &state);
        let values: Vec<String> = active_threads(&out, 2)
            .iter()
            .map(|t| t.var("acc").unwrap().to_string())
            .collect();
        results.push(values);
        peaks.push(peak);
    }
    assert_eq!(results[0], results[1]);
    assert_eq!(results[0].len(), 5);
    assert!(
        peaks[1] * 2 < peaks[0],
        "peak state {} bytes with elimination, {} without",
        peaks[1],
        peaks[0]
    );
}

#[test]
fn dead_variables_used_in_an_else_branch_survive_the_then_branch() {
    let mut b = Builder::new("else-use", "");
    let c = b.input_bool("c");
    let x = b.input_int("x", BITS);
    let one = b.int(BITS, 1);
    let r = b.if_else(&c, |b| b.int(BITS, 50), |b| b.add(&x, &one));
    b.output("r", &r);
    let ir = b.finish();
    let compiled = compiler::compile(ir, &CompileOptions::default());
    let program = validate(compiled.program);
    let inputs = vec![
        vec![("c", "T".to_string()), ("x", enc(5))],
        vec![("c", "F".to_string()), ("x", enc(5))],
    ];
    let out = run_both(&program, &state_of(&inputs));
    let threads = active_threads(&out, 2);
    let got: Vec<_> = threads.iter().map(|t| dec(t.var("r").unwrap())).collect();
    assert_eq!(got, vec![50, 6]);
    for t in &threads {
        assert_eq!(
            t.vars.len(),
            1,
            "every temporary and input is deleted: {t:?}"
        );
    }
    let report = &compiled.report;
    assert_eq!(report.stages[0].name, "recorded");
    let (first, last) = (&report.stages[0], report.stages.last().unwrap());
    assert!(last.peak_vars < first.peak_vars, "{report}");
    assert!(last.rules < first.rules, "{report}");
}

// ----- origins -----

#[test]
fn every_rule_carries_its_dsl_call_site() {
    let mut b = Builder::new("origins", "");
    let x = b.input_int("x", BITS);
    let line = line!() + 1;
    let y = b.add(&x, &x);
    b.output("y", &y);
    let compiled = compiler::compile(b.finish(), &CompileOptions::none());
    let mut adds = 0;
    for rule in &compiled.program.rules {
        let Origin::Emitted {
            instruction,
            file,
            line: l,
            column,
        } = &rule.origin
        else {
            panic!("rule without origin: {rule:?}");
        };
        assert!(file.ends_with("programs.rs"), "{file}");
        assert!(*column > 0);
        if instruction == "add" {
            adds += 1;
            assert_eq!(*l, line);
        }
    }
    assert_eq!(adds, BITS as usize + 3);
}

// ----- the command line -----

fn cli(args: &[&str]) -> std::process::Output {
    std::process::Command::new(env!("CARGO_BIN_EXE_regex-chess"))
        .args(args)
        .output()
        .expect("the binary runs")
}

#[test]
fn compile_command_writes_stats_and_refuses_unknown_names() {
    let out = cli(&["compile", "--program", "no-such-thing", "-o", "/dev/null"]);
    assert!(!out.status.success());
    let err = String::from_utf8(out.stderr).unwrap();
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(
        err.contains("demo-arith") && err.contains("demo-max"),
        "{err}"
    );

    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("max.json");
    let out = cli(&[
        "compile",
        "--program",
        "demo-max",
        "-o",
        path.to_str().unwrap(),
        "--stats",
    ]);
    assert!(out.status.success());
    let stats = String::from_utf8(out.stdout).unwrap();
    assert!(stats.contains("distinct patterns"), "{stats}");
    assert!(
        stats.contains("tournament") && stats.contains("demo.rs:"),
        "{stats}"
    );
    let loaded = regex_chess_machine::program::json::load(
        &path,
        regex_chess_machine::program::json::Syntax::Auto,
    )
    .expect("the written program loads");
    assert!(!loaded.rules().is_empty());

    let plain = cli(&[
        "compile",
        "--program",
        "demo-max",
        "--stats",
        "--no-const-inline",
        "--no-dead-var-elim",
        "--no-peephole",
        "--no-joins",
    ]);
    let plain = String::from_utf8(plain.stdout).unwrap();
    assert!(plain.contains("recorded"), "{plain}");
    for pass in ["const-inline", "dead-var-elim", "peephole", "joins"] {
        assert!(!plain.contains(pass), "{plain}");
    }
    let listing = cli(&["compile", "--program", "demo-max", "--ir"]);
    let listing = String::from_utf8(listing.stdout).unwrap();
    assert!(listing.contains("fork_list max_len=16"), "{listing}");
    assert!(listing.lines().all(|l| l.contains("demo.rs:")), "{listing}");
}

/// `compile` shows its steps on standard error: not on a terminal, a plain line a step
/// and never an escape code; `--quiet` shows none.
#[test]
fn compile_command_shows_its_steps_unless_quiet() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("max.json");
    let args = [
        "compile",
        "--program",
        "demo-max",
        "-o",
        path.to_str().unwrap(),
    ];
    let out = cli(&args);
    assert!(out.status.success(), "{out:?}");
    let stderr = String::from_utf8(out.stderr).unwrap();
    let steps: Vec<&str> = stderr.lines().collect();
    assert_eq!(steps.len(), 4, "{stderr}");
    for (i, (line, says)) in steps
        .iter()
        .zip(["recorded ", "ran the passes: ", "validated ", "wrote "])
        .enumerate()
    {
        let start = format!("regex-chess: compile demo-max: {}/4 {says}", i + 1);
        assert!(line.starts_with(&start), "{stderr}");
    }
    assert!(!stderr.contains('\x1b'), "{stderr:?}");
    assert!(out.stdout.is_empty());
    let quiet = cli(&[&args[..], &["--quiet"]].concat());
    assert!(quiet.status.success(), "{quiet:?}");
    assert_eq!(String::from_utf8(quiet.stderr).unwrap(), "");
    assert!(path.is_file());
}

#[test]
fn registered_demos_compute_what_they_document() {
    let arith = compile(
        regex_chess_engine::registry::find("demo-arith")
            .unwrap()
            .build(),
        CompileOptions::default(),
    );
    let bits = 16;
    let e16 = |v| encode::int(bits, v);
    let out = run_both(
        &arith,
        &state_of(&[vec![("a", e16(5)), ("b", e16(-7)), ("c", e16(20))]]),
    );
    let t = &active_threads(&out, 1)[0];
    let get = |n| encode::decode_int(t.var(n).unwrap()).unwrap();
    assert_eq!((get("sum"), get("max"), get("diff")), (-22, 5, 15));
    assert_eq!(t.var("big"), Some("F"));

    let max = compile(
        regex_chess_engine::registry::find("demo-max")
            .unwrap()
            .build(),
        CompileOptions::default(),
    );
    let xs: Vec<String> = [3, -4, 9, 0].iter().map(|v| e16(*v)).collect();
    let out = run_both(
        &max,
        &state_of(&[vec![("xs", encode::list(&xs)), ("bonus", e16(10))]]),
    );
    let t = &active_threads(&out, 1)[0];
    assert_eq!(encode::decode_int(t.var("best").unwrap()), Some(19));
    let all: Vec<i64> = encode::decode_list(t.var("all").unwrap())
        .iter()
        .map(|s| encode::decode_int(s).unwrap())
        .collect();
    assert_eq!(all, vec![13, -4, 19, 0]);
}

/// Every registered program holds the IR's invariants as recorded and after each pass,
/// the passes run one after another as `compile` runs them (`verify` names them: tags
/// paused and woken in pairs, group levels marked and unmarked, no read of a variable
/// never stored, and no read of a variable the program removed itself, which matches
/// nothing at run time and sends every thread to a condition's first branch: the leaf
/// repetition test once read the half-move clock that the search had stashed away).
#[test]
fn every_program_verifies_as_recorded_and_after_every_pass() {
    use compiler::passes;
    let mut found = Vec::new();
    for entry in regex_chess_engine::registry::all() {
        let recorded = entry.build();
        let constants = passes::constants::run(&recorded);
        let dead = passes::dead_vars::run(&constants);
        let peephole = passes::peephole::run(&dead);
        let joins = passes::peephole::run(&passes::joins::run(&peephole));
        for (stage, ir) in [
            ("recorded", &recorded),
            ("const-inline", &constants),
            ("dead-var-elim", &dead),
            ("peephole", &peephole),
            ("joins", &joins),
        ] {
            for problem in compiler::verify::verify(ir) {
                let at = ir.body.get(problem.index);
                found.push(format!(
                    "{} after {stage}: {problem}{}",
                    entry.name(),
                    at.map_or(String::new(), |l| format!(
                        " (`{}` at {})",
                        l.instruction, l.site
                    ))
                ));
            }
        }
    }
    assert!(found.is_empty(), "{}", found.join("\n"));
}
