//! The `move` rules on positions built for one tactic each, judged by shakmaty: the engine
//! takes a mate in one, avoids a mate in one, and answers `status` alone when it has no
//! move. (The move-for-move comparison with the independent search is
//! `tests/chess/search.rs`.)

use regex_chess_chess::notation::fen::Fen;
use regex_chess_engine::reply::Reply;
use regex_chess_engine::runner::MovePicker;
use regex_chess_machine::exec::ExecutorKind;
use shakmaty::fen::Fen as SFen;
use shakmaty::uci::UciMove;
use shakmaty::{CastlingMode, Chess, Position};

fn position(fen: &str) -> Chess {
    fen.parse::<SFen>()
        .unwrap()
        .into_position(CastlingMode::Standard)
        .unwrap()
}

fn picker() -> MovePicker {
    MovePicker::new(ExecutorKind::Fast).expect("the move rules build")
}

/// The engine's move on `fen` and the position after it, checked legal.
fn engine_move(picker: &MovePicker, fen: &str) -> (String, Chess) {
    let parsed: Fen = fen.parse().unwrap();
    let Reply::Move(reply) = picker.run(&parsed).unwrap() else {
        panic!("{fen}: no move");
    };
    let pos = position(fen);
    let text = reply.mv.to_string();
    let m = text
        .parse::<UciMove>()
        .unwrap()
        .to_move(&pos)
        .unwrap_or_else(|e| panic!("{fen}: illegal engine move {text}: {e}"));
    let after = pos.play(m).unwrap();
    (text, after)
}

#[test]
fn takes_a_mate_in_one() {
    let picker = picker();
    for fen in [
        // Back-rank mates for either side.
        "6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1",
        "r5k1/8/8/8/8/8/5PPP/6K1 b - - 0 1",
        // A queen mate next to the king, supported by the king.
        "7k/8/5K2/8/8/8/8/6Q1 w - - 0 1",
    ] {
        let (mv, after) = engine_move(&picker, fen);
        assert!(after.is_checkmate(), "{fen}: {mv} does not mate");
    }
}

#[test]
fn avoids_a_mate_in_one() {
    let picker = picker();
    for fen in [
        // Black threatens Re1#: white must make room or guard the first rank.
        "4r1k1/1R3ppp/8/8/8/8/5PPP/6K1 w - - 0 1",
        // The mirror: white threatens Rd8#.
        "6k1/5ppp/8/8/8/8/1r3PPP/3R2K1 b - - 0 1",
    ] {
        let (mv, after) = engine_move(&picker, fen);
        for reply in after.legal_moves() {
            let next = after.clone().play(reply).unwrap();
            assert!(
                !next.is_checkmate(),
                "{fen}: after {mv} the reply {reply} mates"
            );
        }
    }
}

#[test]
fn no_move_answers_the_status() {
    let picker = picker();
    for (fen, want) in [
        ("7k/6Q1/6K1/8/8/8/8/8 b - - 0 1", "checkmate"),
        ("k7/2Q5/1K6/8/8/8/8/8 b - - 0 1", "stalemate"),
    ] {
        let parsed: Fen = fen.parse().unwrap();
        match picker.run(&parsed).unwrap() {
            Reply::NoMove(status) => assert_eq!(status.as_str(), want, "{fen}"),
            Reply::Move(m) => panic!("{fen}: the rules play {}", m.mv),
        }
    }
}
