//! Times the `legal-moves` program on a few positions with both executors.
//!
//! `cargo run --release --example chess_timing [runs]` prints the rule count, the
//! distinct patterns, and per position and executor the median time of one run, the
//! rules that changed the state and the largest state.

use std::time::Instant;

use regex_chess_core::compiler::{self, CompileOptions};
use regex_chess_core::exec::ExecutorKind;

/// Two plies of `fork_legal_moves`, probed or not: the bench's proxy program.
fn two_plies(probe: bool) -> regex_chess_core::program::ValidProgram {
    let ir = regex_chess_core::bench::two_plies(probe);
    compiler::compile(ir, &CompileOptions::default())
        .program
        .validate()
        .expect("valid")
}

fn main() {
    let runs: usize = std::env::args()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or(5);
    let entry = regex_chess_core::engine::registry::find("legal-moves").expect("registered");
    let program = compiler::compile(entry.build(), &CompileOptions::default())
        .program
        .validate()
        .expect("valid");
    println!(
        "legal-moves: {} rules, {} distinct patterns",
        program.rules().len(),
        program.distinct_patterns()
    );
    let positions = [
        (
            "start",
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        ),
        (
            "kiwipete",
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        ),
        (
            "position4",
            "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
        ),
    ];
    for kind in [ExecutorKind::Reference, ExecutorKind::Fast] {
        for probe in [false, true] {
            let exec = kind.build(two_plies(probe));
            for (name, fen) in &positions[..2] {
                let state = format!("{fen}\n");
                let _ = exec.run(&state); // warm up the executor's caches
                let start = Instant::now();
                let (out, stats) = exec.run_with_stats(&state);
                println!(
                    "{:<10} {:<9} two plies{}: {:>8.1} ms, {} leaves, max state {} B",
                    exec.name(),
                    name,
                    if probe {
                        " + has_legal_move + in_check"
                    } else {
                        ""
                    },
                    start.elapsed().as_secs_f64() * 1e3,
                    out.lines().count(),
                    stats.max_state_len
                );
            }
        }
        let exec = kind.build(program.clone());
        for (name, fen) in positions {
            let state = format!("{fen}\n");
            let (out, stats) = exec.run_with_stats(&state);
            let mut times: Vec<f64> = (0..runs)
                .map(|_| {
                    let start = Instant::now();
                    let _ = exec.run(&state);
                    start.elapsed().as_secs_f64() * 1e3
                })
                .collect();
            times.sort_by(|a, b| a.partial_cmp(b).unwrap());
            println!(
                "{:<10} {:<9} {:>8.2} ms  {} moves, {} rules searched, {} skipped, max state {} B",
                exec.name(),
                name,
                times[times.len() / 2],
                out.lines().count(),
                stats.rules_applied,
                stats.rules_skipped,
                stats.max_state_len
            );
        }
    }
}
