//! Group stash: the variables a group never mentions kept once in its boundary, not in
//! every thread its forks make.
//!
//! A fork copies every variable of a thread, and every later rule scans past the copies.
//! Inside a group that ends with one thread (`MarkGroups { one_left: true }`, from
//! [`crate::dsl::Builder::grouped_to_one`]), a variable that no instruction of the group
//! mentions is neither read nor changed there, and the one thread left at the end is the
//! one that needs it again. So right after the mark, each such variable's line
//! `#x: value` moves from the thread into the lines under the thread's fresh boundary
//! (`%/<level>\n#x: value\n%%\n...`), one rule per variable; right before the unmark, one
//! rule moves every line under a boundary back to the end of the active thread after it,
//! and one more drops the lines of a group left with no thread.
//!
//! Which variables: those held at the mark, by the list order (inputs, then each
//! `assign`, `define` and declared `rules` write adds, each `delete` and `take`
//! removes), that no instruction between the mark and its unmark mentions
//! ([`Instruction::vars`]), less those an enclosing one-left group already keeps. The
//! list order may count a variable that some threads lack (defined in one branch): its
//! rule then matches nothing on them, and the unstash brings back only what moved.
//!
//! Why it is exact: the rules after the mark meet the same threads with fewer lines,
//! and none of them reaches the lines moved (each mentions the variables it reads and
//! writes, the convention dead-variable elimination already relies on; thread rules
//! start at a thread's `%` head and stop at the next `%`, so they never see the lines
//! under a boundary, and boundaries are never matched by a thread rule). Gathers,
//! tournaments and keep-tops end their runs at a boundary line whatever lines follow it.
//! At the end the one thread of each group gets its lines back (their order among its
//! variables changes; variables are found by name). A group whose promise does not hold (two
//! threads left, or one paused) loses the lines of its first thread or of all: the
//! promise is the program's, as the verifier cannot check it.
//!
//! Trade-offs: `1 + k` rules per one-left group with `k` variables kept, and one more
//! to drop the lines of empty groups; the unstash rules match across the boundary line,
//! so they are not local (`\n%` inside a match) and a multi-core run splits them as
//! stretches. The pass runs last, after the joins: nothing moves the instructions
//! around the stash afterwards.

use std::collections::HashSet;

use crate::ir::{Instruction, IrProgram, Located, Var};

/// The one-left groups' marks (their indices) with the variables each keeps and the
/// index of its unmark.
struct Stash {
    mark: usize,
    unmark: usize,
    vars: Vec<Var>,
}

/// The program with every one-left group's unmentioned variables kept in its boundaries.
pub fn run(ir: &IrProgram) -> IrProgram {
    let stashes = find(ir);
    if stashes.is_empty() {
        return ir.clone();
    }
    let mut body = Vec::with_capacity(ir.body.len() + 2 * stashes.len());
    for (i, located) in ir.body.iter().enumerate() {
        for stash in stashes.iter().filter(|s| s.unmark == i) {
            body.push(Located {
                instruction: unstash(located, stash),
                site: located.site,
            });
        }
        body.push(located.clone());
        for stash in stashes.iter().filter(|s| s.mark == i) {
            body.push(Located {
                instruction: stash_rules(located, stash),
                site: located.site,
            });
        }
    }
    IrProgram { body, ..ir.clone() }
}

/// The level of a mark or unmark.
fn level(instruction: &Instruction) -> u32 {
    match instruction {
        Instruction::MarkGroups { level, .. } | Instruction::UnmarkGroups { level } => *level,
        _ => unreachable!("only marks and unmarks have a level"),
    }
}

/// The rules that move each of `stash`'s variables under the boundary before its thread.
fn stash_rules(mark: &Located, stash: &Stash) -> Instruction {
    let level = level(&mark.instruction);
    let rules = stash
        .vars
        .iter()
        .map(|var| {
            (
                format!(
                    "(%/{level}\n(?:#[^\n]*\n)*)(%%\n#stack:\n(?:[^%\n]*\n)*)(#{var}: [^\n]*\n)"
                ),
                "${1}${3}${2}".to_string(),
            )
        })
        .collect();
    Instruction::Rules {
        name: "group_stash".to_string(),
        rules,
        reads: stash.vars.clone(),
        writes: stash.vars.clone(),
    }
}

