//! The rules input of the search programs (the game's earlier positions and
//! `searchmoves`), written out again from "Rules input" in `crates/chess/src/lib.rs`, on top of
//! [`super::variants`]:
//!
//! - the history lines are the last `min(halfmove clock, 100)` earlier positions, most
//!   recent first; the 1st, 3rd, ... (at most 50) are compared with each child, the 2nd,
//!   4th, ... (at most 50) give each child its entries one reply away (at most 4);
//! - positions are equal under FIDE's rule of repetition, judged by shakmaty: equal
//!   hashes of the position with `EnPassantMode::Legal` (board, side to move, castling
//!   rights, and the en-passant square only where a capture is legal), so an entry where
//!   an en-passant capture is legal equals no searched position (those have no
//!   en-passant capture: their half-move clock is not 0); the engine's own reading of it
//!   (board, side and castling field, entries with a legal en-passant capture left out)
//!   is not copied here;
//! - an entry where an en-passant capture is legal is never one reply away;
//! - a child whose half-move clock is not 0 and that equals a compared entry scores
//!   `MATE` when it leaves the opponent checkmated, else 0, and its replies are not
//!   searched (nodes: the child only);
//! - a position after a reply, with the engine to move and a legal move, whose half-move
//!   clock (and the child's) is not 0 and that equals one of the child's entries one reply
//!   away scores 0 (nodes: 1, no capture search);
//! - `searchmoves`: the best listed legal move, or, when no listed move is legal, the best
//!   legal move.

use shakmaty::zobrist::Zobrist128;
use shakmaty::{Chess, Color, EnPassantMode, Position};

use super::deep;
use super::judge;
use super::tables;
use super::variants::{self, Searched, Spec};

/// What the search reads after the FEN.
#[derive(Clone, Debug, Default)]
pub struct Input {
    /// The positions before the one searched, oldest first.
    pub history: Vec<Chess>,
    /// The moves listed by `searchmoves` (UCI).
    pub searchmoves: Vec<String>,
}

/// A position as the history holds it: shakmaty's hash of it under FIDE's rule of
/// repetition (article 9.2.3: the same player to move, pieces on the same squares, the
/// same castling and en-passant rights; shakmaty's `EnPassantMode::Legal` counts the
/// en-passant square only when a capture is legal), which decides equality; and, for
/// [`one_reply_away`], its 64 squares (a8 first), side and castling field.
#[derive(Clone, Debug)]
struct Key {
    hash: Zobrist128,
    squares: Vec<char>,
    side: char,
    castling: String,
    /// An en-passant capture is legal: the entry is never one reply away.
    en_passant: bool,
}

impl PartialEq for Key {
    /// FIDE's rule, by shakmaty: equal hashes.
    fn eq(&self, other: &Key) -> bool {
        self.hash == other.hash
    }
}

/// The key of `pos`.
fn key(pos: &Chess) -> Key {
    let fen = judge::fen(pos);
    let fields: Vec<&str> = fen.split(' ').collect();
    let mut squares = Vec::new();
    for c in fields[0].chars() {
        match c.to_digit(10) {
            Some(n) => squares.extend(std::iter::repeat_n('.', n as usize)),
            None if c == '/' => {}
            None => squares.push(c),
        }
    }
    Key {
        hash: pos.zobrist_hash(EnPassantMode::Legal),
        squares,
        side: fields[1].chars().next().expect("a side"),
        castling: fields[2].to_string(),
        en_passant: pos.ep_square(EnPassantMode::Legal).is_some(),
    }
}

/// Whether `entry` is one reply away from `child`: the other side to move, the same
/// castling field, the boards equal but on two squares where one piece left one square
/// for the other (empty in the child); never an entry with a legal en-passant capture.
fn one_reply_away(child: &Key, entry: &Key) -> bool {
    if entry.en_passant || child.side == entry.side || child.castling != entry.castling {
        return false;
    }
    let (c, e) = (&child.squares, &entry.squares);
    let diff: Vec<usize> = (0..64).filter(|&i| c[i] != e[i]).collect();
    let [x, y] = diff[..] else {
        return false;
    };
    let moved = |from: usize, to: usize| {
        c[from] != '.' && e[from] == '.' && c[to] == '.' && e[to] == c[from]
    };
    moved(x, y) || moved(y, x)
}

/// The score and the nodes below a child `after` (the engine's move played), given the
/// entries one reply away from it: [`variants::after_move`] with repetitions.
fn after_move(spec: Spec, after: &Chess, engine: Color, near: &[Key]) -> (i32, u64) {
    let replies = after.legal_moves();
    if replies.is_empty() || near.is_empty() {
        return variants::after_move(spec, after, engine);
    }
    let mut nodes = 0;
    let mut best = i32::MAX;
    for reply in &replies {
        let next = judge::play_move(after, reply);
        let repeats =
            next.halfmoves() != 0 && !next.legal_moves().is_empty() && near.contains(&key(&next));
        let (value, below) = if repeats {
            (0, 0)
        } else if spec.depth == 3 {
            variants::after_reply3(spec, after, reply, engine)
        } else {
            variants::after_reply(spec, after, reply, engine)
        };
        nodes += 1 + below;
        best = best.min(value);
    }
    (best, nodes)
}

