//! Thread instructions: forks, destroy, group boundaries, gather and the tournament.
//!
//! These are the rules that reach across threads. A thread runs from its `%` marker to the
//! next `%` (or the end of the state); `[^%]*` is "the rest of this thread".
//!
//! **Fork over a list** (`max_len` = N known at compile time) takes `1 + ceil(log2 N) + 1`
//! rules and never counts. Round `k` has a split point `P = 2^(r-k)` (a power of two):
//! every thread whose list is longer than `P` becomes two adjacent threads, the first
//! keeping the first `P` elements and the second the rest:
//! `(%%\n#stack:\n)((?:;[^;\n]*){P})((?:;[^;\n]*)+)\n([^%]*)` →
//! `${1}${2}\n${4}${1}${3}\n${4}`. Four groups whatever N is, and threads come out in list
//! order. A thread holding an empty list is destroyed first. A list longer than N is
//! not fully split: its threads keep several elements (the caller's bound was wrong).
//!
//! **Groups.** Gather and the tournament act on each maximal run of adjacent active
//! threads. A paused thread ends a run, and so does a boundary line `%/<level>`, which
//! [`mark_groups`] puts before every active thread: mark, fork moves, then a tournament
//! picks one thread per original thread. Boundaries are never active, never matched by a
//! thread-local rule, and removed per level by [`unmark_groups`].
//!
//! **Gather** (`max_threads` = M): each thread's top value becomes a one-element list,
//! then `ceil(log2 M)` identical rules each pair adjacent active threads A B and move B's
//! list to the end of A's, deleting B. A tree reduction: `1 + ceil(log2 M)` rules, values
//! in thread order.
//!
//! **Tournament**: per round, 3 rules. (1) pair adjacent active threads A B and write the
//! interleaved digits of their scores as a scratch line `!a1b1..` on top of A (one group
//! per digit); (2) where B is strictly better, delete A; (3) elsewhere delete B and the
//! scratch line, so ties keep the earlier thread. `3 ceil(log2 M)` rules in all.
//!
//! Bounds: a run longer than `M` is reduced `ceil(log2 M)` times only, so it ends with
//! more than one thread. Gather and the tournament expect every thread of a run to hold
//! its value on top of the stack.

use super::{HEAD_GROUP, Out, VALUE_GROUP, rounds_for};
use crate::ir::Best;

/// `fork`: every active thread is followed by a copy of itself.
pub fn fork(out: &mut Out) {
    out.rule("(%%\n[^%]*)", "${1}${1}");
}

/// `fork_bool`: every active thread becomes a copy with `T` pushed and one with `F`.
pub fn fork_bool(out: &mut Out) {
    out.rule(format!("{HEAD_GROUP}([^%]*)"), "${1}T\n${2}${1}F\n${2}");
}

/// `fork_list`: one thread per element of the top list, in order.
pub fn fork_list(out: &mut Out, max_len: usize) {
    out.rule("%%\n#stack:\n\n[^%]*", "");
    let rounds = rounds_for(max_len);
    for k in 1..=rounds {
        let split = 1usize << (rounds - k);
        out.rule(
            format!("{HEAD_GROUP}((?:;[^;\n]*){{{split}}})((?:;[^;\n]*)+)\n([^%]*)"),
            "${1}${2}\n${4}${1}${3}\n${4}",
        );
    }
    out.rule(format!("{HEAD_GROUP};([^;\n]*)\n"), "${1}${2}\n");
}

/// `destroy`: every active thread is deleted.
pub fn destroy(out: &mut Out) {
    out.rule("%%\n[^%]*", "");
}

/// `mark_groups`: a boundary `%/<level>` before every active thread.
pub fn mark_groups(out: &mut Out, level: u32) {
    out.rule("%%\n", format!("%/{level}\n%%\n"));
}

/// `unmark_groups`: every boundary of `level` disappears.
pub fn unmark_groups(out: &mut Out, level: u32) {
    out.rule(format!("%/{level}\n"), "");
}

/// `gather`: tree reduction of the top values of each run into a list on its first thread.
pub fn gather(out: &mut Out, max_threads: usize) {
    out.rule(format!("{HEAD_GROUP}{VALUE_GROUP}\n"), "${1};${2}\n");
    for _ in 0..rounds_for(max_threads) {
        out.rule(
            format!("{HEAD_GROUP}([^\n]*)\n([^%]*)%%\n#stack:\n([^\n]*)\n[^%]*"),
            "${1}${2}${4}\n${3}",
        );
    }
}

/// `tournament`: keep the best-scoring thread of each run (ties: the earliest).
pub fn tournament(out: &mut Out, bits: u8, max_threads: usize, best: Best) {
    let (pair, replacement) = interleave_pair(bits, "", "!", None);
    let b_better = b_better(best);
    for _ in 0..rounds_for(max_threads) {
        out.rule(pair.clone(), replacement.clone());
        out.rule(
            format!("%%\n#stack:\n!(?:00|11)*{b_better}[01]*\n[^%]*(%%\n)"),
            "${1}",
        );
        out.rule(format!("{HEAD_GROUP}![01]*\n([^%]*)%%\n[^%]*"), "${1}${2}");
    }
}

/// The rule that pairs adjacent threads A and B whose tops are `bits`-digit integers, with
/// only threads matching `skipped` (a pattern of whole threads) between them, and writes
/// the interleaved digits of their scores `a1b1..` as a scratch line after `a_mark` on
/// top of A (one group per digit), and after `b_mark`, if given, on top of B. Pairs never
/// overlap: the next pair starts after B's score.
pub(super) fn interleave_pair(
    bits: u8,
    skipped: &str,
    a_mark: &str,
    b_mark: Option<&str>,
) -> (String, String) {
    let n = bits as usize;
    let digits = "([01])".repeat(n);
    let pattern = format!("{HEAD_GROUP}{digits}(\n[^%]*{skipped}%%\n#stack:\n){digits}\n");
    let mut interleaved = String::new();
    for i in 0..n {
        interleaved.push_str(&format!("${{{}}}${{{}}}", 2 + i, n + 3 + i));
    }
    let mut replacement = format!("${{1}}{a_mark}{interleaved}\n");
    for i in 0..n {
        replacement.push_str(&format!("${{{}}}", 2 + i));
    }
    replacement.push_str(&format!("${{{}}}", n + 2));
    if let Some(b_mark) = b_mark {
        replacement.push_str(&format!("{b_mark}{interleaved}\n"));
    }
    for i in 0..n {
        replacement.push_str(&format!("${{{}}}", n + 3 + i));
    }
    replacement.push('\n');
    (pattern, replacement)
}

/// The first differing digit pair `ab` of an interleaved scratch line that makes B
/// strictly better: `b > a` for [`Best::Max`], `b < a` for [`Best::Min`].
pub(super) fn b_better(best: Best) -> &'static str {
    match best {
        Best::Max => "01",
        Best::Min => "10",
    }
}
