//! The command-line layer: argument parsing and dispatch to one module per subcommand.
//!
//! Each subcommand returns `Result<(), CliError>`; [`main`] prints an error as one line on
//! standard error and exits non-zero. Nothing here decides a chess move: subcommands only
//! build input states, run programs and read the results. Long work shows its progress on
//! standard error ([`progress`]; `--quiet` turns it off).
//!
//! Without a subcommand, `regex-chess` prints its help on a terminal, and speaks UCI
//! when its standard input is not one: what a GUI or an engine tester (cutechess,
//! fastchess, OpenBench) does when it starts an engine by its path alone.

mod banqi;
mod bench;
mod best_move;
mod bound;
mod chart;
mod compile;
mod engine_args;
mod export;
mod legal;
mod match_cmd;
mod play;
mod profile;
mod progress;
mod run;
mod serve;
mod site;
mod uci;

use std::fmt;
use std::io::{IsTerminal, Write};
use std::process::ExitCode;

use clap::{Parser, Subcommand};

/// An error for the user: one line, no panic.
#[derive(Debug)]
pub struct CliError(pub String);

impl fmt::Display for CliError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl<E: std::error::Error> From<E> for CliError {
    fn from(e: E) -> CliError {
        CliError(e.to_string())
    }
}

/// Prints the program cache's warnings (see `regex_chess_engine::Loaded`) on
/// standard error, one a line.
pub fn warn(warnings: &[String]) {
    for warning in warnings {
        let _ = writeln!(std::io::stderr(), "regex-chess: warning: {warning}");
    }
}

/// Appends `lines` to the file at `path`, each with its newline, creating the file if
/// need be (the results files of `match` and `bench`).
pub fn append_lines(path: &std::path::Path, lines: &[String]) -> Result<(), CliError> {
    let cannot = |e: std::io::Error| CliError(format!("cannot write {}: {e}", path.display()));
    let mut file = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(path)
        .map_err(cannot)?;
    lines
        .iter()
        .try_for_each(|line| writeln!(file, "{line}"))
        .map_err(cannot)
}

/// The error of a run that a rule would have grown past the state limit, with how to
/// raise it.
pub fn too_large(e: regex_chess_machine::exec::StateTooLarge) -> CliError {
    CliError(format!("{e} (raise it with --max-state)"))
}

/// Shorthand for a [`CliError`] from a message.
pub fn fail<T>(message: impl Into<String>) -> Result<T, CliError> {
    Err(CliError(message.into()))
}

#[derive(Parser, Debug)]
#[command(
    name = "regex-chess",
    version,
    about = "A chess engine made of regular-expression substitutions"
)]
struct Cli {
    /// Compile the chess programs instead of reading them from the program cache
    /// (`$REGEX_CHESS_CACHE`, else `$XDG_CACHE_HOME/regex-chess`, else
    /// `~/.cache/regex-chess`), and do not write it. `REGEX_CHESS_NO_CACHE=1` does the same.
    #[arg(long, global = true)]
    no_cache: bool,
    /// Show no progress (the live lines on a terminal, the plain progress lines
    /// elsewhere); warnings and errors are still shown.
    #[arg(long, global = true)]
    quiet: bool,
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Run a rule program on a state and print the final state.
    Run(run::RunArgs),
    /// Print the legal moves the rules generate for a FEN, sorted, one a line.
    Legal(legal::LegalArgs),
    /// Print the engine's move for a FEN, the FEN after it and the game's status.
    Move(best_move::MoveArgs),
    /// Compile a registered program to a rule list.
    Compile(compile::CompileArgs),
    /// Speak the Universal Chess Interface on standard input and output.
    Uci(uci::UciArgs),
    /// Play the engine against a fixed opponent from every opening, both colours.
    Match(match_cmd::MatchArgs),
    /// Milliseconds per move on the bench positions, for one or both executors; ends
    /// with the nodes searched and the nodes a second (OpenBench's lines).
    Bench(bench::BenchArgs),
    /// For each search variant and bench position: what the run must cost at least
    /// (matches, bytes to see, bytes written, priced on this machine), the measured time
    /// and their ratio.
    Bound(bound::BoundArgs),
    /// Draw the project's charts as SVG from recorded results (`data/results/`): strength
    /// against time, time against the state's size, and the headline comparison.
    Chart(chart::ChartArgs),
    /// Time, matches, bytes scanned and state size by source origin for one run.
    Profile(profile::ProfileArgs),
    /// Play a game against the engine in the terminal.
    Play(play::PlayArgs),
    /// Write a program's rules for Python's re or JavaScript's RegExp.
    Export(export::ExportArgs),
    /// Write the static site that plays in the browser (the page, rules.js, start.txt).
    Site(site::SiteArgs),
    /// Serve a directory (the site) on localhost.
    Serve(serve::ServeArgs),
    /// Banqi (Chinese dark chess), the second engine: play, uci, match, bench, perft.
    Banqi(banqi::BanqiArgs),
}

