//! `regex-chess bench`: milliseconds per move on the bench positions, for one or both
//! executors (the work is in [`regex_chess_engine::bench`]), ending with the two lines
//! engine testers read: `Nodes searched: N` and `Nodes/second: M`
//! ([`bench::nodes`]). Progress goes to standard error ([`super::progress`]); standard
//! output is ASCII, as OpenBench's client decodes it.
//!
//! Memory: what one position's runs grew (the reference's search caches, the allocator's
//! free pages) is handed back before the next position and before the node count, so the
//! peak is that of the widest position, not the sum of all (PERF.md, "Peak RSS").
//!
//! Bare `regex-chess bench` (what OpenBench runs) skips the child processes, whose cold
//! starts alone take tens of seconds: `--child-processes` adds them.

use std::io::Write;
use std::path::PathBuf;
use std::time::{Instant, SystemTime};

use std::num::NonZeroUsize;

use clap::{Args, ValueEnum};

use super::engine_args::{MaxStateArg, parse_cores, search_parser};
use super::progress::{Delayed, Steps};
use super::{CliError, fail};
use regex_chess_chess::positions;
use regex_chess_compiler::CompileOptions;
use regex_chess_engine::bench::nodes::{self, NodeCount};
use regex_chess_engine::bench::results::BenchLine;
use regex_chess_engine::bench::{self, BenchError, Measure, Row, Workload, children};
use regex_chess_engine::matchplay::pgn::iso_date;
use regex_chess_engine::memory::release_freed;
use regex_chess_engine::{LoadOptions, Output, Search};
use regex_chess_machine::exec::fast::Fast;
use regex_chess_machine::exec::{Executor, ExecutorKind};

/// Arguments of `bench`.
#[derive(Args, Debug)]
pub struct BenchArgs {
    /// Which executors to time.
    #[arg(long, value_enum, default_value_t = Timed::Both)]
    executor: Timed,
    /// The program: the benchmark's game (`play`) by default; or any registered
    /// program that takes a FEN.
    #[arg(long)]
    program: Option<String>,
    /// The search variant to time (its move program). Not with `--program`.
    #[arg(long, conflicts_with = "program", value_parser = search_parser())]
    search: Option<Search>,
    /// The positions file (`FEN;move;label` per line); default: the built-in bench suite
    /// (`data/positions/bench.txt`).
    #[arg(long)]
    positions: Option<PathBuf>,
    /// Timed runs per position and executor (the median is shown).
    #[arg(long, default_value_t = 3)]
    runs: usize,
    /// Also run the child processes that measure start-up (cold and cached) and the peak
    /// memory of `play` answering each position's move (with the `play` program).
    #[arg(long)]
    child_processes: bool,
    /// Skip the child processes (the default; kept for older command lines).
    #[arg(long, hide = true, conflicts_with = "child_processes")]
    no_child_processes: bool,
    /// Append each position's figures (program, executor, cores, widest state, median
    /// ms) to this file as JSON lines.
    #[arg(long)]
    results: Option<PathBuf>,
    /// Also time the fast executor on this many cores (local rules on large states run on
    /// pieces of the state), in a table of its own.
    #[arg(long, value_parser = parse_cores, default_value = "1")]
    cores: NonZeroUsize,
    /// With `--cores`: states shorter than this many bytes are not cut.
    #[arg(long, default_value_t = regex_chess_machine::exec::fast::DEFAULT_SPLIT_MIN)]
    split_min: usize,
    /// On one core, runs of local rules on states of at least this many bytes run piece
    /// by piece (the rope; `off`: never).
    #[arg(long, default_value_t = regex_chess_machine::exec::fast::DEFAULT_ROPE_MIN, value_parser = parse_bytes_or_off)]
    rope_min: usize,
    /// The length of the rope's pieces, in bytes.
    #[arg(long, default_value_t = regex_chess_machine::exec::fast::DEFAULT_ROPE_PIECE)]
    rope_piece: usize,
    #[command(flatten)]
    max_state: MaxStateArg,
}

/// Which executors `bench` times.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
enum Timed {
    /// The fast executor.
    Fast,
    /// The reference executor.
    Reference,
    /// Both, in one run (their ratio is the figure to quote).
    Both,
}

