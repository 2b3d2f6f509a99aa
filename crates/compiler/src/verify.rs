//! The IR verifier: what every instruction list must hold, as recorded and after every
//! pass, so that a pass that breaks the program fails where it breaks it rather than as a
//! wrong move many rules later.
//!
//! # Contract
//!
//! [`verify`] returns every [`Problem`] it finds (empty: the list holds), each naming the
//! instruction's index and what is wrong:
//!
//! - **Tags**: every tag that pauses threads (`cond`, `cond_not`, `pause`) is reactivated
//!   later, and every `reactivate` wakes a tag that something paused since its last
//!   wake-up: no thread is left paused at the end, and no wake-up is dead.
//! - **Group boundaries**: every `mark_groups` level is unmarked later, and no level is
//!   unmarked that is not marked.
//! - **Variables**: a `lookup`, `take` or `delete` names a variable that is an input or
//!   stored (`assign`, `define`, a `rules` instruction's writes) earlier in the list;
//!   every output is an input or stored somewhere.
//! - **Operands**: a `keep_top` keeps at least one thread (`keep = 0` deletes every
//!   active thread: that is `destroy`).
//! - **Removed reads**: no read of a variable the list itself removed before, on every
//!   thread that ran the removal ([`crate::passes::removed_reads`]).
//!
//! [`crate::compile`] runs it on the recorded list and after every pass in debug builds
//! and tests (`cfg!(debug_assertions)`), and panics with the pass's name and the problems:
//! a failure is a bug in the program's DSL code or in a pass, never bad user input.
//!
//! Trade-offs: the checks are linear or close to it (the removed-read check builds the
//! conditionals' regions once), so verifying a chess program adds well under a second to
//! a debug compilation. Stack depths are not checked: branches and forks make them
//! depend on the path, and lowering's own shapes would have to be modelled.

use std::collections::{HashMap, HashSet};

use crate::ir::{Instruction, IrProgram, Tag, Var};
use crate::passes::removed_reads::removed_reads;

/// One broken invariant: where and what.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Problem {
    /// The instruction's index in the list (the list's length for what is missing at
    /// the end).
    pub index: usize,
    /// What is wrong, in words.
    pub message: String,
}

impl std::fmt::Display for Problem {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "instruction {}: {}", self.index, self.message)
    }
}

/// Every broken invariant of `ir` (see the module docs), in list order.
pub fn verify(ir: &IrProgram) -> Vec<Problem> {
    let mut problems = Vec::new();
    tags(ir, &mut problems);
    groups(ir, &mut problems);
    variables(ir, &mut problems);
    operands(ir, &mut problems);
    for (read, removal, var) in removed_reads(ir) {
        problems.push(Problem {
            index: read,
            message: format!("reads `{var}`, which instruction {removal} removed"),
        });
    }
    problems.sort_by_key(|p| p.index);
    problems
}

/// Panics, naming `stage` and every problem, when `ir` breaks an invariant.
pub fn assert_valid(ir: &IrProgram, stage: &str) {
    let problems = verify(ir);
    if !problems.is_empty() {
        let list: Vec<String> = problems
            .iter()
            .take(20)
            .map(|p| {
                let site = ir.body.get(p.index).map_or(String::new(), |l| {
                    format!(" (`{}` at {})", l.instruction, l.site)
                });
                format!("  {p}{site}")
            })
            .collect();
        panic!(
            "the IR of `{}` {stage} breaks {} invariant(s):\n{}",
            ir.name,
            problems.len(),
            list.join("\n")
        );
    }
}

fn tags(ir: &IrProgram, problems: &mut Vec<Problem>) {
    let mut paused: HashMap<Tag, usize> = HashMap::new();
    for (i, located) in ir.body.iter().enumerate() {
        match &located.instruction {
            Instruction::Cond { tag } | Instruction::CondNot { tag } | Instruction::Pause(tag) => {
                paused.entry(*tag).or_insert(i);
            }
            Instruction::Reactivate(tag) if paused.remove(tag).is_none() => {
                problems.push(Problem {
                    index: i,
                    message: format!("wakes `{tag}`, which nothing paused since"),
                });
            }
            _ => {}
        }
    }
    for (tag, at) in paused {
        problems.push(Problem {
            index: at,
            message: format!("pauses threads under `{tag}`, which nothing wakes later"),
        });
    }
}

