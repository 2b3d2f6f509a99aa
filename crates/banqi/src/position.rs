//! A position: the board (revealed pieces, face-down squares, empty squares), the pool,
//! the side to move, the no-progress clock and the move number.
//!
//! It cannot hold an impossible position: [`Position::new`] checks that no piece is
//! present (revealed plus face-down) more often than a side starts with it, that the pool
//! counts exactly the face-down squares, and that the turn is `-` exactly when nothing
//! has been flipped yet. It keeps a mailbox and bitboards side by side (each square's
//! content for lookups, a bitboard per piece and per colour for move generation) and its
//! Zobrist key, all updated by [`Position::play_unchecked`], so the search copies a
//! position (about 140 bytes) instead of undoing moves.
//!
//! The move number starts at 1 and grows after each of black's moves, as in chess.

use crate::moves::Move;
use crate::piece::{Colour, Piece};
use crate::pool::Pool;
use crate::square::{Bitboard, SQUARES, Square};
use crate::zobrist::KEYS;

/// What is on a square.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Cell {
    /// Nothing.
    Empty,
    /// A piece nobody has seen yet.
    FaceDown,
    /// A revealed piece.
    Revealed(Piece),
}

const FACE_DOWN: u8 = 14;
const EMPTY: u8 = 15;

impl Cell {
    fn code(self) -> u8 {
        match self {
            Cell::Empty => EMPTY,
            Cell::FaceDown => FACE_DOWN,
            Cell::Revealed(piece) => piece.index() as u8,
        }
    }

    fn from_code(code: u8) -> Cell {
        match code {
            EMPTY => Cell::Empty,
            FACE_DOWN => Cell::FaceDown,
            n => Cell::Revealed(Piece::ALL[n as usize]),
        }
    }
}

/// A Banqi position; always a possible one.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Position {
    cells: [u8; SQUARES],
    pieces: [u32; 14],
    colours: [u32; 2],
    face_down: u32,
    pool: Pool,
    turn: Option<Colour>,
    clock: u16,
    movenum: u16,
    hash: u64,
}

/// Why a position is impossible.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PositionError {
    /// More of a piece than a side has.
    #[error(
        "{count} of `{piece}` (revealed {revealed}, face-down {face_down}), more than the {max} a side has"
    )]
    TooMany {
        /// The piece.
        piece: Piece,
        /// Revealed plus face-down.
        count: u8,
        /// On the board, face up.
        revealed: u8,
        /// In the pool.
        face_down: u8,
        /// A side's starting count.
        max: u8,
    },
    /// The pool does not count the face-down squares.
    #[error("the pool holds {pool} pieces but {squares} squares are face-down")]
    PoolMismatch {
        /// Pieces in the pool.
        pool: u8,
        /// Face-down squares.
        squares: u32,
    },
    /// Turn `-` with something flipped or gone.
    #[error("the turn is `-` (no flip yet) but only {0} of the 32 squares are face-down")]
    NoTurnAfterFlips(u32),
    /// A side to move while all 32 are still face-down.
    #[error(
        "a side is to move but all 32 pieces are face-down (no flip has decided colours; the turn must be `-`)"
    )]
    TurnBeforeFlip,
    /// Move number 0.
    #[error("the move number must be at least 1")]
    MoveNumberZero,
}

impl Position {
    /// The start: 32 face-down pieces, nobody's colour decided.
    pub fn start() -> Position {
        Position::new([Cell::FaceDown; SQUARES], None, Pool::FULL, 0, 1)
            .unwrap_or_else(|_| unreachable!("the start is a position"))
    }

    /// A position from its parts, if it is possible.
    pub fn new(
        cells: [Cell; SQUARES],
        turn: Option<Colour>,
        pool: Pool,
        clock: u16,
        movenum: u16,
    ) -> Result<Position, PositionError> {
        let mut position = Position {
            cells: [EMPTY; SQUARES],
            pieces: [0; 14],
            colours: [0; 2],
            face_down: 0,
            pool,
            turn,
            clock,
            movenum,
            hash: 0,
        };
        for (square, cell) in Square::all().zip(cells) {
            position.put(square, cell);
        }
        for piece in Piece::ALL {
            let revealed = position.pieces[piece.index()].count_ones() as u8;
            let face_down = pool.count(piece);
            let max = piece.kind.start_count();
            if revealed + face_down > max {
                let count = revealed + face_down;
                return Err(PositionError::TooMany {
                    piece,
                    count,
                    revealed,
                    face_down,
                    max,
                });
            }
        }
        let squares = position.face_down.count_ones();
        if u32::from(pool.total()) != squares {
            return Err(PositionError::PoolMismatch {
                pool: pool.total(),
                squares,
            });
        }
        match turn {
            None if squares != SQUARES as u32 => {
                return Err(PositionError::NoTurnAfterFlips(squares));
            }
            Some(_) if squares == SQUARES as u32 => return Err(PositionError::TurnBeforeFlip),
            _ => {}
        }
        if movenum == 0 {
            return Err(PositionError::MoveNumberZero);
        }
        position.hash = position.compute_hash();
        Ok(position)
    }

