//! shakmaty as the judge: positions, legal moves in UCI, FEN after a move, verdicts.
//!
//! UCI here is the engine's notation: castling is the king's two-square move (`e1g1`),
//! promotions carry a lower-case letter (`e7e8q`). FENs are written the standard way, with
//! the en passant square after every two-square pawn move
//! ([`EnPassantMode::Always`]), which is also what the engine's FEN-after must say.

use shakmaty::fen::Fen;
use shakmaty::{CastlingMode, Chess, EnPassantMode, Move, Position};

/// The position of a FEN; panics with the FEN when shakmaty refuses it.
pub fn position(fen: &str) -> Chess {
    let parsed: Fen = fen
        .parse()
        .unwrap_or_else(|e| panic!("oracle: cannot parse FEN {fen:?}: {e}"));
    parsed
        .into_position(CastlingMode::Standard)
        .unwrap_or_else(|e| panic!("oracle: not a legal position {fen:?}: {e}"))
}

/// The standard six-field FEN of a position.
pub fn fen(pos: &Chess) -> String {
    Fen::from_position(pos, EnPassantMode::Always).to_string()
}

/// A move in the engine's UCI notation.
pub fn uci(m: &Move) -> String {
    m.to_uci(CastlingMode::Standard).to_string()
}

/// The legal moves of a position as sorted UCI strings.
pub fn legal_uci(pos: &Chess) -> Vec<String> {
    let mut moves: Vec<String> = pos.legal_moves().iter().map(uci).collect();
    moves.sort();
    moves
}

/// The position after the legal move written `text`; panics when it is not legal.
pub fn play(pos: &Chess, text: &str) -> Chess {
    let m = pos
        .legal_moves()
        .into_iter()
        .find(|m| uci(m) == text)
        .unwrap_or_else(|| panic!("oracle: {text} is not legal in {}", fen(pos)));
    let mut next = pos.clone();
    next.play_unchecked(m);
    next
}

/// The statuses the contract allows for a position (the one after the engine's move),
/// in the words of the contract.
///
/// A side with no legal move is `checkmate` or `stalemate`, nothing else. Otherwise the
/// position is `ongoing` unless a draw applies: `fifty-move` when the halfmove clock has
/// reached 100, `insufficient-material` when shakmaty says neither side can mate. The
/// contract does not say which of the two wins when both apply, so both are allowed then.
pub fn allowed_statuses(pos: &Chess) -> Vec<&'static str> {
    if pos.legal_moves().is_empty() {
        return vec![if pos.is_check() {
            "checkmate"
        } else {
            "stalemate"
        }];
    }
    let mut draws = Vec::new();
    if pos.halfmoves() >= 100 {
        draws.push("fifty-move");
    }
    if pos.is_insufficient_material() {
        draws.push("insufficient-material");
    }
    if draws.is_empty() {
        draws.push("ongoing");
    }
    draws
}

/// The end of the game in `pos` as the `board` and `play` programs announce it ("" when
/// the game goes on), by shakmaty, with the rules' precedence: no move (checkmate or
/// stalemate), the fifty-move rule, insufficient material (shakmaty's reading of FIDE's
/// dead positions: `is_insufficient_material`), then a threefold repetition
/// (`repeated`, which the caller judges with shakmaty's hash of the position).
pub fn verdict(pos: &Chess, repeated: bool) -> String {
    if pos.legal_moves().is_empty() {
        if pos.is_check() {
            let winner = match pos.turn() {
                shakmaty::Color::White => "black",
                shakmaty::Color::Black => "white",
            };
            return format!("Checkmate: {winner} wins");
        }
        return "Draw by stalemate".into();
    }
    if pos.halfmoves() >= 100 {
        return "Draw by the fifty-move rule".into();
    }
    if pos.is_insufficient_material() {
        return "Draw by insufficient material".into();
    }
    if repeated {
        return "Draw by threefold repetition".into();
    }
    String::new()
}

/// What is special about a position's moves, for weighting and for coverage counts.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Features {
    /// The side to move is in check.
    pub in_check: bool,
    /// Some legal move gives check.
    pub can_check: bool,
    /// Some legal move promotes.
    pub can_promote: bool,
    /// Some legal move captures en passant.
    pub can_en_passant: bool,
    /// Some legal move castles.
    pub can_castle: bool,
    /// No legal move at all (mate or stalemate).
    pub terminal: bool,
}

impl Features {
    /// The features of `pos`.
    pub fn of(pos: &Chess) -> Features {
        let moves = pos.legal_moves();
        Features {
            in_check: pos.is_check(),
            can_check: moves.iter().any(|m| gives_check(pos, m)),
            can_promote: moves.iter().any(|m| m.is_promotion()),
            can_en_passant: moves.iter().any(|m| m.is_en_passant()),
            can_castle: moves.iter().any(|m| m.is_castle()),
            terminal: moves.is_empty(),
        }
    }

    /// True when anything is special.
    pub fn any(&self) -> bool {
        self.in_check
            || self.can_check
            || self.can_promote
            || self.can_en_passant
            || self.can_castle
            || self.terminal
    }
}

/// The position after the legal move `m`.
pub fn play_move(pos: &Chess, m: &Move) -> Chess {
    let mut next = pos.clone();
    next.play_unchecked(*m);
    next
}

/// True when `m` gives check in `pos`.
pub fn gives_check(pos: &Chess, m: &Move) -> bool {
    play_move(pos, m).is_check()
}
