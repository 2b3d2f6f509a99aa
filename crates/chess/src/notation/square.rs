//! Squares, and where each stands in the programs' board texts: the one owner of square
//! names (`e4`), indices (`a1` = 0 to `h8` = 63, as the evaluation tables read them) and
//! board offsets (the 80-character board line and the 64-character compact board).

use std::fmt;
use std::str::FromStr;

/// The board line's stride: a rank's eight squares and two separators.
const STRIDE: usize = crate::board::STRIDE as usize;

/// A square, `a1` = 0 to `h8` = 63 (index = 8 * rank + file), as in the evaluation tables.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Square(u8);

impl Square {
    /// The square at `file` (0 = a) and `rank` (0 = rank 1), if both are below 8.
    pub fn new(file: u8, rank: u8) -> Option<Square> {
        (file < 8 && rank < 8).then(|| Square(rank * 8 + file))
    }

    /// The square of an index below 64.
    pub fn from_index(index: usize) -> Option<Square> {
        (index < 64).then_some(Square(index as u8))
    }

    /// The index, 0 to 63.
    pub fn index(self) -> usize {
        self.0 as usize
    }

    /// The file, 0 (a) to 7 (h).
    pub fn file(self) -> u8 {
        self.0 % 8
    }

    /// The rank, 0 (rank 1) to 7 (rank 8).
    pub fn rank(self) -> u8 {
        self.0 / 8
    }

    /// The square's offset in the programs' 80-character board line: eight ranks of eight
    /// squares from rank 8 down, each followed by two separator characters (see
    /// [`crate::board`]), so a step up or down the board is a stride of ten.
    pub fn board_offset(self) -> usize {
        (7 - self.rank() as usize) * STRIDE + self.file() as usize
    }

    /// The square at an offset of the 80-character board line, if the offset is one.
    pub fn from_board_offset(offset: usize) -> Option<Square> {
        let (from_top, file) = (offset / STRIDE, offset % STRIDE);
        (from_top < 8 && file < 8).then(|| Square((7 - from_top as u8) * 8 + file as u8))
    }

    /// The square's offset in the 64-character compact board (eight ranks of eight from
    /// rank 8 down, no separators).
    pub fn compact_offset(self) -> usize {
        (7 - self.rank() as usize) * 8 + self.file() as usize
    }

    /// The square `ranks` ranks up (negative: down) the board on the same file.
    pub fn up(self, ranks: i8) -> Option<Square> {
        let rank = self.rank() as i8 + ranks;
        (0..8)
            .contains(&rank)
            .then(|| Square(rank as u8 * 8 + self.file()))
    }
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}{}",
            (b'a' + self.file()) as char,
            (b'1' + self.rank()) as char
        )
    }
}

impl FromStr for Square {
    type Err = ();
    /// Parses `a1` to `h8`.
    fn from_str(s: &str) -> Result<Square, ()> {
        match s.as_bytes() {
            &[file @ b'a'..=b'h', rank @ b'1'..=b'8'] => {
                Square::new(file - b'a', rank - b'1').ok_or(())
            }
            _ => Err(()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_indices_and_offsets_agree() {
        for index in 0..64 {
            let square = Square::from_index(index).unwrap();
            let name = square.to_string();
            assert_eq!(name.parse::<Square>(), Ok(square));
            assert_eq!(
                Square::from_board_offset(square.board_offset()),
                Some(square)
            );
            assert!(square.compact_offset() < 64);
        }
        let e4: Square = "e4".parse().unwrap();
        assert_eq!(
            (e4.index(), e4.board_offset(), e4.compact_offset()),
            (28, 44, 36)
        );
        assert_eq!(Square::from_board_offset(8), None, "a separator");
        assert_eq!(Square::from_board_offset(80), None, "past the board");
    }
}
