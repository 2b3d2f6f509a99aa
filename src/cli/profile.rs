//! `regex-chess profile`: time, matches, bytes scanned and state size by source origin
//! for one run (the work is in [`regex_chess_engine::profile`]).

use std::path::PathBuf;
use std::time::Instant;

use clap::Args;

use super::engine_args::EngineArgs;
use super::{CliError, fail};
use regex_chess_chess::notation::fen::Fen;
use regex_chess_compiler::CompileOptions;
use regex_chess_engine::bench::{BenchPosition, Workload};
use regex_chess_engine::profile::{self, Recorder};
use regex_chess_engine::{Output, Search};

/// Arguments of `profile`.
#[derive(Args, Debug)]
pub struct ProfileArgs {
    /// The position.
    #[arg(long)]
    fen: String,
    /// The move white types (the `play` program's input needs one).
    #[arg(long = "move")]
    white_move: Option<String>,
    /// The program: the benchmark's game (`play`) by default; or any registered
    /// program that takes a FEN.
    #[arg(long)]
    program: Option<String>,
    /// The executor to profile, its cores, and the search variant whose program to
    /// profile (not with `--program`).
    #[command(flatten)]
    engine: EngineArgs,
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

/// Runs `profile`.
pub fn run(args: ProfileArgs) -> Result<(), CliError> {
    let options = CompileOptions {
        dead_var_elim: !args.no_dead_var_elim,
        peephole: !args.no_peephole,
        joins: !args.no_joins,
        const_inline: !args.no_const_inline,
    };
    let fen: Fen = args.fen.parse()?;
    let program = match (args.engine.search, &args.program) {
        (Some(_), Some(_)) => return fail("give --search or --program, not both"),
        (Some(search), None) => Some(search.program(Output::Move).to_string()),
        (None, program) => program.clone(),
    };
    let workload = Workload::new(program.as_deref(), &options)?;
    if matches!(Search::by_program(&workload.name), Some((_, Output::Play)))
        && args.white_move.is_none()
    {
        return fail(
            "the `play` program answers a typed move: give it with --move (for example \
             --move e2e4), or profile another program with --program move",
        );
    }
    let input = workload.input(&BenchPosition {
        fen: fen.to_string(),
        white_move: args.white_move.clone().unwrap_or_default(),
        label: args.fen.clone(),
    })?;
    let exec = args.engine.choice().build(workload.program.clone());
    // A first run compiles the patterns the run needs; the profiled run is the second.
    exec.run(&input).map_err(super::too_large)?;
    let rules = workload.program.rules().len();
    let mut recorder = Recorder::new(rules, input.len());
    let start = Instant::now();
    exec.run_observed(&input, &mut recorder)
        .map_err(super::too_large)?;
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
