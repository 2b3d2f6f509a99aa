//! The evaluation of [`super::weights`] in rules: a full score for one position, and the
//! score change of one move (incremental evaluation), both as integers of the compiler's
//! `Int` type.
//!
//! # Units and widths
//!
//! Every table entry, every value and [`weights::MATE`] is a multiple of 5 centipawns
//! (checked when the rules are built), so the rules count in units of 5 cp: a score fits
//! in [`SCORE_BITS`] bits and a move's gain in [`GAIN_BITS`]. The search compares scores
//! only, so the unit does not change any decision.
//!
//! # Where the work is
//!
//! Cost is rules × active threads. The full score ([`full_score_white_with`]) runs once, on
//! the root's single thread, in 45 rules, most of which treat every piece at once (see
//! `full_score`: the pieces' values as binary units, paired from the lowest digit up);
//! reading the board square by square took 736 rules and 64 additions (1,824 rules),
//! about 2.4 M instructions, 8% of a warm king-and-pawn `play` move. Everything else is
//! incremental: a child's score is its parent's plus the mover's [`gain`], which runs on
//! every leaf of the search (about 2,000 threads), so it is written for few, cheap rules:
//! 20 in all, none of them with a group whose place in the match varies (the executor
//! finds such groups from the match's span alone).
//!
//! - No board is read: the generation leaves in each child two letters, what stood on
//!   the target and the mover ([`crate::board::Children::taken`]), and one rule lays the
//!   key out from them and the move's text. (Reading them on a copy of the parent's
//!   board, 70 bytes in every child, took two select rules more and a third of the
//!   widest state; issue 43.)
//! - The arriving piece is the mover, or the promotion letter: the board after the move
//!   is not read. Castling and en passant are recognised from the key (squares and
//!   mover, captured square empty) by the arrival's rules themselves, which read the
//!   key's `from` where the arrival's `to` can end one of them.
//! - The gain is the sum of two table values, the arrival (`to`, promotion, captured
//!   piece, mover, and for castling and en passant `from`) and the departure (`from`,
//!   mover). The arrival is written as a code of 9 digits (its value minus the least
//!   one), one rule per digit testing the key against a trie of the table entries with
//!   that digit set and turning the digit's `0` into `1` (one group, the match but its
//!   last character).
//! - The departure is never written: each digit of the sum is one rule that reads the
//!   departure key (mover, `from`) and, for the departure value it gives, tests the
//!   arrival's digits against the codes for which that digit of the sum is 1 (carry
//!   included: an interval or two of the code's low digits, a small trie). So the
//!   addition costs one rule per digit, each matching about half the threads, instead
//!   of a carry step per digit matching all of them with groups inside an alternation,
//!   and the departure's ten digit rules are gone (kiwipete's warm move: the leaves'
//!   gain from 129 M to 68 M instructions, 37 rules to 23). The top digit's rule also
//!   sign-extends the result to [`SCORE_BITS`] bits.
//! - The last digit of the sum is the gain's parity: the last arrival rule writes it in
//!   place of the code's last digit (its trie also reads the departure's parity), the
//!   sum's rules read that digit flipped where the departure makes it differ, and the
//!   rule dropping the key copies it into the result (22 rules; the sum's rule for its
//!   last digit, which visited every leaf, is gone).
//!
//! # Stack layouts (internal)
//!
//! The gain works on `<key>\n<arrival code>\n<result>\n`, the key being
//! `<mover><from><to><promotion>:<captured>` and the result
//! starting as in `scratch_lines`; see `gain_rules` and `sum_rules`.

mod full_score;

use std::collections::BTreeMap;

use super::stack_rules::{self, on_stack};
use super::weights::{self, Tables};
use regex_chess_compiler::dsl::{Builder, Value, kind};
use regex_chess_compiler::ir::{Instruction, Type};

/// Width of scores (units of 5 cp): ±8191 units, ±40955 cp, beyond [`weights::MATE`].
pub const SCORE_BITS: u8 = 14;
/// Width of a move's gain: ±511 units.
pub const GAIN_BITS: u8 = 10;

/// The characters a board square can hold.
pub const SQUARE_CHARS: &str = "PNBRQKpnbrqk.";

/// The head of an active thread, captured as group 1.
const HEAD: &str = "(%%\n#stack:\n)";
/// The head of an active thread, uncaptured.
const THREAD: &str = super::fragments::HEAD;

