//! Joins: less control flow where the branches of an `if` meet.
//!
//! Every `if` pauses the threads of one branch while the other runs, and wakes them at
//! the join (see [`crate::lower::control`]). Each control rule scans the whole
//! state, and in the search's leaves the state holds a thousand threads, so this pass
//! rewrites the instruction list to need fewer of them, and fewer instructions run once
//! per branch. It reads the list as a tree of conditionals (the shapes the DSL records
//! and the peephole pass leaves: `cond e; A; pause t; reactivate e; B; reactivate t`,
//! or `cond e; A; reactivate e` without an else) and, from the innermost out:
//!
//! | rewrite | before | after |
//! | --- | --- | --- |
//! | common tails | `if c { A; X } else { B; X }` | `if c { A } else { B }; X` |
//! | known condition | inside `lookup c; cond` (or `dup; define c; cond`): `lookup c` | `push T` in the then-branch, `push F` in the else-branch |
//! | constant condition | `push T; if { A } else { B }` | `A` (and `B` for `push F`) |
//! | condition after a join | `if c { A; push T } else { B }; cond e` | `if c { A } else { B; cond e }` (then-threads stay active; `push F` becomes `pause e`) |
//! | empty then-branch | `cond e; pause t; reactivate e; B; reactivate t` | `cond_not t; B; reactivate t` |
//! | empty branches | `cond e; reactivate e` | `pop` |
//! | a branch that only waits | `if c { A } else { pause x }` | `cond x; A` (and `cond_not x` for a then-branch) |
//! | a read before the join | `if c { A; lookup x } else { B }; delete x` | `if c { A; take x } else { B; delete x }` |
//!
//! The common tail `X` is one instruction at a time from the end, and only a
//! *thread-local* one: its effect on a thread depends on that thread alone (stack,
//! variables, arithmetic, text, and hand-written rules whose every pattern starts at an
//! active thread's head and looks at no other thread). Such an instruction gives each
//! thread the same result whether it runs inside each branch or once after the join, on
//! the same threads: a paused thread is untouched, and after the join's wake-up the
//! active threads are exactly those of both branches. Forks, gathers, tournaments,
//! keep-tops and groups, which see runs of adjacent active threads, never move.
//!
//! A condition after a join is a thread-local test too, so it may run at the end of
//! each branch instead; the pass does so when a branch ends by pushing a constant,
//! which decides the test there: `push T` and the test vanish (those threads go on
//! into the then-branch after the join's wake-up), `push F` and the test become a pause
//! under the test's else-tag. With `if c { push T } else { B }` the then-branch is then
//! empty, and `cond_not` expresses the `if` without an else. This is how the leaves'
//! `has_legal_move` (quick test, then the slow one on the threads it could not settle)
//! feeds the `if` on its result.
//!
//! After each rewrite the peephole rules ([`super::peephole`]) run on the instructions
//! around it, so that a moved `define x` meets the `take x` after the join.
//!
//! Assumptions, as for the other passes: what the DSL guarantees (a condition is a
//! boolean, a variable read is held, a temporary is defined once per thread). The pass
//! runs after dead-variable elimination (whose regions assume the recorded shapes) and
//! before a last peephole pass. A list whose control instructions do not nest as above
//! is left as it is.

use std::collections::{HashMap, HashSet};

use super::peephole;
use crate::encode;
use crate::ir::{Instruction, IrProgram, Located, Side, Site, Tag, Var};
use crate::lower::{HEAD, HEAD_GROUP};

/// One element of a sequence: an instruction, or a whole conditional.
#[derive(Clone, Debug)]
enum Node {
    Op(Located),
    If(Box<If>),
}

/// How a conditional splits its threads.
#[derive(Clone, Debug)]
enum Head {
    /// `cond e<id>`: threads that pop `F` wait under the else-tag.
    Cond(Located),
    /// A conditional whose branches end with this one's test: `cond e<id>`, `pause
    /// e<id>` (the branch pushed `F`) or nothing (it pushed `T`).
    Distributed(Box<If>),
}

/// A conditional: the threads the head leaves active run `then`, the others wait under
/// `e<id>` and run `otherwise`.
#[derive(Clone, Debug)]
struct If {
    id: u32,
    head: Head,
    site: Site,
    then: Vec<Node>,
    otherwise: Vec<Node>,
}

