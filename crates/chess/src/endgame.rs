//! The endgame term of the `2ply-qe` search in rules (stated in `crates/chess/src/lib.rs`):
//! against a lone king, drive it to the edge and bring the own king close.
//!
//! # The term
//!
//! When one side (the defender) has only its king and the other (the attacker) has at
//! least one knight, bishop, rook or queen (pawns or not), the term is, for the attacker,
//! [`CENTRE_CP`] × the defender's king's centre distance plus [`NEAR_CP`] × (7 − the
//! kings' file distance) plus [`NEAR_CP`] × (7 − their rank distance) plus the
//! attacker's king's [`king_table_units`] (30 cp less its entry in the king's table, a
//! middlegame table that would hold the attacking king at home: cancelled up to a
//! constant); when, moreover, the attacker has exactly one rook (whatever else it has),
//! plus the rook's box, [`BOX_CP`] × (8 − [`box_side`]) on each axis, from the
//! defender's king's coordinate and the rook's, plus [`OPPOSITION_CP`] when the kings
//! stand in opposition across the defender's king's edge, or [`NEAR_OPPOSITION_CP`]
//! when the attacker's king stands a knight's move from that (see [`Facing`]); for the
//! defender its negation; on any other board 0. A square's centre distance is the sum over its file
//! and rank (0..7) of `3 − x` when `x ≤ 3`, else `x − 4` (0 on d4..e5, 6 in a corner).
//! The term is at most 25 × 6 + 10 × 14 + 80 = 370 cp, or 510 + 60 = 570 cp with the
//! rook; it is never negative for the attacker, so losing the last piece (bare kings, 0)
//! never pays, and the only shares that come or go as men are taken, the box and the
//! opposition, are at most 140 + 60 = 200 cp together, less than any piece.
//!
//! # Rules
//!
//! [`term_white_with`] runs on one board line (80 characters, `//` after each rank) and
//! leaves the term from white's view in [`SCORE_BITS`] bits: two rules mark a board with
//! a lone black (`!W:`) or white (`!B:`) king and an attacker with a piece, one rule
//! writes 0 on any other; then, on marked lines only, 32 rules append the defender's
//! king's file and the attacker's, the defender's rank and the attacker's (a counted
//! skip each), 16 rules append the file and the rank of the attacker's rook when it is
//! its only rook (the pattern admits no other), one rule per share appends the
//! attacker's king's table share in unary, one rule per [`Facing`] appends its share in
//! unary on a line with the rook's digits (patterns per edge and colour: on one file two
//! rows apart is a gap of 19 characters, on one row two files apart a gap of 1), one of
//! two rules drops the board (writing those shares first, then, with a rook, the
//! (defender, rook) file pair and rank pair, each after an `x`), the pair rules turn
//! each box pair, then each (defender, attacker) king pair into its share of the term in
//! unary (`u` per unit of 5 cp), and one rule per length writes the signed integer.

use super::evaluate::{SCORE_BITS, board_offset, units};
use super::stack_rules;
use super::weights::{self, Tables};
use regex_chess_compiler::dsl::{Builder, Value, kind};
use regex_chess_compiler::encode;
use regex_chess_compiler::ir::Type;

/// Centipawns per step of the defender's king's centre distance.
pub const CENTRE_CP: i32 = 25;
/// Centipawns per step of closeness of the kings, on each axis.
pub const NEAR_CP: i32 = 10;
/// Centipawns per line (file or rank) the attacker's only rook cuts off the defender's
/// king's side of the board, on each axis (an attacker with exactly one rook).
pub const BOX_CP: i32 = 10;

/// Centipawns for the kings in opposition across the defender's king's edge (king and
/// rook against king only): the defender's king on an edge and the attacker's on the line
/// through it perpendicular to that edge, two lines away (see [`Facing`]).
pub const OPPOSITION_CP: i32 = 60;
/// Centipawns for the kings a knight's move from opposition across the defender's
/// king's edge (an attacker with exactly one rook; see [`Facing`]).
pub const NEAR_OPPOSITION_CP: i32 = 30;

/// How the kings face each other across the defender's king's edge.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Facing {
    /// The defender's king on rank 1 or 8 and the attacker's on its file two ranks away,
    /// or on file a or h and the attacker's on its rank two files away.
    Opposition,
    /// As [`Facing::Opposition`], but the attacker's king one line aside: the defender's
    /// king on rank 1 or 8 and the attacker's on a neighbouring file two ranks away, or on
    /// file a or h and the attacker's on a neighbouring rank two files away.
    KnightsMove,
}

impl Facing {
    /// How the defender's king on (`lone_file`, `lone_rank`) and the attacker's on
    /// (`own_file`, `own_rank`), all 0..7, face each other, if they do.
    pub fn of(lone_file: u8, lone_rank: u8, own_file: u8, own_rank: u8) -> Option<Facing> {
        let edge = |x: u8| x == 0 || x == 7;
        let (files, ranks) = (lone_file.abs_diff(own_file), lone_rank.abs_diff(own_rank));
        let across = |aside: u8| {
            (edge(lone_rank) && files == aside && ranks == 2)
                || (edge(lone_file) && ranks == aside && files == 2)
        };
        if across(0) {
            Some(Facing::Opposition)
        } else if across(1) {
            Some(Facing::KnightsMove)
        } else {
            None
        }
    }

