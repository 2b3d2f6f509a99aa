//! Peephole clean-ups: instruction sequences that leave every thread as it was.
//!
//! | sequence | becomes |
//! | --- | --- |
//! | `push v; pop`, `lookup x; pop`, `dup; pop` | nothing |
//! | `swap; swap` | nothing |
//! | `assign x; lookup x; delete x` | nothing (the value stays on the stack) |
//! | `assign x; delete x` | `pop` |
//! | `lookup x; lookup x` | `lookup x; dup` (dup does not scan the variables) |
//! | `pause t; reactivate t` | nothing |
//! | `pause t; reactivate e ...; reactivate t` | `reactivate e ...` (an `if` with no else) |
//!
//! The rewrites assume what the DSL guarantees: a lookup finds its variable, the stack
//! holds what an instruction pops, and a temporary is assigned at most once per thread.
//! The pass works on the tail of the output as it is built, so a rewrite that exposes
//! another (a `pop` after a `push`) is taken at once.

use crate::compiler::ir::{Instruction, IrProgram, Located};

/// Applies the rewrites until none applies.
pub fn run(ir: &IrProgram) -> IrProgram {
    let mut body: Vec<Located> = Vec::with_capacity(ir.body.len());
    for located in &ir.body {
        push(&mut body, located.clone());
    }
    IrProgram { body, ..ir.clone() }
}

fn push(body: &mut Vec<Located>, next: Located) {
    use Instruction::*;
    let n = body.len();
    let last = body.last().map(|l| &l.instruction);
    let before_last = n.checked_sub(2).map(|i| &body[i].instruction);
    match (&next.instruction, last, before_last) {
        (Pop, Some(Push(_) | Lookup(_) | Dup), _) | (Swap, Some(Swap), _) => {
            body.pop();
        }
        (Delete(x), Some(Lookup(y)), Some(Assign(z))) if x == y && y == z => {
            body.truncate(n - 2);
        }
        (Delete(x), Some(Assign(y)), _) if x == y => {
            let site = body.pop().expect("checked").site;
            push(
                body,
                Located {
                    instruction: Pop,
                    site,
                },
            );
        }
        (Lookup(x), Some(Lookup(y)), _) if x == y => body.push(Located {
            instruction: Dup,
            site: next.site,
        }),
        (Reactivate(t), _, _) => {
            let wakes = body
                .iter()
                .rev()
                .take_while(|l| matches!(l.instruction, Reactivate(u) if u != *t))
                .count();
            match n.checked_sub(wakes + 1).map(|i| &body[i].instruction) {
                Some(Pause(u)) if u == t => {
                    body.remove(n - wakes - 1);
                }
                _ => body.push(next),
            }
        }
        _ => body.push(next),
    }
}
