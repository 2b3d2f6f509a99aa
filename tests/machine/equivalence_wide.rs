//! Wider property tests of the fast executor against the reference (issue 36, item 5):
//! the generators of `tests/machine/equivalence.rs` stay small; these reach further.
//!
//! - `counted_repeats_agree`: counted repeats from `{5}` to `{100}` (exact, ranges, open,
//!   lazy; over classes such as the board's `[^\n]{56}`, multibyte classes, `(?s:.)` and
//!   short groups), on states made of runs whose lengths sit at and around the counts,
//!   so that `{100}` and `{99}` see different matches.
//! - `real_program_windows_agree`: 1,000 to 3,000 rules of the real chess programs
//!   (`play`, `move-qe`), a contiguous window or an ordered random subset, on the real
//!   states those programs reach from the bench positions (taken before the window's
//!   first rule or anywhere else), on one core and on two, the rope forced on small
//!   states.
//! - `speculating_stretches_agree`: rules that are not local (matches that cross thread
//!   boundaries) on many-thread states, on two and three cores cutting every state, with
//!   `Fast::speculate` on and off.
//! - `states_past_the_thresholds_agree`: states of 64 to 400 KB (past
//!   `DEFAULT_SPLIT_MIN`, the size from which a pattern may switch to its unanchored
//!   search, threads past the lockstep's 1 KB lane) with the default thresholds, and
//!   with the rope's, the split's, the `%` index's and the segments' thresholds drawn
//!   around the state's size, so that rules that grow or shrink it cross them.
//! - `a_state_past_the_rope_threshold_agrees`: a real state repeated past
//!   `DEFAULT_ROPE_MIN` (4 MB), a window of a real program on it with the default
//!   executor and two cores.
//!
//! Counts and seeds as in `tests/machine/equivalence.rs` (`common/volume.rs`): a quarter of each
//! property's cases in plain `cargo test` from fixed seeds, `REGEX_CHESS_VOLUME=full` all
//! of them, `REGEX_CHESS_SEED` a rotating seed that CI prints.

use std::ops::ControlFlow;
use std::sync::OnceLock;

use proptest::prelude::*;
use proptest::sample::{Index, select};
use proptest::test_runner::{Config, TestCaseError};
use regex_chess_chess::positions;
use regex_chess_compiler::CompileOptions;
use regex_chess_engine::bench::{self, Workload};
use regex_chess_machine::exec::fast::{DEFAULT_ROPE_MIN, DEFAULT_SPLIT_MIN, Fast};
use regex_chess_machine::exec::reference::Reference;
use regex_chess_machine::exec::{Executor, Observer, RuleReport};
use regex_chess_machine::program::{Rule, ValidProgram};

use regex_chess_testkit::exec_compare;
use regex_chess_testkit::volume;
use regex_chess_testkit::wide_log;

// ---------------------------------------------------------------------------------------
// Configuration

/// `cases` cases of this file (see `common/volume.rs`: the share, the fixed or rotating
/// seed), shrinking a failure for up to 512 steps.
fn config(cases: u32) -> Config {
    Config {
        max_shrink_iters: 512,
        ..volume::config("equivalence_wide", 0x71de_5eed_0000, cases)
    }
}

/// [`config`] for properties whose cases take seconds (thousands of rules, states of
/// megabytes): a failure shrinks for at most two minutes.
fn slow_config(cases: u32) -> Config {
    Config {
        max_shrink_iters: 64,
        max_shrink_time: 120_000,
        ..config(cases)
    }
}

/// Every way of running `fast` on `state` must give what `reference` gives.
fn compare(
    reference: &Reference,
    fast: &Fast,
    state: &str,
    what: &str,
) -> Result<(), TestCaseError> {
    exec_compare::compare(reference, fast, state)
        .map_err(|e| TestCaseError::fail(format!("{what}: {e}")))
}

// ---------------------------------------------------------------------------------------
// (a) Counted repeats

