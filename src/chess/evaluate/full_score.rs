//! The rules of [`super::full_score_white`]: the score of a whole board in a few rules
//! that each treat every square at once.
//!
//! # The idea
//!
//! Every square's value is written as a *code*, its value minus the least value the
//! square can take (a non-negative number of at most [`CODE_BITS`] binary digits), so
//! that the score is the sum of the 64 codes plus a constant. That sum is counted in
//! *columns*, one per binary digit of the result: column `j` holds one *unit* for every
//! square whose code has digit `j` set, and the constant's digits as units of their
//! own. The score is then `sum(units of column j * 2^j)` modulo `2^SCORE_BITS`, which the
//! rules bring to digits in three steps:
//!
//! 1. **Layout** (one rule at the thread's head, every group at a fixed offset): the
//!    board on top of the stack becomes the column line, where column `j` holds, for
//!    every square whose code's digit `j` depends on what stands there, a *token*: a set
//!    id (see below) and the square's character. A square whose digit `j` is always set
//!    (never, so far) is a unit at once, one whose digit is never set takes nothing. The
//!    line of the result's digits, all `0`, goes below.
//! 2. **Tokens to units** (two rules for all tokens of all columns): the tokens whose
//!    character is in their id's set become units, then the others go. The set id names
//!    the characters for which the digit is set, so one trie over the ids covers every
//!    square of every column (the 562 tokens of the tables use 135 distinct sets).
//! 3. **Halving rounds** (two rules a round for all columns): pairs of units become one
//!    unit of the next column (a *carry*, written with the round's own letter so that a
//!    second rule can move exactly those across the column's separator). Each round
//!    brings every count `n` to `n mod 2` plus half the lower column's count; after
//!    [`Plan::rounds`] rounds (6 with the tables, computed from the worst counts) no
//!    column holds more than 2 units. Carries out of the top column fall into a *sink*
//!    in front of it, which nothing reads (the score wraps, as the `add` it replaces
//!    did).
//! 4. **Digits** (one rule per digit of the result, at the thread's head): with counts
//!    of at most 2 the carry into a column is 0 or 1, and it is 1 exactly when the first
//!    column below that does not hold 1 unit holds 2. So digit `p` of the result is a
//!    small regular test of the column line, and its rule turns the digit's `0` into
//!    `1` (one group: the match but its last character). A last rule drops the column
//!    line.
//!
//! 1 + 2 + 2 × 6 + [`SCORE_BITS`] + 1 = 30 rules, against 1,824 for the square-by-square
//! reading and the 64 additions it replaces; every distinct pattern is small.
//!
//! # Why the global rules stay in their thread and line
//!
//! The rules of steps 2 and 3 are not anchored at a thread's head (they rewrite many
//! places of a line at once), so every one of their patterns starts with [`ANCHOR`]
//! (`\x01`) and holds no newline: a match lies inside one line, and that line holds a
//! `\x01`. No value holds that character (the DSL refuses it in literal texts and the
//! string rules' cursor, the only other rules that write it, take it off before their
//! instruction ends; `play`'s parse turns it into `?` in the text it is given, and the
//! native side writes checked FENs), so while these rules run, the only `\x01` of the
//! state are those of the column lines this instruction wrote, one per active thread,
//! which the last rule removes. Within a column line every element starts with `\x01`
//! (tokens `\x01<id><char>`, units `\x01<letter>`, separators `\x01|`), and the second
//! character tells them apart, so a match cannot start inside an element.
//!
//! # The column line
//!
//! `<sink>` then, for each column from the top one ([`SCORE_BITS`] − 1) down to 0, its
//! separator `\x01|` and its contents; then `\n`, the result's [`SCORE_BITS`] digits
//! (offset binary, most significant first, all `0` at first) and `\n`. Units are
//! `\x01a` (from tokens and the constant) and `\x01b`, `\x01c`, … (the carries of
//! rounds 1, 2, …).

use std::collections::BTreeMap;

use super::{SCORE_BITS, any_digits, possible, trie, white_units};

/// The character every element of the column line starts with (see the module's docs).
pub(super) const ANCHOR: char = '\x01';

