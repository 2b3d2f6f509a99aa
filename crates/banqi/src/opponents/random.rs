//! The random mover: a legal move uniformly at random, from a seeded generator.

use crate::game::Game;
use crate::moves::Move;
use crate::player::Player;
use crate::rng::Rng;
use crate::search::Limits;

/// Plays uniformly at random.
pub struct RandomMover {
    rng: Rng,
}

impl RandomMover {
    /// A random mover from `seed`.
    pub fn new(seed: u64) -> RandomMover {
        RandomMover {
            rng: Rng::new(seed),
        }
    }
}

impl Player for RandomMover {
    fn name(&self) -> String {
        "random".into()
    }

    fn choose(&mut self, game: &Game, _: Limits) -> Option<Move> {
        let moves = game.legal_moves();
        (!moves.is_empty()).then(|| moves[self.rng.below(moves.len())])
    }
}
