//! Times a `next-positions` program on a list of FENs with both executors.
//!
//! `cargo run --release --example next_positions_timing -- FENS [PROGRAM]` reads one FEN
//! a line (such as the list `scripts/check_next_positions.py --write-fens FILE` writes),
//! runs the program (`next-positions` unless named) on each bare FEN once to warm up and
//! once timed, and prints per executor the median, mean and slowest time per position.
//! It times; it does not judge (the tests and the checker do).

use std::time::Instant;

use regex_chess_compiler::{self as compiler, CompileOptions};
use regex_chess_machine::exec::ExecutorKind;

fn main() {
    let mut args = std::env::args().skip(1);
    let Some(path) = args.next() else {
        eprintln!("usage: next_positions_timing FENS [PROGRAM]");
        std::process::exit(2);
    };
    let name = args.next().unwrap_or_else(|| "next-positions".to_string());
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| {
        eprintln!("cannot read {path}: {e}");
        std::process::exit(2);
    });
    let fens: Vec<&str> = text.lines().filter(|l| !l.trim().is_empty()).collect();
    let Some(entry) = regex_chess_engine::registry::find(&name) else {
        eprintln!("unknown program `{name}`");
        std::process::exit(2);
    };
    let program = compiler::compile(entry.build(), &CompileOptions::default())
        .program
        .validate()
        .expect("the compiler emits valid rules");
    println!(
        "{name}: {} rules, {} distinct patterns, {} positions from {path}",
        program.rules().len(),
        program.distinct_patterns(),
        fens.len()
    );
    for kind in [ExecutorKind::Fast, ExecutorKind::Reference] {
        let exec = kind.build(program.clone());
        let mut times: Vec<(f64, &str)> = fens
            .iter()
            .map(|fen| {
                let _ = exec.run(fen);
                let start = Instant::now();
                let _ = exec.run(fen);
                (start.elapsed().as_secs_f64() * 1000.0, *fen)
            })
            .collect();
        times.sort_by(|a, b| a.0.total_cmp(&b.0));
        let median = times[times.len() / 2].0;
        let mean = times.iter().map(|t| t.0).sum::<f64>() / times.len() as f64;
        let (slowest, at) = times[times.len() - 1];
        println!(
            "{:<9}: median {median:.2} ms, mean {mean:.2} ms, slowest {slowest:.2} ms ({at})",
            exec.name()
        );
    }
}
