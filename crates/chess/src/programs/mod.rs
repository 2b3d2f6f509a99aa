//! Whole programs recorded with the DSL from the chess rules of [`crate`]: each
//! function here records one program (its input state and output state documented), and
//! The registry of `regex-chess-engine` names them.
//!
//! - [`chess`]: `legal-moves`, `chess-children` and `chess-probe`: move generation and
//!   the position's facts, as text.
//! - [`best_move`]: the `move` contract around a search (every search variant's move and
//!   ranking programs).
//! - [`play`]: `board` and the `play` contract (the terminal's and the page's game).
//! - [`next`]: the public "regex-chess" task's `next-positions`, and its full form.
//! - [`apply`]: `apply-move`, a move played on a FEN.
//! - [`demo`]: small demonstrations of the instruction set.

pub mod apply;
pub mod best_move;
pub mod chess;
pub mod demo;
pub mod next;
pub mod play;
