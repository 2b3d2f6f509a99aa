//! `regex-chess move`: the engine's move for a FEN, chosen and played by the `move` rules.
//!
//! Prints the move in UCI on the first line, the FEN after it on the second and the
//! rules' verdict on that position (`ongoing`, `checkmate`, `stalemate`, `fifty-move`,
//! `insufficient-material`) on the third. When the side to move has no legal move it
//! prints `none` and the verdict (`checkmate` or `stalemate`) on two lines. After a move,
//! the search's report follows as the rules wrote it: `score cp|mate <int>`, `depth
//! <plies>`, `nodes <count>` and `pv <uci> ...`, one a line. `--search NAME` picks the
//! variant ([`regex_chess_engine::Search`]); the default is the benchmark's, the
//! 2-ply `move` program.
//! `--history FEN` (repeated, oldest first) gives the game's earlier positions and
//! `--searchmoves UCI ...` the moves the search may choose among: the rules read both
//! (see "Rules input" in `crates/chess/src/lib.rs`).

use std::io::Write;

use clap::Args;

use super::CliError;
use super::engine_args::EngineArgs;
use regex_chess_chess::notation::fen::Fen;
use regex_chess_engine::reply::Reply;
use regex_chess_engine::runner::{MovePicker, RulesInput};
use regex_chess_engine::{Output, Search};

/// Arguments of `move`.
#[derive(Args, Debug)]
pub struct MoveArgs {
    /// The position, as a FEN (six fields, or four without the clocks).
    #[arg(long, allow_hyphen_values = true)]
    fen: String,
    #[command(flatten)]
    engine: EngineArgs,
    /// An earlier position of the game (repeat the option, oldest first): the search
    /// scores a move back to one of them as a draw.
    #[arg(long, value_name = "FEN", allow_hyphen_values = true)]
    history: Vec<String>,
    /// The moves the search may choose among (UCI); ignored when none of them is legal.
    #[arg(long, value_name = "UCI", num_args = 1..)]
    searchmoves: Vec<String>,
}

/// Runs `move`.
pub fn run(args: MoveArgs) -> Result<(), CliError> {
    let fen: Fen = args.fen.parse()?;
    let search = args.engine.search_or(Search::benchmark());
    let mut input = RulesInput::default();
    for text in &args.history {
        input.history.push(text.parse()?);
    }
    for text in &args.searchmoves {
        input.searchmoves.push(
            text.parse()
                .map_err(|e| CliError(format!("--searchmoves {text}: {e}")))?,
        );
    }
    let picker = MovePicker::of(search, Output::Move, args.engine.choice())?;
    super::warn(picker.warnings());
    let reply = picker.run_with(&fen, &input)?;
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
    super::leak_at_exit(picker);
    Ok(())
}
