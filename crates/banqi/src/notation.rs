//! The position string `<board> <turn> <pool> <clock> <movenum>` (MistyBanqi's), read
//! and written.
//!
//! Board: ranks 3 to 0 separated by `/`, files a..h; a revealed piece is its letter
//! (upper case red, lower case black), a face-down piece `X`, a run of empty squares a
//! digit. Turn: `r`, `b`, or `-` before the first flip. Pool: letter-count pairs, red
//! then black in the order G A E R H C S, kinds with none left out, or `-`. Then the
//! plies since the last flip or capture, and the move number.
//!
//! Reading is strict so that reading and writing round-trip exactly: only the canonical
//! spelling is accepted (no two digits in a row, no zero counts, the pool in order), and
//! every refusal names what is wrong. The read position goes through
//! [`Position::new`], so an impossible position is refused too.

use std::fmt;
use std::str::FromStr;

use crate::piece::{Colour, Piece};
use crate::pool::Pool;
use crate::position::{Cell, Position, PositionError};
use crate::square::{SQUARES, Square};

/// Why a text is not a position string.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum NotationError {
    /// Not five fields.
    #[error(
        "a position has 5 fields separated by spaces (board, turn, pool, clock, move number); found {0}"
    )]
    Fields(usize),
    /// Not four ranks.
    #[error("the board has 4 ranks separated by `/`; found {0}")]
    Ranks(usize),
    /// A rank of the wrong width.
    #[error("rank {rank} (`{text}`) covers {width} squares, not 8")]
    Width {
        /// The rank (3 is written first).
        rank: u8,
        /// Its text.
        text: String,
        /// Squares it covers.
        width: usize,
    },
    /// A character that is neither a piece, `X` nor a digit 1..8.
    #[error(
        "rank {rank} (`{text}`): `{found}` is not a piece letter (GAERHCS, gaerhcs), `X` or a digit 1..8"
    )]
    BoardChar {
        /// The rank.
        rank: u8,
        /// Its text.
        text: String,
        /// The character.
        found: char,
    },
    /// Two digits in a row.
    #[error(
        "rank {rank} (`{text}`): two digits in a row (write one run of empty squares as one digit)"
    )]
    Digits {
        /// The rank.
        rank: u8,
        /// Its text.
        text: String,
    },
    /// The turn field.
    #[error("the turn is `{0}`; it must be `r`, `b` or `-`")]
    Turn(String),
    /// The pool field.
    #[error(
        "the pool `{text}`: {why} (write letter-count pairs, red then black in the order GAERHCS, as `G1A2s5`, or `-`)"
    )]
    Pool {
        /// The field.
        text: String,
        /// What is wrong.
        why: String,
    },
    /// The clock or the move number.
    #[error("the {field} `{text}` is not a whole number up to 65535")]
    Number {
        /// Which field.
        field: &'static str,
        /// Its text.
        text: String,
    },
    /// Read, but impossible.
    #[error("impossible position: {0}")]
    Impossible(#[from] PositionError),
}

fn parse_rank(rank: u8, text: &str, cells: &mut [Cell; SQUARES]) -> Result<(), NotationError> {
    let mut file = 0usize;
    let mut last_digit = false;
    let mut squares = Vec::with_capacity(8);
    for c in text.chars() {
        match c {
            '1'..='8' => {
                if last_digit {
                    return Err(NotationError::Digits {
                        rank,
                        text: text.into(),
                    });
                }
                let n = c as usize - '0' as usize;
                squares.extend(std::iter::repeat_n(Cell::Empty, n));
                file += n;
                last_digit = true;
                continue;
            }
            'X' => squares.push(Cell::FaceDown),
            _ => match Piece::from_letter(c) {
                Some(piece) if c != 'x' => squares.push(Cell::Revealed(piece)),
                _ => {
                    return Err(NotationError::BoardChar {
                        rank,
                        text: text.into(),
                        found: c,
                    });
                }
            },
        }
        file += 1;
        last_digit = false;
    }
    if file != 8 {
        return Err(NotationError::Width {
            rank,
            text: text.into(),
            width: file,
        });
    }
    for (f, cell) in squares.into_iter().enumerate() {
        let square = Square::new(f as u8, rank).unwrap_or_else(|| unreachable!());
        cells[square.index()] = cell;
    }
    Ok(())
}

