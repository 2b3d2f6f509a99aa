//! An independent implementation of the search defined in `crates/chess/src/lib.rs`, in plain
//! Rust on shakmaty, scoring with the oracle's own copy of the documented tables
//! ([`super::tables`]; nothing is imported from the engine).
//!
//! - A position's score for a side: the sum of [`tables::worth`] over that side's
//!   pieces minus the same over the other side's (black pieces read the board turned
//!   over).
//! - An engine move that leaves the opponent no legal reply scores `MATE` if the
//!   opponent is in check, else 0.
//! - Otherwise it scores the minimum over the opponent's legal replies of: `-MATE` if
//!   the reply leaves the engine checkmated, 0 if stalemated, else the score of the
//!   position after the reply from the engine's view.
//! - The best move has the highest score; ties go to the smallest UCI text.

use shakmaty::{Chess, Color, Position};

use super::judge;
use super::tables::{self, MATE};

/// The material-plus-table score of `pos` from `side`'s view.
pub fn score(pos: &Chess, side: Color) -> i32 {
    let mut total = 0;
    for (square, piece) in pos.board().iter() {
        let value = tables::worth(piece.role, piece.color, square);
        if piece.color == side {
            total += value;
        } else {
            total -= value;
        }
    }
    total
}

/// The 2-ply score of the position `after` an engine move, from the engine's view.
pub fn score_after_engine_move(after: &Chess, engine: Color) -> i32 {
    let replies = after.legal_moves();
    if replies.is_empty() {
        return if after.is_check() { MATE } else { 0 };
    }
    replies
        .iter()
        .map(|reply| {
            let mut next = after.clone();
            next.play_unchecked(*reply);
            if next.legal_moves().is_empty() {
                if next.is_check() { -MATE } else { 0 }
            } else {
                score(&next, engine)
            }
        })
        .min()
        .expect("at least one reply")
}

/// Every legal move of `pos` with its 2-ply score, sorted by UCI text.
pub fn scored_moves(pos: &Chess) -> Vec<(String, i32)> {
    let engine = pos.turn();
    let mut scored: Vec<(String, i32)> = pos
        .legal_moves()
        .iter()
        .map(|m| {
            let mut after = pos.clone();
            after.play_unchecked(*m);
            (judge::uci(m), score_after_engine_move(&after, engine))
        })
        .collect();
    scored.sort();
    scored
}

/// The move the search chooses and its score; `None` when there is no legal move.
pub fn best_move(pos: &Chess) -> Option<(String, i32)> {
    let mut best: Option<(String, i32)> = None;
    for (uci, value) in scored_moves(pos) {
        // Moves come in UCI order, so only a strictly better score replaces the best.
        if best.as_ref().is_none_or(|(_, b)| value > *b) {
            best = Some((uci, value));
        }
    }
    best
}
