//! The compiler: every instruction lowered alone on both executors, the joins pass
//! against a judge, and whole DSL programs against native Rust.
//!
//! One test binary per subject (the test kit, `regex-chess-testkit`, holds what they share);
//! `cargo test --test compiler MODULE::` runs one module's tests.

mod instructions;
mod joins;
mod keep_top;
mod programs;
