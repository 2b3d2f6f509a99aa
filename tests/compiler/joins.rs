//! The joins pass against a judge: random programs of nested conditionals, compiled with
//! and without the pass, must leave every state byte for byte the same on the reference
//! executor (and the fast one agrees with it on both). The programs are built to meet
//! the pass's rewrites: branches returning the same value (common tails), reads of the
//! condition inside its branches (known conditions), constants as conditions and as
//! branch results tested right after the join, branches with nothing to do (`cond_not`),
//! forks and tournaments inside branches (which must not move).

use regex_chess_testkit::lowered as common;

use common::{bystander, run_both, validate};
use proptest::prelude::*;
use regex_chess_compiler::dsl::{Builder, Value, kind};
use regex_chess_compiler::encode::{self, Thread};
use regex_chess_compiler::ir::{Best, Instruction, IrProgram};
use regex_chess_compiler::{self as compiler, CompileOptions};

const BITS: u8 = 4;

/// One step of a random program. Operands are indices into the values in scope (taken
/// modulo their number), so every script builds a well-typed program.
#[derive(Clone, Debug)]
enum Step {
    Add(usize, usize),
    Lt(usize, usize),
    Not(usize),
    And(usize, usize),
    Bool(bool),
    Int(i64),
    /// `if bools[cond] { then } else { otherwise }`, each branch returning the int and
    /// the bool of the given indices in its own scope (the values before the `if`
    /// included, so that both branches often return the same one).
    If {
        cond: usize,
        then: Vec<Step>,
        otherwise: Vec<Step>,
        ret: (usize, usize),
        ret_else: (usize, usize),
    },
    /// `when(bools[cond], body)`, the body overwriting nothing outside.
    When {
        cond: usize,
        body: Vec<Step>,
    },
    /// `if bools[cond] {} else { body }`: an empty then-branch.
    Unless {
        cond: usize,
        body: Vec<Step>,
    },
    /// In a group: a fork into `T` and `F`, the body, then a tournament on the last int.
    Fork(Vec<Step>),
    /// A tournament on an int over each run of adjacent active threads, with no group:
    /// which threads are adjacent depends on what is paused.
    Best(usize),
}

fn step() -> impl Strategy<Value = Step> {
    let leaf = prop_oneof![
        (0..8usize, 0..8usize).prop_map(|(a, b)| Step::Add(a, b)),
        (0..8usize, 0..8usize).prop_map(|(a, b)| Step::Lt(a, b)),
        (0..8usize).prop_map(Step::Not),
        (0..8usize, 0..8usize).prop_map(|(a, b)| Step::And(a, b)),
        any::<bool>().prop_map(Step::Bool),
        (-8i64..8).prop_map(Step::Int),
        (0..8usize).prop_map(Step::Best),
    ];
    leaf.prop_recursive(3, 24, 4, |inner| {
        let body = prop::collection::vec(inner, 0..4);
        prop_oneof![
            (
                0..8usize,
                body.clone(),
                body.clone(),
                (0..10usize, 0..10usize),
                (0..10usize, 0..10usize),
            )
                .prop_map(|(cond, then, otherwise, ret, ret_else)| Step::If {
                    cond,
                    then,
                    otherwise,
                    ret,
                    ret_else,
                }),
            (0..8usize, body.clone()).prop_map(|(cond, body)| Step::When { cond, body }),
            (0..8usize, body.clone()).prop_map(|(cond, body)| Step::Unless { cond, body }),
            body.prop_map(Step::Fork),
        ]
    })
}

/// The values in scope.
#[derive(Clone)]
struct Scope {
    ints: Vec<Value<kind::Int>>,
    bools: Vec<Value<kind::Bool>>,
}

impl Scope {
    fn int(&self, i: usize) -> &Value<kind::Int> {
        &self.ints[i % self.ints.len()]
    }
    fn bool(&self, i: usize) -> &Value<kind::Bool> {
        &self.bools[i % self.bools.len()]
    }
    /// The value of index `i` counted from the end (the newest first).
    fn ret(&self, (i, j): (usize, usize)) -> (Value<kind::Int>, Value<kind::Bool>) {
        let int = &self.ints[self.ints.len() - 1 - i % self.ints.len()];
        let bool = &self.bools[self.bools.len() - 1 - j % self.bools.len()];
        (int.clone(), bool.clone())
    }
}

