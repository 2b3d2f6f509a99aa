//! Hand-designed rules ([`crate::ir::Instruction::Rules`]): emitted as written.
//!
//! The instruction is the compiler's escape hatch for rules that no other instruction
//! expresses, such as the chess board's stride patterns (`crates/chess/`). Each rule keeps
//! the instruction's origin, with `rules:<name>` as the instruction name, so profiles
//! attribute its cost to the DSL call that recorded it. The rules are not checked here;
//! [`regex_chess_machine::program::Program::validate`] refuses a pattern the `regex` crate refuses.

use super::Out;

/// Emits `rules` in order.
pub fn rules(out: &mut Out, rules: &[(String, String)]) {
    for (pattern, replacement) in rules {
        out.rule(pattern.clone(), replacement.clone());
    }
}