/// `value` in units of 5 cp.
///
/// # Panics
/// When it is not a multiple of 5 (the tables changed: the unit must change too).
pub fn units(value: i32) -> i64 {
    assert_eq!(value % 5, 0, "table entry {value} is not a multiple of 5");
    (value / 5) as i64
}

/// The mover's-own-view value of `piece` (`PNBRQKpnbrqk`, or `.` for empty = 0) on the
/// square with index `square` (a1 = 0), in units, from `tables`' set `bucket`.
pub fn own_units_in(tables: Tables, bucket: usize, piece: char, square: usize) -> i64 {
    if piece == '.' {
        return 0;
    }
    units(tables.entry(bucket, piece, square).expect("a piece letter"))
}

/// What the score and gain rules read: a set of tables and, when it has several sets
/// (the tapered tables' buckets), the variable holding the set's number, one digit.
#[derive(Clone, Debug)]
pub struct Scoring {
    /// The tables.
    pub tables: Tables,
    /// The set's number, with the tapered tables.
    pub bucket: Option<Value<kind::Str>>,
}

impl Scoring {
    /// The simplified tables, which have one set.
    pub fn simplified() -> Scoring {
        Scoring {
            tables: Tables::Simplified,
            bucket: None,
        }
    }
}

/// The name of square `index` (a1 = 0), such as `e4`.
pub fn square_name(index: usize) -> String {
    square(index).to_string()
}

/// The square of `index` (a1 = 0), which is below 64.
fn square(index: usize) -> crate::notation::Square {
    crate::notation::Square::from_index(index).expect("a square index")
}

/// The offset of square `index` in the 80-character board line.
pub fn board_offset(index: usize) -> usize {
    square(index).board_offset()
}

/// The offset of square `index` in the 64-character compact board (see [`compact`]).
pub fn compact_offset(index: usize) -> usize {
    square(index).compact_offset()
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

/// Any character a board line holds (ASCII: small automata for the counted skips).
pub const BOARD_CHAR: &str = "[./A-Za-z]";

/// `BOARD_CHAR{n}` (empty for 0).
pub(crate) fn skip(n: usize) -> String {
    match n {
        0 => String::new(),
        _ => format!("{BOARD_CHAR}{{{n}}}"),
    }
}

/// The index of a square name such as `e4`.
fn square_index(name: &str) -> usize {
    name.parse::<crate::notation::Square>()
        .expect("a square name")
        .index()
}

/// The moves with an extra part, as `(<to><from>, mover, extra)`: the extra part of the
/// arrival value is the castling rook's change or the en-passant victim's entry.
fn extra_moves(own: &dyn Fn(char, usize) -> i64) -> Vec<(String, char, i64)> {
    let own_units = own;
    let mut out = Vec::new();
    for (king, from, to, rook_from, rook_to) in [
        ('K', "e1", "g1", "h1", "f1"),
        ('K', "e1", "c1", "a1", "d1"),
        ('k', "e8", "g8", "h8", "f8"),
        ('k', "e8", "c8", "a8", "d8"),
    ] {
        let rook = if king == 'K' { 'R' } else { 'r' };
        let v = own_units(rook, square_index(rook_to)) - own_units(rook, square_index(rook_from));
        out.push((format!("{to}{from}"), king, v));
    }
    // En passant: a pawn moving diagonally onto an empty square of the sixth (third) rank.
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
                let key = format!("{}{}", square_name(to), square_name(from));
                out.push((key, pawn, own_units(victim, captured)));
            }
        }
    }
    out
}

/// An alternation of `entries` (a literal key, then a pattern) written as a trie over the
/// keys: no two keys' branches start with the same character, so the automata stay
/// small (and one-pass when the tails do not overlap).
pub(crate) fn trie(entries: &[(String, String)]) -> String {
    let mut here = Vec::new();
    let mut children: BTreeMap<char, Vec<(String, String)>> = BTreeMap::new();
    for (key, tail) in entries {
        let mut chars = key.chars();
        match chars.next() {
            None => here.push(tail.clone()),
            Some(c) => children
                .entry(c)
                .or_default()
                .push((chars.as_str().to_string(), tail.clone())),
        }
    }
    let mut parts = here;
    for (c, sub) in &children {
        parts.push(format!("{}{}", regex::escape(&c.to_string()), trie(sub)));
    }
    match parts.len() {
        1 => parts.pop().expect("one part"),
        _ => format!("(?:{})", parts.join("|")),
    }
}

