//! Where a program's state is largest: the peak (rule, origin, bytes, threads),
//! one thread of the peak state, and how many rules run while the state is at least half
//! its peak size (the wide part), by source file.
//!
//! `cargo run --release --example peak -- "<FEN>" [PROGRAM]` (the `move` program by default;
//! `PEAK_AT=<byte offset>` picks the thread shown, by default the one in the middle).
use std::collections::BTreeMap;
use std::ops::ControlFlow;

use regex_chess_engine as engine;
use regex_chess_machine::exec::{ExecutorKind, Observer, RuleReport};

struct Peak {
    lens: Vec<usize>,
    best: usize,
    at: usize,
    state: String,
}

impl Observer for Peak {
    fn after_rule(
        &mut self,
        index: usize,
        report: &RuleReport,
        state: &dyn Fn() -> String,
    ) -> ControlFlow<()> {
        self.lens.push(report.state_len);
        if report.state_len > self.best {
            self.best = report.state_len;
            self.at = index;
            self.state = state();
        }
        ControlFlow::Continue(())
    }
}

fn main() {
    let fen = std::env::args().nth(1).expect("a FEN");
    let name = std::env::args().nth(2).unwrap_or_else(|| "move".into());
    let exec = ExecutorKind::Fast.build(engine::program(&name).unwrap());
    let mut peak = Peak {
        lens: Vec::new(),
        best: 0,
        at: 0,
        state: String::new(),
    };
    exec.run_observed(&format!("{fen}\n"), &mut peak).unwrap();
    let rules = exec.program().rules();
    let threads = peak.state.matches("\n#stack:").count();
    println!(
        "peak {} B at rule {} ({}), {} threads",
        peak.best, peak.at, rules[peak.at].origin, threads
    );
    let mut wide: BTreeMap<String, usize> = BTreeMap::new();
    for (i, len) in peak.lens.iter().enumerate() {
        if *len * 2 >= peak.best {
            let origin = rules[i].origin.to_string();
            let file = origin
                .split(" at ")
                .nth(1)
                .and_then(|s| s.split(':').next())
                .unwrap_or("?")
                .to_string();
            *wide.entry(file).or_default() += 1;
        }
    }
    println!("rules run at >= half the peak size: {wide:?}");
    let first = std::env::var("PEAK_AT")
        .ok()
        .and_then(|s| s.parse::<usize>().ok())
        .unwrap_or(peak.state.len() / 2);
    let first = peak.state[first..]
        .find("\n%")
        .map(|i| i + first + 1)
        .unwrap_or(0);
    let end = peak.state[first + 2..]
        .find('%')
        .map(|e| e + first + 2)
        .unwrap_or(peak.state.len());
    println!("{}", &peak.state[first..end.min(first + 3000)]);
}