fn build(b: &mut Builder, steps: &[Step], scope: &mut Scope) {
    for step in steps {
        match step {
            Step::Add(x, y) => {
                let v = b.add(scope.int(*x), scope.int(*y));
                scope.ints.push(v);
            }
            Step::Lt(x, y) => {
                let v = b.lt(scope.int(*x), scope.int(*y));
                scope.bools.push(v);
            }
            Step::Not(x) => {
                let v = b.not(scope.bool(*x));
                scope.bools.push(v);
            }
            Step::And(x, y) => {
                let v = b.and(scope.bool(*x), scope.bool(*y));
                scope.bools.push(v);
            }
            Step::Bool(v) => {
                let v = b.bool(*v);
                scope.bools.push(v);
            }
            Step::Int(v) => {
                let v = b.int(BITS, *v);
                scope.ints.push(v);
            }
            Step::If {
                cond,
                then,
                otherwise,
                ret,
                ret_else,
            } => {
                let c = scope.bool(*cond).clone();
                let (int, bool) = b.if_else(
                    &c,
                    |b| {
                        let mut inner = scope.clone();
                        build(b, then, &mut inner);
                        inner.ret(*ret)
                    },
                    |b| {
                        let mut inner = scope.clone();
                        build(b, otherwise, &mut inner);
                        inner.ret(*ret_else)
                    },
                );
                scope.ints.push(int);
                scope.bools.push(bool);
            }
            Step::When { cond, body } => {
                let c = scope.bool(*cond).clone();
                b.when(&c, |b| {
                    let mut inner = scope.clone();
                    build(b, body, &mut inner);
                });
            }
            Step::Unless { cond, body } => {
                let c = scope.bool(*cond).clone();
                b.if_else(
                    &c,
                    |_| (),
                    |b| {
                        let mut inner = scope.clone();
                        build(b, body, &mut inner);
                    },
                );
            }
            Step::Fork(body) => {
                let best = b.grouped(|b| {
                    let f = b.fork_bool();
                    let mut inner = scope.clone();
                    inner.bools.push(f);
                    build(b, body, &mut inner);
                    let (best, _) = inner.ret((0, 0));
                    b.keep_best(&best, 2, Best::Max);
                    best
                });
                scope.ints.push(best);
            }
            Step::Best(x) => b.keep_best(scope.int(*x), 4, Best::Max),
        }
    }
}

/// The program of a script: inputs `x`, `y` (ints), `p`, `q` (bools); outputs the last
/// three ints and bools in scope.
fn program(steps: &[Step]) -> IrProgram {
    let mut b = Builder::new("joins-judge", "");
    let mut scope = Scope {
        ints: vec![b.input_int("x", BITS), b.input_int("y", BITS)],
        bools: vec![b.input_bool("p"), b.input_bool("q")],
    };
    build(&mut b, steps, &mut scope);
    for k in 0..3 {
        let (int, bool) = scope.ret((k, k));
        b.output(&format!("i{k}"), &int);
        b.output(&format!("b{k}"), &bool);
    }
    b.finish()
}

/// Every combination of the inputs (a few ints), one thread each, with a paused
/// bystander between threads and at both ends.
fn state() -> String {
    let mut threads = vec![bystander("p_first")];
    for (k, (x, y)) in [(0, 0), (3, -2), (-8, 7), (5, 5)].into_iter().enumerate() {
        for p in [false, true] {
            for q in [false, true] {
                let (x, y) = (encode::int(BITS, x), encode::int(BITS, y));
                threads.push(Thread::active(
                    &[],
                    &[
                        ("x", x.as_str()),
                        ("y", y.as_str()),
                        ("p", encode::bool(p)),
                        ("q", encode::bool(q)),
                    ],
                ));
            }
        }
        threads.push(bystander(&format!("p{k}")));
    }
    encode::render(&threads)
}

fn without_joins() -> CompileOptions {
    CompileOptions {
        joins: false,
        ..CompileOptions::default()
    }
}

