//! A sequential probability ratio test of the engine against a fixed opponent: stop the
//! match as soon as the games say, with the error rates asked for, whether the engine is
//! at least `elo1` stronger than the opponent (H1) or at most `elo0` (H0).
//!
//! # The test
//!
//! The generalised SPRT on the trinomial (win, draw, loss) results with the logistic
//! Elo model, as fishtest, fastchess and cutechess-cli's users know it. Each hypothesis
//! is turned into an expected score, `s0 = E(elo0)` and `s1 = E(elo1)` with
//! `E(D) = 1 / (1 + 10^(-D/400)`. From `W` wins, `D` draws and `L` losses in `N` games,
//! the score `s = (W + D/2) / N` and the per-game variance
//! `var = (W (1-s)^2 + D (1/2-s)^2 + L s^2) / N` give the log-likelihood ratio
//!
//! ```text
//! LLR = N (s1 - s0) (2 s - s0 - s1) / (2 var)
//! ```
//!
//! (the normal approximation of the likelihood of `s` under each hypothesis). The test
//! goes on while `ln(beta / (1 - alpha)) < LLR < ln((1 - beta) / alpha)`: at or above the
//! upper bound H1 is accepted, at or below the lower one H0; `alpha` is the chance of
//! accepting H1 when H0 holds, `beta` that of accepting H0 when H1 holds.
//!
//! A count of zero is replaced by one half before the formula, so that a run of wins
//! alone, whose variance would be zero, still decides, but only after several games:
//! fishtest's 0.001 would let a single win or loss decide the test, the variance of one
//! result being almost nothing (cutechess-cli instead waits for a win, a draw and a loss,
//! which never comes against an opponent the engine always beats).
//!
//! Trade-off: only the trinomial; the pentanomial form over game pairs, which counts
//! the correlation of the two games of an opening, needs paired results and is left out.

use crate::elo::score_of_elo;

/// Bounds that make no test: what is wrong with them.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("--sprt: {0}")]
pub struct SprtError(pub String);

/// What stands for a count of zero in the formula.
const REGULARISED_ZERO: f64 = 0.5;

/// The test's hypotheses and error rates.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Sprt {
    /// The Elo difference of H0: the engine is at most this much stronger.
    pub elo0: f64,
    /// The Elo difference of H1: the engine is at least this much stronger.
    pub elo1: f64,
    /// The chance of accepting H1 when H0 holds.
    pub alpha: f64,
    /// The chance of accepting H0 when H1 holds.
    pub beta: f64,
}

/// Which hypothesis the test accepted.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// The engine is at most `elo0` stronger.
    H0,
    /// The engine is at least `elo1` stronger.
    H1,
}

impl Sprt {
    /// The default error rates, 5% each.
    pub const ALPHA: f64 = 0.05;

    /// A test of `elo0` against `elo1` with error rates `alpha` and `beta`; an error
    /// unless `elo0 < elo1` and both rates are in `(0, 0.5)`.
    pub fn new(elo0: f64, elo1: f64, alpha: f64, beta: f64) -> Result<Sprt, SprtError> {
        if !(elo0.is_finite() && elo1.is_finite() && elo0 < elo1) {
            return Err(SprtError(format!(
                "elo0 ({elo0}) must be below elo1 ({elo1})"
            )));
        }
        for (name, rate) in [("alpha", alpha), ("beta", beta)] {
            if !(rate > 0.0 && rate < 0.5) {
                return Err(SprtError(format!(
                    "{name} ({rate}) must be between 0 and 0.5"
                )));
            }
        }
        Ok(Sprt {
            elo0,
            elo1,
            alpha,
            beta,
        })
    }

    /// The lower and upper bounds of the log-likelihood ratio.
    pub fn bounds(&self) -> (f64, f64) {
        (
            (self.beta / (1.0 - self.alpha)).ln(),
            ((1.0 - self.beta) / self.alpha).ln(),
        )
    }

    /// The log-likelihood ratio of H1 against H0 after `wins`, `draws` and `losses`
    /// (0 before any game).
    pub fn llr(&self, wins: u32, draws: u32, losses: u32) -> f64 {
        if wins + draws + losses == 0 {
            return 0.0;
        }
        let count = |n: u32| {
            if n == 0 {
                REGULARISED_ZERO
            } else {
                f64::from(n)
            }
        };
        let (w, d, l) = (count(wins), count(draws), count(losses));
        let n = w + d + l;
        let s = (w + d / 2.0) / n;
        let var = (w * (1.0 - s).powi(2) + d * (0.5 - s).powi(2) + l * s.powi(2)) / n;
        let (s0, s1) = (score_of_elo(self.elo0), score_of_elo(self.elo1));
        n * (s1 - s0) * (2.0 * s - s0 - s1) / (2.0 * var)
    }

