//! Where a fresh process's first move goes: loading a move program, building the fast
//! executor, the first run (which compiles the patterns it meets) and later, warm runs.
//!
//! `cargo run --release --example cold_start -- '<fen>' [RUNS] [PROGRAM] [--no-ahead]`
//! (the FEN the engine answers; RUNS runs, 3 by default; PROGRAM a registered program,
//! `move` (the 2-ply search) by default, `move-qe` for the default playing search;
//! `--no-ahead` turns off the helper thread that compiles patterns ahead of the run,
//! [`Fast::compile_ahead`], so that the first run pays for all of its compiling on its
//! own thread, as on a machine with one free core). Each run's wall-clock time is
//! printed.
//!
//! # Measuring the cold start (issue 15: first run <= 2 x warm run + 20 ms)
//!
//! The first run is [`first_run`], every later one [`warm_run`], each a function of its
//! own that is never inlined, so that callgrind counts each run's instructions on the
//! main thread by itself: one process with RUNS = 2 under
//! `valgrind --tool=callgrind --separate-threads=yes --fair-sched=yes` (callgrind runs
//! one thread at a time; with fair scheduling they take turns, so that the helper gets
//! about as far as on a second core of its own) writes one file per thread; the main
//! thread's file gives the inclusive cost of `first_run` (the first run) and of
//! `warm_run` (one warm run), and every other thread's file is a helper that compiled
//! ahead (thread 2 started by the first run; thread 3, when there is one, by the warm
//! run, which starts a helper only while some pattern of the program is not compiled).
//! The helper's instructions run on the second core in parallel with the run, so they
//! are reported apart, not added to the run's. The run does not wait for the helper's
//! builds: the helper builds outside the patterns' locks, and a run that needs a
//! pattern meanwhile compiles it itself, so the main thread's count is all of the run's
//! work. `--no-ahead` gives the bound for a machine whose second core is busy: every
//! compile on the run's thread. `scripts/cold_start.py` does all this for the bench
//! positions and both bounds, and prints first, warm, allowed = 2 x warm + 60 M (20 ms
//! being about 60 M instructions on the machine measured) and first / allowed; with
//! `time` it takes the medians of the printed wall-clock times of repeated processes
//! instead.
//!
//! The earlier method, the whole process's instructions by difference (RUNS = 0, 1, 2:
//! first = N1 - N0, warm = N2 - N1, both threads counted), counts in N2 - N1 whatever the
//! warm run's helper compiled and, in N1 - N0, the first run's helper however far it got,
//! which differs between processes: on the endgames it moved the ratio by up to 0.3.

use std::time::Instant;

use regex_chess_engine as engine;
use regex_chess_engine::runner;
use regex_chess_machine::exec::Executor;
use regex_chess_machine::exec::fast::Fast;

/// The first run of the process, on its own for callgrind (see the module docs).
#[inline(never)]
fn first_run(fast: &Fast, state: &str) -> String {
    // Keeps the two functions apart: identical bodies may be merged into one symbol.
    std::hint::black_box(1u8);
    fast.run(state)
        .expect("the position stays within the state limit")
}

/// A later, warm run, on its own for callgrind (see the module docs).
#[inline(never)]
fn warm_run(fast: &Fast, state: &str) -> String {
    std::hint::black_box(2u8);
    fast.run(state)
        .expect("the position stays within the state limit")
}

fn main() {
    let mut args: Vec<String> = std::env::args().skip(1).collect();
    let ahead = match args.iter().position(|a| a == "--no-ahead") {
        Some(at) => {
            args.remove(at);
            false
        }
        None => true,
    };
    let fen = args
        .first()
        .cloned()
        .unwrap_or_else(|| "8/8/4k3/8/2K5/3P4/8/8 b - - 0 1".to_string());
    let runs: usize = args.get(1).and_then(|n| n.parse().ok()).unwrap_or(3);
    let name = args
        .get(2)
        .cloned()
        .unwrap_or_else(|| runner::MOVE.to_string());
    let ms = |t: Instant| t.elapsed().as_secs_f64() * 1e3;
    let t = Instant::now();
    let program = match engine::program(&name) {
        Ok(program) => program,
        Err(e) => {
            eprintln!("cold_start: {e}");
            std::process::exit(1);
        }
    };
    println!("load the program: {:.1} ms", ms(t));
    let t = Instant::now();
    let fast = Fast::new(program).compile_ahead(ahead);
    println!("build the executor: {:.1} ms", ms(t));
    let state = format!("{fen}\n");
    for run in 1..=runs {
        let t = Instant::now();
        let out = match run {
            1 => first_run(&fast, &state),
            _ => warm_run(&fast, &state),
        };
        println!("run {run}: {:.1} ms ({} bytes out)", ms(t), out.len());
    }
    // A one-shot command exits without dropping its executor (`cli::leak_at_exit`); so
    // does this, so that instruction counts by difference (RUNS = 1 minus RUNS = 0) are
    // the first move's and not also the compiled patterns' drop.
    std::mem::forget(fast);
}