/// What a counted repeat repeats: each matches one char (or a short group).
const REPEATED: &[&str] = &[
    "[^\\n]",
    "[^%\\n]",
    "[./A-Za-z]",
    "[01]",
    "[a-h]",
    ".",
    "(?s:.)",
    "[^%]",
    "\\d",
    "\\w",
    "[^\\n0]",
    "[♔-♟]",
    "[♙P.]",
    "x",
    "(?:01)",
    "(?:[a-h][1-8])",
    "(?:[^\\n]\\n?)",
];

/// Literals and anchors around the repeats.
const AROUND: &[&str] = &[
    "%%\n",
    "#b: ",
    "\n",
    "/",
    "x",
    "1",
    "0",
    "#stack:\n",
    "^",
    "$",
    "(?m:^)",
    "(?m:$)",
    "\\b",
    "%",
];

/// A count from 5 to 100, most often one of the case's `shared` counts (which its rules
/// and its state's runs share), else at the places programs use or that differ by one.
fn count(shared: &[u32]) -> BoxedStrategy<u32> {
    prop_oneof![
        4 => select(shared.to_vec()),
        2 => 5u32..=100,
        1 => select(&[5u32, 8, 9, 16, 24, 55, 56, 57, 63, 64, 65, 70, 71, 99, 100][..]),
        1 => 90u32..=100,
    ]
    .boxed()
}

/// The counts a case's rules and state share: most often 100 or 99 among them.
fn shared_counts() -> impl Strategy<Value = Vec<u32>> {
    let one = prop_oneof![
        2 => 5u32..=100,
        1 => select(&[56u32, 64, 99, 100][..]),
    ];
    prop::collection::vec(one, 1..=3)
}

/// One counted repeat: its text, e.g. `(?:[a-h][1-8]){3,5}?`.
#[derive(Clone, Debug)]
enum Counted {
    Exact(u32),
    Range(u32, u32),
    Open(u32),
}

fn counted(shared: &[u32]) -> impl Strategy<Value = (usize, Counted, bool, bool)> + use<> {
    let form = prop_oneof![
        3 => count(shared).prop_map(Counted::Exact),
        2 => (count(shared), 0u32..=12)
            .prop_map(|(n, d)| Counted::Range(n.saturating_sub(d).max(5), n)),
        1 => (count(shared), 0u32..=100)
            .prop_map(|(n, m)| Counted::Range(n.min(m.max(5)), n.max(m))),
        1 => count(shared).prop_map(Counted::Open),
    ];
    (
        0..REPEATED.len(),
        form,
        any::<bool>(),
        prop::bool::weighted(0.25),
    )
}

fn render_counted(class: usize, form: &Counted, lazy: bool) -> String {
    let class = REPEATED[class];
    let counts = match form {
        Counted::Exact(n) => format!("{{{n}}}"),
        Counted::Range(m, n) => format!("{{{m},{n}}}"),
        Counted::Open(m) => format!("{{{m},}}"),
    };
    let lazy = if lazy && !matches!(form, Counted::Exact(_)) {
        "?"
    } else {
        ""
    };
    format!("{class}{counts}{lazy}")
}

/// A rule with one to three counted repeats among literals and anchors, some captured,
/// and a replacement that writes the groups back in another order.
fn counted_rule(shared: &[u32]) -> impl Strategy<Value = Rule> + use<> {
    (
        prop::option::weighted(0.6, select(AROUND)),
        prop::collection::vec(
            (counted(shared), prop::option::weighted(0.4, select(AROUND))),
            1..=3,
        ),
        prop::collection::vec(prop_oneof![Just(None), (0usize..8).prop_map(Some)], 0..4),
        select(&["", "y", "\n", "%%\n", "$$"][..]),
    )
        .prop_map(|(lead, parts, order, text)| {
            let mut pattern = lead.unwrap_or("").to_string();
            let mut groups = 0;
            for ((class, form, captured, lazy), after) in parts {
                let repeat = render_counted(class, &form, lazy);
                if captured {
                    pattern.push_str(&format!("({repeat})"));
                    groups += 1;
                } else {
                    pattern.push_str(&repeat);
                }
                pattern.push_str(after.unwrap_or(""));
            }
            let mut replacement = text.to_string();
            for group in order {
                match group {
                    Some(g) => replacement.push_str(&format!("${{{}}}", g % (groups + 1))),
                    None => replacement.push('|'),
                }
            }
            Rule::new(pattern, replacement)
        })
}

