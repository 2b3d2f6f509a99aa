//! regex-chess-core: the library of regex-chess, a chess engine whose every move-time
//! computation is a regular-expression substitution on one text state.
//!
//! The crate is layered; a module uses only the modules of the layers above it in this
//! list (tests aside):
//!
//! 1. [`program`]: rule programs (ordered `(pattern, replacement)` rules with origins),
//!    their JSON form and their validation. [`notation`]: FEN and UCI moves as native
//!    types, for what goes in and comes out. [`positions`]: the built-in position suites.
//!    [`json_lines`]: results files, one JSON object a line.
//! 2. [`exec`]: the executors that run a program on a state: the `replace_all` reference
//!    and the fast DFA-based executor, which must agree byte for byte, and tracing.
//!    [`export`]: the rule list written for other regex engines (JSON, Python,
//!    JavaScript).
//! 3. [`compiler`]: the tracing DSL, its instruction set, passes and lowering to rules.
//! 4. [`chess`]: the chess rules written in the DSL, and the contracts of the programs
//!    built from them.
//! 5. [`programs`]: whole programs recorded from the chess rules.
//! 6. [`engine`]: the registry of programs and of search variants, loading a program
//!    (compiled, validated, cached), and running one on a position.
//! 7. [`uci`]: the Universal Chess Interface session and the rules-backed engine behind
//!    it; [`matchplay`]: matches against fixed opponents, adjudicated by shakmaty, with
//!    Elo and pathology counters; [`bench`](mod@bench) and [`profile`]: seconds per move
//!    on the bench positions, and time by source origin.
//!
//! The command line (`regex-chess`) is a crate of its own over this one: nothing here
//! parses arguments or prints.

pub mod bench;
pub mod chess;
pub mod compiler;
pub mod engine;
pub mod exec;
pub mod export;
pub mod json_lines;
pub mod matchplay;
pub mod notation;
pub mod positions;
pub mod profile;
pub mod program;
pub mod programs;
pub mod uci;
