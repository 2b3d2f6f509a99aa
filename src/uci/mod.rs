//! The Universal Chess Interface: the protocol state machine and the engine behind it.
//!
//! [`Session`] reads one GUI line at a time and answers with the lines to print. Every
//! chess decision it needs goes through the [`Engine`] trait, which has two questions:
//!
//! - [`Engine::apply`]: the position after a move, or "illegal" (for the `moves` list of
//!   `position`);
//! - [`Engine::think`]: the engine's move in a position (for `go`).
//!
//! The binary only ever uses [`RulesEngine`], whose answers come from the compiled rule
//! programs (`apply-move` and `move`): native code builds their input states and reads
//! their output states, nothing more. Tests may drive [`Session`] with a stand-in engine
//! of their own to check the protocol; no such engine exists in the library.
//!
//! # What the session does with each command
//!
//! | command | answer |
//! | --- | --- |
//! | `uci` | `id name`, `id author`, the `Executor` option, `uciok` |
//! | `isready` | builds the rule programs if not yet built (errors as `info string`), then `readyok` |
//! | `ucinewgame` | back to the starting position |
//! | `setoption name Executor value fast\|reference` | the next answers come from that executor |
//! | `position startpos\|fen <FEN> [moves ...]` | the position after the moves, each applied by the rules; a bad FEN or an illegal move keeps the previous position and says why in `info string` |
//! | `go ...` | `info depth 2 ...` and `bestmove <uci>` (`bestmove 0000` when there is no move or the rules failed); the search depth is fixed, time controls are read and ignored, which an `info string` says |
//! | `go infinite` / `go ponder ...` | the move is found at once but `bestmove` waits for `stop` (or `ponderhit`), as the protocol asks |
//! | `stop`, `ponderhit` | print a held `bestmove`, if any |
//! | `quit` | the session ends |
//! | `debug`, `register` | accepted, nothing to do |
//! | anything else, or a malformed line | `info string` saying so; the line is ignored |

mod rules;
mod session;

pub use rules::{APPLY_MOVE, ApplyMove, RulesEngine, parse_apply_output};
pub use session::{ENGINE_AUTHOR, ENGINE_NAME, SEARCH_DEPTH, Session};

use crate::chess::fen::Fen;
use crate::chess::runner::{Reply, RunError};
use crate::chess::uci::UciMove;

/// Why the engine could not answer: the rules are missing or broke their contract.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct EngineError(pub String);

impl From<RunError> for EngineError {
    fn from(e: RunError) -> EngineError {
        EngineError(e.to_string())
    }
}

/// The engine's move and what it says about its search.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Thought {
    /// The move and the position after it, or why there is no move.
    pub reply: Reply,
    /// The number of positions the rules examined, when the program reports it.
    pub nodes: Option<u64>,
    /// The score of the chosen move in centipawns from the mover's view, when the
    /// program reports it.
    pub score_cp: Option<i32>,
}

/// The questions the UCI session and the match tool ask of an engine.
pub trait Engine: Send + Sync {
    /// Gets ready to answer (builds the rule programs, say). Called on `isready`; the
    /// other methods must work without it too.
    fn prepare(&self) -> Result<(), EngineError> {
        Ok(())
    }

    /// The position after `mv` in `fen`, or `None` when `mv` is not legal there.
    fn apply(&self, fen: &Fen, mv: UciMove) -> Result<Option<Fen>, EngineError>;

    /// The engine's move in `fen`.
    fn think(&self, fen: &Fen) -> Result<Thought, EngineError>;
}
