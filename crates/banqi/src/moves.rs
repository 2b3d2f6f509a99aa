//! A move and its text: two squares, `a0b0` for a step or capture from a0 to b0, the
//! same square twice (`a0a0`) for a flip.
//!
//! A flip's outcome (the piece revealed) is not part of the move: the player chooses the
//! square, the deal decides the piece, and whoever owns the deal tells it separately.

use std::fmt;
use std::str::FromStr;

use crate::square::{Square, SquareError};

/// A flip (`from == to`) or a one-step move, capture or cannon jump (`from != to`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Move {
    from: Square,
    to: Square,
}

impl Move {
    /// The move from `from` to `to` (a flip when they are equal).
    pub const fn new(from: Square, to: Square) -> Move {
        Move { from, to }
    }

    /// The flip of `square`.
    pub const fn flip(square: Square) -> Move {
        Move {
            from: square,
            to: square,
        }
    }

    /// Where it starts.
    pub const fn from(self) -> Square {
        self.from
    }

    /// Where it ends (its own square for a flip).
    pub const fn to(self) -> Square {
        self.to
    }

    /// Whether it is a flip.
    pub fn is_flip(self) -> bool {
        self.from == self.to
    }

    /// A 10-bit number (`from * 32 + to`), for tables and the transposition table.
    pub const fn code(self) -> u16 {
        (self.from.index() as u16) << 5 | self.to.index() as u16
    }

    /// The move a [`Move::code`] stands for.
    pub fn from_code(code: u16) -> Option<Move> {
        let from = Square::from_index((code >> 5) as usize & 31)?;
        let to = Square::from_index(code as usize & 31)?;
        (code < 1024).then_some(Move { from, to })
    }
}

impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.from, self.to)
    }
}

/// Why a text is not a move.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum MoveError {
    /// Not four characters.
    #[error(
        "`{0}` is not a move: a move is two squares, as `a0b0`, or one square twice for a flip, as `c2c2`"
    )]
    Length(String),
    /// A square is not on the board.
    #[error("in move `{0}`: {1}")]
    Square(String, SquareError),
}

impl FromStr for Move {
    type Err = MoveError;
    fn from_str(s: &str) -> Result<Move, MoveError> {
        if s.len() != 4 || !s.is_ascii() {
            return Err(MoveError::Length(s.to_string()));
        }
        let square = |t: &str| {
            t.parse::<Square>()
                .map_err(|e| MoveError::Square(s.to_string(), e))
        };
        Ok(Move::new(square(&s[..2])?, square(&s[2..])?))
    }
}
