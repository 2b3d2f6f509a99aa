//! `regex-chess profile`: time, matches, bytes scanned and state size by source origin
//! for one run (the work is in [`regex_chess_core::profile`]).

use std::path::PathBuf;
use std::time::Instant;

use clap::Args;

use super::{CliError, fail};
use regex_chess_core::bench::{BenchPosition, Workload};
use regex_chess_core::chess::fen::Fen;
use regex_chess_core::compiler::CompileOptions;
use regex_chess_core::exec::{ExecutorKind, UnknownExecutor};
use regex_chess_core::profile::{self, Recorder};

/// Arguments of `profile`.
#[derive(Args, Debug)]
pub struct ProfileArgs {
    /// The position.
    #[arg(long)]
    fen: String,
    /// The move white types (the `play` program's input needs one).
    #[arg(long = "move")]
    white_move: Option<String>,
    /// The program: `play` when registered, else the `two-plies` proxy; or any registered
    /// program that takes a FEN.
    #[arg(long)]
    program: Option<String>,
    /// The search variant to profile (its program): 2ply,
    /// 2ply-q, 2ply-qe or 3ply-qe. Not with `--program`.
    #[arg(long, conflicts_with = "program")]
    search: Option<String>,
    /// Which executor to profile.
    #[arg(long, default_value = "fast", value_parser = parse_kind)]
    executor: ExecutorKind,
    /// Compile without dead-variable elimination.
    #[arg(long)]
    no_dead_var_elim: bool,
    /// Compile without peephole clean-ups.
    #[arg(long)]
    no_peephole: bool,
    /// Compile without the joins pass.
    #[arg(long)]
    no_joins: bool,
    /// Compile without constant inlining.
    #[arg(long)]
    no_const_inline: bool,
    /// How many origins the table shows.
    #[arg(long, default_value_t = 20)]
    top: usize,
    /// Also show this many of the slowest single rules, with their patterns.
    #[arg(long, default_value_t = 0)]
    slowest: usize,
    /// Write folded stacks (`file:line;instruction microseconds`) here.
    #[arg(long)]
    folded: Option<PathBuf>,
    /// Write an SVG plot of state size and time over the rule index here.
    #[arg(long)]
    svg: Option<PathBuf>,
}

fn parse_kind(s: &str) -> Result<ExecutorKind, UnknownExecutor> {
    s.parse()
}

/// Runs `profile`.
pub fn run(args: ProfileArgs) -> Result<(), CliError> {
    let options = CompileOptions {
        dead_var_elim: !args.no_dead_var_elim,
        peephole: !args.no_peephole,
        joins: !args.no_joins,
        const_inline: !args.no_const_inline,
    };
    let fen: Fen = args.fen.parse()?;
    let program = match &args.search {
        Some(name) => Some(super::best_move::variant(name)?.program.to_string()),
        None => args.program.clone(),
    };
    let workload = Workload::new(program.as_deref(), &options).map_err(CliError)?;
    if regex_chess_core::chess::variants::by_play(&workload.name).is_some()
        && args.white_move.is_none()
    {
        return fail(
            "the `play` program answers a typed move: give it with --move (for example \
             --move e2e4), or profile another program with --program move",
        );
    }
    if let Some(note) = &workload.note {
        println!("{note}");
    }
    let input = workload
        .input(&BenchPosition {
            fen: fen.to_string(),
            white_move: args.white_move.clone().unwrap_or_default(),
            label: args.fen.clone(),
        })
        .map_err(CliError)?;
    let exec = args.executor.build(workload.program.clone());
    // A first run compiles the patterns the run needs; the profiled run is the second.
    exec.run(&input);
    let rules = workload.program.rules().len();
    let mut recorder = Recorder::new(rules, input.len());
    let start = Instant::now();
    let _ = exec.run_observed(&input, &mut recorder);
    let wall = start.elapsed().as_secs_f64() * 1e3;
    let rows = profile::by_origin(&workload.program, &recorder.samples);
    let applied = recorder.samples.iter().filter(|s| !s.skipped).count();
    let peak = recorder
        .samples
        .iter()
        .map(|s| s.state_len)
        .max()
        .unwrap_or(0);
    let scanned: usize = recorder.samples.iter().map(|s| s.scanned).sum();
    println!(
        "{} on the {} executor: {rules} rules ({applied} searched), {wall:.1} ms, \
         peak state {peak} B, {scanned} B scanned",
        workload.name,
        exec.name()
    );
    print!("{}", profile::render_top(&rows, args.top));
    if args.slowest > 0 {
        print!(
            "{}",
            profile::render_slowest(&workload.program, &recorder.samples, args.slowest)
        );
    }
    if let Some(path) = &args.folded {
        std::fs::write(path, profile::folded(&rows))
            .map_err(|e| CliError(format!("cannot write {}: {e}", path.display())))?;
    }
    if let Some(path) = &args.svg {
        let title = format!("{} ({}), {}", workload.name, exec.name(), args.fen);
        std::fs::write(path, profile::svg(&recorder.samples, &title))
            .map_err(|e| CliError(format!("cannot write {}: {e}", path.display())))?;
    }
    Ok(())
}
