//! A check, not a pass: reads of a variable that the program itself removed before.
//!
//! At run time a `lookup x` or `take x` on a thread without `#x` matches nothing: the
//! stack stays as it was, and a `cond` after it finds no boolean and leaves the thread in
//! the first branch. No rule fails, so such a read is silent. [`removed_reads`] finds the
//! reads that follow a `delete x` or `take x` recorded by the program (before any pass)
//! with no `define x` or `assign x` in between, where every thread that ran the removal
//! also runs the read: the read lies in the same branch as the removal of every
//! conditional around the removal (it may lie in further conditionals of its own).
//!
//! Left out: a read after the end of a conditional that removed `x` in one branch. The
//! threads of that branch lack `x` there, but the read may sit under a condition that
//! excludes them (the program deletes a child's empty `near` under `near == ""` and
//! reads it on the leaves under the negation), which the check cannot see.
//!
//! Hand-written rules ([`Instruction::Rules`]) do not count as storing the variables they
//! declare: a rule that rewrites `#x` in place writes nothing where it is gone.
//! A store in another branch still counts (the check stays silent rather than wrong).

use std::collections::HashMap;

use super::dead_vars::{Region, regions};
use crate::ir::{Instruction, IrProgram, Var};

/// Whether every thread active at `removal` is active at `read` too (`removal < read`).
fn same_threads(regions: &[Region], removal: usize, read: usize) -> bool {
    regions
        .iter()
        .filter(|r| r.contains(removal))
        .all(|r| r.contains(read) && r.branch(read) == r.branch(removal))
}

/// The reads (`lookup`, `take`) of a variable the program removed before, as (index of
/// the read, index of the removal, variable).
pub fn removed_reads(ir: &IrProgram) -> Vec<(usize, usize, Var)> {
    let regions = regions(ir);
    let mut gone: HashMap<&Var, usize> = HashMap::new();
    let mut found = Vec::new();
    for (j, located) in ir.body.iter().enumerate() {
        match &located.instruction {
            Instruction::Lookup(v) | Instruction::Take(v) => {
                if let Some(&i) = gone.get(v)
                    && same_threads(&regions, i, j)
                {
                    found.push((j, i, v.clone()));
                }
            }
            Instruction::Define(v) | Instruction::Assign(v) => {
                gone.remove(v);
            }
            _ => {}
        }
        if let Instruction::Delete(v) | Instruction::Take(v) = &located.instruction {
            gone.insert(v, j);
        }
    }
    found
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ir::{Side, Tag};

    use crate::passes::test_program as program;

    #[test]
    fn finds_reads_after_a_removal_on_the_same_threads_only() {
        use Instruction::*;
        let x = Var::new("x");
        let tag = |side| Tag { id: 1, side };
        // Straight line: take, then lookup.
        let ir = program(vec![Take(x.clone()), Pop, Lookup(x.clone())]);
        assert_eq!(removed_reads(&ir), vec![(2, 0, x.clone())]);
        // Defined again in between: fine.
        let ir = program(vec![
            Delete(x.clone()),
            Push("1".into()),
            Define(x.clone()),
            Lookup(x.clone()),
        ]);
        assert!(removed_reads(&ir).is_empty());
        // Deleted in the then-branch, read in the else-branch: other threads.
        let branches = |after: Vec<Instruction>| {
            let mut body = vec![
                Push("T".into()),
                Cond {
                    tag: tag(Side::Else),
                },
                Delete(x.clone()),
                Pause(tag(Side::Then)),
                Reactivate(tag(Side::Else)),
                Lookup(x.clone()),
                Pop,
                Reactivate(tag(Side::Then)),
            ];
            body.extend(after);
            program(body)
        };
        assert!(removed_reads(&branches(vec![])).is_empty());
        // After the `if`: left out (the read may be under a correlated condition).
        assert!(removed_reads(&branches(vec![Lookup(x.clone())])).is_empty());
        // Removed before an `if`, read inside it.
        let ir = program(vec![
            Delete(x.clone()),
            Push("T".into()),
            Cond {
                tag: tag(Side::Else),
            },
            Lookup(x.clone()),
            Pop,
            Reactivate(tag(Side::Else)),
        ]);
        assert_eq!(removed_reads(&ir), vec![(3, 0, x)]);
    }
}
