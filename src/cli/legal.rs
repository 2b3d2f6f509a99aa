//! `regex-chess legal`: the legal moves the `legal-moves` rules generate for a FEN.
//!
//! The FEN is checked natively (syntax and sanity, see [`regex_chess_core::chess::fen`]); the moves
//! come from the rules alone.

use std::io::Write;

use clap::Args;

use super::CliError;
use regex_chess_core::chess::fen::Fen;
use regex_chess_core::chess::runner::LegalMoves;
use regex_chess_core::exec::ExecutorKind;

/// Arguments of `legal`.
#[derive(Args, Debug)]
pub struct LegalArgs {
    /// The position, as a FEN (six fields, or four without the clocks).
    #[arg(long, allow_hyphen_values = true)]
    fen: String,
    /// Which executor runs the rules.
    #[arg(long, default_value = "fast")]
    executor: ExecutorKind,
}

/// Runs `legal`: prints the moves sorted by their text, one a line (nothing when there
/// are none).
pub fn run(args: LegalArgs) -> Result<(), CliError> {
    let fen: Fen = args.fen.parse()?;
    let legal = LegalMoves::new(args.executor)?;
    let moves = legal.run(&fen)?;
    let mut stdout = std::io::stdout().lock();
    for mv in moves {
        writeln!(stdout, "{mv}")?;
    }
    stdout.flush()?;
    super::leak_at_exit(legal);
    Ok(())
}
