//! The interfaces driven from outside: a UCI session driven as an arena drives it (the
//! arena owns the deal and tells each flip through the next `position`), random UCI
//! garbage, and the terminal game fed garbage and every move text until it ends.

mod naive;

use naive::TestRng;
use regex_chess_banqi::deal::Deal;
use regex_chess_banqi::eval::EvalConfig;
use regex_chess_banqi::opponents::Greedy;
use regex_chess_banqi::play::{PlayOptions, play};
use regex_chess_banqi::player::{EnginePlayer, Player};
use regex_chess_banqi::search::{Limits, SearchConfig};
use regex_chess_banqi::uci::Session;
use regex_chess_banqi::{DrawRules, Game, Move, Position};

fn send(session: &mut Session, line: &str) -> String {
    let mut out = Vec::new();
    session.command(line, &mut out).unwrap();
    String::from_utf8(out).unwrap()
}

/// The `position` command an arena sends: the position at the last flip or capture and
/// the quiet moves since.
fn position_command(game: &Game) -> String {
    let mut position = *game.start();
    let mut since = (position, Vec::new());
    for &(mv, revealed) in game.moves() {
        let reset = mv.is_flip() || position.is_capture(mv);
        position.play_unchecked(mv, revealed);
        if reset {
            since = (position, Vec::new());
        } else {
            since.1.push(mv.to_string());
        }
    }
    if since.1.is_empty() {
        format!("position fen {}", since.0)
    } else {
        format!("position fen {} moves {}", since.0, since.1.join(" "))
    }
}

#[test]
fn an_arena_plays_a_whole_game_over_uci() {
    let mut session = Session::new(EvalConfig::default(), SearchConfig::default(), 14);
    let hello = send(&mut session, "uci");
    assert!(
        hello.contains("id name") && hello.ends_with("uciok\n"),
        "{hello}"
    );
    assert_eq!(send(&mut session, "isready"), "readyok\n");
    assert_eq!(send(&mut session, "ucinewgame"), "");
    let deal = Deal::shuffled(21);
    let mut game = Game::new(DrawRules::default());
    let mut greedy = Greedy::new(4);
    let mut engine_moves = 0;
    while game.outcome().is_none() {
        let mv = if game.moves().len().is_multiple_of(2) {
            assert_eq!(send(&mut session, &position_command(&game)), "");
            let answer = send(&mut session, "go nodes 4000");
            let info = answer
                .lines()
                .find(|l| l.starts_with("info depth"))
                .expect(&answer);
            for word in ["score", "nodes", "nps", "pv"] {
                assert!(info.contains(word), "{info}");
            }
            let best = answer
                .lines()
                .last()
                .unwrap()
                .strip_prefix("bestmove ")
                .expect(&answer);
            engine_moves += 1;
            best.parse::<Move>().unwrap()
        } else {
            greedy.choose(&game, Limits::default()).unwrap()
        };
        let revealed = if mv.is_flip() {
            deal.under(mv.from())
        } else {
            None
        };
        game.play(mv, revealed)
            .unwrap_or_else(|e| panic!("{e} in {}", game.position()));
    }
    assert!(engine_moves > 5);
    assert!(
        send(&mut session, "go movetime 10").starts_with("bestmove 0000")
            || game.outcome().is_some()
    );
    let mut out = Vec::new();
    assert!(!session.command("quit", &mut out).unwrap());
}

