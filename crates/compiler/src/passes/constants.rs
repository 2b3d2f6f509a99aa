//! Constant inlining: a variable that only ever holds one pushed constant is not stored.
//!
//! The DSL records a constant as `push c; define _k`, and each use as `lookup _k`. When
//! `_k` is stored exactly once (assign or define), right after a `push`, is neither an input nor an output,
//! and is never deleted, taken or touched by hand-written rules, every `lookup _k` becomes `push c` and the
//! `push; define` pair goes. A push is one rule that does not scan the thread's
//! variables; a store is one or two rules that do, and the variable would be copied by every fork
//! until its last use.
//!
//! Like the peephole rewrites, this assumes what the DSL guarantees: a thread only looks
//! up variables it has assigned.

use std::collections::{HashMap, HashSet};

use crate::ir::{Instruction, IrProgram, Located, Var};

/// Inlines the constants.
pub fn run(ir: &IrProgram) -> IrProgram {
    let mut assigns: HashMap<&Var, usize> = HashMap::new();
    let mut touched: HashSet<&Var> = ir.inputs.iter().chain(&ir.outputs).collect();
    for located in &ir.body {
        match &located.instruction {
            Instruction::Assign(v) | Instruction::Define(v) => *assigns.entry(v).or_default() += 1,
            Instruction::Delete(v) | Instruction::Take(v) => {
                touched.insert(v);
            }
            Instruction::Rules { .. } => touched.extend(located.instruction.vars()),
            _ => {}
        }
    }
    let mut constants: HashMap<&Var, &str> = HashMap::new();
    let mut dropped: HashSet<usize> = HashSet::new();
    for (i, pair) in ir.body.windows(2).enumerate() {
        if let (Instruction::Push(c), Some(v)) =
            (&pair[0].instruction, pair[1].instruction.stored())
            && assigns.get(v) == Some(&1)
            && !touched.contains(v)
        {
            constants.insert(v, c);
            dropped.extend([i, i + 1]);
        }
    }
    let body = ir
        .body
        .iter()
        .enumerate()
        .filter(|(i, _)| !dropped.contains(i))
        .map(|(_, located)| match &located.instruction {
            Instruction::Lookup(v) if constants.contains_key(v) => Located {
                instruction: Instruction::Push(constants[v].to_string()),
                site: located.site,
            },
            _ => located.clone(),
        })
        .collect();
    IrProgram { body, ..ir.clone() }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ir::Site;

    #[test]
    fn inlines_single_assignment_constants_only() {
        use Instruction::*;
        let v = Var::new;
        let site = Site::caller();
        let ir = IrProgram {
            body: [
                Push("1".into()),
                Assign(v("k")),
                Push("2".into()),
                Assign(v("twice")),
                Push("3".into()),
                Assign(v("twice")),
                Lookup(v("k")),
                Lookup(v("twice")),
                Push("4".into()),
                Assign(v("out")),
            ]
            .into_iter()
            .map(|instruction| Located { instruction, site })
            .collect(),
            outputs: vec![v("out")],
            ..IrProgram::default()
        };
        let body: Vec<_> = run(&ir).body.into_iter().map(|l| l.instruction).collect();
        assert_eq!(
            body,
            vec![
                Push("2".into()),
                Assign(v("twice")),
                Push("3".into()),
                Assign(v("twice")),
                Push("1".into()),
                Lookup(v("twice")),
                Push("4".into()),
                Assign(v("out")),
            ]
        );
    }
}
