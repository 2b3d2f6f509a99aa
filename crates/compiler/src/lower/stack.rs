//! Stack instructions: push, pop, dup, swap. One rule each.
//!
//! The stack is the run of value lines after `#stack:`; it ends at the first variable line
//! (`#`), at the next thread (`%`) or at the end of the state. Every pattern here matches
//! only value lines ([`VALUE_LINE`]), so on a stack that is too short the rule simply does
//! not match: pop, dup and swap leave such a thread unchanged.

use super::{HEAD_GROUP, Out, VALUE_GROUP, VALUE_LINE, replacement_literal};

/// `push v`: `(%%\n#stack:\n)` → `${1}v\n`.
pub fn push(out: &mut Out, value: &str) {
    out.rule(
        HEAD_GROUP,
        format!("${{1}}{}\n", replacement_literal(value)),
    );
}

/// `pop`: drops one value line.
pub fn pop(out: &mut Out) {
    out.rule(format!("{HEAD_GROUP}{VALUE_LINE}"), "${1}");
}

/// `dup`: copies the top value line.
pub fn dup(out: &mut Out) {
    out.rule(format!("{HEAD_GROUP}{VALUE_GROUP}\n"), "${1}${2}\n${2}\n");
}

/// `swap`: exchanges the two top value lines.
pub fn swap(out: &mut Out) {
    out.rule(
        format!("{HEAD_GROUP}{VALUE_GROUP}\n{VALUE_GROUP}\n"),
        "${1}${3}\n${2}\n",
    );
}
