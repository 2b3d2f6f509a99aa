//! The UCI protocol: scripted sessions through the binary, GUI-style, and a python-chess
//! driver; and the session state machine on a test-only stand-in engine, which shows what
//! the protocol does with moves before the chess rules exist.
//!
//! Through the binary the engine is always the rules: until the `apply-move` and `move`
//! programs are registered, the session must answer every command anyway, with the errors
//! as `info string` lines and `bestmove 0000`.

#[path = "common/fake_engine.rs"]
mod fake_engine;
#[path = "common/oracle/mod.rs"]
mod oracle;

#[path = "common/binary.rs"]
mod binary;
use std::process::Command;
use std::sync::Arc;
use std::sync::atomic::Ordering;

use fake_engine::{FakeEngine, Shared};
use oracle::judge;
use regex_chess::chess::runner::MOVE;
use regex_chess::uci::{APPLY_MOVE, Session};

const START: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

fn rules_registered() -> bool {
    oracle::engine::registered(APPLY_MOVE) && oracle::engine::registered(MOVE)
}

/// Runs the binary's `uci` command on `script` and returns its output lines.
fn uci_session(script: impl AsRef<[u8]>) -> Vec<String> {
    let out = binary::run(&["uci"], |_| {}, script.as_ref());
    assert!(
        out.status.success(),
        "exit {:?}, stderr {}",
        out.status,
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(
        out.stderr.is_empty(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(str::to_string)
        .collect()
}

fn fake_session() -> (Session, Arc<FakeEngine>) {
    let engine = Arc::new(FakeEngine::default());
    let shared = engine.clone();
    (
        Session::new(move |_| Box::new(Shared(shared.clone()))),
        engine,
    )
}

#[test]
fn a_gui_style_session_through_the_binary() {
    let out = uci_session(
        "uci\nisready\nsetoption name Executor value reference\nucinewgame\nisready\n\
         position startpos moves e2e4 e7e5 g1f3\ngo wtime 60000 btime 60000 winc 1000 binc 1000\n\
         position startpos moves e2e4 e7e5 g1f3 b8c6\ngo movetime 100\nquit\n\
         go depth 1\n",
    );
    let text = out.join("\n");
    assert_eq!(out[0], "id name regex-chess");
    assert!(out[1].starts_with("id author "));
    assert_eq!(
        out[2],
        "option name Executor type combo default fast var fast var reference"
    );
    assert_eq!(out[3], "uciok");
    assert_eq!(out.iter().filter(|l| *l == "readyok").count(), 2, "{text}");
    let best: Vec<&String> = out.iter().filter(|l| l.starts_with("bestmove ")).collect();
    // Two `go` before `quit`; the one after it is never read.
    assert_eq!(best.len(), 2, "{text}");
    for line in &out {
        assert!(
            ["id ", "option ", "uciok", "readyok", "info ", "bestmove "]
                .iter()
                .any(|p| line.starts_with(p)),
            "unexpected line {line:?}"
        );
    }
    if !rules_registered() {
        oracle::engine::skip("a_gui_style_session_through_the_binary (moves)", APPLY_MOVE);
        assert!(text.contains("info string error: "), "{text}");
        assert!(best.iter().all(|l| *l == "bestmove 0000"), "{text}");
        return;
    }
    let mut pos = judge::position(START);
    for mv in ["e2e4", "e7e5", "g1f3", "b8c6"] {
        if mv == "b8c6" {
            let first = best[0].strip_prefix("bestmove ").unwrap();
            assert!(
                judge::legal_uci(&pos).contains(&first.to_string()),
                "{text}"
            );
        }
        pos = judge::play(&pos, mv);
    }
    let second = best[1].strip_prefix("bestmove ").unwrap();
    assert!(
        judge::legal_uci(&pos).contains(&second.to_string()),
        "{text}"
    );
    assert!(out.iter().any(|l| l.starts_with("info depth 2 ")), "{text}");
}

/// `go` answers with the move the search contract defines (the oracle's search), on a
/// share of the playout positions: `position fen ...` then `go`, one session for all.
#[test]
fn go_picks_the_move_the_search_defines() {
    let samples = oracle::playouts::share(
        &oracle::playouts::positions(oracle::playouts::SEED, 400),
        24,
    );
    let mut script = String::from("uci\nisready\n");
    let mut expected = Vec::new();
    for sample in &samples {
        let pos = oracle::judge::position(&sample.fen);
        let best = oracle::search::best_move(&pos).map(|(uci, _)| uci);
        script.push_str(&format!("position fen {}\ngo\n", sample.fen));
        expected.push((
            sample.fen.clone(),
            best.unwrap_or_else(|| "0000".to_string()),
        ));
    }
    script.push_str("quit\n");
    let out = uci_session(script);
    let answers: Vec<&str> = out
        .iter()
        .filter_map(|l| l.strip_prefix("bestmove "))
        .map(|rest| rest.split_whitespace().next().unwrap_or(""))
        .collect();
    assert_eq!(answers.len(), expected.len(), "{out:?}");
    for ((fen, want), got) in expected.iter().zip(&answers) {
        assert_eq!(got, want, "bestmove for {fen}");
    }
}

#[test]
fn garbage_never_crashes_the_binary() {
    let mut script = Vec::new();
    script.extend_from_slice(b"\n\n   \nfoo bar\nposition\nposition fen\nposition fen x y z\n");
    script.extend_from_slice(b"position startpos moves e2e5\nposition startpos moves zz\n");
    script.extend_from_slice(b"setoption name\nsetoption value\ngo depth\ngo nodes -3 xyz\n");
    script.extend_from_slice(b"\xff\xfe\x00 binary\r\nisready\r\n");
    script.extend_from_slice(&[b'a'; 100_000]);
    script.extend_from_slice(b"\nstop\nisready");
    // The invalid bytes go to the binary as they are.
    assert!(std::str::from_utf8(&script).is_err());
    let out = uci_session(&script);
    let text = out.join("\n");
    assert_eq!(out.iter().filter(|l| *l == "readyok").count(), 2, "{text}");
    assert_eq!(out.iter().filter(|l| l.starts_with("bestmove ")).count(), 2);
    assert!(
        out.iter().all(|l| l.len() < 2000),
        "an answer quoted too much"
    );
}

#[test]
fn positions_and_moves_on_the_stand_in_engine() {
    let (mut s, engine) = fake_session();
    assert!(s.handle("position startpos moves e2e4 e7e5").is_empty());
    let after = "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq e6 0 2";
    assert_eq!(s.position().to_string(), after);
    assert_eq!(engine.applied.load(Ordering::SeqCst), 2);
    // The GUI repeats the game with one move more: only that move is applied.
    assert!(
        s.handle("position startpos moves e2e4 e7e5 g1f3")
            .is_empty()
    );
    assert_eq!(engine.applied.load(Ordering::SeqCst), 3);
    // An illegal move keeps the previous position and says why.
    let out = s.handle("position startpos moves e2e4 e7e5 g1f3 e8e6");
    assert_eq!(out.len(), 1);
    assert!(
        out[0].starts_with("info string position unchanged: the move e8e6 is illegal in "),
        "{out:?}"
    );
    assert_eq!(s.handle("position startpos").len(), 0);
    assert_eq!(s.position().to_string(), START);
    // A FEN with four fields, then moves from it.
    let out = s.handle("position fen 4k3/8/8/8/8/8/8/4K2R w K - moves e1g1");
    assert!(out.is_empty(), "{out:?}");
    assert_eq!(s.position().to_string(), "4k3/8/8/8/8/8/8/5RK1 b - - 1 1");
    // A bad FEN keeps it.
    let out = s.handle("position fen 4k3/8/8/8/8/8/8/4K2R w KQ - 0 1");
    assert!(
        out[0].starts_with("info string position unchanged: bad FEN"),
        "{out:?}"
    );
    assert_eq!(s.position().to_string(), "4k3/8/8/8/8/8/8/5RK1 b - - 1 1");
    s.handle("ucinewgame");
    assert_eq!(s.position().to_string(), START);
}

#[test]
fn go_reports_info_and_a_promotion_in_bestmove() {
    let (mut s, engine) = fake_session();
    s.handle("position fen 8/P6k/8/8/8/8/8/K7 w - - 0 1");
    let out = s.handle("go wtime 1000 btime 1000");
    assert_eq!(out.last().unwrap(), "bestmove a7a8q");
    let info = out.iter().find(|l| l.starts_with("info depth")).unwrap();
    assert!(info.starts_with("info depth 2 nodes 7 time "), "{info}");
    assert!(info.ends_with(" score cp -12"), "{info}");
    assert!(out[0].starts_with("info string fixed 2-ply search; not used: wtime 1000"));
    // Mated: no move.
    s.handle("position fen 7k/6Q1/6K1/8/8/8/8/8 b - - 0 1");
    let out = s.handle("go");
    assert_eq!(
        out,
        ["info string no legal move: checkmate", "bestmove 0000"]
    );
    assert_eq!(engine.thought.load(Ordering::SeqCst), 2);
}

/// Runs `tests/uci_driver.py` with `args`; `None` (after saying so) when python-chess is
/// not importable.
fn python_driver(test: &str, args: &[&str]) -> Option<String> {
    let importable = Command::new("python3")
        .args(["-c", "import chess, chess.engine"])
        .output()
        .map(|o| o.status.success())
        .unwrap_or(false);
    if !importable {
        oracle::engine::require_tool(test, "python-chess (pip install chess)");
        return None;
    }
    let out = Command::new("python3")
        .arg(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/uci_driver.py"))
        .arg(env!("CARGO_BIN_EXE_regex-chess"))
        .args(args)
        .output()
        .expect("python3 runs");
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "driver failed:\n{stdout}\n{stderr}");
    eprint!("{stdout}");
    Some(stdout)
}

/// A whole game through python-chess, played to its end (about 15 moves: the replies are
/// weak, so the engine mates quickly).
#[test]
fn a_python_chess_driver_plays_a_whole_game() {
    let Some(stdout) = python_driver("a_python_chess_driver_plays_a_whole_game", &["whole"]) else {
        return;
    };
    assert!(rules_registered(), "the chess rules are not registered");
    assert!(stdout.contains("RESULT"), "{stdout}");
}

#[test]
fn a_python_chess_driver_plays_through_the_binary() {
    let Some(stdout) = python_driver("a_python_chess_driver_plays_through_the_binary", &[]) else {
        return;
    };
    if rules_registered() {
        assert!(stdout.contains("PLAYED"), "{stdout}");
    } else {
        assert!(stdout.contains("SKIPPED game"), "{stdout}");
    }
}
