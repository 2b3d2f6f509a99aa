//! Where the fast executor's lead over the reference is won and lost, rule by rule.
//!
//! Runs one move of the `play` program on both executors (a warm-up run, then five timed
//! runs each, keeping every rule's fastest time), prints a summary by rule class (state
//! size x matches, skipped rules apart) to stderr and, with `--tsv FILE`, one line per
//! rule: index, fast and reference microseconds, matches, state length before the rule,
//! whether the fast executor skipped it, origin and pattern.
//!
//! `FEN='<fen>' MOVE=<uci> cargo run --release --example rule_compare [-- --tsv rules.tsv]`
//!
//! Timing each rule costs two clock reads per rule, which inflates the totals of small
//! states a little; compare classes within one run.

use std::collections::BTreeMap;
use std::io::Write;
use std::ops::ControlFlow;
use std::time::Instant;

use regex_chess_engine::bench::{BenchPosition, Workload};
use regex_chess_machine::exec::{
    Executor, NoObserver, Observer, RuleReport, fast::Fast, reference::Reference,
};

/// Per-rule times and reports of one run.
struct Timings {
    last: Instant,
    micros: Vec<f64>,
    reports: Vec<RuleReport>,
}

impl Timings {
    fn new() -> Timings {
        Timings {
            last: Instant::now(),
            micros: Vec::new(),
            reports: Vec::new(),
        }
    }
}

impl Observer for Timings {
    fn after_rule(
        &mut self,
        _: usize,
        report: &RuleReport,
        _: &dyn Fn() -> String,
    ) -> ControlFlow<()> {
        let now = Instant::now();
        self.micros.push((now - self.last).as_secs_f64() * 1e6);
        self.reports.push(*report);
        self.last = Instant::now();
        ControlFlow::Continue(())
    }
}

/// The fastest time of every rule over `runs` runs, with the reports of the last run.
fn best_of(exec: &dyn Executor, input: &str, runs: usize) -> Timings {
    let all = 0..exec.program().rules().len();
    exec.run_range(input, all.clone(), &mut NoObserver).unwrap();
    let mut best = Timings::new();
    for _ in 0..runs {
        let mut run = Timings::new();
        exec.run_range(input, all.clone(), &mut run).unwrap();
        if best.micros.is_empty() {
            best = run;
        } else {
            for (b, r) in best.micros.iter_mut().zip(&run.micros) {
                *b = b.min(*r);
            }
        }
    }
    best
}

/// The class of a rule: state size before it, and what the fast executor did.
fn class(
    len_before: usize,
    report: &RuleReport,
    matches: usize,
) -> (u8, &'static str, &'static str) {
    let (rank, size) = match len_before {
        0..1_024 => (0, "< 1 KB"),
        1_024..65_536 => (1, "1-64 KB"),
        65_536..262_144 => (2, "64-256 KB"),
        _ => (3, ">= 256 KB"),
    };
    let found = match (report.skipped, matches) {
        (true, _) => "skipped",
        (false, 0) => "0 matches",
        (false, 1..=50) => "1-50",
        _ => "> 50",
    };
    (rank, size, found)
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let tsv = args
        .iter()
        .position(|a| a == "--tsv")
        .and_then(|i| args.get(i + 1));
    let position = BenchPosition {
        fen: std::env::var("FEN").map_err(|_| "set FEN to the position")?,
        white_move: std::env::var("MOVE").map_err(|_| "set MOVE to white's move")?,
        label: String::new(),
    };
    let workload = Workload::new(Some("play"), &Default::default())?;
    let input = workload.input(&position)?;
    let fast = best_of(&Fast::new(workload.program.clone()), &input, 5);
    let reference = best_of(&Reference::new(workload.program.clone()), &input, 5);
    let rules = workload.program.rules();
    // The reference reports no match counts to an observer that does not ask, and the
    // fast executor reports those of skipped rules; count them on the reference's states.
    let counter = Reference::new(workload.program.clone());
    let mut state = input.clone();
    let mut lens = Vec::with_capacity(rules.len());
    let mut matches = Vec::with_capacity(rules.len());
    for index in 0..rules.len() {
        lens.push(state.len());
        matches.push(counter.count_matches(index, &state));
        state = counter.apply(index, &state);
    }
    let mut classes: BTreeMap<(u8, &str, &str), (usize, f64, f64)> = BTreeMap::new();
    for (index, report) in fast.reports.iter().enumerate() {
        let entry = classes
            .entry(class(lens[index], report, matches[index]))
            .or_default();
        entry.0 += 1;
        entry.1 += fast.micros[index];
        entry.2 += reference.micros[index];
    }
    let (f, r): (f64, f64) = (fast.micros.iter().sum(), reference.micros.iter().sum());
    eprintln!(
        "{} rules: fast {:.2} ms, reference {:.2} ms, {:.1}x",
        rules.len(),
        f / 1e3,
        r / 1e3,
        r / f
    );
    eprintln!("| state | fast executor | rules | fast ms | reference ms | ratio | share of fast |");
    eprintln!("| --- | --- | --- | --- | --- | --- | --- |");
    for ((_, size, found), (n, fast_us, ref_us)) in &classes {
        eprintln!(
            "| {size} | {found} | {n} | {:.2} | {:.2} | {:.1}x | {:.0}% |",
            fast_us / 1e3,
            ref_us / 1e3,
            ref_us / fast_us.max(1e-9),
            100.0 * fast_us / f
        );
    }
    if let Some(path) = tsv {
        let mut out = std::io::BufWriter::new(std::fs::File::create(path)?);
        writeln!(
            out,
            "index\tfast_us\treference_us\tmatches\tlen_before\tskipped\torigin\tpattern"
        )?;
        for (index, rule) in rules.iter().enumerate() {
            writeln!(
                out,
                "{index}\t{:.2}\t{:.2}\t{}\t{}\t{}\t{}\t{}",
                fast.micros[index],
                reference.micros[index],
                matches[index],
                lens[index],
                fast.reports[index].skipped,
                rule.origin,
                rule.pattern.escape_debug()
            )?;
        }
    }
    Ok(())
}
