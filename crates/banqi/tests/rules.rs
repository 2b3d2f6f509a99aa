//! The rules on hand-made positions, each with its legal moves written out by reading
//! the rules, not by running a generator: every cannon case (screens friendly, enemy and
//! face-down; lines blocked by a friendly or face-down piece beyond the screen; adjacent
//! and screenless targets never taken), soldier against general, face-down targets, the
//! first flip deciding colours, a side without a move losing, and both draw counters with
//! their resets.

use regex_chess_banqi::movegen::MoveList;
use regex_chess_banqi::{Colour, DrawRules, Game, Move, Outcome, Piece, PlayError, Position};

fn moves(text: &str) -> Vec<String> {
    let position: Position = text.parse().unwrap_or_else(|e| panic!("{text}: {e}"));
    let mut list = MoveList::new();
    position.legal_moves(&mut list);
    let mut moves: Vec<String> = list.as_slice().iter().map(Move::to_string).collect();
    moves.sort();
    moves
}

fn expect(text: &str, expected: &str) {
    let mut expected: Vec<String> = expected.split_whitespace().map(String::from).collect();
    expected.sort();
    assert_eq!(moves(text), expected, "{text}");
}

fn mv(text: &str) -> Move {
    text.parse().unwrap()
}

fn piece(letter: char) -> Option<Piece> {
    Piece::from_letter(letter)
}

#[test]
fn cannon_jumps_face_down_and_friendly_screens() {
    // a0 cannon: east over the face-down c0 onto the black cannon e0, north over its own
    // chariot a1 onto the black general a3; a step to b0. The chariot takes the horse.
    expect(
        "g7/8/Rh6/C1X1c1s1 r E1 0 7",
        "a0a3 a0b0 a0e0 a1a2 a1b1 c0c0",
    );
}

#[test]
fn cannon_never_takes_adjacent_blocked_or_screenless() {
    // d1 cannon: the adjacent soldier e1 is a screen, the face-down f1 beyond it blocks;
    // its own soldiers b1, a1 block the west; the adjacent horse d2 has nothing beyond;
    // the face-down d0 has nothing beyond. h3 cannon: two pieces before the horse e3.
    expect(
        "4hXXC/3h4/SS1CsX2/3X4 r A1E1a1e1 0 12",
        "a1a0 a1a2 b1b0 b1b2 b1c1 d0d0 d1c1 f1f1 f3f3 g3g3 h3h2",
    );
}

#[test]
fn cannon_jumps_an_enemy_screen_and_takes_any_rank() {
    // c0 cannon, west: nothing. East: the black soldier d0 is the screen, the black
    // general g0 the target over empty e0, f0. North: the black advisor c1 screens the
    // black chariot c2. The black cannon h0 jumps g0 onto nothing (h1..h3 empty... west:
    // screen g0 then d0: red? no, d0 is black) and is red's to answer below.
    expect("8/2r5/2a5/2Cs2gc r - 4 31", "c0b0 c0c2 c0g0");
    // Black: the cannon h0 west: screen g0 (its own general), then d0 (its own soldier):
    // blocked. The general g0 steps f0 or g1; the soldier d0 steps e0 or d1 (not onto the
    // cannon c0: soldiers never take cannons); the advisor c1 takes the cannon c0, steps
    // b1, d1; the chariot c2 steps b2, d2, c3 (its own advisor below). h0 steps h1.
    expect(
        "8/2r5/2a5/2Cs2gc b - 4 31",
        "c1b1 c1c0 c1d1 c2b2 c2c3 c2d2 d0d1 d0e0 g0f0 g0g1 h0h1",
    );
}

#[test]
fn soldier_takes_general_and_general_never_takes_soldier() {
    let position = "sG6/CgAh4/1Ss5/8";
    // Black: the general takes the cannon, the advisor and the general, not the soldier
    // b1; the soldier c1 takes the soldier b1, not the advisor; the soldier a3 takes the
    // general b3, not the cannon a2.
    expect(
        &format!("{position} b - 0 40"),
        "a3b3 b2a2 b2b3 b2c2 c1b1 c1c0 c1d1 d2d1 d2d3 d2e2",
    );
    // Red: the general takes the general, not the soldier a3; the cannon cannot take the
    // adjacent a3 or b2 and its jump east lands on its own advisor; the advisor takes
    // horse and soldier, not the general; the soldier takes soldier and general.
    expect(
        &format!("{position} r - 0 40"),
        "a2a1 b1a1 b1b0 b1b2 b1c1 b3b2 b3c3 c2c1 c2c3 c2d2",
    );
}

#[test]
fn ranks_capture_equal_or_lower() {
    // Red elephant d1 among black pieces: takes the elephant, chariot and horse, not the
    // advisor d2 above it.
    expect("8/3a4/2eEr3/3h4 r - 0 9", "d1c1 d1d0 d1e1");
    // Red horse: takes the horse and the soldier and the cannon, not the chariot.
    expect("8/3r4/2hHs3/3c4 r - 0 9", "d1c1 d1d0 d1e1");
}

#[test]
fn face_down_pieces_are_never_captured() {
    expect(
        "XXX5/XGX5/XXX5/8 r A1E1R1H1a1e1r1h1 0 10",
        "a1a1 a2a2 a3a3 b1b1 b3b3 c1c1 c2c2 c3c3",
    );
}

#[test]
fn the_start_offers_32_flips_only() {
    assert_eq!(moves(&Position::start().to_string()).len(), 32);
    assert!(
        moves(&Position::start().to_string())
            .iter()
            .all(|m| m[..2] == m[2..])
    );
}