/// The most binary digits a square's code takes (checked when the plan is made).
pub(super) const CODE_BITS: usize = 9;

/// The characters a token may carry: a board's (the layout reads only these).
const TOKEN_CHARS: &str = "[A-Za-z.]";

/// The characters of the set ids (two a token): neither a unit's letter nor `|`.
const ID_CHARS: &[u8] = b"0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ";

/// The separator in front of each column, as a regex.
const SEP: &str = "\x01\\|";

/// Any unit, as a regex.
const UNIT: &str = "\x01[a-z]";

/// The value of character `c` on square `sq` (a1 = 0), white's view, in units of 5 cp:
/// 0 for an empty square, a pawn where none can stand and any character that is not a
/// piece, as the square-by-square reading counted them.
pub(super) fn square_value(c: char, sq: usize) -> i64 {
    if possible(sq).any(|p| p == c) {
        white_units(c, sq)
    } else {
        0
    }
}

/// What the rules write, computed once from the tables.
#[derive(Debug)]
pub(super) struct Plan {
    /// Per column (0 = least significant): the units written at once (the constant's
    /// digit and the squares whose digit is always set).
    pub(super) units: Vec<usize>,
    /// Per column: the tokens, as (square, set id).
    pub(super) tokens: Vec<Vec<(usize, usize)>>,
    /// Per set id: the letters (of `A-Za-z`) and `.` for which the digit is set.
    pub(super) sets: Vec<Vec<char>>,
    /// The halving rounds that bring every column to at most 2 units.
    pub(super) rounds: usize,
}

impl Plan {
    /// The plan of the tables of [`super::eval`].
    ///
    /// # Panics
    /// When a square's code takes more than [`CODE_BITS`] digits (the tables changed).
    pub(super) fn new() -> Plan {
        let columns = SCORE_BITS as usize;
        let chars: Vec<char> = ('A'..='Z').chain('a'..='z').chain(['.']).collect();
        let mut units = vec![0usize; columns];
        let mut tokens = vec![Vec::new(); columns];
        let mut ids: BTreeMap<Vec<char>, usize> = BTreeMap::new();
        // The result's offset code is the sum of the values plus 2^(SCORE_BITS - 1).
        let mut constant = 1i64 << (columns - 1);
        for sq in 0..64 {
            let least = chars
                .iter()
                .map(|&c| square_value(c, sq))
                .min()
                .unwrap_or(0);
            constant += least;
            let code = |c: char| square_value(c, sq) - least;
            let most = chars.iter().map(|&c| code(c)).max().unwrap_or(0);
            assert!(
                most < 1 << CODE_BITS,
                "a code of {most} takes more than {CODE_BITS} digits"
            );
            for (j, column) in tokens.iter_mut().enumerate().take(CODE_BITS) {
                let set: Vec<char> = chars
                    .iter()
                    .copied()
                    .filter(|&c| (code(c) >> j) & 1 == 1)
                    .collect();
                if set.len() == chars.len() {
                    units[j] += 1;
                } else if !set.is_empty() {
                    let next = ids.len();
                    let id = *ids.entry(set).or_insert(next);
                    column.push((sq, id));
                }
            }
        }
        let constant = constant.rem_euclid(1 << columns);
        for (j, count) in units.iter_mut().enumerate() {
            *count += ((constant >> j) & 1) as usize;
        }
        let mut sets = vec![Vec::new(); ids.len()];
        for (set, id) in ids {
            sets[id] = set;
        }
        assert!(
            sets.len() <= ID_CHARS.len() * ID_CHARS.len(),
            "too many sets"
        );
        let mut counts: Vec<usize> = (0..columns).map(|j| units[j] + tokens[j].len()).collect();
        let mut rounds = 0;
        while counts.iter().any(|&n| n > 2) {
            counts = (0..columns)
                .map(|j| counts[j].min(1) + if j == 0 { 0 } else { counts[j - 1] / 2 })
                .collect();
            rounds += 1;
        }
        assert!(rounds < 25, "a unit letter for every round");
        Plan {
            units,
            tokens,
            sets,
            rounds,
        }
    }

