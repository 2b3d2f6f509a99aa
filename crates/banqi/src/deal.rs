//! A deal: which piece lies under each face-down square. It belongs to whoever runs the
//! game (the terminal game, a match, a test), never to the engine, which sees only what
//! each flip revealed.
//!
//! A deal is a seeded shuffle of the 32 pieces, or, from any position, of the pool's
//! pieces over its face-down squares ([`Deal::for_position`]).

use crate::piece::Piece;
use crate::position::Position;
use crate::rng::Rng;
use crate::square::{SQUARES, Square};

/// The piece under each square (meaningful for face-down squares only).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Deal {
    under: [Option<Piece>; SQUARES],
}

impl Deal {
    /// A shuffle of the 32 pieces from `seed`.
    pub fn shuffled(seed: u64) -> Deal {
        Deal::for_position(&Position::start(), seed)
    }

    /// A shuffle of `position`'s pool over its face-down squares, from `seed`.
    pub fn for_position(position: &Position, seed: u64) -> Deal {
        let mut rng = Rng::new(seed);
        let mut pieces: Vec<Piece> = position
            .pool()
            .outcomes()
            .flat_map(|(piece, n)| std::iter::repeat_n(piece, n as usize))
            .collect();
        for i in (1..pieces.len()).rev() {
            pieces.swap(i, rng.below(i + 1));
        }
        let mut under = [None; SQUARES];
        for (square, piece) in position.face_down().zip(pieces) {
            under[square.index()] = Some(piece);
        }
        Deal { under }
    }

    /// A deal from the piece under each square.
    pub fn from_pieces(under: [Option<Piece>; SQUARES]) -> Deal {
        Deal { under }
    }

    /// The piece under `square`, if the deal put one there.
    pub fn under(&self, square: Square) -> Option<Piece> {
        self.under[square.index()]
    }
}
