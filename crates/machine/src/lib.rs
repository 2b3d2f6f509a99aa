//! regex-chess-machine: the regex machine. A program is an ordered list of
//! `(pattern, replacement)` rules; a state is one string of threads; an executor applies
//! every rule in order, each as a global replace. Nothing here knows a game.
//!
//! Layers, each using only those above it:
//!
//! 1. [`program`]: rule programs with their origins, their JSON form, their validation
//!    and replacement templates.
//! 2. [`exec`]: the executors: the `replace_all` reference, which defines the semantics,
//!    and the fast DFA-based executor, which must agree with it byte for byte; tracing.
//!    [`export`]: the rule list written for other regex engines (JSON, Python,
//!    JavaScript).
//! 3. [`bound`]: what a run must do at least (matches, bytes to see, bytes written), counted
//!    rule by rule with the reference's semantics: the counts behind the run's lower bound.
//!
//! Beside them, `codec`: the primitive encodings (counts, strings, tags) that every
//! binary format of the machine is written in, with one reader and one writer: the
//! program file's payload and the fast executor's table of parsed patterns.
//!
//! Above it: the compiler (`regex-chess-compiler`), which writes programs, and the games
//! whose rules run here (`regex-chess-chess`). The WebAssembly module of the page depends
//! on this crate alone.

pub mod bound;
pub(crate) mod codec;
pub mod exec;
pub mod export;
pub mod program;
