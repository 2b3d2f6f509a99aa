//! The unit tests of `evaluate`.

use super::*;
use regex_chess_compiler::encode::{self, Thread};
use regex_chess_compiler::{self as compiler, CompileOptions};
use regex_chess_machine::exec::{Executor, reference::Reference};

/// The 80-character board line of a FEN's placement field.
/// The program recorded by `b`, compiled with the default passes, on the reference.
fn reference_of(b: Builder) -> Reference {
    let program = compiler::compile(b.finish(), &CompileOptions::default())
        .program
        .validate()
        .unwrap();
    Reference::new(program)
}

/// The 80-character board line of a FEN's placement field (also used by the
/// endgame term's tests).
pub(crate) fn board_line(placement: &str) -> String {
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
        let own = own_units_in(Tables::Simplified, 0, c, sq);
        total += if c.is_ascii_lowercase() { -own } else { own };
    }
    total
}

#[test]
fn phase_bucket_counts_the_pieces() {
    let mut b = Builder::new("t", "t");
    let board = b.input_str("b");
    let bucket = phase_bucket(&mut b, &board);
    b.output("p", &bucket);
    let exec = reference_of(b);
    // (placement, phase counted by hand, capped at 24)
    let cases = [
        ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR", 24),
        ("4k3/8/8/8/8/8/8/4K3", 0),
        ("4k3/8/8/8/8/8/8/3QK3", 4),
        ("4k3/8/8/8/8/8/8/R2QK3", 6),
        ("8/nb6/p5RP/3k4/KP5P/P3r1P1/2Pr4/6N1", 9),
        ("4k3/8/8/8/8/8/8/1N1QK1N1", 6),
        ("r3k3/8/8/8/8/8/8/R2QK3", 8),
        ("r2qk3/8/8/8/8/8/8/R2QK3", 12),
        ("r2qkb2/8/8/8/8/8/8/R2QK3", 13),
        ("r2qkbn1/8/8/8/8/8/8/R2QKB2", 15),
        ("rn1qkb1r/8/8/8/8/8/8/R2QKB1R", 19),
        ("rn1qkb1r/8/8/8/8/8/8/RN1QKB1R", 20),
        ("qqqqkqqq/8/8/8/8/8/8/QQQQKQQQ", 24),
    ];
    for (placement, phase) in cases {
        let state = encode::render(&[Thread::active(&[], &[("b", &board_line(placement))])]);
        let out = encode::threads(&exec.run(&state).unwrap());
        let want = weights::bucket_of(phase).to_string();
        assert_eq!(out[0].var("p"), Some(want.as_str()), "{placement}");
    }
}

#[test]
fn full_score_and_gains_match_the_tables() {
    let mut b = Builder::new("t", "t");
    let board = b.input_str("b");
    let taken = b.input_str("tk");
    let uci = b.input_str("m");
    let s = full_score_white_with(&mut b, &board, &Scoring::simplified());
    b.output("s", &s);
    let g = gain(&mut b, &taken, &uci, false, &Scoring::simplified(), false);
    b.output("g", &g);
    let exec = reference_of(b);
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
        let squares = squares_of(before);
        let (from, to) = (index_of(&m[0..2]), index_of(&m[2..4]));
        let tk = format!("{}{}", squares[to], squares[from]);
        let bl = board_line(after);
        let state = encode::render(&[Thread::active(&[], &[("b", &bl), ("tk", &tk), ("m", m)])]);
        let out = encode::threads(&exec.run(&state).unwrap());
        let s = encode::decode_int(out[0].var("s").unwrap()).unwrap();
        assert_eq!(s, native_white(&bl), "{after}");
        let g = encode::decode_int(out[0].var("g").unwrap()).unwrap();
        assert_eq!(g * 5, cp as i64, "{m} on {before}");
    }
}

