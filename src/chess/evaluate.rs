//! The evaluation of [`super::eval`] in rules: a full score for one position, and the
//! score change of one move (incremental evaluation), both as integers of the compiler's
//! `Int` type.
//!
//! # Units and widths
//!
//! Every table entry, every value and [`eval::MATE`] is a multiple of 5 centipawns
//! (checked when the rules are built), so the rules count in units of 5 cp: a score fits
//! in [`SCORE_BITS`] bits and a move's gain in [`GAIN_BITS`]. The search compares scores
//! only, so the unit does not change any decision.
//!
//! # Where the work is
//!
//! Cost is rules × active threads. The full score ([`full_score`]) reads all 64 squares
//! (about 30 rules per square: one rule per piece that can stand there writes the
//! square's value, then an addition), but it runs once, on the root's single thread.
//! Everything else is incremental: a child's score is its parent's plus the mover's
//! [`gain`], which reads four table entries (the moved piece on its target square after
//! the move, the piece on its origin square before, the captured piece, and the extra
//! of castling's rook or en passant's pawn) in `2 × GAIN_BITS + 2` rules each, whatever
//! the square: one rule selects the board character (an alternation over the 64 squares
//! of `square name, a counted .{offset}, the character captured`), then one rule per
//! result bit tests the short key `<square><piece>` against an alternation of
//! `square name, class of pieces whose value has that bit set`. No backreference, and
//! only the select rule has counted repetitions (a small automaton for the others).
//!
//! # Stack layouts (internal)
//!
//! A square lookup works on the scratch line `<bits>:<square><piece>` (the board line is
//! consumed by the select rule); each bit rule appends one result digit before the `:`,
//! and the last rule drops the key.

use super::eval;
use super::stack_rules::{self, on_stack};
use crate::compiler::dsl::{Builder, Value, kind};
use crate::compiler::encode;
use crate::compiler::ir::{Instruction, Type};

/// Width of scores (units of 5 cp): ±8191 units, ±40955 cp, beyond [`eval::MATE`].
pub const SCORE_BITS: u8 = 14;
/// Width of a move's gain: ±511 units.
pub const GAIN_BITS: u8 = 10;

/// The characters a board square can hold.
pub const SQUARE_CHARS: &str = "PNBRQKpnbrqk.";

/// The head of an active thread, captured as group 1.
const HEAD: &str = "(%%\n#stack:\n)";

/// `value` in units of 5 cp.
///
/// # Panics
/// When it is not a multiple of 5 (the tables changed: the unit must change too).
pub fn units(value: i32) -> i64 {
    assert_eq!(value % 5, 0, "table entry {value} is not a multiple of 5");
    (value / 5) as i64
}

/// The mover's-own-view value of `piece` (`PNBRQKpnbrqk`, or `.` for empty = 0) on the
/// square with index `square` (a1 = 0), in units.
pub fn own_units(piece: char, square: usize) -> i64 {
    if piece == '.' {
        return 0;
    }
    units(eval::piece_square(piece, square).expect("a piece letter"))
}

/// White's-view value: white pieces count for, black pieces against.
pub fn white_units(piece: char, square: usize) -> i64 {
    if piece.is_ascii_lowercase() {
        -own_units(piece, square)
    } else {
        own_units(piece, square)
    }
}

/// The name of square `index` (a1 = 0), such as `e4`.
pub fn square_name(index: usize) -> String {
    let file = (b'a' + (index % 8) as u8) as char;
    let rank = (b'1' + (index / 8) as u8) as char;
    format!("{file}{rank}")
}

/// The offset of square `index` in the 80-character board line.
pub fn board_offset(index: usize) -> usize {
    (7 - index / 8) * 10 + index % 8
}

/// The pieces that can stand on a square (no pawn on the first or last rank).
fn possible(index: usize) -> impl Iterator<Item = char> {
    let rank = index / 8;
    "PNBRQKpnbrqk"
        .chars()
        .filter(move |c| !(c.eq_ignore_ascii_case(&'p') && (rank == 0 || rank == 7)))
}

/// A character class (regex) of `chars`, escaping `.`.
fn class(chars: &[char]) -> String {
    let inner: String = chars
        .iter()
        .map(|&c| {
            if c == '.' {
                "\\.".to_string()
            } else {
                c.to_string()
            }
        })
        .collect();
    format!("[{inner}]")
}