/// Rules that turn the two top lines `<uci>\n<taken>\n` (a move's text on top of the two
/// letters of [`crate::board::Children::taken`]: what stood on the target, then the mover)
/// into the move's gain (see [`gain`]), in [`SCORE_BITS`] bits:
/// - one rule lays out the key `<mover><from><to><promotion>:<captured>` and the two lines
///   of `scratch_lines`;
/// - the rules of [`arrival_rules`] write the arrival's code, those of `sum_rules` the
///   sum and drop the rest.
///
/// With several sets of tables the set's digit lies between the move and the letters: the
/// key then reads `<mover><set>` where it read the mover, and so does every later rule.
fn gain_rules(tables: Tables, arrival: Arrival) -> Vec<(String, String)> {
    let sets = tables.buckets() > 1;
    let tables = GainTables::new(tables, arrival);
    let code = ArrivalCode::new(&tables);
    let scratch = scratch_lines(code);
    let uci = "([a-h][1-8][a-h][1-8][qrbn]?)\n";
    let mut rules = vec![match sets {
        false => (
            format!("{HEAD}{uci}([^\n])([^\n])\n"),
            format!("${{1}}${{4}}${{2}}:${{3}}\n{scratch}"),
        ),
        true => (
            format!("{HEAD}{uci}([0-9])\n([^\n])([^\n])\n"),
            format!("${{1}}${{5}}${{3}}${{2}}:${{4}}\n{scratch}"),
        ),
    }];
    rules.extend(arrival_rules(&tables, code));
    rules.extend(sum_rules(&tables, code));
    rules
}

/// The two tables of a move's gain, computed once per set of rules. A *mover* is the
/// moving piece's letter, followed, with several sets of tables, by the set's digit.
struct GainTables {
    /// Per mover: the departure value (minus its entry) per `from` square, `None` where
    /// it cannot stand.
    departures: Vec<(String, Vec<Option<i64>>)>,
    /// Per mover (same order): per arrival key `<to><promotion>:`, the arrival value per
    /// captured character of [`SQUARE_CHARS`] and then that of the move with an extra
    /// part (castling, en passant: `None` where there is none).
    arrivals: Vec<Vec<(String, Vec<Option<i64>>)>>,
    /// Per mover (same order): per `to` square that ends a move with an extra part, the
    /// `from` squares of those moves (their captured square is empty).
    extra_froms: Vec<BTreeMap<usize, Vec<usize>>>,
}

impl GainTables {
    fn new(tables: Tables, arrival: Arrival) -> GainTables {
        let mut departures = Vec::new();
        let mut arrivals = Vec::new();
        let mut extra_froms = Vec::new();
        for set in 0..tables.buckets() {
            let own_units = |piece: char, square: usize| own_units_in(tables, set, piece, square);
            let suffix = match tables.buckets() {
                1 => String::new(),
                _ => set.to_string(),
            };
            let extras = extra_moves(&own_units);
            let extra_on = |to: usize, mover: char| {
                extras
                    .iter()
                    .find(|(key, m, _)| *m == mover && square_index(&key[..2]) == to)
                    .map(|(_, _, v)| *v)
            };
            for mover in "PNBRQKpnbrqk".chars() {
                let mut froms: BTreeMap<usize, Vec<usize>> = BTreeMap::new();
                for (key, _, _) in extras.iter().filter(|(_, m, _)| *m == mover) {
                    let (to, from) = (square_index(&key[..2]), square_index(&key[2..]));
                    froms.entry(to).or_default().push(from);
                }
                extra_froms.push(froms);
                let from_values = (0..64)
                    .map(|from| {
                        possible(from)
                            .any(|m| m == mover)
                            .then(|| -own_units(mover, from))
                    })
                    .collect();
                departures.push((format!("{mover}{suffix}"), from_values));
                let mut cells = Vec::new();
                for to in 0..64 {
                    for promotion in [None, Some('q'), Some('r'), Some('b'), Some('n')] {
                        let legal = match promotion {
                            None => possible(to).any(|m| m == mover),
                            Some(_) => {
                                (mover == 'P' && to / 8 == 7) || (mover == 'p' && to / 8 == 0)
                            }
                        };
                        if !legal {
                            continue;
                        }
                        let arrived = match promotion {
                            Some(p) if mover.is_ascii_uppercase() => p.to_ascii_uppercase(),
                            Some(p) => p,
                            None => mover,
                        };
                        let base = match arrival {
                            Arrival::Kept => own_units(arrived, to),
                            Arrival::Lost => 0,
                        };
                        let mut values: Vec<Option<i64>> = SQUARE_CHARS
                            .chars()
                            .map(|c| Some(base + own_units(c, to)))
                            .collect();
                        values.push(extra_on(to, mover).map(|v| base + v));
                        let key = format!(
                            "{}{}:",
                            square_name(to),
                            promotion.map(String::from).unwrap_or_default()
                        );
                        cells.push((key, values));
                    }
                }
                arrivals.push(cells);
            }
        }
        GainTables {
            departures,
            arrivals,
            extra_froms,
        }
    }

