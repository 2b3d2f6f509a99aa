//! The fast executor must equal the reference executor byte for byte: the decoding and
//! the comparison of the fuzz targets `exec_equivalence` (small states, many inputs an
//! hour) and `exec_equivalence_large` (states up to 1 MiB), which differ only in their
//! [`Limits`].
//!
//! An input is decoded into a program and a state, in one of two ways:
//!
//! - **Text form**, for readable seeds: the input starts with `RULES\n`, then one rule per
//!   line as `pattern<TAB>replacement` (the pattern is regex syntax as written; in the
//!   replacement `\n`, `\t` and `\\` stand for a newline, a tab and a backslash), then a
//!   line `STATE`, then the state, byte for byte, to the end of the input.
//! - **Structured form**, anything else: the bytes drive `arbitrary` choices among
//!   instruction shapes of the machine's dialect, pattern fragments (literals, classes,
//!   anchors, groups, alternations, repeats, flags), raw pattern text, runs of identical
//!   rules, and states made of active and paused threads or of raw text.
//!
//! Programs that do not validate are skipped, and so are states longer than the limits'
//! `max_state`. A program is cut after the rule whose state outgrows `state_cap` (before
//! it, when that rule's state is more than four times the cap), and before the first rule
//! that would bring the reference's work past `max_work` (the bytes each rule scans times
//! a share of its pattern's length, `exec_compare::rule_work`): an input's time is then
//! bounded by its limits, not by how slow a pattern can make the `regex` crate. Then the
//! reference and the fast executor in every configuration run it and must agree, as in
//! `tests/machine/equivalence.rs` (the comparison is `crates/testkit/src/exec_compare.rs`): on the
//! final state, on every rule's match count, state length, state (by hash) and `skipped`
//! flag, on the run's totals, on runs stopped early and on rule ranges; a difference
//! panics with what differs. See `docs/fuzzing.md` for what the generator can make.
//!
//! Each run reports its slowest input: a line on standard error whenever an input takes
//! longer than all before it in the process (`equivalence: slowest input so far: ...`).
//!
//! With `EXEC_EQUIVALENCE_DUMP=DIR` set, each case that runs is also written to
//! `DIR/program.json` and `DIR/state.txt` (meant for replaying one crash input).

use arbitrary::{Arbitrary, Unstructured};
use regex_chess_machine::exec::Executor;
use regex_chess_machine::exec::fast::{self, Fast};
use regex_chess_machine::exec::reference::Reference;
use regex_chess_machine::program::{Program, Rule, ValidProgram};

/// The comparison the equivalence tests make too.
use crate::exec_compare;
use crate::pattern_cache;

/// How large a case may be.
pub struct Limits {
    /// The longest decoded state run; longer ones are skipped.
    pub max_state: usize,
    /// The state size after which the program is cut.
    pub state_cap: usize,
    /// The reference's work after which the program is cut.
    pub max_work: u64,
}

/// The default target's limits: states of up to 16 KiB, grown to 64 KiB at most, and a
/// work of about 4 MB scanned. Most cases of the 13 comparisons then take milliseconds,
/// but the bound counts bytes scanned, not matches: a program of empty-match insertions
/// (`\b`, `\B`, `""`) that grows a 114-byte state to 96 KB within the budget took 44 s
/// of CPU under the fuzzing build's instrumentation, against 3.5 s for the same
/// comparisons in an optimised test build (docs/fuzzing.md).
pub const SMALL: Limits = Limits {
    max_state: 16 * 1024,
    state_cap: 64 * 1024,
    max_work: 4 << 20,
};

/// The large target's limits: states of up to 256 KiB, grown to 1 MiB at most, and a
/// work of about 256 MB scanned.
pub const LARGE: Limits = Limits {
    max_state: 256 * 1024,
    state_cap: 1024 * 1024,
    max_work: 256 << 20,
};

const MAX_RULES: usize = 300;
const MAX_PATTERN: usize = 6000;
const MAX_DEPTH: usize = 6;

/// Decodes `data` and compares the executors on it within `limits`.
pub fn run(data: &[u8], limits: &Limits) {
    let started = std::time::Instant::now();
    let decoded = match data.strip_prefix(b"RULES\n") {
        Some(text) => decode_text(text),
        None => decode_structured(data, limits.max_state),
    };
    if let Some((rules, state)) = decoded {
        check(rules, &state, limits, hash(data));
    }
    report_if_slowest(started.elapsed(), data.len());
}

