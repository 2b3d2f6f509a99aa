//! One game: the players move in turn, shakmaty checks each move and adjudicates.
//!
//! # Adjudication
//!
//! After every move (and before the first), in this order:
//!
//! 1. the side to move has no legal move: checkmate (the other side wins) or stalemate
//!    (a draw);
//! 2. neither side can mate ([`Position::is_insufficient_material`]): a draw;
//! 3. the same position (pieces, side to move, castling rights, a legal en passant
//!    capture) has occurred three times in this game, counted from the opening
//!    position: a draw by threefold repetition;
//! 4. the halfmove clock has reached 100 (fifty moves each without a capture or a pawn
//!    move): a draw;
//! 5. the game has reached the move cap (plies played from the opening): a draw.
//!
//! A player who names an illegal move, no move, or fails to answer loses by forfeit.
//! Draws by repetition and by the fifty-move rule are applied at once, as if claimed.
//!
//! # What is kept of a move
//!
//! Besides the move, a [`MoveNote`]: the score and depth the mover reported, and the
//! time its `choose` took, by the clock and in CPU time of the thread that asked (the
//! engine's own work when it runs on one core; helper threads of the fast executor on
//! several cores are not counted).

use std::collections::HashMap;
use std::time::Instant;

use shakmaty::fen::Fen as SFen;
use shakmaty::zobrist::Zobrist64;
use shakmaty::{CastlingMode, Chess, Color, EnPassantMode, Move, Position};

use super::error::MatchError;
use super::outcome::{Outcome, Termination};
use super::pathology::{self, Pathologies};
use super::players::{Player, Turn, fen_of, uci_of};
use crate::reply::Score;

/// The CPU milliseconds of the calling thread so far; 0 on wasm32, which has no such
/// clock (matches are not played there).
fn thread_cpu_ms() -> f64 {
    #[cfg(not(target_arch = "wasm32"))]
    return crate::bench::cpu::thread_cpu_ms();
    #[cfg(target_arch = "wasm32")]
    0.0
}

/// The position key used for repetitions.
pub fn repetition_key(pos: &Chess) -> u64 {
    let key: Zobrist64 = pos.zobrist_hash(EnPassantMode::Legal);
    key.0
}

/// The verdict on `pos` if the game is over there (see the module docs); `seen` counts
/// the occurrences of each position key so far, including `pos`, and `plies` the moves
/// played from the opening.
pub fn adjudicate(
    pos: &Chess,
    seen: &HashMap<u64, u32>,
    plies: usize,
    max_plies: usize,
) -> Option<(Outcome, Termination)> {
    if pos.legal_moves().is_empty() {
        return Some(if pos.is_check() {
            (Outcome::Win(!pos.turn()), Termination::Checkmate)
        } else {
            (Outcome::Draw, Termination::Stalemate)
        });
    }
    if pos.is_insufficient_material() {
        return Some((Outcome::Draw, Termination::InsufficientMaterial));
    }
    if seen.get(&repetition_key(pos)).copied().unwrap_or(0) >= 3 {
        return Some((Outcome::Draw, Termination::Repetition));
    }
    if pos.halfmoves() >= 100 {
        return Some((Outcome::Draw, Termination::FiftyMoves));
    }
    if plies >= max_plies {
        return Some((Outcome::Draw, Termination::MoveCap));
    }
    None
}

/// What the mover said about a move, and what it cost.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct MoveNote {
    /// The mover's score of the move, from its own side, when it reported one.
    pub score: Option<Score>,
    /// The plies it searched, when it reported them.
    pub depth: Option<u32>,
    /// Milliseconds by the clock.
    pub wall_ms: f64,
    /// Milliseconds of CPU time of the asking thread.
    pub cpu_ms: f64,
    /// Whether the mover is the engine.
    pub by_engine: bool,
}

