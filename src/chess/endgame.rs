//! The endgame term of the `2ply-qe` search in rules (stated in `src/chess/mod.rs`):
//! against a lone king, drive it to the edge and bring the own king close.
//!
//! # The term
//!
//! When one side (the defender) has only its king and the other (the attacker) has no
//! pawn and at least one knight, bishop, rook or queen, the term is, for the attacker,
//! [`CENTRE_CP`] × the defender's king's centre distance plus [`NEAR_CP`] × (7 − the
//! kings' file distance) plus [`NEAR_CP`] × (7 − their rank distance); for the defender
//! its negation; on any other board 0. A square's centre distance is the sum over its
//! file and rank (0..7) of `3 − x` when `x ≤ 3`, else `x − 4` (0 on d4..e5, 6 in a
//! corner). The term is at most 25 × 6 + 10 × 14 = 290 cp, less than any piece.
//!
//! # Rules
//!
//! [`term_white`] runs on one board line (80 characters, `//` after each rank) and
//! leaves the term from white's view in [`SCORE_BITS`] bits: two rules mark a board with
//! a lone black (`!W:`) or white (`!B:`) king and an attacker without pawns, one rule
//! writes 0 on any other; then, on marked lines only, 32 rules append the defender's
//! king's file and the attacker's, the defender's rank and the attacker's (a counted
//! skip each), one rule drops the board, the pair rules turn each (defender, attacker)
//! coordinate pair into its share of the term in unary (`u` per unit of 5 cp), and one
//! rule per length writes the signed integer.

use super::evaluate::{SCORE_BITS, units};
use super::stack_rules;
use crate::compiler::dsl::{Builder, Value, kind};
use crate::compiler::encode;
use crate::compiler::ir::Type;

/// Centipawns per step of the defender's king's centre distance.
pub const CENTRE_CP: i32 = 25;
/// Centipawns per step of closeness of the kings, on each axis.
pub const NEAR_CP: i32 = 10;

/// The head of an active thread, captured as group 1.
const HEAD: &str = "(%%\n#stack:\n)";

/// The centre distance of a file or rank `x` (0..7).
pub fn centre_distance(x: u8) -> u8 {
    if x <= 3 { 3 - x } else { x - 4 }
}

/// The share of the term, in units of 5 cp, of one axis: the defender's king's
/// coordinate `lone` and the attacker's `own`.
pub fn axis_units(lone: u8, own: u8) -> i64 {
    units(CENTRE_CP) * centre_distance(lone) as i64
        + units(NEAR_CP) * (7 - lone.abs_diff(own)) as i64
}

/// A pattern matching `king` (the defender's when `lone`) in the marked line's board,
/// with a lone black king (`W`) or a lone white one (`B`), at the file (`by_file`) or
/// row (a8's row 0) `at`.
fn king_at(lone: bool, by_file: bool, at: usize) -> String {
    let find = |king: char| {
        if by_file {
            format!("(?:[^\n]{{10}})*[^\n]{{{at}}}{king}")
        } else {
            format!("[^\n]{{{}}}[^\n/]{{0,7}}{king}", 10 * at)
        }
    };
    let (w, b) = if lone { ('k', 'K') } else { ('K', 'k') };
    format!("(?:W:{}|B:{})", find(w), find(b))
}