/// The slowest input of this process so far, in microseconds.
static SLOWEST_US: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);

/// Prints a line on standard error whenever an input takes longer than every input before
/// it in this process, so that each run's output ends with its slowest input's time (the
/// last such line) beside libFuzzer's own statistics.
fn report_if_slowest(took: std::time::Duration, bytes: usize) {
    let us = took.as_micros().min(u128::from(u64::MAX)) as u64;
    let before = SLOWEST_US.fetch_max(us, std::sync::atomic::Ordering::Relaxed);
    if us > before {
        eprintln!(
            "equivalence: slowest input so far: {:.3} s ({bytes} bytes)",
            took.as_secs_f64()
        );
    }
}

// ---------------------------------------------------------------------------------------
// Text form

fn decode_text(data: &[u8]) -> Option<(Vec<Rule>, String)> {
    let text = std::str::from_utf8(data).ok()?;
    let (rules, state) = match text.split_once("\nSTATE\n") {
        Some(split) => split,
        // No rules at all: the empty program.
        None => match text.strip_prefix("STATE\n") {
            Some(state) => ("", state),
            None => (text.strip_suffix("\nSTATE")?, ""),
        },
    };
    let mut out = Vec::new();
    for line in rules.lines().filter(|l| !l.is_empty()) {
        let (pattern, replacement) = line.split_once('\t').unwrap_or((line, ""));
        out.push(Rule::new(pattern, unescape(replacement)));
    }
    Some((out, state.to_string()))
}

fn unescape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut chars = text.chars();
    while let Some(c) = chars.next() {
        if c != '\\' {
            out.push(c);
            continue;
        }
        match chars.next() {
            Some('n') => out.push('\n'),
            Some('t') => out.push('\t'),
            Some('\\') => out.push('\\'),
            Some(other) => {
                out.push('\\');
                out.push(other);
            }
            None => out.push('\\'),
        }
    }
    out
}

// ---------------------------------------------------------------------------------------
// Structured form

const NAMES: &[&str] = &["x", "y", "sq", "best"];
const TAGS: &[&str] = &["p1", "p2", "else3", "q"];

