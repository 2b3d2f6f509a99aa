//! The ranking programs (`move-mpv`, `move-q-mpv`, `move-qe-mpv`, the [`Search::ranked`]
//! of every variant) against the independent oracle of `crates/testkit/src/oracle/variants.rs`:
//! the output before the `multipv` lines is the variant program's, byte for byte, and the
//! `multipv` lines are the oracle's best root moves (by score, ties to the smallest UCI
//! text), each with the oracle's score and a pv whose reply scores the move's score.
//!
//! The fast executor runs the known positions, the bench suite and a share of playout
//! positions; the reference executor runs a few positions with few moves, and its output
//! must equal the fast one's. Plain `cargo test` judges one variant of each family
//! ([`volume::searches_per_family`]); the `#[ignore]`d volumes judge the other variants
//! the same way (`cargo test --release --test chess -- multipv:: --ignored`, run by
//! `scripts/ci-volumes.sh`).

use regex_chess_testkit::{oracle, volume};

use oracle::variants::{self as oracle_variants, Spec};
use oracle::{judge, parallel, perft, playouts};
use regex_chess_chess::notation::fen::Fen;
use regex_chess_chess::search::MULTIPV_MAX;
use regex_chess_chess::weights;
use regex_chess_engine as engine;
use regex_chess_engine::reply::{RankedMove, Reply, Score};
use regex_chess_engine::runner;
use regex_chess_engine::variants::{Output, Search};
use regex_chess_machine::exec::{Executor, ExecutorKind};

/// The score line the contract asks for, for an oracle score.
fn expected_score(cp: i32) -> Score {
    match cp {
        weights::MATE => Score::Mate(1),
        v if v == -weights::MATE => Score::Mate(-1),
        v => Score::Cp(v),
    }
}

/// The two programs of a variant on one executor kind.
struct Pair {
    plain: Box<dyn Executor>,
    ranked: Box<dyn Executor>,
}

impl Pair {
    fn new(variant: Search, kind: ExecutorKind) -> Pair {
        let load = |name: &str| {
            kind.build(engine::program(name).unwrap_or_else(|e| panic!("{name}: {e}")))
        };
        Pair {
            plain: load(variant.program(Output::Move)),
            ranked: load(variant.program(Output::Ranked)),
        }
    }
}

/// What differs between the ranking program's output on `fen_text` and the oracle's,
/// if anything.
fn check_state(variant: Search, plain: &str, ranked: &str, fen_text: &str) -> Option<String> {
    let name = variant.program(Output::Ranked);
    let at = ranked.find("multipv ").unwrap_or(ranked.len());
    if ranked[..at] != *plain {
        return Some(format!(
            "{name} {fen_text}: the lines before the ranking differ from {}:\n{plain}\n{ranked}",
            variant.program(Output::Move)
        ));
    }
    let reply = match regex_chess_engine::reply::parse_move_output(ranked) {
        Ok(reply) => reply,
        Err(e) => return Some(format!("{name} {fen_text}: {e}")),
    };
    let pos = judge::position(fen_text);
    let spec = Spec::of(variant.name()).at(&pos);
    let (searched, reply) = match (oracle_variants::search(spec, &pos), reply) {
        (None, Reply::NoMove(_)) => return None,
        (Some(searched), Reply::Move(reply)) => (searched, reply),
        _ => return Some(format!("{name} {fen_text}: the oracle disagrees on a move")),
    };
    // The oracle's ranking: score down, then UCI text up.
    let mut want = searched.scored.clone();
    want.sort_by(|(m, a), (n, b)| b.cmp(a).then(m.cmp(n)));
    want.truncate(MULTIPV_MAX);
    let got: Vec<(String, Score)> = reply
        .multipv
        .iter()
        .map(|r| {
            (
                r.pv.first().map_or(String::new(), |m| m.to_string()),
                r.score,
            )
        })
        .collect();
    let want_lines: Vec<(String, Score)> = want
        .iter()
        .map(|(m, v)| (m.clone(), expected_score(*v)))
        .collect();
    if got != want_lines {
        return Some(format!(
            "{name} {fen_text}: ranking {got:?}, the oracle {want_lines:?}"
        ));
    }
    // The ranking's pv is the move and its reply; a 3-ply report may add a third move.
    let first = &reply.multipv[0];
    let reported = &reply.pv[..reply.pv.len().min(2)];
    if (Some(first.score), first.pv.as_slice()) != (reply.score, reported) {
        return Some(format!(
            "{name} {fen_text}: rank 1 is not the move's report"
        ));
    }
    reply
        .multipv
        .iter()
        .zip(&want)
        .find_map(|(ranked, (_, value))| check_pv(spec, &pos, ranked, *value))
        .map(|problem| format!("{name} {fen_text}: {problem}"))
}

