//! The `apply-move` rules against shakmaty: for positions of seeded random playouts
//! (weighted towards checks, promotions, en passant and castling), every legal move gives
//! shakmaty's FEN after it, and moves that are not legal give `illegal`.
//!
//! Fails when the program is not registered.

use regex_chess_testkit::oracle;

use std::sync::OnceLock;

use oracle::{judge, parallel, playouts};
use regex_chess_chess::notation::fen::Fen;
use regex_chess_chess::notation::uci::UciMove;
use regex_chess_engine::uci::{APPLY_MOVE, ApplyMove};
use regex_chess_machine::exec::ExecutorKind;

fn program() -> Option<&'static ApplyMove> {
    static CELL: OnceLock<Option<ApplyMove>> = OnceLock::new();
    CELL.get_or_init(|| {
        oracle::engine::registered(APPLY_MOVE)
            .then(|| ApplyMove::new(ExecutorKind::Fast).expect("apply-move builds"))
    })
    .as_ref()
}

/// Moves that look plausible but are not legal in `pos`: every legal move's from-square
/// to a few other squares, and a promotion letter on a move that does not promote.
fn illegal_candidates(pos: &shakmaty::Chess) -> Vec<String> {
    let legal = judge::legal_uci(pos);
    let mut out = Vec::new();
    for mv in legal.iter().take(6) {
        for to in ["a1", "h8", "e4", "d5"] {
            let text = format!("{}{to}", &mv[..2]);
            if &text[..2] != to && !legal.contains(&text) {
                out.push(text);
            }
        }
        if mv.len() == 4 {
            out.push(format!("{mv}q"));
        }
    }
    out.push("e1e3".to_string());
    out.retain(|m| !legal.contains(m));
    out.sort();
    out.dedup();
    out
}

fn check(fen: &str, apply: &ApplyMove) -> Option<String> {
    let pos = judge::position(fen);
    let ours: Fen = fen.parse().expect("a valid FEN");
    for mv in judge::legal_uci(&pos) {
        let expected = judge::fen(&judge::play(&pos, &mv));
        let uci: UciMove = mv.parse().unwrap();
        match apply.run(&ours, uci) {
            Ok(Some(after)) if after.to_string() == expected => {}
            other => return Some(format!("{fen} {mv}: expected {expected}, got {other:?}")),
        }
    }
    for mv in illegal_candidates(&pos) {
        let uci: UciMove = mv.parse().unwrap();
        match apply.run(&ours, uci) {
            Ok(None) => {}
            other => return Some(format!("{fen} {mv}: expected illegal, got {other:?}")),
        }
    }
    None
}

#[test]
fn apply_move_agrees_with_shakmaty() {
    let Some(apply) = program() else {
        oracle::engine::skip("apply_move_agrees_with_shakmaty", APPLY_MOVE);
        return;
    };
    let samples = playouts::share(&playouts::positions(11, 400), 40);
    let mut fens: Vec<String> = samples.into_iter().map(|s| s.fen).collect();
    fens.push("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1".to_string());
    fens.push("8/1P4k1/8/8/8/8/6K1/8 w - - 0 1".to_string());
    fens.push("r3k2r/8/8/8/8/8/8/R3K2R b KQkq - 3 20".to_string());
    fens.push("4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 2".to_string());
    let failures = parallel::failures(&fens, |fen| check(fen, apply));
    parallel::assert_none("apply-move", fens.len(), &failures);
}
