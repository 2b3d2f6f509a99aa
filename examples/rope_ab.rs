//! One move's runs with the rope on and off, for instruction counts (valgrind) or times.
//!
//! `cargo run --release --example rope_ab -- '<fen>' PROGRAM RUNS ROPE_MIN [CORES]`: loads
//! PROGRAM (`move`, `move-q`, ...) from the cache and runs it RUNS times on the FEN's input
//! state, with the rope from ROPE_MIN bytes (`off`: never) on CORES cores (1 by default),
//! in pieces of `ROPE_PIECE` bytes when that is set in the environment (else the default).

use std::time::Instant;

use regex_chess::bench::cpu::process_cpu_ms;
use regex_chess::chess::runner;
use regex_chess::exec::Executor;
use regex_chess::exec::fast::{DEFAULT_ROPE_PIECE, DEFAULT_SPLIT_MIN, Fast};

fn main() {
    let args: Vec<String> = std::env::args().collect();
    if args.len() < 5 {
        eprintln!("usage: rope_ab FEN PROGRAM RUNS ROPE_MIN [CORES]");
        std::process::exit(2);
    }
    let fen: regex_chess::chess::fen::Fen = match args[1].parse() {
        Ok(fen) => fen,
        Err(e) => {
            eprintln!("rope_ab: {e}");
            std::process::exit(2);
        }
    };
    let program = match runner::load(&args[2]) {
        Ok(program) => program,
        Err(e) => {
            eprintln!("rope_ab: {e}");
            std::process::exit(1);
        }
    };
    let runs: usize = args[3].parse().unwrap_or(1);
    let rope_min = if args[4] == "off" {
        usize::MAX
    } else {
        args[4].parse().unwrap_or(usize::MAX)
    };
    let cores: usize = args.get(5).and_then(|c| c.parse().ok()).unwrap_or(1);
    let piece: usize = std::env::var("ROPE_PIECE")
        .ok()
        .and_then(|p| p.parse().ok())
        .unwrap_or(DEFAULT_ROPE_PIECE);
    let fast = Fast::new(program)
        .rope(rope_min, piece)
        .parallel(cores, DEFAULT_SPLIT_MIN);
    let state = runner::input_state(&fen);
    for run in 1..=runs {
        let (t, cpu) = (Instant::now(), process_cpu_ms());
        let out = fast.run(&state);
        println!(
            "run {run}: {:.1} ms, cpu {:.1} ms ({} bytes out)",
            t.elapsed().as_secs_f64() * 1e3,
            process_cpu_ms() - cpu,
            out.len()
        );
    }
}
