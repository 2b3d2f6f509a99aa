//! `regex-chess uci`: the Universal Chess Interface on standard input and output.
//!
//! The protocol lives in [`regex_chess_engine::uci::Session`]; this reads lines (on a thread of its
//! own, so that `stop` reaches a running `go infinite`), hands them over and prints the
//! answers, flushing after each line; at the end of the input it prints a
//! `bestmove` the session still holds (`go infinite` never stopped). The engine is
//! [`regex_chess_engine::uci::RulesEngine`]: every move comes from the rules. `--search NAME` fixes the
//! search variant (the `Search` option's value at start); without it each `go` chooses
//! by its limits ([`regex_chess_engine::uci::clock`]).

use std::io::{BufRead, Write};
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::mpsc;

use clap::Args;

use super::CliError;
use super::engine_args::EngineArgs;
use regex_chess_engine::uci::{RulesEngine, Session, cuts_a_search};

/// Arguments of `uci`: the values the `Executor`, `Threads` and `Search` options start
/// from (the other options are set through the protocol). Without `--search`, each `go`
/// chooses the variant from its depth or time limits (`Search` set to `auto`).
#[derive(Args, Debug)]
pub struct UciArgs {
    #[command(flatten)]
    engine: EngineArgs,
}

/// A line read from standard input (`None` at its end).
type Read = std::io::Result<Option<Vec<u8>>>;

/// Runs the session until `quit` or the end of the input.
///
/// A reader thread reads the input as it comes, so that a line cutting a search short
/// ([`cuts_a_search`]: `stop`, `quit`...) reaches the search running for an earlier
/// line: it notes the number of the last such line (the end of the input counts as
/// one), and the search for line `n` stops when that number passes `n`.
pub fn run(args: UciArgs) -> Result<(), CliError> {
    let mut session = Session::new(|choice| Box::new(RulesEngine::new(choice)))
        .with_choice(args.engine.choice())
        .with_search(args.engine.search);
    let cutting = Arc::new(AtomicU64::new(0));
    let lines = spawn_reader(cutting.clone());
    let stdout = std::io::stdout();
    let mut number = 0u64;
    while !session.is_done() {
        let Some(bytes) = lines.recv().unwrap_or(Ok(None))? else {
            // The end of the input ends the session, after a held `bestmove`.
            print_lines(&stdout, session.finish())?;
            break;
        };
        number += 1;
        let line = number;
        let stop = || cutting.load(Ordering::Relaxed) > line;
        let answer = session.handle_until(&String::from_utf8_lossy(&bytes), &stop);
        print_lines(&stdout, answer)?;
    }
    Ok(())
}

/// Reads standard input line by line on a thread of its own, sending each line (then
/// the end, or an error) and storing in `cutting` the number of the last line that cuts
/// a search (`u64::MAX` at the end of the input).
fn spawn_reader(cutting: Arc<AtomicU64>) -> mpsc::Receiver<Read> {
    let (send, receive) = mpsc::channel::<Read>();
    std::thread::spawn(move || {
        let mut input = std::io::stdin().lock();
        let mut number = 0u64;
        loop {
            let mut bytes = Vec::new();
            let read = match input.read_until(b'\n', &mut bytes) {
                Ok(0) => {
                    cutting.store(u64::MAX, Ordering::Relaxed);
                    Ok(None)
                }
                Ok(_) => {
                    number += 1;
                    if cuts_a_search(&String::from_utf8_lossy(&bytes)) {
                        cutting.store(number, Ordering::Relaxed);
                    }
                    Ok(Some(bytes))
                }
                Err(e) => Err(e),
            };
            let last = !matches!(read, Ok(Some(_)));
            if send.send(read).is_err() || last {
                return;
            }
        }
    });
    receive
}

/// Prints `lines` and flushes, so the GUI reads them at once.
fn print_lines(stdout: &std::io::Stdout, lines: Vec<String>) -> Result<(), CliError> {
    let mut out = stdout.lock();
    for line in lines {
        writeln!(out, "{line}")?;
    }
    out.flush()?;
    Ok(())
}
