//! The search of `src/chess/mod.rs` in rules, and the `move` program.
//!
//! # Shape
//!
//! ```text
//! parse_fen                         1 thread: the root
//! root score (full evaluation)      1 thread, ~1,900 rules
//! fork_legal_moves (keep stuck)     ~35 threads: the engine's moves (uci, position after)
//!   child = root + gain(move)       incremental, about 60 rules
//!   save the child's board          compact; a copy of it, the rest of the position
//!                                   and the uci wait in the group boundary (one copy
//!                                   per child)
//!   fork_legal_moves (keep stuck)   ~1,000 threads: the replies   <- the wide part
//!     key = gain(reply)             40 rules; then the leaf drops the child's board
//!     no legal move for the engine: key = child + MATE in check, else child
//!     a child with no reply (kept stuck): key = child - MATE in check, else child
//!   tournament: max key per child   3 rules per round, in each child's group
//!   score = child - key             once per child, not per leaf
//! key = score ++ complement(uci)    ties go to the smallest UCI text under a max
//! tournament: max over the moves    one thread left
//! restore the child's position, its status, the output text
//! ```
//!
//! With [`SearchOptions::quiescence`] (the `2ply-q` variant), a leaf whose reply
//! captured on its target square ([`evaluate::captures_on_target`]) and that leaves the
//! engine a move runs `capture_search` in a group of its own: the engine's captures and
//! promotions ([`fork_legal_captures`]), their gains, a tournament, and the best gain or
//! 0 (standing pat) taken off the leaf's key. With [`SearchOptions::endgame`] (the
//! `2ply-qe` variant), every leaf where the engine can move also adds the endgame term
//! of [`endgame`] (the leaf's board, from the engine's view) to its score. With
//! [`SearchOptions::third_ply`] (the `3ply-qe` variant), [`third_ply`] replaces the leaf
//! below each reply that captured on its target square: a copy of the leaf stands pat,
//! another forks into the engine's captures and promotions, each with the opponent's
//! `capture_search` below it, and a tournament per reply keeps the best; the other
//! leaves ([`quiet_reply_leaf`]) stand pat. With [`SearchOptions::report`] every thread
//! also carries the reply's UCI text and a count of positions, summed by
//! [`report::keep_best_counting`] in place of each tournament; the program writes them
//! with the score in decimal at the end.
//!
//! A leaf's score (`child - gain`, `-MATE`, `0` or `MATE`) is `child - key` with the key
//! above, and `child - key` decreases as the key grows (no value comes near the 14-bit
//! limits), so the largest key is the smallest score, ties included: the leaves compute
//! no subtraction. The reply's gain needs the board before the reply: the child's board
//! `pb`; the leaves drop it once their gain is known (about a fifth of a leaf's bytes),
//! and the copy in the boundary restores the chosen child's position at the end.

use super::board::{MoveGen, Position};
use super::endgame;
use super::eval;
use super::evaluate::{self, BOARD_CHAR, SCORE_BITS};
use super::fen_rules::{parse_fen, to_fen};
use super::history::{self, Extras};
use super::movegen::{fork_legal_captures, fork_legal_moves, has_legal_move, in_check};
use super::report;
use super::stack_rules::{self, on_stack};
use crate::compiler::dsl::{Builder, Value, kind};
use crate::compiler::ir::{Best, Instruction, IrProgram, Type};

/// The most legal moves a position can have.
pub const MAX_MOVES: usize = 218;
/// Width of the tie-break key folded under the score (from, to, promotion).
pub const UCI_KEY_BITS: u8 = 15;

const HEAD: &str = "(%%\n#stack:\n)";

/// MATE in the rules' units.
pub fn mate_units() -> i64 {
    evaluate::units(eval::MATE)
}

/// Rules turning a UCI text on top of the stack into 15 binary digits whose order is the
/// reverse of the texts' byte order (so that a max prefers the smallest text).
fn uci_key_rules() -> Vec<(String, String)> {
    let mut rules = Vec::new();
    let digits = |v: usize| format!("{:03b}", 7 - v);
    for (k, chars) in ["abcdefgh", "12345678", "abcdefgh", "12345678"]
        .iter()
        .enumerate()
    {
        for (v, c) in chars.chars().enumerate() {
            rules.push((
                format!("(%%\n#stack:\n[01]{{{}}}){c}", 3 * k),
                format!("${{1}}{}", digits(v)),
            ));
        }
    }
    // No promotion sorts first, then b, n, q, r.
    for (v, c) in ["", "b", "n", "q", "r"].iter().enumerate() {
        rules.push((
            format!("(%%\n#stack:\n[01]{{12}}){c}\n"),
            format!("${{1}}{}\n", digits(v)),
        ));
    }
    rules
}

/// The comparison key of a move: with `allowed`, a digit 1 when it holds (the move is
/// one `searchmoves` lets the search play), else 0; then its score's digits, then the
/// UCI key.
#[track_caller]
fn move_key(
    b: &mut Builder,
    score: &Value<kind::Int>,
    uci: &Value<kind::Str>,
    allowed: Option<&Value<kind::Bool>>,
) -> Value<kind::Int> {
    let key: Value<kind::Str> = on_stack(b, "uci_key", &[uci.var()], uci_key_rules(), Type::Str);
    let text = b.text_of(score);
    let mut joined = b.concat(&text, &key);
    if let Some(allowed) = allowed {
        let digit: Value<kind::Str> = on_stack(
            b,
            "allowed_digit",
            &[allowed.var()],
            vec![
                (format!("{HEAD}T\n"), "${1}1\n".to_string()),
                (format!("{HEAD}F\n"), "${1}0\n".to_string()),
            ],
            Type::Str,
        );
        joined = b.concat(&digit, &joined);
    }
    let bits = SCORE_BITS + UCI_KEY_BITS + u8::from(allowed.is_some());
    on_stack(b, "as_int", &[joined.var()], Vec::new(), Type::Int { bits })
}

/// What a child learns from the rules input (see [`history`]).
struct ChildInput {
    /// It repeats a history entry (only a child whose half-move clock is not 0 can).
    repeated: Value<kind::Bool>,
    /// `searchmoves` lets the search play its move.
    allowed: Value<kind::Bool>,
    /// The history entries one reply away from it (see [`history::compare`]).
    near: Value<kind::Str>,
}

