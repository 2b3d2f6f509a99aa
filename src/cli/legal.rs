//! `regex-chess legal`: the legal moves the `legal-moves` rules generate for a FEN.
//!
//! The FEN is checked natively (syntax and sanity, see [`regex_chess_chess::notation::fen`]); the moves
//! come from the rules alone.

use std::io::Write;

use clap::Args;

use super::CliError;
use super::engine_args::ExecArgs;
use regex_chess_chess::notation::fen::Fen;
use regex_chess_engine::runner::LegalMoves;

/// Arguments of `legal`.
#[derive(Args, Debug)]
pub struct LegalArgs {
    /// The position, as a FEN (six fields, or four without the clocks).
    #[arg(long, allow_hyphen_values = true)]
    fen: String,
    #[command(flatten)]
    exec: ExecArgs,
}

/// Runs `legal`: prints the moves sorted by their text, one a line (nothing when there
/// are none).
pub fn run(args: LegalArgs) -> Result<(), CliError> {
    let fen: Fen = args.fen.parse()?;
    let legal = LegalMoves::new(args.exec.choice())?;
    super::warn(legal.warnings());
    let moves = legal.run(&fen)?;
    let mut stdout = std::io::stdout().lock();
    for mv in moves {
        writeln!(stdout, "{mv}")?;
    }
    stdout.flush()?;
    super::leak_at_exit(legal);
    Ok(())
}