#[test]
fn sum_digit_sets_hold_exactly_the_lines_whose_digit_is_one() {
    let tables = GainTables::new(Tables::Simplified, Arrival::Kept);
    let code = ArrivalCode::new(&tables);
    let width = code.digits as usize;
    // Every departure value of the tables, and addends that carry into every digit.
    let mut addends: Vec<i64> = tables
        .departures
        .iter()
        .flat_map(|(_, v)| v.iter().flatten().map(|&d| code.addend(d)))
        .collect();
    addends.extend([0, 1, 255, 256, 511, 512, 513, 1000, 1023]);
    addends.sort_unstable();
    addends.dedup();
    for addend in addends {
        for p in 0..GAIN_BITS as u32 {
            let set = sum_digit_set(code, addend, p)
                .map(|s| regex::Regex::new(&format!("^(?:{s})$")).unwrap());
            for x in 0..1i64 << width {
                // The line holds the code but for its last digit, the sum's.
                let line = (x & !1) | ((x + addend) & 1);
                let text = format!("{line:0width$b}");
                let want = ((x + addend) >> p) & 1 == 1;
                let got = set.as_ref().is_some_and(|r| r.is_match(&text));
                assert_eq!(got, want, "digit {p} of {x} + {addend}");
            }
        }
    }
}

#[test]
fn binary_sets_match_their_members() {
    let mut seed = 99u64;
    for width in 1..=6u32 {
        for round in 0..40 {
            seed = seed
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            // Random sets, then intervals (what the sums need).
            let bits = seed >> 7;
            let (lo, hi) = ((seed >> 20) % (1 << width), (seed >> 40) % (1 << width));
            let member = |y: u64| match round % 2 {
                0 => (bits >> y) & 1 == 1,
                _ => (lo.min(hi)..=lo.max(hi)).contains(&y),
            };
            let set = binary_set(width, &member);
            let re = set
                .as_ref()
                .map(|s| regex::Regex::new(&format!("^(?:{s})$")).unwrap());
            for y in 0..1u64 << width {
                let text = format!("{y:0w$b}", w = width as usize);
                let got = re.as_ref().is_some_and(|r| r.is_match(&text));
                assert_eq!(got, member(y), "{y} in {set:?}");
            }
        }
    }
}

/// A table entry in units, read natively from [`eval`] (`.` is 0).
fn entry(piece: char, square: usize) -> i64 {
    weights::piece_square(piece, square).map_or(0, |v| v as i64 / 5)
}

/// The gain of moving `mover` from `from` to `to` (capturing `captured`, promoting
/// to `promotion`), natively on the simplified tables (see [`native_gain_in`]).
fn native_gain(mover: char, from: usize, to: usize, captured: char, promotion: &str) -> i64 {
    native_gain_in(&entry, mover, from, to, captured, promotion)
}

/// The piece standing on the target after a move of `mover` promoting to `promotion`.
fn arrived(mover: char, promotion: &str) -> char {
    match promotion.chars().next() {
        Some(p) if mover.is_ascii_uppercase() => p.to_ascii_uppercase(),
        Some(p) => p,
        None => mover,
    }
}

/// The gain of moving `mover` from `from` to `to` (capturing `captured`, promoting to
/// `promotion`) with the table entries `entry` gives, natively: castling when a king
/// moves two files from its home square onto an empty one, en passant when a pawn
/// moves diagonally from its fifth rank onto an empty square.
fn native_gain_in(
    entry: &dyn Fn(char, usize) -> i64,
    mover: char,
    from: usize,
    to: usize,
    captured: char,
    promotion: &str,
) -> i64 {
    let arrived = arrived(mover, promotion);
    let mut g = entry(arrived, to) - entry(mover, from) + entry(captured, to);
    let (ff, tf) = (from % 8, to % 8);
    let home = if mover == 'K' { 4 } else { 60 };
    if mover.eq_ignore_ascii_case(&'k') && from == home && to.abs_diff(from) == 2 && captured == '.'
    {
        let rook = if mover == 'K' { 'R' } else { 'r' };
        let (rf, rt) = if tf == 6 { (7, 5) } else { (0, 3) };
        let base = to - tf;
        g += entry(rook, base + rt) - entry(rook, base + rf);
    }
    let ep_rank = if mover == 'P' { 4 } else { 3 };
    if mover.eq_ignore_ascii_case(&'p') && ff != tf && captured == '.' && from / 8 == ep_rank {
        let victim = if mover == 'P' { 'p' } else { 'P' };
        g += entry(victim, from - ff + tf);
    }
    g
}

