//! Hand-written rules that work on the stack: the inputs are pushed with `lookup`, the
//! rules consume them and leave one value, which is assigned to a fresh temporary.
//!
//! This is how the search and the evaluation use [`Instruction::Rules`]: the rules never
//! read a variable themselves, so the passes' view of variables stays exact (each input
//! is an ordinary `lookup`), and every pattern starts at the head of an active thread.

use regex_chess_compiler::dsl::{Builder, Kind, Value};
use regex_chess_compiler::ir::{Instruction, Type, Var};

/// An [`Instruction::Rules`] with no declared variables (stack-only rules).
pub fn instruction(name: &str, rules: Vec<(String, String)>) -> Instruction {
    Instruction::Rules {
        name: name.to_string(),
        rules,
        reads: Vec::new(),
        writes: Vec::new(),
    }
}

/// Pushes `inputs` (the last ends on top), runs `rules`, which must replace them by
/// exactly one value, and returns it as a fresh temporary of type `ty`. No rules and one
/// input: a copy (or a cast to another type).
#[track_caller]
pub fn on_stack<K: Kind>(
    b: &mut Builder,
    name: &str,
    inputs: &[&Var],
    rules: Vec<(String, String)>,
    ty: Type,
) -> Value<K> {
    for var in inputs {
        b.emit(Instruction::Lookup((*var).clone()));
    }
    b.rules_value(name, rules, &[], ty)
}

/// Pushes `input`, records `body` (raw instructions that must turn it into exactly one
/// value) and returns the value as a fresh temporary of type `ty`.
#[track_caller]
pub fn sequence<K: Kind>(
    b: &mut Builder,
    input: &Var,
    body: Vec<Instruction>,
    ty: Type,
) -> Value<K> {
    b.emit(Instruction::Lookup(input.clone()));
    for instruction in body {
        b.emit(instruction);
    }
    b.rules_value("assign", Vec::new(), &[], ty)
}