/// Instruction shapes; `{name}`, `{tag}` and `{value}` are filled in.
const SHAPES: &[(&str, &str)] = &[
    ("(%%\n#stack:\n)", "${1}{value}\n"),
    ("(%%\n#stack:\n)[^\n]*\n", "$1"),
    ("(%%\n#stack:\n)([^\n]*\n)", "$1$2$2"),
    ("(%%\n#stack:\n)([^\n]*\n)([^\n]*\n)", "$1$3$2"),
    (
        "(%%\n#stack:\n)([^%]*#{name}: ([^\n]*)\n)",
        "${1}${3}\n${2}",
    ),
    ("(%%\n[^%]*)#{name}: [^\n]*\n", "$1"),
    (
        "(%%\n#stack:\n)([^\n]*)\n([^%]*)",
        "${1}${3}#{name}: ${2}\n",
    ),
    ("%%\n([^%]*)", "%%\n${1}%%\n${1}"),
    (
        "%%\n(#stack:\n)([^%]*)",
        "%%\n${1}True\n${2}%%\n${1}False\n${2}",
    ),
    ("%%\n", "%{tag}\n"),
    ("%%\n(#stack:\n)False\n", "%{tag}\n${1}"),
    ("%%\n(#stack:\n)True\n", "%%\n${1}"),
    ("%{tag}\n", "%%\n"),
    ("(%%\n[^%]*)(%%\n[^%]*)", "$1"),
    ("(%%\n[^%]*)(%%\n[^%]*)", "$2$1"),
    (
        "(%%\n#stack:\n)0([^%]*)(%%\n#stack:\n)1([^%]*)",
        "${3}1${4}",
    ),
    ("(%%\n#stack:\n)[01]([01]*)\n", "${1}${2}\n"),
    ("(%%\n#stack:\n)([01]{4})([01]{0,4})\n", "$1$3\n$2\n"),
    (
        "(?P<head>%%\n#stack:\n)(?<top>[^\n]*)\n",
        "${head}${top}\n$top\n",
    ),
    ("(%%\n#stack:\n)(?:(True)|(False))\n", "${1}[$2|$3]\n"),
    ("(%%\n#stack:\n)([♔♕♖♗♘♙])", "${1}♟$2"),
    ("(%%\n#stack:\n)", "${1}$$\n"),
    ("(%%\n#stack:\n)", "$1"),
    ("%absent\n([^%]*)", "%%\n$1"),
    ("(?m)^#{name}: ", "#{name}: {value}"),
    ("\\A%%\n", "%{tag}\n"),
    ("%{tag}\n[^%]*", ""),
    ("(%%\n#stack:\n[^\n]*\n)[^%]*", "$1"),
    // Line lookups: skip whole lines to one line of the thread (see `crates/machine/src/exec/fast/matchers/lines.rs`).
    (
        "%%\n#stack:\n((?:[^%\n]*\n)*#{name}: )([^\n]*)([01])([^%]*)",
        "%%\n#stack:\n${1}${2}<${3}>${4}",
    ),
    (
        "(%%\n#stack:\n(?:[^%\n]*\n)*#{name}: [^\n]{0,2}[0-9][^\n]*\n(?:[^%\n]*\n)*#x: [^\n]*)\n",
        "${1}!\n",
    ),
    (
        "%%\n#stack:\n(?:[^%\n]*\n)*#{name}: (?:[a-h](?:[1-8]\\.)*[1-8]|1[^\n]?)[^%]*",
        "",
    ),
    (
        "(%%\n#stack:\n)(?:(a1)\n.{2}(.)|(e4)\n(.)|(True)\n([^\n]*))",
        "$1[$2$3|$4$5|$6$7]",
    ),
    ("a*", "-"),
    ("(%%)?", "[$1]"),
    ("", "."),
    ("\\b", "|"),
    ("(?m)$", "<"),
    ("é", "e"),
    // A trie of keys with groups at fixed offsets (searched by the lazy DFA in lockstep,
    // see `trie_for_dfa` in `crates/machine/src/exec/fast/pattern/plain.rs`).
    (
        "(%%\n#stack:\n)(?:a1|a2|a3|a4|b1|b2|b3|b4|c1|c2|c3|c4|d1|d2|d3|d4|e4|h8)\n([01]{3})",
        "${1}${2}\n",
    ),
    // The same trie followed by a long counted run (stays on the linear search).
    (
        "(%%\n#stack:\n(?:a1|a2|a3|a4|b1|b2|b3|b4|c1|c2|c3|c4|d1|d2|d3|d4|e4|h8)\n)[^%\n]{24}",
        "${1}~",
    ),
    // Board look-ups: a key, then a long counted run of board characters.
    (
        "(%%\n#stack:\n[^\n]*\n(?:[^%\n]*\n)*#{name}: )[./A-Za-z]{56}([./A-Za-z])",
        "${1}<${2}>",
    ),
    // Counted repeats of 100 and more.
    ("(%%\n#stack:\n)[01]{100}", "${1}C"),
    ("(%%\n#stack:\n)([^%]{100,140})", "${1}[${2}]"),
    ("(?:[^%]{0,3}x){100}", "L"),
    // Word boundaries, whole and half.
    ("\\b{start-half}[a-z]+\\b{end-half}", "<w>"),
    ("\\b[a-h][1-8]\\b", "sq"),
];

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
    "e4",
    "♟",
    "é",
    "a",
    "x",
    ": ",
    " ",
    "%p1\\n",
    "#x: ",
    "\\$",
    "\\x25",
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
    "[♔-♟]",
    "\\pL",
    "[[:alpha:]]",
    "[^#%]",
    "(?i:t)",
    "[^\\x00-\\x7F]",
    "(?-u:\\w)",
    "\\p{Greek}",
    "\\p{N}",
    "[é-ü]",
    "[^a-zα-ω%]",
    "[./A-Za-z]",
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
    "\\b{start}",
    "\\b{end}",
    "(?-u:\\b)",
    "\\b{start-half}",
    "\\b{end-half}",
];
const REPEATS: &[&str] = &[
    "*", "+", "?", "*?", "+?", "??", "{2}", "{0,3}", "{1,}", "{0}",
];
const FLAGS: &[&str] = &["i", "s", "U", "m", "mR", "-s"];
const PREFIXES: &[&str] = &[
    "",
    "%%\\n#stack:\\n",
    "(%%\\n#stack:\\n)",
    "(%%\\n[^%]*)",
    "%%\\n#stack:\\n(?:[^%\\n]*\\n)*#x: ",
    "(%%\\n(?:[^%\\n]*\\n)*#sq: )",
    "%%\\n((?:[^%\\n]*\\n)*)#",
];

