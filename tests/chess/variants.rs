//! Every search variant of `regex_chess_engine::variants` against its independent
//! implementation in `crates/testkit/src/oracle/variants.rs`: the move, the reported score,
//! depth and node count, and the principal variation (the move, then a legal reply whose
//! score is the move's score).
//!
//! CI runs the known and bench positions, lone-king endings (KQK, KRK, KRRK, either
//! side attacking, where `2ply-qe`'s endgame term decides; among them king and rook
//! positions where the rook's box decides, also on the reference executor), 12 random
//! lone-king placements and a share of 24 playout positions per variant; the volume
//! (500 playout positions and 300 random lone-king placements per variant) runs with
//! `cargo test --release --test chess -- variants:: --ignored`.
//!
//! The 2-ply variants run on the fast executor. `3ply-qe`, several times their work, has
//! tests of its own: the known positions, the endings and positions where its third ply
//! changes the move on both executors, the bench positions and small playout and
//! lone-king shares on the fast one (CI); 500 playout positions on the fast executor and
//! 50 of them on the reference one (the volume).
//!
//! Plain `cargo test` runs the shares of the 2-ply variants and the scores of every kind
//! with a variant of each family ([`volume::searches_per_family`]); `#[ignore]`d volumes
//! of the same size run the other variants there (CI runs them in release,
//! `scripts/ci-volumes.sh`, with the volumes above).

use regex_chess_testkit::oracle;
use regex_chess_testkit::volume;

use oracle::answer::check;
use oracle::variants::{self as oracle_variants, Spec};
use oracle::{judge, parallel, perft, playouts};
use regex_chess_engine::runner::MovePicker;
use regex_chess_engine::variants::{Output, Search};
use regex_chess_machine::exec::ExecutorKind;
use shakmaty::Position;

/// The FENs of the bench suite.
fn bench_fens() -> Vec<String> {
    perft::suite_fens("bench.txt")
}

/// Positions with a known answer: mates in one, a trap, no move at all, a recapture.
const KNOWN: [&str; 8] = [
    "6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1",
    "r1bqkb1r/pppp1ppp/2n2n2/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR w KQkq - 4 4",
    "rnbqkbnr/pppp1ppp/8/4p3/6P1/5P2/PPPPP2P/RNBQKBNR b KQkq g3 0 2",
    "k7/7P/1K6/8/8/8/8/8 w - - 0 1",
    "3k4/Q7/nr2p3/3p1pPn/pP3P2/P3p2R/8/R6K b - - 7 42",
    "rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3",
    "7k/5Q2/6K1/8/8/8/8/8 b - - 0 1",
    "4k3/8/3p4/4n3/8/5N2/8/4K3 w - - 0 1",
];

/// Playout positions where the third ply changes the oracle's move (found among the CI
/// seed's playouts, the cheapest kept).
const THREE_PLY_CHANGED: [&str; 4] = [
    "1n1k3r/4b1pp/p1p5/5pB1/6r1/P1P4P/3R3K/1N3r2 b - - 1 36",
    "rnbqkbr1/p4ppp/4pn1B/1BPNP3/8/7P/PPP2PP1/R2QK1NR b KQ - 0 9",
    "8/nb6/p5RP/3k4/KP5P/P3r1P1/2Pr4/6N1 w - - 1 46",
    "rnbqk2r/3pppbp/pp3np1/2p5/2P3P1/2N1PN2/PP1P1P1P/R1BQKBR1 b Qkq - 1 7",
];

/// Mates in two the third ply finds: a queen check that only a capture answers, then the
/// rook's capture mates (`score mate 2`), for either colour.
const MATES_IN_TWO: [&str; 2] = [
    "3r2k1/5ppp/8/8/8/8/4QPPP/4R1K1 w - - 0 1",
    "4r1k1/4qppp/8/8/8/8/5PPP/3R2K1 b - - 0 1",
];

/// King and rook against king, either side attacking, where the rook's box in the
/// endgame term decides: the oracle of `2ply-qe` plays another move without it.
const ROOK_BOX: [&str; 3] = [
    // The rook cuts the king off on the e-file (h5e5), not the king's approach (g6f5).
    "8/8/6K1/7R/8/5k2/8/8 w - - 0 1",
    // Black attacking: the rook to the c-file (f6c6), not the king's step (e5d6).
    "8/8/5r2/4k3/8/1K6/8/8 b - - 0 1",
    // The rook one rank nearer (e1e6), not the seventh rank (e1e7).
    "8/8/8/K7/3k4/8/8/4R3 w - - 0 1",
];

