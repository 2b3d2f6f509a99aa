//! Seconds per move: the workloads of `regex-chess bench`, `regex-chess profile` and
//! `benches/seconds_per_move.rs`, and the table they print.
//!
//! A [`Workload`] is a compiled program plus the way to turn a bench position (a FEN, the
//! move white types, a label; one a line of `positions/bench.txt`) into its input state:
//!
//! - a `play` program (the interactive game; the default): the `board` program draws the
//!   position with the engine playing black (set-up, not timed), then the typed move line
//!   is appended; the timed run validates the move and answers it.
//! - any other registered program: the FEN and a newline.
//!
//! Start-up times and the peak memory of a process answering one move are measured on
//! child processes ([`children`]).
//!
//! Timings are medians of `runs` runs without an observer; the statistics (rules applied
//! and skipped, matches, largest state) come from one more run with match counting, so
//! counting never inflates the times.
//!
//! The node count for engine testers is in [`nodes`]; the figures as JSON lines, for the
//! charts, in [`results`].

pub mod children;
// getrusage: not in the browser (the `regex-chess-wasm` crate builds this one for wasm32).
#[cfg(not(target_arch = "wasm32"))]
pub mod cpu;
pub mod nodes;
pub mod results;

use std::time::Instant;

use crate::{LoadError, Output, Search};
use regex_chess_compiler::CompileOptions;
use regex_chess_machine::exec::{Executor, ExecutorKind, RunStats, StateTooLarge};
use regex_chess_machine::program::ValidProgram;

/// Why a workload could not be built or measured.
#[derive(Debug, thiserror::Error)]
pub enum BenchError {
    /// A line of a positions file is not `FEN;move;label`.
    #[error("line {line}: expected `FEN;move;label`, found {text:?}")]
    Position {
        /// The line's number, from 1.
        line: usize,
        /// The line.
        text: String,
    },
    /// The program could not be loaded.
    #[error(transparent)]
    Load(#[from] LoadError),
    /// A `play` program's position has no move for white to type.
    #[error("the `play` program needs the move white types ({label})")]
    NoMove {
        /// The position's label.
        label: String,
    },
    /// A file or a child process could not be read, written or run.
    #[error("{what}: {source}")]
    Io {
        /// What was being done.
        what: String,
        /// Why it failed.
        #[source]
        source: std::io::Error,
    },
    /// A child process did not answer as `regex-chess` does, or a program's output
    /// state could not be read.
    #[error("{0}")]
    Child(String),
    /// A rule would have grown the state past the state limit.
    #[error("{0} (raise it with --max-state)")]
    StateTooLarge(#[from] StateTooLarge),
    /// A line of a bench results file is not a position's figures.
    #[error("bench results line {line}: {message}")]
    Results {
        /// The line's number, from 1.
        line: usize,
        /// What is wrong with it.
        message: String,
    },
}

impl BenchError {
    /// An I/O error while doing `what`.
    pub fn io(what: impl Into<String>, source: std::io::Error) -> BenchError {
        BenchError::Io {
            what: what.into(),
            source,
        }
    }
}

/// One line of `positions/bench.txt`: `FEN;white move;label`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BenchPosition {
    /// The position, white to move.
    pub fen: String,
    /// The move white types, in coordinate notation.
    pub white_move: String,
    /// A short name.
    pub label: String,
}

/// Reads bench positions: one `FEN;move;label` a line; `#` lines and blank lines are
/// skipped. A line with only a FEN gets an empty move and the FEN as its label.
pub fn parse_positions(text: &str) -> Result<Vec<BenchPosition>, BenchError> {
    let mut out = Vec::new();
    for (number, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let fields: Vec<&str> = line.split(';').map(str::trim).collect();
        if fields[0].is_empty() || fields.len() > 3 {
            return Err(BenchError::Position {
                line: number + 1,
                text: line.to_string(),
            });
        }
        out.push(BenchPosition {
            fen: fields[0].to_string(),
            white_move: fields.get(1).unwrap_or(&"").to_string(),
            label: fields
                .get(2)
                .map_or_else(|| fields[0].to_string(), |l| l.to_string()),
        });
    }
    Ok(out)
}

/// The default workload: the benchmark search's game, the `play` program (the one the
/// Python original's figures compare with).
pub fn default_program() -> &'static str {
    Search::benchmark().program(Output::Play)
}