impl If {
    fn tag(&self, side: Side) -> Tag {
        Tag { id: self.id, side }
    }
}

/// Rewrites the conditionals of `ir` (see the module docs).
pub fn run(ir: &IrProgram) -> IrProgram {
    let mut parser = Parser {
        body: &ir.body,
        at: 0,
    };
    let Some((tree, _)) = parser.seq(&[]) else {
        return ir.clone();
    };
    let tree = simplify(tree, &HashMap::new());
    let mut body = Vec::with_capacity(ir.body.len());
    flatten(tree, &mut body);
    IrProgram { body, ..ir.clone() }
}

/// Reads the instruction list as nested conditionals.
struct Parser<'a> {
    body: &'a [Located],
    at: usize,
}

impl Parser<'_> {
    /// The nodes up to the first instruction of `stops` (consumed and returned), or to
    /// the end of the list when `stops` is empty; `None` when the control instructions
    /// do not nest.
    fn seq(&mut self, stops: &[Instruction]) -> Option<(Vec<Node>, Option<Instruction>)> {
        let mut nodes = Vec::new();
        while let Some(located) = self.body.get(self.at) {
            self.at += 1;
            let instruction = &located.instruction;
            if stops.contains(instruction) {
                return Some((nodes, Some(instruction.clone())));
            }
            match instruction {
                Instruction::Cond { tag } if tag.side == Side::Else => {
                    nodes.push(Node::If(Box::new(self.conditional(located, *tag)?)));
                }
                Instruction::Cond { .. }
                | Instruction::CondNot { .. }
                | Instruction::Pause(_)
                | Instruction::Reactivate(_) => return None,
                _ => nodes.push(Node::Op(located.clone())),
            }
        }
        stops.is_empty().then_some((nodes, None))
    }

    /// The conditional opened by `cond` (already consumed).
    fn conditional(&mut self, cond: &Located, tag: Tag) -> Option<If> {
        let then_tag = Tag {
            id: tag.id,
            side: Side::Then,
        };
        let (then, stop) =
            self.seq(&[Instruction::Pause(then_tag), Instruction::Reactivate(tag)])?;
        let otherwise = if stop == Some(Instruction::Pause(then_tag)) {
            if self.body.get(self.at)?.instruction != Instruction::Reactivate(tag) {
                return None;
            }
            self.at += 1;
            self.seq(&[Instruction::Reactivate(then_tag)])?.0
        } else {
            Vec::new()
        };
        Some(If {
            id: tag.id,
            head: Head::Cond(cond.clone()),
            site: cond.site,
            then,
            otherwise,
        })
    }
}

/// What is known of boolean variables at a point: the value every active thread holds.
type Known = HashMap<Var, bool>;

/// Rewrites a sequence, knowing `known` on entry.
fn simplify(nodes: Vec<Node>, known: &Known) -> Vec<Node> {
    let mut known = known.clone();
    let mut out = Vec::with_capacity(nodes.len());
    for node in nodes {
        add(&mut out, node, &mut known);
    }
    out
}

fn add(out: &mut Vec<Node>, node: Node, known: &mut Known) {
    match node {
        Node::Op(located) => add_op(out, located, known),
        Node::If(conditional) => add_if(out, *conditional, known),
    }
}

/// The variables an instruction stores, deletes or (hand-written rules) may change.
fn written(instruction: &Instruction) -> Vec<&Var> {
    match instruction {
        Instruction::Assign(v)
        | Instruction::Define(v)
        | Instruction::Delete(v)
        | Instruction::Take(v) => vec![v],
        Instruction::Rules { writes, .. } => writes.iter().collect(),
        _ => Vec::new(),
    }
}

/// Every variable written anywhere in `nodes` (heads included).
fn written_in(nodes: &[Node], found: &mut HashSet<Var>) {
    for node in nodes {
        match node {
            Node::Op(located) => found.extend(written(&located.instruction).into_iter().cloned()),
            Node::If(conditional) => written_in_if(conditional, found),
        }
    }
}

fn written_in_if(conditional: &If, found: &mut HashSet<Var>) {
    if let Head::Distributed(inner) = &conditional.head {
        written_in_if(inner, found);
    }
    written_in(&conditional.then, found);
    written_in(&conditional.otherwise, found);
}

