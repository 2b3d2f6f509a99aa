//! Keep-top: in each run of adjacent active threads, the `k` best-scoring threads stay and
//! the others are deleted ([`crate::ir::Instruction::KeepTop`]).
//!
//! # Contract
//!
//! Threads are ranked by their top integer (highest first for [`Best::Max`], lowest first
//! for [`Best::Min`]), then by position: of two equal scores the earlier thread ranks
//! first. In every run of at most `max_threads` threads (runs are delimited as for the
//! tournament, [`super::threads`]: a paused thread or a group boundary ends one), the
//! first `k` threads of that ranking stay, in their original order and untouched, scores
//! on top; the others are deleted. A run of at most `k` threads is unchanged. A run longer
//! than `max_threads` is not fully reduced (it may keep more than `k`).
//!
//! # Rules: `k` selections, each a tournament that deletes nothing
//!
//! Each selection finds the best thread of each run that is not kept yet and marks it
//! kept; after `k` selections every thread not kept is deleted. A thread's first stack
//! line says where it stands: `!K` kept, `!L` lost in the current selection, none when
//! still in it (alive), `!a..` or `!b..` a pair's interleaved scores (scratch). A
//! selection is `R = ceil(log2 max_threads)` rounds of three rules, as in the tournament
//! but over the alive threads only, stepping over the kept and lost ones between them:
//!
//! 1. pair each alive thread A with the next alive thread B of its run and write their
//!    interleaved scores `a1b1..` on top of both, `!a` on A and `!b` on B (pairs never
//!    overlap: a global replace resumes after B's score, so B is never the A of another
//!    pair);
//! 2. thread-local: A's line becomes `!L` where B is strictly better, B's where A is
//!    better or equal;
//! 3. thread-local: the scratch lines left (the winners') go.
//!
//! Each alive thread stands for a stretch of adjacent threads and ties go to the
//! earlier one, so after `R` rounds the one alive thread of a run is its best not yet
//! kept, the earliest among equals: one rule marks it `!K`, one more makes the lost
//! threads alive again for the next selection. After the last selection one rule deletes
//! the `!L` threads (the run's unkept ones) and one drops the `!K` marks.
//!
//! # Cost
//!
//! `k (3R + 2) + 1` rules for `1 < k < max_threads`; `keep = 1` is lowered as the
//! tournament (`3R` rules, the same result); `k >= max_threads` needs no rule (no run
//! within its bound has more than `k` threads). Each rule is one pass over the state,
//! but only the pairing rule (`k R` of them) matches across threads, scanning every
//! alive thread's body and the stepped-over ones to the next alive head; the others
//! match one thread's first lines. Unlike the tournament's, the state does not shrink
//! from round to round. Measured on the fast executor (the ignored test `keep_top_cost`
//! in `tests/compiler/keep_top.rs`, three runs on a shared machine), on one run of 35
//! threads of 4 KB and on 30 groups of 35 threads of 500 bytes alike: `k = 4` (81 rules)
//! takes 10 to 15 times the tournament's time (3.4 to 3.6 ms on the 145 KB run, 25 ms on
//! the 590 KB state), `k = 16` (321 rules) 40 to 60 times, about `3 k`; with the
//! search's bound of 218 moves for the same 35 threads (`R = 8`), about a quarter more.
//! Marking B lost in the pairing's thread-local aftermath, not by a second rule across
//! the pair, made it 6 times faster: that second rule took up to 2.5 ms a pass on the
//! 145 KB run in the late rounds, where a pair spans many threads (the fast executor's
//! reason was not looked into), the pairing rule about 0.15 ms.
//!
//! # Trade-offs
//!
//! Rejected designs: an odd-even transposition sort of adjacent threads costs about
//! `3 max_threads` rules whatever `k` (fewer than `k` selections only from
//! `k (3R + 2) > 3 max_threads`: `k` of 6 or more for 35 threads), and it loses the
//! original order, which a second sort by position would restore. Repeated elimination
//! of the worst needs each run's length to know when to stop, which no rule can count
//! without scanning the whole run per thread. Counting the siblings that beat each
//! thread needs every pair compared, and a rule can only compare adjacent threads (two
//! scores are compared digit by digit only once they are interleaved on one line).
//! Comparing groups of `g > 2` alive threads at once (one rule writes on each thread its
//! position and all `g` scores interleaved, a thread-local rule marks those beaten;
//! `ceil(log_g max_threads)` rounds, with one rule per group size for each run's
//! leftover) was built and passed the same tests, but each group rule took 5 to 10 ms a
//! pass on the 145 KB run where the pairing takes 0.15 ms, even for `g = 3`: `k = 4`
//! cost 80 to 400 times the tournament on the two shapes measured, 5 to 30 times this
//! design. Selections keep every rule a neighbour of the tournament's.

use super::threads::{b_better, destroy, interleave_pair, tournament};
use super::{HEAD_GROUP, Out, rounds_for};
use crate::ir::Best;

/// Whole active threads a selection steps over between two alive ones: kept (`!K`) or
/// lost in this selection (`!L`).
const SKIPPED: &str = "(?:%%\n#stack:\n![KL]\n[^%]*)*";

/// `keep_top`: keep the best `keep` threads of each run (ties: the earlier), in order.
pub fn keep_top(out: &mut Out, bits: u8, keep: usize, max_threads: usize, best: Best) {
    if keep == 0 {
        // Every active thread belongs to a run, and no run keeps any.
        destroy(out);
        return;
    }
    if keep >= max_threads {
        return;
    }
    if keep == 1 {
        tournament(out, bits, max_threads, best);
        return;
    }
    let (pair, interleaved) = interleave_pair(bits, SKIPPED, "!a", Some("!b"));
    // A loses where B is strictly better; B loses where A is better or equal (the first
    // differing digit pair read the other way round).
    let b_wins = b_better(best);
    let a_wins: String = b_wins.chars().rev().collect();
    let lost =
        format!("(%%\n#stack:\n!)(?:a(?:00|11)*{b_wins}[01]*|b(?:00|11)*(?:{a_wins}[01]*)?)\n");
    for selection in 1..=keep {
        for _ in 0..rounds_for(max_threads) {
            out.rule(pair.clone(), interleaved.clone());
            out.rule(lost.clone(), "${1}L\n");
            out.rule(format!("{HEAD_GROUP}![ab][01]*\n"), "${1}");
        }
        out.rule(format!("{HEAD_GROUP}([01])"), "${1}!K\n${2}");
        if selection < keep {
            out.rule(format!("{HEAD_GROUP}!L\n"), "${1}");
        }
    }
    out.rule("%%\n#stack:\n!L\n[^%]*", "");
    out.rule(format!("{HEAD_GROUP}!K\n"), "${1}");
}