/// The state after the program compiled with `options`, and its rule count.
fn outcome(ir: &IrProgram, options: CompileOptions, state: &str) -> (String, usize) {
    let compiled = compiler::compile(ir.clone(), &options);
    let count = compiled.program.rules.len();
    (run_both(&validate(compiled.program), state), count)
}

proptest! {
    #![proptest_config(ProptestConfig {
        rng_seed: proptest::test_runner::RngSeed::Fixed(0x101_5e1f),
        ..ProptestConfig::with_cases(200)
    })]

    #[test]
    fn the_pass_changes_no_state(steps in prop::collection::vec(step(), 1..8)) {
        let ir = program(&steps);
        let state = state();
        let (with, _) = outcome(&ir, CompileOptions::default(), &state);
        let (without, _) = outcome(&ir, without_joins(), &state);
        prop_assert_eq!(with, without);
    }
}

/// The random scripts do meet the pass: most of them lose rules to it.
#[test]
fn the_random_scripts_exercise_the_pass() {
    use proptest::strategy::ValueTree;
    use proptest::test_runner::{Config, RngSeed, TestRunner};
    let mut runner = TestRunner::new(Config {
        rng_seed: RngSeed::Fixed(0x101_5e1f),
        ..Config::default()
    });
    let strategy = prop::collection::vec(step(), 1..8);
    let mut changed = 0;
    for _ in 0..100 {
        let steps = strategy.new_tree(&mut runner).unwrap().current();
        let ir = program(&steps);
        let count = |options| compiler::compile(ir.clone(), &options).program.rules.len();
        if count(CompileOptions::default()) < count(without_joins()) {
            changed += 1;
        }
    }
    assert!(changed >= 30, "only {changed} of 100 scripts changed");
}

/// Scripts that meet each rewrite, checked against the judge and for fewer rules.
#[test]
fn each_rewrite_fires_and_keeps_the_state() {
    use Step::*;
    let known_if = |then: Vec<Step>| If {
        cond: 0,
        then,
        otherwise: vec![Int(1)],
        ret: (0, 0),
        ret_else: (0, 0),
    };
    let cases = [
        // Both branches return the same values: the stores leave the branches.
        vec![If {
            cond: 0,
            then: vec![Int(3)],
            otherwise: vec![Int(2)],
            ret: (1, 0),
            ret_else: (1, 0),
        }],
        // The then-branch returns `true`, the next `if` tests it: decided in the branch.
        vec![
            If {
                cond: 0,
                then: vec![Bool(true)],
                otherwise: vec![Lt(0, 1)],
                ret: (0, 0),
                ret_else: (0, 0),
            },
            If {
                cond: 2,
                then: vec![Add(0, 1)],
                otherwise: vec![Int(7)],
                ret: (0, 0),
                ret_else: (0, 0),
            },
        ],
        // The same with `false` in the then-branch.
        vec![
            If {
                cond: 1,
                then: vec![Bool(false)],
                otherwise: vec![Lt(1, 0)],
                ret: (0, 0),
                ret_else: (0, 0),
            },
            If {
                cond: 2,
                then: vec![Add(0, 0)],
                otherwise: vec![Int(-3)],
                ret: (0, 0),
                ret_else: (0, 0),
            },
        ],
        // The else-branch returns `false`: its threads wait under the next test's tag.
        vec![
            If {
                cond: 1,
                then: vec![Lt(1, 0)],
                otherwise: vec![Bool(false)],
                ret: (0, 0),
                ret_else: (0, 0),
            },
            If {
                cond: 2,
                then: vec![Add(0, 0)],
                otherwise: vec![Int(-3)],
                ret: (0, 0),
                ret_else: (0, 0),
            },
            Lt(0, 1),
            Lt(1, 0),
            Not(0),
        ],
        // Inside `if p`, an `if p` is decided (p is index 0 in scope).
        vec![known_if(vec![known_if(vec![Int(5)])])],
        // A constant condition.
        vec![Bool(true), known_if(vec![Int(4)])],
    ];
    let state = state();
    for steps in cases {
        let ir = program(&steps);
        let (with, fewer) = outcome(&ir, CompileOptions::default(), &state);
        let (without, more) = outcome(&ir, without_joins(), &state);
        assert_eq!(with, without, "{steps:?}");
        assert!(
            fewer < more,
            "{steps:?}: {fewer} rules, {more} without the pass"
        );
    }
}

