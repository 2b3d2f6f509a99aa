//! `regex-chess move`: the engine's move for a FEN, chosen and played by the `move` rules.
//!
//! Prints the move in UCI on the first line, the FEN after it on the second and the
//! rules' verdict on that position (`ongoing`, `checkmate`, `stalemate`, `fifty-move`,
//! `insufficient-material`) on the third. When the side to move has no legal move it
//! prints `none` and the verdict (`checkmate` or `stalemate`) on two lines.

use std::io::Write;

use clap::Args;

use super::CliError;
use crate::chess::fen::Fen;
use crate::chess::runner::{MovePicker, Reply};
use crate::exec::ExecutorKind;

/// Arguments of `move`.
#[derive(Args, Debug)]
pub struct MoveArgs {
    /// The position, as a FEN (six fields, or four without the clocks).
    #[arg(long, allow_hyphen_values = true)]
    fen: String,
    /// Which executor runs the rules.
    #[arg(long, default_value = "fast")]
    executor: ExecutorKind,
}

/// Runs `move`.
pub fn run(args: MoveArgs) -> Result<(), CliError> {
    let fen: Fen = args.fen.parse()?;
    let reply = MovePicker::new(args.executor)?.run(&fen)?;
    let mut stdout = std::io::stdout().lock();
    match reply {
        Reply::Move(reply) => writeln!(
            stdout,
            "{}\n{}\n{}",
            reply.mv, reply.fen_after, reply.status
        )?,
        Reply::NoMove(status) => writeln!(stdout, "none\n{status}")?,
    }
    stdout.flush()?;
    Ok(())
}
