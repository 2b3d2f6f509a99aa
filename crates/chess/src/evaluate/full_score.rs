//! The rules of [`super::full_score_white_with`]: the score of a whole board in a few rules,
//! most of which treat every piece at once.
//!
//! # The idea
//!
//! Every square's value is written as a *code*, its value modulo `2^SCORE_BITS` (a
//! negative value is a large code whose top digits are set; an empty square's code is
//! 0), so that the score's offset code is the sum of the 64 codes plus
//! `2^(SCORE_BITS - 1)`, modulo `2^SCORE_BITS`. The sum is counted in *units*: a unit of
//! *tag* `j` (the letter `A` + `j`) stands for `2^j`. The rules:
//!
//! 1. **Layout** (one rule at the thread's head, every group at a fixed offset): the
//!    board on top of the stack becomes the *piece line*, one token `\x01<square><char>`
//!    per square (such as `\x01e4P`), followed by a unit of the top tag (the offset) and,
//!    on the line below, the result's [`SCORE_BITS`] digits, all `0`.
//! 2. **Empty squares** (one rule): their tokens go, so that the rules after it look at
//!    the pieces only.
//! 3. **Units** (one rule per tag): the tokens whose piece's code has digit `j` set get a
//!    unit of tag `j` written after them: a trie over the square names, each ending in the
//!    class of the pieces concerned.
//! 4. **Sweep** (one rule per tag, from the lowest): every two units of tag `j` become one
//!    of tag `j + 1` (where the first of them stood went the text between them, and the
//!    carry goes where the second stood), so that one unit at most of each tag is left,
//!    the carries included, since the tags are swept in order. Units of the top tag go in
//!    pairs (the score wraps, as the additions it replaces did).
//! 5. **Digits** (one rule per digit, at the thread's head): digit `j` of the result is
//!    1 where a unit of tag `j` is left: the rule turns its `0` into `1` (one group: the
//!    match but its last character). A last rule drops the piece line.
//!
//! With the tables: 1 + 1 + 14 + 14 + 14 + 1 = 45 rules, against 1,824 for the
//! square-by-square reading and the 64 additions it replaced. Once the empty squares'
//! tokens are gone, the rules not anchored at the head try the pieces and units only: a
//! unit rule at every `\x01` (their common literal prefix), a sweep rule at its own
//! tag's units (prefix `\x01<tag>`). Warm, on one thread, about 0.2 M instructions on
//! king and pawn and 1.2 M on the start position (2.4 M for the square-by-square
//! reading); most of it is per match, and a black piece's code sets the six top digits
//! (six units more to write and pair). Two other forms were measured: a token per square
//! and digit (562 tokens, 30 rules: 0.96 M on any board), and elements ending with
//! `\x01`, so that the token rules have no literal prefix and run one unanchored pass
//! (0.18 M and 0.68 M warm, but their unanchored and reverse automata cost a fresh
//! process's first `move` about 25 M instructions more on the two endgames).
//!
//! # Why the global rules stay in their thread and line
//!
//! The rules of steps 2 to 4 are not anchored at a thread's head (they rewrite many
//! places of a line at once), so every one of their patterns starts with [`ANCHOR`]
//! (`\x01`) and matches no newline: a match lies inside one line, and that line holds a
//! `\x01`. No value holds that character (the DSL refuses it in literal texts and the
//! string rules' cursor, the only other rules that write it, take it off before their
//! instruction ends; `play`'s parse turns it into `?` in the text it is given, and the
//! native side writes checked FENs), so while these rules run the only `\x01` of the
//! state are those of the piece lines this instruction wrote, one per active thread,
//! which the last rule removes. In a piece line every element starts with `\x01`, and
//! the next character tells tokens (a file, `a`-`h`) from units (a tag, `A`-`N`).

use super::{SCORE_BITS, own_units_in, possible, trie};
use crate::weights::Tables;

/// The character every element of the piece line starts with (see the module's docs).
const ANCHOR: char = '\x01';

/// The characters a square may hold (the layout reads only these).
const TOKEN_CHARS: &str = "[A-Za-z.]";

/// Any character of the piece line but an element's start (and a newline).
const INSIDE: &str = "[^\x01\\n]";

/// The value of character `c` on square `sq` (a1 = 0), white's view, in units of 5 cp:
/// 0 for an empty square, a pawn where none can stand and any character that is not a
/// piece, as the square-by-square reading counted them.
fn square_value(tables: Tables, set: usize, c: char, sq: usize) -> i64 {
    if possible(sq).any(|p| p == c) {
        let own = own_units_in(tables, set, c, sq);
        if c.is_ascii_lowercase() { -own } else { own }
    } else {
        0
    }
}

/// The code of character `c` on square `sq`: its value modulo `2^SCORE_BITS`.
fn code(tables: Tables, set: usize, c: char, sq: usize) -> i64 {
    square_value(tables, set, c, sq).rem_euclid(1 << SCORE_BITS)
}

/// The letter of tag `j` (a unit of it stands for `2^j`).
fn tag(j: usize) -> char {
    (b'A' + j as u8) as char
}

/// The rules that turn the 80-character board line on top of the stack into the score's
/// [`SCORE_BITS`] digits (offset binary), from the tables of [`super::weights`] (see the
/// module's docs).
pub(super) fn rules() -> Vec<(String, String)> {
    rules_in(Tables::Simplified, 0)
}

