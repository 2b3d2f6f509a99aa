//! Repetition in the search: what a child learns from the rules input (a history entry it
//! repeats, whether `searchmoves` lists it, the entries one reply away), and the leaves
//! that repeat one of those entries, scored as a draw (see "Rules input" in
//! `crates/chess/src/lib.rs`).

use super::*;
use crate::board::Position;
use crate::evaluate::{self, SCORE_BITS};
use crate::history::{self, Extras};
use crate::movegen::{has_legal_move, in_check};
use crate::report;
use regex_chess_compiler::dsl::{Builder, Value, kind};
use regex_chess_compiler::ir::{Instruction, Type};

/// What a child learns from the rules input (see [`history`]).
pub(super) struct ChildInput {
    /// It repeats a history entry (only a child whose half-move clock is not 0 can).
    pub(super) repeated: Value<kind::Bool>,
    /// `searchmoves` lets the search play its move.
    pub(super) allowed: Value<kind::Bool>,
    /// The history entries one reply away from it (see [`history::compare`]).
    pub(super) near: Value<kind::Str>,
}

/// The position's key as the history entries write it: compact board, side, castling.
#[track_caller]
pub(super) fn position_key(
    b: &mut Builder,
    pos: &Position,
    compact: &Value<kind::Str>,
) -> Value<kind::Str> {
    let side = b.concat(compact, &pos.turn);
    b.concat(&side, &pos.castling)
}

/// The rules input of a child; the variables of [`Extras`] are deleted.
#[track_caller]
pub(super) fn root_input(
    b: &mut Builder,
    pos: &Position,
    extras: &Extras,
    saved: &Value<kind::Str>,
    uci: &Value<kind::Str>,
) -> ChildInput {
    let allowed = history::listed(b, &extras.searchmoves, uci);
    b.emit(Instruction::Delete(extras.searchmoves.var().clone()));
    let reset = b.eq_text(&pos.halfmove, "0");
    let (repeated, near) = b.if_else(
        &reset,
        |b| (b.bool(false), b.str("")),
        |b| {
            let key = position_key(b, pos, saved);
            let found = history::compare(
                b,
                &extras.history,
                &key,
                history::MAX_COMPARED,
                history::Near::No,
            );
            let repeated = b.eq_text(&found, "R");
            let near = history::compare(
                b,
                &extras.engine_side,
                &key,
                history::MAX_COMPARED,
                history::Near::OneReply,
            );
            (repeated, near)
        },
    );
    for v in [&extras.history, &extras.engine_side] {
        b.emit(Instruction::Delete(v.var().clone()));
    }
    ChildInput {
        repeated,
        allowed,
        near,
    }
}

/// Once per child, before its replies: where the child has no entry one reply away
/// (`near` empty), `near` is deleted, so that its replies carry none. With `flag`, it
/// also returns whether `near` is left, as a flag every reply then copies.
///
/// The leaves then settle the common case (no entry near, as on every position of a
/// game without reversible moves back and forth) without the comparison: the 2-ply
/// leaf ([`leaf_repetition`]) wakes only the threads that hold `near`, so it needs no
/// flag; the third-ply search's leaf ([`leaf_repeats`]) tests the flag in the three rules of an
/// `if`.
#[track_caller]
pub(super) fn child_has_near(
    b: &mut Builder,
    near: &Value<kind::Str>,
    flag: bool,
) -> Option<Value<kind::Bool>> {
    let none = b.eq_text(near, "");
    b.when(&none, |b| b.emit(Instruction::Delete(near.var().clone())));
    flag.then(|| b.not(&none))
}

/// Takes the flag of [`child_has_near`] off the thread, as a fresh temporary (kept on
/// the stack by the passes when a condition reads it at once).
#[track_caller]
pub(super) fn take_flag(b: &mut Builder, has_near: &Value<kind::Bool>) -> Value<kind::Bool> {
    b.emit(Instruction::Take(has_near.var().clone()));
    b.rules_value("assign", Vec::new(), &[], Type::Bool)
}

/// Whether the position after a reply (a thread holding `near`: see
/// [`child_has_near`]) repeats one of `near`, the child's entries one reply away; `near`
/// is taken.
///
/// The leaf has no half-move clock to test: [`stash`] took the child's into its group
/// boundary before the replies were generated. None is needed: a reply that resets the
/// clock (a capture or a pawn move) changes the material or the pawns, so it cannot
/// reach an entry of `near`, all of them since the root's last reset.
#[track_caller]
pub(super) fn repeats_near(
    b: &mut Builder,
    pos: &Position,
    near: &Value<kind::Str>,
) -> Value<kind::Bool> {
    let board = evaluate::compact(b, &pos.board);
    let key = position_key(b, pos, &board);
    let found = history::compare(b, near, &key, history::MAX_NEAR, history::Near::No);
    b.emit(Instruction::Delete(near.var().clone()));
    b.eq_text(&found, "R")
}