/// Appends an instruction: a read of a known variable becomes a push, and the peephole
/// rules run on the instructions at the end of `out`.
fn add_op(out: &mut Vec<Node>, mut located: Located, known: &mut Known) {
    if let Instruction::Delete(x) = &located.instruction
        && sink_delete(out, &located, x)
    {
        known.remove(x);
        return;
    }
    if let Instruction::Lookup(v) = &located.instruction
        && let Some(&value) = known.get(v)
    {
        located.instruction = Instruction::Push(encode::bool(value).to_string());
    }
    for v in written(&located.instruction) {
        known.remove(v);
    }
    // The peephole rules look at most three instructions back, and a rewrite at most
    // two further: eight is plenty.
    let ops = out
        .iter()
        .rev()
        .take(8)
        .take_while(|n| matches!(n, Node::Op(_)))
        .count();
    let mut run: Vec<Located> = out
        .drain(out.len() - ops..)
        .map(|n| match n {
            Node::Op(located) => located,
            Node::If(_) => unreachable!("counted as an instruction"),
        })
        .collect();
    peephole::push(&mut run, located);
    out.extend(run.into_iter().map(Node::Op));
}

/// Moves `delete x` (`located`) into both branches of the last conditional of `out`
/// when a branch ends by reading `x` (there the two become one `take x`) and the other
/// branch is not empty; only instructions that do not mention `x` may stand between.
/// The delete then runs on that branch's threads alone, the other branch's threads
/// having `x` taken: the same rule count, but rules that rewrite fewer threads.
fn sink_delete(out: &mut [Node], located: &Located, x: &Var) -> bool {
    let after = out
        .iter()
        .rev()
        .take_while(|n| matches!(n, Node::Op(l) if !l.instruction.vars().contains(&x)))
        .count();
    let Some(at) = out.len().checked_sub(after + 1) else {
        return false;
    };
    let Node::If(conditional) = &mut out[at] else {
        return false;
    };
    let reads = |seq: &[Node]| {
        matches!(seq.last(), Some(Node::Op(Located {
            instruction: Instruction::Lookup(v),
            ..
        })) if v == x)
    };
    let control =
        |seq: &[Node]| matches!(seq.last(), Some(Node::Op(l)) if l.instruction.tag().is_some());
    let (then, otherwise) = (&conditional.then, &conditional.otherwise);
    if then.is_empty()
        || otherwise.is_empty()
        || control(then)
        || control(otherwise)
        || !(reads(then) || reads(otherwise))
    {
        return false;
    }
    let mut scratch = Known::new();
    add_op(&mut conditional.then, located.clone(), &mut scratch);
    add_op(&mut conditional.otherwise, located.clone(), &mut scratch);
    true
}

/// The boolean constant an instruction pushes, if it pushes one.
fn pushed_bool(node: Option<&Node>) -> Option<bool> {
    match node {
        Some(Node::Op(Located {
            instruction: Instruction::Push(v),
            ..
        })) => match v.as_str() {
            "T" => Some(true),
            "F" => Some(false),
            _ => None,
        },
        _ => None,
    }
}

/// The variable holding the value the next `cond` pops, from the end of `out`: `lookup
/// c`, or `dup` then `define c` (or `assign c`).
fn condition_var(out: &[Node]) -> Option<Var> {
    let op = |node: &Node| match node {
        Node::Op(located) => Some(located.instruction.clone()),
        Node::If(_) => None,
    };
    let n = out.len();
    match op(out.last()?)? {
        Instruction::Lookup(c) => Some(c),
        Instruction::Assign(c) | Instruction::Define(c)
            if n >= 2 && op(&out[n - 2]) == Some(Instruction::Dup) =>
        {
            Some(c)
        }
        _ => None,
    }
}

/// Whether a sequence ends by pushing a boolean constant, itself or in a branch of the
/// conditional it ends with.
fn ends_constant(seq: &[Node]) -> bool {
    match seq.last() {
        Some(Node::If(conditional)) => {
            ends_constant(&conditional.then) || ends_constant(&conditional.otherwise)
        }
        last => pushed_bool(last).is_some(),
    }
}