fn pick<'a>(table: &[&'a str], i: u8) -> &'a str {
    table[usize::from(i) % table.len()]
}

#[derive(Arbitrary, Debug)]
enum RuleSpec {
    Shape {
        shape: u8,
        name: u8,
        tag: u8,
        value: ValueSpec,
    },
    Composed {
        prefix: u8,
        parts: Vec<Frag>,
        top_alternation: bool,
        replacement: Vec<Rep>,
    },
    Raw {
        pattern: String,
        replacement: String,
    },
    /// The previous rule, written again 1 to 8 times.
    Again(u8),
    /// The previous rule, written again 1 to 256 times (long programs).
    Many(u8),
}

#[derive(Arbitrary, Debug)]
enum Frag {
    Literal(u8),
    Class(u8),
    Anchor(u8),
    Text(String),
    Group(Vec<Frag>),
    Named(Vec<Frag>),
    NonCapturing(Vec<Frag>),
    Flags(u8, Vec<Frag>),
    Alternation(Vec<Frag>, Vec<Frag>),
    Repeat(Box<Frag>, u8),
    Counted(Box<Frag>, u8, u8),
}

#[derive(Arbitrary, Debug)]
enum Rep {
    Text(String),
    Group(u8),
    Bare(u8),
    Named(u8),
    Dollar,
    Raw(String),
}

#[derive(Arbitrary, Debug)]
enum StateSpec {
    Threads(Vec<ThreadSpec>),
    Raw(String),
    /// Threads with raw text inserted at a character boundary.
    Stray(Vec<ThreadSpec>, String, u16),
    /// Threads written again and again: a large state (up to about 4,000 copies).
    Many(Vec<ThreadSpec>, u16),
}

#[derive(Arbitrary, Debug)]
struct ThreadSpec {
    tag: Option<u8>,
    stack: Option<Vec<ValueSpec>>,
    vars: Vec<(u8, ValueSpec)>,
}

#[derive(Arbitrary, Debug)]
enum ValueSpec {
    Empty,
    Bool(bool),
    Bits(u8, u16),
    Square(u8),
    Glyphs(Vec<u8>),
    Text(String),
    /// A board line: 64 squares of piece letters and dots, ranks cut by `/`.
    Board(Vec<u8>),
    /// A long run of bits (100 and more).
    LongBits(u8, u64),
}

impl ValueSpec {
    /// A value line's text: never `%` or a newline, never starting with `#`.
    fn render(&self) -> String {
        match self {
            ValueSpec::Empty => String::new(),
            ValueSpec::Bool(b) => if *b { "True" } else { "False" }.to_string(),
            ValueSpec::Bits(width, bits) => {
                let width = 1 + usize::from(*width) % 12;
                format!("{:016b}", bits)[16 - width..].to_string()
            }
            ValueSpec::Square(i) => {
                let i = usize::from(*i) % 64;
                format!("{}{}", (b'a' + (i % 8) as u8) as char, 1 + i / 8)
            }
            ValueSpec::Glyphs(codes) => {
                const GLYPHS: &[char] = &[
                    '♔', '♕', '♖', '♗', '♘', '♙', '♚', '♛', '♜', '♝', '♞', '♟', '·', 'é',
                ];
                codes
                    .iter()
                    .take(8)
                    .map(|c| GLYPHS[usize::from(*c) % GLYPHS.len()])
                    .collect()
            }
            ValueSpec::Board(codes) => {
                const SQUARES: &[u8] = b"PNBRQKpnbrqk........";
                let mut out = String::new();
                for rank in 0..8 {
                    for file in 0..8 {
                        let code = codes.get(rank * 8 + file).copied().unwrap_or(0);
                        out.push(char::from(SQUARES[usize::from(code) % SQUARES.len()]));
                    }
                    out.push('/');
                }
                out
            }
            ValueSpec::LongBits(extra, bits) => (0..100 + usize::from(*extra))
                .map(|i| if bits >> (i % 64) & 1 == 1 { '1' } else { '0' })
                .collect(),
            ValueSpec::Text(text) => {
                let clean: String = text.chars().filter(|c| *c != '%' && *c != '\n').collect();
                clean.trim_start_matches('#').to_string()
            }
        }
    }
}

