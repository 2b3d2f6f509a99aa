//! `regex-chess uci`: the Universal Chess Interface on standard input and output.
//!
//! The protocol lives in [`crate::uci::Session`]; this reads lines, hands them over and
//! prints the answers, flushing after each line; at the end of the input it prints a
//! `bestmove` the session still holds (`go infinite` never stopped). The engine is
//! [`crate::uci::RulesEngine`]: every move comes from the rules.

use std::io::{BufRead, Write};

use clap::Args;

use super::CliError;
use crate::uci::{RulesEngine, Session};

/// Arguments of `uci` (none: options are set through the protocol).
#[derive(Args, Debug)]
pub struct UciArgs {}

/// Runs the session until `quit` or the end of the input.
pub fn run(_args: UciArgs) -> Result<(), CliError> {
    let mut session = Session::new(|choice| Box::new(RulesEngine::new(choice)));
    let mut input = std::io::stdin().lock();
    let stdout = std::io::stdout();
    let mut bytes = Vec::new();
    while !session.is_done() {
        bytes.clear();
        let answer = if input.read_until(b'\n', &mut bytes)? == 0 {
            // The end of the input ends the session, after a held `bestmove`.
            let held = session.finish();
            print_lines(&stdout, held)?;
            break;
        } else {
            session.handle(&String::from_utf8_lossy(&bytes))
        };
        print_lines(&stdout, answer)?;
    }
    Ok(())
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