/// King and rook against king, either side attacking, where the kings' opposition
/// across the lone king's edge in the endgame term decides: the oracle of `2ply-qe` plays
/// another move without it.
const OPPOSITION: [&str; 5] = [
    // The king to c2, a knight's move from the opposition across file a (d1c2), not the
    // rook to the second rank (f6f2).
    "8/8/5R2/8/8/8/8/k2K4 w - - 0 1",
    // Black attacking, the same across file a (d2c2), not the rook's check (d5b5).
    "8/8/8/3r4/8/8/3k4/K7 b - - 0 1",
    // Black attacking across rank 8: the rook to b5 (h5b5), not d5.
    "1K6/8/2k5/7r/8/8/8/8 b - - 0 1",
    // The waiting rook move (c2c3): the lone king must step into the opposition on rank 1
    // or to a1; not the king's step (b3c3).
    "8/8/8/8/8/1K6/2R5/1k6 w - - 0 1",
    // The same on rank 8 (c7c6), not b6c6.
    "1k6/2R5/1K6/8/8/8/8/8 w - - 0 1",
];

/// The lone-king positions ([`oracle_variants::LONE_KING_FENS`]), a rook ending with
/// the kings in opposition, [`ROOK_BOX`] and [`OPPOSITION`]: the endgame term of
/// `2ply-qe` applies at the leaves.
fn endings() -> Vec<&'static str> {
    let mut endings = oracle_variants::LONE_KING_FENS.to_vec();
    endings.push("1k6/8/2K5/8/8/8/8/3R4 w - - 0 1");
    endings.extend(ROOK_BOX);
    endings.extend(OPPOSITION);
    endings
}

/// Checks `fens` with `variant` on `executor`, on two threads.
fn check_variant(variant: Search, executor: ExecutorKind, what: &str, fens: &[String]) {
    let picker = MovePicker::named(variant.program(Output::Move), executor)
        .unwrap_or_else(|e| panic!("{}: {e}", variant.name()));
    let failures = parallel::failures(fens, |f| check(variant, &picker, f));
    let what = format!("{} ({executor:?}) {what}", variant.name());
    parallel::assert_none(&what, fens.len(), &failures);
}

/// Checks `fens` with the 2-ply variants among `variants` on the fast executor (the
/// 3-ply ones, ~35 times the work, have tests of their own below).
fn check_two_plies(variants: Vec<Search>, what: &str, fens: &[String]) {
    for variant in variants.into_iter().filter(|v| v.depth() == 2) {
        check_variant(variant, ExecutorKind::Fast, what, fens);
    }
}

/// Checks `fens` with every 2-ply variant on the fast executor (the volumes).
fn check_all(what: &str, fens: &[String]) {
    check_two_plies(Search::ALL.to_vec(), what, fens);
}

/// Checks `fens` with the 2-ply variants of a family's share (plain `cargo test`).
fn check_share(what: &str, fens: &[String]) {
    check_two_plies(volume::searches_per_family(), what, fens);
}

/// The 3-ply variant.
fn three_plies() -> Search {
    "3ply-qe".parse::<Search>().expect("registered")
}

fn known_and_bench() -> Vec<String> {
    let mut fens: Vec<String> = KNOWN.iter().map(|f| f.to_string()).collect();
    fens.extend(bench_fens());
    fens
}

#[test]
fn known_and_bench_positions() {
    check_share("known and bench positions", &known_and_bench());
}

#[test]
#[ignore = "volume: cargo test --release --test chess -- variants:: --ignored"]
fn known_and_bench_positions_with_the_other_searches() {
    let fens = known_and_bench();
    check_two_plies(volume::other_searches(), "known and bench positions", &fens);
}

#[test]
#[ignore = "volume: cargo test --release --test chess -- variants:: --ignored"]
fn lone_king_endings_with_the_other_searches() {
    let fens: Vec<String> = endings().iter().map(|f| f.to_string()).collect();
    check_two_plies(volume::other_searches(), "lone-king endings", &fens);
}