    /// The key lines (mover first) whose arrival value satisfies `pred`.
    fn arrival_key(&self, pred: impl Fn(i64) -> bool) -> Option<String> {
        let every: Vec<usize> = (0..64).collect();
        self.key_by_mover(|m| {
            let mut branches: Vec<String> = self
                .arrival_trie(m, &pred)
                .map(|arrivals| format!("[a-h][1-8]{arrivals}"))
                .into_iter()
                .collect();
            branches.extend(self.extra_branches(m, &every, &pred));
            branches
        })
    }

    /// The key lines (mover first) of the moves whose gain is odd: the last digit of the
    /// gain's offset code (the gain plus 2^([`GAIN_BITS`] - 1)), which the last arrival
    /// rule writes in place of the code's own last digit (see [`sum_digit_set`]). The departure's parity splits each mover's `from` squares
    /// in two; each half takes the arrival values of the parity that makes the sum odd.
    fn odd_gain_key(&self) -> Option<String> {
        self.key_by_mover(|m| {
            let mut branches = Vec::new();
            for parity in [0, 1] {
                let froms: Vec<usize> = self.departures[m]
                    .1
                    .iter()
                    .enumerate()
                    .filter(|(_, d)| d.is_some_and(|d| d.rem_euclid(2) == parity))
                    .map(|(from, _)| from)
                    .collect();
                if froms.is_empty() {
                    continue;
                }
                let odd = |v: i64| (v + parity).rem_euclid(2) == 1;
                if let Some(arrivals) = self.arrival_trie(m, odd) {
                    branches.push(format!("{}{arrivals}", squares(&froms)));
                }
                branches.extend(self.extra_branches(m, &froms, odd));
            }
            branches
        })
    }

    /// A trie over the movers of the branches `branches_of(m)` gives each mover `m` (the
    /// key after the mover's letter), leaving out movers without any.
    fn key_by_mover(&self, branches_of: impl Fn(usize) -> Vec<String>) -> Option<String> {
        let by_mover: Vec<(String, String)> = (0..self.departures.len())
            .filter_map(|m| {
                let mut branches = branches_of(m);
                let mover = self.departures[m].0.clone();
                match branches.len() {
                    0 => None,
                    1 => Some((mover, branches.pop().expect("one branch"))),
                    _ => Some((mover, format!("(?:{})", branches.join("|")))),
                }
            })
            .collect();
        (!by_mover.is_empty()).then(|| trie(&by_mover))
    }

    /// The keys `<from><to>:.` of mover `m` from a square of `allowed` onto an empty `to`
    /// square that ends a move with an extra part, whose arrival value satisfies `pred`:
    /// the `from` squares of those moves take the extra part's value, the others the plain
    /// one ([`Self::arrival_trie`] leaves these keys out).
    fn extra_branches(
        &self,
        m: usize,
        allowed: &[usize],
        pred: impl Fn(i64) -> bool,
    ) -> Vec<String> {
        let empty = SQUARE_CHARS.find('.').expect("`.` is a square character");
        let mut out = Vec::new();
        for (&to, froms) in &self.extra_froms[m] {
            let to_key = format!("{}:", square_name(to));
            let (_, values) = self.arrivals[m]
                .iter()
                .find(|(key, _)| *key == to_key)
                .expect("a move with an extra part arrives on a possible square");
            let extra: Vec<usize> = froms
                .iter()
                .copied()
                .filter(|sq| allowed.contains(sq))
                .collect();
            let others: Vec<usize> = allowed
                .iter()
                .copied()
                .filter(|sq| !froms.contains(sq))
                .collect();
            for (from, value) in [
                (&extra, values[SQUARE_CHARS.len()]),
                (&others, values[empty]),
            ] {
                if !from.is_empty() && value.is_some_and(&pred) {
                    out.push(format!("{}{}:\\.", squares(from), square_name(to)));
                }
            }
        }
        out
    }

