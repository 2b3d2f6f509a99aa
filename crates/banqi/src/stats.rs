//! A match's score and its Elo difference with a 95% interval (normal approximation over
//! the per-game results: wins 1, draws 1/2, losses 0).
//!
//! Kept small and local on purpose: the workspace's game-agnostic statistics (the arena
//! crate, when it lands) take its place; only [`Tally`] is used by the match.

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

fn elo_of(fraction: f64) -> f64 {
    let f = fraction.clamp(1e-6, 1.0 - 1e-6);
    -400.0 * (1.0 / f - 1.0).log10()
}

impl Tally {
    /// Games counted.
    pub fn games(&self) -> u32 {
        self.wins + self.draws + self.losses
    }

    /// The score as a fraction of the games (0.5 with no games).
    pub fn fraction(&self) -> f64 {
        let n = self.games();
        if n == 0 {
            return 0.5;
        }
        (f64::from(self.wins) + f64::from(self.draws) / 2.0) / f64::from(n)
    }

    /// The score's 95% interval as fractions.
    pub fn fraction_interval(&self) -> (f64, f64) {
        let n = f64::from(self.games().max(1));
        let s = self.fraction();
        let var = (f64::from(self.wins) * (1.0 - s).powi(2)
            + f64::from(self.draws) * (0.5 - s).powi(2)
            + f64::from(self.losses) * s.powi(2))
            / n;
        let half = 1.96 * (var / n).sqrt();
        ((s - half).max(0.0), (s + half).min(1.0))
    }

    /// The Elo difference the score implies (capped at about ±2400 for 0% and 100%).
    pub fn elo(&self) -> f64 {
        elo_of(self.fraction())
    }

    /// The Elo difference's 95% interval.
    pub fn elo_interval(&self) -> (f64, f64) {
        let (low, high) = self.fraction_interval();
        (elo_of(low), elo_of(high))
    }
}
