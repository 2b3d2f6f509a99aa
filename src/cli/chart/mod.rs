//! `regex-chess chart`: the project's pictures, drawn as SVG from recorded results, one
//! command a chart:
//!
//! - `chart strength`: Elo against milliseconds per move, one point per search variant
//!   with its interval (from `match --results` lines, timed by `bench --results` lines);
//! - `chart state`: milliseconds per move against the widest state, one line per search
//!   variant and core count (from `bench --search NAME --cores 2 --results` lines);
//! - `chart headline`: the `play` program's time per move on each bench position in the
//!   Python original, in CPython and Node.js running our exported rules, and in our two
//!   executors (from `bench --results` lines and `examples/foreign_bench`'s).
//!
//! The recorded data live in `data/results/` and the pictures in `docs/charts/`, which
//! are the defaults, so that `regex-chess chart strength` in the repository redraws the
//! picture the documents show. The same data always give the same bytes (a test redraws
//! each picture and compares). [`series`] shapes the data; [`draw`] draws.

pub mod draw;
pub mod series;

use std::path::{Path, PathBuf};

use clap::{Args, Subcommand};

use super::CliError;
use regex_chess_arena::json_lines;
use regex_chess_engine::bench::results::{self as bench_results, BenchLine};
use regex_chess_engine::matchplay::results::MatchLine;

/// Why a chart cannot be drawn.
#[derive(Debug, thiserror::Error)]
pub enum ChartError {
    /// The files hold nothing the chart plots.
    #[error("nothing to draw: {0}")]
    NoData(String),
    /// A point has no time to place it by.
    #[error("no time per move for {0}")]
    NoTime(String),
    /// `plotters` failed.
    #[error("drawing failed: {0}")]
    Drawing(String),
}

/// Arguments of `chart`.
#[derive(Args, Debug)]
pub struct ChartArgs {
    #[command(subcommand)]
    chart: Chart,
}

/// The charts.
#[derive(Subcommand, Debug)]
enum Chart {
    /// Elo against ms per move: one point per search variant and opponent, with its 95%
    /// interval.
    Strength {
        /// The matches (`match --results` lines); the last line of each search variant
        /// and opponent counts.
        #[arg(long, default_value = "data/results/matches.jsonl")]
        matches: PathBuf,
        /// Bench lines that time each variant (`bench --search NAME --results`).
        #[arg(long, default_value = "data/results/bench.jsonl")]
        bench: PathBuf,
        /// The SVG to write.
        #[arg(long, default_value = "docs/charts/strength.svg")]
        out: PathBuf,
    },
    /// Ms per move against the widest state: a line per search variant and core count.
    State {
        /// Bench lines (`bench --search NAME --cores 2 --results`).
        #[arg(long, default_value = "data/results/bench.jsonl")]
        bench: PathBuf,
        /// The SVG to write.
        #[arg(long, default_value = "docs/charts/state.svg")]
        out: PathBuf,
    },
    /// The `play` program on each bench position: the Python original, our rules in
    /// CPython and Node.js, our reference and fast executors.
    Headline {
        /// Bench lines (`bench --results`, `examples/foreign_bench`, the original's).
        #[arg(long, default_value = "data/results/bench.jsonl")]
        bench: PathBuf,
        /// The SVG to write.
        #[arg(long, default_value = "docs/charts/headline.svg")]
        out: PathBuf,
    },
}

/// Reads a file whole, the error naming it.
fn read(path: &Path) -> Result<String, CliError> {
    std::fs::read_to_string(path)
        .map_err(|e| CliError(format!("cannot read {}: {e}", path.display())))
}

/// Reads a bench results file.
fn bench_lines(path: &Path) -> Result<Vec<BenchLine>, CliError> {
    bench_results::read_lines(&read(path)?)
        .map_err(|e| CliError(format!("{}: {e}", path.display())))
}

/// Reads a match results file.
fn match_lines(path: &Path) -> Result<Vec<MatchLine>, CliError> {
    json_lines::read(&read(path)?)
        .map_err(|e| CliError(format!("{}: match results {e}", path.display())))
}

/// Runs `chart`.
pub fn run(args: ChartArgs) -> Result<(), CliError> {
    let (svg, out) = match args.chart {
        Chart::Strength {
            matches,
            bench,
            out,
        } => {
            let points = series::strength_points(&match_lines(&matches)?, &bench_lines(&bench)?)?;
            (draw::strength(&points)?, out)
        }
        Chart::State { bench, out } => {
            let lines = series::state_series(&bench_lines(&bench)?)?;
            (draw::state(&lines)?, out)
        }
        Chart::Headline { bench, out } => {
            let data = series::headline(&bench_lines(&bench)?)?;
            (draw::headline(&data)?, out)
        }
    };
    std::fs::write(&out, svg)
        .map_err(|e| CliError(format!("cannot write {}: {e}", out.display())))?;
    println!("wrote {}", out.display());
    Ok(())
}
