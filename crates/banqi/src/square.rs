//! The 32 squares of the 4 x 8 board and the `u32` bitboards over them.
//!
//! A square is a file `a`..`h` and a rank `0`..`3`, numbered `rank * 8 + file`, so bit `n`
//! of a [`Bitboard`] is square `n`. The neighbours of every square (one orthogonal step)
//! are a table built at compile time; the trade-off is 128 bytes of table for a load
//! instead of four edge tests on the move generator's hottest path.

use std::fmt;
use std::str::FromStr;

/// Files on the board (`a`..`h`).
pub const FILES: u8 = 8;
/// Ranks on the board (`0`..`3`).
pub const RANKS: u8 = 4;
/// Squares on the board.
pub const SQUARES: usize = 32;

/// One square of the board; always one of the 32.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Square(u8);

/// The four orthogonal directions as (file, rank) steps.
pub const DIRECTIONS: [(i8, i8); 4] = [(1, 0), (-1, 0), (0, 1), (0, -1)];

const fn neighbour_table() -> [u32; SQUARES] {
    let mut table = [0u32; SQUARES];
    let mut i = 0;
    while i < SQUARES {
        let (file, rank) = ((i % 8) as i8, (i / 8) as i8);
        let mut d = 0;
        while d < 4 {
            let (f, r) = (file + DIRECTIONS[d].0, rank + DIRECTIONS[d].1);
            if f >= 0 && f < FILES as i8 && r >= 0 && r < RANKS as i8 {
                table[i] |= 1 << (r * 8 + f);
            }
            d += 1;
        }
        i += 1;
    }
    table
}

static NEIGHBOURS: [u32; SQUARES] = neighbour_table();

impl Square {
    /// The square at `file` (0..8) and `rank` (0..4), if both are on the board.
    pub const fn new(file: u8, rank: u8) -> Option<Square> {
        if file < FILES && rank < RANKS {
            Some(Square(rank * FILES + file))
        } else {
            None
        }
    }

    /// The square numbered `index` (`rank * 8 + file`), if it is below 32.
    pub const fn from_index(index: usize) -> Option<Square> {
        if index < SQUARES {
            Some(Square(index as u8))
        } else {
            None
        }
    }

    /// Its number, `rank * 8 + file`.
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// Its file, 0 (`a`) to 7 (`h`).
    pub const fn file(self) -> u8 {
        self.0 % FILES
    }

    /// Its rank, 0 to 3.
    pub const fn rank(self) -> u8 {
        self.0 / FILES
    }

    /// Its bit in a bitboard.
    pub const fn bit(self) -> u32 {
        1 << self.0
    }

    /// The squares one orthogonal step away.
    pub fn neighbours(self) -> Bitboard {
        Bitboard(NEIGHBOURS[self.index()])
    }

    /// The square one step in direction `(df, dr)`, if it is on the board.
    pub fn offset(self, (df, dr): (i8, i8)) -> Option<Square> {
        let (f, r) = (self.file() as i8 + df, self.rank() as i8 + dr);
        if (0..FILES as i8).contains(&f) && (0..RANKS as i8).contains(&r) {
            Square::new(f as u8, r as u8)
        } else {
            None
        }
    }

    /// All 32 squares, a0 first.
    pub fn all() -> impl Iterator<Item = Square> {
        (0..SQUARES as u8).map(Square)
    }
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", (b'a' + self.file()) as char, self.rank())
    }
}

/// Why a square's text is not a square.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("`{0}` is not a square (files a..h, ranks 0..3, as in `c2`)")]
pub struct SquareError(pub String);

impl FromStr for Square {
    type Err = SquareError;
    fn from_str(s: &str) -> Result<Square, SquareError> {
        let bad = || SquareError(s.to_string());
        let &[file, rank] = s.as_bytes() else {
            return Err(bad());
        };
        let (file, rank) = (file.wrapping_sub(b'a'), rank.wrapping_sub(b'0'));
        Square::new(file, rank).ok_or_else(bad)
    }
}

/// A set of squares, bit `n` for square `n`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Bitboard(pub u32);

impl Bitboard {
    /// No square.
    pub const EMPTY: Bitboard = Bitboard(0);
    /// Every square.
    pub const FULL: Bitboard = Bitboard(u32::MAX);

    /// Whether `square` is in the set.
    pub const fn contains(self, square: Square) -> bool {
        self.0 & square.bit() != 0
    }

    /// How many squares are in the set.
    pub const fn count(self) -> u32 {
        self.0.count_ones()
    }

    /// Whether the set is empty.
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }
}

impl Iterator for Bitboard {
    type Item = Square;
    fn next(&mut self) -> Option<Square> {
        if self.0 == 0 {
            return None;
        }
        let index = self.0.trailing_zeros() as u8;
        self.0 &= self.0 - 1;
        Some(Square(index))
    }
}