impl ThreadSpec {
    fn render(&self, out: &mut String) {
        match self.tag {
            None => out.push_str("%%\n"),
            Some(tag) => {
                out.push('%');
                out.push_str(pick(TAGS, tag));
                out.push('\n');
            }
        }
        if let Some(stack) = &self.stack {
            out.push_str("#stack:\n");
            for value in stack {
                out.push_str(&value.render());
                out.push('\n');
            }
        }
        for (name, value) in &self.vars {
            out.push_str(&format!("#{}: {}\n", pick(NAMES, *name), value.render()));
        }
    }
}

impl StateSpec {
    /// The state; threads written again and again stop short of `max` bytes.
    fn render(&self, max: usize) -> String {
        let threads = |threads: &[ThreadSpec]| {
            let mut out = String::new();
            for thread in threads {
                thread.render(&mut out);
            }
            out
        };
        match self {
            StateSpec::Threads(t) => threads(t),
            StateSpec::Raw(text) => text.clone(),
            StateSpec::Many(t, times) => {
                let unit = threads(t);
                let fits = max / unit.len().max(1);
                unit.repeat((1 + usize::from(*times) % 4096).min(fits.max(1)))
            }
            StateSpec::Stray(t, junk, at) => {
                let mut out = threads(t);
                let mut at = usize::from(*at) % (out.len() + 1);
                while !out.is_char_boundary(at) {
                    at -= 1;
                }
                out.insert_str(at, junk);
                out
            }
        }
    }
}

impl Frag {
    fn render(&self, out: &mut String, depth: usize) {
        if depth > MAX_DEPTH {
            return;
        }
        let all = |out: &mut String, frags: &[Frag]| {
            for frag in frags {
                frag.render(out, depth + 1);
            }
        };
        match self {
            Frag::Literal(i) => out.push_str(pick(LITERALS, *i)),
            Frag::Class(i) => out.push_str(pick(CLASSES, *i)),
            Frag::Anchor(i) => out.push_str(pick(ANCHORS, *i)),
            Frag::Text(text) => out.push_str(&regex::escape(text)),
            Frag::Group(frags) => {
                out.push('(');
                all(out, frags);
                out.push(')');
            }
            Frag::Named(frags) => {
                // Numbered by position in the pattern, so names never repeat.
                out.push_str(&format!("(?P<n{}>", out.len()));
                all(out, frags);
                out.push(')');
            }
            Frag::NonCapturing(frags) => {
                out.push_str("(?:");
                all(out, frags);
                out.push(')');
            }
            Frag::Flags(flags, frags) => {
                out.push_str(&format!("(?{}:", pick(FLAGS, *flags)));
                all(out, frags);
                out.push(')');
            }
            Frag::Alternation(left, right) => {
                out.push_str("(?:");
                all(out, left);
                out.push('|');
                all(out, right);
                out.push(')');
            }
            Frag::Repeat(inner, op) => {
                out.push_str("(?:");
                inner.render(out, depth + 1);
                out.push(')');
                out.push_str(pick(REPEATS, *op));
            }
            Frag::Counted(inner, min, extra) => {
                // Small counts mostly; up to 127 (and a range of up to 15 more) at times.
                let min = if min & 0x80 == 0 { min % 4 } else { min & 0x7f };
                out.push_str("(?:");
                inner.render(out, depth + 1);
                out.push_str(&format!("){{{},{}}}", min, min + extra % 16));
            }
        }
    }
}

fn render_replacement(pieces: &[Rep], groups: &[Option<&str>]) -> String {
    let mut out = String::new();
    for piece in pieces {
        match piece {
            Rep::Text(text) => out.push_str(&text.replace('$', "$$")),
            Rep::Group(i) => out.push_str(&format!("${{{}}}", usize::from(*i) % groups.len())),
            Rep::Bare(i) => out.push_str(&format!("${}", usize::from(*i) % groups.len())),
            Rep::Named(i) => {
                let named: Vec<&str> = groups.iter().flatten().copied().collect();
                match named.get(usize::from(*i) % named.len().max(1)) {
                    Some(name) => out.push_str(&format!("${{{name}}}")),
                    None => out.push_str("${0}"),
                }
            }
            Rep::Dollar => out.push_str("$$"),
            Rep::Raw(text) => out.push_str(text),
        }
    }
    out
}