    fn put(&mut self, square: Square, cell: Cell) {
        let bit = square.bit();
        self.cells[square.index()] = cell.code();
        match cell {
            Cell::Empty => {}
            Cell::FaceDown => self.face_down |= bit,
            Cell::Revealed(piece) => {
                self.pieces[piece.index()] |= bit;
                self.colours[piece.colour.index()] |= bit;
            }
        }
    }

    fn compute_hash(&self) -> u64 {
        let mut hash = KEYS.side[self.side_index()];
        for (s, &code) in self.cells.iter().enumerate() {
            hash ^= KEYS.square[s][code as usize];
        }
        for piece in Piece::ALL {
            hash ^= KEYS.pool[piece.index()][self.pool.count(piece) as usize];
        }
        hash
    }

    fn side_index(&self) -> usize {
        self.turn.map_or(0, |c| c.index() + 1)
    }

    /// What is on `square`.
    pub fn cell(&self, square: Square) -> Cell {
        Cell::from_code(self.cells[square.index()])
    }

    /// The revealed piece on `square`, if any.
    pub fn piece_at(&self, square: Square) -> Option<Piece> {
        Piece::from_index(self.cells[square.index()] as usize)
    }

    /// The side to move; `None` before the first flip (whoever moves first flips, and the
    /// colour revealed becomes theirs).
    pub fn turn(&self) -> Option<Colour> {
        self.turn
    }

    /// The face-down counts.
    pub fn pool(&self) -> &Pool {
        &self.pool
    }

    /// Plies since the last flip or capture.
    pub fn clock(&self) -> u16 {
        self.clock
    }

    /// The move number (1 at the start, one more after each of black's moves).
    pub fn movenum(&self) -> u16 {
        self.movenum
    }

    /// The Zobrist key of board, pool and side to move.
    pub fn hash(&self) -> u64 {
        self.hash
    }

    /// The face-down squares.
    pub fn face_down(&self) -> Bitboard {
        Bitboard(self.face_down)
    }

    /// The squares of `piece`, revealed.
    pub fn pieces(&self, piece: Piece) -> Bitboard {
        Bitboard(self.pieces[piece.index()])
    }

    /// The revealed pieces of `colour`.
    pub fn colour(&self, colour: Colour) -> Bitboard {
        Bitboard(self.colours[colour.index()])
    }

    /// Every occupied square, face-down or revealed.
    pub fn occupied(&self) -> Bitboard {
        Bitboard(self.face_down | self.colours[0] | self.colours[1])
    }

    /// Whether the move is a capture (a step or jump onto a revealed piece).
    pub fn is_capture(&self, mv: Move) -> bool {
        !mv.is_flip() && self.cells[mv.to().index()] < FACE_DOWN
    }

    /// Plays `mv`, which must be legal here, with `revealed` the piece a flip shows (it
    /// must be in the pool; ignored for other moves). The game and the search check
    /// legality first; a wrong call leaves an inconsistent position (debug builds
    /// assert).
    pub fn play_unchecked(&mut self, mv: Move, revealed: Option<Piece>) {
        let keys = &KEYS;
        let old_side = self.side_index();
        let mover;
        if mv.is_flip() {
            let square = mv.from();
            let piece = revealed.unwrap_or_else(|| unreachable!("a flip without its piece"));
            let (s, p, bit) = (square.index(), piece.index(), square.bit());
            debug_assert!(self.face_down & bit != 0 && self.pool.count(piece) > 0);
            let count = self.pool.count(piece) as usize;
            self.pool.take(piece);
            self.hash ^= keys.pool[p][count] ^ keys.pool[p][count - 1];
            self.hash ^= keys.square[s][FACE_DOWN as usize] ^ keys.square[s][p];
            self.cells[s] = p as u8;
            self.face_down ^= bit;
            self.pieces[p] |= bit;
            self.colours[piece.colour.index()] |= bit;
            self.clock = 0;
            mover = self.turn.unwrap_or(piece.colour);
        } else {
            let (from, to) = (mv.from().index(), mv.to().index());
            let p = self.cells[from] as usize;
            debug_assert!(p < 14);
            let colour = p / 7;
            let target = self.cells[to];
            if target < FACE_DOWN {
                let t = target as usize;
                self.pieces[t] ^= mv.to().bit();
                self.colours[t / 7] ^= mv.to().bit();
                self.hash ^= keys.square[to][t];
                self.clock = 0;
            } else {
                self.clock = self.clock.saturating_add(1);
            }
            let both = mv.from().bit() | mv.to().bit();
            self.pieces[p] ^= both;
            self.colours[colour] ^= both;
            self.hash ^= keys.square[from][p] ^ keys.square[to][p];
            self.cells[to] = p as u8;
            self.cells[from] = EMPTY;
            mover = Colour::ALL[colour];
        }
        if mover == Colour::Black {
            self.movenum = self.movenum.saturating_add(1);
        }
        self.turn = Some(mover.other());
        self.hash ^= keys.side[old_side] ^ keys.side[self.side_index()];
        debug_assert_eq!(self.hash, self.compute_hash());
    }
}