#[test]
fn lone_king_endings() {
    let fens: Vec<String> = endings().iter().map(|f| f.to_string()).collect();
    check_share("lone-king endings", &fens);
    // The term is not idle: it changes the oracle's move in some of them.
    let best = |name: &str, fen: &str| {
        oracle_variants::search(Spec::of(name), &judge::position(fen)).map(|s| s.best)
    };
    let changed = endings()
        .iter()
        .filter(|f| best("2ply-q", f) != best("2ply-qe", f))
        .count();
    assert!(changed >= 3, "the endgame term changes {changed} moves");
}

/// Checks that `2ply-qe`'s oracle plays another move on each of `fens` with `without`
/// (the spec lacking a share), so that rules lacking it would fail, then that the rules
/// equal the oracle there on both executors.
fn share_decides(what: &str, fens: &[&str], without: impl Fn(Spec) -> Spec) {
    let with = Spec::of("2ply-qe");
    for fen in fens {
        let pos = judge::position(fen);
        let best = |spec| oracle_variants::search(spec, &pos).map(|s| s.best);
        assert_ne!(best(with), best(without(with)), "{what}: {fen}");
    }
    let fens: Vec<String> = fens.iter().map(|f| f.to_string()).collect();
    let variant = "2ply-qe".parse::<Search>().expect("registered");
    for executor in [ExecutorKind::Fast, ExecutorKind::Reference] {
        check_variant(variant, executor, what, &fens);
    }
}

#[test]
fn the_rook_box_decides_on_both_executors() {
    share_decides("rook box positions", &ROOK_BOX, |with| Spec {
        rook_box: false,
        opposition: false,
        ..with
    });
}

#[test]
fn the_opposition_decides_on_both_executors() {
    share_decides("opposition positions", &OPPOSITION, |with| Spec {
        opposition: false,
        ..with
    });
}

/// `count` random legal placements of a lone king against king and queen, king and rook,
/// king and two rooks (in turn), either colour with the pieces, either side to move, from
/// a fixed seed: every FEN shakmaty accepts (the side not to move not in check).
fn lone_king_placements(count: usize, seed: u64) -> Vec<String> {
    let mut state = seed;
    let mut next = |n: u64| {
        state = state
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (state >> 33) % n
    };
    let mut fens = Vec::new();
    while fens.len() < count {
        let pieces = ["Q", "R", "RR"][fens.len() % 3];
        let strong_white = next(2) == 0;
        let mut board = ['.'; 64];
        let mut men: Vec<char> = vec!['K', 'k'];
        men.extend(pieces.chars());
        for (i, man) in men.iter().enumerate() {
            let man = if i >= 2 && !strong_white {
                man.to_ascii_lowercase()
            } else {
                *man
            };
            let mut square = next(64) as usize;
            while board[square] != '.' {
                square = next(64) as usize;
            }
            board[square] = man;
        }
        let ranks: Vec<String> = board
            .chunks(8)
            .map(|rank| {
                let mut text = String::new();
                let mut empty = 0;
                for &c in rank {
                    if c == '.' {
                        empty += 1;
                    } else {
                        if empty > 0 {
                            text.push_str(&empty.to_string());
                            empty = 0;
                        }
                        text.push(c);
                    }
                }
                if empty > 0 {
                    text.push_str(&empty.to_string());
                }
                text
            })
            .collect();
        let turn = if next(2) == 0 { "w" } else { "b" };
        let fen = format!("{} {turn} - - 0 1", ranks.join("/"));
        let legal = fen
            .parse::<shakmaty::fen::Fen>()
            .ok()
            .and_then(|f| {
                f.into_position::<shakmaty::Chess>(shakmaty::CastlingMode::Standard)
                    .ok()
            })
            .is_some();
        if legal {
            fens.push(fen);
        }
    }
    fens
}

#[test]
fn lone_king_placements_ci_share() {
    check_share("lone-king placements", &lone_king_placements(12, 7));
}

#[test]
#[ignore = "volume: cargo test --release --test chess -- variants:: --ignored"]
fn lone_king_placements_full() {
    check_all("300 lone-king placements", &lone_king_placements(300, 8));
}

