//! Lowering: each instruction becomes a few rules, one instruction at a time.
//!
//! Contract: [`lower`] is a pure function of the instruction list. Every rule it emits is a
//! plain `regex` pattern (no backreference, no look-around) and carries
//! `Origin::Emitted` with the instruction's name and the DSL call site. Every pattern of a
//! thread-local instruction starts with the literal `%%\n#stack:\n`, so it can only match
//! at the head of an active thread; only fork, destroy, group, gather, tournament and
//! keep-top rules reach across threads, and they do so on purpose.
//!
//! The families live in their own files: [`stack`] (push, pop, dup, swap), [`vars`]
//! (lookup, assign, define, delete, take), [`values`] (booleans, comparisons, integer
//! arithmetic), [`control`] (cond, cond_not, pause, reactivate), [`threads`] (forks, destroy,
//! groups, gather, tournament), [`keep_top`] (the best few threads of each run),
//! [`strings`] (lists, text and line patterns) and
//! [`custom`] (hand-designed rules, whose origin reads `rules:<name>`).
//!
//! Scratch lines: while one instruction's rules run, a stack line may start with `!` (an
//! interleaved comparison, a sum being resolved, a pending test). No value starts with `!`, and every
//! instruction removes its scratch lines before it ends.

pub mod control;
pub mod custom;
pub mod keep_top;
pub mod stack;
pub mod strings;
pub mod threads;
pub mod values;
pub mod vars;

use super::ir::{Instruction, IrProgram, Located};
use regex_chess_machine::program::{Origin, Program, Rule};

/// The head of an active thread, as a literal.
pub const HEAD: &str = "%%\n#stack:\n";
/// The head of an active thread, captured as group 1.
pub const HEAD_GROUP: &str = "(%%\n#stack:\n)";
/// One stack value followed by its newline, not captured. It never matches a variable line
/// or a thread marker, so it cannot run past the end of a stack.
pub const VALUE_LINE: &str = "(?:[^#%\n][^\n]*)?\n";
/// One stack value, captured (the newline after it is not part of the group).
pub const VALUE_GROUP: &str = "([^#%\n][^\n]*|)";

/// Collects the rules of one instruction, stamping each with the instruction's origin.
pub struct Out<'a> {
    rules: &'a mut Vec<Rule>,
    origin: Origin,
}

impl Out<'_> {
    /// Appends a rule.
    pub fn rule(&mut self, pattern: impl Into<String>, replacement: impl Into<String>) {
        self.rules
            .push(Rule::new(pattern, replacement).with_origin(self.origin.clone()));
    }
}

/// Escapes literal text for a replacement (`$` becomes `$$`).
pub fn replacement_literal(text: &str) -> String {
    text.replace('$', "$$")
}

/// Lowers one located instruction, appending its rules to `rules`.
pub fn lower_one(located: &Located, rules: &mut Vec<Rule>) {
    let site = located.site;
    let mut out = Out {
        rules,
        origin: Origin::Emitted {
            instruction: match &located.instruction {
                Instruction::Rules { name, .. } => format!("rules:{name}"),
                other => other.name().to_string(),
            },
            file: site.file.to_string(),
            line: site.line,
            column: site.column,
        },
    };
    use Instruction::*;
    match &located.instruction {
        Push(value) => stack::push(&mut out, value),
        Pop => stack::pop(&mut out),
        Dup => stack::dup(&mut out),
        Swap => stack::swap(&mut out),
        Lookup(var) => vars::lookup(&mut out, var),
        Assign(var) => vars::assign(&mut out, var),
        Define(var) => vars::define(&mut out, var),
        Delete(var) => vars::delete(&mut out, var),
        Take(var) => vars::take(&mut out, var),
        Not => values::not(&mut out),
        And => values::and(&mut out),
        Or => values::or(&mut out),
        Compare { op, ty } => values::compare(&mut out, *op, *ty),
        EqText(text) => values::eq_text(&mut out, text),
        Add { bits } => values::add(&mut out, *bits),
        Sub { bits } => values::sub(&mut out, *bits),
        Neg { bits } => values::neg(&mut out, *bits),
        Cond { tag } => control::cond(&mut out, *tag),
        CondNot { tag } => control::cond_not(&mut out, *tag),
        Pause(tag) => control::pause(&mut out, *tag),
        Reactivate(tag) => control::reactivate(&mut out, *tag),
        Fork => threads::fork(&mut out),
        ForkBool => threads::fork_bool(&mut out),
        ForkList { max_len } => threads::fork_list(&mut out, *max_len),
        Destroy => threads::destroy(&mut out),
        MarkGroups { level, .. } => threads::mark_groups(&mut out, *level),
        UnmarkGroups { level } => threads::unmark_groups(&mut out, *level),
        Gather { max_threads } => threads::gather(&mut out, *max_threads),
        Tournament {
            bits,
            max_threads,
            best,
        } => threads::tournament(&mut out, *bits, *max_threads, *best),
        KeepTop {
            bits,
            keep,
            max_threads,
            best,
        } => keep_top::keep_top(&mut out, *bits, *keep, *max_threads, *best),
        ListPush => strings::list_push(&mut out),
        Concat => strings::concat(&mut out),
        Matches(pattern) => strings::matches(&mut out, pattern),
        Slice { start, len } => strings::slice(&mut out, *start, *len),
        MapChars { table, max_len } => strings::map_chars(&mut out, table, *max_len),
        Split { sep, max_len } => strings::split(&mut out, *sep, *max_len),
        Join { sep, max_len } => strings::join(&mut out, *sep, *max_len),
        Rules { rules, .. } => custom::rules(&mut out, rules),
    }
}

/// The number of rules `located` lowers to.
pub fn rule_count(located: &Located) -> usize {
    let mut rules = Vec::new();
    lower_one(located, &mut rules);
    rules.len()
}

/// Lowers a whole program.
pub fn lower(ir: &IrProgram) -> Program {
    let mut rules = Vec::new();
    for located in &ir.body {
        lower_one(located, &mut rules);
    }
    Program {
        name: ir.name.clone(),
        description: ir.description.clone(),
        rules,
    }
}

/// `ceil(log2(n))`, the number of halving rounds that bring `n` items down to one.
pub fn rounds_for(n: usize) -> usize {
    let mut rounds = 0;
    while (1usize << rounds) < n {
        rounds += 1;
    }
    rounds
}