/// The rules of [`term_white`].
pub fn term_rules() -> Vec<(String, String)> {
    let zero = encode::int(SCORE_BITS, 0);
    let mut rules = vec![
        (
            format!("{HEAD}([^pnbrqP\n]*[NBRQ][^pnbrqP\n]*)\n"),
            "${1}!W:${2}\n".to_string(),
        ),
        (
            format!("{HEAD}([^PNBRQp\n]*[nbrq][^PNBRQp\n]*)\n"),
            "${1}!B:${2}\n".to_string(),
        ),
        (format!("{HEAD}[^!\n][^\n]*\n"), format!("${{1}}{zero}\n")),
    ];
    // Digits in the order: defender's file, attacker's file, defender's row, attacker's
    // row (rows count from a8's; the distances and the centre distance are symmetric).
    for (lone, by_file) in [(true, true), (false, true), (true, false), (false, false)] {
        for at in 0..8 {
            rules.push((
                format!("{HEAD}(!{}[^\n]*)\n", king_at(lone, by_file, at)),
                format!("${{1}}${{2}}{at}\n"),
            ));
        }
    }
    rules.push((
        format!("{HEAD}!([WB]):[^\n]*([0-7]{{4}})\n"),
        "${1}!${2}${3}\n".to_string(),
    ));
    // The pair rules, by share; run twice: each run turns at least the first pair left.
    let mut by_share: Vec<(i64, Vec<String>)> = Vec::new();
    for lone in 0..8u8 {
        for own in 0..8u8 {
            let share = axis_units(lone, own);
            let pair = format!("{lone}{own}");
            match by_share.iter_mut().find(|(s, _)| *s == share) {
                Some((_, pairs)) => pairs.push(pair),
                None => by_share.push((share, vec![pair])),
            }
        }
    }
    let pair_rules: Vec<(String, String)> = by_share
        .iter()
        .map(|(share, pairs)| {
            (
                format!("{HEAD}(![WB]u*)(?:{})", pairs.join("|")),
                format!("${{1}}${{2}}{}", "u".repeat(*share as usize)),
            )
        })
        .collect();
    rules.extend(pair_rules.iter().cloned());
    rules.extend(pair_rules);
    let most = 2 * axis_units(0, 0);
    for n in 0..=most {
        for (side, sign) in [('W', 1), ('B', -1)] {
            rules.push((
                format!("{HEAD}!{side}u{{{n}}}\n"),
                format!("${{1}}{}\n", encode::int(SCORE_BITS, sign * n)),
            ));
        }
    }
    rules
}

/// The endgame term of `board` (an 80-character board line) from white's view, in units
/// of 5 cp (see the module's documentation).
#[track_caller]
pub fn term_white(b: &mut Builder, board: &Value<kind::Str>) -> Value<kind::Int> {
    stack_rules::on_stack(
        b,
        "endgame_term",
        &[board.var()],
        term_rules(),
        Type::Int { bits: SCORE_BITS },
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::chess::evaluate::tests::board_line;
    use crate::compiler::encode::Thread;
    use crate::compiler::{self, CompileOptions};
    use crate::exec::{Executor, reference::Reference};

    #[test]
    fn the_rules_compute_the_stated_term() {
        let mut b = Builder::new("t", "t");
        let board = b.input_str("b");
        let t = term_white(&mut b, &board);
        b.output("t", &t);
        let program = compiler::compile(b.finish(), &CompileOptions::default())
            .program
            .validate()
            .unwrap();
        let exec = Reference::new(program);
        // (placement, term in cp from white's view), worked out by hand.
        let cases = [
            // Black king a8 (centre distance 6), white king c6: 2 files, 2 ranks apart.
            ("k7/8/2K5/8/8/8/8/7Q", 25 * 6 + 10 * 5 + 10 * 5),
            // White king e4 (0), black king e5 next to it, black rook.
            ("8/8/8/4k3/4K3/8/8/r7", -(10 * 7 + 10 * 6)),
            // Black king h1 (6), white king a8: 7 and 7 apart; two rooks.
            ("K7/8/8/8/8/8/1R6/1R5k", 25 * 6),
            // A pawn for the attacker, a piece for the defender, bare kings: no term.
            ("k7/8/2K5/8/8/8/P7/7Q", 0),
            ("k7/8/2K5/8/8/8/n7/7Q", 0),
            ("k7/8/2K5/8/8/8/8/8", 0),
            // A lone white king a1 (6), black king c3 and queen.
            ("8/8/8/8/8/2k5/8/K6q", -(25 * 6 + 10 * 5 + 10 * 5)),
        ];
        let threads: Vec<String> = cases.iter().map(|(p, _)| board_line(p)).collect();
        let state = encode::render(
            &threads
                .iter()
                .map(|line| Thread::active(&[], &[("b", line)]))
                .collect::<Vec<_>>(),
        );
        let out = encode::threads(&exec.run(&state));
        for (t, (placement, cp)) in out.iter().zip(cases) {
            let got = encode::decode_int(t.var("t").unwrap()).unwrap();
            assert_eq!(got * 5, cp as i64, "{placement}");
        }
    }
}