fn build_rule(spec: &RuleSpec, previous: Option<&Rule>, out: &mut Vec<Rule>) {
    match spec {
        RuleSpec::Shape {
            shape,
            name,
            tag,
            value,
        } => {
            let (pattern, replacement) = SHAPES[usize::from(*shape) % SHAPES.len()];
            let fill = |s: &str, value: &str| {
                s.replace("{name}", pick(NAMES, *name))
                    .replace("{tag}", pick(TAGS, *tag))
                    .replace("{value}", value)
            };
            let value = value.render().replace('$', "$$");
            out.push(Rule::new(fill(pattern, ""), fill(replacement, &value)));
        }
        RuleSpec::Composed {
            prefix,
            parts,
            top_alternation,
            replacement,
        } => {
            let mut pattern = pick(PREFIXES, *prefix).to_string();
            for (i, part) in parts.iter().enumerate() {
                if i > 0 && *top_alternation {
                    pattern.push('|');
                }
                part.render(&mut pattern, 0);
            }
            if pattern.len() > MAX_PATTERN {
                return;
            }
            let Ok(re) = pattern_cache::compile(&pattern) else {
                return;
            };
            let groups: Vec<Option<&str>> = re.capture_names().collect();
            let replacement = render_replacement(replacement, &groups);
            out.push(Rule::new(pattern, replacement));
        }
        RuleSpec::Raw {
            pattern,
            replacement,
        } => {
            if pattern.len() <= MAX_PATTERN {
                out.push(Rule::new(pattern.as_str(), replacement.as_str()));
            }
        }
        RuleSpec::Many(times) => {
            if let Some(rule) = previous {
                for _ in 0..=usize::from(*times) {
                    out.push(rule.clone());
                }
            }
        }
        RuleSpec::Again(times) => {
            if let Some(rule) = previous {
                for _ in 0..1 + times % 8 {
                    out.push(rule.clone());
                }
            }
        }
    }
}

fn decode_structured(data: &[u8], max_state: usize) -> Option<(Vec<Rule>, String)> {
    let mut u = Unstructured::new(data);
    let state = StateSpec::arbitrary(&mut u).ok()?.render(max_state);
    let specs: Vec<RuleSpec> = Vec::arbitrary_take_rest(u).ok()?;
    let mut rules = Vec::new();
    for spec in &specs {
        let previous = rules.last().cloned();
        build_rule(spec, previous.as_ref(), &mut rules);
        if rules.len() >= MAX_RULES {
            break;
        }
    }
    Some((rules, state))
}

// ---------------------------------------------------------------------------------------
// The comparison

/// Writes the decoded case as `program.json` and `state.txt` in `dir`, ready for
/// `regex-chess run program.json --state state.txt --trace`.
fn dump(dir: &std::path::Path, program: &ValidProgram, state: &str) {
    std::fs::create_dir_all(dir).expect("create the dump directory");
    regex_chess_machine::program::json::save(program.program(), &dir.join("program.json"))
        .expect("write program.json");
    std::fs::write(dir.join("state.txt"), state).expect("write state.txt");
}

/// Validates with the process's cache of compiled patterns (`pattern_cache`): the
/// patterns an input shares with the inputs before it are not compiled again.
fn validate(rules: Vec<Rule>) -> Option<ValidProgram> {
    Program::from_rules(rules)
        .validate_with(&mut pattern_cache::compile)
        .ok()
}

/// FNV-1a of the input: what chooses its state limit and its fast configuration, so
/// that an input always runs the same way.
fn hash(data: &[u8]) -> u64 {
    data.iter().fold(0xcbf2_9ce4_8422_2325, |h, &b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    })
}

/// The state limit of an input (by its hash): mostly the limits' `state_cap`; one input
/// in four a limit just above the given state's length (a growing rule soon meets it),
/// one in sixteen half the given state's length (rules may shrink it, or keep its
/// length, and go on).
fn state_limit(hash: u64, state_len: usize, limits: &Limits) -> usize {
    match hash % 16 {
        0 => state_len / 2,
        1..=4 => state_len + 1 + (hash >> 4) as usize % 4096,
        _ => limits.state_cap,
    }
}