/// A size that is neither a number of bytes nor `off`.
#[derive(Debug, thiserror::Error)]
#[error("{0} (expected a size in bytes or `off`)")]
struct NotASize(std::num::ParseIntError);

/// A size in bytes, or `off` (no size is that large).
fn parse_bytes_or_off(s: &str) -> Result<usize, NotASize> {
    match s {
        "off" => Ok(usize::MAX),
        _ => s.parse().map_err(NotASize),
    }
}

/// Runs `bench`.
pub fn run(args: BenchArgs) -> Result<(), CliError> {
    let kinds: Vec<ExecutorKind> = match args.executor {
        Timed::Both => vec![ExecutorKind::Fast, ExecutorKind::Reference],
        Timed::Fast => vec![ExecutorKind::Fast],
        Timed::Reference => vec![ExecutorKind::Reference],
    };
    let path = args.positions.as_deref();
    let source = positions::describe(path, "bench suite");
    let text = positions::read_or_builtin(path, positions::BENCH)?;
    let positions =
        bench::parse_positions(&text).map_err(|e| CliError(format!("{source}: {e}")))?;
    if positions.is_empty() {
        return fail(format!("no positions in {source}"));
    }
    let program = match args.search {
        Some(search) => Some(search.program(Output::Move).to_string()),
        None => args.program.clone(),
    };
    let compiling = Delayed::start(format!(
        "compiling the `{}` program",
        program
            .as_deref()
            .unwrap_or_else(|| bench::default_program())
    ));
    let workload = Workload::new(program.as_deref(), &CompileOptions::default());
    compiling.finish("compiled the program");
    let workload = workload?;
    let mut executors = Vec::new();
    for kind in &kinds {
        let start = Instant::now();
        let mut exec: Box<dyn Executor> = match kind {
            ExecutorKind::Fast => {
                Box::new(Fast::new(workload.program.clone()).rope(args.rope_min, args.rope_piece))
            }
            ExecutorKind::Reference => kind.build(workload.program.clone()),
        };
        exec.set_max_state(args.max_state.bytes);
        executors.push((*kind, exec));
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
        "positions: {source}, {} timed runs each (median shown)\n",
        args.runs
    );
    let cores = args.cores.get();
    let several = (cores > 1).then(|| {
        Fast::new(workload.program.clone())
            .rope(args.rope_min, args.rope_piece)
            .parallel(cores, args.split_min)
            .with_max_state(args.max_state.bytes)
    });
    let mut rows = Vec::new();
    let mut multi = Vec::new();
    let runs_per_position = executors.len() + usize::from(several.is_some());
    let mut steps = Steps::new(
        "bench",
        (positions.len() * runs_per_position) as u64,
        runs_per_position as u64,
    );
    for position in &positions {
        let input = workload.input(position)?;
        let mut row = Row {
            label: position.label.clone(),
            fast: None,
            reference: None,
        };
        for (kind, exec) in &mut executors {
            steps.doing(format!("{}, {} executor", position.label, exec.name()));
            let m: Measure =
                bench::measure(exec.as_ref(), &input, args.runs).map_err(BenchError::from)?;
            match kind {
                ExecutorKind::Fast => row.fast = Some(m),
                ExecutorKind::Reference => row.reference = Some(m),
            }
            exec.release_caches();
            release_freed();
            steps.step(&position.label);
        }
        if let Some(exec) = &several {
            steps.doing(format!("{}, {cores} cores", position.label));
            multi.push(bench::measure(exec, &input, args.runs).map_err(BenchError::from)?);
            release_freed();
            steps.step(&position.label);
        }
        rows.push(row);
    }
    steps.finish();
    print!("{}", bench::render_table(&rows));
    if several.is_some() {
        print!("{}", several_cores_table(&rows, &multi, cores));
    }
    if let Some(path) = &args.results {
        let lines = result_lines(&workload.name, &rows, &multi, cores, args.runs);
        super::append_lines(path, &lines)?;
    }
    if workload.name == "play" && args.child_processes {
        child_processes(&positions)?;
    }
    if let Some(kb) = bench::peak_rss_kb() {
        let executors = match kinds.as_slice() {
            [ExecutorKind::Fast] => "the fast executor",
            [ExecutorKind::Reference] => "the reference executor",
            _ => "both executors",
        };
        println!(
            "peak RSS of this bench process (compiling the programs, {executors}, every \
             position): {:.1} MB",
            kb as f64 / 1024.0
        );
    }
    let multi_differs = rows.iter().zip(&multi).any(|(row, m)| {
        let one = row.fast.as_ref().or(row.reference.as_ref());
        one.is_some_and(|one| one.output != m.output || one.stats.matches != m.stats.matches)
    });
    if rows.iter().any(Row::disagree) || multi_differs {
        return fail("the executors' final states differ (see the table)");
    }
    if let Some(program) = nodes::node_program(&workload.name) {
        let count = node_count(program, &workload, &rows, &executors, &positions, args.runs)?;
        println!(
            "\nthe `{program}` program's nodes (the positions its rules evaluated) on these \
             positions, and nodes a second on the {} executor:",
            executors[0].1.name()
        );
        print!("{}", count.lines());
    }
    std::io::stdout().flush()?;
    Ok(())
}

