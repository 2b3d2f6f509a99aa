//! The leaves of the search: a leaf's key for the tournament over the replies (mates,
//! stalemates, the plain score), the capture search below a leaf, and the tournament
//! that sums the positions counted.

use super::*;
use crate::board::{MAX_MOVES, MoveGen, Position};
use crate::endgame;
use crate::evaluate::{self, SCORE_BITS, Scoring};
use crate::movegen::{fork_legal_captures, has_legal_move, in_check, target_attacked};
use crate::report;
use regex_chess_compiler::dsl::{Builder, Value, kind};
use regex_chess_compiler::ir::{Best, Instruction, Type};

/// The key of a leaf whose side to move has no legal move, for a leaf scored
/// `child - key`: `child` (a score of 0) when it is stalemated, and `child - mated`
/// (a score of `mated`) when it is checkmated. `mated` is in the rules' units.
#[track_caller]
pub(super) fn no_move_key(
    b: &mut Builder,
    pos: &Position,
    child: &Value<kind::Int>,
    mated: i64,
) -> Value<kind::Int> {
    let check = in_check(b, pos);
    b.if_else(
        &check,
        |b| {
            let m = b.int(SCORE_BITS, mated.abs());
            if mated < 0 {
                b.add(child, &m)
            } else {
                b.sub(child, &m)
            }
        },
        |_| child.clone(),
    )
}

/// The key of a leaf of the plain search (no endgame term, no capture test) and its
/// count, when its gain `g` has been taken onto the stack before `can_move` was
/// computed: the gain where the side to move can move, else the key of
/// [`no_move_key`] (mated: `child + MATE`; stalemated: `child`). The key is left on
/// the stack by both branches and defined after the join, so the where-it-can-move
/// branch has no instruction of its own (the joins pass then lets those threads wait
/// at once instead of pausing and waking them around an empty branch).
#[track_caller]
pub(super) fn leaf_on_stack(
    b: &mut Builder,
    pos: &Position,
    can_move: &Value<kind::Bool>,
    child: &Value<kind::Int>,
    g: &Value<kind::Int>,
    report: bool,
) -> (Value<kind::Int>, Option<Value<kind::Str>>) {
    let count = b.if_else(
        can_move,
        |b| report.then(|| report::one(b)),
        |b| {
            b.emit(Instruction::Pop);
            let key = no_move_key(b, pos, child, -mate_units());
            b.emit(Instruction::Lookup(key.var().clone()));
            report.then(|| report::one(b))
        },
    );
    (b.rules_value("assign", Vec::new(), &[], g.ty()), count)
}

/// Whether the thread holds `stuck` (set to `T` on the child with no reply, the one
/// thread of its group), as a boolean; `stuck` is taken. Three rules on the threads left
/// after the tournament over the replies, where keeping `replied` for the same answer
/// cost two rules (a copy and a store) on every leaf: a scratch line `!` on the threads
/// that hold it, `F` pushed on the others (values never start with `!`), then `T` for
/// the scratch line.
#[track_caller]
pub(super) fn stuck_flag(b: &mut Builder, stuck: &Value<kind::Bool>) -> Value<kind::Bool> {
    let name = stuck.var().name();
    b.rules(
        "stuck_flag",
        vec![
            (
                format!("{HEAD}((?:[^%\n]*\n)*)#{name}: T\n"),
                "${1}!\n${2}".to_string(),
            ),
            (format!("{HEAD}([^!]|\\z)"), "${1}F\n${2}".to_string()),
            (format!("{HEAD}!\n"), "${1}T\n".to_string()),
        ],
        &[stuck.var()],
        &[stuck.var()],
    );
    b.rules_value("assign", Vec::new(), &[], Type::Bool)
}

/// The tournament of a run of threads on `key` (largest wins, ties the earliest), summing
/// the runs' `count`s when there are counts.
#[track_caller]
pub(super) fn keep_best_maybe_counting(
    b: &mut Builder,
    key: &Value<kind::Int>,
    count: Option<Value<kind::Str>>,
) -> Option<Value<kind::Str>> {
    match count {
        Some(count) => Some(report::keep_best_counting(b, key, &count, MAX_MOVES)),
        None => {
            b.keep_best(key, MAX_MOVES, Best::Max);
            None
        }
    }
}