/// [`rules`] from `tables`' set `set`.
pub(super) fn rules_in(tables: Tables, set: usize) -> Vec<(String, String)> {
    let bits = SCORE_BITS as usize;
    let mut rules = vec![layout()];
    rules.push((format!("{ANCHOR}[a-h][1-8]\\."), String::new()));
    rules.extend((0..bits).filter_map(|j| unit_rule(tables, set, j)));
    rules.extend((0..bits).map(sweep_rule));
    rules.extend((0..bits).rev().map(digit_rule));
    rules.push((
        format!("{}[^\n]*\n([01]{{{bits}}}\n)", super::HEAD),
        "${1}${2}".to_string(),
    ));
    rules
}

/// The layout rule: the board's 64 characters as groups 2..=65 (a8 first), each written
/// into its square's token, then the offset's unit and the result's line.
fn layout() -> (String, String) {
    let mut pattern = super::HEAD.to_string();
    for _rank in 0..8 {
        pattern.push_str(&format!("({TOKEN_CHARS})").repeat(8));
        pattern.push_str("//");
    }
    pattern.push('\n');
    let mut line = String::from("${1}");
    for sq in 0..64 {
        let group = 2 + super::compact_offset(sq);
        line.push_str(&format!("{ANCHOR}{}${{{group}}}", super::square_name(sq)));
    }
    let bits = SCORE_BITS as usize;
    line.push_str(&format!(
        "{ANCHOR}{}\n{}\n",
        tag(bits - 1),
        "0".repeat(bits)
    ));
    (pattern, line)
}

/// The rule that writes a unit of tag `j` after every token whose code has digit `j`
/// set, or `None` when no code has.
fn unit_rule(tables: Tables, set: usize, j: usize) -> Option<(String, String)> {
    let entries: Vec<(String, String)> = (0..64)
        .filter_map(|sq| {
            let set: Vec<char> = "PNBRQKpnbrqk"
                .chars()
                .filter(|&c| (code(tables, set, c, sq) >> j) & 1 == 1)
                .collect();
            (!set.is_empty()).then(|| (super::square_name(sq), super::class(&set)))
        })
        .collect();
    (!entries.is_empty()).then(|| {
        (
            format!("({ANCHOR}{})", trie(&entries)),
            format!("${{1}}{ANCHOR}{}", tag(j)),
        )
    })
}

/// The rule that turns every two units of tag `j` into one of tag `j + 1` (none for the
/// top tag): the first unit and the text up to the second (group 1) become that text,
/// the second unit the carry.
fn sweep_rule(j: usize) -> (String, String) {
    let unit = format!("{ANCHOR}{}", tag(j));
    let carry = match j + 1 {
        n if n == SCORE_BITS as usize => String::new(),
        n => format!("{ANCHOR}{}", tag(n)),
    };
    (
        format!("{unit}((?:{INSIDE}|{ANCHOR}[^{}\\n])*){unit}", tag(j)),
        format!("${{1}}{carry}"),
    )
}

/// The rule that sets digit `p` (0 = least significant) of the result where a unit of tag
/// `p` is left.
fn digit_rule(p: usize) -> (String, String) {
    let top = SCORE_BITS as usize - 1;
    let pattern = format!(
        "({}[^\n]*{ANCHOR}{}[^\n]*\n{})0",
        super::THREAD,
        tag(p),
        super::any_digits((top - p) as u32)
    );
    (pattern, "${1}1".to_string())
}

#[cfg(test)]
mod tests {
    use super::super::{Scoring, full_score_white_with, tests::board_line, weights};
    use super::*;
    use regex_chess_compiler::dsl::Builder;
    use regex_chess_compiler::encode::{self, Thread};
    use regex_chess_compiler::{self as compiler, CompileOptions};
    use regex_chess_machine::exec::Executor;
    use regex_chess_machine::exec::{fast::Fast, reference::Reference};

    /// The score of an 80-character board line, natively from [`weights::piece_square`]:
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
                if let Some(v) = weights::piece_square(c, rank * 8 + file) {
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
        assert_eq!(rules().len(), 45);
    }

    #[test]
    fn rules_off_the_head_start_with_the_anchor_and_stay_on_a_line() {
        let negated = regex::Regex::new(r"\[\^[^\]]*\]").unwrap();
        for (pattern, replacement) in rules() {
            let head = pattern.trim_start_matches('(');
            if !head.starts_with(super::super::THREAD) {
                assert!(head.starts_with(ANCHOR), "{pattern:?}");
                // No newline but in the negated classes (`[^\x01\n]`, `[^A\n]`).
                let outside = negated.replace_all(&pattern, "");
                assert!(
                    !outside.contains('\n') && !outside.contains("\\n"),
                    "{pattern:?}"
                );
                assert!(!replacement.contains('\n'), "{replacement:?}");
            }
        }
    }

    #[test]
    fn scores_of_many_boards_match_a_native_sum_on_both_executors() {
        let mut b = Builder::new("t", "t");
        let board = b.input_str("b");
        let s = full_score_white_with(&mut b, &board, &Scoring::simplified());
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
        let s = full_score_white_with(&mut b, &board, &Scoring::simplified());
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
