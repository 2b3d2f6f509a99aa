//! Fuzz target: the fast executor must equal the reference executor byte for byte, on
//! states up to 1 MiB (`crates/testkit/src/fuzz_equivalence.rs`, its `LARGE` limits), where the rope,
//! the stretches and several cores take their own paths. Fewer inputs an hour than
//! `exec_equivalence`; its slow inputs are regressions in `fuzz/regressions/`.

#![no_main]

use libfuzzer_sys::fuzz_target;

use regex_chess_testkit::fuzz_equivalence as equivalence;

fuzz_target!(|data: &[u8]| {
    equivalence::run(data, &equivalence::LARGE);
});
