//! One move's runs with the rope on and off, for instruction counts (valgrind) or times.
//!
//! `cargo run --release --example rope_ab -- '<fen>' PROGRAM RUNS ROPE_MIN [CORES]`: loads
//! PROGRAM (`move`, `move-q`, ...) from the cache and runs it RUNS times on the FEN's input
//! state, with the rope from ROPE_MIN bytes (`off`: never) on CORES cores (1 by default),
//! in pieces of `ROPE_PIECE` bytes when that is set in the environment (else the default).
//! ROPE_MIN `ab:A,B,..` instead runs one executor per size (`off` or bytes, optionally
//! `:PIECE` bytes) in turn, RUNS
//! rounds after a warm-up run each, and prints each one's median CPU time per run.

use std::time::Instant;

use regex_chess_engine as engine;
use regex_chess_engine::bench::cpu::process_cpu_ms;
use regex_chess_engine::runner;
use regex_chess_machine::exec::Executor;
use regex_chess_machine::exec::fast::{DEFAULT_ROPE_PIECE, DEFAULT_SPLIT_MIN, Fast};

fn main() {
    let args: Vec<String> = std::env::args().collect();
    if args.len() < 5 {
        eprintln!("usage: rope_ab FEN PROGRAM RUNS ROPE_MIN [CORES]");
        std::process::exit(2);
    }
    let fen: regex_chess_chess::notation::fen::Fen = match args[1].parse() {
        Ok(fen) => fen,
        Err(e) => {
            eprintln!("rope_ab: {e}");
            std::process::exit(2);
        }
    };
    let program = match engine::program(&args[2]) {
        Ok(program) => program,
        Err(e) => {
            eprintln!("rope_ab: {e}");
            std::process::exit(1);
        }
    };
    let runs: usize = args[3].parse().unwrap_or(1);
    let bytes = |s: &str| match s {
        "off" => usize::MAX,
        _ => s.parse().unwrap_or(usize::MAX),
    };
    if let Some(pair) = args[4].strip_prefix("ab:") {
        let sizes: Vec<(usize, usize)> = pair
            .split(',')
            .map(|s| match s.split_once(':') {
                Some((min, piece)) => (bytes(min), bytes(piece)),
                None => (bytes(s), DEFAULT_ROPE_PIECE),
            })
            .collect();
        return alternate(&program, &runner::input_state(&fen), runs, &sizes);
    }
    let rope_min = bytes(&args[4]);
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
        let out = fast.run(&state).unwrap();
        println!(
            "run {run}: {:.1} ms, cpu {:.1} ms ({} bytes out)",
            t.elapsed().as_secs_f64() * 1e3,
            process_cpu_ms() - cpu,
            out.len()
        );
    }
}

/// Runs `program` `runs` times with the rope from each size of `sizes` in turn, one
/// executor per size, warmed up by one run each, and prints each size's median process
/// CPU time per run (ms).
fn alternate(
    program: &regex_chess_machine::program::ValidProgram,
    state: &str,
    runs: usize,
    sizes: &[(usize, usize)],
) {
    let execs: Vec<Fast> = sizes
        .iter()
        .map(|&(min, piece)| Fast::new(program.clone()).rope(min, piece))
        .collect();
    for fast in &execs {
        fast.run(state).unwrap();
    }
    let mut times = vec![Vec::new(); execs.len()];
    for _ in 0..runs {
        for (fast, times) in execs.iter().zip(&mut times) {
            let cpu = process_cpu_ms();
            fast.run(state).unwrap();
            times.push(process_cpu_ms() - cpu);
        }
    }
    for ((min, piece), times) in sizes.iter().zip(&mut times) {
        times.sort_by(f64::total_cmp);
        let min = match *min {
            usize::MAX => "off".to_string(),
            min => min.to_string(),
        };
        let median = times[times.len() / 2];
        println!("rope from {min}, pieces of {piece}: median cpu {median:.1} ms");
    }
}
