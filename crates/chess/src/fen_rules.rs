//! FEN in and out, in rules.
//!
//! [`parse_fen`] turns the raw input state (`<FEN>\n` lines) into position threads;
//! [`to_fen`] writes a position's FEN into a new string value. See [`super::board`] for
//! the representation.
//!
//! Parsing: one rule splits each FEN line into the six variables, writing the board as
//! its eight ranks each followed by `//`, with a `|` in front, and the en-passant square
//! with a `_` between file and rank; then one rule per digit `1`..`8` expands every
//! digit of every board at once (a digit of the board is the only digit that follows one
//! of `|/.pnbrqkPNBRQK`: the `_` keeps `b6` out), and two rules drop the `|` and the `_`.
//! 11 rules.
//!
//! Printing: one rule copies the variables into the FEN line (ranks joined by `/`), then
//! runs of empty squares become digits, longest first: a rule for the runs of 8 repeated
//! 8 times (one run per rank at most), then 7, 6, 5, 4 (8 times each), 3 (16), 2 (24)
//! and 1 (32). Each application rewrites one run of each active thread; an executor that
//! stops a run of identical rules at its first idle rule does about as many as there are
//! runs. 113 rules, 9 distinct patterns.
//!
//! Printing as the last step ([`print_fens`]): when a program's output is the FEN lines
//! alone, one rule turns every active thread into its FEN line with the empty squares
//! still `.`, and then, since no other `.` is left in the state, 8 rules (runs of 8, 7,
//! .. 1) rewrite every run of every line at once: 9 rules, each applied once. A plain
//! global replace loop (Python's `re.sub`) does 9 passes over the state instead of 113.

use super::board::Position;
use super::fragments::{HEAD, LINE, LINES, var};
use regex_chess_compiler::dsl::{Builder, Value, kind};
use regex_chess_compiler::ir::Type;

/// The characters of a FEN board field.
const BOARD_CHARS: &str = "1-8pnbrqkPNBRQK";

/// The program's first step: every line `<FEN>\n` of the input state becomes one active
/// thread holding `#b #t #c #e #h #n` (see [`super::board`]). The FEN must have its six
/// fields and standard castling letters; a line that is not such a FEN is left as it is
/// (and no later rule touches it, since it is not an active thread).
#[track_caller]
pub fn parse_fen(b: &mut Builder) -> Position {
    let pos = Position::handles(b);
    let rank = format!("([{BOARD_CHARS}]+)");
    let ranks = vec![rank; 8].join("/");
    let castling = "(-|KQ?k?q?|Qk?q?|kq?|q)";
    let pattern = format!("{ranks} ([wb]) {castling} (-|[a-h])([1-8]?) ([0-9]+) ([0-9]+)\n");
    let mut board = String::from("|");
    for i in 1..=8 {
        board.push_str(&format!("${{{i}}}//"));
    }
    let replacement = format!(
        "{HEAD}#b: {board}\n#t: ${{9}}\n#c: ${{10}}\n#e: ${{11}}_${{12}}\n#h: ${{13}}\n#n: ${{14}}\n"
    );
    let mut rules = vec![(pattern, replacement)];
    for d in (1..=8).rev() {
        rules.push((
            format!("([|/.pnbrqkPNBRQK]){d}"),
            format!("${{1}}{}", ".".repeat(d)),
        ));
    }
    rules.push(("#b: \\|".to_string(), "#b: ".to_string()));
    rules.push(("#e: ([^_\n]*)_".to_string(), "#e: ${1}".to_string()));
    b.rules("parse_fen", rules, &[], &pos.vars());
    pos
}

