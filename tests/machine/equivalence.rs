//! Property tests proving that the fast executor equals the reference executor byte for byte.
//!
//! Programs are generated in the machine's own dialect (push, pop, dup, swap, lookup,
//! assign, delete, fork, pause and reactivate, cross-thread tournaments) and as freely
//! composed patterns (classes, alternations, counted and lazy repeats, named and
//! non-participating groups, every anchor the `regex` crate knows, patterns that match the
//! empty string), on states that follow the machine's conventions (up to ~60 threads,
//! active and paused, with stacks and variables, multibyte values) and on states that do
//! not (stray text, the empty string, arbitrary UTF-8). Programs contain runs of identical
//! rules and rules whose literal is absent, which the fast executor handles by skipping.
//!
//! For every case the two executors must agree on:
//! - the final state, through `run`, `run_with_stats`, `run_observed` and a split
//!   `run_range`;
//! - the match count of every rule and the state length after it, with every rule
//!   reported once, in order;
//! - the totals of `run_with_stats`.
//!
//! A failing case prints the `trace::first_divergence` report. The cases are seeded: fixed
//! seeds by default; `REGEX_CHESS_SEED=clock` picks the run's seed from the clock (CI's
//! rotating run, `.ci/run`) and `REGEX_CHESS_SEED=<number>` replays that run; each
//! property prints the seed it ran from, which a failing test's output shows (see
//! docs/fuzzing.md). `PROPTEST_RNG_SEED` still sets proptest's seed itself and
//! `PROPTEST_CASES` how many cases run per test. Plain `cargo test` runs a quarter of each property's cases;
//! `REGEX_CHESS_VOLUME=half` half of them,
//! `REGEX_CHESS_VOLUME=full` all. The last tests check the trace module itself against an executor that is wrong
//! on purpose.

use proptest::prelude::*;
use proptest::sample::{Index, select};
use proptest::test_runner::{Config, TestCaseError};
use regex_chess_machine::exec::fast::{self, Fast};
use regex_chess_machine::exec::reference::Reference;
use regex_chess_machine::exec::{Executor, Observer, RuleReport, StateTooLarge, trace};
use regex_chess_machine::program::{Origin, Program, Rule, ValidProgram};

use exec_compare::Recorder;
use regex_chess_testkit::exec_compare;
use regex_chess_testkit::volume;

// ---------------------------------------------------------------------------------------
// Configuration

/// A state larger than this after some rule ends the program there (forks and empty-match
/// insertions grow the state geometrically; the interesting behaviour is long visible by
/// then).
const STATE_CAP: usize = 96 * 1024;

/// `cases` cases of this file (see `common/volume.rs`: the share, the fixed or rotating
/// seed), shrinking a failure for up to 2,048 steps.
fn config(cases: u32) -> Config {
    Config {
        max_shrink_iters: 2048,
        ..volume::config("equivalence", 0x5eed_c4e5_5000, cases)
    }
}

// ---------------------------------------------------------------------------------------
// The comparison

/// Validates `rules`, cut where the reference's state outgrows `limit` on any of
/// `states` (see `exec_compare::cut_at_cap`).
fn prepare(
    rules: Vec<Rule>,
    states: &[String],
    limit: usize,
) -> Result<ValidProgram, TestCaseError> {
    let valid = exec_compare::validate_case(rules)?;
    Ok(exec_compare::cut_at_cap(valid, states, limit))
}

/// Runs `rules` on `state` with both executors and fails on any difference.
fn check(rules: Vec<Rule>, state: &str) -> Result<(), TestCaseError> {
    let states = [state.to_string()];
    let program = prepare(rules, &states, STATE_CAP)?;
    let reference = Reference::new(program.clone());
    // Patterns compiled ahead by a helper thread, and by the run alone.
    let ahead = Fast::new(program.clone()).compile_ahead(true);
    compare(&reference, &ahead, state)?;
    // Several cores, cutting every state (even a few bytes) into two and three pieces.
    compare(
        &reference,
        &Fast::new(program.clone()).parallel(2, 1),
        state,
    )?;
    let alone = Fast::new(program.clone())
        .parallel(3, 1)
        .compile_ahead(false);
    compare(&reference, &alone, state)?;
    // The rope on every state, cut at every thread boundary (one piece each), on one
    // core and on two; each piece keeping its index of `%` bytes, on one core and on two.
    compare(&reference, &Fast::new(program.clone()).rope(1, 1), state)?;
    compare(
        &reference,
        &Fast::new(program.clone()).rope(1, 1).parallel(2, 1),
        state,
    )?;
    let indexed = Fast::new(program.clone()).rope(1, 1).index_starts(0);
    compare(&reference, &indexed, state)?;
    compare(&reference, &indexed.parallel(2, 1), state)?;
    // The thread-segmented state on every state, alone and with two cores.
    compare(&reference, &Fast::new(program.clone()).segmented(1), state)?;
    compare(
        &reference,
        &Fast::new(program.clone()).segmented(1).parallel(2, 1),
        state,
    )?;
    // Patterns compiled from the program cache's stored forms, as in a fresh process
    // with a cached program. The table is global to the process: forgetting it after the
    // case keeps the test's memory flat (another test's case forgetting it meanwhile only
    // sends this one's patterns through their parse, which is checked as well).
    let table = fast::parse_table(program.rules().iter().map(|rule| rule.pattern.as_str()));
    prop_assert!(fast::remember_parses(&table).is_ok());
    let stored = compare(&reference, &Fast::new(program.clone()), state);
    fast::forget_parses();
    stored?;
    check_at_the_limit(&program, &reference, state)
}

/// With a state limit just under the widest state the run reaches, and halfway between
/// the given state's length and it, both executors must stop at the same rule with the
/// same error, the rules before it reported alike (`exec_compare::compare` compares
/// runs that end at the limit too): flat, and with the rope on two cores.
fn check_at_the_limit(
    program: &ValidProgram,
    reference: &Reference,
    state: &str,
) -> Result<(), TestCaseError> {
    let (_, stats) = reference
        .run_with_stats(state)
        .map_err(|e| TestCaseError::fail(e.to_string()))?;
    let widest = stats.max_state_len;
    if widest <= state.len() {
        return Ok(());
    }
    // One limit a case (both kinds over the cases, half the cost of trying both on
    // each): just under the widest state, or halfway up to it.
    let limit = if state.len().is_multiple_of(2) {
        widest - 1
    } else {
        state.len() + (widest - state.len()) / 2
    };
    {
        let reference = Reference::new(program.clone()).with_max_state(limit);
        prop_assert!(
            reference.run(state).is_err(),
            "the limit {limit} stops no rule"
        );
        let flat = Fast::new(program.clone()).with_max_state(limit);
        compare(&reference, &flat, state)?;
        let rope = Fast::new(program.clone())
            .rope(1, 1)
            .parallel(2, 1)
            .with_max_state(limit);
        compare(&reference, &rope, state)?;
    }
    Ok(())
}

