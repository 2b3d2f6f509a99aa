//! Peephole clean-ups: instruction sequences that leave every thread as it was.
//!
//! | sequence | becomes |
//! | --- | --- |
//! | `push v; pop`, `lookup x; pop`, `dup; pop` | nothing |
//! | `swap; swap` | nothing |
//! | `assign x; lookup x` | `dup; assign x` (dup does not scan the variables) |
//! | `assign x; lookup x; delete x` | nothing (the value stays on the stack) |
//! | `assign x; delete x` | `pop` |
//! | `lookup x; delete x` | `take x` (one rule instead of two) |
//! | `lookup x; lookup x` | `lookup x; dup` (dup does not scan the variables) |
//! | `define x; take x` | nothing (the value stays on the stack) |
//! | `define x; delete y; take x` | `delete y` |
//! | `rules` with no rule and no declared variable | nothing |
//! | `pause t; reactivate t` | nothing |
//! | `pause t; reactivate e ...; reactivate t` | `reactivate e ...` (an `if` with no else) |
//!
//! `define` is treated as `assign` throughout.
//!
//! The rewrites assume what the DSL guarantees: a lookup finds its variable, the stack
//! holds what an instruction pops, and a temporary is assigned at most once per thread.
//! The pass works on the tail of the output as it is built, so a rewrite that exposes
//! another (a `pop` after a `push`) is taken at once.

use crate::ir::{Instruction, IrProgram, Located};

/// Applies the rewrites until none applies.
pub fn run(ir: &IrProgram) -> IrProgram {
    let mut body: Vec<Located> = Vec::with_capacity(ir.body.len());
    for located in &ir.body {
        push(&mut body, located.clone());
    }
    IrProgram { body, ..ir.clone() }
}

/// Appends `next` to `body`, applying the rewrites at its end (the joins pass uses it on
/// the instructions around each rewrite of its own).
pub(super) fn push(body: &mut Vec<Located>, next: Located) {
    use Instruction::*;
    let n = body.len();
    let last = body.last().map(|l| &l.instruction);
    let before_last = n.checked_sub(2).map(|i| &body[i].instruction);
    match (&next.instruction, last, before_last) {
        (Pop, Some(Push(_) | Lookup(_) | Dup), _) | (Swap, Some(Swap), _) => {
            body.pop();
        }
        (Take(x), Some(Define(y)), _) if x == y => {
            body.pop();
        }
        (Take(x), Some(Delete(y)), Some(Define(z))) if x == z && x != y => {
            body.remove(n - 2);
        }
        (
            Rules {
                rules,
                reads,
                writes,
                ..
            },
            _,
            _,
        ) if rules.is_empty() && reads.is_empty() && writes.is_empty() => {}
        (Delete(x), Some(Lookup(y)), Some(z)) if x == y && z.stored() == Some(x) => {
            body.truncate(n - 2);
        }
        (Delete(x), Some(y), _) if y.stored() == Some(x) => {
            let site = body.pop().expect("checked").site;
            push(
                body,
                Located {
                    instruction: Pop,
                    site,
                },
            );
        }
        (Delete(x), Some(Lookup(y)), _) if x == y => {
            let last = body.last_mut().expect("checked");
            last.instruction = Take(x.clone());
        }
        (Lookup(x), Some(y), _) if y.stored() == Some(x) => {
            let store = body.pop().expect("checked");
            push(
                body,
                Located {
                    instruction: Dup,
                    site: next.site,
                },
            );
            push(body, store);
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ir::{Side, Tag, Var};

    use crate::passes::test_program as program;

    fn after(instructions: Vec<Instruction>) -> Vec<Instruction> {
        run(&program(instructions))
            .body
            .into_iter()
            .map(|l| l.instruction)
            .collect()
    }

    #[test]
    fn removes_do_nothing_sequences() {
        use Instruction::*;
        let x = Var::new("x");
        let y = Var::new("y");
        let then = Tag {
            id: 1,
            side: Side::Then,
        };
        let other = Tag {
            id: 1,
            side: Side::Else,
        };
        assert_eq!(after(vec![Push("T".into()), Pop]), vec![]);
        assert_eq!(after(vec![Not, Swap, Swap, Dup, Pop]), vec![Not]);
        // Cascades: the pop left by `assign; delete` cancels the lookup before it.
        assert_eq!(
            after(vec![
                Lookup(y.clone()),
                Assign(x.clone()),
                Delete(x.clone())
            ]),
            vec![]
        );
        assert_eq!(
            after(vec![
                Add { bits: 4 },
                Assign(x.clone()),
                Lookup(x.clone()),
                Delete(x.clone())
            ]),
            vec![Add { bits: 4 }]
        );
        assert_eq!(
            after(vec![
                Lookup(x.clone()),
                Lookup(x.clone()),
                Delete(x.clone())
            ]),
            vec![Lookup(x.clone()), Dup, Delete(x.clone())]
        );
        assert_eq!(
            after(vec![Lookup(x.clone()), Delete(x.clone())]),
            vec![Take(x.clone())]
        );
        assert_eq!(
            after(vec![Define(x.clone()), Lookup(x.clone()), Not]),
            vec![Dup, Define(x.clone()), Not]
        );
        assert_eq!(
            after(vec![
                Not,
                Define(x.clone()),
                Lookup(x.clone()),
                Delete(x.clone())
            ]),
            vec![Not]
        );
        assert_eq!(
            after(vec![Not, Define(x.clone()), Take(x.clone())]),
            vec![Not]
        );
        assert_eq!(
            after(vec![
                Not,
                Define(x.clone()),
                Delete(y.clone()),
                Take(x.clone())
            ]),
            vec![Not, Delete(y.clone())]
        );
        // An assign may replace an older value: kept.
        let kept = vec![Assign(x.clone()), Take(x.clone())];
        assert_eq!(after(kept.clone()), kept);
        let empty = Rules {
            name: "assign".into(),
            rules: vec![],
            reads: vec![],
            writes: vec![],
        };
        assert_eq!(after(vec![Not, empty, Pop]), vec![Not, Pop]);
        assert_eq!(after(vec![Pause(then), Reactivate(then)]), vec![]);
        assert_eq!(
            after(vec![Pause(then), Reactivate(other), Reactivate(then)]),
            vec![Reactivate(other)]
        );
        // A pause with real work before its reactivation stays.
        let kept = vec![Pause(then), Reactivate(other), Not, Reactivate(then)];
        assert_eq!(after(kept.clone()), kept);
    }
}
