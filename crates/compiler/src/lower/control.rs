//! Control: conditions, pausing and reactivating threads.
//!
//! `if c { A } else { B }` is recorded as
//!
//! ```text
//! cond e7          pop c; threads with F are paused as %e7
//! A                runs on the threads that had T
//! pause t7         the then-threads wait as %t7
//! reactivate e7    the else-threads wake up
//! B
//! reactivate t7    everyone is active again
//! ```
//!
//! Tags are unique per conditional, so a nested `if` never wakes a thread its parent
//! paused. A paused thread's marker is not `%%`, so no thread-local rule can touch it.
//! Cost: cond 2 rules, cond_not 2, pause 1, reactivate 1.
//!
//! `cond_not t7` is the negation of `cond`: the threads that popped `T` wait as `%t7`.
//! The joins pass ([`crate::passes::joins`]) writes an `if` whose then-branch
//! is empty as `cond_not t7; B; reactivate t7`, two rules fewer than the pause and
//! wake-up around an empty branch.
//!
//! `cond` on a thread whose top is not a boolean leaves it active with its stack as is.

use super::{HEAD_GROUP, Out};
use crate::ir::Tag;

/// `cond tag`: `%%\n#stack:\nF\n` → `%tag\n#stack:\n`, then pop the `T` of the others.
pub fn cond(out: &mut Out, tag: Tag) {
    out.rule("%%\n#stack:\nF\n", format!("%{tag}\n#stack:\n"));
    out.rule(format!("{HEAD_GROUP}T\n"), "${1}");
}

/// `cond_not tag`: `%%\n#stack:\nT\n` → `%tag\n#stack:\n`, then pop the `F` of the others.
pub fn cond_not(out: &mut Out, tag: Tag) {
    out.rule("%%\n#stack:\nT\n", format!("%{tag}\n#stack:\n"));
    out.rule(format!("{HEAD_GROUP}F\n"), "${1}");
}

/// `pause tag`: every active marker `%%` becomes `%tag`.
pub fn pause(out: &mut Out, tag: Tag) {
    out.rule("%%\n", format!("%{tag}\n"));
}

/// `reactivate tag`: every marker `%tag` becomes `%%`.
pub fn reactivate(out: &mut Out, tag: Tag) {
    out.rule(format!("%{tag}\n"), "%%\n");
}