    /// The rules (see the module's docs): they turn the 80-character board line on top
    /// of the stack into the score's [`SCORE_BITS`] digits.
    pub(super) fn rules(&self) -> Vec<(String, String)> {
        let mut rules = vec![self.layout()];
        rules.extend(self.to_units());
        for round in 1..=self.rounds {
            rules.extend(halving(round));
        }
        let bits = SCORE_BITS as usize;
        rules.extend((0..bits).rev().map(digit_rule));
        rules.push((
            format!("{}[^\n]*\n([01]{{{bits}}}\n)", super::HEAD),
            "${1}${2}".to_string(),
        ));
        rules
    }

    /// The layout rule: the board's 64 characters as groups 2..=65 (a8 first), written
    /// into the tokens of every column.
    fn layout(&self) -> (String, String) {
        let mut pattern = super::HEAD.to_string();
        for _rank in 0..8 {
            pattern.push_str(&format!("({TOKEN_CHARS})").repeat(8));
            pattern.push_str("//");
        }
        pattern.push('\n');
        let mut line = String::from("${1}");
        for j in (0..SCORE_BITS as usize).rev() {
            line.push_str(&format!("{ANCHOR}|"));
            for _ in 0..self.units[j] {
                line.push_str(&format!("{ANCHOR}a"));
            }
            for &(sq, id) in &self.tokens[j] {
                let group = 2 + super::compact_offset(sq);
                line.push_str(&format!("{ANCHOR}{}${{{group}}}", id_text(id)));
            }
        }
        line.push('\n');
        line.push_str(&"0".repeat(SCORE_BITS as usize));
        line.push('\n');
        (pattern, line)
    }

    /// The two rules that turn every token into a unit or nothing.
    fn to_units(&self) -> Vec<(String, String)> {
        let entries: Vec<(String, String)> = self
            .sets
            .iter()
            .enumerate()
            .map(|(id, set)| (id_text(id), set_class(set)))
            .collect();
        let ids = format!("[{}]", std::str::from_utf8(ID_CHARS).expect("ASCII"));
        vec![
            (format!("{ANCHOR}{}", trie(&entries)), format!("{ANCHOR}a")),
            (format!("{ANCHOR}{ids}{ids}{TOKEN_CHARS}"), String::new()),
        ]
    }
}

/// A regex of the token characters of `set`: when it holds `.`, every character but the
/// pieces it lacks (what follows a token's id is one of [`TOKEN_CHARS`], and the letters
/// that are not pieces count as `.`), else its pieces.
fn set_class(set: &[char]) -> String {
    if set.contains(&'.') {
        let absent: String = "PNBRQKpnbrqk"
            .chars()
            .filter(|c| !set.contains(c))
            .collect();
        format!("[^{absent}]")
    } else {
        super::class(set)
    }
}

/// The two characters of set id `id`.
fn id_text(id: usize) -> String {
    let n = ID_CHARS.len();
    [ID_CHARS[id / n] as char, ID_CHARS[id % n] as char]
        .iter()
        .collect()
}

/// The letter of the units a round writes: `a` for the tokens' and the constant's
/// (round 0), then `b`, `c`, … for the carries of rounds 1, 2, ….
fn letter(round: usize) -> char {
    (b'a' + round as u8) as char
}

/// Round `round`'s two rules: every two units of a column (any earlier letter) become
/// one carry (this round's letter), in place, so that a column reads `<carries><the odd
/// unit, if any>`; then every column's carries move in front of its separator, to the
/// end of the column above.
fn halving(round: usize) -> Vec<(String, String)> {
    let earlier = format!("{ANCHOR}[a-{}]", letter(round - 1));
    let carry = format!("{ANCHOR}{}", letter(round));
    vec![
        (format!("{earlier}{earlier}"), carry.clone()),
        (format!("{SEP}((?:{carry})+)"), format!("${{1}}{ANCHOR}|")),
    ]
}

