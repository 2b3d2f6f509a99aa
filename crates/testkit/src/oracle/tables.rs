//! The evaluation tables, written out again for the oracle from the values documented in
//! `src/chess/eval.rs` (material 100/320/330/500/900/0, the piece-square tables, mate
//! 20,000), so that the oracle shares no code with the rules built from the engine's copy.
//!
//! Here each table is written as it looks from white's side of a printed board: rank 8
//! first, a-file first (the engine writes a1 first). A black piece reads the square
//! mirrored across the middle of the board; the mirroring is done here from ranks and
//! files, not by the engine's `square ^ 56`. `tests/chess/oracle_selftest.rs` checks that the
//! two copies agree on every square, piece and colour.

use shakmaty::{Color, Role, Square};

/// The score of a side that gives checkmate (negated for the side that is mated).
pub const MATE: i32 = 20_000;

/// Material value of a role, in centipawns.
pub fn value(role: Role) -> i32 {
    match role {
        Role::Pawn => 100,
        Role::Knight => 320,
        Role::Bishop => 330,
        Role::Rook => 500,
        Role::Queen => 900,
        Role::King => 0,
    }
}

#[rustfmt::skip]
const PAWN: [[i32; 8]; 8] = [
    [  0,   0,   0,   0,   0,   0,   0,   0],
    [ 50,  50,  50,  50,  50,  50,  50,  50],
    [ 10,  15,  20,  30,  30,  20,  15,  10],
    [  5,   5,  15,  25,  25,  15,   5,   5],
    [  0,   0,  10,  20,  20,  10,   0,   0],
    [  5,   0,  -5,   5,   5,  -5,   0,   5],
    [  5,  10,  10, -20, -20,  10,  10,   5],
    [  0,   0,   0,   0,   0,   0,   0,   0],
];

#[rustfmt::skip]
const KNIGHT: [[i32; 8]; 8] = [
    [-50, -40, -30, -30, -30, -30, -40, -50],
    [-40, -20,   0,   0,   0,   0, -20, -40],
    [-30,   0,  10,  15,  15,  10,   0, -30],
    [-30,   5,  15,  20,  20,  15,   5, -30],
    [-30,   0,  15,  20,  20,  15,   0, -30],
    [-30,   5,  10,  15,  15,  10,   5, -30],
    [-40, -20,   0,   5,   5,   0, -20, -40],
    [-50, -40, -30, -30, -30, -30, -40, -50],
];

#[rustfmt::skip]
const BISHOP: [[i32; 8]; 8] = [
    [-20, -10, -10, -10, -10, -10, -10, -20],
    [-10,   0,   0,   0,   0,   0,   0, -10],
    [-10,   0,   5,  10,  10,   5,   0, -10],
    [-10,   5,   5,  10,  10,   5,   5, -10],
    [-10,   0,  10,  10,  10,  10,   0, -10],
    [-10,  10,  10,  10,  10,  10,  10, -10],
    [-10,   5,   0,   0,   0,   0,   5, -10],
    [-20, -10, -10, -10, -10, -10, -10, -20],
];

#[rustfmt::skip]
const ROOK: [[i32; 8]; 8] = [
    [  0,   0,   0,   0,   0,   0,   0,   0],
    [  5,  10,  10,  10,  10,  10,  10,   5],
    [ -5,   0,   0,   0,   0,   0,   0,  -5],
    [ -5,   0,   0,   0,   0,   0,   0,  -5],
    [ -5,   0,   0,   0,   0,   0,   0,  -5],
    [ -5,   0,   0,   0,   0,   0,   0,  -5],
    [ -5,   0,   0,   0,   0,   0,   0,  -5],
    [  0,   0,   0,   5,   5,   0,   0,   0],
];

#[rustfmt::skip]
const QUEEN: [[i32; 8]; 8] = [
    [-20, -10, -10,  -5,  -5, -10, -10, -20],
    [-10,   0,   0,   0,   0,   0,   0, -10],
    [-10,   0,   5,   5,   5,   5,   0, -10],
    [ -5,   0,   5,   5,   5,   5,   0,  -5],
    [  0,   0,   5,   5,   5,   5,   0,  -5],
    [-10,   5,   5,   5,   5,   5,   0, -10],
    [-10,   0,   5,   0,   0,   0,   0, -10],
    [-20, -10, -10,  -5,  -5, -10, -10, -20],
];

#[rustfmt::skip]
const KING: [[i32; 8]; 8] = [
    [-30, -40, -40, -50, -50, -40, -40, -30],
    [-30, -40, -40, -50, -50, -40, -40, -30],
    [-30, -40, -40, -50, -50, -40, -40, -30],
    [-30, -40, -40, -50, -50, -40, -40, -30],
    [-20, -30, -30, -40, -40, -30, -30, -20],
    [-10, -20, -20, -20, -20, -20, -20, -10],
    [ 20,  20,   0,   0,   0,   0,  20,  20],
    [ 20,  30,  10,   0,   0,  10,  30,  20],
];

/// The square bonus of a `color` `role` on `square`, from its own side's view.
pub fn bonus(role: Role, color: Color, square: Square) -> i32 {
    let table = match role {
        Role::Pawn => &PAWN,
        Role::Knight => &KNIGHT,
        Role::Bishop => &BISHOP,
        Role::Rook => &ROOK,
        Role::Queen => &QUEEN,
        Role::King => &KING,
    };
    // Rank 1 is row 7 of a printed table for white; black sees the board turned over.
    let rank = u32::from(square.rank()) as usize;
    let row = match color {
        Color::White => 7 - rank,
        Color::Black => rank,
    };
    table[row][u32::from(square.file()) as usize]
}

/// Value plus bonus: what a piece is worth to its own side.
pub fn worth(role: Role, color: Color, square: Square) -> i32 {
    value(role) + bonus(role, color, square)
}