/// Appends the test `cond` (a `cond e<id>`) to a sequence, and to both branches of the
/// conditional it ends with when a branch of that one ends with a constant: the test is
/// decided there when the sequence is written out ([`decide`]).
fn resolve(seq: &mut Vec<Node>, cond: &Located) {
    if let Some(Node::If(conditional)) = seq.last_mut()
        && (ends_constant(&conditional.then) || ends_constant(&conditional.otherwise))
    {
        resolve(&mut conditional.then, cond);
        resolve(&mut conditional.otherwise, cond);
        return;
    }
    seq.push(Node::Op(cond.clone()));
}

/// Decides the test `cond e<id>` that [`resolve`] appended to a sequence. After a
/// constant it vanishes (the threads go on) or becomes a pause, under `e<id>`; else it
/// stays. `negated` (the conditional of `e<id>` has an empty then-branch) turns it
/// around: the threads that pass the test wait under `t<id>` (a pause after a constant
/// `T`, `cond_not t<id>` after any other value) and the others go on into the
/// else-branch.
fn decide(seq: &mut Vec<Node>, test: Tag, negated: bool) {
    let then_tag = Tag {
        id: test.id,
        side: Side::Then,
    };
    match seq.last_mut() {
        Some(Node::Op(located)) if located.instruction == (Instruction::Cond { tag: test }) => {
            let Some(Node::Op(mut located)) = seq.pop() else {
                unreachable!("checked")
            };
            match pushed_bool(seq.last()) {
                Some(value) => {
                    seq.pop();
                    if value == negated {
                        located.instruction =
                            Instruction::Pause(if negated { then_tag } else { test });
                        seq.push(Node::Op(located));
                    }
                }
                None => {
                    if negated {
                        located.instruction = Instruction::CondNot { tag: then_tag };
                    }
                    seq.push(Node::Op(located));
                }
            }
        }
        Some(Node::If(conditional)) => {
            decide(&mut conditional.then, test, negated);
            decide(&mut conditional.otherwise, test, negated);
        }
        _ => {}
    }
}

/// Whether an instruction only ever changes each active thread on its own (see the
/// module docs): it may run once after a join instead of in both branches.
fn thread_local(instruction: &Instruction) -> bool {
    use Instruction::*;
    match instruction {
        Push(_)
        | Pop
        | Dup
        | Swap
        | Lookup(_)
        | Assign(_)
        | Define(_)
        | Delete(_)
        | Take(_)
        | Not
        | And
        | Or
        | Compare { .. }
        | EqText(_)
        | Add { .. }
        | Sub { .. }
        | Neg { .. }
        | Matches(_)
        | ListPush
        | Concat
        | Slice { .. }
        | MapChars { .. }
        | Split { .. }
        | Join { .. } => true,
        Rules { rules, .. } => rules.iter().all(|(pattern, replacement)| {
            let rest = pattern
                .strip_prefix(HEAD_GROUP)
                .or_else(|| pattern.strip_prefix(HEAD))
                .or_else(|| pattern.strip_prefix("(%%\n#stack:\n"));
            rest.is_some_and(|rest| !rest.replace("[^%", "").contains('%'))
                && !replacement.contains('%')
        }),
        Cond { .. }
        | CondNot { .. }
        | Pause(_)
        | Reactivate(_)
        | Fork
        | ForkBool
        | ForkList { .. }
        | Destroy
        | MarkGroups { .. }
        | UnmarkGroups { .. }
        | Gather { .. }
        | Tournament { .. }
        | KeepTop { .. } => false,
    }
}

