//! Fuzz target: the `play` prompt on random typed lines (`crates/testkit/src/random_input/play.rs`
//! draws them: legal moves in coordinates and SAN, near misses, `help`, noise, `%`, long
//! lines, invalid UTF-8), through the `board` and `play` rules of a search variant, as
//! `regex-chess play` runs them: a line that is not UTF-8 never reaches the rules, the
//! others are trimmed and clipped, `quit` and `exit` end the game. The rules must never
//! panic and the game must be kept (the judge there: the board shown is the one before
//! the line or the one after a legal move and reply, a legal move typed is played, the
//! game ends exactly when shakmaty says).

#![no_main]

use std::collections::HashMap;
use std::sync::{Arc, Mutex, OnceLock};

use libfuzzer_sys::fuzz_target;
use regex_chess_engine::{self as engine, Output, Search};
use regex_chess_machine::exec::{Executor, ExecutorKind};

use regex_chess_testkit::random_input;

/// The most lines of one input.
const MAX_LINES: usize = 16;

/// A program on the fast executor, built once per process.
fn program(name: &'static str) -> Arc<dyn Executor> {
    static BUILT: OnceLock<Mutex<HashMap<&'static str, Arc<dyn Executor>>>> = OnceLock::new();
    let built = BUILT.get_or_init(Default::default);
    let mut built = built.lock().unwrap_or_else(|e| e.into_inner());
    built
        .entry(name)
        .or_insert_with(|| {
            let valid = engine::program(name).unwrap_or_else(|e| panic!("{name}: {e}"));
            Arc::from(ExecutorKind::Fast.build(valid))
        })
        .clone()
}

fuzz_target!(|data: &[u8]| {
    let mut bytes = random_input::Bytes::new(data);
    // The 2-ply searches mostly: a deeper one costs many times more a move.
    let quick: Vec<Search> = Search::ALL.into_iter().filter(|v| v.depth() <= 2).collect();
    let variant = match bytes.below(8) {
        0 => *bytes.pick(&Search::ALL),
        _ => *bytes.pick(&quick),
    };
    let fen = random_input::FENS[bytes.below(random_input::FENS.len())];
    let engine_side = if fen.split(' ').nth(1) == Some("w") {
        "black"
    } else {
        "white"
    };
    let board = program("board");
    let play = program(variant.program(Output::Play));
    let mut text = board
        .run(&format!("engine: {engine_side}\n{fen}\n"))
        .unwrap_or_else(|e| panic!("{fen}: {e}"));
    let mut judge = random_input::play::Judge::new(&text).unwrap_or_else(|e| panic!("{fen}: {e}"));
    for _ in 0..MAX_LINES {
        if bytes.is_empty() || text.ends_with("Game over.\n") {
            break;
        }
        let raw = random_input::play::line(&mut bytes, judge.position());
        let Ok(line) = String::from_utf8(raw) else {
            // The prompt answers that it is not UTF-8; the rules never see it.
            continue;
        };
        let typed = random_input::play::clip(&line);
        if matches!(typed.as_str(), "quit" | "exit") {
            break;
        }
        text = play
            .run(&format!("{text}{typed}\n"))
            .unwrap_or_else(|e| panic!("{fen}: {e}"));
        if let Err(e) = judge.after(&typed, &text) {
            panic!("{} from {fen}: {e}\n{text}", variant.name());
        }
    }
});
