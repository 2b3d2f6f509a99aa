//! `regex-chess profile`: time, matches, bytes scanned and state size by source origin
//! for one run (the work is in [`regex_chess_engine::profile`]); with `--bound`, the run's
//! lower bound beside the measured time by origin; with `--fields`, the widest state's
//! bytes field by field; with `--passes`, what each compiler pass saves in state bytes and
//! milliseconds (the program compiled once with every pass, then once without each).

use std::path::PathBuf;
use std::time::Instant;

use clap::Args;

use super::engine_args::EngineArgs;
use super::{CliError, fail};
use regex_chess_chess::notation::fen::Fen;
use regex_chess_compiler::CompileOptions;
use regex_chess_engine::bench::{self, BenchPosition, Workload};
use regex_chess_engine::profile::bound::{self, Prices};
use regex_chess_engine::profile::{self, Recorder, fields};
use regex_chess_engine::{Output, Search};
use regex_chess_machine::bound as machine_bound;

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
    /// Also count what the run must do at least and price it on this machine: the bound
    /// beside the measured time, by origin (the counting run is as slow as the reference
    /// executor).
    #[arg(long)]
    bound: bool,
    /// Also split the widest state into its fields (markers, stacks, registers,
    /// variables), showing this many fields.
    #[arg(long)]
    fields: Option<usize>,
    /// Also compile the program without each pass in turn and show what each saves in
    /// widest state, bytes a thread and milliseconds (median CPU time of 3 runs).
    #[arg(long)]
    passes: bool,
}

/// Runs `profile`.
pub fn run(args: ProfileArgs) -> Result<(), CliError> {
    let options = CompileOptions {
        dead_var_elim: !args.no_dead_var_elim,
        peephole: !args.no_peephole,
        joins: !args.no_joins,
        const_inline: !args.no_const_inline,
    };
    let position = BenchPosition {
        fen: args.fen.parse::<Fen>()?.to_string(),
        white_move: args.white_move.clone().unwrap_or_default(),
        label: args.fen.clone(),
    };
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
    let input = workload.input(&position)?;
    let exec = args.engine.choice().build(workload.program.clone());
    // A first run compiles the patterns the run needs; the profiled run is the second.
    exec.run(&input).map_err(super::too_large)?;
    let rules = workload.program.rules().len();
    let mut recorder = Recorder::new(rules, input.len());
    let start = Instant::now();
    let output = exec
        .run_observed(&input, &mut recorder)
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
    if args.bound {
        print_bound(&workload, &input, &output, &recorder);
    }
    if let Some(top) = args.fields {
        let at = profile::widest(&recorder.samples, input.len());
        let widest = profile::state_after(exec.as_ref(), &input, at).map_err(super::too_large)?;
        print!("{}", fields::split(&widest).render(top));
    }
    if args.passes {
        print_passes(program.as_deref(), &position, &args)?;
    }
    Ok(())
}

/// The bound of the run `recorder` measured, by origin, with the prices and the totals.
fn print_bound(workload: &Workload, input: &str, output: &str, recorder: &Recorder) {
    let counted = machine_bound::count(&workload.program, input);
    if counted.state != output {
        eprintln!(
            "regex-chess: warning: the counting run ended in another state than the run measured"
        );
    }
    let prices = Prices::measure();
    println!("{}", prices.describe());
    let rows = bound::by_origin(
        &workload.program,
        &counted.rules,
        &recorder.samples,
        &prices,
    );
    let sum = bound::total(&counted.rules, &prices);
    let floor = bound::floor(&counted.rules, &prices).total();
    let measured: u64 = recorder.samples.iter().map(|s| s.nanos).sum();
    println!(
        "bound {:.3} ms (matches {:.3}, seen {:.3}, written {:.3}), floor {:.3} ms; \
         measured {:.3} ms by the clock: {} the bound, {} the floor",
        sum.total() / 1e6,
        sum.matches / 1e6,
        sum.seen / 1e6,
        sum.written / 1e6,
        floor / 1e6,
        measured as f64 / 1e6,
        bound::ratio(measured as f64, sum.total()),
        bound::ratio(measured as f64, floor)
    );
    print!("{}", bound::render(&rows, 12));
}

/// One line of `--passes`: the program compiled with `options`, run on `position`.
struct PassRun {
    name: &'static str,
    rules: usize,
    widest: usize,
    threads: usize,
    ms: f64,
}

impl PassRun {
    fn per_thread(&self) -> f64 {
        self.widest as f64 / self.threads.max(1) as f64
    }
}

/// Compiles the program with every pass, then without each, and prints what each saves.
fn print_passes(
    program: Option<&str>,
    position: &BenchPosition,
    args: &ProfileArgs,
) -> Result<(), CliError> {
    let all = CompileOptions::default();
    let variants = [
        ("every pass", all),
        (
            "no dead-var-elim",
            CompileOptions {
                dead_var_elim: false,
                ..all
            },
        ),
        (
            "no peephole",
            CompileOptions {
                peephole: false,
                ..all
            },
        ),
        (
            "no joins",
            CompileOptions {
                joins: false,
                ..all
            },
        ),
        (
            "no const-inline",
            CompileOptions {
                const_inline: false,
                ..all
            },
        ),
    ];
    let mut runs = Vec::new();
    for (name, options) in variants {
        let workload = Workload::new(program, &options)?;
        let input = workload.input(position)?;
        let exec = args.engine.choice().build(workload.program.clone());
        exec.run(&input).map_err(super::too_large)?;
        let (_, cpu_ms) = bench::cpu::median_times(exec.as_ref(), &input, 3);
        let mut recorder = Recorder::new(workload.program.rules().len(), input.len());
        exec.run_observed(&input, &mut recorder)
            .map_err(super::too_large)?;
        let at = profile::widest(&recorder.samples, input.len());
        let split = fields::split(
            &profile::state_after(exec.as_ref(), &input, at).map_err(super::too_large)?,
        );
        runs.push(PassRun {
            name,
            rules: workload.program.rules().len(),
            widest: split.total,
            threads: split.threads,
            ms: cpu_ms,
        });
    }
    println!(
        "{:<18} {:>6} {:>10} {:>8} {:>10} {:>9}  the pass saves (B a thread, CPU ms)",
        "compiled with", "rules", "widest B", "threads", "B/thread", "CPU ms"
    );
    let base = &runs[0];
    for run in &runs {
        println!(
            "{:<18} {:>6} {:>10} {:>8} {:>10.1} {:>9.3}  {:+.1}, {:+.3}",
            run.name,
            run.rules,
            run.widest,
            run.threads,
            run.per_thread(),
            run.ms,
            run.per_thread() - base.per_thread(),
            run.ms - base.ms
        );
    }
    Ok(())
}