/// Every way of running `fast` on `state` must give what `reference` gives.
fn compare(reference: &Reference, fast: &Fast, state: &str) -> Result<(), TestCaseError> {
    exec_compare::compare(reference, fast, state).map_err(TestCaseError::fail)
}

// ---------------------------------------------------------------------------------------
// States

const NAMES: &[&str] = &["x", "y", "sq", "best", "score"];
const TAGS: &[&str] = &["p1", "p2", "else3", "q", "w"];

/// One value line's text: never `%` or a newline, never starting with `#`.
fn value() -> impl Strategy<Value = String> {
    prop_oneof![
        2 => Just(String::new()),
        3 => select(&["True", "False"][..]).prop_map(str::to_string),
        4 => "[01]{1,8}",
        3 => "[a-h][1-8]",
        2 => "[a-h][1-8][a-h][1-8][qrbn]?",
        2 => "[♔♕♖♗♘♙♚♛♜♝♞♟·é]{1,4}",
        2 => "[a-z0-9 _$:]{1,6}",
    ]
}

/// One thread: its marker line, maybe a stack, then variables.
fn thread() -> impl Strategy<Value = String> {
    (
        prop_oneof![3 => Just(None), 1 => select(TAGS).prop_map(Some)],
        prop::option::weighted(0.9, prop::collection::vec(value(), 0..5)),
        prop::collection::vec((select(NAMES), value()), 0..4),
    )
        .prop_map(|(tag, stack, vars)| {
            let mut thread = match tag {
                None => "%%\n".to_string(),
                Some(tag) => format!("%{tag}\n"),
            };
            if let Some(stack) = stack {
                thread.push_str("#stack:\n");
                for value in stack {
                    thread.push_str(&value);
                    thread.push('\n');
                }
            }
            for (name, value) in vars {
                thread.push_str(&format!("#{name}: {value}\n"));
            }
            thread
        })
}

/// A state that follows the machine's conventions.
fn machine_state() -> impl Strategy<Value = String> {
    prop_oneof![
        1 => prop::collection::vec(thread(), 0..4).prop_map(|t| t.concat()),
        3 => prop::collection::vec(thread(), 0..60).prop_map(|t| t.concat()),
    ]
}

/// Inserts `junk` into `state` at a character boundary chosen by `at`.
fn insert_at(state: String, at: Index, junk: String) -> String {
    let boundaries: Vec<usize> = state
        .char_indices()
        .map(|(i, _)| i)
        .chain(std::iter::once(state.len()))
        .collect();
    let at = boundaries[at.index(boundaries.len())];
    let mut out = state;
    out.insert_str(at, &junk);
    out
}

/// A state that breaks the conventions: executors must agree on every UTF-8 string.
fn stray_state() -> impl Strategy<Value = String> {
    prop_oneof![
        1 => Just(String::new()),
        3 => "[%#\n\r a-z01:♟é$]{0,60}",
        2 => "\\PC{0,40}",
        1 => any::<String>(),
        3 => (machine_state(), any::<Index>(), "[%#\n\r♟x ]{1,6}")
            .prop_map(|(s, at, junk)| insert_at(s, at, junk)),
    ]
}

fn any_state() -> impl Strategy<Value = String> {
    prop_oneof![3 => machine_state(), 1 => stray_state()]
}

// ---------------------------------------------------------------------------------------
// Rules in the machine's dialect

/// The parameters a dialect rule may use.
#[derive(Clone, Debug)]
struct Params {
    name: &'static str,
    tag: &'static str,
    value: String,
    pick: usize,
}

fn params() -> impl Strategy<Value = Params> {
    (select(NAMES), select(TAGS), value(), 0usize..16).prop_map(|(name, tag, value, pick)| Params {
        name,
        tag,
        value,
        pick,
    })
}

/// How many instruction shapes [`dialect`] knows.
const DIALECT_KINDS: u8 = 36;

