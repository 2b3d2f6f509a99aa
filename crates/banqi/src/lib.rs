//! Banqi (Chinese dark chess, Taiwanese rules): the rules, their notation, and an engine.
//!
//! The rules are small precise types, one a module: [`square`] (32 squares, `u32`
//! bitboards), [`piece`], [`pool`] (the face-down counts), [`position`] (which cannot
//! hold an impossible position), [`notation`] (the position string), [`moves`] (a move and
//! its text), [`movegen`] and [`game`] (history, draws, the result). The engine never
//! learns what a face-down piece is: whoever runs the game owns the deal and tells the
//! game what each flip revealed. Nothing here depends on the chess crates.

pub mod bench;
pub mod deal;
pub mod eval;
pub mod external;
pub mod game;
pub mod matches;
pub mod movegen;
pub mod moves;
pub mod notation;
pub mod opponents;
pub mod perft;
pub mod piece;
pub mod play;
pub mod player;
pub mod pool;
pub mod position;
pub mod rng;
pub mod search;
pub mod square;
pub mod stats;
pub mod tt;
pub mod uci;
pub mod zobrist;

pub use game::{DrawRules, Game, Outcome, PlayError};
pub use moves::Move;
pub use piece::{Colour, Kind, Piece};
pub use pool::Pool;
pub use position::{Cell, Position};
pub use square::{Bitboard, Square};
