//! `regex-chess bound`: for each search variant and bench position, what the run must
//! cost at least (its matches, the bytes it must see, the bytes it writes, priced on this
//! machine in this process), beside the fast executor's measured time on one core, and
//! their ratio (the work is in [`regex_chess_machine::bound`] and
//! [`regex_chess_engine::profile::bound`]).
//!
//! The prices are measured before and after the runs and the cheaper of each is used, so
//! a burst of load during one calibration does not raise the bound. The counting run of
//! each position is as slow as the reference executor. The measured time is the median of
//! `--runs` runs, by the clock and in CPU time of the thread running the rules; the ratio
//! is taken on CPU time, which a shared machine's waiting for a core does not inflate.

use std::path::PathBuf;

use clap::Args;

use super::progress::Steps;
use super::{CliError, fail};
use regex_chess_chess::positions;
use regex_chess_compiler::CompileOptions;
use regex_chess_engine::bench::cpu;
use regex_chess_engine::bench::{self, Workload};
use regex_chess_engine::profile::bound::{self, Bound, Prices};
use regex_chess_engine::{Output, Search};
use regex_chess_machine::bound::{self as counting, RuleCounts};
use regex_chess_machine::exec::ExecutorKind;

/// Arguments of `bound`.
#[derive(Args, Debug)]
pub struct BoundArgs {
    /// The variants, comma-separated: `play` (the benchmark's game, `bench`'s default
    /// workload) or a search variant's name (its move program); by default the benchmark, the
    /// default search and `3ply-qe` (issue 43's programs).
    #[arg(
        long,
        default_value = "play,3ply-see-check,3ply-qe",
        value_delimiter = ','
    )]
    variants: Vec<String>,
    /// The positions file (`FEN;move;label` per line); default: the bench suite.
    #[arg(long)]
    positions: Option<PathBuf>,
    /// Timed runs of the fast executor per position (the median is shown).
    #[arg(long, default_value_t = 5)]
    runs: usize,
}

/// One position's figures.
struct Line {
    label: String,
    widest: usize,
    counts: RuleCounts,
    /// Median wall-clock milliseconds.
    wall_ms: f64,
    /// Median CPU milliseconds of the thread that ran the rules.
    cpu_ms: f64,
    counted: Vec<RuleCounts>,
}

/// The program a variant names.
fn program_of(variant: &str) -> Result<String, CliError> {
    if variant == "play" {
        return Ok(bench::default_program().to_string());
    }
    match variant.parse::<Search>() {
        Ok(search) => Ok(search.program(Output::Move).to_string()),
        Err(e) => fail(format!("{e} (or `play`)")),
    }
}

/// The cheaper of two measurements of each price.
fn cheaper(a: Prices, b: Prices) -> Prices {
    Prices {
        per_match: a.per_match.min(b.per_match),
        per_byte_seen: a.per_byte_seen.min(b.per_byte_seen),
        per_byte_written: a.per_byte_written.min(b.per_byte_written),
        per_byte_literal: a.per_byte_literal.min(b.per_byte_literal),
    }
}

/// Runs `bound`.
pub fn run(args: BoundArgs) -> Result<(), CliError> {
    let path = args.positions.as_deref();
    let source = positions::describe(path, "bench suite");
    let text = positions::read_or_builtin(path, positions::BENCH)?;
    let suite = bench::parse_positions(&text).map_err(|e| CliError(format!("{source}: {e}")))?;
    if suite.is_empty() {
        return fail(format!("no positions in {source}"));
    }
    let programs: Vec<(String, String)> = args
        .variants
        .iter()
        .map(|v| program_of(v).map(|p| (v.clone(), p)))
        .collect::<Result<_, _>>()?;
    let before = Prices::measure();
    let mut tables = Vec::new();
    let mut steps = Steps::new(
        "bound",
        (programs.len() * suite.len()) as u64,
        suite.len() as u64,
    );
    for (variant, program) in &programs {
        let workload = Workload::new(Some(program), &CompileOptions::default())?;
        let exec = ExecutorKind::Fast.build(workload.program.clone());
        let mut lines = Vec::new();
        for position in &suite {
            steps.doing(format!("{variant}, {}", position.label));
            let input = workload.input(position)?;
            let (output, stats) = exec.run_with_stats(&input).map_err(super::too_large)?;
            let (wall_ms, cpu_ms) = cpu::median_times(exec.as_ref(), &input, args.runs);
            let counted = counting::count(&workload.program, &input);
            if counted.state != output {
                return fail(format!(
                    "{variant}, {}: the counting run and the fast executor disagree",
                    position.label
                ));
            }
            lines.push(Line {
                label: position.label.clone(),
                widest: stats.max_state_len,
                counts: counted.total(),
                wall_ms,
                cpu_ms,
                counted: counted.rules,
            });
            steps.step(&position.label);
        }
        tables.push((variant.clone(), workload.program.rules().len(), lines));
    }
    steps.finish();
    let after = Prices::measure();
    let prices = cheaper(before, after);
    println!("{}", prices.describe());
    println!(
        "positions: {source}; fast executor, one core, median of {} runs; ratio on CPU time\n",
        args.runs
    );
    for (variant, rules, lines) in &tables {
        print!("{}", render(variant, *rules, lines, &prices));
        println!();
    }
    Ok(())
}

/// One variant's table, with its geometric means.
fn render(variant: &str, rules: usize, lines: &[Line], prices: &Prices) -> String {
    let mut out = format!(
        "`{variant}` ({rules} rules)\n\
         | position | widest state | matches | must see MB | written MB | state MB | bound ms (match / see / write) | floor ms | wall ms | CPU ms | CPU / bound | CPU / floor |\n\
         | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |\n"
    );
    let mb = |bytes: usize| bytes as f64 / 1e6;
    let (mut bounds, mut floors) = (Vec::new(), Vec::new());
    for line in lines {
        let b: Bound = bound::total(&line.counted, prices);
        let total = b.total() / 1e6;
        let floor = bound::floor(&line.counted, prices).total() / 1e6;
        bounds.push(total);
        floors.push(floor);
        out.push_str(&format!(
            "| {} | {} KB | {} | {:.1} | {:.1} | {:.1} | {:.2} ({:.2} / {:.2} / {:.2}) | {floor:.2} | {:.1} | {:.1} | {} | {} |\n",
            line.label,
            line.widest / 1000,
            line.counts.matches,
            mb(line.counts.must_see),
            mb(line.counts.written),
            mb(line.counts.state),
            total,
            b.matches / 1e6,
            b.seen / 1e6,
            b.written / 1e6,
            line.wall_ms,
            line.cpu_ms,
            bound::ratio(line.cpu_ms, total),
            bound::ratio(line.cpu_ms, floor)
        ));
    }
    let bound_mean = bench::geometric_mean(bounds.iter().copied());
    let floor_mean = bench::geometric_mean(floors.iter().copied());
    let wall_mean = bench::geometric_mean(lines.iter().map(|l| l.wall_ms));
    let cpu_mean = bench::geometric_mean(lines.iter().map(|l| l.cpu_ms));
    out.push_str(&format!(
        "| geometric mean | | | | | | {bound_mean:.2} | {floor_mean:.2} | {wall_mean:.1} | {cpu_mean:.1} | {} | {} |\n",
        bound::ratio(cpu_mean, bound_mean),
        bound::ratio(cpu_mean, floor_mean)
    ));
    out
}
