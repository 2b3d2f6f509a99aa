//! The third, selective ply ([`super::SearchOptions::third_ply`]) below a reply that
//! captured (or, with [`super::SearchOptions::check`], that gave check): see the
//! contracts of the searches with a third ply in `crates/chess/src/lib.rs`.

use super::*;
use crate::board::MAX_MOVES;
use crate::board::{Children, MoveGen, Position};
use crate::endgame;
use crate::evaluate::{self, SCORE_BITS, Scoring};
use crate::movegen::{fork_legal_captures, fork_legal_moves, has_legal_move, in_check};
use crate::report;
use regex_chess_compiler::dsl::{Builder, Value, kind};
use regex_chess_compiler::ir::Instruction;

/// The third ply below a reply (the search with a third ply of `src/chess/mod.rs`), run in each
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
///
/// With [`SearchOptions::check`], `checked` tells a thread whose engine is in check (the
/// reply gave it): the copy forks into every legal move of the engine instead, and
/// standing pat scores below every evasion (it is never chosen while one exists); and a
/// third-ply move that gives check is answered by [`evasion_search`] instead of the
/// capture search.
#[track_caller]
#[allow(clippy::too_many_arguments)]
pub(super) fn third_ply(
    b: &mut Builder,
    pos: &Position,
    child: &Value<kind::Int>,
    g2: &Value<kind::Int>,
    options: SearchOptions,
    scoring: &Scoring,
    checked: Option<&Value<kind::Bool>>,
) -> (
    Value<kind::Int>,
    Option<Value<kind::Str>>,
    Option<Value<kind::Str>>,
) {
    let SearchOptions {
        quiescence,
        endgame,
        report,
        see,
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
        let e_white = endgame::term_white_with(b, &pos.board, scoring.tables);
        let white = b.eq_text(&pos.turn, "w");
        evaluate::for_side(b, &e_white, &white)
    };
    let (best, third, count) = b.grouped_to_one(|b| {
        let stands = b.fork_bool();
        let (key, (third, count)) = b.if_else(
            &stands,
            |b| {
                let can_move = has_legal_move(b, pos);
                let key = b.if_else(
                    &can_move,
                    |b| {
                        // Standing pat: the reply's score, and the term (engine to move).
                        let stand = |b: &mut Builder| {
                            if endgame {
                                term(b)
                            } else {
                                b.int(SCORE_BITS, 0)
                            }
                        };
                        match checked {
                            // In check: below the lowest evasion, -(MATE - 3 plies).
                            Some(checked) => b.if_else(checked, |b| relative(b, 1 - mate), stand),
                            None => stand(b),
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
                let generation = MoveGen {
                    uci: true,
                    keep_stuck: false,
                    taken: true,
                };
                let texts = |moves: Children| {
                    let uci = moves.uci.expect("asked for uci");
                    (uci, moves.taken.expect("asked for taken"))
                };
                let captures = |b: &mut Builder| texts(fork_legal_captures(b, pos, generation));
                let (third, taken) = match checked {
                    Some(checked) => b.if_else(
                        checked,
                        |b| texts(fork_legal_moves(b, pos, MAX_MOVES, generation)),
                        captures,
                    ),
                    None => captures(b),
                };
                let g = evaluate::gain(b, &taken, &third, false, scoring, false);
                let can_reply = has_legal_move(b, pos);
                let (key, count) = b.if_else(
                    &can_reply,
                    |b| {
                        let answered = |b: &mut Builder| {
                            // The opponent is to move: its view's term is subtracted.
                            let g = if endgame {
                                let e = term(b);
                                b.sub(&g, &e)
                            } else {
                                g.clone()
                            };
                            if quiescence {
                                let (best, captures) = capture_search(b, pos, report, see, scoring);
                                let key = b.sub(&g, &best);
                                let count = captures.map(|c| {
                                    let one = report::one(b);
                                    b.concat(&one, &c)
                                });
                                (key, count)
                            } else {
                                (g, report.then(|| report::one(b)))
                            }
                        };
                        if !options.check {
                            return answered(b);
                        }
                        // A check: every evasion, each scored as it stands.
                        let gives = in_check(b, pos);
                        b.if_else(
                            &gives,
                            |b| {
                                let (best, evasions) =
                                    evasion_search(b, pos, &g, &relative, options, scoring);
                                let key = b.sub(&g, &best);
                                let count = evasions.map(|c| {
                                    let one = report::one(b);
                                    b.concat(&one, &c)
                                });
                                (key, count)
                            },
                            answered,
                        )
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

/// The check extension's answer to a third-ply move that gives check, in each thread
/// holding the position after it (the opponent to move, with a legal move): every legal
/// move of the opponent, each scored from its view as its gain less the endgame term of
/// the position after it (the engine to move), or, when that leaves the engine no legal
/// move, as the key `g3 - relative(leaf)` demands for `leaf` = `-(MATE - 3 plies)` in
/// check (the engine mated on the fourth ply) or 0; the best of them (no standing pat:
/// the opponent must answer the check) and, with a report, the evasions counted. The
/// third move's key is then `g3 - best`.
#[track_caller]
fn evasion_search(
    b: &mut Builder,
    pos: &Position,
    g3: &Value<kind::Int>,
    relative: &dyn Fn(&mut Builder, i64) -> Value<kind::Int>,
    options: SearchOptions,
    scoring: &Scoring,
) -> (Value<kind::Int>, Option<Value<kind::Str>>) {
    let report = options.report;
    let mate = mate_units();
    b.grouped_to_one(|b| {
        let moves = fork_legal_moves(
            b,
            pos,
            MAX_MOVES,
            MoveGen {
                uci: true,
                keep_stuck: false,
                taken: true,
            },
        );
        let uci = moves.uci.expect("asked for uci");
        let taken = moves.taken.expect("asked for taken");
        let g4 = evaluate::gain(b, &taken, &uci, false, scoring, false);
        b.emit(Instruction::Delete(uci.var().clone()));
        let can_move = has_legal_move(b, pos);
        let value = b.if_else(
            &can_move,
            |b| {
                if options.endgame {
                    // The term from the engine's view (to move) is taken off.
                    let e_white = endgame::term_white_with(b, &pos.board, scoring.tables);
                    let white = b.eq_text(&pos.turn, "w");
                    let e = evaluate::for_side(b, &e_white, &white);
                    b.sub(&g4, &e)
                } else {
                    g4.clone()
                }
            },
            |b| {
                let check = in_check(b, pos);
                let leaf = b.if_else(&check, |b| relative(b, 3 - mate), |b| relative(b, 0));
                b.sub(g3, &leaf)
            },
        );
        let count = report.then(|| report::one(b));
        let count = keep_best_maybe_counting(b, &value, count);
        (value, count)
    })
}