/// What the runs of a state are made of.
const RUNS: &[&str] = &[
    "0", "1", "01", "a", "e4", ".", "P", "♙", "x", "7", "%", "\n", "#", " ", "/", "é",
];

/// A state of runs whose lengths sit at the counts (mostly the `shared` ones) and one
/// off them, with lines and threads between them, sometimes written several times.
fn counted_state(shared: &[u32]) -> impl Strategy<Value = String> + use<> {
    let run = (
        0..RUNS.len(),
        prop_oneof![
            1 => 0usize..=4,
            2 => count(shared).prop_map(|n| n as usize),
            3 => (count(shared), -1i32..=1).prop_map(|(n, d)| (n as i32 + d) as usize),
            1 => 100usize..=130,
        ],
        select(&["", "", "\n", "%%\n", "/", "\n#b: ", "%%\n#stack:\n"][..]),
    );
    (prop::collection::vec(run, 1..24), 1usize..=4).prop_map(|(runs, times)| {
        let mut state = String::new();
        for (what, len, after) in runs {
            let unit = RUNS[what];
            // A multi-char unit counts its chars towards `len`.
            let chars: Vec<char> = unit.chars().collect();
            state.extend((0..len).map(|i| chars[i % chars.len()]));
            state.push_str(after);
        }
        state.repeat(times)
    })
}

/// Checks `rules` on `state` with the default executor and with the paths that cut the
/// state: the rope on every state, two cores (speculating), the segmented state and the
/// `%` index on every state.
fn check_everywhere(rules: Vec<Rule>, state: &str, cap: usize) -> Result<(), TestCaseError> {
    let program = exec_compare::validate_case(rules)?;
    let program = exec_compare::cut_at_cap(program, &[state.to_string()], cap);
    let reference = Reference::new(program.clone());
    let variants = [
        ("default", Fast::new(program.clone())),
        ("rope(1, 1)", Fast::new(program.clone()).rope(1, 1)),
        (
            "parallel(2, 1), speculating",
            Fast::new(program.clone()).parallel(2, 1).speculate(true),
        ),
        (
            "rope(1, 64), parallel(2, 1)",
            Fast::new(program.clone()).rope(1, 64).parallel(2, 1),
        ),
        ("segmented(1)", Fast::new(program.clone()).segmented(1)),
        ("index_starts(0)", Fast::new(program).index_starts(0)),
    ];
    for (what, fast) in &variants {
        compare(&reference, fast, state, what)?;
    }
    Ok(())
}

proptest! {
    #![proptest_config(config(800))]
    #[test]
    fn counted_repeats_agree(
        (rules, state) in shared_counts().prop_flat_map(|shared| {
            (prop::collection::vec(counted_rule(&shared), 1..=5), counted_state(&shared))
        }),
    ) {
        check_everywhere(rules, &state, 256 * 1024)?;
    }
}

// ---------------------------------------------------------------------------------------
// (b) Windows of the real programs

/// The real programs the windows are taken from.
const REAL: &[&str] = &["play", "move-qe"];

/// The largest real state kept as a starting state.
const SNAPSHOT_MAX: usize = 32 * 1024;

/// A state longer than this after some rule ends a window there.
const WINDOW_CAP: usize = 256 * 1024;

/// A compiled real program and the states it reaches from the bench positions: each
/// with the index of the rule that comes next.
struct Real {
    name: &'static str,
    program: ValidProgram,
    states: Vec<(usize, String)>,
}

/// Keeps the state before every `every`-th rule while it is at most [`SNAPSHOT_MAX`]
/// bytes long.
struct Snapshots {
    every: usize,
    states: Vec<(usize, String)>,
}

