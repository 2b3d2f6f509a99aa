//! Time of the `move` rules by origin (DSL call site), on one FEN: where a move's seconds
//! go. `cargo run --release --example profile_move -- "<FEN>"`
use std::collections::HashMap;
use std::ops::ControlFlow;
use std::time::Instant;

use regex_chess::chess::runner;
use regex_chess::exec::{ExecutorKind, Observer, RuleReport};

struct Timer<'a> {
    last: Instant,
    origins: Vec<String>,
    by_origin: HashMap<&'a str, (f64, usize)>,
    names: &'a [String],
}

impl Observer for Timer<'_> {
    fn after_rule(
        &mut self,
        index: usize,
        _: &RuleReport,
        _: &dyn Fn() -> String,
    ) -> ControlFlow<()> {
        let now = Instant::now();
        let e = self
            .by_origin
            .entry(self.names[index].as_str())
            .or_default();
        e.0 += (now - self.last).as_secs_f64();
        e.1 += 1;
        self.last = now;
        ControlFlow::Continue(())
    }
    fn wants_match_counts(&self) -> bool {
        false
    }
}

fn main() {
    let fen = std::env::args().nth(1).expect("a FEN");
    let exec = ExecutorKind::Fast.build(runner::load("move").unwrap());
    let names: Vec<String> = exec
        .program()
        .rules()
        .iter()
        .map(|r| {
            let o = r.origin.to_string();
            // `instruction at file:line:col` -> `file:line instruction`
            match o.split_once(" at ") {
                Some((i, site)) => {
                    format!("{} {i}", site.rsplit_once(':').map(|s| s.0).unwrap_or(site))
                }
                None => o,
            }
        })
        .collect();
    // A first run warms the executor's caches up; the second is measured.
    let warm = Instant::now();
    exec.run(&format!("{fen}\n"));
    println!("first run {:.3} s", warm.elapsed().as_secs_f64());
    let mut t = Timer {
        last: Instant::now(),
        origins: Vec::new(),
        by_origin: HashMap::new(),
        names: &names,
    };
    let start = Instant::now();
    exec.run_observed(&format!("{fen}\n"), &mut t);
    let total = start.elapsed().as_secs_f64();
    let _ = &t.origins;
    let mut rows: Vec<_> = t.by_origin.into_iter().collect();
    rows.sort_by(|a, b| b.1.0.total_cmp(&a.1.0));
    println!("total {total:.3} s");
    for (origin, (secs, rules)) in rows.iter().take(25) {
        println!("{secs:8.3} s {rules:6} rules  {origin}");
    }
}
