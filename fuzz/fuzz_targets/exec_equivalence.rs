//! Fuzz target: the fast executor must equal the reference executor byte for byte, on
//! small states (`crates/testkit/src/fuzz_equivalence.rs`, its `SMALL` limits): many inputs an hour.
//! `exec_equivalence_large` runs the same decoding with states up to 1 MiB.

#![no_main]

use libfuzzer_sys::fuzz_target;

use regex_chess_testkit::fuzz_equivalence as equivalence;

fuzz_target!(|data: &[u8]| {
    equivalence::run(data, &equivalence::SMALL);
});
