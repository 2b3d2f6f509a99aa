//! Colours, kinds and pieces, and who may capture whom.
//!
//! Kinds are listed in the pool's order, G A E R H C S (general, advisor, elephant,
//! chariot, horse, cannon, soldier); a piece is a colour and a kind, numbered
//! `colour * 7 + kind` (0..14) so tables index by it. Capture by stepping is a table of
//! kind sets: a kind takes equal or lower ranks of the ladder General > Advisor >
//! Elephant > Chariot > Horse > Soldier, the soldier also takes the general, the general
//! never takes a soldier, and every kind but the soldier takes a cannon by stepping. The
//! cannon itself takes only by jumping (see `movegen`).

use std::fmt;

/// A side.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Colour {
    /// Upper-case letters.
    Red = 0,
    /// Lower-case letters.
    Black = 1,
}

impl Colour {
    /// The other side.
    pub const fn other(self) -> Colour {
        match self {
            Colour::Red => Colour::Black,
            Colour::Black => Colour::Red,
        }
    }

    /// 0 for red, 1 for black.
    pub const fn index(self) -> usize {
        self as usize
    }

    /// Both colours, red first.
    pub const ALL: [Colour; 2] = [Colour::Red, Colour::Black];

    /// Its letter in the position string's turn field: `r` or `b`.
    pub const fn letter(self) -> char {
        match self {
            Colour::Red => 'r',
            Colour::Black => 'b',
        }
    }
}

impl fmt::Display for Colour {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Colour::Red => "red",
            Colour::Black => "black",
        })
    }
}

/// A kind of piece, in the pool's order.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Kind {
    /// G: captures all but soldiers.
    General = 0,
    /// A.
    Advisor = 1,
    /// E.
    Elephant = 2,
    /// R.
    Chariot = 3,
    /// H.
    Horse = 4,
    /// C: captures by jumping a screen only.
    Cannon = 5,
    /// S: captures soldiers and the general.
    Soldier = 6,
}

/// Kinds in the pool's order.
pub const KINDS: [Kind; 7] = [
    Kind::General,
    Kind::Advisor,
    Kind::Elephant,
    Kind::Chariot,
    Kind::Horse,
    Kind::Cannon,
    Kind::Soldier,
];

const fn kinds_mask(kinds: &[Kind]) -> u8 {
    let mut mask = 0;
    let mut i = 0;
    while i < kinds.len() {
        mask |= 1 << kinds[i] as u8;
        i += 1;
    }
    mask
}

use Kind::{
    Advisor as A, Cannon as C, Chariot as R, Elephant as E, General as G, Horse as H, Soldier as S,
};

/// For each kind, the set (bit per kind) of kinds it captures by stepping.
static STEP_CAPTURES: [u8; 7] = [
    kinds_mask(&[G, A, E, R, H, C]),
    kinds_mask(&[A, E, R, H, C, S]),
    kinds_mask(&[E, R, H, C, S]),
    kinds_mask(&[R, H, C, S]),
    kinds_mask(&[H, C, S]),
    0,
    kinds_mask(&[G, S]),
];

impl Kind {
    /// 0..7 in the pool's order.
    pub const fn index(self) -> usize {
        self as usize
    }

    /// How many of this kind each side has at the start.
    pub const fn start_count(self) -> u8 {
        match self {
            Kind::General => 1,
            Kind::Soldier => 5,
            _ => 2,
        }
    }

    /// Whether a piece of this kind captures `target` by stepping onto it.
    pub const fn steps_onto(self, target: Kind) -> bool {
        STEP_CAPTURES[self as usize] & (1 << target as u8) != 0
    }

    /// The upper-case letter (red's).
    pub const fn letter(self) -> char {
        ['G', 'A', 'E', 'R', 'H', 'C', 'S'][self as usize]
    }

    /// The kind an upper- or lower-case letter names.
    pub fn from_letter(letter: char) -> Option<Kind> {
        KINDS
            .into_iter()
            .find(|kind| kind.letter() == letter.to_ascii_uppercase())
    }

    /// Its English name.
    pub const fn name(self) -> &'static str {
        [
            "general", "advisor", "elephant", "chariot", "horse", "cannon", "soldier",
        ][self as usize]
    }
}

/// A piece: a colour and a kind.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Piece {
    /// Its side.
    pub colour: Colour,
    /// Its kind.
    pub kind: Kind,
}

impl Piece {
    /// The 14 pieces, red's seven kinds then black's.
    pub const ALL: [Piece; 14] = {
        let mut all = [Piece {
            colour: Colour::Red,
            kind: Kind::General,
        }; 14];
        let mut i = 0;
        while i < 14 {
            all[i] = Piece {
                colour: if i < 7 { Colour::Red } else { Colour::Black },
                kind: KINDS[i % 7],
            };
            i += 1;
        }
        all
    };

    /// A piece of `colour` and `kind`.
    pub const fn new(colour: Colour, kind: Kind) -> Piece {
        Piece { colour, kind }
    }

    /// `colour * 7 + kind`, 0..14.
    pub const fn index(self) -> usize {
        self.colour as usize * 7 + self.kind as usize
    }

    /// The piece numbered `index` (0..14).
    pub fn from_index(index: usize) -> Option<Piece> {
        Piece::ALL.get(index).copied()
    }

    /// Its letter: upper case red, lower case black.
    pub fn letter(self) -> char {
        match self.colour {
            Colour::Red => self.kind.letter(),
            Colour::Black => self.kind.letter().to_ascii_lowercase(),
        }
    }

    /// The piece a letter names (G A E R H C S, upper case red, lower case black).
    pub fn from_letter(letter: char) -> Option<Piece> {
        let kind = Kind::from_letter(letter)?;
        let colour = if letter.is_ascii_uppercase() {
            Colour::Red
        } else {
            Colour::Black
        };
        Some(Piece { colour, kind })
    }
}

impl fmt::Display for Piece {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.letter())
    }
}