/// The FEN of the position in every active thread, as a new string value (the position
/// is unchanged).
#[track_caller]
pub fn to_fen(b: &mut Builder, pos: &Position) -> Value<kind::Str> {
    let fen: Value<kind::Str> = b.fresh(Type::Str);
    let f = fen.var().name().to_string();
    let mut pattern = format!("{HEAD}({}#b: )", LINES);
    for _ in 0..8 {
        pattern.push_str("([^\n]{8})//");
    }
    for name in ["t", "c", "e", "h", "n"] {
        pattern.push_str(&format!("(\n{})({LINE})", var(name)));
    }
    pattern.push_str("(\n[^%]*)");
    // Groups: 1 prefix, 2..=9 ranks, then (10, 11) .. (18, 19) for t c e h n, 20 the rest.
    let mut replacement = String::from(HEAD);
    replacement.push_str("${1}");
    for i in 2..=9 {
        replacement.push_str(&format!("${{{i}}}//"));
    }
    for i in 10..=19 {
        replacement.push_str(&format!("${{{i}}}"));
    }
    replacement.push_str(&format!("${{20}}#{f}: "));
    let ranks: Vec<String> = (2..=9).map(|i| format!("${{{i}}}")).collect();
    replacement.push_str(&ranks.join("/"));
    for i in [11, 13, 15, 17, 19] {
        replacement.push_str(&format!(" ${{{i}}}"));
    }
    replacement.push('\n');
    let mut rules = vec![(pattern, replacement)];
    for (run, times) in [
        (8, 8),
        (7, 8),
        (6, 8),
        (5, 8),
        (4, 8),
        (3, 16),
        (2, 24),
        (1, 32),
    ] {
        let rule = (
            format!("({HEAD}{}[^ \n]*?)\\.{{{run}}}", var(&f)),
            format!("${{1}}{run}"),
        );
        rules.extend(std::iter::repeat_n(rule, times));
    }
    b.rules("to_fen", rules, &pos.vars(), &[fen.var()]);
    fen
}

/// The program's last step when its output is the FEN lines alone: every active thread
/// becomes the line `<FEN>\n` of its position (everything else the thread holds goes),
/// and every run of empty squares in the state becomes its digit (see the module
/// documentation). The state must hold nothing else with a `.` once the threads are
/// lines: call it last, on a state of active threads.
#[track_caller]
pub fn print_fens(b: &mut Builder, pos: &Position) {
    let [board, rest @ ..] = pos.vars();
    let mut pattern = format!("{HEAD}{}", var(board.name()));
    for _ in 0..8 {
        pattern.push_str("([^\n]{8})//");
    }
    for v in rest {
        pattern.push_str(&format!("\n{}({LINE})", var(v.name())));
    }
    pattern.push_str("\n[^%]*");
    let ranks: Vec<String> = (1..=8).map(|i| format!("${{{i}}}")).collect();
    let mut replacement = ranks.join("/");
    for i in 9..=13 {
        replacement.push_str(&format!(" ${{{i}}}"));
    }
    replacement.push('\n');
    let mut rules = vec![(pattern, replacement)];
    for run in (1..=8).rev() {
        rules.push((format!("\\.{{{run}}}"), run.to_string()));
    }
    b.rules("print_fens", rules, &pos.vars(), &[]);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::board_of_fen_field;

    /// The rules of [`print_fens`], applied one after the other as the reference does,
    /// turn threads (with other variables between and after the position's) into their
    /// FEN lines and leave nothing else.
    #[test]
    fn print_fens_writes_every_thread_as_its_fen_line() {
        let mut b = Builder::new("t", "t");
        let pos = Position::handles(&b);
        print_fens(&mut b, &pos);
        let rules: Vec<(String, String)> = b
            .finish()
            .body
            .iter()
            .flat_map(|l| match &l.instruction {
                regex_chess_compiler::ir::Instruction::Rules { rules, .. } => rules.clone(),
                _ => Vec::new(),
            })
            .collect();
        assert_eq!(rules.len(), 9);
        let fens = [
            "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1",
            "8/8/8/K2pP2r/8/8/8/7k w - d6 0 1",
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 12 40",
        ];
        let mut state = String::new();
        for fen in fens {
            let f: Vec<&str> = fen.split(' ').collect();
            let board = board_of_fen_field(f[0]).unwrap();
            state.push_str(&format!(
                "{HEAD}#x: 1.2\n#b: {board}\n#t: {}\n#y: ...\n#c: {}\n#e: {}\n#h: {}\n#n: {}\n#z: .\n",
                f[1], f[2], f[3], f[4], f[5]
            ));
        }
        let out = rules.iter().fold(state, |s, (p, r)| {
            let re = regex::Regex::new(p).expect("a valid pattern");
            re.replace_all(&s, r.as_str()).into_owned()
        });
        assert_eq!(out, fens.map(|f| format!("{f}\n")).concat());
    }
}