    /// The share of the term, in centipawns.
    pub fn cp(self) -> i32 {
        match self {
            Facing::Opposition => OPPOSITION_CP,
            Facing::KnightsMove => NEAR_OPPOSITION_CP,
        }
    }

    /// The patterns, on the marked line's board (after `W:` or `B:`), of the kings facing
    /// so: the defender's king `lone`, the attacker's `own`. On the line, a row is 10
    /// characters (a8's row first), its first square follows `W:`, `B:` or `/`, its last
    /// precedes `/`; a knight's move that would leave the board lands on a `/`.
    fn patterns(self, lone: char, own: char) -> Vec<String> {
        let any = "[^\n]";
        let row = format!("(?:{any}{{10}})*");
        match self {
            Facing::Opposition => vec![
                // Rank 8 (row 0), the attacker on row 2, 20 characters on.
                format!("[^\n/]{{0,7}}{lone}{any}{{19}}{own}"),
                // Rank 1 (row 7), the attacker on row 5.
                format!("{any}{{50}}[^\n/]{{0,7}}{own}{any}{{19}}{lone}"),
                // File a, the attacker on file c.
                format!("{row}{lone}{any}{own}"),
                // File h, the attacker on file f.
                format!("{row}{any}{{5}}{own}{any}{lone}"),
            ],
            Facing::KnightsMove => vec![
                format!("[^\n/]{{0,7}}{lone}(?:{any}{{18}}|{any}{{20}}){own}"),
                format!("{any}{{50}}[^\n/]{{0,7}}{own}(?:{any}{{18}}|{any}{{20}}){lone}"),
                // File a: the attacker on file c a row below (12 on) or above (8 back).
                format!("{row}{lone}{any}{{11}}{own}"),
                format!("{row}{any}{{2}}{own}{any}{{7}}{lone}"),
                // File h: the attacker on file f a row above (12 back) or below (8 on).
                format!("{row}{any}{{5}}{own}{any}{{11}}{lone}"),
                format!("{row}{any}{{7}}{lone}{any}{{7}}{own}"),
            ],
        }
    }
}

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

/// The largest entry of the king's table ([`weights::PST`]), 30 cp.
pub fn king_table_most() -> i32 {
    weights::PST[5].iter().copied().max().expect("64 entries")
}

/// The king-table share of the term, in units of 5 cp, for the attacker's
/// king (`K` white, `k` black) on `square` (a1 = 0): [`king_table_most`] less the
/// king's entry from its side's view, so that the term cancels the king's table (a
/// middlegame table, which holds the king at home) up to a constant.
pub fn king_table_units(king: char, square: usize) -> i64 {
    king_table_units_in(Tables::Simplified, king, square)
}

/// [`king_table_units`] with `tables`' first set (the tapered tables' lowest phases,
/// where a lone king's endings are): that set's largest king entry less the king's.
pub fn king_table_units_in(tables: Tables, king: char, square: usize) -> i64 {
    let entry = |k: char, sq: usize| tables.entry(0, k, sq).expect("a king");
    let most = (0..64).map(|sq| entry('K', sq)).max().expect("64 squares");
    units(most - entry(king, square))
}

/// The lines (files or ranks) on the defender's king's side of the rook's line, on one
/// axis: the defender's king's coordinate `lone` and the rook's `rook` (0..7); 8 when
/// they are equal (the rook cuts nothing off).
pub fn box_side(lone: u8, rook: u8) -> u8 {
    match lone.cmp(&rook) {
        std::cmp::Ordering::Less => rook,
        std::cmp::Ordering::Greater => 7 - rook,
        std::cmp::Ordering::Equal => 8,
    }
}

/// The box share of the term, in units of 5 cp, of one axis: [`BOX_CP`] × (8 −
/// [`box_side`]).
pub fn box_units(lone: u8, rook: u8) -> i64 {
    units(BOX_CP) * (8 - box_side(lone, rook)) as i64
}

/// A pattern matching the attacker's only rook in the marked line's board, with a lone
/// black king (`W`: the one `R`, whatever other white men stand) or a lone white one
/// (`B`: the one `r`), at the file (`by_file`) or row `at`.
fn rook_at(by_file: bool, at: usize) -> String {
    let find = |others: &str, rook: char| {
        let not = format!("[^{others}\n]");
        let before = if by_file {
            format!("(?:{not}{{10}})*{not}{{{at}}}")
        } else {
            format!("{not}{{{}}}[^{others}/\n]{{0,7}}", 10 * at)
        };
        format!("{before}{rook}{not}*")
    };
    format!("(?:W:{}|B:{})", find("R", 'R'), find("r", 'r'))
}

