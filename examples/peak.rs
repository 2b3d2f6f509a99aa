//! Where the `move` rules' state is largest: prints the rule, its origin, the state
//! length and the number of threads at the peak, and one thread of that state.
//!
//! `cargo run --release --example peak -- "<FEN>"`
use std::ops::ControlFlow;

use regex_chess::chess::runner;
use regex_chess::exec::{ExecutorKind, Observer, RuleReport};

struct Peak {
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
    let exec = ExecutorKind::Fast.build(runner::load("move").unwrap());
    let mut peak = Peak {
        best: 0,
        at: 0,
        state: String::new(),
    };
    exec.run_observed(&format!("{fen}\n"), &mut peak);
    let rule = &exec.program().rules()[peak.at];
    let threads = peak.state.matches("\n#stack:").count();
    println!(
        "peak {} B at rule {} ({}), {} threads",
        peak.best, peak.at, rule.origin, threads
    );
    let first = peak.state.find("%%").unwrap_or(0);
    let end = peak.state[first + 2..]
        .find('%')
        .map(|e| e + first + 2)
        .unwrap_or(peak.state.len());
    println!("{}", &peak.state[first..end.min(first + 3000)]);
}
