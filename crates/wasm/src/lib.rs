//! regex-chess-wasm: the fast executor of regex-chess in the browser.
//!
//! Built for `wasm32-unknown-unknown` (`scripts/site.sh` builds it and `regex-chess site
//! --wasm` puts it beside the page), the crate is a module the page's worker instantiates
//! with nothing but the standard `WebAssembly` API: no generated bindings, no JavaScript
//! of its own. [`machine`] is what it does, on any target (the tests run it natively);
//! `abi` is the C interface over linear memory that exposes it on wasm32 (see that
//! module's docs for the calling convention).
//!
//! In the browser the executor runs on the worker's one thread: the core's multi-core
//! mode is never turned on, and its helper that compiles patterns ahead is off (its
//! threads could not start there).

#[cfg(target_arch = "wasm32")]
mod abi;
pub mod machine;

pub use machine::Machine;
