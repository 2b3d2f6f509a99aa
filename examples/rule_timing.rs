//! Times single rules of the two-plies proxy on the state they meet.
//!
//! `cargo run --release --example rule_timing -- RULE [RULE...]`; the environment
//! variables `PROGRAM` (default `two-plies`), `FEN` and `MOVE` (for `play`) choose the
//! workload.

use std::time::Instant;

use regex_chess_core::bench::Workload;
use regex_chess_core::exec::{Executor, NoObserver, fast::Fast, reference::Reference};

fn main() {
    let rules: Vec<usize> = std::env::args()
        .skip(1)
        .filter_map(|a| a.parse().ok())
        .collect();
    let name = std::env::var("PROGRAM").unwrap_or_else(|_| "two-plies".into());
    let w = Workload::new(Some(&name), &Default::default()).unwrap();
    let fast = Fast::new(w.program.clone());
    let reference = Reference::new(w.program.clone());
    let fen = std::env::var("FEN")
        .unwrap_or_else(|_| "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1".into());
    let input = w
        .input(&regex_chess_core::bench::BenchPosition {
            fen,
            white_move: std::env::var("MOVE").unwrap_or_default(),
            label: String::new(),
        })
        .unwrap();
    let input = input.as_str();
    for r in rules {
        let state = fast.run_range(input, 0..r, &mut NoObserver);
        let threads = state.matches("%%\n").count();
        for exec in [&fast as &dyn Executor, &reference] {
            let mut times = Vec::new();
            for _ in 0..5 {
                let t = Instant::now();
                exec.run_range(&state, r..r + 1, &mut NoObserver);
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