/// The rule that sets digit `p` (0 = least significant) of the result where it is 1:
/// after the sink and the columns above `p`, column `p` holds `n` (0 to 2) units and
/// the columns below give the carry `c` into it (1 when the first column below that does
/// not hold one unit holds two); the digit is `(n + c) mod 2`.
fn digit_rule(p: usize) -> (String, String) {
    let top = SCORE_BITS as usize - 1;
    let any = format!("{SEP}(?:{UNIT}){{0,2}}");
    let one = format!("{SEP}{UNIT}");
    let two = format!("{SEP}{UNIT}{UNIT}");
    // The columns below `p` with their carry: 1, or 0.
    let carry = format!("(?:{one})*{two}(?:{any})*");
    let no_carry = format!("(?:{one})*(?:{SEP}(?:{any})*)?");
    let above = match top - p {
        0 => String::new(),
        n => format!("(?:{any}){{{n}}}"),
    };
    let pattern = format!(
        "({}(?:{UNIT})*{above}{SEP}(?:{UNIT}{no_carry}|(?:{UNIT}{UNIT})?{carry})\n{})0",
        super::THREAD,
        any_digits((top - p) as u32)
    );
    (pattern, "${1}1".to_string())
}

#[cfg(test)]
mod tests {
    use super::super::{eval, full_score_white, tests::board_line};
    use super::*;
    use crate::compiler::dsl::Builder;
    use crate::compiler::encode::{self, Thread};
    use crate::compiler::{self, CompileOptions};
    use crate::exec::Executor;
    use crate::exec::{fast::Fast, reference::Reference};

    /// The score of an 80-character board line, natively from [`eval::piece_square`]:
    /// white pieces for, black ones against, a pawn on the first or last rank and any
    /// other character 0, the sum wrapped to [`SCORE_BITS`] bits (as the additions of
    /// the square-by-square reading wrapped it).
    fn native_score(line: &str) -> i64 {
        let rows: Vec<&str> = line.split("//").take(8).collect();
        let mut total = 0i128;
        for (row, text) in rows.iter().enumerate() {
            let rank = 7 - row;
            for (file, c) in text.chars().enumerate() {
                let pawn = c.eq_ignore_ascii_case(&'p');
                if pawn && (rank == 0 || rank == 7) {
                    continue;
                }
                if let Some(v) = eval::piece_square(c, rank * 8 + file) {
                    let v = i128::from(v / 5);
                    total += if c.is_ascii_uppercase() { v } else { -v };
                }
            }
        }
        encode::wrap(SCORE_BITS, total)
    }

    /// A pseudo-random board line: each square empty with probability `empty` in 64,
    /// else a random character of `pieces`.
    fn random_line(next: &mut impl FnMut(u64) -> u64, empty: u64, pieces: &[u8]) -> String {
        let mut line = String::new();
        for _ in 0..8 {
            for _ in 0..8 {
                if next(64) < empty {
                    line.push('.');
                } else {
                    line.push(pieces[next(pieces.len() as u64) as usize] as char);
                }
            }
            line.push_str("//");
        }
        line
    }

    #[test]
    fn the_plan_fits_the_rule_count() {
        let plan = Plan::new();
        assert_eq!(plan.rounds, 6);
        assert_eq!(plan.rules().len(), 30);
    }

    #[test]
    fn rules_off_the_head_start_with_the_anchor_and_stay_on_a_line() {
        for (pattern, replacement) in Plan::new().rules() {
            let head = pattern.trim_start_matches('(');
            if !head.starts_with(super::super::THREAD) {
                assert!(pattern.starts_with(ANCHOR), "{pattern:?}");
                assert!(!pattern.contains('\n'), "{pattern:?}");
                assert!(!replacement.contains('\n'), "{replacement:?}");
            }
        }
    }