/// Whether a ranked move's pv is the move and, when it leaves a reply, a legal reply
/// whose score is the move's.
fn check_pv(spec: Spec, pos: &shakmaty::Chess, ranked: &RankedMove, value: i32) -> Option<String> {
    use shakmaty::Position;
    let texts: Vec<String> = ranked.pv.iter().map(|m| m.to_string()).collect();
    let after = judge::play(pos, &texts[0]);
    match texts.as_slice() {
        [_] if after.legal_moves().is_empty() => None,
        [mv, r] => {
            let Some(reply) = after
                .legal_moves()
                .into_iter()
                .find(|m| judge::uci(m) == *r)
            else {
                return Some(format!("pv {mv} {r}: the reply is not legal"));
            };
            let score_of = match spec.depth {
                3 => oracle_variants::after_reply3,
                _ => oracle_variants::after_reply,
            };
            let (score, _) = score_of(spec, &after, &reply, pos.turn());
            (score != value).then(|| format!("pv {mv} {r}: the reply scores {score}, not {value}"))
        }
        other => Some(format!("pv {other:?}")),
    }
}

/// Runs both programs of `pair` on `fen_text` and checks the result; with `reference`,
/// the reference executor's ranking output must equal the fast one's.
fn check(variant: Search, pair: &Pair, reference: Option<&Pair>, fen_text: &str) -> Option<String> {
    let fen = match oracle::answer::engine_fen(fen_text) {
        Ok(fen) => fen,
        Err(e) => return Some(format!("{}: {e}", variant.program(Output::Ranked))),
    };
    let input = runner::input_state(&fen);
    let plain = pair.plain.run(&input).unwrap();
    let ranked = pair.ranked.run(&input).unwrap();
    if let Some(reference) = reference {
        let slow = reference.ranked.run(&input).unwrap();
        if slow != ranked {
            return Some(format!(
                "{} {fen_text}: the executors differ:\nreference\n{slow}\nfast\n{ranked}",
                variant.program(Output::Ranked)
            ));
        }
    }
    check_state(variant, &plain, &ranked, fen_text)
}

/// Positions with few moves or a known answer: mates in one, no move at all, promotions,
/// a lone king.
const KNOWN: [&str; 7] = [
    "6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1",
    "rnbqkbnr/pppp1ppp/8/4p3/6P1/5P2/PPPPP2P/RNBQKBNR b KQkq g3 0 2",
    "k7/7P/1K6/8/8/8/8/8 w - - 0 1",
    "7k/5Q2/6K1/8/8/8/8/8 b - - 0 1",
    "4k3/8/3p4/4n3/8/5N2/8/4K3 w - - 0 1",
    "8/8/3k4/8/8/8/8/4K2Q w - - 0 1",
    "7k/8/6K1/8/8/8/8/6Q1 b - - 0 1",
];