/// How a workload's input state is made from a bench position.
#[derive(Debug)]
enum Input {
    /// The FEN and a newline.
    Fen,
    /// The `board` program's first board (engine black), then the typed move line.
    Play(ValidProgram),
}

/// A program to time and the way to build its inputs.
#[derive(Debug)]
pub struct Workload {
    /// The program's name.
    pub name: String,
    /// The compiled program.
    pub program: ValidProgram,
    /// Milliseconds spent recording, compiling and validating the program(s).
    pub compile_ms: f64,
    input: Input,
}

impl Workload {
    /// Builds the workload `name` (`None`: [`default_program`]) with compile `options`
    /// (without the program cache: the time to compile is part of the figures).
    pub fn new(name: Option<&str>, options: &CompileOptions) -> Result<Workload, BenchError> {
        let name = name.unwrap_or_else(|| default_program());
        let start = Instant::now();
        let program = crate::compile_valid(name, options)?;
        // Every variant's `play` program reads the board the `board` program draws.
        let input = match Search::by_program(name) {
            Some((_, Output::Play)) => Input::Play(crate::compile_valid("board", options)?),
            _ => Input::Fen,
        };
        Ok(Workload {
            name: name.to_string(),
            program,
            compile_ms: start.elapsed().as_secs_f64() * 1e3,
            input,
        })
    }

    /// The input state for `position` (for `play`, runs the `board` program with the fast
    /// executor first).
    pub fn input(&self, position: &BenchPosition) -> Result<String, BenchError> {
        match &self.input {
            Input::Fen => Ok(format!("{}\n", position.fen)),
            Input::Play(board) => {
                if position.white_move.is_empty() {
                    return Err(BenchError::NoMove {
                        label: position.label.clone(),
                    });
                }
                let exec = ExecutorKind::Fast.build(board.clone());
                let first = exec.run(&format!("engine: black\n{}\n", position.fen))?;
                Ok(format!("{first}{}\n", position.white_move))
            }
        }
    }
}

/// What one executor did on one position.
#[derive(Clone, Debug)]
pub struct Measure {
    /// Totals of a run with match counting.
    pub stats: RunStats,
    /// Milliseconds of each timed run, sorted.
    pub times_ms: Vec<f64>,
    /// The final state.
    pub output: String,
}

impl Measure {
    /// The median time in milliseconds.
    pub fn median_ms(&self) -> f64 {
        median(&self.times_ms)
    }
}

/// The median of sorted `values` (the mean of the middle two for an even count).
pub fn median(values: &[f64]) -> f64 {
    match values.len() {
        0 => f64::NAN,
        n if n % 2 == 1 => values[n / 2],
        n => (values[n / 2 - 1] + values[n / 2]) / 2.0,
    }
}

/// Runs `exec` on `input` once with statistics, then `runs` times timed; a run that
/// ends at the state limit ends the measure with its error.
pub fn measure(exec: &dyn Executor, input: &str, runs: usize) -> Result<Measure, StateTooLarge> {
    let (output, stats) = exec.run_with_stats(input)?;
    let mut times_ms = Vec::with_capacity(runs.max(1));
    for _ in 0..runs.max(1) {
        let start = Instant::now();
        let out = exec.run(input)?;
        times_ms.push(start.elapsed().as_secs_f64() * 1e3);
        drop(out);
    }
    times_ms.sort_by(f64::total_cmp);
    Ok(Measure {
        stats,
        times_ms,
        output,
    })
}

/// One position's row: each executor's measure, when it ran.
#[derive(Clone, Debug)]
pub struct Row {
    /// The position's label.
    pub label: String,
    /// The fast executor's measure.
    pub fast: Option<Measure>,
    /// The reference executor's measure.
    pub reference: Option<Measure>,
}

impl Row {
    /// How many times faster the fast executor was (reference / fast medians).
    pub fn speedup(&self) -> Option<f64> {
        Some(self.reference.as_ref()?.median_ms() / self.fast.as_ref()?.median_ms())
    }