#[test]
fn the_first_flip_decides_colours() {
    let mut game = Game::new(DrawRules::default());
    assert_eq!(game.first_colour(), None);
    game.play(mv("c2c2"), piece('h')).unwrap();
    assert_eq!(game.first_colour(), Some(Colour::Black));
    assert_eq!(
        game.position().turn(),
        Some(Colour::Red),
        "the second player has the other colour"
    );
    assert_eq!(
        game.position().to_string(),
        "XXXXXXXX/XXhXXXXX/XXXXXXXX/XXXXXXXX r G1A2E2R2H2C2S5g1a2e2r2h1c2s5 0 2"
    );
}

#[test]
fn a_side_without_a_move_loses() {
    let game = Game::from_position("8/8/3g4/8 r - 5 20".parse().unwrap(), DrawRules::default());
    assert_eq!(game.outcome(), Some(Outcome::Win(Colour::Black)));
    // Pieces left, none able to move: the soldier is walled in by two advisors.
    let game = Game::from_position("8/8/a7/Sa6 r - 0 30".parse().unwrap(), DrawRules::default());
    assert_eq!(game.outcome(), Some(Outcome::Win(Colour::Black)));
    // A face-down piece is always a move.
    let game = Game::from_position(
        "8/8/a7/Sa5X r S1 0 30".parse().unwrap(),
        DrawRules::default(),
    );
    assert_eq!(game.outcome(), None);
    assert_eq!(game.legal_moves(), vec![mv("h0h0")]);
}

fn play_all(game: &mut Game, moves: &str) {
    for m in moves.split_whitespace() {
        game.play(mv(m), None)
            .unwrap_or_else(|e| panic!("{m}: {e}"));
    }
}

#[test]
fn no_progress_draws_at_40_or_the_rule_chosen_and_flips_reset_it() {
    let text = "8/1G6/6g1/X7 r A1 38 50";
    let mut game = Game::from_position(text.parse().unwrap(), DrawRules::MISTBOARD);
    play_all(&mut game, "b2b3");
    assert_eq!(game.outcome(), None);
    play_all(&mut game, "g1h1");
    assert_eq!(game.outcome(), Some(Outcome::DrawNoProgress(40)));
    assert!(matches!(
        game.play(mv("b3b2"), None),
        Err(PlayError::Over(_))
    ));

    for rules in [DrawRules::COURSE, DrawRules::OLYMPIAD] {
        let mut game = Game::from_position(text.parse().unwrap(), rules);
        play_all(&mut game, "b2b3 g1h1 b3b2");
        assert_eq!(game.outcome(), None, "{rules:?}");
    }
    // A flip at 39 resets the clock.
    let mut game = Game::from_position(text.parse().unwrap(), DrawRules::MISTBOARD);
    play_all(&mut game, "b2b3");
    // Black flips a0 (a red advisor) at clock 39.
    game.play(mv("a0a0"), piece('A'))
        .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(game.position().clock(), 0);
    play_all(&mut game, "b3b2 g1h1");
    assert_eq!(game.outcome(), None);
}

#[test]
fn captures_reset_the_clock() {
    let mut game = Game::from_position(
        "7S/1G6/1s4g1/8 b - 39 50".parse().unwrap(),
        DrawRules::MISTBOARD,
    );
    play_all(&mut game, "b1b2");
    assert_eq!(game.position().clock(), 0);
    assert_eq!(
        game.outcome(),
        None,
        "the capture at clock 39 is not a draw"
    );
}

#[test]
fn threefold_repetition_draws_and_a_flip_resets_it() {
    let text = "8/1G6/6g1/X7 r A1 0 50";
    let cycle = "b2b3 g1h1 b3b2 h1g1";
    let mut game = Game::from_position(text.parse().unwrap(), DrawRules::default());
    play_all(&mut game, cycle);
    assert_eq!(game.outcome(), None, "twice is not a draw");
    play_all(&mut game, "b2b3 g1h1 b3b2");
    assert_eq!(game.outcome(), None);
    play_all(&mut game, "h1g1");
    assert_eq!(game.outcome(), Some(Outcome::DrawRepetition));

    let mut game = Game::from_position(text.parse().unwrap(), DrawRules::default());
    play_all(&mut game, cycle);
    play_all(&mut game, "b2b3 g1h1 b3b2");
    // Black flips a0 instead of closing the cycle; positions before it no longer count.
    game.play(mv("a0a0"), piece('A'))
        .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(game.since_reset().len(), 1);
    let cycle = "b2b3 h1g1 b3b2 g1h1";
    play_all(&mut game, cycle);
    assert_eq!(game.outcome(), None, "twice since the flip");
    play_all(&mut game, cycle);
    assert_eq!(game.outcome(), Some(Outcome::DrawRepetition));
}

#[test]
fn bad_moves_are_refused_and_the_game_kept() {
    let mut game = Game::from_position(
        "8/1G6/6g1/X7 r A1 0 50".parse().unwrap(),
        DrawRules::default(),
    );
    let before = *game.position();
    assert_eq!(
        game.play(mv("b2b0"), None),
        Err(PlayError::Illegal(mv("b2b0")))
    );
    assert_eq!(
        game.play(mv("g1g2"), None),
        Err(PlayError::Illegal(mv("g1g2")))
    );
    assert_eq!(
        game.play(mv("a0a0"), None),
        Err(PlayError::FlipWithoutPiece(mv("a0a0")))
    );
    assert_eq!(
        game.play(mv("a0a0"), piece('G')),
        Err(PlayError::NotInPool {
            mv: mv("a0a0"),
            piece: Piece::from_letter('G').unwrap()
        })
    );
    assert_eq!(*game.position(), before);
    assert!(game.moves().is_empty());
}
