//! The engine layer: UCI sessions (scripted, GUI-style, python-chess), the match
//! plumbing (built-in, UCI and xboard opponents), the program cache, and random input at
//! the binary's doors.
//!
//! One test binary per subject (the test kit, `regex-chess-testkit`, holds what they share);
//! `cargo test --test engine MODULE::` runs one module's tests.

mod matchplay;
mod program_cache;
mod random_input;
mod uci;
mod uci_volumes;
mod xboard;
