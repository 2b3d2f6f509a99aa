//! The position as the rules see it, and the public DSL API of the chess core.
//!
//! # Representation
//!
//! A position lives in one thread as six variables, always in this order (the rules of
//! this module rely on it; they rewrite them in place and never re-assign them). Other
//! variables may sit between them; a program that re-assigns them with the DSL (an
//! `assign` appends the variable at the thread's end) must re-assign all six, in order:
//!
//! | variable | content | example |
//! | --- | --- | --- |
//! | `#b: ` | the board, 80 characters: ranks 8 down to 1 (FEN order), each rank = its 8 squares then `//` | `rnbqkbnr//pppppppp//........//` ... |
//! | `#t: ` | side to move, `w` or `b` | `w` |
//! | `#c: ` | castling rights as in FEN: a subset of `KQkq` in that order, or `-` | `KQkq` |
//! | `#e: ` | en-passant square or `-` (set after every double push, as shakmaty's `EnPassantMode::Always`) | `e3` |
//! | `#h: ` | half-move clock, decimal | `0` |
//! | `#n: ` | full-move number, decimal | `1` |
//!
//! Squares: `.` empty, `PNBRQK` white, `pnbrqk` black. The square of file `f` (0..7 =
//! a..h) and rank `r` (0..7 = 1..8) is at offset `(7 - r) * 10 + f` of the board
//! ([`offset`]). One rank up is `-10`, one file right `+1`, the diagonals `±9`, `±11`,
//! the knight jumps `±8 ±12 ±19 ±21`. Thanks to the two separators no king, knight or
//! slider step wraps across the edge: the square it would land on is a `/` or outside
//! the line. So "a rook or queen above the white king on its file" is the single
//! pattern `[rq](?:[^\n]{9}\.)*[^\n]{9}K` (see [`super::movegen`]).
//!
//! # API (DSL functions; each records rules, nothing runs natively)
//!
//! - [`super::fen_rules::parse_fen`]: the program's first step. The raw input state
//!   `<FEN>\n` (one or more such lines) becomes one active thread per line holding the
//!   six variables. Returns the [`Position`] handles.
//! - [`super::fen_rules::to_fen`]: the FEN text of the position, as a new string value.
//! - [`super::movegen::fork_legal_moves`]: every active thread becomes one thread per
//!   legal move, holding the position *after* the move in the same six variables and,
//!   if asked, the move's UCI text (`e2e4`, `e7e8q`, castling as `e1g1`). A thread with
//!   no legal move disappears, or stays unchanged when [`MoveGen::keep_stuck`] is set
//!   (then [`Children::moved`] is false in it). Children of one parent are adjacent, in
//!   a deterministic order. Wrap the call in `b.grouped(..)` to keep a later
//!   tournament within each parent.
//! - [`super::movegen::has_legal_move`] and [`super::movegen::in_check`]: booleans for
//!   the side to move (mate = in check and no legal move).
//!
//! Every scratch variable (`#_p`, `#_x`, `#_q`: names starting with `_` are the compiler's, so
//! they never clash with a program's own), marker character and paused thread these
//! functions use is gone when they return.
//!
//! # Marks used while generating moves
//!
//! Inside [`super::movegen`] the board briefly holds marks that never survive a call:
//! [`ORIGIN_MARKS`] for the piece about to move (the square it leaves is `.` at once), the same
//! digit (or [`DOUBLE_PUSH`] / a [`PROMOTION_MARKS`] entry) on the square it reached,
//! `a` (king's square) and `c` (crossed square) for a castling king, `^` as the cursor
//! that walks over the side's pieces and `@` for the piece it just picked. The
//! `has_legal_move` / `in_check` scratch copy marks pinned pieces `@`.

use regex_chess_compiler::dsl::{Builder, Value, kind};
use regex_chess_compiler::ir::{Type, Var};

/// The length of the board line.
pub const BOARD_LEN: usize = 80;
/// The distance between two ranks on the board line.
pub const STRIDE: i32 = 10;
/// The board of the starting position, as stored in `#b`.
pub const START_BOARD: &str =
    "rnbqkbnr//pppppppp//........//........//........//........//PPPPPPPP//RNBQKBNR//";

/// Knight jumps as board offsets.
pub const KNIGHT_STEPS: [i32; 8] = [-21, -19, -12, -8, 8, 12, 19, 21];
/// Rook directions as board offsets.
pub const ORTHOGONAL_STEPS: [i32; 4] = [-10, -1, 1, 10];
/// Bishop directions as board offsets.
pub const DIAGONAL_STEPS: [i32; 4] = [-11, -9, 9, 11];

/// Origin marks (and moved-piece marks) by role, in `PNBRQK` order: `1`..`6`.
pub const ORIGIN_MARKS: [char; 6] = ['1', '2', '3', '4', '5', '6'];
/// The mark of a pawn that has just moved two squares.
pub const DOUBLE_PUSH: char = '7';
/// The marks of a pawn that has just promoted, by the UCI letter of the new piece.
pub const PROMOTION_MARKS: [(char, char); 4] = [('q', '8'), ('r', '9'), ('b', '0'), ('n', '=')];

