//! Pathology counters: plain blunders a 2-ply engine should never make, judged by
//! shakmaty on the engine's moves.
//!
//! Material here counts pawns 1, knights and bishops 3, rooks 5, queens 9.
//!
//! - **Drawn while ahead**: a game drawn by threefold repetition, the fifty-move rule or
//!   stalemate in whose final position the engine's material exceeds the opponent's by
//!   5 or more.
//! - **Queen left en prise**: an engine move after which some queen of the engine's
//!   *hangs*, when the engine had a legal move after which none did. A queen on `q`
//!   hangs when the opponent has a legal move capturing it such that, in the position
//!   after that capture, the engine has no legal capture on `q` (no recapture). A move
//!   that itself captures a queen is not counted (an exchange of queens is not a gift),
//!   nor is a promotion (a new queen lost at once costs only the pawn).
//!   Only the immediate recapture counts: a queen "hanging" into a mate or a fork the
//!   engine saw deeper is still counted, which at depth 2 is rare.
//! - **Missed mate in one**: an engine move that does not checkmate, when some legal move
//!   did.

use shakmaty::{Chess, Color, Move, Position, Role};

use super::outcome::Termination;
use super::players::pawns;

/// Counts of pathologies, over a game or a match.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Pathologies {
    /// Games drawn while 5 pawns of material ahead.
    pub drawn_while_ahead: u32,
    /// Moves leaving the engine's queen en prise when that could be avoided.
    pub queen_en_prise: u32,
    /// Mates in one not played.
    pub missed_mates: u32,
}

impl Pathologies {
    /// Adds `other`'s counts.
    pub fn add(&mut self, other: &Pathologies) {
        self.drawn_while_ahead += other.drawn_while_ahead;
        self.queen_en_prise += other.queen_en_prise;
        self.missed_mates += other.missed_mates;
    }
}

/// The material of `side` in pawns.
pub fn material(pos: &Chess, side: Color) -> i32 {
    let m = pos.board().material_side(side);
    i32::from(m.pawn) * pawns(Role::Pawn)
        + i32::from(m.knight) * pawns(Role::Knight)
        + i32::from(m.bishop) * pawns(Role::Bishop)
        + i32::from(m.rook) * pawns(Role::Rook)
        + i32::from(m.queen) * pawns(Role::Queen)
}

/// True when a game ending in `pos` by `termination` was drawn by repetition, fifty
/// moves or stalemate while `engine` had at least 5 pawns more material.
pub fn drawn_while_ahead(pos: &Chess, engine: Color, termination: &Termination) -> bool {
    matches!(
        termination,
        Termination::Repetition | Termination::FiftyMoves | Termination::Stalemate
    ) && material(pos, engine) - material(pos, !engine) >= 5
}

/// A move as a reader finds it in the game: `12. Qd5` or `12... Qd5`.
pub fn move_label(pos: &Chess, m: &Move) -> String {
    let number = pos.fullmoves().get();
    let dots = if pos.turn().is_white() { "." } else { "..." };
    format!(
        "{number}{dots} {}",
        shakmaty::san::SanPlus::from_move(pos.clone(), *m)
    )
}

fn after(pos: &Chess, m: &Move) -> Chess {
    let mut next = pos.clone();
    next.play_unchecked(*m);
    next
}

/// True when, in `pos` (the opponent to move), a queen of `side` hangs: the opponent can
/// capture it and `side` cannot recapture on its square.
pub fn queen_hangs(pos: &Chess, side: Color) -> bool {
    pos.legal_moves().iter().any(|capture| {
        capture.capture() == Some(Role::Queen) && {
            let square = capture.to();
            let replied = after(pos, capture);
            debug_assert_eq!(replied.turn(), side);
            !replied
                .legal_moves()
                .iter()
                .any(|m| m.to() == square && m.is_capture())
        }
    })
}

