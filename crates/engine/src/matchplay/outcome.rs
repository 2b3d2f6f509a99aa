//! How a game ended ([`Termination`]) and who won ([`Outcome`]): what adjudication
//! (`game`), the pathology counters and the reports all speak of.

use shakmaty::Color;

/// How a game ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Termination {
    /// The side to move was mated.
    Checkmate,
    /// The side to move had no move and was not in check.
    Stalemate,
    /// Neither side could mate.
    InsufficientMaterial,
    /// The same position a third time.
    Repetition,
    /// A hundred halfmoves without a capture or a pawn move.
    FiftyMoves,
    /// The move cap was reached.
    MoveCap,
    /// A player named an illegal move, or none, or failed: it loses.
    Forfeit(String),
}

impl Termination {
    /// A short description for reports and PGN comments.
    pub fn describe(&self) -> String {
        match self {
            Termination::Checkmate => "checkmate".to_string(),
            Termination::Stalemate => "stalemate".to_string(),
            Termination::InsufficientMaterial => "insufficient material".to_string(),
            Termination::Repetition => "threefold repetition".to_string(),
            Termination::FiftyMoves => "fifty-move rule".to_string(),
            Termination::MoveCap => "move cap".to_string(),
            Termination::Forfeit(why) => format!("forfeit: {why}"),
        }
    }

    /// The category used for counting terminations.
    pub fn kind(&self) -> &'static str {
        match self {
            Termination::Checkmate => "checkmate",
            Termination::Stalemate => "stalemate",
            Termination::InsufficientMaterial => "insufficient material",
            Termination::Repetition => "threefold repetition",
            Termination::FiftyMoves => "fifty-move rule",
            Termination::MoveCap => "move cap",
            Termination::Forfeit(_) => "forfeit",
        }
    }
}

/// Who won.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// This side won.
    Win(Color),
    /// A draw.
    Draw,
}

impl Outcome {
    /// The PGN result: `1-0`, `0-1` or `1/2-1/2`.
    pub fn pgn(self) -> &'static str {
        match self {
            Outcome::Win(Color::White) => "1-0",
            Outcome::Win(Color::Black) => "0-1",
            Outcome::Draw => "1/2-1/2",
        }
    }
}
