//! Times the `legal-moves` program on a few positions with both executors.
//!
//! `cargo run --release --example chess_timing [runs]` prints the rule count, the
//! distinct patterns, and per position and executor the median time of one run, the
//! rules that changed the state and the largest state.

use std::time::Instant;

use regex_chess::compiler::{self, CompileOptions};
use regex_chess::exec::ExecutorKind;

/// Two plies of `fork_legal_moves` (no UCI text), then, if `probe`, `has_legal_move` and
/// `in_check` on every leaf: what a 2-ply search with mate detection costs.
fn two_plies(probe: bool) -> regex_chess::program::ValidProgram {
    use regex_chess::chess::board::MoveGen;
    use regex_chess::chess::fen_rules::parse_fen;
    use regex_chess::chess::movegen::{fork_legal_moves, has_legal_move, in_check};
    use regex_chess::compiler::dsl::Builder;
    let mut b = Builder::new("two-plies", "leaves of a 2-ply tree");
    let pos = parse_fen(&mut b);
    b.grouped(|b| {
        fork_legal_moves(b, &pos, 218, MoveGen::default());
        fork_legal_moves(b, &pos, 218, MoveGen::default());
    });
    let mut reads = pos.vars().to_vec();
    let (has, check);
    if probe {
        has = has_legal_move(&mut b, &pos);
        check = in_check(&mut b, &pos);
        reads.push(has.var());
        reads.push(check.var());
    }
    b.rules(
        "count",
        vec![("%%\n#stack:\n[^%]*".to_string(), "x\n".to_string())],
        &reads,
        &[],
    );
    compiler::compile(b.finish(), &CompileOptions::default())
        .program
        .validate()
        .expect("valid")
}

fn main() {
    let runs: usize = std::env::args()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or(5);
    let entry = regex_chess::programs::find("legal-moves").expect("registered");
    let program = compiler::compile((entry.build)(), &CompileOptions::default())
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
