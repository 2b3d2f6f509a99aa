//! The greedy player: the capture of the most valuable piece (its own table: general 6,
//! advisor 5, elephant 4, cannon 4, chariot 3, horse 2, soldier 1), the least valuable
//! attacker on ties, then the first in square order; with no capture, a flip of a
//! face-down square chosen at random; with neither, a random move.

use crate::game::Game;
use crate::moves::Move;
use crate::piece::Kind;
use crate::player::Player;
use crate::rng::Rng;
use crate::search::Limits;

const WORTH: [i32; 7] = [6, 5, 4, 3, 2, 4, 1];

fn worth(kind: Kind) -> i32 {
    WORTH[kind.index()]
}

/// Captures greedily, else flips.
pub struct Greedy {
    rng: Rng,
}

impl Greedy {
    /// A greedy player whose random choices come from `seed`.
    pub fn new(seed: u64) -> Greedy {
        Greedy {
            rng: Rng::new(seed),
        }
    }
}

impl Player for Greedy {
    fn name(&self) -> String {
        "greedy".into()
    }

    fn choose(&mut self, game: &Game, _: Limits) -> Option<Move> {
        let position = game.position();
        let moves = game.legal_moves();
        let capture = moves
            .iter()
            .filter(|&&m| position.is_capture(m))
            .max_by_key(|&&m| {
                let victim = position.piece_at(m.to()).map_or(0, |p| worth(p.kind));
                let attacker = position.piece_at(m.from()).map_or(0, |p| worth(p.kind));
                (victim, -attacker, std::cmp::Reverse(m.code()))
            });
        if let Some(&m) = capture {
            return Some(m);
        }
        let flips: Vec<Move> = moves.iter().copied().filter(|m| m.is_flip()).collect();
        if !flips.is_empty() {
            return Some(flips[self.rng.below(flips.len())]);
        }
        (!moves.is_empty()).then(|| moves[self.rng.below(moves.len())])
    }
}
