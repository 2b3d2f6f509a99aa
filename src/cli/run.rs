//! `regex-chess run`: run any rule program on any state.

use std::io::{Read, Write};
use std::path::PathBuf;

use clap::Args;

use super::engine_args::ExecArgs;
use super::{CliError, fail};
use regex_chess_machine::exec::reference::Reference;
use regex_chess_machine::exec::{Choice, Executor, ExecutorKind, trace};
use regex_chess_machine::program::json::{self, Syntax};

/// Arguments of `run`.
#[derive(Args, Debug)]
pub struct RunArgs {
    /// The program: native JSON or an array of [pattern, replacement] pairs.
    program: PathBuf,
    /// The initial state: a file, or `-` for standard input.
    #[arg(long)]
    state: String,
    /// The executor that prints the result, and its cores.
    #[command(flatten)]
    exec: ExecArgs,
    /// Run both executors and name the first rule where they diverge (on standard error).
    #[arg(long)]
    trace: bool,
    /// The replacement syntax of the program file.
    #[arg(long, default_value = "auto", value_parser = str::parse::<Syntax>)]
    syntax: Syntax,
}

/// Reads a state from a file or from standard input (`-`); it must be UTF-8.
pub fn read_state(source: &str) -> Result<String, CliError> {
    let mut bytes = Vec::new();
    if source == "-" {
        std::io::stdin()
            .read_to_end(&mut bytes)
            .map_err(|e| CliError(format!("cannot read the state from standard input: {e}")))?;
    } else {
        bytes = std::fs::read(source)
            .map_err(|e| CliError(format!("cannot read state {source}: {e}")))?;
    }
    String::from_utf8(bytes).map_err(|e| {
        CliError(format!(
            "the state {} is not UTF-8 (invalid byte at offset {})",
            if source == "-" {
                "on standard input"
            } else {
                source
            },
            e.utf8_error().valid_up_to()
        ))
    })
}

/// Runs `run`.
pub fn run(args: RunArgs) -> Result<(), CliError> {
    let program = json::load(&args.program, args.syntax)?;
    let state = read_state(&args.state)?;
    // Built as every command builds its executors (`Choice::build`): the fast one on the
    // cores asked for, the test hook of a helper's panic included.
    let choice = args.exec.choice();
    let result = if args.trace {
        let reference = Reference::new(program.clone()).with_max_state(choice.max_state);
        let fast = Choice::new(ExecutorKind::Fast, choice.cores)
            .with_max_state(choice.max_state)
            .build(program);
        let mut stderr = std::io::stderr();
        if let Some(divergence) = trace::first_divergence(&reference, fast.as_ref(), &state) {
            writeln!(stderr, "{divergence}")?;
            return fail(format!(
                "the executors disagree from rule {} on",
                divergence.index
            ));
        }
        let result = match args.exec.executor {
            ExecutorKind::Reference => reference.run(&state),
            ExecutorKind::Fast => fast.run(&state),
        };
        match &result {
            Ok(_) => writeln!(
                stderr,
                "trace: both executors agree after each of the {} rules",
                reference.program().rules().len()
            )?,
            Err(e) => writeln!(
                stderr,
                "trace: both executors agree after each of the {} rules before rule {}, \
                 and both stop there at the state limit",
                e.rule, e.rule
            )?,
        }
        result
    } else {
        choice.build(program).run(&state)
    }
    .map_err(super::too_large)?;
    let mut stdout = std::io::stdout().lock();
    stdout.write_all(result.as_bytes())?;
    stdout.flush()?;
    Ok(())
}