/// The most legal moves a position can have.
pub const MAX_MOVES: usize = 218;

/// The board offset of file `file` (0..7 = a..h) and rank `rank` (0..7 = 1..8).
pub fn offset(file: usize, rank: usize) -> usize {
    crate::notation::Square::new(file as u8, rank as u8)
        .expect("a file and a rank below 8")
        .board_offset()
}

/// The square name (`e4`) at a board offset, if the offset is a square.
pub fn square_name(offset: usize) -> Option<String> {
    crate::notation::Square::from_board_offset(offset).map(|square| square.to_string())
}

/// The board line of a FEN board field (`rnbqkbnr/pppppppp/8/...`), natively: for
/// tests and for building states by hand. `None` if the field is malformed.
pub fn board_of_fen_field(field: &str) -> Option<String> {
    let ranks: Vec<&str> = field.split('/').collect();
    if ranks.len() != 8 {
        return None;
    }
    let mut out = String::with_capacity(BOARD_LEN);
    for rank in ranks {
        let mut squares = 0;
        for c in rank.chars() {
            match c {
                '1'..='8' => {
                    let n = c as usize - '0' as usize;
                    out.extend(std::iter::repeat_n('.', n));
                    squares += n;
                }
                'p' | 'n' | 'b' | 'r' | 'q' | 'k' | 'P' | 'N' | 'B' | 'R' | 'Q' | 'K' => {
                    out.push(c);
                    squares += 1;
                }
                _ => return None,
            }
        }
        if squares != 8 {
            return None;
        }
        out.push_str("//");
    }
    Some(out)
}

/// Typed handles on the six position variables of every active thread.
#[derive(Clone, Debug)]
pub struct Position {
    /// `#b`: the board line.
    pub board: Value<kind::Str>,
    /// `#t`: `w` or `b`.
    pub turn: Value<kind::Str>,
    /// `#c`: castling rights.
    pub castling: Value<kind::Str>,
    /// `#e`: en-passant square or `-`.
    pub ep: Value<kind::Str>,
    /// `#h`: half-move clock, decimal.
    pub halfmove: Value<kind::Str>,
    /// `#n`: full-move number, decimal.
    pub fullmove: Value<kind::Str>,
}

impl Position {
    /// The handles on `#b`, `#t`, `#c`, `#e`, `#h`, `#n`.
    pub fn handles(b: &Builder) -> Position {
        Position {
            board: b.named("b", Type::Str),
            turn: b.named("t", Type::Str),
            castling: b.named("c", Type::Str),
            ep: b.named("e", Type::Str),
            halfmove: b.named("h", Type::Str),
            fullmove: b.named("n", Type::Str),
        }
    }

    /// The six variables, in their order in a thread.
    pub fn vars(&self) -> [&Var; 6] {
        [
            self.board.var(),
            self.turn.var(),
            self.castling.var(),
            self.ep.var(),
            self.halfmove.var(),
            self.fullmove.var(),
        ]
    }
}

/// Options of [`super::movegen::fork_legal_moves`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct MoveGen {
    /// Write each move's UCI text into [`Children::uci`] (8 rules per side over the
    /// one-thread-per-piece stage for the origin square, 8 over the children for the
    /// target and the promotion; leave it off where the move text is not needed).
    pub uci: bool,
    /// A thread with no legal move stays, unchanged, with [`Children::moved`] false
    /// (instead of disappearing).
    pub keep_stuck: bool,
    /// Write what each move took and which piece moved into [`Children::taken`] (one
    /// rule more per side over the children): a move's gain reads them there instead of
    /// on a copy of the parent's board that every child would carry.
    pub taken: bool,
}

/// What [`super::movegen::fork_legal_moves`] gives back.
#[derive(Clone, Debug)]
pub struct Children {
    /// The move's UCI text in each child, when [`MoveGen::uci`] is set. In a stuck
    /// thread kept by [`MoveGen::keep_stuck`] it is the empty string.
    pub uci: Option<Value<kind::Str>>,
    /// With [`MoveGen::keep_stuck`]: true in the children, false in a kept stuck thread.
    pub moved: Option<Value<kind::Bool>>,
    /// With [`MoveGen::taken`], two letters in each child: what stood on the move's
    /// target (`.` for nothing, en passant and castling included), then the moving
    /// piece (a pawn for a promotion). Empty in a kept stuck thread.
    pub taken: Option<Value<kind::Str>>,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn offsets_and_names_agree() {
        assert_eq!(offset(0, 7), 0);
        assert_eq!(offset(4, 0), 74);
        assert_eq!(square_name(74).as_deref(), Some("e1"));
        assert_eq!(square_name(8), None);
        assert_eq!(
            board_of_fen_field("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR").as_deref(),
            Some(START_BOARD)
        );
        assert_eq!(START_BOARD.len(), BOARD_LEN);
    }
}
