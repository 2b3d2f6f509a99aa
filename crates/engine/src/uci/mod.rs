//! The Universal Chess Interface: the protocol state machine and the engine behind it.
//!
//! [`Session`] reads one GUI line at a time and answers with the lines to print. Every
//! chess decision it needs goes through the [`Engine`] trait, which has two questions:
//!
//! - [`Engine::apply`]: the position after a move, or "illegal" (for the `moves` list of
//!   `position`);
//! - [`Engine::think`]: the engine's move in a position (for `go`).
//!
//! The modules: [`command`] reads a line into a typed command, [`options`] holds the
//! options' values, [`clock`] plans each search from the limits, `session` answers
//! (formatting its lines in one module and guarding every command against panics),
//! [`report`] and [`perft`] serve `go` and `go perft`, `rules` is the engine of the
//! binary.
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
//! | `uci` | `id name`, `id author`, the options, `uciok` |
//! | `isready` | builds the rule programs if not yet built (errors as `info string`), then `readyok` |
//! | `ucinewgame` | back to the starting position |
//! | `setoption name <name> [value <value>]` | `Executor` (`fast`/`reference`), `Threads`, `Hash`, `Move Overhead`, `MultiPV`, `Ponder`, `Search` (`auto` or a variant; see `session`) |
//! | `position startpos\|fen <FEN> [moves ...]` | the position after the moves, each applied by the rules; at the first illegal or malformed move the legal prefix is kept and one `info string` says so; a refused FEN or setup leaves no position: the next `go` answers `bestmove (none)` with an `info string` saying why |
//! | `go ...` | the `Search` option's variant, or with `auto` a compiled search chosen by [`clock`] from the limits (with an ample budget, a deeper variant after it, cut at the budget's end or by `stop`); `info depth .. score .. nodes .. nps .. time .. pv ..` from the rules' [`report`], then `bestmove <uci> [ponder <uci>]`; `bestmove (none)` after `info depth 0 score mate 0` (mated) or `score cp 0` (stalemate), or after an `info string` error (a panic in the engine's run, a helper core's included, is such an error: the session goes on) |
//! | `go infinite` / `go ponder ...` | the cheapest variant's move first, then the chosen variant's search, which `stop`, `ucinewgame`, another `go`, `quit`, `bench` or the end of the input cut short ([`Session::handle_until`]); `bestmove` (the chosen variant's move, or the cheapest one's when cut) waits for one of those or `ponderhit`: exactly one `bestmove` a `go` |
//! | `go perft <depth>` | the leaf count under each legal move and `Nodes searched`, from the rules' move generation ([`perft`]) |
//! | `bench` | the default search on the built-in bench suite (`data/positions/bench.txt`); `Nodes searched` and `Nodes/second` as Stockfish prints them |
//! | `stop`, `ponderhit` | print a held `bestmove`, if any |
//! | `quit` | print a held `bestmove`, if any; the session ends |
//! | `debug`, `register` | accepted, nothing to do |
//! | anything else, or a malformed line | `info string` saying so; the line is ignored |

pub mod clock;
pub mod command;
mod format;
mod guard;
pub mod options;
pub mod perft;
pub mod report;
mod rules;
mod session;

pub use report::{Score, SearchReport};
pub use rules::{APPLY_MOVE, ApplyMove, CHILDREN, RulesEngine, parse_apply_output};
pub use session::{ENGINE_AUTHOR, ENGINE_NAME, Session, cuts_a_search};

use crate::reply::Reply;
use crate::runner::{RulesInput, RunError};
use crate::variants::Search;
use regex_chess_chess::notation::fen::Fen;
use regex_chess_chess::notation::uci::UciMove;

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
    /// What the rules reported about the search (every field may be missing).
    pub report: SearchReport,
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

    /// The engine's move in `fen`, found by the default variant
    /// ([`Search::default_play`]).
    fn think(&self, fen: &Fen) -> Result<Thought, EngineError> {
        self.think_with(fen, Search::default_play())
    }

    /// The engine's move in `fen`, found by `variant`.
    fn think_with(&self, fen: &Fen, variant: Search) -> Result<Thought, EngineError>;

    /// The engine's move in `fen`, found by `variant`, in a game whose earlier positions
    /// and root-move restriction `input` gives (see "Rules input" in `crates/chess/src/lib.rs`).
    /// Engines that cannot use them answer as [`Engine::think_with`].
    fn think_given(
        &self,
        fen: &Fen,
        input: &RulesInput,
        variant: Search,
    ) -> Result<Thought, EngineError> {
        let _ = input;
        self.think_with(fen, variant)
    }

    /// [`Engine::think_given`], with the root moves ranked in the report
    /// ([`SearchReport::multipv`]) when `ranked` and the engine can rank them, asking `stop`
    /// while it searches: `Ok(None)` when `stop` answered true before the search ended
    /// (the rules' run was cut). By default nothing is ranked and the search is never cut.
    fn think_until(
        &self,
        fen: &Fen,
        input: &RulesInput,
        variant: Search,
        ranked: bool,
        stop: &dyn Fn() -> bool,
    ) -> Result<Option<Thought>, EngineError> {
        let _ = (ranked, stop);
        self.think_given(fen, input, variant).map(Some)
    }

    /// Every legal move of `fen` with the position after it, for `go perft`. Engines
    /// without a move generator say so.
    fn children(&self, _fen: &Fen) -> Result<Vec<(UciMove, Fen)>, EngineError> {
        Err(EngineError(
            "this engine has no move generator for perft".to_string(),
        ))
    }
}
