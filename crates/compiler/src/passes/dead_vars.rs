//! Dead-variable elimination: `delete x` right after the last use of `x`.
//!
//! Forks copy every variable and lookups scan past every variable, so a variable that is
//! no longer read costs on every later rule. This pass finds, for each variable, the last
//! instruction that mentions it along the (straight-line) instruction list and inserts a
//! `delete` after it.
//!
//! Conditionals: both branches run one after the other over different threads, so the
//! list order is a valid liveness order (a variable read in the else-branch is live
//! throughout the then-branch). A delete only reaches active threads, so it must be placed
//! where every thread holding the variable is active: if the last use lies in a branch of
//! an `if` and the variable was defined outside that branch, the delete moves to just
//! after the whole `if` (repeatedly, for nested ones). A variable defined and last used in
//! the same branch is deleted in place.
//!
//! Threads: forks, gathers, tournaments and keep-tops only copy or drop whole threads, so a
//! delete after the last use is right for every thread alive at that point.
//!
//! Hand-written rules ([`Instruction::Rules`]) count as a use of every variable they
//! declare (read or written).
//!
//! Left alone: outputs, and any variable the program already deletes itself. Inputs that
//! are never read are deleted at the very start. An inserted delete takes the call site
//! of the instruction it follows (the last use, or the end of the `if` it was moved
//! after), so profiles charge it to the code that made the variable live that long.

use std::collections::{BTreeMap, HashMap, HashSet};

use crate::ir::{Instruction, IrProgram, Located, Side, Var};

/// The shape of one conditional in the list (indices of its control instructions).
#[derive(Clone, Copy, Debug)]
pub(super) struct Region {
    cond: usize,
    then_end: usize,
    else_start: usize,
    end: usize,
}

impl Region {
    /// Whether position `i` lies between the condition and the last wake-up.
    pub(super) fn contains(&self, i: usize) -> bool {
        self.cond < i && i < self.end
    }

    /// Which branch position `i` lies in: 0 then, 1 else, 2 a control instruction.
    pub(super) fn branch(&self, i: usize) -> u8 {
        if self.cond < i && i < self.then_end {
            0
        } else if self.else_start < i && i < self.end {
            1
        } else {
            2
        }
    }
}

/// The control instructions of one conditional, as found in the list.
#[derive(Default)]
struct Seen {
    cond: Option<usize>,
    pause_then: Option<usize>,
    wake_else: Option<usize>,
    last: usize,
}

/// Every conditional of `ir`, found by the tags of its control instructions.
pub(super) fn regions(ir: &IrProgram) -> Vec<Region> {
    let mut by_id: HashMap<u32, Seen> = HashMap::new();
    for (i, located) in ir.body.iter().enumerate() {
        let Some(tag) = located.instruction.tag() else {
            continue;
        };
        let seen = by_id.entry(tag.id).or_default();
        seen.last = i;
        match (&located.instruction, tag.side) {
            (Instruction::Cond { .. }, _) => seen.cond = Some(i),
            (Instruction::Pause(_), Side::Then) => seen.pause_then = Some(i),
            (Instruction::Reactivate(_), Side::Else) => seen.wake_else = Some(i),
            _ => {}
        }
    }
    by_id
        .into_values()
        .filter_map(|seen| {
            Some(Region {
                cond: seen.cond?,
                then_end: seen.pause_then.unwrap_or(seen.last),
                else_start: seen.wake_else.unwrap_or(seen.last),
                end: seen.last,
            })
        })
        .collect()
}

/// Where the delete of a variable first defined at `def` and last used at `last` goes:
/// the index after which it is inserted.
fn delete_point(regions: &[Region], def: Option<usize>, last: usize) -> usize {
    let mut around: Vec<&Region> = regions.iter().filter(|r| r.contains(last)).collect();
    around.sort_by_key(|r| r.end - r.cond);
    let mut at = last;
    for region in around {
        let same_branch = def.is_some_and(|d| {
            region.contains(d) && region.branch(d) == region.branch(at) && region.branch(d) < 2
        });
        if same_branch {
            break;
        }
        at = region.end;
    }
    at
}