#[test]
fn playout_positions_ci_share() {
    let samples = playouts::positions(playouts::SEED, 1000);
    let fens: Vec<String> = playouts::share(&samples, 24)
        .into_iter()
        .map(|s| s.fen)
        .collect();
    check_share("playout share", &fens);
}

#[test]
#[ignore = "volume: cargo test --release --test chess -- variants:: --ignored"]
fn playout_positions_full() {
    let samples = playouts::positions(playouts::SEED + 1, 1000);
    let fens: Vec<String> = playouts::share(&samples, 500)
        .into_iter()
        .map(|s| s.fen)
        .collect();
    assert!(fens.len() >= 500);
    check_all("500 playout positions", &fens);
}

/// Positions where each kind of score decides or is reported, found among random
/// placements by the oracle of `2ply-see` (and `3ply-qe`), for every variant: a mate on
/// the first ply, a mate on the second (every move allows one; in the last three, some
/// move allows only mates by a capturing reply, which the third ply scores), a stalemate
/// given on the first ply (the only move that keeps the rook) and one allowed on the
/// second (the best move's least reply stalemates).
const SCORE_KINDS: [&str; 10] = [
    "2K5/8/1k6/8/3r4/3q4/2N5/8 b - - 0 1",
    "8/3N4/8/8/8/Nk6/6q1/K7 b - - 0 1",
    "6Q1/8/5K1k/8/8/8/7p/8 b - - 0 1",
    "8/qB6/1r6/5P2/8/K2k4/8/8 w - - 0 1",
    "1K6/R7/2qq4/8/1k6/8/8/8 w - - 0 1",
    "3q4/8/q1K5/1R6/8/k7/8/8 w - - 0 1",
    "8/8/8/8/8/6r1/5kQ1/7K b - - 0 1",
    "8/8/8/8/8/2K5/k7/2r1Q3 w - - 0 1",
    "1kr5/8/K5Q1/8/8/8/8/8 b - - 0 1",
    "8/5Q2/8/1r6/7k/5K2/8/8 b - - 0 1",
];

/// Positions where `2ply-see`'s recapture discount changes the oracle's move, then where
/// its capture search below every leaf (not only after a capturing reply) does.
const SEE_DECIDES: [&str; 2] = [
    "8/8/3p4/6P1/6B1/3K2k1/5q2/8 b - - 9 15",
    "2r5/8/p3P2p/5k2/p2K2N1/8/8/8 w - - 2 60",
];
const EVERYWHERE_DECIDES: [&str; 2] = [
    "2B5/8/3p4/6P1/K6k/8/4p3/8 b - - 0 8",
    "8/8/3p4/6P1/3K2B1/6k1/8/4q3 b - - 7 14",
];

/// `variants` on the positions of every kind of score, on both executors.
fn every_kind_of_score(variants: Vec<Search>) {
    let fens: Vec<String> = SCORE_KINDS.iter().map(|f| f.to_string()).collect();
    for variant in variants {
        for executor in [ExecutorKind::Fast, ExecutorKind::Reference] {
            check_variant(variant, executor, "every kind of score", &fens);
        }
    }
}

#[test]
#[ignore = "volume: cargo test --release --test chess -- variants:: --ignored"]
fn every_kind_of_score_with_the_other_searches() {
    every_kind_of_score(volume::other_searches());
}

#[test]
fn every_kind_of_score_on_both_executors() {
    every_kind_of_score(volume::searches_per_family());
    // The kinds are there: the oracle of `2ply-see` scores mates on both plies and
    // stalemates; `3ply-qe`'s mates on the second ply are its own.
    let scores: Vec<i32> = SCORE_KINDS
        .iter()
        .map(|f| {
            let pos = judge::position(f);
            oracle_variants::search(Spec::of("2ply-see"), &pos).map_or(1, |s| s.score)
        })
        .collect();
    let mate = oracle::tables::MATE;
    assert_eq!(&scores[..2], &[mate, mate]);
    assert!(scores[2..6].iter().all(|&s| s == -mate), "{scores:?}");
    assert!(scores[6..].iter().all(|&s| s == 0), "{scores:?}");
    for fen in &SCORE_KINDS[3..6] {
        let searched = oracle_variants::search(Spec::of("3ply-qe"), &judge::position(fen));
        let score = searched.map(|s| s.score);
        assert_eq!(score, Some(-oracle_variants::mate_on_ply(2)), "{fen}");
    }
}