    /// The `<to><promotion>:<captured>` key ends of mover `m` whose arrival value
    /// satisfies `pred`: per file, the ranks whose tail (promotion, `:`, class of
    /// captured characters) is the same share one branch with a class of ranks.
    fn arrival_trie(&self, m: usize, pred: impl Fn(i64) -> bool) -> Option<String> {
        let captured: Vec<char> = SQUARE_CHARS.chars().collect();
        let mut tails: BTreeMap<(u8, String), String> = BTreeMap::new();
        for (key, values) in &self.arrivals[m] {
            let has = |v: &Option<i64>| v.is_some_and(&pred);
            // Onto an empty square where a move with an extra part can end, the value
            // depends on `from`: see [`Self::extra_branches`].
            let extra = values[captured.len()].is_some();
            let chars: Vec<char> = captured
                .iter()
                .zip(values)
                .filter(|(c, v)| has(v) && !(extra && **c == '.'))
                .map(|(c, _)| *c)
                .collect();
            let (file, rank, rest) = (key.as_bytes()[0], key.as_bytes()[1] as char, &key[2..]);
            if !chars.is_empty() {
                let tail = format!("{rest}{}", class(&chars));
                tails.entry((file, tail)).or_default().push(rank);
            }
        }
        let entries: Vec<(String, String)> = tails
            .into_iter()
            .map(|((file, tail), ranks)| ((file as char).to_string(), format!("[{ranks}]{tail}")))
            .collect();
        (!entries.is_empty()).then(|| trie(&entries))
    }
}

/// The arrival's part of a move's gain as the rules write it: the arrival value minus
/// the least one, `digits` binary digits (most significant first).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct ArrivalCode {
    /// The least arrival value: the code of a value `v` is `v - least`.
    least: i64,
    /// The number of digits.
    digits: u8,
}

impl ArrivalCode {
    /// The code of every arrival value of `tables`.
    ///
    /// # Panics
    /// When some move's gain does not fit in [`GAIN_BITS`] bits (the tables changed).
    fn new(tables: &GainTables) -> ArrivalCode {
        let arrivals = tables
            .arrivals
            .iter()
            .flatten()
            .flat_map(|(_, v)| v)
            .flatten();
        let (least, most) =
            arrivals.fold((i64::MAX, i64::MIN), |(lo, hi), &v| (lo.min(v), hi.max(v)));
        let departures = tables.departures.iter().flat_map(|(_, v)| v).flatten();
        let (dlo, dhi) =
            departures.fold((i64::MAX, i64::MIN), |(lo, hi), &v| (lo.min(v), hi.max(v)));
        let half = 1i64 << (GAIN_BITS - 1);
        assert!(
            least + dlo >= -half && most + dhi < half,
            "gains from {} to {} do not fit in {GAIN_BITS} bits",
            least + dlo,
            most + dhi
        );
        let digits = (64 - ((most - least) as u64).leading_zeros()).max(1) as u8;
        ArrivalCode { least, digits }
    }

    /// The digit `j` (0 = most significant) of the code of arrival value `v`.
    fn digit(self, v: i64, j: usize) -> bool {
        ((v - self.least) >> (self.digits as usize - 1 - j)) & 1 == 1
    }

    /// What the sum adds to the code for a departure value `d`: the gain's offset code
    /// ([`GAIN_BITS`] bits) is `(code + addend(d)) mod 2^GAIN_BITS`.
    fn addend(self, d: i64) -> i64 {
        d + self.least + (1 << (GAIN_BITS - 1))
    }
}

/// The line of zeros the arrival's digits are written on and the line of the result's
/// digits before the sum: the [`SCORE_BITS`] offset code of a negative gain whose low
/// digits are zero (the top digit rule turns its head `01..1` into `10..0`).
fn scratch_lines(code: ArrivalCode) -> String {
    let head = (SCORE_BITS - GAIN_BITS + 1) as usize;
    format!(
        "{}\n0{}{}\n",
        "0".repeat(code.digits as usize),
        "1".repeat(head - 1),
        "0".repeat(GAIN_BITS as usize - 1)
    )
}

