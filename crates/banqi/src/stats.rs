//! A match's tally: wins, draws and losses of the engine. The Elo difference and its 95%
//! interval are the workspace's game-agnostic ones ([`regex_chess_arena::elo`]), so a
//! Banqi score means what a chess score means.

use regex_chess_arena::elo::EloEstimate;

/// Wins, draws and losses of one side.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Tally {
    /// Games won.
    pub wins: u32,
    /// Games drawn.
    pub draws: u32,
    /// Games lost.
    pub losses: u32,
}

impl Tally {
    /// Games counted.
    pub fn games(&self) -> u32 {
        self.wins + self.draws + self.losses
    }

    /// The score fraction, its Elo difference and their 95% intervals (`None` with no
    /// games).
    pub fn estimate(&self) -> Option<EloEstimate> {
        EloEstimate::from_results(self.wins, self.draws, self.losses)
    }
}