/// `variants`' ranking programs on the fast executor, on the known positions, the bench
/// suite and a share of playout positions, against the oracle.
fn fast_ranks_as_the_oracle(variants: impl IntoIterator<Item = Search>) {
    let mut fens: Vec<String> = KNOWN.iter().map(|f| f.to_string()).collect();
    fens.extend(perft::suite_fens("bench.txt"));
    let samples = playouts::positions(playouts::SEED, 1000);
    fens.extend(playouts::share(&samples, 12).into_iter().map(|s| s.fen));
    for variant in variants {
        let pair = Pair::new(variant, ExecutorKind::Fast);
        let failures = parallel::failures(&fens, |f| check(variant, &pair, None, f));
        parallel::assert_none(variant.program(Output::Ranked), fens.len(), &failures);
    }
}

/// `variants`' ranking programs on the reference executor, on the known positions,
/// against the fast executor's output and the oracle.
fn reference_ranks_as_the_fast_one(variants: impl IntoIterator<Item = Search>) {
    let fens: Vec<String> = KNOWN.iter().map(|f| f.to_string()).collect();
    for variant in variants {
        let fast = Pair::new(variant, ExecutorKind::Fast);
        let reference = Pair::new(variant, ExecutorKind::Reference);
        let failures = parallel::failures(&fens, |f| check(variant, &fast, Some(&reference), f));
        parallel::assert_none(variant.program(Output::Ranked), fens.len(), &failures);
    }
}

#[test]
fn the_fast_executor_ranks_as_the_oracle() {
    fast_ranks_as_the_oracle(volume::searches_per_family());
}

#[test]
#[ignore = "volume: cargo test --release --test chess -- multipv:: --ignored"]
fn the_fast_executor_ranks_as_the_oracle_with_the_other_searches() {
    fast_ranks_as_the_oracle(volume::other_searches());
}

#[test]
fn the_reference_executor_ranks_as_the_fast_one() {
    reference_ranks_as_the_fast_one(volume::searches_per_family());
}

#[test]
#[ignore = "volume: cargo test --release --test chess -- multipv:: --ignored"]
fn the_reference_executor_ranks_as_the_fast_one_with_the_other_searches() {
    reference_ranks_as_the_fast_one(volume::other_searches());
}

#[test]
fn the_check_catches_a_wrong_ranking() {
    // The fast executor's true output, then the same with two ranks swapped, a wrong
    // score and a line too few.
    let variant = Search::ALL[0];
    let pair = Pair::new(variant, ExecutorKind::Fast);
    let fen_text = "4k3/8/3p4/4n3/8/5N2/8/4K3 w - - 0 1";
    let fen: Fen = fen_text.parse().unwrap();
    let input = runner::input_state(&fen);
    let plain = pair.plain.run(&input).unwrap();
    let ranked = pair.ranked.run(&input).unwrap();
    assert_eq!(check_state(variant, &plain, &ranked, fen_text), None);
    let lines: Vec<&str> = ranked.lines().collect();
    let ranks = lines
        .iter()
        .position(|l| l.starts_with("multipv "))
        .unwrap();
    assert!(lines.len() >= ranks + 3, "{ranked}");
    let text = |lines: &[String]| lines.iter().map(|l| format!("{l}\n")).collect::<String>();
    let owned: Vec<String> = lines.iter().map(|l| l.to_string()).collect();
    let mut swapped = owned.clone();
    let (second, third) = (owned[ranks + 1].clone(), owned[ranks + 2].clone());
    swapped[ranks + 1] = third.replacen("multipv 3", "multipv 2", 1);
    swapped[ranks + 2] = second.replacen("multipv 2", "multipv 3", 1);
    let mut rescored = owned.clone();
    let (_, pv) = owned[ranks + 1].split_once(" pv ").unwrap();
    rescored[ranks + 1] = format!("multipv 2 score cp 9999 pv {pv}");
    let mut short = owned.clone();
    short.pop();
    for wrong in [swapped, rescored, short] {
        let state = text(&wrong);
        assert!(
            check_state(variant, &plain, &state, fen_text).is_some(),
            "{state}"
        );
    }
}