#[test]
fn uci_refusals_name_the_problem_and_keep_the_position() {
    let mut session = Session::new(EvalConfig::default(), SearchConfig::default(), 12);
    let fen = "8/1G6/6g1/X7 r A1 0 50";
    assert_eq!(
        send(&mut session, &format!("position fen {fen} moves b2b3 g1h1")),
        ""
    );
    assert!(send(&mut session, "position fen 8/8 r - 0 1").contains("error"));
    assert!(send(&mut session, &format!("position fen {fen} moves a0a0")).contains("flip"));
    assert!(send(&mut session, &format!("position fen {fen} moves b2b0")).contains("not legal"));
    assert!(send(&mut session, "frobnicate").contains("unknown command"));
    // the position kept is the last good one: red's general on b3, black's on h1, red to
    // move (its general's three steps or the flip of a0)
    let answer = send(&mut session, "go depth 2");
    let best = answer.lines().last().unwrap();
    let legal = [
        "bestmove b3a3",
        "bestmove b3c3",
        "bestmove b3b2",
        "bestmove a0a0",
    ];
    assert!(legal.contains(&best), "{answer}");
    assert_eq!(
        send(&mut session, &format!("position fen {fen} moves b2b3")),
        ""
    );
    let best = send(&mut session, "go depth 2")
        .lines()
        .last()
        .unwrap()
        .to_string();
    let legal = [
        "bestmove g1f1",
        "bestmove g1h1",
        "bestmove g1g0",
        "bestmove g1g2",
        "bestmove a0a0",
    ];
    assert!(legal.contains(&best.as_str()), "{best}");
}

#[test]
fn random_uci_lines_never_panic() {
    let mut rng = TestRng(99);
    let words = [
        "uci",
        "isready",
        "position",
        "fen",
        "startpos",
        "moves",
        "go",
        "nodes",
        "movetime",
        "depth",
        "setoption",
        "name",
        "value",
        "NoProgress",
        "Contempt",
        "a0a0",
        "a0b0",
        "b2b3",
        "-1",
        "0",
        "7",
        "300",
        "99999999999999999999",
        "XXXXXXXX/XXXXXXXX/XXXXXXXX/XXXXXXXX",
        "-",
        "r",
        "b",
        "8/8/8/7s",
        "G1A2E2R2H2C2S5g1a2e2r2h2c2s5",
        "ucinewgame",
        "\u{e9}",
        "",
    ];
    let mut session = Session::new(EvalConfig::default(), SearchConfig::default(), 10);
    for _ in 0..3000 {
        let n = rng.below(8);
        let line: Vec<&str> = (0..n).map(|_| words[rng.below(words.len())]).collect();
        let mut line = line.join(" ");
        if line.starts_with("go") {
            line.push_str(" nodes 200");
        }
        let answer = send(&mut session, &line);
        if line.starts_with("go") {
            assert!(answer.contains("bestmove"), "{line}: {answer}");
        }
    }
    let start = Position::start().to_string();
    assert_eq!(send(&mut session, &format!("position fen {start}")), "");
}

#[test]
fn the_terminal_game_survives_garbage_and_ends() {
    let mut script = String::from("hello\n\nmoves\nz9z9\na0\nquitt\n\u{e9}\u{e9}\u{e9}\u{e9}\n");
    let squares: Vec<String> = (0..4)
        .flat_map(|r| (0..8).map(move |f| format!("{}{r}", (b'a' + f) as char)))
        .collect();
    for _ in 0..12 {
        for a in &squares {
            for b in &squares {
                script.push_str(&format!("{a}{b}\n"));
            }
        }
    }
    let mut engine = EnginePlayer::new(EvalConfig::default(), SearchConfig::default(), 12);
    let options = PlayOptions {
        seed: 8,
        human_first: true,
        limits: Limits {
            nodes: Some(1_000),
            ..Limits::default()
        },
        rules: DrawRules::default(),
    };
    let mut out = Vec::new();
    play(script.as_bytes(), &mut out, &mut engine, options).unwrap();
    let out = String::from_utf8(out).unwrap();
    assert!(out.contains("is not a move"), "garbage is answered");
    assert!(
        out.contains("is not a legal move here"),
        "illegal moves are answered"
    );
    assert!(out.contains("legal moves: "));
    assert!(out.contains("face-down: red"));
    assert!(
        out.contains("game over: "),
        "{}",
        &out[out.len().saturating_sub(2000)..]
    );
    // and a player who leaves
    let mut out = Vec::new();
    play("quit\n".as_bytes(), &mut out, &mut engine, options).unwrap();
    assert!(String::from_utf8(out).unwrap().contains("you left"));
}