/// The position's key as the history entries write it: compact board, side, castling.
#[track_caller]
fn position_key(b: &mut Builder, pos: &Position, compact: &Value<kind::Str>) -> Value<kind::Str> {
    let side = b.concat(compact, &pos.turn);
    b.concat(&side, &pos.castling)
}

/// The rules input of a child; the variables of [`Extras`] are deleted.
#[track_caller]
fn root_input(
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
/// flag; the `3ply-qe` leaf ([`leaf_repeats`]) tests the flag in the three rules of an
/// `if`.
#[track_caller]
fn child_has_near(
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
fn take_flag(b: &mut Builder, has_near: &Value<kind::Bool>) -> Value<kind::Bool> {
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
fn repeats_near(b: &mut Builder, pos: &Position, near: &Value<kind::Str>) -> Value<kind::Bool> {
    let board = evaluate::compact(b, &pos.board);
    let key = position_key(b, pos, &board);
    let found = history::compare(b, near, &key, history::MAX_NEAR, history::Near::No);
    b.emit(Instruction::Delete(near.var().clone()));
    b.eq_text(&found, "R")
}

/// Whether the position after a reply repeats one of `near`, on every leaf (`false`
/// where the child has no entry near); the flag and `near` are taken.
#[track_caller]
fn leaf_repeats(
    b: &mut Builder,
    pos: &Position,
    near: &Value<kind::Str>,
    has_near: &Value<kind::Bool>,
) -> Value<kind::Bool> {
    let flag = take_flag(b, has_near);
    b.if_else(&flag, |b| repeats_near(b, pos, near), |b| b.bool(false))
}

/// The key of a leaf whose side to move has no legal move, for a leaf scored
/// `child - key`: `child` (a score of 0) when it is stalemated, and `child - mated`
/// (a score of `mated`) when it is checkmated. `mated` is in the rules' units.
#[track_caller]
fn no_move_key(
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
fn leaf_on_stack(
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
fn leaf_repetition(
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
fn wake_parked(near: &Value<kind::Str>) -> (String, String) {
    (format!("%r{}\n", near.var().name()), "%%\n".to_string())
}

/// Whether the thread holds `stuck` (set to `T` on the child with no reply, the one
/// thread of its group), as a boolean; `stuck` is taken. Three rules on the threads left
/// after the tournament over the replies, where keeping `replied` for the same answer
/// cost two rules (a copy and a store) on every leaf: a scratch line `!` on the threads
/// that hold it, `F` pushed on the others (values never start with `!`), then `T` for
/// the scratch line.
#[track_caller]
fn stuck_flag(b: &mut Builder, stuck: &Value<kind::Bool>) -> Value<kind::Bool> {
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

/// The score of a child that repeats a history entry: [`eval::MATE`] when it leaves
/// the opponent checkmated, else 0 (stalemate or a repetition); no reply is searched.
#[track_caller]
#[allow(clippy::type_complexity)]
fn repetition_score(
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

/// Whether a decimal clock is at least 100.
#[track_caller]
pub fn clock_at_least_100(b: &mut Builder, clock: &Value<kind::Str>) -> Value<kind::Bool> {
    on_stack(
        b,
        "fifty_moves",
        &[clock.var()],
        vec![
            (format!("{HEAD}[1-9][0-9]{{2,}}\n"), "${1}T\n".to_string()),
            (
                format!("{HEAD}(?:[^T\n][^\n]*|T[^\n]+)?\n"),
                "${1}F\n".to_string(),
            ),
        ],
        Type::Bool,
    )
}

/// Whether neither side can ever mate on `board` (shakmaty's rule): no pawn, rook or
/// queen, and either a lone knight besides the kings, or no knight and every bishop on
/// squares of one colour.
#[track_caller]
pub fn insufficient_material(b: &mut Builder, board: &Value<kind::Str>) -> Value<kind::Bool> {
    // A square of the board line is light when file + rank is odd.
    let only = |light: &str, dark: &str| -> String {
        let mut p = String::new();
        for row in 0..8 {
            let rank = 7 - row;
            for file in 0..8 {
                p.push_str(if (file + rank) % 2 == 1 { light } else { dark });
            }
            p.push_str("//");
        }
        p
    };
    let no_heavy = "[^PRQprqNn]";
    let no_heavy_nor_bishop = "[^PRQprqNnBb]";
    let rules = vec![
        (
            format!("{HEAD}[^PRQprqBbNn\n]*[Nn][^PRQprqBbNn\n]*\n"),
            "${1}!T\n".to_string(),
        ),
        (
            format!("{HEAD}{}\n", only(no_heavy_nor_bishop, no_heavy)),
            "${1}!T\n".to_string(),
        ),
        (
            format!("{HEAD}{}\n", only(no_heavy, no_heavy_nor_bishop)),
            "${1}!T\n".to_string(),
        ),
        (format!("{HEAD}(?:[^!\n][^\n]*)?\n"), "${1}F\n".to_string()),
        (format!("{HEAD}!T\n"), "${1}T\n".to_string()),
    ];
    on_stack(
        b,
        "insufficient_material",
        &[board.var()],
        rules,
        Type::Bool,
    )
}

/// Moves the child's compact board `saved` (a copy: the replies' gains still read it),
/// the turn, castling rights, en-passant square, clocks (from the position) and `uci` of
/// every active thread into the group boundary just before it (`%/<level> <saved> <t>
/// <c> <e> <h> <n> <uci>`), where the thread's descendants do not copy them: the first
/// instruction inside a [`Builder::grouped`] body. The replies' generation skips the
/// clocks it does not find; nothing before [`unstash`] reads the rest.
#[track_caller]
fn stash(b: &mut Builder, pos: &Position, saved: &Value<kind::Str>, uci: &Value<kind::Str>) {
    for v in [saved, &pos.turn, &pos.castling, &pos.ep] {
        b.emit(Instruction::Lookup(v.var().clone()));
    }
    for v in [&pos.halfmove, &pos.fullmove, uci] {
        b.emit(Instruction::Take(v.var().clone()));
    }
    let line = "([^\n]*)\n".repeat(7);
    b.emit(stack_rules::instruction(
        "stash",
        vec![(
            format!("(%/[0-9]+)\n{HEAD}{line}"),
            "${1} ${9} ${8} ${7} ${6} ${5} ${4} ${3}\n%%\n#stack:\n".to_string(),
        )],
    ));
}

/// Brings the line of [`stash`] back from each group boundary onto the stack of the one
/// thread left after it (the last instruction inside the `grouped` body, after the
/// tournament).
#[track_caller]
fn unstash(b: &mut Builder) {
    b.emit(stack_rules::instruction(
        "unstash",
        vec![(
            format!("(%/[0-9]+) ([^\n]*)\n{HEAD}"),
            "${1}\n%%\n#stack:\n${2}\n".to_string(),
        )],
    ));
}

/// Replaces the position's variables (the clocks already gone) by the child's: its
/// compact board and the rest of the line [`unstash`] left on the stack; `uci` too.
#[track_caller]
fn restore(b: &mut Builder, pos: &Position, uci: &Value<kind::Str>) {
    for v in &pos.vars()[..4] {
        b.emit(Instruction::Delete((*v).clone()));
    }
    let ranks = format!("({BOARD_CHAR}{{8}})").repeat(8);
    let fields = ["([^ \n]*)"; 6].join(" ");
    let pattern = format!("{HEAD}{ranks} {fields}\n");
    let board: String = (2..10).map(|g| format!("${{{g}}}//")).collect();
    let rest: String = (10..16).map(|g| format!("${{{g}}}\n")).collect();
    b.emit(stack_rules::instruction(
        "restore",
        vec![(pattern, format!("${{1}}{board}\n{rest}"))],
    ));
    for v in pos.vars() {
        b.emit(Instruction::Define(v.clone()));
    }
    b.emit(Instruction::Define(uci.var().clone()));
}

/// Which search [`search_with`] records.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SearchOptions {
    /// Below each leaf, the capture search of `src/chess/mod.rs` (the side to move's
    /// best capture or promotion, or standing pat).
    pub quiescence: bool,
    /// Add the endgame term of [`endgame`] (the position after the reply, from the
    /// engine's view) to every leaf where the engine has a legal move.
    pub endgame: bool,
    /// Keep the expected reply and count the positions visited ([`Chosen::reply`],
    /// [`Chosen::nodes`]).
    pub report: bool,
    /// With `report`: the program also ranks the root moves and writes the best this many
    /// ([`Chosen::entries`], [`rank`]); 0 for none.
    pub multipv: usize,
    /// Search a third, selective ply after each reply that captured ([`third_ply`]:
    /// standing pat or the engine's captures and promotions); the capture search and the
    /// endgame term then apply below it.
    pub third_ply: bool,
}

/// What the search leaves in its single thread.
pub struct Chosen {
    /// Whether the engine had a move (false: the root position is unchanged).
    pub moved: Value<kind::Bool>,
    /// The move's UCI text (empty when there is none).
    pub uci: Value<kind::Str>,
    /// Whether the position after the move leaves the opponent no legal move.
    pub no_reply: Value<kind::Bool>,
    /// The move's score (units of 5 cp).
    pub score: Value<kind::Int>,
    /// With [`SearchOptions::report`]: the reply the score assumes (empty when there is
    /// none).
    pub reply: Option<Value<kind::Str>>,
    /// With [`SearchOptions::report`]: the positions the search reached by a move, as a
    /// count of [`report::TALLY`]s.
    pub nodes: Option<Value<kind::Str>>,
    /// With [`SearchOptions::multipv`]: every root move as a list element `<key><pv>`,
    /// the key the move's 29 binary digits of [`move_key`], the pv its UCI text then, when
    /// it has one, a space and the reply of [`Chosen::reply`] (see [`rank`]).
    pub entries: Option<Value<kind::Str>>,
    /// With [`SearchOptions::report`] and [`SearchOptions::third_ply`]: the engine's
    /// third-ply move the reply's score assumes (empty when there is none).
    pub third: Option<Value<kind::Str>>,
}

/// The tournament of a run of threads on `key` (largest wins, ties the earliest), summing
/// the runs' `count`s when there are counts.
#[track_caller]
fn keep_best_maybe_counting(
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
/// number of captures looked at. The threads left hold a capture's position, not the
/// leaf's (the search restores the chosen child from its group boundary).
#[track_caller]
fn capture_search(
    b: &mut Builder,
    pos: &Position,
    report: bool,
) -> (Value<kind::Int>, Option<Value<kind::Str>>) {
    let board = evaluate::compact(b, &pos.board);
    let (best, count) = b.grouped(|b| {
        let options = MoveGen {
            uci: true,
            keep_stuck: true,
        };
        let captures = fork_legal_captures(b, pos, options);
        let uci = captures.uci.expect("asked for uci");
        let moved = captures.moved.expect("asked for keep_stuck");
        let (gain, count) = b.if_else(
            &moved,
            |b| {
                let g = evaluate::gain(b, &board, &uci);
                (g, report.then(|| report::one(b)))
            },
            |b| (b.int(SCORE_BITS, 0), report.then(|| b.str(""))),
        );
        b.emit(Instruction::Delete(uci.var().clone()));
        b.emit(Instruction::Delete(board.var().clone()));
        let count = keep_best_maybe_counting(b, &gain, count);
        (gain, count)
    });
    let zero = b.int(SCORE_BITS, 0);
    let gains = b.gt(&best, &zero);
    let best = b.if_else(&gains, |_| best.clone(), |_| zero.clone());
    (best, count)
}

/// The leaf of the `3ply-qe` search after a reply that captured nothing on its target
/// square, with gain `g2` for the opponent below the engine move scoring `child`: its
/// key for the tournament over the replies (`child - key` is its score: the position's
/// score plus the endgame term, or `-(MATE - 1 ply)` when the engine is mated, or 0
/// when stalemated) and the positions counted (the reply's).
#[track_caller]
fn quiet_reply_leaf(
    b: &mut Builder,
    pos: &Position,
    child: &Value<kind::Int>,
    g2: &Value<kind::Int>,
    options: SearchOptions,
) -> (Value<kind::Int>, Option<Value<kind::Str>>) {
    let mate = mate_units();
    let can_move = has_legal_move(b, pos);
    let key = b.if_else(
        &can_move,
        |b| {
            if options.endgame {
                // The engine is to move: the term e scores child - (g2 - e).
                let e_white = endgame::term_white(b, &pos.board);
                let white = b.eq_text(&pos.turn, "w");
                let e = evaluate::for_side(b, &e_white, &white);
                b.sub(g2, &e)
            } else {
                g2.clone()
            }
        },
        |b| {
            // Mated: -(MATE - 1) = child - (child + MATE - 1); stalemate: 0.
            no_move_key(b, pos, child, 1 - mate)
        },
    );
    (key, options.report.then(|| report::one(b)))
}

/// The third ply below a reply (the `3ply-qe` search of `src/chess/mod.rs`), run in each
/// thread holding the position after a reply whose gain, for the opponent, is `g2` and
/// whose engine move scored `child`. The thread forks into itself and a copy: itself
/// stands pat (the reply's position, with the endgame term; or the engine mated or
/// stalemated there), the copy forks into the engine's legal captures and promotions
/// ([`fork_legal_captures`]), each scored by its gain plus the endgame term less the
/// opponent's [`capture_search`], or a mate or stalemate; the best of them all wins a
/// tournament. Returns the reply's key for the tournament over the replies (`child -
/// key` is the reply's score), the third move (empty when standing pat wins; with
/// [`SearchOptions::report`]) and the positions counted below the reply.
///
/// Each thread's key here is its score less the reply's `v2 = child - g2`, so that the
/// common cases (`e`, `g3 + e - q`) need no `v2`; mates and stalemates, rare, compute it.
#[track_caller]
fn third_ply(
    b: &mut Builder,
    pos: &Position,
    child: &Value<kind::Int>,
    g2: &Value<kind::Int>,
    options: SearchOptions,
) -> (
    Value<kind::Int>,
    Option<Value<kind::Str>>,
    Option<Value<kind::Str>>,
) {
    let SearchOptions {
        quiescence,
        endgame,
        report,
        ..
    } = options;
    let mate = mate_units();
    // The score of a position from the reply's: `leaf - (child - g2)`.
    let relative = |b: &mut Builder, leaf: i64| {
        let v2 = b.sub(child, g2);
        let leaf = b.int(SCORE_BITS, leaf);
        b.sub(&leaf, &v2)
    };
    // The endgame term of the thread's position from the view of the side to move.
    let term = |b: &mut Builder| {
        let e_white = endgame::term_white(b, &pos.board);
        let white = b.eq_text(&pos.turn, "w");
        evaluate::for_side(b, &e_white, &white)
    };
    let saved = evaluate::compact(b, &pos.board);
    let (best, third, count) = b.grouped(|b| {
        let stands = b.fork_bool();
        let (key, (third, count)) = b.if_else(
            &stands,
            |b| {
                b.emit(Instruction::Delete(saved.var().clone()));
                let can_move = has_legal_move(b, pos);
                let key = b.if_else(
                    &can_move,
                    |b| {
                        // Standing pat: the reply's score, and the term (engine to move).
                        if endgame {
                            term(b)
                        } else {
                            b.int(SCORE_BITS, 0)
                        }
                    },
                    |b| {
                        // The reply mates the engine (-MATE less 1 ply) or stalemates it.
                        let check = in_check(b, pos);
                        b.if_else(&check, |b| relative(b, 1 - mate), |b| relative(b, 0))
                    },
                );
                (key, (b.str(""), report.then(|| b.str(""))))
            },
            |b| {
                let moves = fork_legal_captures(
                    b,
                    pos,
                    MoveGen {
                        uci: true,
                        keep_stuck: false,
                    },
                );
                let third = moves.uci.expect("asked for uci");
                let g = evaluate::gain(b, &saved, &third);
                b.emit(Instruction::Delete(saved.var().clone()));
                let can_reply = has_legal_move(b, pos);
                let (key, count) = b.if_else(
                    &can_reply,
                    |b| {
                        // The opponent is to move: its view's term is subtracted.
                        let g = if endgame {
                            let e = term(b);
                            b.sub(&g, &e)
                        } else {
                            g.clone()
                        };
                        if quiescence {
                            let (best, captures) = capture_search(b, pos, report);
                            let key = b.sub(&g, &best);
                            let count = captures.map(|c| {
                                let one = report::one(b);
                                b.concat(&one, &c)
                            });
                            (key, count)
                        } else {
                            (g, report.then(|| report::one(b)))
                        }
                    },
                    |b| {
                        // The engine mates on the third ply (MATE less 2 plies) or
                        // stalemates.
                        let check = in_check(b, pos);
                        let key = b.if_else(&check, |b| relative(b, mate - 2), |b| relative(b, 0));
                        (key, report.then(|| report::one(b)))
                    },
                );
                (key, (third, count))
            },
        );
        if !report {
            b.emit(Instruction::Delete(third.var().clone()));
        }
        let count = keep_best_maybe_counting(b, &key, count);
        (key, third, count)
    });
    // The reply scores v2 + best = child - (g2 - best).
    let key = b.sub(g2, &best);
    // The reply position counts too.
    let count = count.map(|c| {
        let one = report::one(b);
        b.concat(&one, &c)
    });
    (key, report.then_some(third), count)
}

/// The 2-ply search on the position of the single active thread. Afterwards the thread
/// holds the position after the chosen move (or the root position when there is none).
#[track_caller]
pub fn search(b: &mut Builder, pos: &Position) -> Chosen {
    search_with(b, pos, SearchOptions::default(), None)
}

/// The 2-ply search, with the capture search below its leaves when
/// [`SearchOptions::quiescence`] is set (see `src/chess/mod.rs`). Afterwards the thread
/// holds the position after the chosen move (or the root position when there is none).
/// With `extras` (see [`history`]), a child that repeats a history entry scores 0
/// unless it mates or stalemates, and the moves `searchmoves` lists win over the others;
/// both variables are gone afterwards.
#[track_caller]
pub fn search_with(
    b: &mut Builder,
    pos: &Position,
    options: SearchOptions,
    extras: Option<&Extras>,
) -> Chosen {
    let SearchOptions {
        quiescence,
        endgame,
        report,
        multipv,
        third_ply: three,
    } = options;
    assert!(
        multipv == 0 || report,
        "ranking the root moves needs their replies"
    );
    let white = b.eq_text(&pos.turn, "w");
    let root_white = evaluate::full_score_white(b, &pos.board);
    let root = evaluate::for_side(b, &root_white, &white);
    let root_board = evaluate::compact(b, &pos.board);
    let mate = mate_units();
    let (moved, uci, no_reply, score, (reply, third), count, entries) = b.grouped(|b| {
        let children = fork_legal_moves(
            b,
            pos,
            MAX_MOVES,
            MoveGen {
                uci: true,
                keep_stuck: true,
            },
        );
        let uci = children.uci.expect("asked for uci");
        let moved = children.moved.expect("asked for keep_stuck");
        let (moved, (no_reply, (score, (((reply, third), count), allowed)))) = b.if_else(
            &moved,
            |b| {
                // The root's board is read here for the last time: taken, not copied.
                let g = evaluate::gain_taking(b, &root_board, &uci, false);
                let child = b.add(&root, &g);
                // The root's score is dead from here: dropped before the replies copy
                // every variable a thousand times.
                b.emit(Instruction::Delete(root.var().clone()));
                // The child's board (compact), for the replies' gains and for the end;
                // the rest of its position and its move wait in its group's boundary.
                let saved = evaluate::compact(b, &pos.board);
                let input = extras.map(|extras| root_input(b, pos, extras, &saved, &uci));
                let repeated = input.as_ref().map(|i| i.repeated.clone());
                let allowed = input.as_ref().map(|i| i.allowed.clone());
                let near = input.as_ref().map(|i| i.near.clone());
                let searched = |b: &mut Builder| {
                    let has_near = near.as_ref().and_then(|n| child_has_near(b, n, three));
                    let (no_reply, score, (reply, third), count) = b.grouped(|b| {
                        stash(b, pos, &saved, &uci);
                        let replies = fork_legal_moves(
                            b,
                            pos,
                            MAX_MOVES,
                            MoveGen {
                                uci: true,
                                keep_stuck: true,
                            },
                        );
                        let reply = replies.uci.expect("asked for uci");
                        let replied = replies.moved.expect("asked for keep_stuck");
                        // Set on the child's thread when it has no reply, instead of
                        // keeping `replied` on every leaf (see `stuck_flag`).
                        let stuck: Value<kind::Bool> = b.fresh(Type::Bool);
                        // Without a report or a third ply, the leaves that
                        // `leaf_repetition` parks wait through the end of the `if`
                        // below (the key, its only value, stays on the stack, so no
                        // rule of the join runs on them): the rules that wait and wake
                        // the then-threads around the no-reply branch visit only the few
                        // holders of `near`, and one rule wakes every leaf after it.
                        let late_wake = !report && !three;
                        // Each leaf's score is `child - key`: the tournament keeps the
                        // largest key (the same thread the smallest score would keep), and
                        // the subtraction runs once per child instead of once per leaf.
                        let (key, (third, count)) = b.if_else(
                            &replied,
                            |b| {
                                // Without the capture tests, the gain is the last
                                // read of `saved`, and of `reply` when no report keeps
                                // it: taken off every leaf instead of copied and
                                // deleted after.
                                let last_read = !three && !quiescence;
                                let g = if last_read {
                                    evaluate::gain_taking(b, &saved, &reply, !report)
                                } else {
                                    evaluate::gain(b, &saved, &reply)
                                };
                                if three {
                                    let took = evaluate::captures_on_target(b, &saved, &reply);
                                    if !report {
                                        b.emit(Instruction::Delete(reply.var().clone()));
                                    }
                                    b.emit(Instruction::Delete(saved.var().clone()));
                                    let repeats = near
                                        .as_ref()
                                        .zip(has_near.as_ref())
                                        .map(|(n, h)| leaf_repeats(b, pos, n, h));
                                    return b.if_else(
                                        &took,
                                        |b| {
                                            let (key, third, count) =
                                                third_ply(b, pos, &child, &g, options);
                                            (key, (third, count))
                                        },
                                        |b| {
                                            let quiet = |b: &mut Builder| {
                                                let (key, count) =
                                                    quiet_reply_leaf(b, pos, &child, &g, options);
                                                (key, (report.then(|| b.str("")), count))
                                            };
                                            match &repeats {
                                                // A repetition scores 0 = child - child.
                                                Some(repeats) => b.if_else(
                                                    repeats,
                                                    |b| {
                                                        let third = report.then(|| b.str(""));
                                                        (
                                                            child.clone(),
                                                            (third, report.then(|| report::one(b))),
                                                        )
                                                    },
                                                    quiet,
                                                ),
                                                None => quiet(b),
                                            }
                                        },
                                    );
                                }
                                let took = quiescence
                                    .then(|| evaluate::captures_on_target(b, &saved, &reply));
                                // Dead: deleted here rather than after the whole `if`
                                // (the boundary keeps a copy of `saved` for the end).
                                if !last_read {
                                    if !report {
                                        b.emit(Instruction::Delete(reply.var().clone()));
                                    }
                                    b.emit(Instruction::Delete(saved.var().clone()));
                                }
                                // Without the endgame term and the capture test, a leaf
                                // where the side to move can move is keyed by its gain:
                                // the gain then waits on the stack, under the test, and
                                // is the key as it is (see `leaf_on_stack`).
                                let plain = !endgame && took.is_none();
                                if plain {
                                    b.emit(Instruction::Take(g.var().clone()));
                                }
                                let can_move = has_legal_move(b, pos);
                                let scored = |b: &mut Builder| {
                                    // The endgame term e scores child - (g - e).
                                    let g = if endgame {
                                        let e_white = endgame::term_white(b, &pos.board);
                                        let white = b.eq_text(&pos.turn, "w");
                                        let e = evaluate::for_side(b, &e_white, &white);
                                        b.sub(&g, &e)
                                    } else {
                                        g.clone()
                                    };
                                    if let Some(took) = &took {
                                        // After a capture, the leaf scores child - g +
                                        // the best capture.
                                        b.if_else(
                                            took,
                                            |b| {
                                                let (best, captures) =
                                                    capture_search(b, pos, report);
                                                let key = b.sub(&g, &best);
                                                let count = captures.map(|c| {
                                                    let one = report::one(b);
                                                    b.concat(&one, &c)
                                                });
                                                (key, count)
                                            },
                                            |b| (g.clone(), report.then(|| report::one(b))),
                                        )
                                    } else {
                                        (g.clone(), report.then(|| report::one(b)))
                                    }
                                };
                                let (mut key, count) = if plain {
                                    leaf_on_stack(b, pos, &can_move, &child, &g, report)
                                } else {
                                    b.if_else(&can_move, scored, |b| {
                                        // Mated: -MATE = child - (child + MATE); stalemate: 0.
                                        let key = no_move_key(b, pos, &child, -mate);
                                        (key, report.then(|| report::one(b)))
                                    })
                                };
                                if let Some(near) = &near {
                                    // A repetition scores 0 = child - child.
                                    key = leaf_repetition(
                                        b,
                                        pos,
                                        near,
                                        &child,
                                        &key,
                                        count.as_ref(),
                                        !late_wake,
                                    );
                                }
                                (key, (None, count))
                            },
                            |b| {
                                // No reply: MATE = child - (child - MATE) in check, else 0.
                                b.emit(Instruction::Push("T".to_string()));
                                b.emit(Instruction::Define(stuck.var().clone()));
                                if !report {
                                    b.emit(Instruction::Delete(reply.var().clone()));
                                }
                                b.emit(Instruction::Delete(saved.var().clone()));
                                if let Some(near) = &near {
                                    b.emit(Instruction::Delete(near.var().clone()));
                                }
                                if let Some(has_near) = &has_near {
                                    b.emit(Instruction::Delete(has_near.var().clone()));
                                }
                                let key = no_move_key(b, pos, &child, mate);
                                let count = report.then(|| b.str(""));
                                let third = (three && report).then(|| b.str(""));
                                (key, (third, count))
                            },
                        );
                        let (count, leaf) = match count {
                            // The tournament leaves the key on top of the stack: taken
                            // there from the join, it needs no copy on every leaf.
                            None => {
                                b.emit(Instruction::Take(key.var().clone()));
                                // After the take, which the passes cancel with the
                                // join's define (no rule of the join is left).
                                if let Some(near) = near.as_ref().filter(|_| late_wake) {
                                    b.rules("near_only", vec![wake_parked(near)], &[], &[]);
                                }
                                b.emit(Instruction::Tournament {
                                    bits: key.bits(),
                                    max_threads: MAX_MOVES,
                                    best: Best::Max,
                                });
                                b.emit(Instruction::Lookup(child.var().clone()));
                                b.emit(Instruction::Swap);
                                b.emit(Instruction::Sub { bits: key.bits() });
                                (None, b.rules_value("assign", Vec::new(), &[], key.ty()))
                            }
                            count => {
                                let count = keep_best_maybe_counting(b, &key, count);
                                (count, b.sub(&child, &key))
                            }
                        };
                        let no_reply = stuck_flag(b, &stuck);
                        unstash(b);
                        let reply = report.then(|| reply.clone());
                        (no_reply, leaf, (reply, third), count)
                    });
                    restore(b, pos, &uci);
                    (no_reply, (score, ((reply, third), count)))
                };
                let (no_reply, (score, ((reply, third), count))) = match &repeated {
                    Some(repeated) => b.if_else(
                        repeated,
                        |b| {
                            if let Some(near) = &near {
                                b.emit(Instruction::Delete(near.var().clone()));
                            }
                            let (no_reply, (score, (reply, count))) =
                                repetition_score(b, pos, report);
                            let third = (three && report).then(|| b.str(""));
                            (no_reply, (score, ((reply, third), count)))
                        },
                        searched,
                    ),
                    None => searched(b),
                };
                // The child itself counts too.
                let count = count.map(|c| {
                    let one = report::one(b);
                    b.concat(&one, &c)
                });
                // `moved` is true here: set again, rather than carried through the wide part.
                (
                    b.bool(true),
                    (no_reply, (score, (((reply, third), count), allowed))),
                )
            },
            |b| {
                let f = b.bool(false);
                let zero = b.int(SCORE_BITS, 0);
                let reply = report.then(|| b.str(""));
                let count = report.then(|| b.str(""));
                let third = (three && report).then(|| b.str(""));
                if let Some(extras) = extras {
                    b.emit(Instruction::Delete(extras.history.var().clone()));
                    b.emit(Instruction::Delete(extras.searchmoves.var().clone()));
                }
                let allowed = extras.map(|_| b.bool(true));
                (f.clone(), (f, (zero, (((reply, third), count), allowed))))
            },
        );
        let key = move_key(b, &score, &uci, allowed.as_ref());
        let (count, entries) = match (count, &reply) {
            (Some(count), Some(reply)) if multipv > 0 => {
                let entry = root_entry(b, &key, &uci, reply);
                let mut joined = report::keep_best_joining(b, &key, &[&count, &entry], MAX_MOVES);
                let entries = joined.pop();
                (joined.pop(), entries)
            }
            (count, _) => (keep_best_maybe_counting(b, &key, count), None),
        };
        (moved, uci, no_reply, score, (reply, third), count, entries)
    });
    Chosen {
        moved,
        uci,
        no_reply,
        score,
        reply,
        nodes: count,
        entries,
        third,
    }
}

/// The width of [`move_key`]'s text.
const KEY_DIGITS: usize = (SCORE_BITS + UCI_KEY_BITS) as usize;

/// A root move's element of [`Chosen::entries`]: `;`, its key's digits, its UCI text and,
/// when there is a reply, a space and the reply.
#[track_caller]
fn root_entry(
    b: &mut Builder,
    key: &Value<kind::Int>,
    uci: &Value<kind::Str>,
    reply: &Value<kind::Str>,
) -> Value<kind::Str> {
    let no_reply = b.eq_text(reply, "");
    let tail = b.if_else(
        &no_reply,
        |b| b.str(""),
        |b| {
            let space = b.str(" ");
            b.concat(&space, reply)
        },
    );
    let mut entry = b.str(";");
    for part in [b.text_of(key), uci.clone(), tail] {
        entry = b.concat(&entry, &part);
    }
    entry
}

/// One line of the ranking: whether there is a move of that rank, and the line's text
/// (`multipv <rank> score <score> pv <uci> [<reply>]`, meaningful when there is).
pub struct Ranked {
    /// Whether the position has at least this many legal moves.
    pub found: Value<kind::Bool>,
    /// The line, without its newline.
    pub line: Value<kind::Str>,
}

/// Ranks the root moves of [`Chosen::entries`] (on the single thread left after the
/// search, with no [`report::TALLY`] in the state: after [`report::decimal`]): `k`
/// rounds, each a fork over the entries and a tournament on their keys, the keys of
/// the moves already ranked (no smaller than the last winner's) lowered below every
/// other. The order is the search's: by score, ties to the smallest UCI text. With
/// `flagged`, each key starts with [`move_key`]'s `searchmoves` digit: the moves it
/// excludes rank below every other and are never found.
#[track_caller]
pub fn rank(
    b: &mut Builder,
    entries: &Value<kind::Str>,
    k: usize,
    mate_plies: u32,
    flagged: bool,
) -> Vec<Ranked> {
    let head = HEAD;
    let flag = usize::from(flagged);
    let digits = KEY_DIGITS + flag;
    let bits = SCORE_BITS + UCI_KEY_BITS + u8::from(flagged);
    let list: Value<kind::List<kind::Str>> = on_stack(
        b,
        "as_list",
        &[entries.var()],
        Vec::new(),
        Type::List(crate::compiler::ir::Scalar::Str),
    );
    let lowest = b.int(bits, -(1 << (digits - 1)));
    let zero = b.int(bits, 0);
    let mut last: Option<Value<kind::Int>> = None;
    let mut ranked = Vec::new();
    for i in 1..=k {
        let (entry, key, found) = b.grouped(|b| {
            let entry = b.fork_list(&list, MAX_MOVES);
            let key: Value<kind::Int> = on_stack(
                b,
                "entry_key",
                &[entry.var()],
                vec![(
                    format!("{head}([01]{{{digits}}})[^\n]*\n"),
                    "${1}${2}\n".to_string(),
                )],
                Type::Int { bits },
            );
            let (key, found) = match &last {
                None => (key, b.bool(true)),
                Some(last) => {
                    let fresh = b.lt(&key, last);
                    let key = b.if_else(&fresh, |_| key.clone(), |_| lowest.clone());
                    (key, fresh)
                }
            };
            // An excluded move's flag digit is 0: its key is below zero.
            let found = match flagged {
                true => {
                    let allowed = b.ge(&key, &zero);
                    b.and(&found, &allowed)
                }
                false => found,
            };
            b.keep_best(&key, MAX_MOVES, Best::Max);
            (entry, key, found)
        });
        let score: Value<kind::Int> = on_stack(
            b,
            "entry_score",
            &[entry.var()],
            vec![(
                format!("{head}[01]{{{flag}}}([01]{{{SCORE_BITS}}})[^\n]*\n"),
                "${1}${2}\n".to_string(),
            )],
            Type::Int { bits: SCORE_BITS },
        );
        let pv: Value<kind::Str> = on_stack(
            b,
            "entry_pv",
            &[entry.var()],
            vec![(
                format!("{head}[01]{{{digits}}}([^\n]*)\n"),
                "${1}${2}\n".to_string(),
            )],
            Type::Str,
        );
        let score = report::score_text(b, &score, mate_plies);
        let mut line = b.str(&format!("multipv {i} score "));
        for part in [score, b.str(" pv "), pv] {
            line = b.concat(&line, &part);
        }
        ranked.push(Ranked { found, line });
        last = Some(key);
    }
    ranked
}

/// The status of the position in the thread: `checkmate`, `stalemate`, `fifty-move`,
/// `insufficient-material` or `ongoing`. `no_move` says the side to move has no legal
/// move (known from the search).
#[track_caller]
pub fn status(b: &mut Builder, pos: &Position, no_move: &Value<kind::Bool>) -> Value<kind::Str> {
    b.if_else(
        no_move,
        |b| {
            let check = in_check(b, pos);
            let mate = b.str("checkmate");
            let stale = b.str("stalemate");
            b.if_else(&check, |_| mate.clone(), |_| stale.clone())
        },
        |b| {
            let fifty = clock_at_least_100(b, &pos.halfmove);
            b.if_else(
                &fifty,
                |b| b.str("fifty-move"),
                |b| {
                    let dead = insufficient_material(b, &pos.board);
                    b.if_else(
                        &dead,
                        |b| b.str("insufficient-material"),
                        |b| b.str("ongoing"),
                    )
                },
            )
        },
    )
}

/// Replaces the whole state by `text` (on top of the single thread's stack), with each
/// `;` turned into a newline: the last rules of a program whose output is plain text.
#[track_caller]
pub fn emit_text(b: &mut Builder, text: &Value<kind::Str>) {
    b.emit(Instruction::Lookup(text.var().clone()));
    b.rules(
        "output_text",
        vec![
            (
                "%%\n#stack:\n([^\n]*)\n[^%]*".to_string(),
                "${1}".to_string(),
            ),
            (";".to_string(), "\n".to_string()),
        ],
        &[],
        &[],
    );
}

/// The `move` program (see the contract in `src/chess/mod.rs`): the 2-ply search.
pub fn move_program() -> IrProgram {
    search_program(
        "move",
        "A FEN and a newline in; `move <uci>\\nfen <fen>\\nstatus <status>\\n` and the \
         search's `score`, `depth`, `nodes` and `pv` lines out (or `status \
         checkmate|stalemate\\n` when the side to move has no move): the 2-ply minimax over \
         legal moves with material and piece-square tables.",
        SearchOptions {
            quiescence: false,
            endgame: false,
            report: true,
            multipv: 0,
            third_ply: false,
        },
    )
}

/// The `move-q` program: the `move` contract, with the capture search below the leaves.
pub fn move_q_program() -> IrProgram {
    search_program(
        "move-q",
        "The `move` program's contract; the 2-ply minimax with a capture search (captures \
         and promotions of the side to move, or standing pat) below each leaf.",
        SearchOptions {
            quiescence: true,
            endgame: false,
            report: true,
            multipv: 0,
            third_ply: false,
        },
    )
}

/// The `move-qe` program: the `move-q` search with the endgame term at its leaves.
pub fn move_qe_program() -> IrProgram {
    search_program(
        "move-qe",
        "The `move` program's contract; the 2-ply minimax with a capture search below each \
         leaf and, against a lone king, a term driving it to the edge and the own king \
         close.",
        SearchOptions {
            quiescence: true,
            endgame: true,
            report: true,
            multipv: 0,
            third_ply: false,
        },
    )
}

/// The `move-3qe` program: the `move` contract, the `3ply-qe` search.
pub fn move_3qe_program() -> IrProgram {
    search_program(
        "move-3qe",
        "The `move` program's contract; the 2-ply minimax, then, after a capturing reply, \
         a third ply of the engine's captures and promotions (or standing pat), each \
         answered by the opponent's best capture (or standing pat), with the endgame term \
         at the leaves.",
        SearchOptions {
            quiescence: true,
            endgame: true,
            report: true,
            multipv: 0,
            third_ply: true,
        },
    )
}

/// The most root moves the `-mpv` programs rank.
pub const MULTIPV_MAX: usize = 5;

/// The `-mpv` program of a search: `base`'s contract (`move`, `move-q` or `move-qe`) and
/// its root moves ranked, the best [`MULTIPV_MAX`] written as `multipv` lines.
pub fn multipv_program(base: &str) -> IrProgram {
    let (quiescence, endgame, third_ply) = match base {
        "move" => (false, false, false),
        "move-q" => (true, false, false),
        "move-qe" => (true, true, false),
        "move-3qe" => (true, true, true),
        other => panic!("no search program `{other}`"),
    };
    search_program(
        &format!("{base}-mpv"),
        &format!(
            "The `{base}` program's contract and its best {MULTIPV_MAX} root moves, ranked, \
             as `multipv <rank> score <score> pv <uci> [<reply>]` lines."
        ),
        SearchOptions {
            quiescence,
            endgame,
            report: true,
            multipv: MULTIPV_MAX,
            third_ply,
        },
    )
}

/// `move-mpv`: [`multipv_program`] of `move`.
pub fn move_mpv_program() -> IrProgram {
    multipv_program("move")
}

/// `move-q-mpv`: [`multipv_program`] of `move-q`.
pub fn move_q_mpv_program() -> IrProgram {
    multipv_program("move-q")
}

/// `move-qe-mpv`: [`multipv_program`] of `move-qe`.
pub fn move_qe_mpv_program() -> IrProgram {
    multipv_program("move-qe")
}

/// `move-3qe-mpv`: [`multipv_program`] of `move-3qe`.
pub fn move_3qe_mpv_program() -> IrProgram {
    multipv_program("move-3qe")
}

/// A program with the `move` contract running [`search_with`] with `options` (which
/// must report).
fn search_program(name: &str, description: &str, options: SearchOptions) -> IrProgram {
    let depth = if options.third_ply { 3 } else { 2 };
    let mut b = Builder::new(name, description);
    history::protect(&mut b);
    let pos = parse_fen(&mut b);
    let extras = history::parse(&mut b);
    let chosen = search_with(&mut b, &pos, options, Some(&extras));
    let text = b.if_else(
        &chosen.moved,
        |b| {
            let fen = to_fen(b, &pos);
            let st = status(b, &pos, &chosen.no_reply);
            let nodes = chosen.nodes.as_ref().expect("a reporting search");
            let nodes = report::decimal(b, nodes);
            // The 3-ply searches score a mate MATE less the plies before the mating one
            // (see `report::score_text`); the 2-ply searches score every mate at MATE.
            let mate_plies = if options.third_ply { 3 } else { 1 };
            let ranked = match &chosen.entries {
                // The search programs read `searchmoves`: their keys carry its digit.
                Some(entries) => rank(b, entries, options.multipv, mate_plies, true),
                None => Vec::new(),
            };
            let score = report::score_text(b, &chosen.score, mate_plies);
            let reply = chosen.reply.as_ref().expect("a reporting search");
            let pv_tail = pv_word(b, reply);
            let pv_tail = match &chosen.third {
                Some(third) => {
                    let tail = pv_word(b, third);
                    b.concat(&pv_tail, &tail)
                }
                None => pv_tail,
            };
            let mut text = b.str("move ");
            for part in [
                chosen.uci.clone(),
                b.str(";fen "),
                fen,
                b.str(";status "),
                st,
                b.str(";score "),
                score,
                b.str(&format!(";depth {depth};nodes ")),
                nodes,
                b.str(";pv "),
                chosen.uci.clone(),
                pv_tail,
                b.str(";"),
            ] {
                text = b.concat(&text, &part);
            }
            for Ranked { found, line } in &ranked {
                let part = b.if_else(
                    found,
                    |b| {
                        let end = b.str(";");
                        b.concat(line, &end)
                    },
                    |b| b.str(""),
                );
                text = b.concat(&text, &part);
            }
            text
        },
        |b| {
            let t = b.bool(true);
            let st = status(b, &pos, &t);
            let prefix = b.str("status ");
            let text = b.concat(&prefix, &st);
            let end = b.str(";");
            b.concat(&text, &end)
        },
    );
    emit_text(&mut b, &text);
    b.finish()
}

/// ` <uci>`, or nothing when `uci` is empty: a word of the `pv` line.
#[track_caller]
fn pv_word(b: &mut Builder, uci: &Value<kind::Str>) -> Value<kind::Str> {
    let none = b.eq_text(uci, "");
    b.if_else(
        &none,
        |b| b.str(""),
        |b| {
            let space = b.str(" ");
            b.concat(&space, uci)
        },
    )
}
