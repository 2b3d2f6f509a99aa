//! The crate's move generator, moves and position strings against the naive generator
//! of `naive/mod.rs` (arrays and loops): on random playouts from the start and on random
//! possible positions, the legal moves must be the same set and every move must lead to
//! the same position string; perft counts on fixed positions must agree.
//!
//! The default run covers tens of thousands of positions; the full volume (hundreds of
//! thousands) is ignored by default:
//! `cargo test --release -p regex-chess-banqi --test against_naive -- --ignored`.

mod naive;

use naive::{Naive, TestRng, random_position};
use regex_chess_banqi::movegen::MoveList;
use regex_chess_banqi::perft::perft;
use regex_chess_banqi::{Move, Piece, Position};

fn engine_moves(position: &Position) -> Vec<String> {
    let mut list = MoveList::new();
    position.legal_moves(&mut list);
    let mut moves: Vec<String> = list.as_slice().iter().map(Move::to_string).collect();
    moves.sort();
    moves
}

/// Compares the two at `naive`'s position, then plays a random move in both; returns the
/// next state, or None when the side to move has no move (or `steps` ran out).
fn compare_step(naive: &Naive, rng: &mut TestRng) -> Option<Naive> {
    let text = naive.text();
    let position: Position = text.parse().unwrap_or_else(|e| panic!("{text}: {e}"));
    assert_eq!(position.to_string(), text, "round trip");
    let expected = naive.moves();
    assert_eq!(engine_moves(&position), expected, "moves of {text}");
    if expected.is_empty() {
        return None;
    }
    let mv = &expected[rng.below(expected.len())];
    let revealed = (mv[..2] == mv[2..]).then(|| rng.pick_from_pool(naive));
    let mut next = naive.clone();
    next.play(mv, revealed);
    let mut after = position;
    let parsed: Move = mv.parse().unwrap();
    after.play_unchecked(parsed, revealed.map(|c| Piece::from_letter(c).unwrap()));
    assert_eq!(
        after.to_string(),
        next.text(),
        "{text} after {mv} ({revealed:?})"
    );
    let reparsed: Position = next.text().parse().unwrap();
    assert_eq!(
        after.hash(),
        reparsed.hash(),
        "incremental hash after {mv} from {text}"
    );
    Some(next)
}

fn playouts(positions: usize, seed: u64) {
    let mut rng = TestRng(seed);
    let mut seen = 0;
    while seen < positions {
        // half the games from the start, half from a random position
        let mut state = if rng.below(2) == 0 {
            Naive::parse(&Position::start().to_string())
        } else {
            random_position(&mut rng)
        };
        for _ in 0..300 {
            seen += 1;
            match compare_step(&state, &mut rng) {
                Some(next) => state = next,
                None => break,
            }
        }
    }
}

#[test]
fn moves_and_positions_agree_on_random_playouts() {
    playouts(30_000, 1);
}

#[test]
#[ignore = "the full volume: run in release with --ignored"]
fn moves_and_positions_agree_on_many_random_playouts() {
    playouts(500_000, 2);
}

const PERFT_POSITIONS: [&str; 5] = [
    // the start
    "XXXXXXXX/XXXXXXXX/XXXXXXXX/XXXXXXXX - G1A2E2R2H2C2S5g1a2e2r2h2c2s5 0 1",
    // a middle game with cannons and screens of every kind
    "XcX1XgX1/1C1hX1sX/X2RX1aX/XsX1GX1X r A1E2R1H2C1a1e2r2s1 3 9",
    // an ending without face-down pieces
    "4c3/1G2s3/2C3r1/s3S2a b - 12 40",
    // cannons on a line, face-down and friendly screens
    "C1X1c1s1/1X2X3/2S3g1/c1XXA1X1 r E1H1S2a1h1 0 20",
    // few face-down pieces, many outcomes
    "X6X/2G1g3/1S4s1/X6X b R1H1r1c1 5 30",
];

#[test]
fn perft_matches_the_naive_count() {
    for (text, depth) in PERFT_POSITIONS.iter().zip([2, 3, 4, 4, 3]) {
        let position: Position = text.parse().unwrap_or_else(|e| panic!("{text}: {e}"));
        let naive = Naive::parse(text);
        for d in 1..=depth {
            assert_eq!(perft(&position, d), naive.perft(d), "perft({d}) of {text}");
        }
    }
}

#[test]
fn perft_of_the_start_counted_by_hand() {
    // 32 flips, each revealing one of 14 kinds.
    let start = Position::start();
    assert_eq!(perft(&start, 1), 32 * 14);
    // After any flip no piece can move (every neighbour is face-down, every cannon line
    // blocked), so the reply is one of 31 flips, over 14 kinds, or 13 if the first flip
    // took the last of a kind: the two generals.
    assert_eq!(perft(&start, 2), 32 * (12 * 31 * 14 + 2 * 31 * 13));
}
