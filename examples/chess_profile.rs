//! Where `legal-moves` spends its time: milliseconds by rule origin, on one position.
//!
//! `cargo run --release --example chess_profile [--two-plies] [FEN]`: `legal-moves`, or
//! two plies of `fork_legal_moves` with `has_legal_move` and `in_check` on the leaves.

use std::collections::BTreeMap;
use std::ops::ControlFlow;
use std::time::Instant;

use regex_chess::compiler::{self, CompileOptions};
use regex_chess::exec::{ExecutorKind, Observer, RuleReport};
use regex_chess::program::Origin;

struct Timer {
    last: Instant,
    per_rule: Vec<f64>,
}

impl Observer for Timer {
    fn after_rule(
        &mut self,
        index: usize,
        _: &RuleReport,
        _: &dyn Fn() -> String,
    ) -> ControlFlow<()> {
        let now = Instant::now();
        self.per_rule[index] += (now - self.last).as_secs_f64() * 1e3;
        self.last = now;
        ControlFlow::Continue(())
    }
    fn wants_match_counts(&self) -> bool {
        false
    }
}

/// Two plies of `fork_legal_moves`, probed or not: the bench's proxy program.
fn two_plies(probe: bool) -> regex_chess::program::ValidProgram {
    let ir = regex_chess::bench::two_plies(probe);
    compiler::compile(ir, &CompileOptions::default())
        .program
        .validate()
        .expect("valid")
}

fn main() {
    let two = std::env::args().any(|a| a == "--two-plies");
    let fen = std::env::args()
        .skip(1)
        .find(|a| !a.starts_with("--"))
        .unwrap_or_else(|| {
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1".to_string()
        });
    let entry = regex_chess::programs::find("legal-moves").expect("registered");
    let program = if two {
        two_plies(true)
    } else {
        compiler::compile((entry.build)(), &CompileOptions::default())
            .program
            .validate()
            .expect("valid")
    };
    for kind in [ExecutorKind::Reference, ExecutorKind::Fast] {
        let exec = kind.build(program.clone());
        let n = program.rules().len();
        let mut timer = Timer {
            last: Instant::now(),
            per_rule: vec![0.0; n],
        };
        for _ in 0..5 {
            timer.last = Instant::now();
            exec.run_observed(&format!("{fen}\n"), &mut timer);
        }
        let mut top: Vec<(f64, usize)> = timer
            .per_rule
            .iter()
            .enumerate()
            .map(|(i, t)| (*t / 5.0, i))
            .collect();
        top.sort_by(|a, b| b.0.partial_cmp(&a.0).unwrap());
        for (t, i) in top.iter().take(12) {
            let p = &program.rules()[*i].pattern;
            println!("  rule {i:>4} {t:>7.3} ms  {:?}", &p[..p.len().min(110)]);
        }
        let mut by_origin: BTreeMap<String, f64> = BTreeMap::new();
        for (i, rule) in program.rules().iter().enumerate() {
            let key = match &rule.origin {
                Origin::Emitted {
                    instruction, line, ..
                } => format!("{instruction}:{line}"),
                other => other.to_string(),
            };
            *by_origin.entry(key).or_default() += timer.per_rule[i] / 5.0;
        }
        let mut rows: Vec<_> = by_origin.into_iter().collect();
        rows.sort_by(|a, b| b.1.partial_cmp(&a.1).unwrap());
        println!(
            "{}: total {:.2} ms",
            exec.name(),
            rows.iter().map(|r| r.1).sum::<f64>()
        );
        for (k, v) in rows.iter().take(8) {
            println!("  {v:>8.2} ms  {k}");
        }
    }
}