/// An instruction-shaped rule. Each works on active threads (`%%\n`) only, like the
/// compiler's output, except the few that deliberately look elsewhere.
fn dialect(kind: u8, p: &Params) -> Rule {
    let Params {
        name,
        tag,
        value,
        pick,
    } = p;
    let value = value.replace('$', "$$");
    let (pattern, replacement): (String, String) = match kind {
        0 => ("(%%\n#stack:\n)".into(), format!("${{1}}{value}\n")),
        1 => ("(%%\n#stack:\n)[^\n]*\n".into(), "$1".into()),
        2 => ("(%%\n#stack:\n)([^\n]*\n)".into(), "$1$2$2".into()),
        3 => (
            "(%%\n#stack:\n)([^\n]*\n)([^\n]*\n)".into(),
            "$1$3$2".into(),
        ),
        4 => (
            format!("(%%\n#stack:\n)([^%]*#{name}: ([^\n]*)\n)"),
            "${1}${3}\n${2}".into(),
        ),
        5 => (format!("(%%\n[^%]*)#{name}: [^\n]*\n"), "$1".into()),
        6 => (
            "(%%\n#stack:\n)([^\n]*)\n([^%]*)".into(),
            format!("${{1}}${{3}}#{name}: ${{2}}\n"),
        ),
        7 => ("%%\n([^%]*)".into(), "%%\n${1}%%\n${1}".into()),
        8 => (
            "%%\n(#stack:\n)([^%]*)".into(),
            "%%\n${1}True\n${2}%%\n${1}False\n${2}".into(),
        ),
        9 => ("%%\n".into(), format!("%{tag}\n")),
        10 => ("%%\n(#stack:\n)False\n".into(), format!("%{tag}\n${{1}}")),
        11 => ("%%\n(#stack:\n)True\n".into(), "%%\n${1}".into()),
        12 => (format!("%{tag}\n"), "%%\n".into()),
        13 => ("(%%\n[^%]*)(%%\n[^%]*)".into(), "$1".into()),
        14 => (
            "(%%\n#stack:\n)0([^%]*)(%%\n#stack:\n)1([^%]*)".into(),
            "${3}1${4}".into(),
        ),
        15 => ("(%%\n[^%]*)(%%\n[^%]*)".into(), "$2$1".into()),
        16 => ("(%%\n#stack:\n)[01]([01]*)\n".into(), "${1}${2}\n".into()),
        17 => (
            "(%%\n#stack:\n)([01]*)0(1*)\n".into(),
            "${1}${2}1${3}\n".into(),
        ),
        18 => (
            "(%%\n#stack:\n)([01]{4})([01]{0,4})\n".into(),
            "$1$3\n$2\n".into(),
        ),
        19 => (
            "(?P<head>%%\n#stack:\n)(?<top>[^\n]*)\n".into(),
            "${head}${top}\n$top\n".into(),
        ),
        20 => ("(%%\n#stack:\n)([♔♕♖♗♘♙])".into(), "${1}♟$2".into()),
        21 => ("é".into(), "e".into()),
        22 => (
            "(%%\n#stack:\n)(?:(True)|(False))\n".into(),
            "${1}[$2|$3]\n".into(),
        ),
        23 => ("(%%\n#stack:\n)".into(), "${1}$$\n".into()),
        24 => ("%absent\n([^%]*)".into(), "%%\n$1".into()),
        25 => ("#nosuchvar: ([^\n]*)\n".into(), String::new()),
        26 => ("(%%\n#stack:\n)".into(), "$1".into()),
        27 => ("True".into(), "True".into()),
        28 => ("(%%\n#stack:\n)e4\n".into(), "${1}True\n".into()),
        29 => ("\\A%%\n".into(), format!("%{tag}\n")),
        30 => (format!("(?m)^#{name}: "), format!("#{name}: {value}")),
        31 => (
            "(%%\n#stack:\n)([a-h])([1-8])".into(),
            "${1}${3}${2}".into(),
        ),
        32 => (format!("%{tag}\n[^%]*"), String::new()),
        33 => ("(%%\n#stack:\n[^\n]*\n)[^%]*".into(), "$1".into()),
        34 => {
            let patterns = [
                "",
                "a*",
                "x?",
                "(%%)?",
                "(?m)^",
                "$",
                "\\b",
                "\\A",
                "\\z",
                "(?m)$",
                "[01]*",
                "\\B",
                "(?:%%\n)*",
                "[^%]*",
                "[^\n]*",
                "é*",
                "♟?",
            ];
            let replacements = ["", ".", "[$0]", "${0}${0}", "♙", "\n"];
            (
                patterns[pick % patterns.len()].into(),
                replacements[(pick / 3) % replacements.len()].into(),
            )
        }
        _ => {
            let stride = 1 + pick % 4;
            (
                format!("(%%\n#stack:\n)([01])([01]{{{stride}}})([01])"),
                "${1}${4}${3}${2}".into(),
            )
        }
    };
    Rule::new(pattern, replacement)
}

fn dialect_rule() -> impl Strategy<Value = Rule> {
    (0..DIALECT_KINDS, params()).prop_map(|(kind, p)| dialect(kind, &p))
}

// ---------------------------------------------------------------------------------------
// Freely composed patterns

const LITERALS: &[&str] = &[
    "%%\\n",
    "%%",
    "%",
    "\\n",
    "#stack:\\n",
    "#",
    "True",
    "False",
    "0",
    "1",
    "01",
    "e4",
    "♟",
    "♔",
    "é",
    "a",
    "x",
    ": ",
    " ",
    "%p1\\n",
    "#x: ",
    "T",
    "\\.",
    "\\$",
    "\\x25",
    "\\u{265F}",
    "\\\\",
    "\\r",
];
const CLASSES: &[&str] = &[
    "[^%]",
    "[^\\n]",
    "[^%\\n]",
    "[01]",
    "[a-h]",
    "[1-8]",
    ".",
    "(?s:.)",
    "\\d",
    "\\w",
    "\\s",
    "\\S",
    "[♔-♟]",
    "\\pL",
    "[[:alpha:]]",
    "[[:digit:]]",
    "[^#%]",
    "[%#]",
    "(?i:t)",
    "[a-z&&[^aeiou]]",
    "[\\x00-\\x7F]",
    "(?-u:\\w)",
    "[^\\x00-\\x7F]",
];
const ANCHORS: &[&str] = &[
    "^",
    "$",
    "(?m:^)",
    "(?m:$)",
    "\\A",
    "\\z",
    "\\b",
    "\\B",
    "(?mR:$)",
    "(?mR:^)",
    "\\b{start}",
    "\\b{end}",
    "\\<",
    "\\>",
    "(?-u:\\b)",
];
const REPEATS: &[&str] = &[
    "*", "+", "?", "{2}", "{0,3}", "{1,}", "*?", "+?", "??", "{1,2}?", "{3}", "{0}", "{0,1}",
];
const FLAGS: &[&str] = &["i", "s", "U", "m", "mR", "is", "-s"];

