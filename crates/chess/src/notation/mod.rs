//! Chess notation as native types: the primitives ([`Square`], [`Piece`], [`Role`],
//! [`Color`], [`Castling`]), positions in FEN ([`fen::Fen`], the parser) and moves in
//! UCI's coordinate notation ([`uci::UciMove`]).
//!
//! These are what the engine's programs read and write as text, checked and typed: the
//! command line, the UCI session and the runner parse a user's FEN or move here before
//! any rule runs, and read the programs' answers back with them. They judge nothing: no
//! move is generated and no legality decided here (that is the rules', or, in tests and
//! match adjudication, shakmaty's).

pub mod castling;
pub mod fen;
pub mod piece;
pub mod square;
pub mod uci;

pub use castling::Castling;
pub use piece::{Color, Piece, Role};
pub use square::Square;
