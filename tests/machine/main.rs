//! The regex machine: the fast executor against the reference (properties, wide
//! generators, hand-written programs, two cores), the exports in other regex engines,
//! the page's WebAssembly machine natively, and the fixture the machine's own unit
//! tests read.
//!
//! One test binary per subject (the test kit, `regex-chess-testkit`, holds what they share);
//! `cargo test --test machine MODULE::` runs one module's tests.

mod equivalence;
mod equivalence_wide;
mod exports;
mod fast_executor;
mod fixtures;
mod two_cores;
mod wasm;