#[test]
fn gains_of_many_moves_match_a_native_sum() {
    let mut b = Builder::new("t", "t");
    let taken = b.input_str("tk");
    let uci = b.input_str("m");
    let g = gain(&mut b, &taken, &uci, false, &Scoring::simplified(), false);
    b.output("g", &g);
    let exec = reference_of(b);
    // (mover, from, to, captured, promotion): every pawn move and promotion of both
    // colours, the castlings, and a pseudo-random sample of the other pieces' moves.
    let mut cases: Vec<(char, usize, usize, char, &str)> = Vec::new();
    for (pawn, dir, last) in [('P', 8i64, 6), ('p', -8, 1)] {
        for from in 8..56usize {
            for df in [-1i64, 0, 1] {
                let to = from as i64 + dir + df;
                if !(0..64).contains(&to) || !(0..8).contains(&(from as i64 % 8 + df)) {
                    continue;
                }
                let to = to as usize;
                let promotions: &[&str] = if from / 8 == last {
                    &["q", "r", "b", "n"]
                } else {
                    &[""]
                };
                let targets: &[char] = if df == 0 {
                    &['.']
                } else {
                    &['.', 'n', 'Q', 'r']
                };
                for &p in promotions {
                    for &c in targets {
                        let c = if pawn == 'p' {
                            c.to_ascii_uppercase()
                        } else {
                            c.to_ascii_lowercase()
                        };
                        cases.push((pawn, from, to, c, p));
                    }
                }
            }
        }
    }
    for (k, home) in [('K', 4usize), ('k', 60)] {
        cases.push((k, home, home + 2, '.', ""));
        cases.push((k, home, home - 2, '.', ""));
    }
    let mut seed = 12345u64;
    let mut next = |n: u64| {
        seed = seed
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (seed >> 33) % n
    };
    // Every departure square of every piece, then random moves.
    let mut froms: Vec<(char, usize)> = "NBRQKnbrqk"
        .chars()
        .flat_map(|m| (0..64).map(move |f| (m, f)))
        .collect();
    for _ in 0..1500 {
        let mover = "NBRQKnbrqk".as_bytes()[next(10) as usize] as char;
        froms.push((mover, next(64) as usize));
    }
    for (mover, from) in froms {
        let to = next(64) as usize;
        let captured = SQUARE_CHARS.as_bytes()[next(13) as usize] as char;
        if from != to {
            cases.push((mover, from, to, captured, ""));
        }
    }
    let threads: Vec<Thread> = cases
        .iter()
        .map(|&(mover, from, to, captured, promotion)| {
            let m = format!("{}{}{promotion}", square_name(from), square_name(to));
            Thread::active(&[], &[("tk", &format!("{captured}{mover}")), ("m", &m)])
        })
        .collect();
    let state = encode::render(&threads);
    let want_state = exec.run(&state).unwrap();
    // The fast executor agrees byte for byte with the reference on every move.
    let fast = regex_chess_machine::exec::fast::Fast::new(exec.program().clone());
    assert!(
        fast.run(&state).unwrap() == want_state,
        "fast and reference differ"
    );
    let out = encode::threads(&want_state);
    assert_eq!(out.len(), cases.len());
    for (t, &(mover, from, to, captured, promotion)) in out.iter().zip(&cases) {
        let g = encode::decode_int(t.var("g").unwrap()).unwrap();
        let want = native_gain(mover, from, to, captured, promotion);
        assert_eq!(
            g,
            want,
            "{mover} {}{}{promotion} onto {captured}",
            square_name(from),
            square_name(to)
        );
    }
}

/// The 64 squares of a FEN's placement field, a1 first.
fn squares_of(placement: &str) -> Vec<char> {
    let mut ranks: Vec<Vec<char>> = placement
        .split('/')
        .map(|rank| {
            rank.chars()
                .flat_map(|c| match c.to_digit(10) {
                    Some(n) => vec!['.'; n as usize],
                    None => vec![c],
                })
                .collect()
        })
        .collect();
    ranks.reverse();
    ranks.concat()
}