fn groups(ir: &IrProgram, problems: &mut Vec<Problem>) {
    let mut marked: HashMap<u32, usize> = HashMap::new();
    for (i, located) in ir.body.iter().enumerate() {
        match &located.instruction {
            Instruction::MarkGroups { level, .. } => {
                marked.entry(*level).or_insert(i);
            }
            Instruction::UnmarkGroups { level } if marked.remove(level).is_none() => {
                problems.push(Problem {
                    index: i,
                    message: format!("unmarks group level {level}, which is not marked"),
                });
            }
            _ => {}
        }
    }
    for (level, at) in marked {
        problems.push(Problem {
            index: at,
            message: format!("marks group level {level}, which nothing unmarks"),
        });
    }
}

fn operands(ir: &IrProgram, problems: &mut Vec<Problem>) {
    for (i, located) in ir.body.iter().enumerate() {
        if let Instruction::KeepTop { keep: 0, .. } = located.instruction {
            problems.push(Problem {
                index: i,
                message: "keeps no thread of each run (keep = 0): that is `destroy`".to_string(),
            });
        }
    }
}

fn variables(ir: &IrProgram, problems: &mut Vec<Problem>) {
    let mut stored: HashSet<&Var> = ir.inputs.iter().collect();
    for (i, located) in ir.body.iter().enumerate() {
        match &located.instruction {
            Instruction::Lookup(v) | Instruction::Take(v) | Instruction::Delete(v)
                if !stored.contains(v) =>
            {
                let what = located.instruction.name();
                problems.push(Problem {
                    index: i,
                    message: format!("{what}s `{v}`, which is no input and stored nowhere before"),
                });
            }
            Instruction::Assign(v) | Instruction::Define(v) => {
                stored.insert(v);
            }
            Instruction::Rules { writes, .. } => stored.extend(writes),
            _ => {}
        }
    }
    for v in &ir.outputs {
        if !stored.contains(v) {
            problems.push(Problem {
                index: ir.body.len(),
                message: format!("the output `{v}` is no input and stored nowhere"),
            });
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ir::{Located, Side, Site};

    fn program(instructions: Vec<Instruction>) -> IrProgram {
        let site = Site::caller();
        IrProgram {
            body: instructions
                .into_iter()
                .map(|instruction| Located { instruction, site })
                .collect(),
            inputs: vec![Var::new("x")],
            ..IrProgram::default()
        }
    }

    fn messages(ir: &IrProgram) -> Vec<String> {
        verify(ir).into_iter().map(|p| p.to_string()).collect()
    }

    #[test]
    fn a_balanced_conditional_holds() {
        use Instruction::*;
        let (t, e) = (
            Tag {
                id: 1,
                side: Side::Then,
            },
            Tag {
                id: 1,
                side: Side::Else,
            },
        );
        let ir = program(vec![
            Lookup(Var::new("x")),
            Cond { tag: e },
            Pause(t),
            Reactivate(e),
            Define(Var::new("y")),
            Reactivate(t),
            Lookup(Var::new("y")),
        ]);
        assert_eq!(messages(&ir), Vec::<String>::new());
    }

    #[test]
    fn each_broken_invariant_is_named() {
        use Instruction::*;
        let e = Tag {
            id: 2,
            side: Side::Else,
        };
        let ir = program(vec![
            Cond { tag: e },
            Reactivate(Tag {
                id: 3,
                side: Side::Then,
            }),
            MarkGroups {
                level: 1,
                one_left: false,
            },
            UnmarkGroups { level: 2 },
            Lookup(Var::new("nowhere")),
            Delete(Var::new("x")),
            Lookup(Var::new("x")),
            KeepTop {
                bits: 4,
                keep: 0,
                max_threads: 8,
                best: crate::ir::Best::Max,
            },
        ]);
        let found = messages(&ir);
        let expect = [
            "instruction 0: pauses threads under",
            "instruction 1: wakes",
            "instruction 2: marks group level 1",
            "instruction 3: unmarks group level 2",
            "instruction 4: lookups `nowhere`",
            "instruction 6: reads `x`, which instruction 5 removed",
            "instruction 7: keeps no thread",
        ];
        assert_eq!(found.len(), expect.len(), "{found:#?}");
        for (message, start) in found.iter().zip(expect) {
            assert!(message.starts_with(start), "{message} / {start}");
        }
    }
}