/// Per digit of the arrival's code ([`ArrivalCode`]), one rule that turns the digit's
/// `0` into `1` where the key is in the digit's table (one group, the match but its
/// last character, which the automaton resolves). The last digit is not the code's but
/// the gain's last digit ([`GainTables::odd_gain_key`]: its rule reads the departure's
/// parity too), which the rule dropping the key copies into the result: the sum needs
/// no rule for that digit.
fn arrival_rules(tables: &GainTables, code: ArrivalCode) -> Vec<(String, String)> {
    let last = code.digits as usize - 1;
    (0..=last)
        .filter_map(|j| {
            let key = match j == last {
                true => tables.odd_gain_key()?,
                false => tables.arrival_key(|v| code.digit(v, j))?,
            };
            Some((
                format!("({THREAD}{key}\n[01]{{{j}}})0"),
                "${1}1".to_string(),
            ))
        })
        .collect()
}

/// A regex of the `width`-digit binary numbers `y` (most significant digit first) for
/// which `member(y)` holds, or `None` when none does: a binary trie whose full subtrees
/// are counted runs of `[01]`, so that an interval takes at most two branches a level.
fn binary_set(width: u32, member: &dyn Fn(u64) -> bool) -> Option<String> {
    fn walk(base: u64, width: u32, member: &dyn Fn(u64) -> bool) -> (bool, bool, String) {
        if width == 0 {
            let m = member(base);
            return (m, !m, String::new());
        }
        let half = 1u64 << (width - 1);
        let (all0, none0, r0) = walk(base, width - 1, member);
        let (all1, none1, r1) = walk(base + half, width - 1, member);
        let text = match (none0, none1) {
            _ if all0 && all1 => any_digits(width),
            (true, true) => String::new(),
            (false, true) => format!("0{r0}"),
            (true, false) => format!("1{r1}"),
            (false, false) => format!("(?:0{r0}|1{r1})"),
        };
        (all0 && all1, none0 && none1, text)
    }
    let (_, none, text) = walk(0, width, member);
    (!none).then_some(text)
}

/// The arrival codes (a regex of the whole digits line) for which digit `p` (0 = least
/// significant) of `(code + addend) mod 2^GAIN_BITS` is 1. The digit depends on the
/// code's `p + 1` low digits only, so the set is an interval or two of those: the
/// higher digits, when there are more, match anything.
///
/// The line holds the code with its last digit replaced by the sum's last digit (see
/// [`arrival_rules`]): the code's own is that digit flipped when the addend is odd, so
/// the set is of the line as written.
fn sum_digit_set(code: ArrivalCode, addend: i64, p: u32) -> Option<String> {
    let digits = code.digits as u32;
    let low = digits.min(p + 1);
    let flip = (addend & 1) as u64;
    let set = binary_set(low, &|y| (((y ^ flip) as i64 + addend) >> p) & 1 == 1)?;
    Some(format!("{}{set}", any_digits(digits - low)))
}

/// `[01]{n}` (`[01]` for 1, empty for 0).
fn any_digits(n: u32) -> String {
    match n {
        0 => String::new(),
        1 => "[01]".to_string(),
        _ => format!("[01]{{{n}}}"),
    }
}