/// The oracle of `variant` without the recapture discount plays another move on each of
/// `discount_fens`, and without the capture search below quiet replies on each of
/// `everywhere_fens`: each share of the design decides somewhere.
fn shares_decide(variant: &str, discount_fens: &[&str], everywhere_fens: &[&str]) {
    let with = Spec::of(variant);
    let without_discount = Spec { see: false, ..with };
    let without_everywhere = Spec {
        everywhere: false,
        ..with
    };
    for (fens, without) in [
        (discount_fens, without_discount),
        (everywhere_fens, without_everywhere),
    ] {
        for fen in fens {
            let pos = judge::position(fen);
            let best = |spec| oracle_variants::search(spec, &pos).map(|s| s.best);
            assert_ne!(best(with), best(without), "{variant} {fen}");
        }
    }
}

#[test]
fn the_recapture_discount_and_the_capture_search_everywhere_decide() {
    shares_decide("2ply-see", &SEE_DECIDES, &EVERYWHERE_DECIDES);
    let fens: Vec<String> = SEE_DECIDES
        .iter()
        .chain(&EVERYWHERE_DECIDES)
        .map(|f| f.to_string())
        .collect();
    let variant = "2ply-see".parse::<Search>().expect("registered");
    for executor in [ExecutorKind::Fast, ExecutorKind::Reference] {
        check_variant(variant, executor, "positions the discount decides", &fens);
    }
}

#[test]
fn three_plies_on_known_positions_and_endings() {
    // Mates in one, a trap, no move, a recapture, lone kings, and positions where the
    // third ply changes the move: both executors.
    let changed: Vec<String> = THREE_PLY_CHANGED.iter().map(|f| f.to_string()).collect();
    let mut fens: Vec<String> = KNOWN.iter().map(|f| f.to_string()).collect();
    fens.extend(changed.iter().cloned());
    fens.extend(MATES_IN_TWO.iter().map(|f| f.to_string()));
    fens.extend(endings().iter().map(|f| f.to_string()));
    for executor in [ExecutorKind::Fast, ExecutorKind::Reference] {
        check_variant(
            three_plies(),
            executor,
            "known positions and endings",
            &fens,
        );
    }
    // The third ply is not idle: the oracle's move differs from `2ply-qe`'s there.
    assert_eq!(changed_by_the_third_ply(&changed), changed.len());
    for fen in MATES_IN_TWO {
        let searched = oracle_variants::search(Spec::of("3ply-qe"), &judge::position(fen));
        let score = searched.map(|s| s.score);
        assert_eq!(score, Some(oracle_variants::mate_on_ply(3)), "{fen}");
    }
}

/// How many of `fens` the oracle's `3ply-qe` plays a move other than its `2ply-qe` in.
fn changed_by_the_third_ply(fens: &[String]) -> usize {
    let best = |name: &str, fen: &str| {
        oracle_variants::search(Spec::of(name), &judge::position(fen)).map(|s| s.best)
    };
    let changed: Vec<&String> = fens
        .iter()
        .filter(|f| best("2ply-qe", f) != best("3ply-qe", f))
        .collect();
    eprintln!("the third ply changes the move in {changed:?}");
    changed.len()
}

#[test]
fn three_plies_on_bench_and_playout_shares() {
    let mut fens = bench_fens();
    let samples = playouts::positions(playouts::SEED, 1000);
    fens.extend(playouts::share(&samples, 6).into_iter().map(|s| s.fen));
    fens.extend(lone_king_placements(6, 9));
    check_variant(three_plies(), ExecutorKind::Fast, "playout share", &fens);
}

#[test]
#[ignore = "volume: cargo test --release --test chess -- variants:: --ignored"]
fn three_plies_playout_positions_full() {
    let samples = playouts::positions(playouts::SEED + 2, 1000);
    let fens: Vec<String> = playouts::share(&samples, 500)
        .into_iter()
        .map(|s| s.fen)
        .collect();
    assert!(fens.len() >= 500);
    check_variant(
        three_plies(),
        ExecutorKind::Fast,
        "500 playout positions",
        &fens,
    );
    // The reference executor on a share (it is slower on the wide states).
    let share: Vec<String> = fens.iter().step_by(10).cloned().collect();
    check_variant(
        three_plies(),
        ExecutorKind::Reference,
        "50 playout positions",
        &share,
    );
}

