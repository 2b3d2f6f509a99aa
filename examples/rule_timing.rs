//! Times single rules of a move on the state they meet, on both executors (the median of
//! five runs of the one rule each).
//!
//! `cargo run --release --example rule_timing -- RULE [RULE...]`; the environment
//! variables `PROGRAM` (a `bench` workload: `play` by default, or any registered program
//! that takes a FEN), `FEN` (the start position by default) and `MOVE` (the move white
//! types, for `play`; `e2e4` by default) choose the move. The rule indices of a move's
//! slowest rules come from `regex-chess profile --slowest N`.

use std::time::Instant;

use regex_chess_engine::bench::Workload;
use regex_chess_machine::exec::{Executor, NoObserver, fast::Fast, reference::Reference};

fn main() {
    let rules: Vec<usize> = std::env::args()
        .skip(1)
        .filter_map(|a| a.parse().ok())
        .collect();
    let name = std::env::var("PROGRAM").unwrap_or_else(|_| "play".into());
    let w = Workload::new(Some(&name), &Default::default()).unwrap();
    let fast = Fast::new(w.program.clone());
    let reference = Reference::new(w.program.clone());
    let fen = std::env::var("FEN")
        .unwrap_or_else(|_| "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1".into());
    let input = w
        .input(&regex_chess_engine::bench::BenchPosition {
            fen,
            white_move: std::env::var("MOVE").unwrap_or_else(|_| "e2e4".into()),
            label: String::new(),
        })
        .unwrap();
    let input = input.as_str();
    for r in rules {
        let state = fast.run_range(input, 0..r, &mut NoObserver).unwrap();
        let threads = state.matches("%%\n").count();
        for exec in [&fast as &dyn Executor, &reference] {
            let mut times = Vec::new();
            for _ in 0..5 {
                let t = Instant::now();
                exec.run_range(&state, r..r + 1, &mut NoObserver).unwrap();
                times.push(t.elapsed().as_secs_f64() * 1e3);
            }
            times.sort_by(f64::total_cmp);
            println!(
                "rule {r} {:<9} {:>8.3} ms  state {} B, {threads} active threads",
                exec.name(),
                times[2],
                state.len()
            );
        }
    }
}