/// Appends a conditional, rewritten.
fn add_if(out: &mut Vec<Node>, mut conditional: If, known: &mut Known) {
    if matches!(conditional.head, Head::Cond(_)) {
        // A constant condition: only one branch ever runs.
        if let Some(value) = pushed_bool(out.last()) {
            out.pop();
            let chosen = if value {
                conditional.then
            } else {
                conditional.otherwise
            };
            for node in chosen {
                add(out, node, known);
            }
            return;
        }
        // A test right after a join where a branch pushed a constant: into the branches.
        if let Some(Node::If(before)) = out.last()
            && (ends_constant(&before.then) || ends_constant(&before.otherwise))
        {
            let Some(Node::If(mut before)) = out.pop() else {
                unreachable!("checked")
            };
            let Head::Cond(cond) = &conditional.head else {
                unreachable!("checked")
            };
            resolve(&mut before.then, cond);
            resolve(&mut before.otherwise, cond);
            conditional.head = Head::Distributed(before);
        }
    }
    let fact = match conditional.head {
        Head::Cond(_) => condition_var(out),
        Head::Distributed(_) => None,
    };
    let mut then_known = known.clone();
    let mut else_known = known.clone();
    if let Some(c) = fact {
        then_known.insert(c.clone(), true);
        else_known.insert(c, false);
    }
    conditional.then = simplify(std::mem::take(&mut conditional.then), &then_known);
    conditional.otherwise = simplify(std::mem::take(&mut conditional.otherwise), &else_known);
    // Common tails, one thread-local instruction at a time.
    let mut hoisted = Vec::new();
    while let (Some(Node::Op(a)), Some(Node::Op(b))) =
        (conditional.then.last(), conditional.otherwise.last())
        && a.instruction == b.instruction
        && thread_local(&a.instruction)
    {
        conditional.otherwise.pop();
        if let Some(Node::Op(a)) = conditional.then.pop() {
            hoisted.push(a);
        }
    }
    let mut changed = HashSet::new();
    written_in_if(&conditional, &mut changed);
    for v in &changed {
        known.remove(v);
    }
    out.push(Node::If(Box::new(conditional)));
    for located in hoisted.into_iter().rev() {
        add_op(out, located, known);
    }
}

/// Writes the tree back as an instruction list.
fn flatten(nodes: Vec<Node>, out: &mut Vec<Located>) {
    for node in nodes {
        match node {
            Node::Op(located) => out.push(located),
            Node::If(conditional) => flatten_if(*conditional, out),
        }
    }
}

fn flatten_if(conditional: If, out: &mut Vec<Located>) {
    let then_tag = conditional.tag(Side::Then);
    let else_tag = conditional.tag(Side::Else);
    let site = conditional.site;
    let at = |instruction| Located { instruction, site };
    let then_empty = conditional.then.is_empty();
    let else_empty = conditional.otherwise.is_empty();
    match conditional.head {
        Head::Cond(cond) => {
            // Every then-thread waits under another tag: `cond_not` with that tag.
            if let Some(tag) = lone_pause(&conditional.then) {
                out.push(at(Instruction::CondNot { tag }));
                flatten(conditional.otherwise, out);
                return;
            }
            // Every else-thread waits under another tag: `cond` with that tag.
            if let Some(tag) = lone_pause(&conditional.otherwise) {
                out.push(at(Instruction::Cond { tag }));
                flatten(conditional.then, out);
                return;
            }
            if then_empty {
                if else_empty {
                    // Both branches empty: the condition is popped.
                    out.push(at(Instruction::Pop));
                } else {
                    out.push(at(Instruction::CondNot { tag: then_tag }));
                    flatten(conditional.otherwise, out);
                    out.push(at(Instruction::Reactivate(then_tag)));
                }
                return;
            }
            out.push(cond);
        }
        Head::Distributed(mut inner) => {
            // With an empty then-branch, the threads that pass the test wait under
            // `t<id>` at once, and the others run the else-branch.
            let negated = then_empty && !else_empty;
            decide(&mut inner.then, else_tag, negated);
            decide(&mut inner.otherwise, else_tag, negated);
            flatten_if(*inner, out);
            if negated {
                flatten(conditional.otherwise, out);
                out.push(at(Instruction::Reactivate(then_tag)));
                return;
            }
        }
    }
    // A then-branch that ends with a pause leaves no thread to pause under `t<id>`.
    let parks = matches!(
        conditional.then.last(),
        Some(Node::Op(Located {
            instruction: Instruction::Pause(_),
            ..
        }))
    );
    flatten(conditional.then, out);
    if else_empty {
        out.push(at(Instruction::Reactivate(else_tag)));
        return;
    }
    if !parks {
        out.push(at(Instruction::Pause(then_tag)));
    }
    out.push(at(Instruction::Reactivate(else_tag)));
    flatten(conditional.otherwise, out);
    if !parks {
        out.push(at(Instruction::Reactivate(then_tag)));
    }
}

