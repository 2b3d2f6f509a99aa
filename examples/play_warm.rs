//! Warm `play` moves on one core: the `bench` workload (the `board` program draws each
//! bench position with the engine playing black, white's move is appended, the `play`
//! program answers it on the fast executor), timed in thread CPU time or counted.
//!
//! Uses only APIs that commit c9143df already had, so that the same file, copied into a
//! worktree of that commit, measures both sides of issue 15's warm target in one session:
//!
//! - `play_warm BENCH time ROUNDS RUNS`: per position, one warm-up run then RUNS runs:
//!   their median in CPU time of this thread (`/proc/thread-self/schedstat`, which counts
//!   in scheduler ticks on some kernels: coarse below ~10 ms) and their fastest in wall
//!   time (on a shared machine, the run least disturbed), and the geometric means of
//!   both; ROUNDS times.
//! - `play_warm BENCH one IDX RUNS`: one warm-up run of position IDX (0-based, file
//!   order), then RUNS runs inside `warm_run`, for
//!   `valgrind --tool=callgrind --toggle-collect='*warm_run*'`.
//!
//! BENCH is a bench file of `FEN;white move;label` lines (`data/positions/bench.txt`).
//! The programs come from the program cache (compiled on first use).

use regex_chess_engine as engine;
use regex_chess_machine::exec::Executor;
use regex_chess_machine::exec::fast::Fast;

/// CPU nanoseconds this thread has run, or `None` where the kernel does not say.
fn thread_cpu_ns() -> Option<f64> {
    let text = std::fs::read_to_string("/proc/thread-self/schedstat").ok()?;
    text.split_whitespace().next()?.parse().ok()
}

/// One timed run (kept out of line so that callgrind can count exactly it).
#[inline(never)]
fn warm_run(play: &Fast, input: &str) {
    std::hint::black_box(play.run(input).unwrap());
}

fn usage() -> ! {
    eprintln!("usage: play_warm BENCH (time ROUNDS RUNS | one IDX RUNS)");
    std::process::exit(2);
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let [_, bench, mode, a, b] = &args[..] else {
        usage()
    };
    let (Ok(a), Ok(b)) = (a.parse::<usize>(), b.parse::<usize>()) else {
        usage()
    };
    let text = std::fs::read_to_string(bench).unwrap_or_else(|e| {
        eprintln!("play_warm: cannot read {bench}: {e}");
        std::process::exit(1);
    });
    let load = |name: &str| {
        engine::program(name).unwrap_or_else(|e| {
            eprintln!("play_warm: {e}");
            std::process::exit(1);
        })
    };
    let board = Fast::new(load("board"));
    let play = Fast::new(load("play"));
    let inputs: Vec<(String, String)> = text
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .filter_map(|line| {
            let fields: Vec<&str> = line.split(';').map(str::trim).collect();
            let [fen, white_move, label] = fields[..] else {
                return None;
            };
            let first = board.run(&format!("engine: black\n{fen}\n")).unwrap();
            Some((label.to_string(), format!("{first}{white_move}\n")))
        })
        .collect();
    match mode.as_str() {
        "one" => {
            let Some((_, input)) = inputs.get(a) else {
                usage()
            };
            play.run(input).unwrap();
            for _ in 0..b {
                warm_run(&play, input);
            }
        }
        "time" => {
            for round in 1..=a {
                let (mut cpu_logs, mut wall_logs) = (0.0, 0.0);
                for (label, input) in &inputs {
                    play.run(input).unwrap();
                    let (mut cpu, mut wall): (Vec<f64>, Vec<f64>) = (0..b.max(1))
                        .map(|_| {
                            let before = thread_cpu_ns().unwrap_or(f64::NAN);
                            let start = std::time::Instant::now();
                            warm_run(&play, input);
                            let wall = start.elapsed().as_secs_f64() * 1e3;
                            ((thread_cpu_ns().unwrap_or(f64::NAN) - before) / 1e6, wall)
                        })
                        .unzip();
                    cpu.sort_by(f64::total_cmp);
                    wall.sort_by(f64::total_cmp);
                    let (median, fastest) = (cpu[cpu.len() / 2], wall[0]);
                    cpu_logs += median.ln();
                    wall_logs += fastest.ln();
                    println!("round {round}: {label}: CPU {median:.1} ms, wall {fastest:.1} ms");
                }
                let n = inputs.len() as f64;
                println!(
                    "round {round}: geometric means: CPU {:.2} ms, wall {:.2} ms",
                    (cpu_logs / n).exp(),
                    (wall_logs / n).exp()
                );
            }
        }
        _ => usage(),
    }
}