/// The pair rules turning the first pair of digits after `prefix` (a regex matched after
/// the `![WB]u*` head) into its units by `share`, grouped by share.
fn pair_rules(prefix: &str, share: impl Fn(u8, u8) -> i64) -> Vec<(String, String)> {
    let mut by_share: Vec<(i64, Vec<String>)> = Vec::new();
    for lone in 0..8u8 {
        for other in 0..8u8 {
            let s = share(lone, other);
            let pair = format!("{lone}{other}");
            match by_share.iter_mut().find(|(v, _)| *v == s) {
                Some((_, pairs)) => pairs.push(pair),
                None => by_share.push((s, vec![pair])),
            }
        }
    }
    by_share
        .iter()
        .map(|(s, pairs)| {
            (
                format!("{HEAD}(![WB]u*){prefix}(?:{})", pairs.join("|")),
                format!("${{1}}${{2}}{}", "u".repeat(*s as usize)),
            )
        })
        .collect()
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

/// The rules of [`term_white_with`].
pub fn term_rules_with(tables: Tables) -> Vec<(String, String)> {
    let king_table_units = |king: char, square: usize| king_table_units_in(tables, king, square);
    let zero = encode::int(SCORE_BITS, 0);
    let mut rules = vec![
        (
            format!("{HEAD}([^pnbrq\n]*[NBRQ][^pnbrq\n]*)\n"),
            "${1}!W:${2}\n".to_string(),
        ),
        (
            format!("{HEAD}([^PNBRQ\n]*[nbrq][^PNBRQ\n]*)\n"),
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
    // Exactly one rook: its file, then its row.
    for by_file in [true, false] {
        for at in 0..8 {
            rules.push((
                format!("{HEAD}(!{})\n", rook_at(by_file, at)),
                format!("${{1}}${{2}}{at}\n"),
            ));
        }
    }
    // The attacker's king's table share in unary, one rule per share.
    let mut by_share: Vec<(i64, Vec<String>, Vec<String>)> = Vec::new();
    for square in 0..64 {
        let offset = board_offset(square);
        for (king, white) in [('K', true), ('k', false)] {
            let share = king_table_units(king, square);
            if share == 0 {
                continue;
            }
            let at = match by_share.iter_mut().position(|(s, _, _)| *s == share) {
                Some(i) => i,
                None => {
                    by_share.push((share, Vec::new(), Vec::new()));
                    by_share.len() - 1
                }
            };
            let skip = format!("[^\n]{{{offset}}}");
            if white {
                by_share[at].1.push(skip);
            } else {
                by_share[at].2.push(skip);
            }
        }
    }
    for (share, white, black) in by_share {
        rules.push((
            format!(
                "{HEAD}(!(?:W:(?:{})K|B:(?:{})k)[^\n]*[0-7])\n",
                white.join("|"),
                black.join("|")
            ),
            format!("${{1}}${{2}}{}\n", "u".repeat(share as usize)),
        ));
    }
    // Exactly one rook (its two digits appended): how the kings face each
    // other, one rule each way.
    for facing in [Facing::Opposition, Facing::KnightsMove] {
        rules.push((
            format!(
                "{HEAD}(!(?:W:(?:{})|B:(?:{}))[^\n]*//[0-7]{{6}}u*)\n",
                facing.patterns('k', 'K').join("|"),
                facing.patterns('K', 'k').join("|")
            ),
            format!("${{1}}${{2}}{}\n", "u".repeat(units(facing.cp()) as usize)),
        ));
    }
    // Drop the board: the king-table units first, then, with a rook, `x` and
    // (defender's file, rook's file), `x` and (defender's row, rook's row).
    rules.push((
        format!("{HEAD}!([WB]):[^\n]*/([0-7])([0-7])([0-7])([0-7])([0-7])([0-7])(u*)\n"),
        "${1}!${2}${9}x${3}${7}x${5}${8}${3}${4}${5}${6}\n".to_string(),
    ));
    rules.push((
        format!("{HEAD}!([WB]):[^\n]*/([0-7]{{4}})(u*)\n"),
        "${1}!${2}${4}${3}\n".to_string(),
    ));
    // The pair rules, by share; each set runs twice: each run turns at least the first
    // pair left of its kind (the box pairs, marked `x`, first).
    let box_rules = pair_rules("x", box_units);
    rules.extend(box_rules.iter().cloned());
    rules.extend(box_rules);
    let king_rules = pair_rules("", axis_units);
    rules.extend(king_rules.iter().cloned());
    rules.extend(king_rules);
    let most = 2 * axis_units(0, 0)
        + 2 * box_units(0, 1)
        + (0..64)
            .map(|sq| king_table_units('K', sq))
            .max()
            .unwrap_or(0)
        + units(OPPOSITION_CP.max(NEAR_OPPOSITION_CP));
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
/// of 5 cp (see the module's documentation), with the attacking king's table share from
/// `tables` ([`king_table_units_in`]).
#[track_caller]
pub fn term_white_with(
    b: &mut Builder,
    board: &Value<kind::Str>,
    tables: Tables,
) -> Value<kind::Int> {
    stack_rules::on_stack(
        b,
        "endgame_term",
        &[board.var()],
        term_rules_with(tables),
        Type::Int { bits: SCORE_BITS },
    )
}

#[cfg(test)]
mod tests;
