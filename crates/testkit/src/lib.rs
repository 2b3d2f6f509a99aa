//! regex-chess-testkit: what the tests and the fuzz targets share, in one unpublished
//! crate (no test includes another file by path).
//!
//! - [`oracle`]: the independent chess oracle: shakmaty judges legal moves, FENs and
//!   verdicts, and plain-Rust models of every search the rules run (and of the lab's
//!   designs) say what the rules must answer. Never the engine itself.
//! - [`exec_compare`]: the byte-for-byte comparison of the fast executor with the
//!   reference, rule by rule; [`volume`]: how many cases a property runs and from which
//!   seed; [`wide_log`]: long programs compared with one reference run;
//!   [`fuzz_equivalence`]: the equivalence fuzz targets' decoding of an input into a
//!   program and a state, and their comparison; [`pattern_cache`]: their process-wide
//!   cache of compiled patterns.
//! - [`lowered`]: raw instructions lowered to rules and run on both executors (the
//!   compiler's tests).
//! - [`random_input`]: random input at the binary's doors (UCI, the play prompt, the program
//!   cache) and the judges of what comes out, for the tests and the fuzz targets;
//!   [`play_text`]: reading the `play` program's boards; [`fake_engine`]: a stand-in
//!   engine for the match and UCI plumbing; [`binary`]: the `regex-chess` binary under
//!   test, run with bytes on its standard input.

pub mod binary;
pub mod exec_compare;
pub mod fake_engine;
pub mod fuzz_equivalence;
pub mod lowered;
pub mod oracle;
pub mod pattern_cache;
pub mod play_text;
pub mod random_input;
pub mod volume;
pub mod wide_log;