/// The nodes the workload's search reports on the positions, the same on every executor
/// timed (an error otherwise), and the seconds of the first executor's runs: read from
/// the table's outputs when the workload is the search's `move` program, else from runs
/// of that program (from the program cache) made here.
fn node_count(
    program: &str,
    workload: &Workload,
    rows: &[Row],
    executors: &[(ExecutorKind, Box<dyn Executor>)],
    positions: &[bench::BenchPosition],
    runs: usize,
) -> Result<NodeCount, CliError> {
    let measured: Vec<Vec<Measure>> = if program == workload.name {
        rows.iter()
            .map(|row| {
                [&row.fast, &row.reference]
                    .into_iter()
                    .flatten()
                    .cloned()
                    .collect()
            })
            .collect()
    } else {
        let loaded = regex_chess_engine::load(program, &LoadOptions::default())?;
        super::warn(&loaded.warnings);
        let mut steps = Steps::new("bench: node count", positions.len() as u64, 1);
        let mut searched = executors
            .iter()
            .map(|(kind, exec)| {
                let mut built = kind.build(loaded.program.clone());
                built.set_max_state(exec.max_state());
                built
            })
            .collect::<Vec<_>>();
        let mut all = Vec::new();
        for position in positions {
            let input = format!("{}\n", position.fen);
            steps.doing(format!("{} ({program})", position.label));
            // The first executor is timed; the others run once, for their count.
            let each = searched
                .iter()
                .enumerate()
                .map(|(i, exec)| {
                    bench::measure(exec.as_ref(), &input, if i == 0 { runs } else { 1 })
                        .map_err(BenchError::from)
                })
                .collect::<Result<Vec<_>, _>>()?;
            all.push(each);
            searched.iter_mut().for_each(|exec| exec.release_caches());
            release_freed();
            steps.step(&position.label);
        }
        steps.finish();
        all
    };
    let mut count = NodeCount {
        nodes: 0,
        seconds: 0.0,
    };
    for (position, each) in positions.iter().zip(&measured) {
        let counts = each
            .iter()
            .map(|m| nodes::nodes_in(&m.output))
            .collect::<Result<Vec<u64>, _>>()?;
        if counts.windows(2).any(|pair| pair[0] != pair[1]) {
            return fail(format!(
                "{}: the executors report different node counts {counts:?}",
                position.label
            ));
        }
        count.nodes += counts.first().copied().unwrap_or(0);
        count.seconds += each.first().map_or(0.0, |m| m.median_ms() / 1e3);
    }
    Ok(count)
}