/// Per digit of the gain's offset code, most significant first, one rule writing it
/// into the result's line where it is 1: the rule reads the departure key (mover and
/// `from`, a trie whose branches group the squares by the regex that follows them) and
/// then tests the arrival's digits against the set of [`sum_digit_set`] for that
/// departure value, the carry included; the addition takes no rule of its own. The top
/// digit turns the line's head `01..1` into `10..0` (the sign extension to
/// [`SCORE_BITS`]); the others turn their `0` into `1` (one group: the match but its last
/// characters). The last digit takes no rule: the last arrival rule wrote it at the end
/// of the arrival's digits, and the rule that drops the key and the arrival's digits
/// copies it into the result (groups at fixed offsets from the match's end).
fn sum_rules(tables: &GainTables, code: ArrivalCode) -> Vec<(String, String)> {
    let head = (SCORE_BITS - GAIN_BITS + 1) as usize;
    let mut rules = Vec::new();
    for k in 0..GAIN_BITS as usize - 1 {
        let p = (GAIN_BITS as usize - 1 - k) as u32;
        let by_mover: Vec<(String, String)> = tables
            .departures
            .iter()
            .filter_map(|(mover, from_values)| {
                let mover = mover.as_str();
                // The `from` squares by the set they lead to.
                let mut groups: BTreeMap<String, Vec<usize>> = BTreeMap::new();
                for (from, d) in from_values.iter().enumerate() {
                    let Some(d) = d else { continue };
                    if let Some(set) = sum_digit_set(code, code.addend(*d), p) {
                        groups.entry(set).or_default().push(from);
                    }
                }
                let branches: Vec<String> = groups
                    .iter()
                    .map(|(set, froms)| {
                        format!("{}[a-h][1-8][qrbn]?:[^\n]*\n{set}", squares(froms))
                    })
                    .collect();
                match branches.len() {
                    0 => None,
                    1 => Some((mover.to_string(), branches[0].clone())),
                    _ => Some((mover.to_string(), format!("(?:{})", branches.join("|")))),
                }
            })
            .collect();
        if by_mover.is_empty() {
            continue;
        }
        let key = trie(&by_mover);
        rules.push(match k {
            0 => (
                format!("({THREAD}{key}\n)0{}", "1".repeat(head - 1)),
                format!("${{1}}1{}", "0".repeat(head - 1)),
            ),
            _ => (
                format!("({THREAD}{key}\n[01]{{{}}})0", head - 1 + k),
                "${1}1".to_string(),
            ),
        });
    }
    rules.push((
        format!("{HEAD}[^\n]*\n[01]*([01])\n([01]{{{}}})0\n", SCORE_BITS - 1),
        "${1}${3}${2}\n".to_string(),
    ));
    rules
}

/// A regex of the square names `squares` (indices): per file, a class of ranks.
fn squares(squares: &[usize]) -> String {
    let mut by_file: BTreeMap<usize, String> = BTreeMap::new();
    for &sq in squares {
        by_file
            .entry(sq % 8)
            .or_default()
            .push((b'1' + (sq / 8) as u8) as char);
    }
    let entries: Vec<(String, String)> = by_file
        .into_iter()
        .map(|(file, ranks)| {
            let file = ((b'a' + file as u8) as char).to_string();
            match ranks.len() {
                1 => (file, ranks),
                8 => (file, "[1-8]".to_string()),
                _ => (file, format!("[{ranks}]")),
            }
        })
        .collect();
    trie(&entries)
}

/// The 80-character board line `board` without its `//` separators: 64 characters, a8
/// first (one rule): 16 bytes less in every thread that carries a copy (the repetition
/// keys' and the root moves' boards).
#[track_caller]
pub fn compact(b: &mut Builder, board: &Value<kind::Str>) -> Value<kind::Str> {
    let ranks = format!("({BOARD_CHAR}{{8}})//").repeat(8);
    let joined: String = (2..10).map(|g| format!("${{{g}}}")).collect();
    let rule = (format!("{HEAD}{ranks}\n"), format!("${{1}}{joined}\n"));
    on_stack(b, "compact", &[board.var()], vec![rule], Type::Str)
}

/// What a move gains its mover, from the mover's view, in [`SCORE_BITS`] bits: the moved
/// (or promoted) piece's entry on `to` minus its entry on `from`, plus the captured
/// piece's entry (en passant included), plus the castling rook's change; with
/// `recaptured` (the capture search's recapture discount: the other side takes the
/// arriving piece back at once), less the arriving (or promoted) piece's entry on `to`.
///
/// `taken` holds the two letters of [`crate::board::Children::taken`] (what stood on the
/// target, the mover), `uci` the move's text (`e7e8q`): neither board is read, so no
/// child carries its parent's board for its gain. `taken` is read for the last time
/// (taken off the thread, gone afterwards), and so is `uci` with `take_uci`. The rules of
/// `gain_rules`: 20 rules with the reads and the result's definition. `scoring` gives the
/// tables (its set's digit read from its variable).
#[track_caller]
pub fn gain(
    b: &mut Builder,
    taken: &Value<kind::Str>,
    uci: &Value<kind::Str>,
    take_uci: bool,
    scoring: &Scoring,
    recaptured: bool,
) -> Value<kind::Int> {
    b.emit(Instruction::Take(taken.var().clone()));
    if let Some(bucket) = &scoring.bucket {
        b.emit(Instruction::Lookup(bucket.var().clone()));
    }
    b.emit(match take_uci {
        true => Instruction::Take(uci.var().clone()),
        false => Instruction::Lookup(uci.var().clone()),
    });
    let (name, arrival) = match recaptured {
        false => ("gain", Arrival::Kept),
        true => ("lost_gain", Arrival::Lost),
    };
    b.emit(stack_rules::instruction(
        name,
        gain_rules(scoring.tables, arrival),
    ));
    b.rules_value("assign", Vec::new(), &[], Type::Int { bits: SCORE_BITS })
}

