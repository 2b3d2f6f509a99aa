//! `regex-chess uci`: the Universal Chess Interface on standard input and output.
//!
//! The protocol lives in [`crate::uci::Session`]; this reads lines, hands them over and
//! prints the answers, flushing after each line. The engine is
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
    let mut session = Session::new(|kind| Box::new(RulesEngine::new(kind)));
    let mut input = std::io::stdin().lock();
    let stdout = std::io::stdout();
    let mut bytes = Vec::new();
    while !session.is_done() {
        bytes.clear();
        if input.read_until(b'\n', &mut bytes)? == 0 {
            break;
        }
        let line = String::from_utf8_lossy(&bytes);
        let answer = session.handle(&line);
        let mut out = stdout.lock();
        for line in answer {
            writeln!(out, "{line}")?;
        }
        out.flush()?;
    }
    Ok(())
}