/// Rules that turn `<key>\n<board>\n` (key on top) into the value line: the value of
/// `value(piece at square named by key, square)` in `bits` bits. Keys are square names;
/// `value` must give a value for `.` too.
fn square_lookup_rules(bits: u8, value: impl Fn(char, usize) -> i64) -> Vec<(String, String)> {
    // One rule selects the board character: `<square>\n<board>\n` becomes `:<square><char>`
    // (the only rule here with counted offsets), then each bit rule tests a short key.
    let mut select = Vec::new();
    let mut chars = String::new();
    let mut names = String::new();
    for sq in 0..64 {
        select.push(format!(
            "({})\n.{{{}}}(.)",
            square_name(sq),
            board_offset(sq)
        ));
        names.push_str(&format!("${{{}}}", 2 + 2 * sq));
        chars.push_str(&format!("${{{}}}", 3 + 2 * sq));
    }
    let mut rules = vec![(
        format!("{HEAD}(?:{})[^\n]*\n", select.join("|")),
        format!("${{1}}:{names}{chars}\n"),
    )];
    let codes: Vec<Vec<(char, Vec<u8>)>> = (0..64)
        .map(|sq| {
            SQUARE_CHARS
                .chars()
                .map(|c| (c, encode::int(bits, value(c, sq)).into_bytes()))
                .collect()
        })
        .collect();
    for j in 0..bits as usize {
        let mut alternatives = Vec::new();
        for (sq, codes) in codes.iter().enumerate() {
            let ones: Vec<char> = codes
                .iter()
                .filter(|(_, code)| code[j] == b'1')
                .map(|(c, _)| *c)
                .collect();
            if !ones.is_empty() {
                alternatives.push(format!("{}{}", square_name(sq), class(&ones)));
            }
        }
        let prefix = format!("(%%\n#stack:\n[01]{{{j}}}):");
        if !alternatives.is_empty() {
            rules.push((
                format!("{prefix}((?:{})\n)", alternatives.join("|")),
                "${1}1:${2}".to_string(),
            ));
        }
        rules.push((prefix, "${1}0:".to_string()));
    }
    rules.push((
        format!("(%%\n#stack:\n[01]{{{bits}}}):[^\n]*\n"),
        "${1}\n".to_string(),
    ));
    rules
}

/// Sign-extends the top integer from `from` to `to` bits (offset binary: the top digit
/// `d` becomes `d` followed by `to - from` copies of its complement).
fn extend_rules(from: u8, to: u8) -> Vec<(String, String)> {
    let pad = (to - from) as usize;
    let rest = from as usize - 1;
    vec![
        (
            format!("{HEAD}1([01]{{{rest}}}\n)"),
            format!("${{1}}1{}${{2}}", "0".repeat(pad)),
        ),
        (
            format!("{HEAD}0([01]{{{rest}}}\n)"),
            format!("${{1}}0{}${{2}}", "1".repeat(pad)),
        ),
    ]
}

/// The value of the piece on `square` (a square name such as `e4`) of `board`, by
/// `value(piece, square index)`, in `bits` bits.
#[track_caller]
pub fn square_value(
    b: &mut Builder,
    board: &Value<kind::Str>,
    square: &Value<kind::Str>,
    bits: u8,
    value: impl Fn(char, usize) -> i64,
) -> Value<kind::Int> {
    on_stack(
        b,
        "square_value",
        &[board.var(), square.var()],
        square_lookup_rules(bits, value),
        Type::Int { bits },
    )
}