/// Inserts the deletes.
pub fn run(ir: &IrProgram) -> IrProgram {
    let regions = regions(ir);
    let keep: HashSet<&Var> = ir.outputs.iter().collect();
    let mut first: HashMap<&Var, usize> = HashMap::new();
    let mut last: HashMap<&Var, usize> = HashMap::new();
    let mut deleted: HashSet<&Var> = HashSet::new();
    for (i, located) in ir.body.iter().enumerate() {
        match &located.instruction {
            Instruction::Delete(v) | Instruction::Take(v) => {
                deleted.insert(v);
            }
            Instruction::Lookup(v) | Instruction::Assign(v) | Instruction::Define(v) => {
                first.entry(v).or_insert(i);
                last.insert(v, i);
            }
            Instruction::Rules { .. } => {
                for v in located.instruction.vars() {
                    first.entry(v).or_insert(i);
                    last.insert(v, i);
                }
            }
            _ => {}
        }
    }
    let inputs: HashSet<&Var> = ir.inputs.iter().collect();
    // Deletes to insert after index i (None: before everything).
    let mut after: BTreeMap<Option<usize>, Vec<Var>> = BTreeMap::new();
    let mut vars: Vec<&Var> = last.keys().copied().chain(inputs.iter().copied()).collect();
    vars.sort();
    vars.dedup();
    for var in vars {
        if keep.contains(var) || deleted.contains(var) {
            continue;
        }
        let slot = match last.get(var) {
            None => None,
            Some(&l) => {
                let def = if inputs.contains(var) {
                    None
                } else {
                    first.get(var).copied()
                };
                Some(delete_point(&regions, def, l))
            }
        };
        after.entry(slot).or_default().push(var.clone());
    }
    let mut body = Vec::with_capacity(ir.body.len() + after.len());
    let site_of = |i: usize| ir.body[i].site;
    if let Some(vars) = after.get(&None) {
        for v in vars {
            body.push(Located {
                instruction: Instruction::Delete(v.clone()),
                site: site_of(0),
            });
        }
    }
    for (i, located) in ir.body.iter().enumerate() {
        body.push(located.clone());
        if let Some(vars) = after.get(&Some(i)) {
            for v in vars {
                body.push(Located {
                    instruction: Instruction::Delete(v.clone()),
                    site: site_of(i),
                });
            }
        }
    }
    IrProgram { body, ..ir.clone() }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ir::{Site, Tag};

    fn deletes_after(ir: &IrProgram) -> Vec<(usize, String)> {
        // (how many original instructions come before the delete, variable)
        let out = run(ir);
        let mut original = 0usize;
        let mut found = Vec::new();
        for located in &out.body {
            match &located.instruction {
                Instruction::Delete(v) if !ir.body.iter().any(|l| l == located) => {
                    found.push((original, v.name().to_string()));
                }
                _ => original += 1,
            }
        }
        found
    }

    /// [`deletes_after`] for a program of `body` with those inputs and outputs, sorted.
    fn sorted_deletes(
        body: Vec<Instruction>,
        inputs: &[&str],
        outputs: &[&str],
    ) -> Vec<(usize, String)> {
        let site = Site::caller();
        let ir = IrProgram {
            body: body
                .into_iter()
                .map(|instruction| Located { instruction, site })
                .collect(),
            inputs: inputs.iter().copied().map(Var::new).collect(),
            outputs: outputs.iter().copied().map(Var::new).collect(),
            ..IrProgram::default()
        };
        let mut found = deletes_after(&ir);
        found.sort();
        found
    }

    #[test]
    fn deletes_after_last_use_and_hoists_out_of_branches() {
        use Instruction::*;
        let v = Var::new;
        let tag = |side| Tag { id: 0, side };
        let body = vec![
            Lookup(v("c")), // 0
            Cond {
                tag: tag(Side::Else),
            }, // 1
            Lookup(v("a")), // 2: a's last use, in the then-branch
            Assign(v("t")), // 3: branch-local
            Lookup(v("t")), // 4: t's last use
            Assign(v("r")), // 5
            Pause(tag(Side::Then)), // 6
            Reactivate(tag(Side::Else)), // 7
            Push("1".into()), // 8
            Assign(v("r")), // 9
            Reactivate(tag(Side::Then)), // 10
            Lookup(v("r")), // 11
            Assign(v("out")), // 12
        ];
        assert_eq!(
            sorted_deletes(body, &["a", "c", "unused"], &["out"]),
            vec![
                (0, "unused".to_string()),
                (1, "c".to_string()),
                (5, "t".to_string()),
                (11, "a".to_string()),
                (12, "r".to_string()),
            ]
        );
    }

    #[test]
    fn hand_written_rules_use_the_variables_they_declare() {
        use Instruction::*;
        let v = Var::new;
        let rules = |reads: &[&str], writes: &[&str]| Rules {
            name: "r".into(),
            rules: vec![],
            reads: reads.iter().map(|n| v(n)).collect(),
            writes: writes.iter().map(|n| v(n)).collect(),
        };
        let body = vec![
            rules(&[], &["b", "t"]), // 0: creates b and t
            Lookup(v("t")),          // 1: t's last use
            Assign(v("out")),        // 2
            rules(&["b"], &["m"]),   // 3: b's last use; m is never read
        ];
        assert_eq!(
            sorted_deletes(body, &[], &["out"]),
            vec![
                (2, "t".to_string()),
                (4, "b".to_string()),
                (4, "m".to_string()),
            ]
        );
    }
}