/// The pathologies of the engine's move `played` in `pos` (the engine to move).
pub fn judge_move(pos: &Chess, played: &Move) -> Pathologies {
    let side = pos.turn();
    let moves = pos.legal_moves();
    let played_after = after(pos, played);
    let mut found = Pathologies::default();
    if !played_after.is_checkmate() && moves.iter().any(|m| after(pos, m).is_checkmate()) {
        found.missed_mates = 1;
    }
    if played.capture() != Some(Role::Queen)
        && played.promotion().is_none()
        && queen_hangs(&played_after, side)
        && moves.iter().any(|m| !queen_hangs(&after(pos, m), side))
    {
        found.queen_en_prise = 1;
    }
    found
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::matchplay::game::{legal_move, parse_position};

    fn judge(fen: &str, uci: &str) -> Pathologies {
        let pos = parse_position(fen).unwrap();
        let m = legal_move(&pos, uci).unwrap_or_else(|| panic!("{uci} illegal in {fen}"));
        judge_move(&pos, &m)
    }

    #[test]
    fn missed_mate_in_one() {
        // Back-rank mate: Ra8# is there.
        let fen = "6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1";
        assert_eq!(judge(fen, "a1a8").missed_mates, 0);
        assert_eq!(judge(fen, "a1a7").missed_mates, 1);
        // No mate in the position: nothing missed.
        assert_eq!(
            judge("6k1/8/8/8/8/8/8/R5K1 w - - 0 1", "a1a7").missed_mates,
            0
        );
    }

    #[test]
    fn queen_en_prise() {
        // The queen steps to d5 where the e6 pawn takes it and nothing recaptures.
        let fen = "4k3/8/4p3/8/8/8/8/3QK3 w - - 0 1";
        assert_eq!(judge(fen, "d1d5").queen_en_prise, 1);
        assert_eq!(judge(fen, "d1d2").queen_en_prise, 0);
        // Defended by the rook on d1 after Qd5: exd5 Rxd5 recaptures, not counted.
        let fen = "4k3/8/4p3/8/8/8/8/3RK2Q w - - 0 1";
        assert_eq!(judge(fen, "h1d5").queen_en_prise, 0);
        // Taking the opponent's queen with ours is an exchange, not a gift.
        let fen = "4k3/8/4p3/3q4/8/8/8/3QK3 w - - 0 1";
        assert_eq!(judge(fen, "d1d5").queen_en_prise, 0);
        // Promoting into a capture costs the pawn, not a queen.
        let fen = "4r3/1rPR4/8/4b3/7p/P1k5/6PP/6K1 w - - 0 48";
        assert_eq!(judge(fen, "c7c8q").queen_en_prise, 0);
        // Unavoidable: in check from the b3 knight, white can only move the king, and
        // every king move leaves the h5 queen to the g6 pawn. Not counted.
        let fen = "4k3/8/6p1/7Q/8/1n6/8/K7 w - - 0 1";
        let pos = parse_position(fen).unwrap();
        assert!(
            pos.legal_moves()
                .iter()
                .all(|m| queen_hangs(&after(&pos, m), Color::White))
        );
        assert_eq!(judge(fen, "a1b2").queen_en_prise, 0);
    }

    #[test]
    fn drawn_while_ahead_counts_only_the_listed_draws() {
        // White has a queen and a rook more; stalemate.
        let pos = parse_position("7k/5Q2/6K1/8/8/8/8/R7 b - - 0 1").unwrap();
        assert!(drawn_while_ahead(
            &pos,
            Color::White,
            &Termination::Stalemate
        ));
        assert!(drawn_while_ahead(
            &pos,
            Color::White,
            &Termination::Repetition
        ));
        assert!(drawn_while_ahead(
            &pos,
            Color::White,
            &Termination::FiftyMoves
        ));
        assert!(!drawn_while_ahead(
            &pos,
            Color::White,
            &Termination::MoveCap
        ));
        assert!(!drawn_while_ahead(
            &pos,
            Color::Black,
            &Termination::Stalemate
        ));
        // Four pawns ahead is not enough.
        let pos = parse_position("7k/8/6K1/8/8/8/PPPP4/8 b - - 0 1").unwrap();
        assert_eq!(material(&pos, Color::White), 4);
        assert!(!drawn_while_ahead(
            &pos,
            Color::White,
            &Termination::Repetition
        ));
    }
}