/// The variant's answer on `pos` with `input`; `None` when the side to move has no
/// legal move.
pub fn search(spec: Spec, pos: &Chess, input: &Input) -> Option<Searched> {
    let spec = spec.at(pos);
    let engine = pos.turn();
    let keep = (pos.halfmoves() as usize).min(100);
    let entries: Vec<Key> = input.history.iter().rev().take(keep).map(key).collect();
    let compared: Vec<&Key> = entries.iter().step_by(2).take(50).collect();
    let engine_side: Vec<&Key> = entries.iter().skip(1).step_by(2).take(50).collect();
    let legal: Vec<String> = judge::legal_uci(pos);
    let restricted = legal.iter().any(|m| input.searchmoves.contains(m));
    let mut scored = Vec::new();
    let mut nodes = 0;
    for m in &pos.legal_moves() {
        let child = judge::play_move(pos, m);
        let child_key = key(&child);
        let reversible = child.halfmoves() != 0;
        let (value, below) = if reversible && compared.contains(&&child_key) {
            let mated = child.legal_moves().is_empty() && child.is_check();
            (if mated { tables::MATE } else { 0 }, 0)
        } else {
            let near: Vec<Key> = if reversible {
                engine_side
                    .iter()
                    .filter(|e| one_reply_away(&child_key, e))
                    .take(4)
                    .map(|e| (*e).clone())
                    .collect()
            } else {
                Vec::new()
            };
            after_move(spec, &child, engine, &near)
        };
        nodes += 1 + below;
        scored.push((judge::uci(m), value));
    }
    let allowed = |uci: &str| !restricted || input.searchmoves.iter().any(|m| m == uci);
    Searched::choose(scored, nodes, allowed)
}

/// The deeper search of `d` on `pos` with `input`, under the same rules: a root move
/// that repeats a compared entry is scored as above (its replies unsearched), and a
/// position after a reply that equals one of its child's entries one reply away scores
/// 0; `None` when there is no legal move.
pub fn deep_search(d: &deep::Deep, pos: &Chess, input: &Input) -> Option<Searched> {
    with_root_moves(pos, input, |moves, near| {
        deep::search_moves(d, pos, moves, near)
    })
}

/// Calls `search` with the root moves of `pos` under `input` (a root move that repeats a
/// compared entry has its score fixed, `searchmoves` sets which are allowed) and the test
/// of root move `i`'s positions after a reply that equal one of its entries one reply
/// away: what a search needs to follow the rules input.
pub fn with_root_moves<T>(
    pos: &Chess,
    input: &Input,
    search: impl FnOnce(&[deep::RootMove], &dyn Fn(usize, &Chess) -> bool) -> T,
) -> T {
    let keep = (pos.halfmoves() as usize).min(100);
    let entries: Vec<Key> = input.history.iter().rev().take(keep).map(key).collect();
    let compared: Vec<&Key> = entries.iter().step_by(2).take(50).collect();
    let engine_side: Vec<&Key> = entries.iter().skip(1).step_by(2).take(50).collect();
    let legal: Vec<String> = judge::legal_uci(pos);
    let restricted = legal.iter().any(|m| input.searchmoves.contains(m));
    let mut moves = Vec::new();
    let mut nears: Vec<Vec<Key>> = Vec::new();
    for m in &pos.legal_moves() {
        let child = judge::play_move(pos, m);
        let child_key = key(&child);
        let reversible = child.halfmoves() != 0;
        let uci = judge::uci(m);
        let fixed = (reversible && compared.contains(&&child_key)).then(|| {
            let mated = child.legal_moves().is_empty() && child.is_check();
            if mated { tables::MATE } else { 0 }
        });
        let near: Vec<Key> = if reversible && fixed.is_none() {
            engine_side
                .iter()
                .filter(|e| one_reply_away(&child_key, e))
                .take(4)
                .map(|e| (*e).clone())
                .collect()
        } else {
            Vec::new()
        };
        nears.push(near);
        moves.push(deep::RootMove {
            allowed: !restricted || input.searchmoves.contains(&uci),
            uci,
            child,
            fixed,
        });
    }
    let near = |i: usize, next: &Chess| !nears[i].is_empty() && nears[i].contains(&key(next));
    search(&moves, &near)
}

/// The move an oracle search `search` plays at a match's `turn`, as a match player answers:
/// the game's earlier positions are its history, its move is judged into the FEN after it
/// by shakmaty. What the strength screen's and the search lab's players share.
pub fn played_move(
    turn: &regex_chess_engine::matchplay::players::Turn<'_>,
    search: impl FnOnce(&Chess, &Input) -> Option<String>,
) -> Result<
    regex_chess_engine::matchplay::players::PlayedMove,
    regex_chess_engine::matchplay::MatchError,
> {
    use regex_chess_engine::matchplay::MatchError;
    let history = turn
        .earlier
        .iter()
        .map(|f| regex_chess_engine::matchplay::game::parse_position(f))
        .collect::<Result<Vec<Chess>, MatchError>>()?;
    let input = Input {
        history,
        searchmoves: Vec::new(),
    };
    let uci = search(turn.pos, &input).ok_or(MatchError::NoLegalMove)?;
    let after = super::judge::play(turn.pos, &uci);
    Ok(regex_chess_engine::matchplay::players::PlayedMove {
        uci,
        fen_after: Some(super::judge::fen(&after)),
        ..Default::default()
    })
}
