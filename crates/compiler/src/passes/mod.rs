//! Passes over the instruction list. Each takes a program and returns a new one; each can
//! be switched off in [`super::CompileOptions`] so its effect can be measured.
//!
//! - [`constants`]: push constants where they are used instead of storing them.
//! - [`dead_vars`]: delete every variable right after its last use.
//! - [`peephole`]: drop instruction sequences that do nothing (push then pop, pause then
//!   reactivate...).
//! - [`joins`]: fewer control rules where the branches of an `if` meet (common tails
//!   after the join, conditions known or constant in a branch, `cond_not` for an `if`
//!   with an empty then-branch); the peephole pass runs again after it.
//!
//! - [`group_stash`]: in a group that ends with one thread, the variables it never
//!   mentions kept once in each group's boundary instead of in every forked thread
//!   (only groups that make that promise; always on).
//!
//! They run in that order. Dead-variable elimination comes before the peephole pass
//! because it is what exposes `define x; lookup x; delete x` to it, and the peephole pass
//! then leaves intermediate results on the stack instead of in variables. The joins pass
//! reads the conditionals in the shapes the peephole pass leaves, and its output no
//! longer nests the way dead-variable elimination expects: it comes last.
//!
//! [`removed_reads`] is a check on the recorded list, not a pass: reads of a variable the
//! program removed before, which match nothing at run time.

pub mod constants;
pub mod dead_vars;
pub mod group_stash;
pub mod joins;
pub mod peephole;
pub mod removed_reads;

use super::ir::{Instruction, IrProgram};

/// A program of `instructions`, all at one site, with nothing else declared: the passes'
/// unit tests build their inputs with it.
#[cfg(test)]
fn test_program(instructions: Vec<Instruction>) -> IrProgram {
    let site = super::ir::Site::caller();
    IrProgram {
        body: instructions
            .into_iter()
            .map(|instruction| super::ir::Located { instruction, site })
            .collect(),
        ..IrProgram::default()
    }
}

/// The largest number of variables a thread can hold at once, counted along the
/// instruction list (inputs at the start, `assign` and `define` add, `delete` and `take`
/// remove).
pub fn peak_vars(ir: &IrProgram) -> usize {
    let mut held: std::collections::HashSet<&str> = ir.inputs.iter().map(|v| v.name()).collect();
    let mut peak = held.len();
    for located in &ir.body {
        match &located.instruction {
            Instruction::Assign(v) | Instruction::Define(v) => {
                held.insert(v.name());
            }
            Instruction::Delete(v) | Instruction::Take(v) => {
                held.remove(v.name());
            }
            _ => {}
        }
        peak = peak.max(held.len());
    }
    peak
}
