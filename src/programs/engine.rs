//! The engine's programs: `move`, `board` and `play` (see `src/chess/mod.rs` for the
//! contracts and `src/chess/pretty.rs` for the pretty board).

pub use crate::chess::pretty::{board_program, play_program};
pub use crate::chess::search::move_program;

/// One line about `move`.
pub const MOVE_SUMMARY: &str =
    "a FEN in; the engine's move (2-ply minimax), the FEN after it and its status out";
/// One line about `board`.
pub const BOARD_SUMMARY: &str =
    "`engine: white|black` and a FEN in; the first pretty board of a game out";
/// One line about `play`.
pub const PLAY_SUMMARY: &str =
    "the pretty board and the typed move in; the next board with the engine's reply out";
