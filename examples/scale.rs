//! Milliseconds per move against the size of the state, for each search's program, on one
//! core and on two (interleaved runs in one process), with CPU time (the machine may be
//! shared) and the work per leaf and per kilobyte of state the rules visit.
//!
//! `cargo run --release --example scale -- [RUNS] [PROGRAM...]` (5 runs; `move`, `move-q`
//! and `move-qe` by default): for each program (read from the program cache) and each
//! position of the built-in bench suite (the program answers the FEN), a line with the
//! widest state (bytes, and threads: lines starting with `%`, counted at a state within 5%
//! of the widest), the leaves the search reports (`nodes`), the bytes of state the
//! searched rules ran over, and the medians of wall and CPU milliseconds on one core and
//! on two (`Fast::parallel(2, DEFAULT_SPLIT_MIN)`), then the geometric means.

use std::ops::ControlFlow;
use std::time::Instant;

use regex_chess_chess::positions::BENCH;
use regex_chess_engine as engine;
use regex_chess_engine::bench::cpu::process_cpu_ms;
use regex_chess_engine::bench::parse_positions;
use regex_chess_engine::reply::Reply;
use regex_chess_machine::exec::fast::{DEFAULT_SPLIT_MIN, Fast};
use regex_chess_machine::exec::{Executor, Observer, RuleReport};

/// The widest state, the threads near it and the bytes the searched rules ran over.
#[derive(Default)]
struct Size {
    widest: usize,
    counted_at: usize,
    threads: usize,
    visited: u64,
}

impl Observer for Size {
    fn after_rule(
        &mut self,
        _: usize,
        report: &RuleReport,
        state: &dyn Fn() -> String,
    ) -> ControlFlow<()> {
        if !report.skipped {
            self.visited += report.state_len as u64;
        }
        if report.state_len > self.widest {
            self.widest = report.state_len;
            if report.state_len * 20 > self.counted_at * 21 {
                let text = state();
                self.counted_at = text.len();
                self.threads = text.split('\n').filter(|l| l.starts_with('%')).count();
            }
        }
        ControlFlow::Continue(())
    }
    fn wants_match_counts(&self) -> bool {
        false
    }
}

/// Wall and CPU milliseconds of one run.
fn timed(exec: &Fast, input: &str) -> (f64, f64) {
    let (t, cpu) = (Instant::now(), process_cpu_ms());
    exec.run(input).unwrap();
    (t.elapsed().as_secs_f64() * 1e3, process_cpu_ms() - cpu)
}

fn median(mut xs: Vec<f64>) -> f64 {
    xs.sort_by(f64::total_cmp);
    xs[xs.len() / 2]
}

fn main() {
    let mut args = std::env::args().skip(1).peekable();
    let runs: usize = args
        .next_if(|a| a.parse::<usize>().is_ok())
        .map_or(5, |a| a.parse().unwrap());
    let mut programs: Vec<String> = args.collect();
    if programs.is_empty() {
        programs = ["move", "move-q", "move-qe"].map(String::from).to_vec();
    }
    let positions = parse_positions(BENCH).expect("the built-in suite parses");
    println!(
        "{:<8} {:<30} {:>7} {:>9} {:>7} {:>10} {:>8} {:>8} {:>8} {:>8} {:>6} {:>8} {:>8}",
        "program",
        "position",
        "threads",
        "widest B",
        "nodes",
        "visited KB",
        "1c ms",
        "1c cpu",
        "2c ms",
        "2c cpu",
        "1c/2c",
        "us/leaf",
        "ns/KB"
    );
    for name in &programs {
        let program = match engine::program(name) {
            Ok(program) => program,
            Err(e) => {
                eprintln!("scale: {e}");
                std::process::exit(1);
            }
        };
        let one = Fast::new(program.clone());
        let two = Fast::new(program).parallel(2, DEFAULT_SPLIT_MIN);
        let (mut log_one, mut log_two) = (0.0, 0.0);
        for position in &positions {
            let input = format!("{}\n", position.fen);
            let mut size = Size::default();
            let out = one.run_observed(&input, &mut size).unwrap();
            let nodes = match regex_chess_engine::reply::parse_move_output(&out) {
                Ok(Reply::Move(reply)) => reply.nodes.unwrap_or(0),
                _ => 0,
            };
            two.run(&input).unwrap();
            let (mut w1, mut c1, mut w2, mut c2) = (vec![], vec![], vec![], vec![]);
            for _ in 0..runs {
                let (w, c) = timed(&one, &input);
                w1.push(w);
                c1.push(c);
                let (w, c) = timed(&two, &input);
                w2.push(w);
                c2.push(c);
            }
            let (w1, c1, w2, c2) = (median(w1), median(c1), median(w2), median(c2));
            log_one += w1.ln();
            log_two += w2.ln();
            println!(
                "{:<8} {:<30} {:>7} {:>9} {:>7} {:>10} {:>8.1} {:>8.1} {:>8.1} {:>8.1} {:>6.2} {:>8.1} {:>8.2}",
                name,
                position.label,
                size.threads,
                size.widest,
                nodes,
                size.visited / 1024,
                w1,
                c1,
                w2,
                c2,
                w1 / w2,
                if nodes > 0 {
                    w1 * 1e3 / nodes as f64
                } else {
                    0.0
                },
                w1 * 1e6 / (size.visited as f64 / 1024.0),
            );
        }
        let n = positions.len() as f64;
        println!(
            "{:<8} {:<30} geometric means: one core {:.1} ms, two cores {:.1} ms",
            name,
            "",
            (log_one / n).exp(),
            (log_two / n).exp()
        );
    }
}
