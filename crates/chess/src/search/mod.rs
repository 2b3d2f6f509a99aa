//! The search of `crates/chess/src/lib.rs` in rules, and the `move` program.
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
//! captured on its target square ([`evaluate::taken_on_target`]) and that leaves the
//! engine a move runs `capture_search` in a group of its own: the engine's captures and
//! promotions (`fork_legal_captures`), their gains, a tournament, and the best gain or
//! 0 (standing pat) taken off the leaf's key. With [`SearchOptions::endgame`] (the
//! `2ply-qe` variant), every leaf where the engine can move also adds the endgame term
//! of [`endgame`] (the leaf's board, from the engine's view) to its score. With
//! [`SearchOptions::third_ply`] (the selective third ply), `third_ply` replaces the leaf
//! below each reply that captured on its target square: a copy of the leaf stands pat,
//! another forks into the engine's captures and promotions, each with the opponent's
//! `capture_search` below it, and a tournament per reply keeps the best; the other
//! leaves (`quiet_reply_leaf`) stand pat. With [`SearchOptions::report`] every thread
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

mod boundary;
mod keys;
mod leaves;
mod ranking;
mod repetition;
mod third_ply;

use boundary::*;
use keys::*;
use leaves::*;
use ranking::root_entry;
pub use ranking::{MULTIPV_MAX, Ranked, rank};
use repetition::*;
use third_ply::*;

use crate::board::{MAX_MOVES, MoveGen, Position};
use crate::endgame;
use crate::evaluate::{self, SCORE_BITS, Scoring};
use crate::history::Extras;
use crate::movegen::{fork_legal_moves, has_legal_move, in_check};
use crate::report;
use crate::weights::{self, Tables};
use regex_chess_compiler::dsl::{Builder, Value, kind};
use regex_chess_compiler::ir::{Best, Instruction, Type};

const HEAD: &str = "(%%\n#stack:\n)";

/// MATE in the rules' units.
pub fn mate_units() -> i64 {
    evaluate::units(weights::MATE)
}

/// Which search [`search_with`] records.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SearchOptions {
    /// Below each leaf, the capture search of `crates/chess/src/lib.rs` (the side to move's
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
    /// Search a third, selective ply after each reply that captured (`third_ply`:
    /// standing pat or the engine's captures and promotions); the capture search and the
    /// endgame term then apply below it.
    pub third_ply: bool,
    /// Score with PeSTO's tapered tables ([`Tables::Tapered`]) at the root's phase
    /// bucket ([`evaluate::phase_bucket`]) instead of the simplified tables; the
    /// endgame term then cancels the tapered king's first set.
    pub tapered: bool,
    /// With `quiescence`: the capture search runs below every leaf where the engine can
    /// move, not only after a reply that captured on its target square; with
    /// `third_ply`, below every leaf after a reply that captured nothing (a capturing
    /// reply's leaf is the third ply's).
    pub everywhere: bool,
    /// With `quiescence`: the capture search discounts a capture or promotion whose
    /// target square the other side then attacks ([`crate::movegen::target_attacked`]) by the arriving
    /// piece's worth there ([`evaluate::gain`] with `recaptured`).
    pub see: bool,
    /// With `third_ply`: the check extension. A reply that gives check (not one that
    /// repeats the game) leads to the third ply over every legal move of the engine,
    /// without standing pat; a third-ply move that gives check is answered by every
    /// evasion, each scored as it stands (a fourth ply), without standing pat.
    pub check: bool,
}

impl SearchOptions {
    /// Every option off: the plain 2-ply minimax with the simplified tables, no report.
    /// Variants name what they turn on and take the rest from here.
    pub const PLAIN: SearchOptions = SearchOptions {
        quiescence: false,
        endgame: false,
        report: false,
        multipv: 0,
        third_ply: false,
        tapered: false,
        everywhere: false,
        see: false,
        check: false,
    };
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
    /// the key the move's 29 binary digits of `move_key`, the pv its UCI text then, when
    /// it has one, a space and the reply of [`Chosen::reply`] (see [`rank`]).
    pub entries: Option<Value<kind::Str>>,
    /// With [`SearchOptions::report`] and [`SearchOptions::third_ply`]: the engine's
    /// third-ply move the reply's score assumes (empty when there is none).
    pub third: Option<Value<kind::Str>>,
}

/// The 2-ply search on the position of the single active thread. Afterwards the thread
/// holds the position after the chosen move (or the root position when there is none).
#[track_caller]
pub fn search(b: &mut Builder, pos: &Position) -> Chosen {
    search_with(b, pos, SearchOptions::default(), None)
}

