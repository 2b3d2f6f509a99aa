//! Lists and text: append, concatenate, fixed-width fields, character maps, split, join.
//!
//! | instruction | rules | short or odd input |
//! | --- | --- | --- |
//! | list_push, concat | 1 | fewer than two values: unchanged |
//! | slice | 1 | string shorter than `start + len`: unchanged |
//! | map_chars (table of k, length ≤ L) | `L(k + 1) + 2` | characters not in the table stay |
//! | split (length ≤ L) | `2L + 3` | `""` → the list `[""]`, as Rust's `split` |
//! | join (length ≤ L) | `2L + 3` | empty list → `""` |
//! | matches (a pattern on one line) | 4 | empty stack: unchanged |
//!
//! Mapping characters walks a cursor (`\x01`, which values never contain) along the top
//! string: each round has one rule per table entry and a last rule that steps over a
//! character not in the table. Whatever character the cursor faces when a round starts,
//! one of the round's rules moves it on, so `L` rounds finish. Rounds are identical runs of rules; a fixpoint-aware executor skips the idle
//! ones. Lengths count characters (Unicode scalar values), so a board of `♜` works.
//!
//! `matches` embeds a caller's pattern in a rule, so that one rule can ask a question
//! about a whole board line (a piece, a run of empty squares at a stride, the king). The
//! pattern must stay inside the line: [`check_line_pattern`] refuses any pattern that can
//! match a newline and any anchor or look-around (whose meaning would change once the
//! pattern is embedded).

use regex_syntax::hir::{Class, Hir, HirKind};

use super::{HEAD_GROUP, Out, VALUE_GROUP, replacement_literal};

/// `list_push`: pop `e`, `l`; push `l;e`.
pub fn list_push(out: &mut Out) {
    out.rule(
        format!("{HEAD_GROUP}{VALUE_GROUP}\n{VALUE_GROUP}\n"),
        "${1}${3};${2}\n",
    );
}

/// `concat`: pop `b`, `a`; push `ab`.
pub fn concat(out: &mut Out) {
    out.rule(
        format!("{HEAD_GROUP}{VALUE_GROUP}\n{VALUE_GROUP}\n"),
        "${1}${3}${2}\n",
    );
}

/// `slice`: the top string's `len` characters from `start`.
pub fn slice(out: &mut Out, start: usize, len: usize) {
    let pattern = match (start, len) {
        (0, 0) => format!("{HEAD_GROUP}(){VALUE_GROUP}\n"),
        (0, _) => format!("{HEAD_GROUP}([^#%\n][^\n]{{{}}})[^\n]*\n", len - 1),
        _ => format!(
            "{HEAD_GROUP}[^#%\n][^\n]{{{}}}([^\n]{{{len}}})[^\n]*\n",
            start - 1
        ),
    };
    out.rule(pattern, "${1}${2}\n");
}

/// The cursor used by character maps.
const CURSOR: char = '\x01';

/// `map_chars`: every character of the top string found in `table` becomes its image.
pub fn map_chars(out: &mut Out, table: &[(char, String)], max_len: usize) {
    let before = format!("(%%\n#stack:\n[^\n{CURSOR}]*){CURSOR}");
    out.rule(
        format!("{HEAD_GROUP}([^#%\n])"),
        format!("${{1}}{CURSOR}${{2}}"),
    );
    let others: String = table
        .iter()
        .map(|(from, _)| regex::escape(&from.to_string()))
        .collect();
    for _ in 0..max_len {
        for (from, to) in table {
            out.rule(
                format!("{before}{}", regex::escape(&from.to_string())),
                format!("${{1}}{}{CURSOR}", replacement_literal(to)),
            );
        }
        out.rule(
            format!("{before}([^\n{others}])"),
            format!("${{1}}${{2}}{CURSOR}"),
        );
    }
    out.rule(format!("{before}\n"), "${1}\n");
}

/// `split`: the top string becomes the list of its `sep`-separated pieces.
pub fn split(out: &mut Out, sep: char, max_len: usize) {
    map_chars(out, &[(sep, ";".to_string())], max_len);
    out.rule(format!("{HEAD_GROUP}{VALUE_GROUP}\n"), "${1};${2}\n");
}

/// `join`: the top list becomes its elements separated by `sep`.
pub fn join(out: &mut Out, sep: char, max_len: usize) {
    out.rule(format!("{HEAD_GROUP};"), "${1}");
    map_chars(out, &[(';', sep.to_string())], max_len);
}

/// `matches p`: the top string becomes `T` if `p` matches somewhere in it, else `F`.
///
/// A scratch line `!` is first put above the value, so the test rule reads exactly the
/// line below it: the pattern can never reach a variable line, even on an empty stack
/// (where the first rule does not match and nothing happens).
pub fn matches(out: &mut Out, pattern: &str) {
    out.rule(format!("{HEAD_GROUP}{VALUE_GROUP}\n"), "${1}!\n${2}\n");
    out.rule(
        format!("{HEAD_GROUP}!\n[^\n]*?(?:{pattern})[^\n]*\n"),
        "${1}!T\n",
    );
    out.rule(format!("{HEAD_GROUP}!\n[^\n]*\n"), "${1}F\n");
    out.rule(format!("{HEAD_GROUP}!T\n"), "${1}T\n");
}

/// Why a pattern cannot test a line (see [`check_line_pattern`]).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct NotALinePattern(String);

impl From<&str> for NotALinePattern {
    fn from(problem: &str) -> NotALinePattern {
        NotALinePattern(problem.to_string())
    }
}

/// Checks that `pattern` parses, can never match a newline, and has no anchor or
/// look-around; the message says what is wrong.
pub fn check_line_pattern(pattern: &str) -> Result<(), NotALinePattern> {
    let hir = regex_syntax::parse(pattern).map_err(|e| NotALinePattern(e.to_string()))?;
    check_hir(&hir)
}

fn check_hir(hir: &Hir) -> Result<(), NotALinePattern> {
    let newline = '\n';
    match hir.kind() {
        HirKind::Empty => Ok(()),
        HirKind::Literal(literal) if literal.0.contains(&b'\n') => {
            Err("the pattern contains a newline".into())
        }
        HirKind::Literal(_) => Ok(()),
        HirKind::Class(Class::Unicode(class))
            if class
                .ranges()
                .iter()
                .any(|r| r.start() <= newline && newline <= r.end()) =>
        {
            Err("a class in the pattern matches a newline (write [^x\\n], not [^x])".into())
        }
        HirKind::Class(Class::Bytes(class))
            if class
                .ranges()
                .iter()
                .any(|r| r.start() <= b'\n' && b'\n' <= r.end()) =>
        {
            Err("a class in the pattern matches a newline".into())
        }
        HirKind::Class(_) => Ok(()),
        HirKind::Look(_) => Err("the pattern has an anchor or a look-around".into()),
        HirKind::Repetition(r) => check_hir(&r.sub),
        HirKind::Capture(c) => check_hir(&c.sub),
        HirKind::Concat(subs) | HirKind::Alternation(subs) => subs.iter().try_for_each(check_hir),
    }
}
