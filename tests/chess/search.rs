//! The `move` rules against the independent search of `crates/testkit/src/oracle/search.rs`: the move
//! chosen, the FEN after it (as shakmaty writes it) and the status of the game.
//!
//! CI runs the bench and mate positions and a share of 60 playout positions; the full
//! volume (500 playout positions) runs with `cargo test --release -- --ignored`
//! (`scripts/verify-full.sh`). A test fails when the program is not registered.

use regex_chess_testkit::oracle;

use oracle::{engine, judge, parallel, perft, playouts, search};
use regex_chess_chess::notation::fen::Fen;
use regex_chess_engine::reply::Reply;
use regex_chess_engine::runner::{MOVE, MovePicker};
use regex_chess_machine::exec::ExecutorKind;

/// Runs the rules on `fen_text` and compares with the independent search; `None` when
/// they agree, else what differs.
fn check(picker: &MovePicker, fen_text: &str) -> Option<String> {
    let pos = judge::position(fen_text);
    let fen: Fen = match fen_text.parse() {
        Ok(fen) => fen,
        Err(e) => return Some(format!("{fen_text}: the native parser refuses it: {e}")),
    };
    let reply = match picker.run(&fen) {
        Ok(reply) => reply,
        Err(e) => return Some(format!("{fen_text}: {e}")),
    };
    let scored = search::scored_moves(&pos);
    match (search::best_move(&pos), reply) {
        (None, Reply::NoMove(status)) => {
            let want = judge::allowed_statuses(&pos);
            (!want.contains(&status.as_str()))
                .then(|| format!("{fen_text}: no move and status {status}, expected {want:?}"))
        }
        (None, Reply::Move(reply)) => Some(format!(
            "{fen_text}: the rules play {} but there is no legal move",
            reply.mv
        )),
        (Some((best, _)), Reply::NoMove(status)) => Some(format!(
            "{fen_text}: the rules answer `{status}` without a move; the search plays {best}"
        )),
        (Some((best, value)), Reply::Move(reply)) => {
            let played = reply.mv.to_string();
            if played != best {
                let theirs = scored.iter().find(|(m, _)| *m == played).map_or_else(
                    || "an illegal move".to_string(),
                    |(_, v)| format!("scored {v} by the search"),
                );
                return Some(format!(
                    "{fen_text}: the rules play {played} ({theirs}); the search plays {best} \
                     (score {value})"
                ));
            }
            let after = judge::play(&pos, &best);
            let want_fen = judge::fen(&after);
            let got_fen = reply.fen_after.to_string();
            if got_fen != want_fen {
                return Some(format!(
                    "{fen_text}: after {best} the rules write {got_fen}, shakmaty {want_fen}"
                ));
            }
            let want = judge::allowed_statuses(&after);
            (!want.contains(&reply.status.as_str())).then(|| {
                format!(
                    "{fen_text}: after {best} the rules say `{}`, expected {want:?}",
                    reply.status
                )
            })
        }
    }
}

/// The FENs of `data/positions/bench.txt`.
fn bench_fens() -> Vec<String> {
    perft::suite_fens("bench.txt")
}

/// Positions with a known answer: mates in one (taken), a trap (avoided), no move at all.
const KNOWN: [&str; 7] = [
    "6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1",
    "r1bqkb1r/pppp1ppp/2n2n2/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR w KQkq - 4 4",
    "rnbqkbnr/pppp1ppp/8/4p3/6P1/5P2/PPPPP2P/RNBQKBNR b KQkq g3 0 2",
    "k7/7P/1K6/8/8/8/8/8 w - - 0 1",
    "3k4/Q7/nr2p3/3p1pPn/pP3P2/P3p2R/8/R6K b - - 7 42",
    "rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3",
    "7k/5Q2/6K1/8/8/8/8/8 b - - 0 1",
];

#[test]
fn the_comparison_catches_a_wrong_move() {
    // A stand-in program, not the chess rules: it answers the start position with a legal
    // but different move, then with the search's move and a wrong FEN after it. The
    // harness must notice both.
    let start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
    let (best, _) = search::best_move(&judge::position(start)).unwrap();
    let stand_in = |answer: String| {
        let rule = regex_chess_machine::program::Rule::new(format!("^{start}\\n$"), answer);
        let program = regex_chess_machine::program::Program::from_rules(vec![rule]);
        MovePicker::with_executor(ExecutorKind::Fast.build(program.validate().unwrap()))
    };
    let other = if best == "a2a3" { "h2h3" } else { "a2a3" };
    let after = judge::fen(&judge::play(&judge::position(start), other));
    let wrong_move = stand_in(format!("move {other}\nfen {after}\nstatus ongoing\n"));
    let error = check(&wrong_move, start).unwrap();
    assert!(
        error.contains(&format!("the rules play {other}")),
        "{error}"
    );
    let wrong_fen = stand_in(format!("move {best}\nfen {after}\nstatus ongoing\n"));
    let error = check(&wrong_fen, start).unwrap();
    assert!(
        error.contains(&format!("after {best} the rules write")),
        "{error}"
    );
    let right_fen = judge::fen(&judge::play(&judge::position(start), &best));
    let right = stand_in(format!("move {best}\nfen {right_fen}\nstatus ongoing\n"));
    assert_eq!(check(&right, start), None);
    let wrong_status = stand_in(format!("move {best}\nfen {right_fen}\nstatus stalemate\n"));
    assert!(check(&wrong_status, start).unwrap().contains("`stalemate`"));
}

#[test]
fn known_and_bench_positions() {
    let Some(picker) = engine::move_picker() else {
        return engine::skip("known_and_bench_positions", MOVE);
    };
    let mut fens: Vec<String> = KNOWN.iter().map(|f| f.to_string()).collect();
    fens.extend(bench_fens());
    let failures = parallel::failures(&fens, |f| check(picker, f));
    parallel::assert_none("known and bench positions", fens.len(), &failures);
}

#[test]
fn playout_positions_ci_share() {
    let Some(picker) = engine::move_picker() else {
        return engine::skip("playout_positions_ci_share", MOVE);
    };
    let samples = playouts::positions(playouts::SEED, 1000);
    let fens: Vec<String> = playouts::share(&samples, 60)
        .into_iter()
        .map(|s| s.fen)
        .collect();
    let failures = parallel::failures(&fens, |f| check(picker, f));
    parallel::assert_none("playout share", fens.len(), &failures);
}

#[test]
#[ignore = "full volume: cargo test --release -- --ignored"]
fn playout_positions_full() {
    let Some(picker) = engine::move_picker() else {
        return engine::skip("playout_positions_full", MOVE);
    };
    let samples = playouts::positions(playouts::SEED, 1000);
    let fens: Vec<String> = playouts::share(&samples, 500)
        .into_iter()
        .map(|s| s.fen)
        .collect();
    assert!(fens.len() >= 500);
    let failures = parallel::failures(&fens, |f| check(picker, f));
    parallel::assert_none("500 playout positions", fens.len(), &failures);
}
