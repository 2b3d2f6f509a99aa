//! FEN in and out, in rules.
//!
//! [`parse_fen`] turns the raw input state (`<FEN>\n` lines) into position threads;
//! [`to_fen`] writes a position's FEN into a new string value. See [`super::board`] for
//! the representation.

use super::board::Position;
use crate::compiler::dsl::{Builder, Value, kind};

/// The program's first step: every line `<FEN>\n` of the input state becomes one active
/// thread holding `#b #t #c #e #h #n` (see [`super::board`]). The FEN must have its six
/// fields and standard castling letters; a line that is not such a FEN is left as it is
/// (and no later rule touches it, since it is not an active thread).
#[track_caller]
pub fn parse_fen(b: &mut Builder) -> Position {
    let _ = b;
    todo!("parse_fen: being written on branch chess-core")
}

/// The FEN of the position in every active thread, as a new string value.
#[track_caller]
pub fn to_fen(b: &mut Builder, pos: &Position) -> Value<kind::Str> {
    let _ = (b, pos);
    todo!("to_fen: being written on branch chess-core")
}