/// The castling rook's or the en-passant pawn's part of a move's gain, keyed by the move's
/// `from` and `to` squares (text `e1g1`) over the board before the move.
fn extra_rules(bits: u8) -> Vec<(String, String)> {
    // (from and to, board conditions as (square, char) in increasing offset, value)
    type Entry = (String, Vec<(usize, char)>, i64);
    let mut entries: Vec<Entry> = Vec::new();
    let sq = |name: &str| -> usize {
        let b = name.as_bytes();
        ((b[1] - b'1') as usize) * 8 + (b[0] - b'a') as usize
    };
    for (king, from, to, rook_from, rook_to) in [
        ('K', "e1", "g1", "h1", "f1"),
        ('K', "e1", "c1", "a1", "d1"),
        ('k', "e8", "g8", "h8", "f8"),
        ('k', "e8", "c8", "a8", "d8"),
    ] {
        let rook = if king == 'K' { 'R' } else { 'r' };
        let v = own_units(rook, sq(rook_to)) - own_units(rook, sq(rook_from));
        entries.push((format!("{from}{to}"), vec![(sq(from), king)], v));
    }
    // En passant: a pawn moving diagonally onto an empty square of the third or sixth rank.
    for (pawn, from_rank, to_rank, victim) in [('P', 4, 5, 'p'), ('p', 3, 2, 'P')] {
        for file in 0..8i32 {
            for df in [-1i32, 1] {
                let tf = file + df;
                if !(0..8).contains(&tf) {
                    continue;
                }
                let from = (from_rank * 8 + file) as usize;
                let to = (to_rank * 8 + tf) as usize;
                let captured = (from_rank * 8 + tf) as usize;
                let v = own_units(victim, captured);
                let mut cond = vec![(from, pawn), (to, '.')];
                cond.sort_by_key(|(s, _)| board_offset(*s));
                entries.push((format!("{}{}", square_name(from), square_name(to)), cond, v));
            }
        }
    }
    let zero = encode::int(bits, 0).into_bytes();
    let mut rules = vec![(
        format!("{HEAD}([a-h][1-8][a-h][1-8]\n)"),
        "${1}:${2}".to_string(),
    )];
    for (j, &default) in zero.iter().enumerate() {
        let flipped = if default == b'1' { '0' } else { '1' };
        let alternatives: Vec<String> = entries
            .iter()
            .filter(|(_, _, v)| encode::int(bits, *v).as_bytes()[j] != default)
            .map(|(key, cond, _)| {
                let mut text = format!("{key}\n");
                let mut at = 0;
                for (s, c) in cond {
                    let o = board_offset(*s);
                    text.push_str(&format!(".{{{}}}{}", o - at, class(&[*c])));
                    at = o + 1;
                }
                text
            })
            .collect();
        let prefix = format!("(%%\n#stack:\n[01]{{{j}}}):");
        if !alternatives.is_empty() {
            rules.push((
                format!("{prefix}((?:{}))", alternatives.join("|")),
                format!("${{1}}{flipped}:${{2}}"),
            ));
        }
        rules.push((prefix, format!("${{1}}{}:", default as char)));
    }
    rules.push((
        format!("(%%\n#stack:\n[01]{{{bits}}}):[^\n]*\n[^\n]*\n"),
        "${1}\n".to_string(),
    ));
    rules
}

/// What a move gains its mover, from the mover's view, in [`SCORE_BITS`] bits: the moved
/// (or promoted) piece's entry on `to` minus its entry on `from`, plus the captured
/// piece's entry (en passant included), plus the castling rook's change.
///
/// `before`/`after` are the board lines around the move; `uci` its text (`e7e8q`).
#[track_caller]
pub fn gain(
    b: &mut Builder,
    before: &Value<kind::Str>,
    after: &Value<kind::Str>,
    uci: &Value<kind::Str>,
) -> Value<kind::Int> {
    let from = b.slice(uci, 0, 2);
    let to = b.slice(uci, 2, 2);
    let squares = b.slice(uci, 0, 4);
    let arrived = square_value(b, after, &to, GAIN_BITS, own_units);
    let left = square_value(b, before, &from, GAIN_BITS, own_units);
    let captured = square_value(b, before, &to, GAIN_BITS, own_units);
    let extra: Value<kind::Int> = on_stack(
        b,
        "move_extra",
        &[before.var(), squares.var()],
        extra_rules(GAIN_BITS),
        Type::Int { bits: GAIN_BITS },
    );
    let moved = b.sub(&arrived, &left);
    let taken = b.add(&captured, &extra);
    let total = b.add(&moved, &taken);
    on_stack(
        b,
        "extend",
        &[total.var()],
        extend_rules(GAIN_BITS, SCORE_BITS),
        Type::Int { bits: SCORE_BITS },
    )
}