/// A pattern as a tree, rendered with its groups numbered in order.
#[derive(Clone, Debug)]
enum Node {
    Leaf(&'static str),
    Group(Box<Node>),
    Named(Box<Node>),
    NonCapturing(Box<Node>),
    Flags(&'static str, Box<Node>),
    Concat(Vec<Node>),
    Alternation(Vec<Node>),
    Repeat(Box<Node>, &'static str),
}

/// A group of a rendered pattern: its index and, for a named group, its name.
#[derive(Clone, Debug)]
struct Groups(Vec<Option<String>>);

impl Node {
    fn render(&self, out: &mut String, groups: &mut Groups) {
        match self {
            Node::Leaf(text) => out.push_str(text),
            Node::Group(inner) => {
                groups.0.push(None);
                out.push('(');
                inner.render(out, groups);
                out.push(')');
            }
            Node::Named(inner) => {
                let index = groups.0.len() + 1;
                let name = format!("g{index}");
                let syntax = if index.is_multiple_of(2) { "?P" } else { "?" };
                out.push_str(&format!("({syntax}<{name}>"));
                groups.0.push(Some(name));
                inner.render(out, groups);
                out.push(')');
            }
            Node::NonCapturing(inner) => {
                out.push_str("(?:");
                inner.render(out, groups);
                out.push(')');
            }
            Node::Flags(flags, inner) => {
                out.push_str(&format!("(?{flags}:"));
                inner.render(out, groups);
                out.push(')');
            }
            Node::Concat(parts) => {
                for part in parts {
                    part.render(out, groups);
                }
            }
            Node::Alternation(parts) => {
                out.push_str("(?:");
                for (i, part) in parts.iter().enumerate() {
                    if i > 0 {
                        out.push('|');
                    }
                    part.render(out, groups);
                }
                out.push(')');
            }
            Node::Repeat(inner, suffix) => {
                let bracketed = matches!(
                    **inner,
                    Node::Group(_)
                        | Node::Named(_)
                        | Node::NonCapturing(_)
                        | Node::Flags(..)
                        | Node::Alternation(_)
                );
                if !bracketed {
                    out.push_str("(?:");
                }
                inner.render(out, groups);
                if !bracketed {
                    out.push(')');
                }
                out.push_str(suffix);
            }
        }
    }
}

fn node() -> impl Strategy<Value = Node> {
    let leaf = prop_oneof![
        4 => select(LITERALS).prop_map(Node::Leaf),
        3 => select(CLASSES).prop_map(Node::Leaf),
        1 => select(ANCHORS).prop_map(Node::Leaf),
    ];
    leaf.prop_recursive(4, 20, 4, |inner| {
        prop_oneof![
            2 => inner.clone().prop_map(|n| Node::Group(Box::new(n))),
            1 => inner.clone().prop_map(|n| Node::Named(Box::new(n))),
            1 => inner.clone().prop_map(|n| Node::NonCapturing(Box::new(n))),
            1 => (select(FLAGS), inner.clone()).prop_map(|(f, n)| Node::Flags(f, Box::new(n))),
            3 => prop::collection::vec(inner.clone(), 2..4).prop_map(Node::Concat),
            2 => prop::collection::vec(inner.clone(), 2..4).prop_map(Node::Alternation),
            3 => (inner, select(REPEATS)).prop_map(|(n, r)| Node::Repeat(Box::new(n), r)),
        ]
    })
}

/// One piece of a generated replacement; group pieces choose among the pattern's groups.
#[derive(Clone, Debug)]
enum Piece {
    Text(String),
    Braced(Index),
    Bare(Index),
    Name(Index),
    Dollar,
    LoneDollar,
}

fn piece() -> impl Strategy<Value = Piece> {
    prop_oneof![
        4 => "[a-zT%\n#:♙é ]{0,4}".prop_map(Piece::Text),
        3 => any::<Index>().prop_map(Piece::Braced),
        2 => any::<Index>().prop_map(Piece::Bare),
        2 => any::<Index>().prop_map(Piece::Name),
        1 => Just(Piece::Dollar),
        1 => Just(Piece::LoneDollar),
    ]
}

/// Renders a replacement that names only groups of the pattern, in every syntax
/// `regex` accepts, so that the program validates.
fn render_replacement(pieces: &[Piece], groups: &Groups, open_brace_at_end: bool) -> String {
    let count = groups.0.len() + 1;
    let rendered: Vec<(String, bool)> = pieces
        .iter()
        .map(|piece| match piece {
            Piece::Text(text) => (text.clone(), false),
            Piece::Braced(i) => (format!("${{{}}}", i.index(count)), false),
            Piece::Bare(i) => (format!("${}", i.index(count)), true),
            Piece::Name(i) => {
                let named: Vec<&String> = groups.0.iter().flatten().collect();
                if named.is_empty() {
                    (format!("${{{}}}", i.index(count)), false)
                } else {
                    (format!("${{{}}}", named[i.index(named.len())]), false)
                }
            }
            Piece::Dollar => ("$$".to_string(), false),
            Piece::LoneDollar => ("$-".to_string(), false),
        })
        .collect();
    let mut out = String::new();
    for (i, (text, bare)) in rendered.iter().enumerate() {
        let next_is_word = rendered[i + 1..]
            .iter()
            .map(|(t, _)| t.as_str())
            .find(|t| !t.is_empty())
            .and_then(|t| t.chars().next())
            .is_some_and(|c| c.is_ascii_alphanumeric() || c == '_');
        if *bare && next_is_word {
            out.push_str(&format!("${{{}}}", &text[1..]));
        } else {
            out.push_str(text);
        }
    }
    if open_brace_at_end {
        out.push_str("${");
    }
    out
}

const PREFIXES: &[&str] = &[
    "",
    "",
    "%%\\n#stack:\\n",
    "(%%\\n#stack:\\n)",
    "(%%\\n[^%]*)",
];

fn composed_rule() -> impl Strategy<Value = Rule> {
    (
        select(PREFIXES),
        prop::collection::vec(node(), 1..3),
        prop::bool::weighted(0.15),
        prop::collection::vec(piece(), 0..5),
        prop::bool::weighted(0.05),
    )
        .prop_map(|(prefix, nodes, top_alternation, pieces, brace)| {
            let mut pattern = prefix.to_string();
            let mut counted = Groups(Vec::new());
            for (i, node) in nodes.iter().enumerate() {
                if i > 0 && top_alternation {
                    pattern.push('|');
                }
                node.render(&mut pattern, &mut counted);
            }
            // The groups as `regex` sees them: a trailing group under `{0}` disappears.
            let groups = groups_of(&pattern);
            let replacement = render_replacement(&pieces, &groups, brace);
            Rule::new(pattern, replacement)
        })
}

// ---------------------------------------------------------------------------------------
// Patterns that look for one line of a thread: `L (?:C*\n)* M R [T]`

const LINE_LEADS: &[&str] = &["%%\n#stack:\n", "(%%\n#stack:\n)", "%%\n", "%p1\n", "#"];
const LINE_LOOPS: &[&str] = &[
    "(?:[^%\n]*\n)*",
    "(?:[^%\n]*\n)*",
    "((?:[^%\n]*\n)*)",
    "(?:.*\n)*",
    "(?:[^%#\n]*\n)*",
    "(?:[^%\n]*\n)*?",
    "(?:[^\n]*\n)*",
];
const LINE_MARKS: &[&str] = &["#x: ", "#sq: ", "(#y: )", "#", "", "True\n", "#stack:\n"];
const LINE_RESTS: &[&str] = &[
    "",
    "[01]*",
    "(True|False)",
    "([a-h])([1-8])",
    "[^\n]{2}[1-8]",
    "(?:[^\n]{2})*[1-8]",
    "[^\n]*\n(?:[^%\n]*\n)*#y: ",
    "(?:(a1)\n|(b2)|([a-h][1-8]){2}|é)",
    "[^\n]*(?:1[^\n]{2}[a-h]|[a-h][^\n]{2}1)",
    "[^\n]*\n",
    "(?m:$)",
    "\\b",
    "(?:x|)",
];
const LINE_TAILS: &[&str] = &["", "", "[^%]*", "([^%]*)", ".*", "[^%\n]*", "[^%]+", "\n"];

/// A rule of the shape the `lines` matcher takes, with variants just outside it (lazy
/// loops, tails with a minimum, a free part from [`node`] as `R`), and a replacement
/// that uses the groups.
fn lines_rule() -> impl Strategy<Value = Rule> {
    (
        (select(LINE_LEADS), select(LINE_LOOPS), select(LINE_MARKS)),
        prop_oneof![4 => select(LINE_RESTS).prop_map(Node::Leaf), 1 => node()],
        select(LINE_TAILS),
        prop::bool::weighted(0.3),
        prop::collection::vec(piece(), 0..4),
    )
        .prop_map(|((lead, lines, mark), rest, tail, wrap, pieces)| {
            let mut middle = String::new();
            let mut counted = Groups(Vec::new());
            rest.render(&mut middle, &mut counted);
            let body = format!("{lead}{lines}{mark}{middle}");
            let pattern = if wrap {
                format!("({body}){tail}")
            } else {
                format!("{body}{tail}")
            };
            let groups = groups_of(&pattern);
            Rule::new(pattern.clone(), render_replacement(&pieces, &groups, false))
        })
}

/// Threads with several lines of the same name, lines that look like board rows, and
/// now and then a `%` inside a line or a thread cut short.
fn lines_state() -> impl Strategy<Value = String> {
    let line = prop_oneof![
        3 => (select(&["x", "sq", "y"][..]), value()).prop_map(|(n, v)| format!("#{n}: {v}\n")),
        2 => "#x: [.a-h1-8é]{0,9}\n",
        1 => "[a-h1-8 ]{0,4}\n",
        1 => Just("True\n".to_string()),
        1 => "#x: [a-h1]{0,3}%[a-z]{0,2}\n",
    ];
    let thread = (
        select(&["%%\n#stack:\n", "%%\n#stack:\n", "%p1\n#stack:\n", "%%\n"][..]),
        prop::collection::vec(line, 0..7),
    )
        .prop_map(|(head, lines)| format!("{head}{}", lines.concat()));
    (prop::collection::vec(thread, 0..30), 0usize..3).prop_map(|(threads, cut)| {
        let state = threads.concat();
        // Sometimes cut the last line short (no final newline, or a broken name).
        let keep = state.len().saturating_sub(cut);
        let keep = (0..=keep)
            .rev()
            .find(|&k| state.is_char_boundary(k))
            .unwrap_or(0);
        state[..keep].to_string()
    })
}

// ---------------------------------------------------------------------------------------
// Patterns that parse the text from its start: `\A H M R T`

const START_HEADS: &[&str] = &[
    "[^%]*",
    "([^%]*)",
    "([^%]*\nHistory: ([^\n]*)\n[^%]*)",
    "[^%]*\nMoves:[^\n]*",
    "[^%]*?",
    "(?:[^%\n]*\n)*",
    "(.*\n)*?",
    "",
    "(8 ([a-z.]) ([a-z.])\n7 ([a-z.]))",
];
const START_MARKS: &[&str] = &[
    "(%%\n#stack:\n)",
    "%%\n#stack:\n",
    "(\n[^%]*%%\n#stack:\n)",
    "#x: ",
    "(#y: )",
    "\n",
    "",
];
const START_TAILS: &[&str] = &["", "(?s:.*)", "[^%]*", "([^%]*)", "\n", "\\z", "(?s:(.*))"];

/// A rule that starts with `\A`, as the `play` program's parsing of its input does
/// (`\A([^%]*)(%%\n#stack:\n)([^\n]*)\n`): linear after the `\A` (or, with a free
/// part from [`node`] or a `\\z`, not), with a replacement that uses the groups.
fn text_start_rule() -> impl Strategy<Value = Rule> {
    (
        (select(START_HEADS), select(START_MARKS)),
        prop_oneof![4 => select(LINE_RESTS).prop_map(Node::Leaf), 1 => node()],
        select(START_TAILS),
        prop::bool::weighted(0.3),
        prop::collection::vec(piece(), 0..5),
    )
        .prop_map(|((head, mark), rest, tail, wrap, pieces)| {
            let mut middle = String::new();
            let mut counted = Groups(Vec::new());
            rest.render(&mut middle, &mut counted);
            let body = format!("{head}{mark}{middle}{tail}");
            let pattern = if wrap {
                format!("\\A({body})")
            } else {
                format!("\\A{body}")
            };
            let groups = groups_of(&pattern);
            Rule::new(pattern.clone(), render_replacement(&pieces, &groups, false))
        })
}

/// States for [`text_start_rule`]: a header of lines before the threads (as the `play`
/// program's input has), stray text, or the machine's threads.
fn text_start_state() -> impl Strategy<Value = String> {
    let header = prop::collection::vec(
        prop_oneof![
            2 => "History: [a-h1-8 ]{0,12}\n",
            1 => "Moves:[0-9 ]{0,4}\n",
            1 => "#number: [0-9]{0,3}\n",
            1 => "8 [a-z.] [a-z.]\n7 [a-z.]\n",
            1 => "[a-z :é♟]{0,10}\n",
        ],
        0..5,
    )
    .prop_map(|lines| lines.concat());
    prop_oneof![
        3 => (header, lines_state()).prop_map(|(h, s)| format!("{h}{s}")),
        1 => any_state(),
    ]
}

// ---------------------------------------------------------------------------------------
// Lists: loops of one char and a run without it, `(?:;[^;\n]*)+`

const LIST_LOOPS: &[&str] = &[
    "(?:;[^;\n]*)+",
    "(?:;[^;\n]*)*",
    "(?:;[^;\n]*){1}",
    "(?:;[^;\n]*){2}",
    "(?:;[^;]*)+",
    "(?:é[^é\n]*)+",
    "(?:;[^;\n]*)+?",
    "(?:;[^\n]*)+",
    "(?:;[^;\n]+)+",
    "(?:;[^;\n]*){2,}",
];
const LIST_LEADS: &[&str] = &["(%%\n#stack:\n)", "%%\n#stack:\n", "", "(#x: )"];
const LIST_TAILS: &[&str] = &["\n([^%]*)", "\n", "", "(;?)", "(;[^\n]*)", "([^%]*)"];

/// A rule of the SAN's list forks' shape, `(%%\n#stack:\n)((?:;[^;\n]*){1})((?:;[^;\n]*)+)\n([^%]*)`,
/// whose loops the fast executor merges to resolve groups, with variants it must not
/// merge (lazy, a run that takes the loop's char or needs a char, two turns at least).
fn list_rule() -> impl Strategy<Value = Rule> {
    (
        select(LIST_LEADS),
        prop::collection::vec((select(LIST_LOOPS), prop::bool::ANY), 1..4),
        select(LIST_TAILS),
        prop::collection::vec(piece(), 0..5),
    )
        .prop_map(|(lead, loops, tail, pieces)| {
            let body: String = loops
                .iter()
                .map(|(l, group)| {
                    if *group {
                        format!("({l})")
                    } else {
                        l.to_string()
                    }
                })
                .collect();
            let pattern = format!("{lead}{body}{tail}");
            let groups = groups_of(&pattern);
            Rule::new(pattern.clone(), render_replacement(&pieces, &groups, false))
        })
}

/// Threads whose stack holds lists (`;e4;d4;;Nf3`, some ending in `;`, some with
/// non-ASCII items), and other states.
fn list_state() -> impl Strategy<Value = String> {
    let list = prop::collection::vec("[a-h1-8éNx]{0,3}", 0..6)
        .prop_map(|items| items.iter().map(|i| format!(";{i}")).collect::<String>());
    let thread = (list, prop::collection::vec("[;a-z\n]{0,6}", 0..3))
        .prop_map(|(list, rest)| format!("%%\n#stack:\n{list}\n{}", rest.concat()));
    prop_oneof![
        3 => prop::collection::vec(thread, 0..12).prop_map(|t| t.concat()),
        1 => any_state(),
    ]
}

// ---------------------------------------------------------------------------------------
// Programs

/// How often a rule is written in a row: mostly once, sometimes a run that the fast
/// executor may cut short at a fixpoint.
fn repeat() -> impl Strategy<Value = usize> {
    prop_oneof![8 => Just(1usize), 2 => 2usize..5, 1 => 5usize..10]
}

fn flatten(rules: Vec<(Rule, usize)>) -> Vec<Rule> {
    let mut out = Vec::new();
    for (rule, times) in rules {
        for _ in 0..times {
            out.push(rule.clone());
        }
    }
    out
}

fn dialect_program() -> impl Strategy<Value = Vec<Rule>> {
    prop::collection::vec((dialect_rule(), repeat()), 1..14).prop_map(flatten)
}

fn mixed_rule() -> impl Strategy<Value = Rule> {
    prop_oneof![3 => dialect_rule(), 2 => composed_rule(), 1 => lines_rule()]
}

fn lines_program() -> impl Strategy<Value = Vec<Rule>> {
    let rule = prop_oneof![3 => lines_rule(), 1 => dialect_rule()];
    prop::collection::vec((rule, repeat()), 1..8).prop_map(flatten)
}

fn mixed_program() -> impl Strategy<Value = Vec<Rule>> {
    prop::collection::vec((mixed_rule(), repeat()), 1..10).prop_map(flatten)
}

/// A few rules, each written several times in a row, with rules that match without
/// changing anything (their match counts must still be reported).
fn runs_program() -> impl Strategy<Value = Vec<Rule>> {
    let rule = prop_oneof![
        3 => dialect_rule(),
        1 => composed_rule(),
        1 => select(&[("(%%\n#stack:\n)", "$1"), ("True", "True"), ("(%%\n)", "$1"), ("", "")][..])
            .prop_map(|(p, r)| Rule::new(p, r)),
    ];
    prop::collection::vec((rule, 2usize..10), 1..5).prop_map(flatten)
}

// ---------------------------------------------------------------------------------------
// The properties

proptest! {
    #![proptest_config(config(4000))]
    #[test]
    fn dialect_programs_agree_on_machine_states(
        rules in dialect_program(),
        state in machine_state(),
    ) {
        check(rules, &state)?;
    }
}

proptest! {
    #![proptest_config(config(3500))]
    #[test]
    fn composed_patterns_agree(rules in mixed_program(), state in any_state()) {
        check(rules, &state)?;
    }
}

proptest! {
    #![proptest_config(config(1500))]
    #[test]
    fn every_utf8_state_agrees(rules in mixed_program(), state in stray_state()) {
        check(rules, &state)?;
    }
}

proptest! {
    #![proptest_config(config(1000))]
    #[test]
    fn runs_of_identical_rules_agree(rules in runs_program(), state in any_state()) {
        check(rules, &state)?;
    }
}

proptest! {
    #![proptest_config(config(2500))]
    #[test]
    fn line_lookups_agree(
        rules in lines_program(),
        state in prop_oneof![3 => lines_state(), 1 => any_state()],
    ) {
        check(rules, &state)?;
    }
}

proptest! {
    #![proptest_config(config(2000))]
    /// Rules anchored at the text's start, whose groups the fast executor resolves with
    /// the linear form of what follows the `\A`, among rules that change the text first.
    #[test]
    fn text_start_rules_agree(
        rules in prop::collection::vec(
            (prop_oneof![3 => text_start_rule(), 1 => dialect_rule()], repeat()),
            1..8,
        )
        .prop_map(flatten),
        state in text_start_state(),
    ) {
        check(rules, &state)?;
    }
}

proptest! {
    #![proptest_config(config(2000))]
    /// List rules, whose groups the fast executor resolves with merged loops.
    #[test]
    fn list_rules_agree(
        rules in prop::collection::vec(
            (prop_oneof![3 => list_rule(), 1 => dialect_rule()], repeat()),
            1..8,
        )
        .prop_map(flatten),
        state in list_state(),
    ) {
        check(rules, &state)?;
    }
}

proptest! {
    #![proptest_config(config(60))]
    /// Line lookups on large states, where the choice between anchored and unanchored
    /// search depends on what earlier rules cost.
    #[test]
    fn line_lookups_agree_on_wide_states(
        rules in lines_program(),
        state in lines_state(),
        times in 20usize..200,
    ) {
        let states = [state.repeat(times)];
        let program = prepare(rules, &states, 4 * 1024 * 1024)?;
        let reference = Reference::new(program.clone());
        let fast = Fast::new(program);
        compare(&reference, &fast, &states[0])?;
    }
}

/// A state of hundreds to thousands of threads, where a fast executor may switch to
/// per-thread or parallel strategies.
fn wide_state() -> impl Strategy<Value = String> {
    (prop::collection::vec(thread(), 1..12), 40usize..250)
        .prop_map(|(threads, times)| threads.concat().repeat(times))
}

proptest! {
    #![proptest_config(config(120))]
    #[test]
    fn wide_states_agree(rules in dialect_program(), state in wide_state()) {
        let states = [state];
        let program = prepare(rules, &states, 4 * 1024 * 1024)?;
        let reference = Reference::new(program.clone());
        compare(&reference, &Fast::new(program.clone()), &states[0])?;
        compare(&reference, &Fast::new(program.clone()).rope(1, 1), &states[0])?;
        compare(&reference, &Fast::new(program.clone()).rope(4096, 2048), &states[0])?;
        let indexed = Fast::new(program.clone()).rope(1, 100).index_starts(0);
        compare(&reference, &indexed, &states[0])?;
        compare(&reference, &Fast::new(program).parallel(2, 4096), &states[0])?;
    }
}

/// A wide state with stray `%`s (at line starts too, where the cut points go) and lines
/// without any thread marker spliced in at random places.
fn wide_stray_state() -> impl Strategy<Value = String> {
    let junk = prop_oneof![
        Just("%".to_string()),
        Just("\n%".to_string()),
        Just("\n%%\n".to_string()),
        Just("%%".to_string()),
        "[%\n#a-c01:]{1,6}",
    ];
    (
        wide_state(),
        prop::collection::vec((any::<Index>(), junk), 1..20),
    )
        .prop_map(|(mut state, junks)| {
            for (at, junk) in junks {
                state = insert_at(state, at, junk);
            }
            state
        })
}

proptest! {
    #![proptest_config(config(150))]
    /// Several cores and the rope on one core on wide states with stray `%`s, cut at
    /// several sizes into pieces of several lengths, against the reference.
    #[test]
    fn several_cores_agree_on_wide_stray_states(
        rules in mixed_program(),
        state in wide_stray_state(),
        cores in 2usize..5,
        split_min in prop_oneof![Just(1usize), Just(1000), Just(1 << 16)],
        piece in prop_oneof![Just(1usize), Just(100), Just(1 << 15)],
    ) {
        let states = [state];
        let program = prepare(rules, &states, 4 * 1024 * 1024)?;
        let reference = Reference::new(program.clone());
        let fast = Fast::new(program.clone()).rope(split_min, piece);
        compare(&reference, &fast, &states[0])?;
        compare(&reference, &fast.parallel(cores, split_min), &states[0])?;
        // Each piece keeping its index of `%` bytes, cut from the state's or scanned.
        let indexed = Fast::new(program.clone()).rope(split_min, piece).index_starts(0);
        compare(&reference, &indexed, &states[0])?;
        compare(&reference, &indexed.parallel(cores, split_min), &states[0])?;
    }
}

proptest! {
    #![proptest_config(config(400))]
    /// One executor, built once, runs several states, from two threads at once: nothing
    /// from one run may leak into another.
    #[test]
    fn one_executor_serves_many_states(
        rules in mixed_program(),
        states in prop::collection::vec(any_state(), 2..5),
    ) {
        let program = prepare(rules, &states, STATE_CAP)?;
        let reference = Reference::new(program.clone());
        let fast = Fast::new(program);
        for state in &states {
            compare(&reference, &fast, state)?;
        }
        let results: Vec<Result<(), TestCaseError>> = std::thread::scope(|scope| {
            let handles: Vec<_> = [0, 1]
                .into_iter()
                .map(|parity| {
                    let (reference, fast, states) = (&reference, &fast, &states);
                    scope.spawn(move || {
                        for state in states.iter().skip(parity).step_by(2) {
                            compare(reference, fast, state)?;
                        }
                        Ok(())
                    })
                })
                .collect();
            handles.into_iter().map(|h| h.join().unwrap()).collect()
        });
        for result in results {
            result?;
        }
    }
}

/// Every generated rule validates: the generators build patterns from pieces rather than
/// filtering.
#[test]
fn generated_rules_validate() {
    use proptest::strategy::ValueTree;
    use proptest::test_runner::TestRunner;
    let mut runner = TestRunner::new(config(1));
    let strategy = mixed_rule();
    for _ in 0..3000 {
        let rule = strategy.new_tree(&mut runner).unwrap().current();
        if let Err(e) = Program::from_rules(vec![rule.clone()]).validate() {
            panic!("{rule:?} does not validate: {e}");
        }
    }
}

/// The cap on a case's state: a rule that outgrows it is kept while its state stays
/// within four times the cap, and cut off (with the rules after it) beyond that.
#[test]
fn cap_keeps_a_rule_that_outgrows_it_a_little() {
    let grow = |by: usize| Rule::new("", "x".repeat(by));
    let rules = vec![grow(1), grow(2), grow(3), Rule::new("x", "y")];
    let states = ["ab".to_string()];
    // "ab" (2 bytes) -> 5 -> 17 -> 71 -> 71.
    let kept = |limit: usize| {
        prepare(rules.clone(), &states, limit)
            .unwrap()
            .rules()
            .len()
    };
    assert_eq!(kept(1000), 4, "nothing outgrows the cap");
    assert_eq!(kept(20), 3, "the third rule's 71 bytes are within 4 x 20");
    assert_eq!(kept(17), 2, "the third rule's 71 bytes exceed 4 x 17");
    assert_eq!(
        kept(4),
        1,
        "the first rule's 5 bytes outgrow 4, within 4 x 4"
    );
    assert_eq!(kept(1), 0, "the first rule's 5 bytes exceed 4 x 1");
}

/// Hand-picked cases where `replace_all`'s handling of empty matches, anchors and
/// multibyte text is easy to get wrong.
#[test]
fn tricky_cases_agree() {
    let cases: &[(&str, &str, &str)] = &[
        ("a*", "-", "baaab"),
        ("a*", "[$0]", "aaa"),
        ("", ".", "♔é"),
        ("x?", "+", "♟x♟"),
        ("(%%)?", "<$1>", "%%\n#stack:\n%p1\n"),
        ("(?m)^", "> ", "a\nb\n"),
        ("(?m)$", "<", "a\nb\n"),
        ("(?mR)$", "<", "a\r\nb\r\n"),
        ("$", "END", "a\n"),
        ("\\b", "|", "e4 ♟é x"),
        ("\\B", "|", "e4 ♟é"),
        ("\\A|\\z", "!", ""),
        ("[^%]*", "X", "%%\nab%p1\n"),
        ("(%%\n[^%]*)(%%\n[^%]*)", "$2$1", "%%\na\n%%\nb\n%%\nc\n"),
        ("(?:(True)|False)", "[$1]", "True False"),
        ("(?P<a>e)(?<b>4)", "${b}${a}$$", "e4e4"),
        (
            "%%\n([^%]*)",
            "%%\n${1}%%\n${1}",
            "%%\n#stack:\n♟\n%p\n#stack:\n",
        ),
        ("(?U)a+", "b", "aaa"),
        ("(?i)true", "T", "TRUE true tRuE"),
        ("\\b{start}|\\b{end}", "'", "ab cd"),
    ];
    for (pattern, replacement, state) in cases {
        let rules = vec![Rule::new(*pattern, *replacement); 3];
        if let Err(e) = check(rules, state) {
            panic!("{pattern:?} -> {replacement:?} on {state:?}: {e}");
        }
    }
}

/// A rule that matches without changing the state is a fixpoint: the fast executor may skip
/// the identical rules after it, but each of them still has (and must report) the same
/// matches as the one before it.
#[test]
fn rules_skipped_at_a_fixpoint_report_their_matches() {
    let state = "%%\n#stack:\nTrue\n%%\n#stack:\n%p1\n#stack:\n";
    let program = Program::from_rules(vec![Rule::new("(%%\n#stack:\n)", "$1"); 4])
        .validate()
        .unwrap();
    let fast = Fast::new(program.clone());
    let mut observed = Recorder::default();
    assert_eq!(fast.run_observed(state, &mut observed).unwrap(), state);
    let matches: Vec<usize> = observed.reports.iter().map(|(_, r)| r.matches).collect();
    assert_eq!(matches, [2, 2, 2, 2], "{:?}", observed.reports);
    assert_eq!(fast.run_with_stats(state).unwrap().1.matches, 8);
    let reference = Reference::new(program);
    assert_eq!(reference.run_with_stats(state).unwrap().1.matches, 8);
}

// ---------------------------------------------------------------------------------------
// The trace module against an executor that is wrong on purpose

/// The reference executor, except that the output of rule `bad` gets `<BUG>` inserted in
/// its middle.
struct Corrupting {
    inner: Reference,
    bad: usize,
}

impl Corrupting {
    fn new(program: ValidProgram, bad: usize) -> Corrupting {
        Corrupting {
            inner: Reference::new(program),
            bad,
        }
    }
}

fn corrupt(state: &str) -> String {
    let mut middle = state.len() / 2;
    while !state.is_char_boundary(middle) {
        middle += 1;
    }
    format!("{}<BUG>{}", &state[..middle], &state[middle..])
}

impl Executor for Corrupting {
    fn name(&self) -> &'static str {
        "corrupt"
    }

    fn program(&self) -> &ValidProgram {
        self.inner.program()
    }

    fn run_range(
        &self,
        state: &str,
        range: std::ops::Range<usize>,
        observer: &mut dyn Observer,
    ) -> Result<String, StateTooLarge> {
        let mut state = state.to_string();
        for index in range {
            let matches = self.inner.count_matches(index, &state);
            state = self.inner.apply(index, &state);
            if index == self.bad {
                state = corrupt(&state);
            }
            let report = RuleReport {
                matches,
                skipped: false,
                state_len: state.len(),
            };
            if observer
                .after_rule(index, &report, &|| state.clone())
                .is_break()
            {
                break;
            }
        }
        Ok(state)
    }

    fn max_state(&self) -> usize {
        self.inner.max_state()
    }

    fn set_max_state(&mut self, bytes: usize) {
        self.inner.set_max_state(bytes);
    }
}

fn sample_program() -> ValidProgram {
    Program::from_rules(vec![
        Rule::new("(%%\n#stack:\n)", "${1}e4\n").with_origin(Origin::Text("push e4".into())),
        Rule::new("%%\n([^%]*)", "%%\n${1}%%\n${1}").with_origin(Origin::Emitted {
            instruction: "fork".into(),
            file: "src/chess/search.rs".into(),
            line: 42,
            column: 7,
        }),
        Rule::new("(%%\n#stack:\n)([^\n]*)\n", "${1}♟${2}\n"),
        Rule::new("%%\n", "%p1\n"),
    ])
    .validate()
    .unwrap()
}

#[test]
fn first_divergence_names_the_corrupted_rule() {
    let program = sample_program();
    let state = "%%\n#stack:\nTrue\n#x: 1\n%p2\n#stack:\n";
    let reference = Reference::new(program.clone());
    for bad in 0..program.rules().len() {
        let wrong = Corrupting::new(program.clone(), bad);
        let divergence = trace::first_divergence(&reference, &wrong, state)
            .unwrap_or_else(|| panic!("no divergence found for corrupted rule {bad}"));
        assert_eq!(divergence.index, bad);
        assert_eq!(divergence.rule, program.rules()[bad]);
        let mut none = regex_chess_machine::exec::NoObserver;
        let before = reference.run_range(state, 0..bad, &mut none).unwrap();
        let after = reference.apply(bad, &before);
        assert_eq!(divergence.before, before);
        assert_eq!(divergence.left, ("reference", Ok(after.clone())));
        assert_eq!(divergence.right, ("corrupt", Ok(corrupt(&after))));

        let report = divergence.to_string();
        assert!(
            report.starts_with(&format!("executors diverge at rule {bad} (")),
            "{report}"
        );
        assert!(
            report.contains(&format!("{:?}", program.rules()[bad].pattern)),
            "{report}"
        );
        assert!(report.contains("  reference "), "{report}");
        assert!(report.contains("  corrupt  "), "{report}");
        assert!(report.contains("<BUG>"), "{report}");
        if bad == 1 {
            assert!(
                report.contains("fork at src/chess/search.rs:42:7"),
                "{report}"
            );
        }

        // The other way round names the same rule.
        let swapped = trace::first_divergence(&wrong, &reference, state).unwrap();
        assert_eq!(swapped.index, bad);
        assert_eq!(swapped.left.0, "corrupt");
    }
    // Corrupting a rule the program does not have changes nothing.
    let harmless = Corrupting::new(program.clone(), 99);
    assert!(trace::first_divergence(&reference, &harmless, state).is_none());
    assert!(trace::first_divergence(&reference, &Fast::new(program), state).is_none());
}

proptest! {
    #![proptest_config(config(300))]
    #[test]
    fn first_divergence_finds_any_corrupted_rule(
        rules in mixed_program(),
        state in machine_state(),
        bad in any::<Index>(),
    ) {
        let program = prepare(rules, std::slice::from_ref(&state), STATE_CAP)?;
        let bad = bad.index(program.rules().len());
        let reference = Reference::new(program.clone());
        let wrong = Corrupting::new(program.clone(), bad);
        let divergence = trace::first_divergence(&reference, &wrong, &state);
        prop_assert!(divergence.is_some(), "no divergence found for rule {}", bad);
        let divergence = divergence.unwrap();
        prop_assert_eq!(divergence.index, bad);
        prop_assert_eq!(&divergence.rule, &program.rules()[bad]);
        let left = divergence.left.1.as_deref().unwrap();
        let corrupted = corrupt(left);
        prop_assert_eq!(divergence.right.1.as_deref(), Ok(corrupted.as_str()));
    }
}

/// The capture groups of `pattern` as `regex` numbers and names them (none when it does
/// not compile).
fn groups_of(pattern: &str) -> Groups {
    match regex::Regex::new(pattern) {
        Ok(re) => Groups(
            re.capture_names()
                .skip(1)
                .map(|n| n.map(String::from))
                .collect(),
        ),
        Err(_) => Groups(Vec::new()),
    }
}
