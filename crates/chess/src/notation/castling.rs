//! Castling rights, as FEN's third field writes them (`KQkq`, or `-`).

use std::fmt;

use super::Color;

/// Castling rights.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Castling {
    /// White may castle on the king's side (`K`).
    pub white_king: bool,
    /// White may castle on the queen's side (`Q`).
    pub white_queen: bool,
    /// Black may castle on the king's side (`k`).
    pub black_king: bool,
    /// Black may castle on the queen's side (`q`).
    pub black_queen: bool,
}

impl Castling {
    /// Every right, with its letter, its king's home square and its rook's home square.
    pub(crate) const RIGHTS: [(char, Color, &'static str, &'static str); 4] = [
        ('K', Color::White, "e1", "h1"),
        ('Q', Color::White, "e1", "a1"),
        ('k', Color::Black, "e8", "h8"),
        ('q', Color::Black, "e8", "a8"),
    ];

    fn flags(&self) -> [bool; 4] {
        [
            self.white_king,
            self.white_queen,
            self.black_king,
            self.black_queen,
        ]
    }

    /// True when no side may castle.
    pub fn is_empty(&self) -> bool {
        self.flags() == [false; 4]
    }
}

impl fmt::Display for Castling {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.is_empty() {
            return f.write_str("-");
        }
        for ((letter, ..), on) in Castling::RIGHTS.iter().zip(self.flags()) {
            if on {
                write!(f, "{letter}")?;
            }
        }
        Ok(())
    }
}
