//! The position string and the move text: exact round trips, a refusal naming what is
//! wrong for each kind of mistake, and garbage (random bytes, mutated strings) that is
//! refused or read, never a panic, and when read, written back unchanged.

mod naive;

use naive::TestRng;
use regex_chess_banqi::notation::NotationError;
use regex_chess_banqi::position::PositionError;
use regex_chess_banqi::{Move, Position};

const GOOD: [&str; 6] = [
    "XXXXXXXX/XXXXXXXX/XXXXXXXX/XXXXXXXX - G1A2E2R2H2C2S5g1a2e2r2h2c2s5 0 1",
    "XXXXXXXX/XXhXXXXX/XXXXXXXX/XXXXXXXX r G1A2E2R2H2C2S5g1a2e2r2h1c2s5 0 2",
    "4c3/1G2s3/2C3r1/s3S2a b - 12 40",
    "8/8/8/7s r - 0 65535",
    "XcX1XgX1/1C1hX1sX/X2RX1aX/XsX1GX1X r A1E2R1H2C1a1e2r2s1 3 9",
    "8/8/a7/Sa5X r S1 0 30",
];

#[test]
fn positions_round_trip_exactly() {
    for text in GOOD {
        let position: Position = text.parse().unwrap_or_else(|e| panic!("{text}: {e}"));
        assert_eq!(position.to_string(), text);
    }
    assert_eq!(Position::start().to_string(), GOOD[0]);
}

fn refused(text: &str) -> NotationError {
    match text.parse::<Position>() {
        Ok(p) => panic!("{text} was read as {p}"),
        Err(e) => e,
    }
}

#[test]
fn each_mistake_is_named() {
    use NotationError as E;
    assert_eq!(refused("8/8/8/8 r -"), E::Fields(3));
    assert_eq!(refused("8/8/8 r - 0 1"), E::Ranks(3));
    assert!(matches!(
        refused("8/8/8/7 r - 0 1"),
        E::Width {
            rank: 0,
            width: 7,
            ..
        }
    ));
    assert!(matches!(
        refused("8/9/8/8 r - 0 1"),
        E::BoardChar {
            rank: 2,
            found: '9',
            ..
        }
    ));
    assert!(matches!(
        refused("8/8/1K6/8 r - 0 1"),
        E::BoardChar {
            rank: 1,
            found: 'K',
            ..
        }
    ));
    assert!(matches!(
        refused("8/8/8/44 r - 0 1"),
        E::Digits { rank: 0, .. }
    ));
    assert_eq!(refused("8/8/8/7s w - 0 1"), E::Turn("w".into()));
    assert!(matches!(refused("7X/8/8/7s r S0 0 1"), E::Pool { .. }));
    assert!(matches!(refused("7X/8/8/7s r s1S1 0 1"), E::Pool { .. }));
    assert!(matches!(refused("7X/8/8/7s r S6 0 1"), E::Pool { .. }));
    assert!(matches!(refused("7X/8/8/7s r K1 0 1"), E::Pool { .. }));
    assert!(matches!(
        refused("8/8/8/7s r - x 1"),
        E::Number { field: "clock", .. }
    ));
    assert!(matches!(
        refused("8/8/8/7s r - 0 65536"),
        E::Number {
            field: "move number",
            ..
        }
    ));
    assert!(matches!(
        refused("8/8/8/7s r - 01 1"),
        E::Number { field: "clock", .. }
    ));
    let message = refused("8/8/8/7s r - 0 1x").to_string();
    assert!(message.contains("move number"), "{message}");
}

#[test]
fn impossible_positions_are_refused() {
    use PositionError as P;
    // Two red generals.
    assert!(matches!(
        refused("8/8/8/GG6 r - 0 1"),
        NotationError::Impossible(P::TooMany {
            count: 2,
            max: 1,
            ..
        })
    ));
    // A general revealed and one more face-down.
    assert!(matches!(
        refused("8/8/8/G6X r G1 0 1"),
        NotationError::Impossible(P::TooMany {
            revealed: 1,
            face_down: 1,
            ..
        })
    ));
    assert_eq!(
        refused("8/8/8/S6X r - 0 1"),
        NotationError::Impossible(P::PoolMismatch {
            pool: 0,
            squares: 1
        })
    );
    assert_eq!(
        refused("8/8/8/S7 r S1 0 1"),
        NotationError::Impossible(P::PoolMismatch {
            pool: 1,
            squares: 0
        })
    );
    assert_eq!(
        refused("8/8/8/S7 - - 0 1"),
        NotationError::Impossible(P::NoTurnAfterFlips(0))
    );
    let all = "XXXXXXXX/XXXXXXXX/XXXXXXXX/XXXXXXXX r G1A2E2R2H2C2S5g1a2e2r2h2c2s5 0 1";
    assert_eq!(refused(all), NotationError::Impossible(P::TurnBeforeFlip));
    assert_eq!(
        refused("8/8/8/S7 r - 0 0"),
        NotationError::Impossible(P::MoveNumberZero)
    );
    let message = refused("8/8/8/GG6 r - 0 1").to_string();
    assert!(
        message.contains("`G`") && message.contains("2"),
        "{message}"
    );
}

#[test]
fn moves_round_trip_and_bad_moves_are_named() {
    for text in ["a0b0", "h3h3", "c2c0", "a3h0"] {
        assert_eq!(text.parse::<Move>().unwrap().to_string(), text);
    }
    assert!("a0a0".parse::<Move>().unwrap().is_flip());
    for bad in [
        "", "a0", "a0b", "a0b0c", "i0a0", "a4a0", "a0a-", "é0a0", "A0B0",
    ] {
        let e = bad.parse::<Move>().expect_err(bad);
        assert!(e.to_string().contains(bad) || bad.is_empty(), "{bad}: {e}");
    }
}

#[test]
fn garbage_never_panics_and_what_is_read_round_trips() {
    let mut rng = TestRng(7);
    let alphabet: Vec<char> = "XGAERHCSgaerhcs012345678/ -rbx\u{e9}9".chars().collect();
    let mut read = 0;
    for i in 0..60_000 {
        let text: String = if i % 2 == 0 {
            (0..rng.below(70))
                .map(|_| alphabet[rng.below(alphabet.len())])
                .collect()
        } else {
            // a good string with a few characters replaced, inserted or removed
            let mut chars: Vec<char> = GOOD[rng.below(GOOD.len())].chars().collect();
            for _ in 0..1 + rng.below(3) {
                let at = rng.below(chars.len() + 1);
                match rng.below(3) {
                    0 if at < chars.len() => chars[at] = alphabet[rng.below(alphabet.len())],
                    1 => chars.insert(at, alphabet[rng.below(alphabet.len())]),
                    _ if at < chars.len() => {
                        chars.remove(at);
                    }
                    _ => {}
                }
            }
            chars.into_iter().collect()
        };
        if let Ok(position) = text.parse::<Position>() {
            assert_eq!(position.to_string(), text);
            read += 1;
        }
        let _ = text.parse::<Move>();
    }
    assert!(
        read > 100,
        "the mutations should sometimes stay valid ({read})"
    );
}