/// A finished game.
#[derive(Clone, Debug)]
pub struct GameRecord {
    /// The game's number in the match (from 0).
    pub number: usize,
    /// The opening's number in the openings file (from 0).
    pub opening: usize,
    /// The FEN the game started from.
    pub start_fen: String,
    /// White's name.
    pub white: String,
    /// Black's name.
    pub black: String,
    /// The side the engine played, if one side is the engine.
    pub engine: Option<Color>,
    /// The moves played.
    pub moves: Vec<Move>,
    /// What was said about each move, and its time (one for each of `moves`).
    pub notes: Vec<MoveNote>,
    /// The result.
    pub outcome: Outcome,
    /// Why the game ended.
    pub termination: Termination,
    /// The engine's pathologies in this game (all zero when no side is the engine).
    pub pathologies: Pathologies,
    /// Each pathology found, with the position and the move: `queen en prise: 12. Qd5
    /// (d1d5) in <FEN>`.
    pub pathology_events: Vec<String>,
    /// Moves after which the engine's FEN differed from shakmaty's, with both FENs.
    pub fen_mismatches: Vec<String>,
}

/// Plays one game from `start`; `engine` names the side that is the engine (whose
/// pathologies are counted and whose FENs are checked), if any.
pub fn play_game(
    number: usize,
    opening: usize,
    start: &Chess,
    white: &mut dyn Player,
    black: &mut dyn Player,
    engine: Option<Color>,
    max_plies: usize,
) -> GameRecord {
    let start_fen = fen_of(start);
    let mut record = GameRecord {
        number,
        opening,
        start_fen: start_fen.clone(),
        white: white.name(),
        black: black.name(),
        engine,
        moves: Vec::new(),
        notes: Vec::new(),
        outcome: Outcome::Draw,
        termination: Termination::MoveCap,
        pathologies: Pathologies::default(),
        pathology_events: Vec::new(),
        fen_mismatches: Vec::new(),
    };
    let forfeit = |color: Color, why: MatchError| {
        let name = if color == Color::White {
            "white"
        } else {
            "black"
        };
        (
            Outcome::Win(!color),
            Termination::Forfeit(format!("{name}: {why}")),
        )
    };
    let ready = white
        .new_game(number)
        .map_err(|why| (Color::White, why))
        .and_then(|()| black.new_game(number).map_err(|why| (Color::Black, why)));
    if let Err((color, why)) = ready {
        (record.outcome, record.termination) = forfeit(color, why);
        return record;
    }
    let mut pos = start.clone();
    let mut seen: HashMap<u64, u32> = HashMap::new();
    *seen.entry(repetition_key(&pos)).or_default() += 1;
    let mut history: Vec<String> = Vec::new();
    let mut earlier: Vec<String> = Vec::new();
    loop {
        if let Some((outcome, termination)) = adjudicate(&pos, &seen, history.len(), max_plies) {
            if outcome == Outcome::Draw
                && let Some(side) = engine
                && pathology::drawn_while_ahead(&pos, side, &termination)
            {
                record.pathologies.drawn_while_ahead += 1;
                record.pathology_events.push(format!(
                    "drawn while ahead ({}): {}",
                    termination.describe(),
                    fen_of(&pos)
                ));
            }
            record.outcome = outcome;
            record.termination = termination;
            return record;
        }
        let color = pos.turn();
        let player: &mut dyn Player = if color == Color::White {
            &mut *white
        } else {
            &mut *black
        };
        let turn = Turn {
            start_fen: &start_fen,
            moves: &history,
            pos: &pos,
            earlier: &earlier,
        };
        let (started, cpu_before) = (Instant::now(), thread_cpu_ms());
        let chosen = player.choose(&turn);
        let cpu_ms = thread_cpu_ms() - cpu_before;
        let wall_ms = started.elapsed().as_secs_f64() * 1e3;
        let choice = match chosen {
            Ok(choice) => choice,
            Err(why) => {
                (record.outcome, record.termination) = forfeit(color, why);
                return record;
            }
        };
        let Some(m) = legal_move(&pos, &choice.uci) else {
            let why = format!("illegal move `{}` in {}", choice.uci, fen_of(&pos));
            (record.outcome, record.termination) = forfeit(color, MatchError::Player(why));
            return record;
        };
        if engine == Some(color) {
            let found = pathology::judge_move(&pos, &m);
            for (count, kind) in [
                (found.queen_en_prise, "queen en prise"),
                (found.missed_mates, "missed mate in one"),
            ] {
                if count > 0 {
                    record.pathology_events.push(format!(
                        "{kind}: {} ({}) in {}",
                        pathology::move_label(&pos, &m),
                        choice.uci,
                        fen_of(&pos)
                    ));
                }
            }
            record.pathologies.add(&found);
        }
        let mut next = pos.clone();
        next.play_unchecked(m);
        if let Some(theirs) = choice.fen_after {
            let ours = fen_of(&next);
            if theirs != ours {
                record.fen_mismatches.push(format!(
                    "after {} from {}: said {theirs}, shakmaty {ours}",
                    choice.uci,
                    fen_of(&pos)
                ));
            }
        }
        earlier.push(fen_of(&pos));
        pos = next;
        *seen.entry(repetition_key(&pos)).or_default() += 1;
        history.push(choice.uci);
        record.moves.push(m);
        record.notes.push(MoveNote {
            score: choice.score,
            depth: choice.depth,
            wall_ms,
            cpu_ms,
            by_engine: engine == Some(color),
        });
    }
}