fn parse_pool(text: &str) -> Result<Pool, NotationError> {
    let bad = |why: String| NotationError::Pool {
        text: text.into(),
        why,
    };
    let mut counts = [0u8; 14];
    if text == "-" {
        return Ok(Pool::EMPTY);
    }
    let chars: Vec<char> = text.chars().collect();
    if !chars.len().is_multiple_of(2) {
        return Err(bad("an odd number of characters".into()));
    }
    let mut last: Option<usize> = None;
    for pair in chars.chunks(2) {
        let piece = Piece::from_letter(pair[0])
            .filter(|_| pair[0] != 'x')
            .ok_or_else(|| bad(format!("`{}` is not a piece letter", pair[0])))?;
        let count = pair[1].to_digit(10).filter(|&n| n > 0).ok_or_else(|| {
            bad(format!(
                "`{}` after `{}` is not a count 1..9",
                pair[1], pair[0]
            ))
        })?;
        if last.is_some_and(|l| l >= piece.index()) {
            return Err(bad(format!("`{}` is out of order or repeated", pair[0])));
        }
        last = Some(piece.index());
        counts[piece.index()] = count as u8;
    }
    Pool::new(counts).map_err(|e| bad(e.to_string()))
}

fn parse_number(field: &'static str, text: &str) -> Result<u16, NotationError> {
    let canonical = text == "0" || !text.starts_with('0');
    text.parse::<u16>()
        .ok()
        .filter(|_| canonical && text.bytes().all(|b| b.is_ascii_digit()))
        .ok_or_else(|| NotationError::Number {
            field,
            text: text.into(),
        })
}

impl FromStr for Position {
    type Err = NotationError;
    fn from_str(s: &str) -> Result<Position, NotationError> {
        let fields: Vec<&str> = s.split(' ').collect();
        if fields.len() != 5 || fields.iter().any(|f| f.is_empty()) {
            return Err(NotationError::Fields(s.split_whitespace().count()));
        }
        let ranks: Vec<&str> = fields[0].split('/').collect();
        if ranks.len() != 4 {
            return Err(NotationError::Ranks(ranks.len()));
        }
        let mut cells = [Cell::Empty; SQUARES];
        for (i, text) in ranks.iter().enumerate() {
            parse_rank(3 - i as u8, text, &mut cells)?;
        }
        let turn = match fields[1] {
            "r" => Some(Colour::Red),
            "b" => Some(Colour::Black),
            "-" => None,
            other => return Err(NotationError::Turn(other.into())),
        };
        let pool = parse_pool(fields[2])?;
        let clock = parse_number("clock", fields[3])?;
        let movenum = parse_number("move number", fields[4])?;
        Ok(Position::new(cells, turn, pool, clock, movenum)?)
    }
}

impl fmt::Display for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut text = String::with_capacity(80);
        for rank in (0..4).rev() {
            let mut run = 0;
            for file in 0..8 {
                let square = Square::new(file, rank).unwrap_or_else(|| unreachable!());
                let letter = match self.cell(square) {
                    Cell::Empty => {
                        run += 1;
                        continue;
                    }
                    Cell::FaceDown => 'X',
                    Cell::Revealed(piece) => piece.letter(),
                };
                if run > 0 {
                    text.push(char::from(b'0' + run));
                    run = 0;
                }
                text.push(letter);
            }
            if run > 0 {
                text.push(char::from(b'0' + run));
            }
            if rank > 0 {
                text.push('/');
            }
        }
        text.push(' ');
        text.push(self.turn().map_or('-', Colour::letter));
        text.push(' ');
        if self.pool().is_empty() {
            text.push('-');
        }
        for (piece, count) in self.pool().outcomes() {
            text.push(piece.letter());
            text.push(char::from(b'0' + count));
        }
        write!(f, "{text} {} {}", self.clock(), self.movenum())
    }
}
