//! Seconds per move: the workloads of `regex-chess bench`, `regex-chess profile` and
//! `benches/seconds_per_move.rs`, and the table they print.
//!
//! A [`Workload`] is a compiled program plus the way to turn a bench position (a FEN, the
//! move white types, a label; one a line of `positions/bench.txt`) into its input state:
//!
//! - `play` (the interactive program, when registered): the `board` program draws the
//!   position with the engine playing black (set-up, not timed), then the typed move line
//!   is appended; the timed run validates the move and answers it.
//! - `two-plies` (the proxy while `play` is not registered): two plies of
//!   `fork_legal_moves`, then `has_legal_move` and `in_check` on every leaf, on the FEN.
//!   It is the shape of a 2-ply search's wide part without the evaluation.
//! - any other registered program: the FEN and a newline.
//!
//! Start-up times and the peak memory of a process answering one move are measured on
//! child processes ([`children`]).
//!
//! Timings are medians of `runs` runs without an observer; the statistics (rules applied
//! and skipped, matches, largest state) come from one more run with match counting, so
//! counting never inflates the times.

pub mod children;
// getrusage: not in the browser (the `regex-chess-wasm` crate builds this one for wasm32).
#[cfg(not(target_arch = "wasm32"))]
pub mod cpu;

use std::time::Instant;

use crate::compiler::ir::IrProgram;
use crate::compiler::{self, CompileOptions};
use crate::exec::{Executor, ExecutorKind, RunStats};
use crate::program::ValidProgram;

/// The name of the proxy workload (see the module docs).
pub const TWO_PLIES: &str = "two-plies";

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
pub fn parse_positions(text: &str) -> Result<Vec<BenchPosition>, String> {
    let mut out = Vec::new();
    for (number, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let fields: Vec<&str> = line.split(';').map(str::trim).collect();
        if fields[0].is_empty() || fields.len() > 3 {
            return Err(format!(
                "line {}: expected `FEN;move;label`, found {line:?}",
                number + 1
            ));
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

/// Records the proxy program: two plies of `fork_legal_moves`, then (when `probe`)
/// `has_legal_move` and `in_check` on every leaf, and a last rule that reduces every thread
/// to one line. The bench's `two-plies` workload probes.
pub fn two_plies(probe: bool) -> IrProgram {
    use crate::chess::board::MoveGen;
    use crate::chess::fen_rules::parse_fen;
    use crate::chess::movegen::{fork_legal_moves, has_legal_move, in_check};
    use crate::compiler::dsl::Builder;
    let mut b = Builder::new(
        TWO_PLIES,
        "Input: a FEN and a newline. The leaves of a 2-ply tree, each probed for a legal \
         move and check; one line per leaf out.",
    );
    let pos = parse_fen(&mut b);
    b.grouped(|b| {
        fork_legal_moves(b, &pos, 218, MoveGen::default());
        fork_legal_moves(b, &pos, 218, MoveGen::default());
    });
    let probes = probe.then(|| (has_legal_move(&mut b, &pos), in_check(&mut b, &pos)));
    let mut reads = pos.vars().to_vec();
    if let Some((has, check)) = &probes {
        reads.push(has.var());
        reads.push(check.var());
    }
    b.rules(
        "count",
        vec![("%%\n#stack:\n[^%]*".to_string(), "x\n".to_string())],
        &reads,
        &[],
    );
    b.finish()
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
    /// Said once before the table (such as why a proxy stands in for `play`).
    pub note: Option<String>,
    /// The compiled program.
    pub program: ValidProgram,
    /// Milliseconds spent recording, compiling and validating the program(s).
    pub compile_ms: f64,
    input: Input,
}

fn compile_ir(ir: IrProgram, options: &CompileOptions, name: &str) -> Result<ValidProgram, String> {
    compiler::compile(ir, options)
        .program
        .validate()
        .map_err(|e| format!("the `{name}` program does not validate: {e}"))
}

fn registered(name: &str) -> bool {
    crate::programs::find(name).is_some()
}

/// The default program: `play` when registered, else the `two-plies` proxy.
pub fn default_program() -> (&'static str, Option<String>) {
    if registered("play") && registered("board") {
        ("play", None)
    } else {
        (
            TWO_PLIES,
            Some(
                "note: the interactive `play` program is not registered in this build; \
                 timing the proxy `two-plies` (two plies of fork_legal_moves, then \
                 has_legal_move and in_check on every leaf) instead"
                    .to_string(),
            ),
        )
    }
}

impl Workload {
    /// Builds the workload `name` (`None`: [`default_program`]) with compile `options`.
    pub fn new(name: Option<&str>, options: &CompileOptions) -> Result<Workload, String> {
        let (name, note) = match name {
            Some(n) => (n, None),
            None => default_program(),
        };
        let start = Instant::now();
        let (program, input) = if name == TWO_PLIES {
            (compile_ir(two_plies(true), options, name)?, Input::Fen)
        } else {
            let entry = crate::programs::find(name).ok_or_else(|| {
                format!(
                    "no program `{name}` (registered: {}, and {TWO_PLIES})",
                    crate::programs::names().join(", ")
                )
            })?;
            let program = compile_ir((entry.build)(), options, name)?;
            // Every variant's `play` program reads the board the `board` program draws.
            let input = if crate::chess::variants::by_play(name).is_some() {
                let board = crate::programs::find("board")
                    .ok_or("the `play` program needs the `board` program to draw its input")?;
                Input::Play(compile_ir((board.build)(), options, "board")?)
            } else {
                Input::Fen
            };
            (program, input)
        };
        Ok(Workload {
            name: name.to_string(),
            note,
            program,
            compile_ms: start.elapsed().as_secs_f64() * 1e3,
            input,
        })
    }

    /// The input state for `position` (for `play`, runs the `board` program with the fast
    /// executor first).
    pub fn input(&self, position: &BenchPosition) -> Result<String, String> {
        match &self.input {
            Input::Fen => Ok(format!("{}\n", position.fen)),
            Input::Play(board) => {
                if position.white_move.is_empty() {
                    return Err(format!(
                        "the `play` program needs the move white types ({})",
                        position.label
                    ));
                }
                let exec = ExecutorKind::Fast.build(board.clone());
                let first = exec.run(&format!("engine: black\n{}\n", position.fen));
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

/// Runs `exec` on `input` once with statistics, then `runs` times timed.
pub fn measure(exec: &dyn Executor, input: &str, runs: usize) -> Measure {
    let (output, stats) = exec.run_with_stats(input);
    let mut times_ms: Vec<f64> = (0..runs.max(1))
        .map(|_| {
            let start = Instant::now();
            let out = exec.run(input);
            let ms = start.elapsed().as_secs_f64() * 1e3;
            drop(out);
            ms
        })
        .collect();
    times_ms.sort_by(f64::total_cmp);
    Measure {
        stats,
        times_ms,
        output,
    }
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