/// The results file's lines: each position on each executor timed, and on `cores` cores.
fn result_lines(
    program: &str,
    rows: &[Row],
    multi: &[Measure],
    cores: usize,
    runs: usize,
) -> Vec<String> {
    let date = iso_date(SystemTime::now());
    let line = |label: &str, executor: &str, cores: usize, measure: &Measure| {
        BenchLine {
            program: program.to_string(),
            search: Search::by_program(program).map(|(s, _)| s.name().to_string()),
            executor: executor.to_string(),
            cores,
            label: label.to_string(),
            widest_state: measure.stats.max_state_len,
            median_ms: measure.median_ms(),
            runs,
            date: date.clone(),
            note: None,
        }
        .to_json()
    };
    let mut out = Vec::new();
    for (i, row) in rows.iter().enumerate() {
        if let Some(fast) = &row.fast {
            out.push(line(&row.label, "fast", 1, fast));
        }
        if let Some(reference) = &row.reference {
            out.push(line(&row.label, "reference", 1, reference));
        }
        if let Some(several) = multi.get(i) {
            out.push(line(&row.label, "fast", cores, several));
        }
    }
    out
}

/// Prints the start-up times and, per position, the peak memory of a `play` process
/// answering the move (see [`bench::children`]).
fn child_processes(positions: &[bench::BenchPosition]) -> Result<(), CliError> {
    let exe = std::env::current_exe()?;
    let measuring = Delayed::start("measuring start-up: `play` and `uci`, cold and cached".into());
    let startup = children::startup(&exe);
    measuring.finish("measured start-up");
    match startup {
        Ok(s) => println!(
            "start-up: `play` to its first prompt {:.0} ms cold, {:.0} ms cached; \
             `uci` to readyok {:.0} ms cold, {:.0} ms cached",
            s.play_cold, s.play_cached, s.uci_cold, s.uci_cached
        ),
        Err(e) => println!("start-up: not measured ({e})"),
    }
    let cache = children::TempCache::new()?;
    if let Err(e) = children::fill_cache(&exe, cache.dir()) {
        println!("peak RSS of `play`: not measured ({e})");
        return Ok(());
    }
    let mut peaks = Vec::new();
    for position in positions {
        let kb =
            children::play_move_peak_kb(&exe, cache.dir(), &position.fen, &position.white_move);
        match kb {
            Ok(kb) => peaks.push(format!("{} {:.1}", position.label, kb as f64 / 1024.0)),
            Err(e) => {
                println!("peak RSS of `play`: not measured ({e})");
                return Ok(());
            }
        }
    }
    println!(
        "peak RSS of one `play --executor fast` process answering the move (programs \
         read from the cache), MB: {}",
        peaks.join(", ")
    );
    Ok(())
}

/// The multi-core figures, apart from the one-core table: per position the one-core fast
/// median (when timed), the `cores`-core median and their ratio, and whether the final
/// state and match count equal the one-core run's.
fn several_cores_table(rows: &[Row], multi: &[Measure], cores: usize) -> String {
    let header = format!("fast, {cores} cores ms");
    let mut out = format!(
        "\nseveral cores\n{:<34} {:>12} {:>18} {:>8}\n",
        "position", "fast 1 core ms", header, "gain"
    );
    let mut gains = Vec::new();
    for (row, m) in rows.iter().zip(multi) {
        let one = row.fast.as_ref().map(Measure::median_ms);
        let gain = one.map(|one| one / m.median_ms());
        gains.extend(gain);
        let same = row
            .fast
            .as_ref()
            .or(row.reference.as_ref())
            .is_none_or(|r| r.output == m.output && r.stats.matches == m.stats.matches);
        out.push_str(&format!(
            "{:<34} {:>12} {:>18.2} {:>8}{}\n",
            row.label,
            one.map_or_else(|| "-".to_string(), |v| format!("{v:.2}")),
            m.median_ms(),
            gain.map_or_else(|| "-".to_string(), |g| format!("{g:.2}x")),
            if same { "" } else { "  DIFFERS FROM ONE CORE" }
        ));
    }
    let one = bench::geometric_mean(
        rows.iter()
            .filter_map(|r| r.fast.as_ref().map(Measure::median_ms)),
    );
    let several = bench::geometric_mean(multi.iter().map(Measure::median_ms));
    out.push_str(&format!(
        "{:<34} {:>12} {:>18.2} {:>8}\n",
        "geometric mean",
        if one.is_nan() {
            "-".to_string()
        } else {
            format!("{one:.2}")
        },
        several,
        if gains.is_empty() {
            "-".to_string()
        } else {
            format!("{:.2}x", bench::geometric_mean(gains))
        },
    ));
    out
}