/// The rules that move the lines under each boundary of the level back to the end of
/// the active thread after it, and drop those of a group left with no thread.
fn unstash(unmark: &Located, stash: &Stash) -> Instruction {
    let level = level(&unmark.instruction);
    Instruction::Rules {
        name: "group_unstash".to_string(),
        rules: vec![
            (
                format!("(%/{level}\n)((?:#[^\n]*\n)+)(%%\n[^%]*)"),
                "${1}${3}${2}".to_string(),
            ),
            (format!("(%/{level}\n)(?:#[^\n]*\n)+"), "${1}".to_string()),
        ],
        reads: stash.vars.clone(),
        writes: stash.vars.clone(),
    }
}

/// Every one-left group with at least one variable to keep, in list order.
fn find(ir: &IrProgram) -> Vec<Stash> {
    let mut held: Vec<Var> = ir.inputs.clone();
    let mut stashes = Vec::new();
    // The one-left groups open at `i`: their unmark and the variables they keep.
    let mut open: Vec<(usize, Vec<Var>)> = Vec::new();
    for (i, located) in ir.body.iter().enumerate() {
        open.retain(|(unmark, _)| *unmark > i);
        let instruction = &located.instruction;
        if let Instruction::MarkGroups {
            level,
            one_left: true,
        } = instruction
        {
            let unmark = (i + 1..ir.body.len()).find(|&j| {
                matches!(&ir.body[j].instruction, Instruction::UnmarkGroups { level: l } if l == level)
            });
            if let Some(unmark) = unmark {
                let mentioned: HashSet<&Var> = ir.body[i + 1..unmark]
                    .iter()
                    .flat_map(|l| l.instruction.vars())
                    .collect();
                let kept_outside: HashSet<&Var> = open.iter().flat_map(|(_, v)| v).collect();
                let vars: Vec<Var> = held
                    .iter()
                    .filter(|v| !mentioned.contains(v) && !kept_outside.contains(v))
                    .cloned()
                    .collect();
                if !vars.is_empty() {
                    stashes.push(Stash {
                        mark: i,
                        unmark,
                        vars: vars.clone(),
                    });
                }
                open.push((unmark, vars));
            }
        }
        match instruction {
            Instruction::Assign(v) | Instruction::Define(v) => hold(&mut held, v),
            Instruction::Rules { writes, .. } => writes.iter().for_each(|v| hold(&mut held, v)),
            Instruction::Delete(v) | Instruction::Take(v) => held.retain(|h| h != v),
            _ => {}
        }
    }
    stashes
}

/// Adds `var` to `held` (in first-held order) unless it is there.
fn hold(held: &mut Vec<Var>, var: &Var) {
    if !held.contains(var) {
        held.push(var.clone());
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::passes::test_program;

    fn var(name: &str) -> Var {
        Var::new(name)
    }

    #[test]
    fn keeps_only_what_the_group_never_mentions() {
        use Instruction::*;
        let mut ir = test_program(vec![
            Push("1".into()),
            Define(var("a")),
            Push("2".into()),
            Define(var("b")),
            Push("3".into()),
            Define(var("gone")),
            Delete(var("gone")),
            MarkGroups {
                level: 1,
                one_left: true,
            },
            Fork,
            Lookup(var("b")),
            Pop,
            UnmarkGroups { level: 1 },
            Lookup(var("a")),
        ]);
        ir.inputs = vec![var("input")];
        let out = run(&ir);
        let names: Vec<String> = out.body.iter().map(|l| l.instruction.to_string()).collect();
        let stash = names.iter().position(|n| n.starts_with("rules")).unwrap();
        assert_eq!(names[stash - 1], "mark_groups level=1 one_left");
        let Rules { reads, .. } = &out.body[stash].instruction else {
            unreachable!()
        };
        assert_eq!(reads, &vec![var("input"), var("a")]);
        assert!(names[names.len() - 3].starts_with("rules"));
        assert_eq!(names[names.len() - 2], "unmark_groups level=1");
    }

    #[test]
    fn leaves_plain_groups_alone() {
        use Instruction::*;
        let ir = test_program(vec![
            Push("1".into()),
            Define(var("a")),
            MarkGroups {
                level: 1,
                one_left: false,
            },
            Fork,
            UnmarkGroups { level: 1 },
            Lookup(var("a")),
        ]);
        assert_eq!(run(&ir).body.len(), ir.body.len());
    }
}