/// A square's index (a1 = 0) from its name.
fn index_of(name: &str) -> usize {
    let b = name.as_bytes();
    (b[1] - b'1') as usize * 8 + (b[0] - b'a') as usize
}

/// The gains read from the letters of a generation's `taken` equal the native sums on
/// every legal move of positions with castling, en passant and promotions of both
/// colours, on both sets of tables, with and without the recapture discount (less the
/// arriving piece's entry), and the letters tell a capture on the target.
#[test]
fn gains_of_generated_moves_match_a_native_sum() {
    use crate::board::MoveGen;
    use crate::movegen::fork_legal_moves;
    let mut b = Builder::new("t", "t");
    let pos = crate::fen_rules::parse_fen(&mut b);
    let tapered = Scoring {
        tables: Tables::Tapered,
        bucket: Some(phase_bucket(&mut b, &pos.board)),
    };
    let options = MoveGen {
        uci: true,
        taken: true,
        ..MoveGen::default()
    };
    let children = fork_legal_moves(&mut b, &pos, 218, options);
    let (uci, taken) = (children.uci.unwrap(), children.taken.unwrap());
    let simplified = Scoring::simplified();
    // Each gain takes its letters: one copy each.
    let gain_of = |b: &mut Builder, scoring: &Scoring, recaptured: bool| {
        let copy: Value<kind::Str> = on_stack(b, "copy", &[taken.var()], Vec::new(), Type::Str);
        gain(b, &copy, &uci, false, scoring, recaptured)
    };
    let outputs = [
        ("g", gain_of(&mut b, &simplified, false)),
        ("l", gain_of(&mut b, &simplified, true)),
        ("tg", gain_of(&mut b, &tapered, false)),
        ("tl", gain_of(&mut b, &tapered, true)),
    ];
    for (name, value) in &outputs {
        b.output(name, value);
    }
    let on = taken_on_target(&mut b, &taken);
    b.output("c", &on);
    b.output("m", &uci);
    let exec = reference_of(b);
    for fen in [
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R b KQkq - 0 1",
        "8/8/8/KPp4r/8/8/8/4k3 w - c6 0 2",
        "rnbqkbnr/ppp1pppp/8/8/2Pp4/8/PP1PPPPP/RNBQKBNR b KQkq c3 0 3",
        "n1n5/PPPk4/8/8/8/8/4Kppp/5N1N b - - 0 1",
        "n1n5/PPPk4/8/8/8/8/4Kppp/5N1N w - - 0 1",
    ] {
        let placement = fen.split(' ').next().unwrap();
        let squares = squares_of(placement);
        let bucket = weights::bucket_of(placement.chars().map(weights::phase_weight).sum());
        let tapered_entry = |p: char, sq: usize| own_units_in(Tables::Tapered, bucket, p, sq);
        let out = encode::threads(&exec.run(&format!("{fen}\n")).unwrap());
        assert!(out.len() > 3, "{fen}: {} children", out.len());
        for t in &out {
            let m = t.var("m").unwrap();
            let (from, to) = (index_of(&m[0..2]), index_of(&m[2..4]));
            let (mover, captured, promotion) = (squares[from], squares[to], &m[4..]);
            let arrived = arrived(mover, promotion);
            let int = |name: &str| encode::decode_int(t.var(name).unwrap()).unwrap();
            let want = native_gain(mover, from, to, captured, promotion);
            assert_eq!(int("g"), want, "{fen}: {m}");
            assert_eq!(int("l"), want - entry(arrived, to), "{fen}: {m}");
            let want = native_gain_in(&tapered_entry, mover, from, to, captured, promotion);
            assert_eq!(int("tg"), want, "{fen}: {m} (tapered)");
            let lost = want - tapered_entry(arrived, to);
            assert_eq!(int("tl"), lost, "{fen}: {m} (tapered, recaptured)");
            let on_target = if captured == '.' { "F" } else { "T" };
            assert_eq!(t.var("c"), Some(on_target), "{fen}: {m}");
        }
    }
}
