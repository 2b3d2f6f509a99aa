//! Legal move generation, making moves and check detection, in rules.
//!
//! See [`super::board`] for the representation and the contract of each function.

use super::board::{Children, MoveGen, Position};
use crate::compiler::dsl::{Builder, Value, kind};

/// Every active thread becomes one thread per legal move of its side to move, holding
/// the position after the move (same variables) and, with [`MoveGen::uci`], the move's
/// UCI text. `max_moves` bounds the moves of one position (218 is the known maximum).
#[track_caller]
pub fn fork_legal_moves(
    b: &mut Builder,
    pos: &Position,
    max_moves: usize,
    options: MoveGen,
) -> Children {
    let _ = (b, pos, max_moves, options);
    todo!("fork_legal_moves: being written on branch chess-core")
}

/// Whether the side to move has a legal move (the position is unchanged).
#[track_caller]
pub fn has_legal_move(b: &mut Builder, pos: &Position) -> Value<kind::Bool> {
    let _ = (b, pos);
    todo!("has_legal_move: being written on branch chess-core")
}

/// Whether the side to move is in check.
#[track_caller]
pub fn in_check(b: &mut Builder, pos: &Position) -> Value<kind::Bool> {
    let _ = (b, pos);
    todo!("in_check: being written on branch chess-core")
}