/// The capture search below a leaf: the best gain, for the side to move, of its legal
/// captures and promotions, or 0 (standing pat) when none gains; with `report`, the
/// number of captures looked at. With `see`, a capture whose target square the other
/// side then attacks ([`target_attacked`]) gains what it took less the mover's worth on
/// its origin ([`evaluate::gain`] with `recaptured`: the arriving piece counted lost). The
/// threads left hold a capture's position, not the leaf's (the search restores the
/// chosen child from its group boundary).
#[track_caller]
pub(super) fn capture_search(
    b: &mut Builder,
    pos: &Position,
    report: bool,
    see: bool,
    scoring: &Scoring,
) -> (Value<kind::Int>, Option<Value<kind::Str>>) {
    let (best, count) = b.grouped_to_one(|b| {
        let options = MoveGen {
            uci: true,
            keep_stuck: true,
            taken: true,
        };
        let captures = fork_legal_captures(b, pos, options);
        let uci = captures.uci.expect("asked for uci");
        let moved = captures.moved.expect("asked for keep_stuck");
        let taken = captures.taken.expect("asked for taken");
        let (gain, count) = b.if_else(
            &moved,
            |b| {
                let gain = |b: &mut Builder| evaluate::gain(b, &taken, &uci, false, scoring, false);
                let g = match see {
                    false => gain(b),
                    true => {
                        let attacked = target_attacked(b, pos, &uci);
                        b.if_else(
                            &attacked,
                            |b| evaluate::gain(b, &taken, &uci, false, scoring, true),
                            gain,
                        )
                    }
                };
                (g, report.then(|| report::one(b)))
            },
            |b| {
                // A stuck thread's `taken` is empty; a capture's gain took its own.
                b.emit(Instruction::Delete(taken.var().clone()));
                (b.int(SCORE_BITS, 0), report.then(|| b.str("")))
            },
        );
        b.emit(Instruction::Delete(uci.var().clone()));
        let count = keep_best_maybe_counting(b, &gain, count);
        (gain, count)
    });
    let zero = b.int(SCORE_BITS, 0);
    let gains = b.gt(&best, &zero);
    let best = b.if_else(&gains, |_| best.clone(), |_| zero.clone());
    (best, count)
}

/// The leaf of the third-ply search ([`SearchOptions::third_ply`]) after a reply that
/// captured nothing on its target square, with gain `g2` for the opponent below the engine move scoring `child`: its
/// key for the tournament over the replies (`child - key` is its score: the position's
/// score plus the endgame term, or `-(MATE - 1 ply)` when the engine is mated, or 0
/// when stalemated) and the positions counted (the reply's). With
/// [`SearchOptions::everywhere`], the engine's [`capture_search`] below it adds its best
/// gain (the `2ply-see` leaf), and its captures count too.
#[track_caller]
pub(super) fn quiet_reply_leaf(
    b: &mut Builder,
    pos: &Position,
    child: &Value<kind::Int>,
    g2: &Value<kind::Int>,
    options: SearchOptions,
    scoring: &Scoring,
) -> (Value<kind::Int>, Option<Value<kind::Str>>) {
    let mate = mate_units();
    let can_move = has_legal_move(b, pos);
    let (key, count) = b.if_else(
        &can_move,
        |b| {
            let key = if options.endgame {
                // The engine is to move: the term e scores child - (g2 - e).
                let e_white = endgame::term_white_with(b, &pos.board, scoring.tables);
                let white = b.eq_text(&pos.turn, "w");
                let e = evaluate::for_side(b, &e_white, &white);
                b.sub(g2, &e)
            } else {
                g2.clone()
            };
            if !options.everywhere {
                return (key, options.report.then(|| report::one(b)));
            }
            // The leaf scores child - key + the best capture.
            let (best, captures) = capture_search(b, pos, options.report, options.see, scoring);
            let count = captures.map(|c| {
                let one = report::one(b);
                b.concat(&one, &c)
            });
            (b.sub(&key, &best), count)
        },
        |b| {
            // Mated: -(MATE - 1) = child - (child + MATE - 1); stalemate: 0.
            let key = no_move_key(b, pos, child, 1 - mate);
            (key, options.report.then(|| report::one(b)))
        },
    );
    (key, count)
}