/// The legal move written `text` in UCI, if there is one.
pub fn legal_move(pos: &Chess, text: &str) -> Option<Move> {
    pos.legal_moves().into_iter().find(|m| uci_of(m) == text)
}

/// The position of a FEN, checked by shakmaty.
pub fn parse_position(fen: &str) -> Result<Chess, MatchError> {
    let parsed: SFen = fen.parse().map_err(|e| MatchError::BadFen {
        fen: fen.to_string(),
        message: format!("{e}"),
    })?;
    parsed
        .into_position(CastlingMode::Standard)
        .map_err(|e| MatchError::IllegalPosition {
            fen: fen.to_string(),
            message: format!("{e}"),
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn verdict(fen: &str) -> Option<(Outcome, Termination)> {
        let pos = parse_position(fen).unwrap();
        let mut seen = HashMap::new();
        seen.insert(repetition_key(&pos), 1);
        adjudicate(&pos, &seen, 0, 500)
    }

    #[test]
    fn verdicts() {
        assert_eq!(
            verdict("7k/6Q1/6K1/8/8/8/8/8 b - - 0 1"),
            Some((Outcome::Win(Color::White), Termination::Checkmate))
        );
        assert_eq!(
            verdict("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1"),
            Some((Outcome::Draw, Termination::Stalemate))
        );
        assert_eq!(
            verdict("7k/8/6K1/8/8/8/8/5B2 b - - 0 1"),
            Some((Outcome::Draw, Termination::InsufficientMaterial))
        );
        assert_eq!(
            verdict("7k/8/6K1/8/8/8/8/5R2 b - - 100 80"),
            Some((Outcome::Draw, Termination::FiftyMoves))
        );
        // Mate on the hundredth halfmove is mate.
        assert_eq!(
            verdict("7k/6Q1/6K1/8/8/8/8/8 b - - 100 80"),
            Some((Outcome::Win(Color::White), Termination::Checkmate))
        );
        assert_eq!(verdict("7k/8/6K1/8/8/8/8/5R2 b - - 99 80"), None);
        let pos = parse_position("7k/8/6K1/8/8/8/8/5R2 b - - 0 1").unwrap();
        let mut seen = HashMap::new();
        seen.insert(repetition_key(&pos), 3);
        assert_eq!(
            adjudicate(&pos, &seen, 10, 500),
            Some((Outcome::Draw, Termination::Repetition))
        );
        seen.insert(repetition_key(&pos), 2);
        assert_eq!(adjudicate(&pos, &seen, 10, 500), None);
        assert_eq!(
            adjudicate(&pos, &seen, 500, 500),
            Some((Outcome::Draw, Termination::MoveCap))
        );
    }
}