/// `3ply-see`, the selective third ply with `2ply-see`'s capture search and recapture
/// discount, and `3ply-see-check`, the same with the check extension.
fn three_plies_see() -> [Search; 2] {
    ["3ply-see", "3ply-see-check"].map(|name| name.parse::<Search>().expect("registered"))
}

/// Playout positions where the check extension changes the oracle's move (found by
/// `three_ply_see_deciders`).
const CHECK_EXTENSION_DECIDES: [&str; 2] = [
    "2r3k1/8/1p4p1/3QBp1b/P2PrP1P/3K3R/8/1n3R1B b - - 0 52",
    "1r5r/p5k1/1n2p1P1/2p4p/KpP5/1P4PN/1P1b2R1/RN6 w - - 2 43",
];

/// Playout positions where `3ply-see`'s recapture discount below the third ply changes
/// the oracle's move, then where its capture search after a reply that captured nothing
/// does (found among the CI seed's playouts by `three_ply_see_deciders`).
const THIRD_DISCOUNT_DECIDES: [&str; 2] = [
    "3k1b1r/rb2np1p/1Q2p1pN/p1p3BP/K1P1P3/P7/1P4PR/R4BN1 b - - 0 24",
    "8/p1n5/4pN2/K1p3Pk/1pPb4/1PNr3p/1P6/RR6 b - - 3 63",
];
const QUIET_CAPTURES_DECIDE: [&str; 2] = [
    "8/5k1p/6r1/3N1p2/1P1b1P1P/2P3n1/P7/5K2 w - - 0 53",
    "2b3k1/3n4/rp6/p1p2p1B/2PB3P/1P4R1/P7/3n1K2 b - - 7 46",
];

#[test]
fn three_plies_see_on_known_bench_and_deciding_positions() {
    // The oracle without each share plays another move in the deciding positions.
    shares_decide("3ply-see", &THIRD_DISCOUNT_DECIDES, &QUIET_CAPTURES_DECIDE);
    for fen in CHECK_EXTENSION_DECIDES {
        let pos = judge::position(fen);
        let best = |name| oracle_variants::search(Spec::of(name), &pos).map(|s| s.best);
        assert_ne!(best("3ply-see"), best("3ply-see-check"), "{fen}");
    }
    // Those, the known positions and the mates in two on both executors; a playout share
    // on the fast one (the bench positions, kiwipete's widest states, are the volume's).
    let deciding: Vec<String> = THIRD_DISCOUNT_DECIDES
        .iter()
        .chain(&QUIET_CAPTURES_DECIDE)
        .chain(&CHECK_EXTENSION_DECIDES)
        .chain(&KNOWN)
        .chain(&MATES_IN_TWO)
        .map(|f| f.to_string())
        .collect();
    let samples = playouts::positions(playouts::SEED ^ 3, 1000);
    let mut fens: Vec<String> = playouts::share(&samples, 4)
        .into_iter()
        .map(|s| s.fen)
        .collect();
    fens.extend(lone_king_placements(3, 10));
    for variant in three_plies_see() {
        for executor in [ExecutorKind::Fast, ExecutorKind::Reference] {
            check_variant(variant, executor, "known and deciding positions", &deciding);
        }
        check_variant(variant, ExecutorKind::Fast, "playout share", &fens);
    }
}

#[test]
#[ignore = "volume: cargo test --release --test chess -- variants:: --ignored"]
fn three_plies_see_playout_positions_full() {
    let samples = playouts::positions(playouts::SEED + 3, 1000);
    let mut fens: Vec<String> = playouts::share(&samples, 120)
        .into_iter()
        .map(|s| s.fen)
        .collect();
    fens.extend(endings().iter().map(|f| f.to_string()));
    fens.extend(lone_king_placements(60, 11));
    fens.extend(bench_fens());
    let share: Vec<String> = fens.iter().step_by(10).cloned().collect();
    for variant in three_plies_see() {
        let what = "120 playout positions, endings, placements and the bench";
        check_variant(variant, ExecutorKind::Fast, what, &fens);
        check_variant(variant, ExecutorKind::Reference, "a tenth of them", &share);
    }
}

