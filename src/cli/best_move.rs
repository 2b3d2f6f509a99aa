//! `regex-chess move`: the engine's move for a FEN, chosen and played by the `move` rules.
//!
//! Prints the move in UCI on the first line, the FEN after it on the second and the
//! rules' verdict on that position (`ongoing`, `checkmate`, `stalemate`, `fifty-move`,
//! `insufficient-material`) on the third. When the side to move has no legal move it
//! prints `none` and the verdict (`checkmate` or `stalemate`) on two lines. After a move,
//! the search's report follows as the rules wrote it: `score cp|mate <int>`, `depth
//! <plies>`, `nodes <count>` and `pv <uci> ...`, one a line. `--search NAME` picks the
//! variant ([`crate::chess::variants`]); the default is the 2-ply `move` program.

use std::io::Write;

use clap::Args;

use super::CliError;
use crate::chess::fen::Fen;
use crate::chess::runner::{MovePicker, Reply};
use crate::chess::variants::{self, Variant};
use crate::exec::{Choice, ExecutorKind};

/// Arguments of `move`.
#[derive(Args, Debug)]
pub struct MoveArgs {
    /// The position, as a FEN (six fields, or four without the clocks).
    #[arg(long, allow_hyphen_values = true)]
    fen: String,
    /// Which executor runs the rules.
    #[arg(long, default_value = "fast")]
    executor: ExecutorKind,
    /// The search variant: 2ply, 2ply-q or 2ply-qe (contracts in `src/chess/mod.rs`).
    #[arg(long, default_value = "2ply")]
    search: String,
    /// Cores for the fast executor: local rules on large states run on pieces of the
    /// state, one share per core (the result is the same).
    #[arg(long, default_value_t = 1, value_parser = super::parse_cores)]
    cores: usize,
}

/// The variant called `name`, or an error naming the known ones.
pub fn variant(name: &str) -> Result<&'static Variant, CliError> {
    variants::find(name).ok_or_else(|| {
        CliError(format!(
            "unknown search `{name}`; known: {}",
            variants::names().join(", ")
        ))
    })
}

/// Runs `move`.
pub fn run(args: MoveArgs) -> Result<(), CliError> {
    let fen: Fen = args.fen.parse()?;
    let variant = variant(&args.search)?;
    let reply =
        MovePicker::named(variant.program, Choice::new(args.executor, args.cores))?.run(&fen)?;
    let mut stdout = std::io::stdout().lock();
    match reply {
        Reply::Move(reply) => {
            writeln!(
                stdout,
                "{}\n{}\n{}",
                reply.mv, reply.fen_after, reply.status
            )?;
            if let Some(score) = reply.score {
                writeln!(stdout, "score {score}")?;
            }
            if let Some(depth) = reply.depth {
                writeln!(stdout, "depth {depth}")?;
            }
            if let Some(nodes) = reply.nodes {
                writeln!(stdout, "nodes {nodes}")?;
            }
            if !reply.pv.is_empty() {
                let pv: Vec<String> = reply.pv.iter().map(|m| m.to_string()).collect();
                writeln!(stdout, "pv {}", pv.join(" "))?;
            }
        }
        Reply::NoMove(status) => writeln!(stdout, "none\n{status}")?,
    }
    stdout.flush()?;
    Ok(())
}