    /// Whether both executors ran and their final states differ.
    pub fn disagree(&self) -> bool {
        match (&self.fast, &self.reference) {
            (Some(f), Some(r)) => f.output != r.output,
            _ => false,
        }
    }
}

/// The geometric mean of positive `values` (NaN when there are none).
pub fn geometric_mean(values: impl IntoIterator<Item = f64>) -> f64 {
    let (sum, n) = values
        .into_iter()
        .filter(|v| *v > 0.0)
        .fold((0.0, 0usize), |(s, n), v| (s + v.ln(), n + 1));
    if n == 0 {
        f64::NAN
    } else {
        (sum / n as f64).exp()
    }
}

fn cell(value: Option<f64>, digits: usize) -> String {
    value.map_or_else(|| "-".to_string(), |v| format!("{v:.digits$}"))
}

/// The table: per position the statistics (of the fast run when there is one, else of the
/// reference run: both executors apply the same rules, the fast one skips some), the
/// median ms per move of each executor and the speed-up; then the geometric means.
pub fn render_table(rows: &[Row]) -> String {
    let mut out = String::new();
    out.push_str(&format!(
        "{:<34} {:>8} {:>8} {:>9} {:>11} {:>10} {:>12} {:>8}\n",
        "position",
        "applied",
        "skipped",
        "matches",
        "max state B",
        "fast ms",
        "reference ms",
        "speed-up"
    ));
    for row in rows {
        let stats = row
            .fast
            .as_ref()
            .or(row.reference.as_ref())
            .map(|m| m.stats)
            .unwrap_or_default();
        out.push_str(&format!(
            "{:<34} {:>8} {:>8} {:>9} {:>11} {:>10} {:>12} {:>8}{}\n",
            row.label,
            stats.rules_applied,
            stats.rules_skipped,
            stats.matches,
            stats.max_state_len,
            cell(row.fast.as_ref().map(Measure::median_ms), 2),
            cell(row.reference.as_ref().map(Measure::median_ms), 1),
            row.speedup()
                .map_or_else(|| "-".to_string(), |s| format!("{s:.1}x")),
            if row.disagree() {
                "  FINAL STATES DIFFER"
            } else {
                ""
            }
        ));
    }
    let fast = geometric_mean(
        rows.iter()
            .filter_map(|r| r.fast.as_ref().map(Measure::median_ms)),
    );
    let reference = geometric_mean(
        rows.iter()
            .filter_map(|r| r.reference.as_ref().map(Measure::median_ms)),
    );
    let speedup = geometric_mean(rows.iter().filter_map(Row::speedup));
    let shown = |v: f64, d: usize| (!v.is_nan()).then_some(v).map(|v| format!("{v:.d$}"));
    out.push_str(&format!(
        "{:<34} {:>8} {:>8} {:>9} {:>11} {:>10} {:>12} {:>8}\n",
        "geometric mean",
        "",
        "",
        "",
        "",
        shown(fast, 2).unwrap_or_else(|| "-".into()),
        shown(reference, 1).unwrap_or_else(|| "-".into()),
        shown(speedup, 1).map_or_else(|| "-".into(), |s| format!("{s}x")),
    ));
    out
}

/// The process's peak resident set size in kB (`VmHWM` of `/proc/self/status`), where
/// the system reports it.
pub fn peak_rss_kb() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    line.split_whitespace().nth(1)?.parse().ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn positions_parse() {
        let text = "# comment\n\nFEN A;e2e4;start\nFEN B\n";
        let p = parse_positions(text).unwrap();
        assert_eq!(p.len(), 2);
        assert_eq!(p[0].white_move, "e2e4");
        assert_eq!(p[0].label, "start");
        assert_eq!(p[1].label, "FEN B");
        assert!(parse_positions("a;b;c;d\n").is_err());
    }

    #[test]
    fn means() {
        assert!((geometric_mean([2.0, 8.0]) - 4.0).abs() < 1e-9);
        assert!(geometric_mean([]).is_nan());
        assert_eq!(median(&[1.0, 2.0, 9.0]), 2.0);
        assert_eq!(median(&[1.0, 3.0]), 2.0);
    }
}
