//! Moves in UCI coordinate notation (`e2e4`, `e7e8q`, castling as the king's two-square
//! move `e1g1`): parsing and printing only.
//!
//! Whether a move is legal is never decided here; the rules decide that.

use std::fmt;
use std::str::FromStr;

use super::{Role, Square};

/// A move as UCI writes it: from, to, and the promotion piece if any.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct UciMove {
    /// The square the piece leaves.
    pub from: Square,
    /// The square it lands on.
    pub to: Square,
    /// The piece a pawn promotes to: knight, bishop, rook or queen.
    pub promotion: Option<Role>,
}

/// A text that is not a UCI move.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("`{0}` is not a move in coordinate notation (like e2e4, or e7e8q for a promotion)")]
pub struct UciError(pub String);

impl FromStr for UciMove {
    type Err = UciError;

    fn from_str(text: &str) -> Result<UciMove, UciError> {
        let bad = || UciError(text.to_string());
        if !text.is_ascii() || !(4..=5).contains(&text.len()) {
            return Err(bad());
        }
        let from: Square = text[0..2].parse().map_err(|()| bad())?;
        let to: Square = text[2..4].parse().map_err(|()| bad())?;
        let promotion = match text.as_bytes().get(4) {
            None => None,
            Some(b'n') => Some(Role::Knight),
            Some(b'b') => Some(Role::Bishop),
            Some(b'r') => Some(Role::Rook),
            Some(b'q') => Some(Role::Queen),
            Some(_) => return Err(bad()),
        };
        if from == to {
            return Err(bad());
        }
        Ok(UciMove {
            from,
            to,
            promotion,
        })
    }
}

impl fmt::Display for UciMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.from, self.to)?;
        if let Some(role) = self.promotion {
            write!(f, "{}", role.lower())?;
        }
        Ok(())
    }
}

impl PartialOrd for UciMove {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for UciMove {
    /// The byte order of the UCI texts (the engine's tie-break order).
    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        self.to_string().cmp(&other.to_string())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_and_prints() {
        for text in ["e2e4", "e7e8q", "a2a1n", "h7g8b", "b2b1r", "e1g1", "a1h8"] {
            assert_eq!(text.parse::<UciMove>().unwrap().to_string(), text);
        }
        let m: UciMove = "e7e8q".parse().unwrap();
        assert_eq!(m.promotion, Some(Role::Queen));
        assert_eq!(m.from.to_string(), "e7");
    }

    #[test]
    fn refuses_other_texts() {
        for text in [
            "", "e2", "e2e", "e2e9", "i2e4", "e7e8k", "e7e8p", "e7e8Q", "e2e4 ", "e2e2", "0000",
            "e2-e4", "é2e4",
        ] {
            assert_eq!(
                text.parse::<UciMove>(),
                Err(UciError(text.to_string())),
                "{text:?}"
            );
        }
    }

    #[test]
    fn orders_by_text() {
        let mut moves: Vec<UciMove> = ["h2h3", "a7a8q", "a7a8b", "b1c3", "a7a8"]
            .iter()
            .map(|t| t.parse().unwrap())
            .collect();
        moves.sort();
        let texts: Vec<String> = moves.iter().map(|m| m.to_string()).collect();
        assert_eq!(texts, ["a7a8", "a7a8b", "a7a8q", "b1c3", "h2h3"]);
    }
}
