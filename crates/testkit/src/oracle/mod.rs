//! The independent oracle shared by the chess test files: shakmaty judges, never the
//! engine.
//!
//! It lives in the test kit (`regex_chess_testkit::oracle`), which every test binary and
//! fuzz target takes it from.
//!
//! - [`answer`]: the judge of a search variant's answer (move, FEN after, status,
//!   report, principal variation) against [`variants`].
//! - [`judge`]: legal moves of a position as sorted UCI strings, FEN after a move,
//!   game-end verdicts, all from shakmaty.
//! - [`perft`]: the published perft counts of `data/positions/perft.txt`.
//! - [`playouts`]: seeded random playouts that collect distinct positions, weighted
//!   towards checks, promotions, en passant and castling.
//! - [`search`]: a plain-Rust implementation, on shakmaty, of the search defined in
//!   `crates/chess/src/lib.rs`, scoring with [`tables`].
//! - [`tables`]: the evaluation tables, written out again from their documented values.
//! - [`variants`]: plain-Rust implementations of every search variant (2-ply, 2-ply
//!   with the capture search), with scores, node counts and reply scores.
//! - [`lab`]: the search lab's designs (a third ply full width, pruned or after
//!   captures only; the best root moves searched deeper; the leaf's capture answer as
//!   today, by static exchange or played out; a check extension; evaluation terms),
//!   searched with cut-offs that keep the minimax's move and score.
//! - [`lab_cost`]: what a design would cost the rules in state: the threads at the
//!   widest fork and their bytes, counted as the rules fork, fitted on their states.
//! - [`history`]: the search variants with the rules input (the game's earlier
//!   positions, `searchmoves`).
//! - [`parallel`]: checking many positions on two threads and reporting failures.
//! - [`engine`]: the compiled chess programs, built once per test binary, or a clear skip
//!   when they are not registered yet.
//!
//! Each test file uses a part of this; the rest would be dead code there.

pub mod answer;
pub mod deep;
pub mod engine;
pub mod history;
pub mod judge;
pub mod lab;
pub mod lab_cost;
pub mod parallel;
pub mod perft;
pub mod pesto;
pub mod playouts;
pub mod search;
pub mod tables;
pub mod variants;