/// The score of `board` from white's view, in [`SCORE_BITS`] bits: the sum over its
/// pieces of [`white_units`]. About 30 rules per square; meant for one thread.
#[track_caller]
pub fn full_score_white(b: &mut Builder, board: &Value<kind::Str>) -> Value<kind::Int> {
    let bits = SCORE_BITS;
    // Stack: `acc` on top of `:board`.
    let zero = encode::int(bits, 0);
    let mut rules = vec![(
        format!("{HEAD}([^\n]*\n)"),
        format!("${{1}}{zero}\n:${{2}}"),
    )];
    let mut out = Vec::new();
    out.push(stack_rules::instruction(
        "score_start",
        std::mem::take(&mut rules),
    ));
    for sq in 0..64 {
        let o = board_offset(sq);
        let mut square_rules = Vec::new();
        for piece in possible(sq) {
            let v = white_units(piece, sq);
            square_rules.push((
                format!("{HEAD}([01]+\n:.{{{o}}}){piece}"),
                format!("${{1}}{}\n${{2}}{piece}", encode::int(bits, v)),
            ));
        }
        out.push(stack_rules::instruction("score_square", square_rules));
        // Adds the square's value when one was pushed (a no-op otherwise: the line below
        // the accumulator is the board, not a number).
        out.push(Instruction::Add { bits });
    }
    out.push(stack_rules::instruction(
        "score_end",
        vec![(format!("{HEAD}([01]+\n):[^\n]*\n"), "${1}${2}".to_string())],
    ));
    stack_rules::sequence(b, board.var(), out, Type::Int { bits })
}

/// `score` negated when `white` is false: the score from the side's view.
#[track_caller]
pub fn for_side(
    b: &mut Builder,
    white_score: &Value<kind::Int>,
    white: &Value<kind::Bool>,
) -> Value<kind::Int> {
    b.if_else(white, |_| white_score.clone(), |b| b.neg(white_score))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::compiler::encode::Thread;
    use crate::compiler::{self, CompileOptions};
    use crate::exec::{Executor, reference::Reference};

    /// The 80-character board line of a FEN's placement field.
    fn board_line(placement: &str) -> String {
        let mut out = String::new();
        for rank in placement.split('/') {
            for c in rank.chars() {
                match c.to_digit(10) {
                    Some(n) => out.push_str(&".".repeat(n as usize)),
                    None => out.push(c),
                }
            }
            out.push_str("//");
        }
        out
    }

    fn native_white(line: &str) -> i64 {
        let mut total = 0;
        for sq in 0..64 {
            let c = line.as_bytes()[board_offset(sq)] as char;
            total += white_units(c, sq);
        }
        total
    }

    #[test]
    fn full_score_and_gains_match_the_tables() {
        let mut b = Builder::new("t", "t");
        let board = b.input_str("b");
        let before = b.input_str("pb");
        let uci = b.input_str("m");
        let s = full_score_white(&mut b, &board);
        b.output("s", &s);
        let g = gain(&mut b, &before, &board, &uci);
        b.output("g", &g);
        let program = compiler::compile(b.finish(), &CompileOptions::default())
            .program
            .validate()
            .unwrap();
        let exec = Reference::new(program);
        // (before, after, move, mover gain in cp)
        let cases = [
            (
                "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR",
                "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR",
                "e2e4",
                40,
            ),
            (
                "rnbqkbnr/pppp1ppp/8/4p3/3P4/8/PPP1PPPP/RNBQKBNR",
                "rnbqkbnr/pppp1ppp/8/8/3p4/8/PPP1PPPP/RNBQKBNR",
                "e5d4",
                100 + 25 - 20 + 20,
            ),
            (
                "r3k2r/8/8/8/8/8/8/R3K2R",
                "r3k2r/8/8/8/8/8/8/R4RK1",
                "e1g1",
                30,
            ),
            (
                "r3k2r/8/8/8/8/8/8/R3K2R",
                "2kr3r/8/8/8/8/8/8/R3K2R",
                "e8c8",
                10 + 5,
            ),
            (
                "8/8/8/3pP3/8/8/8/8",
                "8/8/3P4/8/8/8/8/8",
                "e5d6",
                30 - 25 + 100 + 20,
            ),
            (
                "8/1P6/8/8/8/8/8/8",
                "1Q6/8/8/8/8/8/8/8",
                "b7b8q",
                900 - 10 - 100 - 50,
            ),
            (
                "8/8/8/8/8/8/5p2/4R3",
                "8/8/8/8/8/8/8/4n3",
                "f2e1n",
                320 - 30 - 150 + 505,
            ),
        ];
        for (before, after, m, cp) in cases {
            let (pb, bl) = (board_line(before), board_line(after));
            let state =
                encode::render(&[Thread::active(&[], &[("b", &bl), ("pb", &pb), ("m", m)])]);
            let out = encode::threads(&exec.run(&state));
            let s = encode::decode_int(out[0].var("s").unwrap()).unwrap();
            assert_eq!(s, native_white(&bl), "{after}");
            let g = encode::decode_int(out[0].var("g").unwrap()).unwrap();
            assert_eq!(g * 5, cp as i64, "{m} on {before}");
        }
    }
}
