//! The Elo difference a match score implies, with a 95% interval.
//!
//! # The model
//!
//! The logistic (Elo) model says a player `D` points stronger than its opponent scores,
//! on average, `E(D) = 1 / (1 + 10^(-D/400))` points a game. Inverting it, a score
//! fraction `s` (wins plus half the draws, over the games) means
//!
//! ```text
//! D(s) = -400 * log10(1/s - 1)
//! ```
//!
//! # The interval
//!
//! Each game scores 1, 1/2 or 0. With `N` games, `W` wins, `D` draws and `L` losses, the
//! per-game variance about the mean score `s` is
//!
//! ```text
//! var = (W (1 - s)^2 + D (1/2 - s)^2 + L (0 - s)^2) / N
//! ```
//!
//! and the standard error of `s` is `sqrt(var / N)`. The 95% interval of the score is
//! `s ± 1.959964 * se`, cut to `[0, 1]`, and its ends are mapped through `D(.)` (which
//! is increasing) to give the Elo interval. A bound at a score of 0 or 1 is `-∞` or `+∞`.
//!
//! # All won or all lost
//!
//! At a score of 1 (0) the estimate is `+∞` (`-∞`) and the variance above is zero, which
//! would give an empty interval. Then the one-sided 95% bound of a binomial proportion
//! with no failures (no successes) is used instead: a score of 1 over `N` games makes a
//! true score below `0.05^(1/N)` unlikely at 95%, so the interval is
//! `[D(0.05^(1/N)), +∞)`; symmetrically `(-∞, D(1 - 0.05^(1/N))]` for a score of 0.
//! (Draws count as half a win in the score but are rare in such matches; the bound
//! treats every game as a win or a loss.) With no games at all there is no estimate.

/// The 97.5% quantile of the standard normal distribution.
pub const Z95: f64 = 1.959_963_984_540_054;

/// The Elo difference of a score fraction in `[0, 1]`: `-400 log10(1/s - 1)`, infinite at
/// 0 and 1.
pub fn elo_of_score(s: f64) -> f64 {
    if s <= 0.0 {
        f64::NEG_INFINITY
    } else if s >= 1.0 {
        f64::INFINITY
    } else {
        -400.0 * (1.0 / s - 1.0).log10()
    }
}

/// The expected score of a player `d` Elo stronger: `1 / (1 + 10^(-d/400))`.
pub fn score_of_elo(d: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-d / 400.0))
}

/// A match result turned into an Elo estimate.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct EloEstimate {
    /// The score fraction.
    pub score: f64,
    /// The Elo difference (infinite at a score of 0 or 1).
    pub elo: f64,
    /// The low end of the 95% interval.
    pub low: f64,
    /// The high end of the 95% interval.
    pub high: f64,
}

impl EloEstimate {
    /// The estimate for `wins`, `draws` and `losses` (from the engine's view); `None`
    /// with no games.
    pub fn from_results(wins: u32, draws: u32, losses: u32) -> Option<EloEstimate> {
        let n = f64::from(wins + draws + losses);
        if n == 0.0 {
            return None;
        }
        let (w, d, l) = (f64::from(wins), f64::from(draws), f64::from(losses));
        let s = (w + d / 2.0) / n;
        let (low, high) = if s >= 1.0 {
            (elo_of_score(0.05f64.powf(1.0 / n)), f64::INFINITY)
        } else if s <= 0.0 {
            (f64::NEG_INFINITY, elo_of_score(1.0 - 0.05f64.powf(1.0 / n)))
        } else {
            let var = (w * (1.0 - s).powi(2) + d * (0.5 - s).powi(2) + l * s.powi(2)) / n;
            let se = (var / n).sqrt();
            (
                elo_of_score((s - Z95 * se).max(0.0)),
                elo_of_score((s + Z95 * se).min(1.0)),
            )
        };
        Some(EloEstimate {
            score: s,
            elo: elo_of_score(s),
            low,
            high,
        })
    }
}

