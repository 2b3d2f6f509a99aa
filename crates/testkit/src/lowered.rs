//! Helpers shared by the compiler tests: run rules on both executors, build states.

use regex_chess_compiler::encode::{self, Thread};
use regex_chess_compiler::ir::{Instruction, IrProgram, Located, Site};
use regex_chess_compiler::lower;
use regex_chess_machine::exec::{Executor, fast::Fast, reference::Reference};
use regex_chess_machine::program::{Program, ValidProgram};

/// Runs `program` on `state` with both executors, checks they agree, returns the result.
pub fn run_both(program: &ValidProgram, state: &str) -> String {
    let reference = Reference::new(program.clone()).run(state);
    let fast = Fast::new(program.clone()).run(state);
    assert_eq!(reference, fast, "the executors disagree");
    reference.expect("the test's program stays within the state limit")
}

/// Like [`run_both`], also returning the largest state seen (by the reference).
pub fn run_both_with_peak(program: &ValidProgram, state: &str) -> (String, usize) {
    let (reference, stats) = Reference::new(program.clone())
        .run_with_stats(state)
        .expect("the test's program stays within the state limit");
    let fast = Fast::new(program.clone()).run(state);
    assert_eq!(Ok(&reference), fast.as_ref(), "the executors disagree");
    (reference, stats.max_state_len)
}

/// Lowers raw instructions (no passes) and validates the rules.
#[track_caller]
pub fn rules(instructions: &[Instruction]) -> ValidProgram {
    let site = Site::caller();
    let ir = IrProgram {
        body: instructions
            .iter()
            .map(|i| Located {
                instruction: i.clone(),
                site,
            })
            .collect(),
        ..IrProgram::default()
    };
    validate(lower::lower(&ir))
}

/// Validates a program, panicking with the rule that failed.
pub fn validate(program: Program) -> ValidProgram {
    program.validate().unwrap_or_else(|e| panic!("{e}"))
}

/// A paused thread that no thread-local instruction may touch.
pub fn bystander(tag: &str) -> Thread {
    Thread::active(&["T", "F", "", "0101"], &[("x", "1"), ("xs", ";a;b")]).paused(tag)
}

/// Runs `instructions` on each `(before, after)` case, all at once in one state where
/// paused threads sit between and around them (they must stay as they were).
#[track_caller]
pub fn check_local(instructions: &[Instruction], cases: &[(Thread, Thread)]) {
    let program = rules(instructions);
    let mut before = vec![bystander("p_first")];
    let mut after = vec![bystander("p_first")];
    for (i, (b, a)) in cases.iter().enumerate() {
        before.push(b.clone());
        after.push(a.clone());
        let tag = format!("p{i}");
        before.push(bystander(&tag));
        after.push(bystander(&tag));
    }
    let out = run_both(&program, &encode::render(&before));
    assert_eq!(
        encode::threads(&out),
        after,
        "instructions {instructions:?}\nstate after:\n{out}"
    );
}

/// An active thread with only a stack.
pub fn stack(values: &[&str]) -> Thread {
    Thread::active(values, &[])
}

/// `n`-bit encoding shorthand.
pub fn int(bits: u8, v: i64) -> String {
    encode::int(bits, v)
}
