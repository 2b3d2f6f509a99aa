//! Lines typed at the `play` prompt from random bytes, and the judge of the board that
//! comes back: the game is kept whatever is typed.
//!
//! The prompt (`src/cli/play.rs`) hands the rules each typed line trimmed and clipped
//! ([`clip`], written here from the command's documented contract); a line that is not
//! UTF-8 never reaches the rules (the command says so and shows the same board). After
//! every line the judge ([`Judge::after`]) checks, with shakmaty:
//! - the rules drew a board (the text starts with rank 8);
//! - the position shown is the one before the line (a message says why: a typo, an
//!   illegal move, `help`), or the one after a legal move of the player and, unless that
//!   ended the game, a legal reply of the engine;
//! - a line that is exactly a legal move in the engine's notation (`e2e4`, `e7e8q`) is
//!   played, never refused;
//! - the game ends exactly when shakmaty's verdict says so, with its message.

use shakmaty::{CastlingMode, Chess, EnPassantMode, Position};

use super::{Bytes, NOISE};

use super::judge::{fen, legal_uci as legal, verdict};
use crate::play_text;

/// The longest typed line the rules read as it is (`src/cli/play.rs`, `MAX_TYPED`).
pub const MAX_TYPED: usize = 24;

/// The typed line as the prompt hands it to the rules: trimmed, and clipped to
/// [`MAX_TYPED`] chars with `...` after them when longer.
pub fn clip(line: &str) -> String {
    let line = line.trim();
    match line.char_indices().nth(MAX_TYPED) {
        None => line.to_string(),
        Some((end, _)) => format!("{}...", &line[..end]),
    }
}

/// One typed line (its bytes, without the newline): a legal move in coordinates or in
/// SAN, a near miss, a command of the prompt, noise, a long line or raw bytes.
pub fn line(bytes: &mut Bytes<'_>, pos: &Chess) -> Vec<u8> {
    let moves = pos.legal_moves();
    let text = match bytes.below(12) {
        0..=3 if !moves.is_empty() => {
            let m = moves[bytes.below(moves.len())];
            let text = m.to_uci(CastlingMode::Standard).to_string();
            match bytes.below(4) {
                0 => text.to_uppercase(),
                1 => format!("  {text}\t"),
                _ => text,
            }
        }
        4 | 5 if !moves.is_empty() => {
            let m = moves[bytes.below(moves.len())];
            let san = shakmaty::san::SanPlus::from_move(pos.clone(), m).to_string();
            match bytes.below(3) {
                0 => san.replace("O-O", "0-0"),
                1 => san.trim_end_matches(['+', '#']).to_string(),
                _ => san,
            }
        }
        6 => [
            "help", "", "go", "e2e5", "Nf9", "O-O-O", "e7e8", "exd6", "Kxe1", "resign",
        ][bytes.below(10)]
        .to_string(),
        7 | 8 => {
            let mut text = String::new();
            for _ in 0..1 + bytes.below(4) {
                text.push_str(NOISE[bytes.below(NOISE.len())]);
            }
            text
        }
        9 => NOISE[bytes.below(NOISE.len())].repeat(1 + bytes.below(40_000)),
        _ => {
            let mut raw = bytes.raw(40);
            raw.retain(|b| *b != b'\n');
            return raw;
        }
    };
    text.replace('\n', " ").into_bytes()
}

/// Follows a game at the prompt; see the module doc.
pub struct Judge {
    pos: Chess,
    /// Repetition keys since the last irreversible move (shakmaty's, FIDE's rule).
    keys: Vec<shakmaty::zobrist::Zobrist128>,
}

/// shakmaty's key of a position for repetition.
fn key(pos: &Chess) -> shakmaty::zobrist::Zobrist128 {
    pos.zobrist_hash(EnPassantMode::Legal)
}

impl Judge {
    /// A judge of the game whose first board `text` shows.
    pub fn new(text: &str) -> Result<Judge, String> {
        let shown = play_text::shown_fen(text);
        let fen: shakmaty::fen::Fen = shown
            .parse()
            .map_err(|e| format!("the first board shows {shown:?}: {e}"))?;
        let pos: Chess = fen
            .into_position(CastlingMode::Standard)
            .map_err(|e| format!("the first board shows {shown:?}: {e}"))?;
        Ok(Judge {
            keys: vec![key(&pos)],
            pos,
        })
    }

    /// The position of the game.
    pub fn position(&self) -> &Chess {
        &self.pos
    }

    /// Plays `m` and returns the verdict after it.
    fn play(&mut self, m: shakmaty::Move) -> String {
        self.pos.play_unchecked(m);
        if self.pos.halfmoves() == 0 {
            self.keys.clear();
        }
        let k = key(&self.pos);
        let seen = self.keys.iter().filter(|x| **x == k).count();
        self.keys.push(k);
        verdict(&self.pos, seen >= 2)
    }

    /// Judges `text`, the board the rules drew after the player typed `typed` (as the
    /// rules read it, [`clip`]ped); on success the judge follows the game.
    pub fn after(&mut self, typed: &str, text: &str) -> Result<(), String> {
        if !text.starts_with("8 ") {
            return Err(format!("after {typed:?} the rules drew no board: {text:?}"));
        }
        let shown = play_text::shown_fen(text);
        let over = text.ends_with("Game over.\n");
        let message = play_text::message(text).to_string();
        if shown == fen(&self.pos) {
            // Nothing played: a typed line that is a legal move must not be refused.
            if legal(&self.pos).iter().any(|m| m == typed) {
                return Err(format!("the legal move {typed} was refused: {message:?}"));
            }
            return match over {
                false => Ok(()),
                true => Err(format!(
                    "after {typed:?} the game ended unchanged: {message:?}"
                )),
            };
        }
        // A move of the player, then maybe the engine's.
        let player = self
            .pos
            .legal_moves()
            .into_iter()
            .find(|m| {
                let mut next = self.pos.clone();
                next.play_unchecked(*m);
                fen(&next) == shown
                    || next.legal_moves().iter().any(|r| {
                        let mut after = next.clone();
                        after.play_unchecked(*r);
                        fen(&after) == shown
                    })
            })
            .ok_or_else(|| {
                format!(
                    "after {typed:?} the board shows {shown}, no legal move and reply from {}",
                    fen(&self.pos)
                )
            })?;
        let typed_move = legal(&self.pos).into_iter().find(|m| m == typed);
        if let Some(m) = typed_move
            && m != player.to_uci(CastlingMode::Standard).to_string()
        {
            return Err(format!("typed {m}, the rules played another move: {shown}"));
        }
        let mut end = self.play(player);
        if end.is_empty() && fen(&self.pos) != shown {
            let reply = self
                .pos
                .legal_moves()
                .into_iter()
                .find(|r| {
                    let mut after = self.pos.clone();
                    after.play_unchecked(*r);
                    fen(&after) == shown
                })
                .ok_or_else(|| format!("after {typed:?} no legal reply shows {shown}"))?;
            end = self.play(reply);
        }
        if fen(&self.pos) != shown {
            return Err(format!(
                "after {typed:?} the board shows {shown}, the game {}",
                fen(&self.pos)
            ));
        }
        let said = message.split(". ").last().unwrap_or("");
        match (over, end.is_empty()) {
            (false, true) => Ok(()),
            (true, false) if message == end || said == end => Ok(()),
            _ => Err(format!(
                "after {typed:?} ({shown}) the rules say {message:?} (over: {over}), shakmaty {end:?}"
            )),
        }
    }
}
