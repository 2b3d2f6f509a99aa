//! What can go wrong in a match: [`MatchError`], the one error type of the matchplay
//! layer.
//!
//! A player's error is not always the match's: when a player fails in the middle of a
//! game (no move, an engine that stops answering), the game ends in a forfeit whose
//! reason is the error's text ([`super::outcome::Termination::Forfeit`]); only a player
//! that cannot be built, or an openings file that cannot be read, stops the match.

use crate::runner::RunError;
use crate::uci::EngineError;
use regex_chess_chess::notation::fen::FenError;

/// Why a match, a game or a player could not go on.
#[derive(Debug, thiserror::Error)]
pub enum MatchError {
    /// A line of an openings file is not a legal position.
    #[error("line {line}: {problem}")]
    Opening {
        /// The line's number, from 1.
        line: usize,
        /// What is wrong with it.
        #[source]
        problem: Box<MatchError>,
    },
    /// shakmaty cannot read a FEN.
    #[error("bad FEN {fen:?}: {message}")]
    BadFen {
        /// The FEN.
        fen: String,
        /// shakmaty's reason.
        message: String,
    },
    /// shakmaty reads a FEN but the position is not legal.
    #[error("not a legal position {fen:?}: {message}")]
    IllegalPosition {
        /// The FEN.
        fen: String,
        /// shakmaty's reason.
        message: String,
    },
    /// The engine's own FEN reader refuses a position the referee wrote.
    #[error(transparent)]
    Fen(#[from] FenError),
    /// An outside engine could not be started.
    #[error("cannot start {path}: {source}")]
    Start {
        /// The engine's executable.
        path: String,
        /// Why.
        #[source]
        source: std::io::Error,
    },
    /// An outside engine's input could not be written.
    #[error("{path}: cannot write: {source}")]
    Write {
        /// The engine's executable.
        path: String,
        /// Why.
        #[source]
        source: std::io::Error,
    },
    /// An outside engine did not answer in time.
    #[error("{path}: no `{word}` within {seconds:.1}s")]
    Timeout {
        /// The engine's executable.
        path: String,
        /// The answer awaited.
        word: String,
        /// How long it was awaited.
        seconds: f64,
    },
    /// An outside engine closed its output.
    #[error("{path}: the engine ended (closed its output) before `{word}`")]
    Closed {
        /// The engine's executable.
        path: String,
        /// The answer awaited.
        word: String,
    },
    /// A UCI engine's `bestmove` named no move.
    #[error("{path}: `bestmove` without a move")]
    NoBestMove {
        /// The engine's executable.
        path: String,
    },
    /// An outside engine broke its protocol or refused what it was told.
    #[error("{path}: {message}")]
    Protocol {
        /// The engine's executable.
        path: String,
        /// What went wrong, in words.
        message: String,
    },
    /// A player had no legal move to choose from (adjudication ends such games first).
    #[error("no legal move")]
    NoLegalMove,
    /// The rules said there is no move in a position where there is one.
    #[error("{who} there is no move: {status}")]
    NoMove {
        /// `the engine says` or `the rules say`.
        who: &'static str,
        /// The status the rules gave.
        status: String,
    },
    /// The engine failed (its rules are missing or broke their contract).
    #[error(transparent)]
    Engine(#[from] EngineError),
    /// A search program failed.
    #[error(transparent)]
    Run(#[from] RunError),
    /// A line of a results file is not a match's result.
    #[error("results line {line}: {message}")]
    Results {
        /// The line's number, from 1.
        line: usize,
        /// What is wrong with it.
        message: String,
    },
    /// The bounds of a sequential probability ratio test make no test.
    #[error(transparent)]
    Sprt(#[from] regex_chess_arena::sprt::SprtError),
    /// A player's own reason (test players, or a player defined elsewhere).
    #[error("{0}")]
    Player(String),
}

impl MatchError {
    /// A player's failure in its own words.
    pub fn player(reason: impl Into<String>) -> MatchError {
        MatchError::Player(reason.into())
    }
}