/// The 2-ply search, with the capture search below its leaves when
/// [`SearchOptions::quiescence`] is set (see `crates/chess/src/lib.rs`). Afterwards the thread
/// holds the position after the chosen move (or the root position when there is none).
/// With `extras` (see `history`), a child that repeats a history entry scores 0
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
        tapered,
        everywhere,
        see,
        check,
    } = options;
    assert!(
        !check || three,
        "the check extension is one of the third ply"
    );
    assert!(
        !everywhere || quiescence,
        "a capture search below every leaf needs the capture search"
    );
    assert!(
        multipv == 0 || report,
        "ranking the root moves needs their replies"
    );
    let white = b.eq_text(&pos.turn, "w");
    let scoring = match tapered {
        false => Scoring::simplified(),
        true => Scoring {
            tables: Tables::Tapered,
            bucket: Some(evaluate::phase_bucket(b, &pos.board)),
        },
    };
    let scoring = &scoring;
    let root_white = evaluate::full_score_white_with(b, &pos.board, scoring);
    let root = evaluate::for_side(b, &root_white, &white);
    let mate = mate_units();
    let (moved, uci, no_reply, score, (reply, third), count, entries) = b.grouped(|b| {
        let children = fork_legal_moves(
            b,
            pos,
            MAX_MOVES,
            MoveGen {
                uci: true,
                keep_stuck: true,
                taken: true,
            },
        );
        let uci = children.uci.expect("asked for uci");
        let moved = children.moved.expect("asked for keep_stuck");
        let taken = children.taken.expect("asked for taken");
        let (moved, (no_reply, (score, (((reply, third), count), allowed)))) = b.if_else(
            &moved,
            |b| {
                let g = evaluate::gain(b, &taken, &uci, false, scoring, false);
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
                                taken: true,
                            },
                        );
                        let reply = replies.uci.expect("asked for uci");
                        let replied = replies.moved.expect("asked for keep_stuck");
                        let taken = replies.taken.expect("asked for taken");
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
                                // Whether the reply took a piece on its target (the
                                // capture tests), read before the gain takes the
                                // letters; the gain is their last read, and `reply`'s
                                // when no report keeps it.
                                let took = (three || (quiescence && !everywhere))
                                    .then(|| evaluate::taken_on_target(b, &taken));
                                let g = evaluate::gain(b, &taken, &reply, !report, scoring, false);
                                if three {
                                    let took = took.clone().expect("read with a third ply");
                                    let repeats = near
                                        .as_ref()
                                        .zip(has_near.as_ref())
                                        .map(|(n, h)| leaf_repeats(b, pos, n, h));
                                    // With the check extension: a reply that gives check
                                    // and repeats nothing goes to the third ply too.
                                    let checked = check.then(|| in_check(b, pos));
                                    let deep = match &checked {
                                        Some(checked) => {
                                            let fresh = match &repeats {
                                                Some(r) => {
                                                    let not = b.not(r);
                                                    b.and(checked, &not)
                                                }
                                                None => checked.clone(),
                                            };
                                            b.or(&took, &fresh)
                                        }
                                        None => took,
                                    };
                                    return b.if_else(
                                        &deep,
                                        |b| {
                                            let (key, third, count) = third_ply(
                                                b,
                                                pos,
                                                &child,
                                                &g,
                                                options,
                                                scoring,
                                                checked.as_ref(),
                                            );
                                            (key, (third, count))
                                        },
                                        |b| {
                                            let quiet = |b: &mut Builder| {
                                                let (key, count) = quiet_reply_leaf(
                                                    b, pos, &child, &g, options, scoring,
                                                );
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
                                // Without the endgame term and the capture test, a leaf
                                // where the side to move can move is keyed by its gain:
                                // the gain then waits on the stack, under the test, and
                                // is the key as it is (see `leaf_on_stack`).
                                let plain = !endgame && !quiescence;
                                if plain {
                                    b.emit(Instruction::Take(g.var().clone()));
                                }
                                let can_move = has_legal_move(b, pos);
                                let scored = |b: &mut Builder| {
                                    // The endgame term e scores child - (g - e).
                                    let g = if endgame {
                                        let e_white =
                                            endgame::term_white_with(b, &pos.board, scoring.tables);
                                        let white = b.eq_text(&pos.turn, "w");
                                        let e = evaluate::for_side(b, &e_white, &white);
                                        b.sub(&g, &e)
                                    } else {
                                        g.clone()
                                    };
                                    // The leaf scores child - g + the best capture.
                                    let captures = |b: &mut Builder| {
                                        let (best, captures) =
                                            capture_search(b, pos, report, see, scoring);
                                        let key = b.sub(&g, &best);
                                        let count = captures.map(|c| {
                                            let one = report::one(b);
                                            b.concat(&one, &c)
                                        });
                                        (key, count)
                                    };
                                    if let Some(took) = &took {
                                        b.if_else(took, captures, |b| {
                                            (g.clone(), report.then(|| report::one(b)))
                                        })
                                    } else if everywhere {
                                        captures(b)
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
                                b.emit(Instruction::Delete(taken.var().clone()));
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
                b.emit(Instruction::Delete(taken.var().clone()));
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
