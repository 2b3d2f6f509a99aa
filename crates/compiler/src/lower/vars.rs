//! Variable instructions: lookup, assign, define, delete, take.
//!
//! A variable is a line `#name: value` after the stack. Patterns reach it by skipping
//! whole lines without `%` (`(?:[^%\n]*\n)*`), so they never leave the thread; the `: `
//! after the name makes `#x` distinct from `#xy`.
//!
//! | instruction | rules | missing variable / empty stack |
//! | --- | --- | --- |
//! | lookup | 1 | missing: nothing is pushed |
//! | assign | 2 (delete, then define) | empty stack: the variable is deleted |
//! | define (the variable is known to be absent) | 1 (append at the thread's end) | empty stack: nothing happens |
//! | delete | 1 | missing: nothing happens |
//! | take (lookup + delete) | 1 | missing: nothing is pushed |
//!
//! Lookup and assign scan the whole thread: their cost grows with the number of variables,
//! which is why dead-variable elimination pays.

use super::{HEAD_GROUP, Out, VALUE_GROUP};
use crate::ir::Var;

/// `lookup x`: `(%%\n#stack:\n)((?:[^%\n]*\n)*#x: )([^\n]*)\n` → `${1}${3}\n${2}${3}\n`.
pub fn lookup(out: &mut Out, var: &Var) {
    out.rule(
        format!("{HEAD_GROUP}((?:[^%\n]*\n)*#{var}: )([^\n]*)\n"),
        "${1}${3}\n${2}${3}\n",
    );
}

/// `delete x`: removes the line `#x: ...` of every active thread.
pub fn delete(out: &mut Out, var: &Var) {
    out.rule(
        format!("(%%\n#stack:\n(?:[^%\n]*\n)*)#{var}: [^\n]*\n"),
        "${1}",
    );
}

/// `assign x`: deletes `x`, then defines it.
pub fn assign(out: &mut Out, var: &Var) {
    delete(out, var);
    define(out, var);
}

/// `define x`: moves the top value to a new line `#x: v` at the end of the thread
/// (`([^%]*)` runs greedily to the next `%` or the end of the state).
pub fn define(out: &mut Out, var: &Var) {
    out.rule(
        format!("{HEAD_GROUP}{VALUE_GROUP}\n([^%]*)"),
        format!("${{1}}${{3}}#{var}: ${{2}}\n"),
    );
}

/// `take x`: like `lookup x`, but the line `#x: ...` is removed in the same rule.
pub fn take(out: &mut Out, var: &Var) {
    out.rule(
        format!("{HEAD_GROUP}((?:[^%\n]*\n)*)#{var}: ([^\n]*)\n"),
        "${1}${3}\n${2}",
    );
}
