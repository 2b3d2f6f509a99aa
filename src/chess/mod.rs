//! The chess program, written in the compiler's DSL, and the contracts of the programs
//! built from it.
//!
//! Every chess decision at move time comes from rules: native code builds the input
//! state from its arguments and reads the output state, nothing more.
//!
//! # Programs and their states
//!
//! | program | input state | output state |
//! | --- | --- | --- |
//! | `legal-moves` | a FEN and `\n` | the legal moves in UCI notation, one per line, each ending in `\n`, in any order; empty when there are none |
//! | `move` | a FEN and `\n` | `move <uci>\nfen <FEN after the move>\nstatus <status>\n`, or, when the side to move has no legal move, `status checkmate\n` / `status stalemate\n` |
//! | `board` | `engine: white` or `engine: black`, a newline, a FEN and `\n` | the first pretty board of a game (see [`pretty`]) |
//! | `play` | the pretty board text the player sees, then the typed line | the next pretty board (see [`pretty`]): the typed move checked and played, the engine's reply, or the same position with a message |
//!
//! `<status>` is the position after the engine's move as the rules judge it: `ongoing`,
//! `checkmate`, `stalemate`, `fifty-move` or `insufficient-material`. FEN is the standard
//! six-field form; promotions in UCI carry a lower-case letter (`e7e8q`).
//!
//! # The search
//!
//! The engine (the side to move in the input) plays the legal move with the best score
//! under a 2-ply minimax over legal moves, scored by [`eval`] from the engine's view:
//! - after an engine move that leaves the opponent no legal reply: [`eval::MATE`] if the
//!   opponent is in check, else 0 (stalemate);
//! - otherwise the minimum, over the opponent's legal replies, of: `-MATE` if the reply
//!   leaves the engine checkmated, 0 if it leaves the engine stalemated, else the
//!   material-plus-table score of the position after the reply;
//! - ties go to the move whose UCI text is smallest in byte order.

pub mod board;
pub mod eval;
pub mod evaluate;
pub mod fen;
pub mod fen_rules;
pub mod game_end;
pub mod movegen;
pub mod pretty;
pub mod runner;
pub mod rx;
pub mod search;
pub mod stack_rules;
pub mod uci;
pub mod variants;
