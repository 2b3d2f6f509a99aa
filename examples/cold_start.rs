//! Where a fresh process's first move goes: loading a move program, building the fast
//! executor, the first run (which compiles the patterns it meets) and later, warm runs.
//!
//! `cargo run --release --example cold_start -- '<fen>' [RUNS] [PROGRAM]` (the FEN the
//! engine answers; RUNS runs, 3 by default; PROGRAM a registered program, `move` (the
//! 2-ply search) by default, `move-qe` for the default playing search). On a busy
//! machine, count instructions instead: callgrind (or `perf stat -e instructions:u`) of
//! RUNS = 0, 1 and 2 gives the load, the first run and a warm run by difference.

use std::time::Instant;

use regex_chess::chess::runner;
use regex_chess::exec::Executor;
use regex_chess::exec::fast::Fast;

fn main() {
    let fen = std::env::args()
        .nth(1)
        .unwrap_or_else(|| "8/8/4k3/8/2K5/3P4/8/8 b - - 0 1".to_string());
    let ms = |t: Instant| t.elapsed().as_secs_f64() * 1e3;
    let t = Instant::now();
    let name = std::env::args()
        .nth(3)
        .unwrap_or_else(|| runner::MOVE.to_string());
    let program = match runner::load(&name) {
        Ok(program) => program,
        Err(e) => {
            eprintln!("cold_start: {e}");
            std::process::exit(1);
        }
    };
    println!("load the program: {:.1} ms", ms(t));
    let t = Instant::now();
    let fast = Fast::new(program);
    println!("build the executor: {:.1} ms", ms(t));
    let runs: usize = std::env::args()
        .nth(2)
        .and_then(|n| n.parse().ok())
        .unwrap_or(3);
    let state = format!("{fen}\n");
    for run in 1..=runs {
        let t = Instant::now();
        let out = fast.run(&state);
        println!("run {run}: {:.1} ms ({} bytes out)", ms(t), out.len());
    }
    // A one-shot command exits without dropping its executor (`cli::leak_at_exit`); so
    // does this, so that instruction counts by difference (RUNS = 1 minus RUNS = 0) are
    // the first move's and not also the compiled patterns' drop.
    std::mem::forget(fast);
}
