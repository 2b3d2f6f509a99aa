//! Fuzz target: the fast executor must equal the reference executor byte for byte, on
//! small states (`fuzz/common/equivalence.rs`, its `SMALL` limits): many inputs an hour.
//! `exec_equivalence_large` runs the same decoding with states up to 1 MiB.

#![no_main]

use libfuzzer_sys::fuzz_target;

#[path = "../common/equivalence.rs"]
mod equivalence;

fuzz_target!(|data: &[u8]| {
    equivalence::run(data, &equivalence::SMALL);
});