#[test]
#[ignore = "finder: cargo test --release --test chess -- variants::three_ply_see_deciders --ignored --nocapture"]
fn three_ply_see_deciders() {
    // Prints the cheapest playout positions where each share of `3ply-see` changes the
    // oracle's move (the constants above came from here).
    let with = Spec::of("3ply-see");
    let samples = playouts::positions(playouts::SEED, 1000);
    let mut fens: Vec<String> = samples.into_iter().map(|s| s.fen).collect();
    fens.sort_by_key(|f| judge::position(f).legal_moves().len());
    for (what, without) in [
        ("discount", Spec { see: false, ..with }),
        (
            "quiet captures",
            Spec {
                everywhere: false,
                ..with
            },
        ),
        (
            "check extension (against 3ply-see-check)",
            Spec::of("3ply-see"),
        ),
    ] {
        let with = if what.starts_with("check") {
            Spec::of("3ply-see-check")
        } else {
            with
        };
        let found: Vec<&String> = fens
            .iter()
            .filter(|f| {
                let pos = judge::position(f);
                let best = |spec| oracle_variants::search(spec, &pos).map(|s| s.best);
                best(with) != best(without)
            })
            .take(4)
            .collect();
        println!("{what}: {found:?}");
    }
}

#[test]
fn every_registered_variant_is_told_apart_by_the_oracles() {
    let names: Vec<&str> = Search::ALL.iter().map(|v| v.name()).collect();
    oracle_variants::assert_they_tell_variants_apart(&names);
}

#[test]
fn the_comparison_catches_a_wrong_report() {
    // A stand-in program, not the chess rules: it answers the start position with the
    // oracle's move and report, then with one field wrong at a time.
    let start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
    let pos = judge::position(start);
    let searched = oracle_variants::search(Spec::of("2ply"), &pos).unwrap();
    let best = &searched.best;
    let after = judge::play(&pos, best);
    let fen_after = judge::fen(&after);
    let reply_score = |r: &String| {
        let m = after
            .legal_moves()
            .into_iter()
            .find(|m| judge::uci(m) == *r)
            .unwrap();
        oracle_variants::after_reply(Spec::of("2ply"), &after, &m, pos.turn()).0
    };
    let reply = after
        .legal_moves()
        .iter()
        .map(judge::uci)
        .find(|r| reply_score(r) == searched.score)
        .unwrap();
    let other = after
        .legal_moves()
        .iter()
        .map(judge::uci)
        .find(|r| reply_score(r) != searched.score)
        .unwrap();
    let answer = |score: i32, nodes: u64, pv: &str| {
        let text = format!(
            "move {best}\nfen {fen_after}\nstatus ongoing\nscore cp {score}\ndepth 2\n\
             nodes {nodes}\npv {pv}\n"
        );
        let rule = regex_chess_machine::program::Rule::new(format!("^{start}\\n$"), text);
        let program = regex_chess_machine::program::Program::from_rules(vec![rule]);
        MovePicker::with_executor(ExecutorKind::Fast.build(program.validate().unwrap()))
    };
    let variant = Search::ALL[0];
    let (score, nodes) = (searched.score, searched.nodes);
    let right = answer(score, nodes, &format!("{best} {reply}"));
    assert_eq!(check(variant, &right, start), None);
    // A FEN the engine refuses is a difference, never agreement.
    let refused = check(variant, &right, "8/8/8/8/8/8/8/8 w - - 0 1").unwrap_or_default();
    assert!(
        refused.contains("the engine refuses the FEN"),
        "{refused:?}"
    );
    for (wrong, what) in [
        (
            answer(score + 5, nodes, &format!("{best} {reply}")),
            format!("(Some(Cp({})), Some(2), Some({nodes}))", score + 5),
        ),
        (
            answer(score, nodes + 1, &format!("{best} {reply}")),
            format!("(Some(Cp({score})), Some(2), Some({}))", nodes + 1),
        ),
        (
            answer(score, nodes, &format!("{best} {other}")),
            format!("pv reply {other} scores"),
        ),
        (answer(score, nodes, best), format!("pv [\"{best}\"]")),
    ] {
        let error = check(variant, &wrong, start).unwrap_or_default();
        assert!(error.contains(&what), "{what}: {error:?}");
    }
}