/// Parses the arguments, runs the subcommand and turns its error into an exit code.
pub fn main() -> ExitCode {
    quiet_on_closed_pipe();
    let bare = std::env::args_os().len() == 1;
    let parsed = if bare && !std::io::stdin().is_terminal() {
        Cli::try_parse_from(["regex-chess", "uci"])
    } else {
        Cli::try_parse()
    };
    let cli = match parsed {
        Ok(cli) => cli,
        // `--help` and `--version` print to standard output and exit 0; no subcommand at
        // all prints the help.
        Err(e)
            if !e.use_stderr()
                || e.kind() == clap::error::ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand =>
        {
            e.exit()
        }
        Err(e) => {
            let _ = writeln!(std::io::stderr(), "regex-chess: error: {}", one_line(&e));
            return ExitCode::from(2);
        }
    };
    if cli.no_cache {
        regex_chess_engine::cache::disable();
    }
    // A UCI session speaks the protocol only: a GUI logs standard error as the engine's
    // complaints, so its first start's compilations go unannounced there.
    progress::init(cli.quiet || matches!(cli.command, Command::Uci(_)) || banqi_uci(&cli.command));
    progress::observe_compiles();
    let result = match cli.command {
        Command::Run(args) => run::run(args),
        Command::Legal(args) => legal::run(args),
        Command::Move(args) => best_move::run(args),
        Command::Compile(args) => compile::run(args),
        Command::Uci(args) => uci::run(args),
        Command::Match(args) => match_cmd::run(args),
        Command::Bench(args) => bench::run(args),
        Command::Bound(args) => bound::run(args),
        Command::Chart(args) => chart::run(args),
        Command::Profile(args) => profile::run(args),
        Command::Play(args) => play::run(args),
        Command::Export(args) => export::run(args),
        Command::Site(args) => site::run(args),
        Command::Serve(args) => serve::run(args),
        Command::Banqi(args) => banqi::run(args),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            let _ = writeln!(std::io::stderr(), "regex-chess: error: {e}");
            ExitCode::FAILURE
        }
    }
}

/// Whether the command is `banqi uci`, which speaks the protocol only.
fn banqi_uci(command: &Command) -> bool {
    matches!(command, Command::Banqi(args) if args.is_uci())
}

/// Leaves `value` undropped: for what a command that answers once and exits built (an
/// executor and its compiled patterns), whose memory the process's exit gives back at
/// once, while dropping it piece by piece costs a fresh `move` about 25 M instructions
/// (PERF.md, "Loading the program"). Call it only once the answer is written and
/// flushed.
fn leak_at_exit<T>(value: T) {
    std::mem::forget(value);
}

/// Lets a write into a closed pipe (`regex-chess compile --ir | head -1`) end the process
/// quietly, as it ends `cat` or `grep`, instead of an error message or a panic: the
/// default action of `SIGPIPE`, which the Rust runtime turns off.
fn quiet_on_closed_pipe() {
    #[cfg(unix)]
    // SAFETY: restoring a signal's default action at start-up, before any thread exists.
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_DFL);
    }
}

/// A usage error from clap as one line: its message, without the usage block and the
/// hint to try `--help`.
fn one_line(e: &clap::Error) -> String {
    let text = e.render().to_string();
    let message: Vec<&str> = text
        .lines()
        .take_while(|l| !l.starts_with("Usage:") && !l.starts_with("For more information"))
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .collect();
    let message = message.join(" ");
    message
        .strip_prefix("error: ")
        .unwrap_or(&message)
        .to_string()
}
