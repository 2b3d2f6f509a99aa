//! Sides, kinds of piece and pieces: the letters FEN and the programs' boards write them
//! with (`PNBRQK` white, `pnbrqk` black).

use std::fmt;

/// A side.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Color {
    /// White, who moves up the board (towards rank 8).
    White,
    /// Black.
    Black,
}

impl Color {
    /// The other side.
    pub fn other(self) -> Color {
        match self {
            Color::White => Color::Black,
            Color::Black => Color::White,
        }
    }

    /// The FEN letter: `w` or `b`.
    pub fn letter(self) -> char {
        match self {
            Color::White => 'w',
            Color::Black => 'b',
        }
    }
}

impl fmt::Display for Color {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Color::White => "white",
            Color::Black => "black",
        })
    }
}

/// A kind of piece, in the order of [`crate::weights::ROLES`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Role {
    /// Pawn (`P`).
    Pawn,
    /// Knight (`N`).
    Knight,
    /// Bishop (`B`).
    Bishop,
    /// Rook (`R`).
    Rook,
    /// Queen (`Q`).
    Queen,
    /// King (`K`).
    King,
}

impl Role {
    /// Every role, in table order.
    pub const ALL: [Role; 6] = [
        Role::Pawn,
        Role::Knight,
        Role::Bishop,
        Role::Rook,
        Role::Queen,
        Role::King,
    ];

    /// The role of a letter, either case.
    pub fn from_char(c: char) -> Option<Role> {
        match c.to_ascii_lowercase() {
            'p' => Some(Role::Pawn),
            'n' => Some(Role::Knight),
            'b' => Some(Role::Bishop),
            'r' => Some(Role::Rook),
            'q' => Some(Role::Queen),
            'k' => Some(Role::King),
            _ => None,
        }
    }

    /// The lower-case letter (`p`, `n`, ...), as UCI writes promotions.
    pub fn lower(self) -> char {
        b"pnbrqk"[self as usize] as char
    }

    /// The index of this role in the evaluation tables.
    pub fn index(self) -> usize {
        self as usize
    }
}

/// A piece: a side and a role.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Piece {
    /// Whose piece.
    pub color: Color,
    /// What piece.
    pub role: Role,
}

impl Piece {
    /// The piece of a FEN letter: upper case for white, lower case for black.
    pub fn from_char(c: char) -> Option<Piece> {
        let role = Role::from_char(c)?;
        let color = if c.is_ascii_uppercase() {
            Color::White
        } else {
            Color::Black
        };
        Some(Piece { color, role })
    }

    /// The FEN letter.
    pub fn char(self) -> char {
        match self.color {
            Color::White => self.role.lower().to_ascii_uppercase(),
            Color::Black => self.role.lower(),
        }
    }
}
