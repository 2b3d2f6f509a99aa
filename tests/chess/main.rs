//! The chess program, judged by shakmaty and the oracle of the test kit: move
//! generation, perft, game ends, history, notation, play, every search variant, the
//! public task's programs, and the oracle's own self-tests. The strength screen is an
//! ignored test (docs/strength.md).
//!
//! One test binary per subject (the test kit, `regex-chess-testkit`, holds what they share);
//! `cargo test --test chess MODULE::` runs one module's tests.

mod apply_move;
mod core_rules;
mod equivalence;
mod game_end;
mod history;
mod legal;
mod multipv;
mod next_positions;
mod oracle_selftest;
mod perft;
mod play;
mod san;
mod search;
mod search_lab;
mod search_rules;
mod strength_screen;
mod variants;