    /// The hypothesis accepted by a log-likelihood ratio `llr`, if it is out of the
    /// bounds.
    pub fn verdict(&self, llr: f64) -> Option<Verdict> {
        let (lower, upper) = self.bounds();
        if llr >= upper {
            Some(Verdict::H1)
        } else if llr <= lower {
            Some(Verdict::H0)
        } else {
            None
        }
    }

    /// The test in words: `elo0 0, elo1 50, alpha 0.05, beta 0.05`.
    pub fn describe(&self) -> String {
        format!(
            "elo0 {}, elo1 {}, alpha {}, beta {}",
            self.elo0, self.elo1, self.alpha, self.beta
        )
    }
}

impl Verdict {
    /// The verdict in words, for `sprt`.
    pub fn describe(self, sprt: &Sprt) -> String {
        match self {
            Verdict::H0 => format!(
                "H0 accepted: the engine is not {} Elo stronger (at most {})",
                sprt.elo1, sprt.elo0
            ),
            Verdict::H1 => format!(
                "H1 accepted: the engine is at least {} Elo stronger",
                sprt.elo1
            ),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::SplitMix;

    fn close(a: f64, b: f64) -> bool {
        (a - b).abs() < 1e-4
    }

    #[test]
    fn bounds_and_a_value_worked_by_hand() {
        let sprt = Sprt::new(0.0, 10.0, 0.05, 0.05).unwrap();
        let (lower, upper) = sprt.bounds();
        assert!(close(lower, -2.944439) && close(upper, 2.944439));
        // 30 wins, 40 draws, 30 losses: s = 0.5, var = 0.15, s0 = 0.5,
        // s1 = 1 / (1 + 10^(-10/400)) = 0.5143868; LLR = 100 * 0.0143868 * -0.0143868 / 0.3.
        assert!(
            close(sprt.llr(30, 40, 30), -0.068996),
            "{}",
            sprt.llr(30, 40, 30)
        );
        assert_eq!(sprt.llr(0, 0, 0), 0.0);
        assert_eq!(sprt.verdict(0.0), None);
        assert_eq!(sprt.verdict(3.0), Some(Verdict::H1));
        assert_eq!(sprt.verdict(-3.0), Some(Verdict::H0));
    }

    #[test]
    fn runs_of_wins_decide_and_bad_bounds_are_refused() {
        let sprt = Sprt::new(0.0, 50.0, 0.05, 0.05).unwrap();
        // One result alone decides nothing; a run of them does.
        assert_eq!(sprt.verdict(sprt.llr(1, 0, 0)), None);
        assert_eq!(sprt.verdict(sprt.llr(0, 0, 1)), None);
        assert_eq!(sprt.verdict(sprt.llr(10, 0, 0)), Some(Verdict::H1));
        assert_eq!(sprt.verdict(sprt.llr(0, 0, 10)), Some(Verdict::H0));
        assert!(Sprt::new(10.0, 0.0, 0.05, 0.05).is_err());
        assert!(Sprt::new(0.0, 10.0, 0.0, 0.05).is_err());
        assert!(Sprt::new(0.0, 10.0, 0.05, 0.6).is_err());
    }

    /// Plays simulated games whose true Elo difference is `elo` (draws 30%) until the
    /// test decides; returns the verdict and the games it took.
    fn simulate(sprt: &Sprt, elo: f64, seed: u64) -> (Verdict, u32) {
        let score = score_of_elo(elo);
        let (draw, win) = (0.3, score - 0.15);
        let mut rng = SplitMix::new(seed);
        let (mut w, mut d, mut l) = (0, 0, 0);
        loop {
            let x = (rng.next_u64() >> 11) as f64 / (1u64 << 53) as f64;
            if x < win {
                w += 1;
            } else if x < win + draw {
                d += 1;
            } else {
                l += 1;
            }
            if let Some(verdict) = sprt.verdict(sprt.llr(w, d, l)) {
                return (verdict, w + d + l);
            }
            assert!(w + d + l < 100_000, "no verdict");
        }
    }

    #[test]
    fn simulated_matches_get_the_known_answer() {
        let sprt = Sprt::new(0.0, 50.0, 0.05, 0.05).unwrap();
        for seed in 1..=20 {
            let (verdict, games) = simulate(&sprt, 150.0, seed);
            assert_eq!(verdict, Verdict::H1, "seed {seed}, {games} games");
            let (verdict, games) = simulate(&sprt, -100.0, seed);
            assert_eq!(verdict, Verdict::H0, "seed {seed}, {games} games");
        }
        // Between the hypotheses, closer to H1: accepted most of the time, not always.
        let h1 = (1..=200)
            .filter(|&seed| simulate(&sprt, 45.0, seed).0 == Verdict::H1)
            .count();
        assert!((120..200).contains(&h1), "{h1} of 200");
    }
}
