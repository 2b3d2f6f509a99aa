//! The command line through the built binary: run, legal and move, the program cache,
//! site and export, OpenBench's bench, rough edges a newcomer meets, the README's
//! commands, the charts, verify-full.sh, and a helper core's panic.
//!
//! One test binary per subject (the test kit, `regex-chess-testkit`, holds what they share);
//! `cargo test --test cli MODULE::` runs one module's tests.

mod banqi;
mod bench_memory;
mod bound;
mod cache;
mod charts;
mod chess;
mod documents;
mod helper_panic;
mod openbench;
mod readme;
mod rough_edges;
mod run;
mod site;
mod verify_full;