/// `if p { true } else { x < y }` then `when` on the result, as the leaves'
/// `has_legal_move` (quick test, slow test) feeds the `if` on its result: the test
/// moves into the else-branch and the `if` is written with `cond_not`.
/// A test with an empty then-branch after a branch that pushed a constant: the
/// passing threads wait at once under the test's then-tag.
#[test]
fn a_test_with_an_empty_then_branch_after_a_constant_branch() {
    for value in [true, false] {
        let steps = vec![
            Step::If {
                cond: 0,
                then: vec![Step::Bool(value)],
                otherwise: vec![Step::Lt(0, 1)],
                ret: (0, 0),
                ret_else: (0, 0),
            },
            Step::Unless {
                cond: 2,
                body: vec![Step::Add(0, 1), Step::Best(2)],
            },
            // Newer values for the outputs: the test is the last read of its flag.
            Step::Lt(0, 1),
            Step::Lt(1, 0),
            Step::Not(0),
        ];
        let ir = program(&steps);
        let compiled = compiler::compile(ir.clone(), &CompileOptions::default());
        let negations = compiled
            .ir
            .body
            .iter()
            .filter(|l| matches!(l.instruction, Instruction::CondNot { .. }))
            .count();
        assert!(negations >= 1, "{:#?}", compiled.ir.body);
        let state = state();
        let (with, fewer) = outcome(&ir, CompileOptions::default(), &state);
        let (without, more) = outcome(&ir, without_joins(), &state);
        assert_eq!(with, without);
        assert!(fewer < more, "{fewer} rules, {more} without the pass");
    }
}

#[test]
fn a_test_after_a_constant_branch_becomes_cond_not() {
    use Instruction as I;
    use regex_chess_compiler::ir::{CmpOp, Located, Scalar, Side, Site, Tag, Var};
    let tag = |id, side| Tag { id, side };
    let site = Site::caller();
    let ir = IrProgram {
        body: vec![
            I::Lookup(Var::new("p")),
            I::Cond {
                tag: tag(0, Side::Else),
            },
            I::Push("T".into()),
            I::Pause(tag(0, Side::Then)),
            I::Reactivate(tag(0, Side::Else)),
            I::Lookup(Var::new("x")),
            I::Lookup(Var::new("y")),
            I::Compare {
                op: CmpOp::Lt,
                ty: Scalar::Int { bits: BITS },
            },
            I::Reactivate(tag(0, Side::Then)),
            I::Cond {
                tag: tag(1, Side::Else),
            },
            I::Lookup(Var::new("x")),
            I::Assign(Var::new("y")),
            I::Reactivate(tag(1, Side::Else)),
        ]
        .into_iter()
        .map(|instruction| Located { instruction, site })
        .collect(),
        inputs: ["x", "y", "p", "q"].map(Var::new).to_vec(),
        outputs: ["x", "y", "p", "q"].map(Var::new).to_vec(),
        ..IrProgram::default()
    };
    let compiled = compiler::compile(ir.clone(), &CompileOptions::default());
    let body: Vec<Instruction> = compiled
        .ir
        .body
        .into_iter()
        .map(|l| l.instruction)
        .collect();
    assert_eq!(
        body,
        vec![
            I::Lookup(Var::new("p")),
            I::CondNot {
                tag: tag(0, Side::Then),
            },
            I::Lookup(Var::new("x")),
            I::Lookup(Var::new("y")),
            I::Compare {
                op: CmpOp::Lt,
                ty: Scalar::Int { bits: BITS },
            },
            I::Cond {
                tag: tag(1, Side::Else),
            },
            I::Reactivate(tag(0, Side::Then)),
            I::Lookup(Var::new("x")),
            I::Assign(Var::new("y")),
            I::Reactivate(tag(1, Side::Else)),
        ]
    );
    let state = state();
    let (with, fewer) = outcome(&ir, CompileOptions::default(), &state);
    let (without, more) = outcome(&ir, without_joins(), &state);
    assert_eq!(with, without);
    assert_eq!(more - fewer, 3, "push, pause and a wake-up");
}