/// One way of running the fast executor: its name, how it is built from the program,
/// and whether it compiles its patterns from the program cache's stored forms.
struct Configuration {
    name: &'static str,
    build: fn(ValidProgram) -> Fast,
    stored: bool,
}

/// The configurations an input may run.
const CONFIGURATIONS: &[Configuration] = &[
    Configuration {
        name: "fast",
        build: Fast::new,
        stored: false,
    },
    // The index of `%` bytes kept on every state, not only on large ones.
    Configuration {
        name: "fast with the % index",
        build: |p| Fast::new(p).index_starts(0),
        stored: false,
    },
    // Several cores, every state cut (even a few bytes), into two pieces.
    Configuration {
        name: "fast on two cores",
        build: |p| Fast::new(p).parallel(2, 1),
        stored: false,
    },
    // Every piece of a rule that is not local searched from its own start (the join
    // searches again wherever a match crosses a cut).
    Configuration {
        name: "fast on two cores, speculating",
        build: |p| Fast::new(p).parallel(2, 1).speculate(true),
        stored: false,
    },
    // The rope on every state, cut at every thread boundary, on one core and on two.
    Configuration {
        name: "fast with the rope cut at every boundary",
        build: |p| Fast::new(p).rope(1, 1),
        stored: false,
    },
    Configuration {
        name: "fast with the rope on two cores",
        build: |p| Fast::new(p).rope(1, 1).parallel(2, 1),
        stored: false,
    },
    // The rope whose pieces keep their index of `%` bytes, on one core and on two.
    Configuration {
        name: "fast with the rope and the % index",
        build: |p| Fast::new(p).rope(1, 1).index_starts(0),
        stored: false,
    },
    Configuration {
        name: "fast with the rope and the % index on two cores",
        build: |p| Fast::new(p).rope(1, 1).index_starts(0).parallel(2, 1),
        stored: false,
    },
    // The thread-segmented state on every state, alone and on two cores.
    Configuration {
        name: "fast with the segmented state",
        build: |p| Fast::new(p).segmented(1),
        stored: false,
    },
    Configuration {
        name: "fast segmented on two cores",
        build: |p| Fast::new(p).segmented(1).parallel(2, 1),
        stored: false,
    },
    // Patterns compiled from the program cache's stored forms (what a fresh process
    // with a cached program does), by default and with the rope on two cores.
    Configuration {
        name: "fast from stored forms",
        build: Fast::new,
        stored: true,
    },
    Configuration {
        name: "fast from stored forms with the rope on two cores",
        build: |p| Fast::new(p).rope(1, 1).parallel(2, 1),
        stored: true,
    },
];

/// Compares the reference with one configuration in two ways of running it
/// (`exec_compare::compare_one_way`), both chosen by the input's hash (a corpus covers
/// them all; an input runs in one configuration, not twelve), every run with the
/// input's state limit.
fn check(mut rules: Vec<Rule>, state: &str, limits: &Limits, hash: u64) {
    if state.len() > limits.max_state {
        return;
    }
    rules.truncate(MAX_RULES);
    let Some(program) = validate(rules) else {
        return;
    };
    // The executors' own state limit bounds the state's growth; the program is cut
    // before the rule that would spend the work budget.
    let limit = state_limit(hash, state.len(), limits);
    let reference = Reference::new(program).with_max_state(limit);
    // One run of the reference both cuts the program and records what the rules kept do.
    let (reference, recorded) = exec_compare::record_cut(reference, state, limits.max_work);
    let program = reference.program().clone();

    if let Some(dir) = std::env::var_os("EXEC_EQUIVALENCE_DUMP") {
        dump(std::path::Path::new(&dir), &program, state);
    }
    let configuration = &CONFIGURATIONS[(hash >> 16) as usize % CONFIGURATIONS.len()];
    if configuration.stored {
        let table = fast::parse_table(program.rules().iter().map(|rule| rule.pattern.as_str()));
        if let Err(error) = fast::remember_parses(&table) {
            panic!("the program's own parse table does not read back: {error}");
        }
    }
    let fast = (configuration.build)(program.clone()).with_max_state(limit);
    let result = exec_compare::compare_one_way(&reference, &recorded, &fast, state, hash >> 24);
    if configuration.stored {
        fast::forget_parses();
    }
    if let Err(difference) = result {
        panic!(
            "{} and reference disagree (state limit {limit}): {difference}",
            configuration.name
        );
    }
}