/// An Elo value for a report: rounded, signed, `+inf` / `-inf` when infinite.
pub fn show(elo: f64) -> String {
    if elo == f64::INFINITY {
        "+inf".to_string()
    } else if elo == f64::NEG_INFINITY {
        "-inf".to_string()
    } else {
        format!("{:+.0}", elo)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64, tolerance: f64) -> bool {
        (a - b).abs() <= tolerance
    }

    #[test]
    fn known_values() {
        assert_eq!(elo_of_score(0.5), 0.0);
        // 75% is 190.85 Elo; 90% is 381.7; 64% is 100.0; 24% is -200.
        assert!(close(elo_of_score(0.75), 190.848, 0.001));
        assert!(close(elo_of_score(0.9), 381.697, 0.001));
        assert!(close(elo_of_score(0.64), 100.0, 0.1));
        assert!(close(elo_of_score(0.24), -200.0, 0.5));
        for d in [-600.0, -100.0, 0.0, 42.0, 400.0] {
            assert!(close(elo_of_score(score_of_elo(d)), d, 1e-9));
        }
        assert!(close(score_of_elo(400.0), 10.0 / 11.0, 1e-12));
    }

    #[test]
    fn an_even_match_is_zero_with_a_symmetric_interval() {
        let e = EloEstimate::from_results(10, 20, 10).unwrap();
        assert_eq!((e.score, e.elo), (0.5, 0.0));
        assert!(close(e.low, -e.high, 1e-9));
        // 40 games, per-game sd 0.3536, se 0.0559, score interval 0.5 ± 0.1096.
        assert!(close(
            e.high,
            elo_of_score(0.5 + Z95 * (0.125f64 / 40.0).sqrt()),
            1e-9
        ));
        assert!(close(e.high, 77.4, 0.1), "{}", e.high);
    }

    #[test]
    fn a_hand_computed_interval() {
        // 6 wins, 2 draws, 2 losses: s = 0.7, var = (6*.09 + 2*.04 + 2*.49)/10 = 0.16,
        // se = sqrt(0.016) = 0.12649, interval 0.7 ± 0.24792: -33.4 to +504.
        let e = EloEstimate::from_results(6, 2, 2).unwrap();
        assert!(close(e.score, 0.7, 1e-12));
        assert!(close(e.elo, 147.19, 0.01));
        let se = 0.016f64.sqrt();
        assert!(close(e.low, elo_of_score(0.7 - Z95 * se), 1e-9));
        assert!(close(e.high, elo_of_score(0.7 + Z95 * se), 1e-9));
        assert!(close(e.low, -33.4, 0.1), "{}", e.low);
        assert!(close(e.high, 504.0, 0.1), "{}", e.high);
    }

    #[test]
    fn all_won_or_all_lost_gives_a_one_sided_bound() {
        let e = EloEstimate::from_results(20, 0, 0).unwrap();
        assert_eq!(
            (e.score, e.elo, e.high),
            (1.0, f64::INFINITY, f64::INFINITY)
        );
        // 0.05^(1/20) = 0.86089: at least 316.6 Elo.
        assert!(close(e.low, elo_of_score(0.05f64.powf(0.05)), 1e-9));
        assert!(close(e.low, 316.6, 0.1), "{}", e.low);
        let e = EloEstimate::from_results(0, 0, 20).unwrap();
        assert_eq!((e.elo, e.low), (f64::NEG_INFINITY, f64::NEG_INFINITY));
        assert!(close(e.high, -316.6, 0.1), "{}", e.high);
        assert!(EloEstimate::from_results(0, 0, 0).is_none());
        // A score interval reaching 1 is +inf at its top.
        let e = EloEstimate::from_results(2, 1, 0).unwrap();
        assert_eq!(e.high, f64::INFINITY);
        assert!(e.low.is_finite());
    }

    #[test]
    fn shows_values() {
        assert_eq!(show(190.848), "+191");
        assert_eq!(show(-12.4), "-12");
        assert_eq!(show(0.0), "+0");
        assert_eq!(show(f64::INFINITY), "+inf");
        assert_eq!(show(f64::NEG_INFINITY), "-inf");
    }
}