/// Whether a move took a piece standing on its target square (en passant does not: its
/// target is empty), from the letters of [`crate::board::Children::taken`]: two rules,
/// `T` then `F`.
#[track_caller]
pub fn taken_on_target(b: &mut Builder, taken: &Value<kind::Str>) -> Value<kind::Bool> {
    let rules = vec![
        (format!("{HEAD}[A-Za-z][^\n]*\n"), "${1}T\n".to_string()),
        (format!("{HEAD}\\.[^\n]\n"), "${1}F\n".to_string()),
    ];
    on_stack(b, "taken_on_target", &[taken.var()], rules, Type::Bool)
}

/// Whether a move's arrival value counts the arriving piece's entry on its target.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Arrival {
    /// The arriving piece stays: its entry counts (a move's gain).
    Kept,
    /// The arriving piece is taken back: only what it took counts ([`gain`] with
    /// `recaptured`).
    Lost,
}

/// The score of `board` (the 80-character board line) from white's view, in
/// [`SCORE_BITS`] bits: the sum over its pieces of its white's-view unit value (white for, black against) (a pawn on the first
/// or last rank counts 0), wrapped to [`SCORE_BITS`] bits. 45 rules, most of which treat
/// every piece at once (see the `full_score` module); they work on any number of threads.
///
/// With several sets in `scoring`'s tables, one branch per set on the set's digit (the
/// rules of every set are recorded; a thread runs its set's).
#[track_caller]
pub fn full_score_white_with(
    b: &mut Builder,
    board: &Value<kind::Str>,
    scoring: &Scoring,
) -> Value<kind::Int> {
    let Some(bucket) = &scoring.bucket else {
        let body = vec![stack_rules::instruction("full_score", full_score::rules())];
        return stack_rules::sequence(b, board.var(), body, Type::Int { bits: SCORE_BITS });
    };
    let tables = scoring.tables;
    let score_of = |b: &mut Builder, set: usize| {
        let body = vec![stack_rules::instruction(
            "full_score",
            full_score::rules_in(tables, set),
        )];
        stack_rules::sequence(b, board.var(), body, Type::Int { bits: SCORE_BITS })
    };
    // A chain of branches on the digit: set 0, else set 1, ... else the last.
    fn chain(
        b: &mut Builder,
        bucket: &Value<kind::Str>,
        set: usize,
        last: usize,
        score_of: &dyn Fn(&mut Builder, usize) -> Value<kind::Int>,
    ) -> Value<kind::Int> {
        if set == last {
            return score_of(b, set);
        }
        let here = b.eq_text(bucket, &set.to_string());
        b.if_else(
            &here,
            |b| score_of(b, set),
            |b| chain(b, bucket, set + 1, last, score_of),
        )
    }
    chain(b, bucket, 0, tables.buckets() - 1, &score_of)
}

/// The game phase's bucket of `board` (the 80-character board line), one digit
/// ([`weights::bucket_of`]): the pieces' phase weights ([`weights::phase_weight`]) written in
/// unary (`x`, which no bucket's digit is: a digit written by one rule must not read
/// as a count to the next), then one rule per bucket from the highest reading the count.
#[track_caller]
pub fn phase_bucket(b: &mut Builder, board: &Value<kind::Str>) -> Value<kind::Str> {
    let weights: Vec<(char, String)> = weights::ROLES
        .iter()
        .flat_map(|r| [*r, r.to_ascii_lowercase()])
        .map(|c| (c, "x".repeat(weights::phase_weight(c) as usize)))
        .chain(['.', '/'].map(|c| (c, String::new())))
        .collect();
    let table: Vec<(char, &str)> = weights.iter().map(|(c, s)| (*c, s.as_str())).collect();
    let unary = b.map_chars(board, &table, super::board::BOARD_LEN);
    let mut rules = Vec::new();
    for bucket in (0..weights::BUCKETS).rev() {
        let least = 5 * bucket;
        rules.push((
            format!("{HEAD}x{{{least}}}x*\n"),
            format!("${{1}}{bucket}\n"),
        ));
    }
    on_stack(b, "phase_bucket", &[unary.var()], rules, Type::Str)
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
pub(crate) mod tests;
