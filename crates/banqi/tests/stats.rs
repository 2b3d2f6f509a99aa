//! The match's statistics (the arena's Elo over the Banqi tally) against figures worked
//! by hand.

use regex_chess_banqi::stats::Tally;

#[test]
fn score_and_elo_by_hand() {
    let t = Tally {
        wins: 60,
        draws: 20,
        losses: 20,
    };
    assert_eq!(t.games(), 100);
    let e = t.estimate().unwrap();
    assert!((e.score - 0.7).abs() < 1e-12);
    // -400 log10(1/0.7 - 1) = 147.19...
    assert!((e.elo - 147.19).abs() < 0.01, "{}", e.elo);
    // per-game variance: (60 * 0.09 + 20 * 0.04 + 20 * 0.49) / 100 = 0.16; standard error
    // 0.04; the score's interval 0.7 -+ 1.96 * 0.04 = [0.6216, 0.7784]: D(0.6216) =
    // -400 log10(0.6088) = 86.2, D(0.7784) = -400 log10(0.2847) = 218.3
    assert!(
        (e.low - 86.2).abs() < 0.1 && (e.high - 218.3).abs() < 0.1,
        "{e:?}"
    );
    assert!(Tally::default().estimate().is_none());
    let all = Tally {
        wins: 400,
        draws: 0,
        losses: 0,
    }
    .estimate()
    .unwrap();
    assert!(all.low > 0.0 && all.high.is_infinite());
}