/// The tag of a branch that only pauses its threads under another tag.
fn lone_pause(branch: &[Node]) -> Option<Tag> {
    match branch {
        [
            Node::Op(Located {
                instruction: Instruction::Pause(tag),
                ..
            }),
        ] => Some(*tag),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::encode::{self, Thread};
    use crate::lower;
    use regex_chess_machine::exec::{Executor, reference::Reference};

    use crate::passes::test_program as program;

    fn tag(id: u32, side: Side) -> Tag {
        Tag { id, side }
    }

    /// Runs `ir` as recorded and after the pass on every combination of the booleans
    /// `p` and `q` (a paused thread between each), and returns both final states.
    fn judge(ir: &IrProgram) -> (String, String) {
        let mut threads = Vec::new();
        for p in [false, true] {
            for q in [false, true] {
                let vars = [("p", encode::bool(p)), ("q", encode::bool(q))];
                threads.push(Thread::active(&[], &vars));
                threads.push(Thread::active(&["T"], &vars).paused("x9"));
            }
        }
        let state = encode::render(&threads);
        let run = |ir: &IrProgram| {
            let program = lower::lower(ir).validate().expect("valid rules");
            Reference::new(program).run(&state).unwrap()
        };
        (run(ir), run(&super::run(ir)))
    }

    fn rewritten(ir: &IrProgram) -> Vec<Instruction> {
        run(ir).body.into_iter().map(|l| l.instruction).collect()
    }

    #[test]
    fn a_condition_stored_again_in_a_nested_branch_is_no_longer_known() {
        use Instruction::*;
        let (p, q, r) = (Var::new("p"), Var::new("q"), Var::new("r"));
        let ir = program(vec![
            Lookup(p.clone()),
            Cond {
                tag: tag(0, Side::Else),
            },
            Lookup(q.clone()),
            Cond {
                tag: tag(1, Side::Else),
            },
            Push("F".into()),
            Assign(p.clone()),
            Reactivate(tag(1, Side::Else)),
            // Not `push T`: p is F here on the threads where q holds.
            Lookup(p.clone()),
            Assign(r.clone()),
            Reactivate(tag(0, Side::Else)),
        ]);
        let (before, after) = judge(&ir);
        assert_eq!(before, after);
        // In the same sequence too.
        let ir = program(vec![
            Lookup(p.clone()),
            Cond {
                tag: tag(0, Side::Else),
            },
            Lookup(p.clone()),
            Assign(r.clone()),
            Push("F".into()),
            Assign(p.clone()),
            Lookup(p.clone()),
            Assign(q.clone()),
            Reactivate(tag(0, Side::Else)),
        ]);
        let body = rewritten(&ir);
        assert_eq!(body[2], Push("T".into()), "{body:?}");
        let (before, after) = judge(&ir);
        assert_eq!(before, after);
    }

    #[test]
    fn a_delete_after_a_read_at_a_branch_end_moves_into_the_branches() {
        use Instruction::*;
        let (p, q, r) = (Var::new("p"), Var::new("q"), Var::new("r"));
        let ir = program(vec![
            Lookup(p.clone()),
            Cond {
                tag: tag(0, Side::Else),
            },
            Lookup(q.clone()),
            Pause(tag(0, Side::Then)),
            Reactivate(tag(0, Side::Else)),
            Push("F".into()),
            Reactivate(tag(0, Side::Then)),
            Assign(r.clone()),
            Delete(q.clone()),
        ]);
        assert_eq!(
            rewritten(&ir),
            vec![
                Lookup(p.clone()),
                Cond {
                    tag: tag(0, Side::Else),
                },
                Take(q.clone()),
                Pause(tag(0, Side::Then)),
                Reactivate(tag(0, Side::Else)),
                Push("F".into()),
                Delete(q.clone()),
                Reactivate(tag(0, Side::Then)),
                Assign(r.clone()),
            ]
        );
        let (before, after) = judge(&ir);
        assert_eq!(before, after);
    }

    #[test]
    fn a_list_that_does_not_nest_is_left_alone() {
        use Instruction::*;
        let ir = program(vec![
            Push("T".into()),
            Cond {
                tag: tag(0, Side::Else),
            },
            Pause(tag(3, Side::Then)),
            Reactivate(tag(0, Side::Else)),
        ]);
        assert_eq!(run(&ir), ir);
    }
}