/// Whether the position after a reply repeats one of `near`, on every leaf (`false`
/// where the child has no entry near); the flag and `near` are taken.
#[track_caller]
pub(super) fn leaf_repeats(
    b: &mut Builder,
    pos: &Position,
    near: &Value<kind::Str>,
    has_near: &Value<kind::Bool>,
) -> Value<kind::Bool> {
    let flag = take_flag(b, has_near);
    b.if_else(&flag, |b| repeats_near(b, pos, near), |b| b.bool(false))
}

/// Scores a repetition 0 (`key = child`, as `child - key` is the leaf's score) and one
/// position counted, on the leaves whose position repeats one of `near`; `near` and
/// `key` are taken, and the leaf's key is returned (a fresh value). `count` is
/// overwritten in place on the repeating threads only.
///
/// The key waits on the stack, under the test, instead of in a variable: the passes
/// then keep it there from the `if` that computed it to the tournament, and a
/// repetition replaces it there (`pop`, then the child's score).
///
/// Only the threads holding `near` run the comparison (the others had none, see
/// [`child_has_near`]): a rule parks every active thread under a marker of its own
/// (`%r` and `near`'s name), a second wakes the parked threads that hold `near` (it
/// needs `near`'s line, so the fast executor skips it when no thread holds one, the
/// common case), and a last one ([`wake_parked`]) wakes the rest after the comparison:
/// here with `wake`, else the caller's (the search without a report or a third ply
/// leaves them parked through the end of its `if` over the replies, whose wait and
/// wake-up then visit only the few active threads). Every leaf pays two rules, where a
/// flag copied onto every leaf cost its bytes and four rules (its take, the condition's
/// two, the wake-up). The comparison reads and deletes only
/// `near`, whose every holder runs it, and reads the position variables, which live
/// on after it: no variable's last use falls where some threads are parked.
///
/// Run after the leaf is scored: the position variables must still be the leaf's where
/// it can repeat. A capture search may have replaced them (after a capture, which no
/// entry can follow since the material changed); a repeating leaf has a legal move (its
/// entry's next move in the game), so its mate or stalemate branch never ran.
#[track_caller]
pub(super) fn leaf_repetition(
    b: &mut Builder,
    pos: &Position,
    near: &Value<kind::Str>,
    child: &Value<kind::Int>,
    key: &Value<kind::Int>,
    count: Option<&Value<kind::Str>>,
    wake: bool,
) -> Value<kind::Int> {
    b.emit(Instruction::Take(key.var().clone()));
    let name = near.var().name();
    let parked = format!("%r{name}\n");
    b.rules(
        "near_only",
        vec![
            ("%%\n".to_string(), parked.clone()),
            (
                format!("{parked}((?:[^%\n]*\n)*#{name}: )"),
                "%%\n${1}".to_string(),
            ),
        ],
        &[near.var()],
        &[],
    );
    let repeats = repeats_near(b, pos, near);
    b.when(&repeats, |b| {
        b.emit(Instruction::Pop);
        b.emit(Instruction::Lookup(child.var().clone()));
        if let Some(count) = count {
            let one = report::one(b);
            b.emit(Instruction::Lookup(one.var().clone()));
            b.emit(Instruction::Assign(count.var().clone()));
        }
    });
    if wake {
        b.rules("near_only", vec![wake_parked(near)], &[], &[]);
    }
    b.rules_value("assign", Vec::new(), &[], key.ty())
}

/// The rule that wakes the threads [`leaf_repetition`] parked.
pub(super) fn wake_parked(near: &Value<kind::Str>) -> (String, String) {
    (format!("%r{}\n", near.var().name()), "%%\n".to_string())
}

/// The score of a child that repeats a history entry: [`weights::MATE`] when it leaves
/// the opponent checkmated, else 0 (stalemate or a repetition); no reply is searched.
#[track_caller]
#[allow(clippy::type_complexity)]
pub(super) fn repetition_score(
    b: &mut Builder,
    pos: &Position,
    report: bool,
) -> (
    Value<kind::Bool>,
    (
        Value<kind::Int>,
        (Option<Value<kind::Str>>, Option<Value<kind::Str>>),
    ),
) {
    let can_move = has_legal_move(b, pos);
    let no_reply = b.not(&can_move);
    let mated = b.if_else(&no_reply, |b| in_check(b, pos), |b| b.bool(false));
    let score = b.if_else(
        &mated,
        |b| b.int(SCORE_BITS, mate_units()),
        |b| b.int(SCORE_BITS, 0),
    );
    let reply = report.then(|| b.str(""));
    let count = report.then(|| b.str(""));
    (no_reply, (score, (reply, count)))
}