    #[test]
    fn scores_of_many_boards_match_a_native_sum_on_both_executors() {
        let mut b = Builder::new("t", "t");
        let board = b.input_str("b");
        let s = full_score_white(&mut b, &board);
        b.output("s", &s);
        let program = compiler::compile(b.finish(), &CompileOptions::default())
            .program
            .validate()
            .unwrap();
        let mut seed = 2026u64;
        let mut next = |n: u64| {
            seed = seed
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            (seed >> 33) % n
        };
        let mut lines: Vec<String> = [
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR",
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R",
            "8/8/4k3/8/2KP4/8/8/8",
            "8/8/8/8/8/8/8/8",
            // Pawns on the first and last ranks count 0.
            "PPPPPPPP/pppppppp/8/8/8/8/PPPPPPPP/pppppppp",
            // Sums beyond 14 bits wrap, both ways.
            "QQQQQQQQ/QQQQQQQQ/QQQQQQQQ/QQQQQQQQ/QQQQQQQQ/QQQQQQQQ/QQQQQQQQ/QQQQQQQQ",
            "qqqqqqqq/qqqqqqqq/qqqqqqqq/qqqqqqqq/qqqqqqqq/qqqqqqqq/qqqqqqqq/qqqqqqqq",
        ]
        .iter()
        .map(|fen| board_line(fen))
        .collect();
        // Every piece on every square: one board per piece, filled with it.
        for piece in "PNBRQKpnbrqk".chars() {
            lines.push(format!("{}//", piece.to_string().repeat(8)).repeat(8));
        }
        let all = b"PNBRQKpnbrqk";
        for k in 0..360u64 {
            let line = match k % 4 {
                // Sparse, middle-game-like and dense boards of any pieces.
                0 => random_line(&mut next, 56, all),
                1 => random_line(&mut next, 40, all),
                2 => random_line(&mut next, 8, all),
                // One side only: large scores of either sign.
                _ => random_line(
                    &mut next,
                    20,
                    if k % 8 == 3 { b"PNBRQK" } else { b"pnbrqk" },
                ),
            };
            lines.push(line);
        }
        let threads: Vec<Thread> = lines
            .iter()
            .map(|line| Thread::active(&[], &[("b", line)]))
            .collect();
        let state = encode::render(&threads);
        let reference = Reference::new(program.clone()).run(&state);
        let fast = Fast::new(program).run(&state);
        assert!(fast == reference, "fast and reference differ");
        let out = encode::threads(&reference);
        assert_eq!(out.len(), lines.len());
        let mut wrapped = 0;
        for (thread, line) in out.iter().zip(&lines) {
            let got = encode::decode_int(thread.var("s").unwrap()).unwrap();
            let want = native_score(line);
            assert_eq!(got, want, "{line}");
            wrapped += usize::from(want.abs() > 4000);
        }
        assert!(wrapped >= 2, "boards with large scores");
    }

    #[test]
    fn other_threads_and_lines_keep_their_text() {
        let mut b = Builder::new("t", "t");
        let board = b.input_str("b");
        let other = b.input_str("x");
        let s = full_score_white(&mut b, &board);
        b.output("s", &s);
        b.output("x", &other);
        let program = compiler::compile(b.finish(), &CompileOptions::default())
            .program
            .validate()
            .unwrap();
        let line = board_line("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R");
        // Text a careless rule could take: units' letters, digits, ids, separators.
        let text = "aabb|11|AB0P|ab|a|1101";
        let paused = Thread::active(&[text, &line], &[("b", &line), ("x", text)]).paused("w");
        let state = encode::render(&[
            Thread::active(&[], &[("b", &line), ("x", text)]),
            paused.clone(),
            Thread::active(&[], &[("b", &line), ("x", text)]),
        ]);
        for out in [
            Reference::new(program.clone()).run(&state),
            Fast::new(program.clone()).run(&state),
        ] {
            let segments = encode::parse(&out).unwrap();
            let threads: Vec<&Thread> = segments
                .iter()
                .filter_map(|s| match s {
                    encode::Segment::Thread(t) => Some(t),
                    _ => None,
                })
                .collect();
            assert_eq!(threads.len(), 3);
            assert_eq!(threads[1], &paused);
            for t in [threads[0], threads[2]] {
                assert_eq!(t.var("x"), Some(text));
                let got = encode::decode_int(t.var("s").unwrap()).unwrap();
                assert_eq!(got, native_score(&line));
            }
        }
    }
}