impl Observer for Snapshots {
    fn after_rule(
        &mut self,
        index: usize,
        report: &RuleReport,
        state: &dyn Fn() -> String,
    ) -> ControlFlow<()> {
        let next = index + 1;
        if next.is_multiple_of(self.every) && report.state_len <= SNAPSHOT_MAX {
            self.states.push((next, state()));
        }
        ControlFlow::Continue(())
    }

    fn wants_match_counts(&self) -> bool {
        false
    }
}

fn real() -> &'static [Real] {
    static REAL_PROGRAMS: OnceLock<Vec<Real>> = OnceLock::new();
    REAL_PROGRAMS.get_or_init(|| {
        let positions = bench::parse_positions(positions::BENCH).expect("the bench positions");
        REAL.iter()
            .map(|&name| {
                let workload =
                    Workload::new(Some(name), &CompileOptions::default()).expect("it compiles");
                let fast = Fast::new(workload.program.clone());
                let mut snapshots = Snapshots {
                    every: workload.program.rules().len() / 24,
                    states: Vec::new(),
                };
                for position in &positions {
                    let input = workload.input(position).expect("an input state");
                    snapshots.states.push((0, input.clone()));
                    fast.run_observed(&input, &mut snapshots).unwrap();
                }
                Real {
                    name,
                    program: workload.program,
                    states: snapshots.states,
                }
            })
            .collect()
    })
}

/// How a window's rules are taken from a real program.
#[derive(Clone, Debug)]
struct Window {
    program: Index,
    state: Index,
    /// From the rule that follows the state (else from `start`).
    follows: bool,
    start: Index,
    len: usize,
    /// `None`: contiguous. `Some((seed, per_mille))`: each rule of a span twice as long
    /// kept with that chance, in order.
    subset: Option<(u64, u32)>,
    /// Two cores: the size from which a state is cut, and whether to speculate.
    split: usize,
    speculate: bool,
    /// The rope's piece length on one core (the rope on every state).
    piece: usize,
}

fn window() -> impl Strategy<Value = Window> {
    (
        (
            any::<Index>(),
            any::<Index>(),
            prop::bool::weighted(0.7),
            any::<Index>(),
        ),
        1000usize..=3000,
        prop::option::weighted(0.4, (any::<u64>(), 300u32..=700)),
        (
            select(&[1usize, 64, 4096, DEFAULT_SPLIT_MIN][..]),
            any::<bool>(),
        ),
        select(&[1usize, 256, 4096][..]),
    )
        .prop_map(
            |((program, state, follows, start), len, subset, (split, speculate), piece)| Window {
                program,
                state,
                follows,
                start,
                len,
                subset,
                split,
                speculate,
                piece,
            },
        )
}

/// The rules of `window` (and their first index in the program) and its state.
fn take(window: &Window) -> (&'static str, Vec<Rule>, usize, &'static str) {
    let real = &real()[window.program.index(real().len())];
    let (at, state) = &real.states[window.state.index(real.states.len())];
    let rules = real.program.rules();
    let span = match window.subset {
        None => window.len,
        Some(_) => window.len * 2,
    }
    .min(rules.len());
    let start = if window.follows {
        (*at).min(rules.len() - span)
    } else {
        window.start.index(rules.len() - span + 1)
    };
    let span = &rules[start..start + span];
    let taken = match window.subset {
        None => span.to_vec(),
        Some((seed, per_mille)) => {
            // splitmix64: a rule is kept when its draw falls under the chance.
            let mut x = seed;
            span.iter()
                .filter(|_| {
                    x = x.wrapping_add(0x9e37_79b9_7f4a_7c15);
                    let mut z = x;
                    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
                    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
                    (z ^ (z >> 31)) % 1000 < u64::from(per_mille)
                })
                .cloned()
                .collect()
        }
    };
    (real.name, taken, start, state.as_str())
}

