//! A game: a position with its history, the draw rules and the result.
//!
//! The game checks every move against the legal moves and every flip's piece against the
//! pool, keeps the moves played (with what each flip revealed) and the keys of the
//! positions since the last flip or capture, and ends: a side with no legal move loses;
//! otherwise a draw after [`DrawRules::no_progress`] plies without flip or capture, or at
//! the third occurrence of a position (board, pool, side) since the last flip or capture.
//! Both counters restart at a flip or a capture, since neither can be undone.

use std::fmt;

use crate::movegen::MoveList;
use crate::moves::Move;
use crate::piece::{Colour, Piece};
use crate::position::Position;

/// The draw rule in force: plies without a flip or capture that draw the game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DrawRules {
    /// Plies without flip or capture that draw (40 by default).
    pub no_progress: u16,
}

impl DrawRules {
    /// Mistboard's: 40 plies.
    pub const MISTBOARD: DrawRules = DrawRules { no_progress: 40 };
    /// The course arena's: 60 plies.
    pub const COURSE: DrawRules = DrawRules { no_progress: 60 };
    /// The Computer Olympiad's: 180 plies.
    pub const OLYMPIAD: DrawRules = DrawRules { no_progress: 180 };
}

impl Default for DrawRules {
    fn default() -> DrawRules {
        DrawRules::MISTBOARD
    }
}

/// How a game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// The loser, to move, had no legal move.
    Win(Colour),
    /// No flip or capture for this many plies.
    DrawNoProgress(u16),
    /// The same position a third time.
    DrawRepetition,
}

impl Outcome {
    /// The winner, if any.
    pub fn winner(self) -> Option<Colour> {
        match self {
            Outcome::Win(colour) => Some(colour),
            _ => None,
        }
    }
}

impl fmt::Display for Outcome {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Outcome::Win(c) => write!(f, "{c} wins: {} has no legal move", c.other()),
            Outcome::DrawNoProgress(n) => write!(f, "draw: {n} plies without a flip or capture"),
            Outcome::DrawRepetition => f.write_str("draw: the same position a third time"),
        }
    }
}

/// Why a move was refused (the game is unchanged).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PlayError {
    /// The game has ended.
    #[error("the game is over ({0})")]
    Over(Outcome),
    /// Not a legal move here.
    #[error("`{0}` is not a legal move here")]
    Illegal(Move),
    /// A flip without the piece it revealed.
    #[error("the flip `{0}` needs the piece it revealed")]
    FlipWithoutPiece(Move),
    /// A flip revealing a piece that is not face-down any more.
    #[error("the flip `{mv}` cannot reveal `{piece}`: none is face-down")]
    NotInPool {
        /// The flip.
        mv: Move,
        /// The piece.
        piece: Piece,
    },
}

/// A game in progress or ended.
#[derive(Clone, Debug)]
pub struct Game {
    start: Position,
    position: Position,
    moves: Vec<(Move, Option<Piece>)>,
    since_reset: Vec<u64>,
    rules: DrawRules,
    outcome: Option<Outcome>,
}

impl Game {
    /// A game from the start.
    pub fn new(rules: DrawRules) -> Game {
        Game::from_position(Position::start(), rules)
    }

    /// A game from `position` (with no earlier history).
    pub fn from_position(position: Position, rules: DrawRules) -> Game {
        let mut game = Game {
            start: position,
            position,
            moves: Vec::new(),
            since_reset: vec![position.hash()],
            rules,
            outcome: None,
        };
        game.outcome = game.judge();
        game
    }

    /// The position now.
    pub fn position(&self) -> &Position {
        &self.position
    }

    /// The position the game started from.
    pub fn start(&self) -> &Position {
        &self.start
    }

    /// The moves played, each flip with the piece it revealed.
    pub fn moves(&self) -> &[(Move, Option<Piece>)] {
        &self.moves
    }

    /// The draw rules.
    pub fn rules(&self) -> DrawRules {
        self.rules
    }

    /// The keys of the positions since the last flip or capture, the current one last.
    pub fn since_reset(&self) -> &[u64] {
        &self.since_reset
    }

    /// How it ended, if it has.
    pub fn outcome(&self) -> Option<Outcome> {
        self.outcome
    }

    /// The colour of whoever moved first (decided by the first flip).
    pub fn first_colour(&self) -> Option<Colour> {
        self.moves
            .first()
            .and_then(|&(_, piece)| piece)
            .map(|p| p.colour)
    }

    /// The legal moves now (none once the game is over).
    pub fn legal_moves(&self) -> Vec<Move> {
        if self.outcome.is_some() {
            return Vec::new();
        }
        let mut list = MoveList::new();
        self.position.legal_moves(&mut list);
        list.as_slice().to_vec()
    }

    /// Plays `mv`; a flip needs `revealed`, the piece the deal shows (ignored otherwise).
    pub fn play(&mut self, mv: Move, revealed: Option<Piece>) -> Result<(), PlayError> {
        if let Some(outcome) = self.outcome {
            return Err(PlayError::Over(outcome));
        }
        if !self.legal_moves().contains(&mv) {
            return Err(PlayError::Illegal(mv));
        }
        let revealed = if mv.is_flip() {
            let piece = revealed.ok_or(PlayError::FlipWithoutPiece(mv))?;
            if self.position.pool().count(piece) == 0 {
                return Err(PlayError::NotInPool { mv, piece });
            }
            Some(piece)
        } else {
            None
        };
        let reset = mv.is_flip() || self.position.is_capture(mv);
        self.position.play_unchecked(mv, revealed);
        self.moves.push((mv, revealed));
        if reset {
            self.since_reset.clear();
        }
        self.since_reset.push(self.position.hash());
        self.outcome = self.judge();
        Ok(())
    }

    fn judge(&self) -> Option<Outcome> {
        if !self.position.has_legal_move() {
            let loser = self.position.turn()?;
            return Some(Outcome::Win(loser.other()));
        }
        if self.position.clock() >= self.rules.no_progress {
            return Some(Outcome::DrawNoProgress(self.rules.no_progress));
        }
        let now = self.position.hash();
        if self.since_reset.iter().filter(|&&h| h == now).count() >= 3 {
            return Some(Outcome::DrawRepetition);
        }
        None
    }
}
