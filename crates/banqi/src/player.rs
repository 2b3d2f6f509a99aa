//! A player: anything that chooses a move from what the referee shows it (the game: the
//! positions, the moves and what each flip revealed, never the deal), under a budget.
//! The engine is one ([`EnginePlayer`]); the fixed opponents are in [`crate::opponents`].

use crate::eval::EvalConfig;
use crate::game::Game;
use crate::moves::Move;
use crate::search::{Engine, Limits, SearchConfig};

/// Something that plays moves.
pub trait Player: Send {
    /// A short name for tables.
    fn name(&self) -> String;

    /// A new game starts (forget the last one).
    fn new_game(&mut self) {}

    /// The move to play in `game` (not over), within `limits` (a player that has no use
    /// for a limit may ignore it). `None` only when it cannot answer.
    fn choose(&mut self, game: &Game, limits: Limits) -> Option<Move>;
}

/// The engine as a player.
pub struct EnginePlayer {
    engine: Engine,
}

impl EnginePlayer {
    /// The engine with these switches and draw rule, a table of 2^`tt_bits` entries.
    pub fn new(eval: EvalConfig, config: SearchConfig, tt_bits: u32) -> EnginePlayer {
        EnginePlayer {
            engine: Engine::new(eval, config, tt_bits),
        }
    }
}

impl Player for EnginePlayer {
    fn name(&self) -> String {
        "engine".into()
    }

    fn new_game(&mut self) {
        self.engine.new_game();
    }

    fn choose(&mut self, game: &Game, limits: Limits) -> Option<Move> {
        let keys = game.since_reset();
        let history = &keys[..keys.len().saturating_sub(1)];
        self.engine.config.no_progress = game.rules().no_progress;
        self.engine
            .search(game.position(), history, limits, &mut |_| {})
            .best
    }
}