proptest! {
    #![proptest_config(slow_config(24))]
    #[test]
    fn real_program_windows_agree(window in window()) {
        let (name, rules, start, state) = take(&window);
        let expected = wide_log::expect(exec_compare::validate_case(rules)?, state, WINDOW_CAP);
        let program = expected.program.clone();
        let what = format!("{name} from rule {start}, {window:?}");
        let variants = [
            ("default", Fast::new(program.clone()), true),
            (
                "two cores",
                Fast::new(program.clone())
                    .parallel(2, window.split)
                    .speculate(window.speculate),
                true,
            ),
            ("rope on one core", Fast::new(program.clone()).rope(1, window.piece), false),
            (
                "rope on two cores, % index",
                Fast::new(program).rope(1, window.piece).parallel(2, 1).index_starts(0),
                false,
            ),
        ];
        for (how, fast, observe) in &variants {
            expected
                .check(fast, &format!("{what}, {how}"), *observe)
                .map_err(TestCaseError::fail)?;
        }
    }
}

// ---------------------------------------------------------------------------------------
// (c) Speculation

/// Rules that are not local: their matches may run from one thread into the next (a
/// tournament of two threads, a thread's end with the next one's head, runs of any
/// char), splittable (no anchor, no empty match) or not.
fn crossing_rule() -> impl Strategy<Value = Rule> {
    let fixed = select(
        &[
            (
                "(%%\n#x: ([01]+)\n)(%%\n#x: ([01]+)\n)",
                "%%\n#x: ${4}\n${1}",
            ),
            ("\n%%\n#stack:\n([01]*)\n", "\n%%\n#stack:\n${1}1\n"),
            ("([01])\n%", "${1}${1}\n%"),
            ("(?s:.){64}%%", "%%"),
            ("%%\n#x: [01]{5}\n%%", "%%"),
            ("(#x: [01]*\n)%(%\n#y)", "${1}%p1\n${2}"),
            ("(?s:[^#]){10,70}?%", "-%"),
            ("%%\n([^%]*)%p1\n", "%p1\n${1}%%\n"),
            ("(?m:^)%%\n#x: 1", "%%\n#x: 0"),
            ("[01]{3}\n%%\n#stack:\n", "\n%%\n#stack:\n"),
        ][..],
    )
    .prop_map(|(p, r)| Rule::new(p, r));
    prop_oneof![3 => fixed.boxed(), 1 => shared_counts().prop_flat_map(|s| counted_rule(&s)).boxed()]
}

/// A state of many threads with `x` and `y` values of bits, some paused.
fn many_threads() -> impl Strategy<Value = String> {
    let thread = (
        prop::bool::weighted(0.2),
        prop::option::of("[01]{0,12}"),
        "[01]{1,12}",
        prop::option::of("[01]{1,6}"),
    )
        .prop_map(|(paused, stack, x, y)| {
            let mut t = if paused { "%p1\n" } else { "%%\n" }.to_string();
            if let Some(stack) = stack {
                t.push_str(&format!("#stack:\n{stack}\n"));
            }
            t.push_str(&format!("#x: {x}\n"));
            if let Some(y) = y {
                t.push_str(&format!("#y: {y}\n"));
            }
            t
        });
    (prop::collection::vec(thread, 1..40), 1usize..=30)
        .prop_map(|(t, times)| t.concat().repeat(times))
}

proptest! {
    #![proptest_config(config(400))]
    #[test]
    fn speculating_stretches_agree(
        rules in prop::collection::vec(crossing_rule(), 1..=6),
        state in many_threads(),
        cores in 2usize..=3,
        split in select(&[1usize, 64, 1024][..]),
    ) {
        let program = exec_compare::validate_case(rules)?;
        let program = exec_compare::cut_at_cap(program, std::slice::from_ref(&state), 512 * 1024);
        let reference = Reference::new(program.clone());
        for speculate in [true, false] {
            let fast = Fast::new(program.clone()).parallel(cores, split).speculate(speculate);
            let what = format!("parallel({cores}, {split}), speculate {speculate}");
            compare(&reference, &fast, &state, &what)?;
        }
        let rope = Fast::new(program).rope(1, 128).parallel(cores, split).speculate(true);
        compare(&reference, &rope, &state, "rope(1, 128), speculating")?;
    }
}

// ---------------------------------------------------------------------------------------
// (d) Past the thresholds

