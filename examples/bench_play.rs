//! Seconds per move of the `play` and `move` rules on the built-in bench suite (`data/positions/bench.txt`).
//!
//! For each position: the `board` rules draw it (engine plays black), then the timed
//! `play` run validates white's move and answers it (as in the anchors' table); the timed
//! `move` run answers the FEN after white's move. Programs are compiled and the executors
//! built once, before any timing.
//!
//! `cargo run --release --example bench_play [-- reference|fast]`

use std::time::Instant;

use regex_chess_core::engine;
use regex_chess_core::exec::ExecutorKind;
use shakmaty::fen::Fen;
use shakmaty::uci::UciMove;
use shakmaty::{CastlingMode, Chess, EnPassantMode, Position};

fn main() {
    let kind: ExecutorKind = std::env::args()
        .nth(1)
        .unwrap_or_else(|| "fast".into())
        .parse()
        .expect("reference or fast");
    let start = Instant::now();
    let board = kind.build(engine::program("board").unwrap());
    let play = kind.build(engine::program("play").unwrap());
    let mover = kind.build(engine::program("move").unwrap());
    println!(
        "executor {}: programs built in {:.2} s (play {} rules, move {} rules)",
        play.name(),
        start.elapsed().as_secs_f64(),
        play.program().rules().len(),
        mover.program().rules().len()
    );
    let text = regex_chess_core::positions::BENCH;
    for line in text
        .lines()
        .filter(|l| !l.starts_with('#') && !l.is_empty())
    {
        let fields: Vec<&str> = line.split(';').collect();
        let (fen, white_move, label) = (fields[0], fields[1], fields[2]);
        let first = board.run(&format!("engine: black\n{fen}\n"));
        let t = Instant::now();
        let (after, stats) = play.run_with_stats(&format!("{first}{white_move}\n"));
        let play_s = t.elapsed().as_secs_f64();
        let reply = after
            .lines()
            .find(|l| l.starts_with("Black plays") || l.starts_with("Illegal"))
            .unwrap_or("?")
            .to_string();
        let pos: Chess = fen
            .parse::<Fen>()
            .unwrap()
            .into_position(CastlingMode::Standard)
            .unwrap();
        // A promotion typed without its letter is a queen's.
        let m = white_move
            .parse::<UciMove>()
            .ok()
            .and_then(|m| m.to_move(&pos).ok())
            .or_else(|| {
                let queen = format!("{white_move}q").parse::<UciMove>().ok()?;
                queen.to_move(&pos).ok()
            })
            .expect("a legal move");
        let next = pos.play(m).unwrap();
        let next_fen = Fen::from_position(&next, EnPassantMode::Legal).to_string();
        let t = Instant::now();
        let out = mover.run(&format!("{next_fen}\n"));
        let move_s = t.elapsed().as_secs_f64();
        println!(
            "{label:34} play {play_s:7.3} s  move {move_s:7.3} s  peak state {:7} B  {reply} | {}",
            stats.max_state_len,
            out.lines().next().unwrap_or("")
        );
    }
}
