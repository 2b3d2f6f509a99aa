//! `regex-chess bench`: milliseconds per move on the bench positions, for one or both
//! executors (the work is in [`crate::bench`]).

use std::path::PathBuf;
use std::time::Instant;

use clap::Args;

use super::{CliError, fail};
use crate::bench::{self, Measure, Row, Workload};
use crate::compiler::CompileOptions;
use crate::exec::ExecutorKind;

/// Arguments of `bench`.
#[derive(Args, Debug)]
pub struct BenchArgs {
    /// Which executor(s) to time: fast, reference or both.
    #[arg(long, default_value = "both")]
    executor: String,
    /// The program: `play` when registered, else the `two-plies` proxy; or any registered
    /// program that takes a FEN.
    #[arg(long)]
    program: Option<String>,
    /// The positions file (`FEN;move;label` per line).
    #[arg(long)]
    positions: Option<PathBuf>,
    /// Timed runs per position and executor (the median is shown).
    #[arg(long, default_value_t = 3)]
    runs: usize,
}

/// Runs `bench`.
pub fn run(args: BenchArgs) -> Result<(), CliError> {
    let kinds: Vec<ExecutorKind> = match args.executor.as_str() {
        "both" => vec![ExecutorKind::Fast, ExecutorKind::Reference],
        other => vec![other.parse().map_err(CliError)?],
    };
    let path = args.positions.unwrap_or_else(bench::default_positions_path);
    let text = std::fs::read_to_string(&path)
        .map_err(|e| CliError(format!("cannot read {}: {e}", path.display())))?;
    let positions = bench::parse_positions(&text).map_err(CliError)?;
    if positions.is_empty() {
        return fail(format!("no positions in {}", path.display()));
    }
    let workload =
        Workload::new(args.program.as_deref(), &CompileOptions::default()).map_err(CliError)?;
    if let Some(note) = &workload.note {
        println!("{note}");
    }
    let mut executors = Vec::new();
    for kind in &kinds {
        let start = Instant::now();
        executors.push((*kind, kind.build(workload.program.clone())));
        let built = start.elapsed().as_secs_f64() * 1e3;
        println!(
            "{}: {} rules, {} distinct patterns; compiled in {:.0} ms, {} executor built in {:.1} ms",
            workload.name,
            workload.program.rules().len(),
            workload.program.distinct_patterns(),
            workload.compile_ms,
            executors.last().expect("just pushed").1.name(),
            built
        );
    }
    println!(
        "positions: {}, {} timed runs each (median shown)\n",
        path.display(),
        args.runs
    );
    let mut rows = Vec::new();
    for position in &positions {
        let input = workload.input(position).map_err(CliError)?;
        let mut row = Row {
            label: position.label.clone(),
            fast: None,
            reference: None,
        };
        for (kind, exec) in &executors {
            let m: Measure = bench::measure(exec.as_ref(), &input, args.runs);
            match kind {
                ExecutorKind::Fast => row.fast = Some(m),
                ExecutorKind::Reference => row.reference = Some(m),
            }
        }
        rows.push(row);
    }
    print!("{}", bench::render_table(&rows));
    if let Some(kb) = bench::peak_rss_kb() {
        println!("peak RSS of this process: {:.1} MB", kb as f64 / 1024.0);
    }
    if rows.iter().any(Row::disagree) {
        return fail("the executors' final states differ (see the table)");
    }
    Ok(())
}