/// A thread with lines past the lockstep's 1 KB lane at times.
fn big_thread() -> impl Strategy<Value = String> {
    (
        select(&["%%\n", "%%\n", "%p1\n"][..]),
        prop::collection::vec(
            (
                select(&["#stack:\n", "#x: ", "#b: ", "", "#y: "][..]),
                prop_oneof![
                    4 => "[01]{0,16}",
                    1 => "[01a-h1-8./P]{56,130}",
                    1 => (1024usize..3000).prop_map(|n| "01x".repeat(n / 3)),
                ],
            ),
            0..5,
        ),
    )
        .prop_map(|(head, lines)| {
            let mut t = head.to_string();
            for (name, value) in lines {
                t.push_str(name);
                t.push_str(&value);
                t.push('\n');
            }
            t
        })
}

/// A state of 64 to about 400 KB.
fn large_state() -> impl Strategy<Value = String> {
    (prop::collection::vec(big_thread(), 1..16), 64usize..=400).prop_map(|(threads, kb)| {
        let unit = threads.concat();
        let target = kb * 1024;
        unit.repeat(target.div_ceil(unit.len().max(1)))
    })
}

/// A threshold around `len`: a quarter of it to twice it.
fn around(len: usize, at: Index) -> usize {
    len / 4 + at.index(len * 7 / 4 + 1)
}

proptest! {
    #![proptest_config(config(160))]
    #[test]
    fn states_past_the_thresholds_agree(
        rules in prop::collection::vec(prop_oneof![shared_counts().prop_flat_map(|s| counted_rule(&s)), crossing_rule()], 1..=6),
        state in large_state(),
        (rope, piece, split, index, segment) in (
            any::<Index>(),
            1usize..=40_000,
            any::<Index>(),
            any::<Index>(),
            any::<Index>(),
        ),
    ) {
        let program = exec_compare::validate_case(rules)?;
        let program = exec_compare::cut_at_cap(program, std::slice::from_ref(&state), 1 << 20);
        let expected = wide_log::expect(program.clone(), &state, usize::MAX);
        let len = state.len();
        let (rope, split) = (around(len, rope), around(len, split));
        let (index, segment) = (around(len, index), around(len, segment));
        let variants = [
            ("default", Fast::new(program.clone()), true),
            ("parallel(2, DEFAULT_SPLIT_MIN)", Fast::new(program.clone()).parallel(2, DEFAULT_SPLIT_MIN), false),
            ("rope around the state's size", Fast::new(program.clone()).rope(rope, piece), true),
            (
                "two cores around the state's size",
                Fast::new(program.clone()).rope(rope, piece).parallel(2, split).speculate(true),
                true,
            ),
            ("% index around the state's size", Fast::new(program.clone()).index_starts(index), false),
            ("segments around the state's size", Fast::new(program).segmented(segment), false),
        ];
        for (what, fast, observe) in &variants {
            let what = format!("{what} (rope {rope}/{piece}, split {split}, index {index}, segments {segment})");
            expected.check(fast, &what, *observe).map_err(TestCaseError::fail)?;
        }
    }
}

proptest! {
    #![proptest_config(slow_config(8))]
    #[test]
    fn a_state_past_the_rope_threshold_agrees(window in window(), len in 50usize..=200) {
        let (name, rules, start, state) = take(&window);
        let times = DEFAULT_ROPE_MIN.div_ceil(state.len().max(1)) + 1;
        let state = state.repeat(times);
        let rules = rules[..len.min(rules.len())].to_vec();
        let expected = wide_log::expect(exec_compare::validate_case(rules)?, &state, 3 * DEFAULT_ROPE_MIN);
        let program = expected.program.clone();
        let what = format!("{name} from rule {start} on {} bytes", state.len());
        let default = Fast::new(program.clone());
        expected.check(&default, &format!("{what}, default"), false).map_err(TestCaseError::fail)?;
        let two = Fast::new(program).parallel(2, DEFAULT_SPLIT_MIN);
        expected.check(&two, &format!("{what}, two cores"), false).map_err(TestCaseError::fail)?;
    }
}
