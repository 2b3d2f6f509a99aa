//! The match's statistics against figures worked by hand.

use regex_chess_banqi::stats::Tally;

#[test]
fn score_and_elo_by_hand() {
    let t = Tally { wins: 60, draws: 20, losses: 20 };
    assert_eq!(t.games(), 100);
    assert!((t.fraction() - 0.7).abs() < 1e-12);
    // -400 log10(1/0.7 - 1) = 147.19...
    assert!((t.elo() - 147.19).abs() < 0.01, "{}", t.elo());
    // per-game variance: (60 * 0.09 + 20 * 0.04 + 20 * 0.49) / 100 = 0.16; sd of the mean
    // 0.04; half-width 1.96 * 0.04 = 0.0784
    let (low, high) = t.fraction_interval();
    assert!((low - 0.6216).abs() < 1e-9 && (high - 0.7784).abs() < 1e-9, "{low} {high}");
    let (elo_low, elo_high) = t.elo_interval();
    assert!(elo_low < t.elo() && t.elo() < elo_high);
    assert_eq!(Tally::default().fraction(), 0.5);
    assert_eq!(Tally { wins: 0, draws: 4, losses: 0 }.elo(), 0.0);
}
