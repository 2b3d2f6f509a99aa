//! Legal moves: flips, one-step moves, captures by rank and cannon jumps.
//!
//! Bitboards throughout: a step is a neighbour table lookup masked by the empty squares;
//! a capture by stepping masks the neighbours with the enemy pieces the mover's kind may
//! take (one mask per kind, built once per call); a cannon's jump reads the first two
//! occupied squares along each of the four rays (lowest set bits east and north, highest
//! west and south), the second being a capture only if it is a revealed enemy. The list
//! is a fixed array, never allocated: a side has at most 32 flips or 16 pieces with at
//! most four moves each.

use crate::moves::Move;
use crate::piece::{Colour, KINDS, Kind, Piece};
use crate::position::Position;
use crate::square::{Bitboard, SQUARES, Square};

/// The most moves a position can have (32 flips, or fewer than 128 others).
pub const MAX_MOVES: usize = 128;

/// A list of moves on the stack.
#[derive(Clone)]
pub struct MoveList {
    moves: [Move; MAX_MOVES],
    len: usize,
}

impl Default for MoveList {
    fn default() -> MoveList {
        let a0 = Square::new(0, 0).unwrap_or_else(|| unreachable!());
        MoveList {
            moves: [Move::flip(a0); MAX_MOVES],
            len: 0,
        }
    }
}

impl MoveList {
    /// An empty list.
    pub fn new() -> MoveList {
        MoveList::default()
    }

    fn push(&mut self, mv: Move) {
        self.moves[self.len] = mv;
        self.len += 1;
    }

    /// The moves.
    pub fn as_slice(&self) -> &[Move] {
        &self.moves[..self.len]
    }

    /// The moves, to reorder.
    pub fn as_mut_slice(&mut self) -> &mut [Move] {
        &mut self.moves[..self.len]
    }

    /// How many.
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }
}

/// Rays per square and direction (east, north, west, south), excluding the square.
static RAYS: [[u32; 4]; SQUARES] = {
    let mut rays = [[0u32; 4]; SQUARES];
    let steps: [(i8, i8); 4] = [(1, 0), (0, 1), (-1, 0), (0, -1)];
    let mut s = 0;
    while s < SQUARES {
        let mut d = 0;
        while d < 4 {
            let (mut f, mut r) = ((s % 8) as i8, (s / 8) as i8);
            loop {
                f += steps[d].0;
                r += steps[d].1;
                if f < 0 || f >= 8 || r < 0 || r >= 4 {
                    break;
                }
                rays[s][d] |= 1 << (r * 8 + f);
            }
            d += 1;
        }
        s += 1;
    }
    rays
};

/// The square a cannon on `from` captures along ray `d`, if any: the second occupied
/// square along it, whatever the first (the screen) is.
#[inline]
pub(crate) fn cannon_target(from: Square, d: usize, occupied: u32) -> Option<Square> {
    let mut on_ray = RAYS[from.index()][d] & occupied;
    if d < 2 {
        on_ray &= on_ray.wrapping_sub(1);
        (on_ray != 0).then(|| on_ray.trailing_zeros())
    } else {
        if on_ray == 0 {
            return None;
        }
        on_ray ^= 1 << (31 - on_ray.leading_zeros());
        (on_ray != 0).then(|| 31 - on_ray.leading_zeros())
    }
    .and_then(|s| Square::from_index(s as usize))
}

/// For each kind, the enemy pieces of `enemy` it captures by stepping.
#[inline]
pub(crate) fn step_targets(position: &Position, enemy: Colour) -> [u32; 7] {
    let theirs: [u32; 7] = KINDS.map(|k| position.pieces(Piece::new(enemy, k)).0);
    KINDS.map(|attacker| {
        KINDS
            .iter()
            .filter(|&&t| attacker.steps_onto(t))
            .fold(0, |acc, &t| acc | theirs[t.index()])
    })
}

impl Position {
    /// Every legal move of the side to move: flips first, then the moves of each piece.
    pub fn legal_moves(&self, list: &mut MoveList) {
        list.len = 0;
        for square in self.face_down() {
            list.push(Move::flip(square));
        }
        self.piece_moves(list, false);
    }

    /// The captures of the side to move only (what the quiescence search tries).
    pub fn captures(&self, list: &mut MoveList) {
        list.len = 0;
        self.piece_moves(list, true);
    }

    /// Whether the side to move has any legal move.
    pub fn has_legal_move(&self) -> bool {
        let mut list = MoveList::new();
        self.legal_moves(&mut list);
        !list.is_empty()
    }

    fn piece_moves(&self, list: &mut MoveList, captures_only: bool) {
        let Some(us) = self.turn() else { return };
        let them = us.other();
        let occupied = self.occupied().0;
        let empty = !occupied;
        let enemy = self.colour(them).0;
        let targets = step_targets(self, them);
        for kind in KINDS {
            for from in self.pieces(Piece::new(us, kind)) {
                let near = from.neighbours().0;
                if kind == Kind::Cannon {
                    for d in 0..4 {
                        if let Some(to) = cannon_target(from, d, occupied)
                            && enemy & to.bit() != 0
                        {
                            list.push(Move::new(from, to));
                        }
                    }
                } else {
                    for to in Bitboard(near & targets[kind.index()]) {
                        list.push(Move::new(from, to));
                    }
                }
                if !captures_only {
                    for to in Bitboard(near & empty) {
                        list.push(Move::new(from, to));
                    }
                }
            }
        }
    }
}
