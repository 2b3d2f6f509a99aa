//! `regex-chess legal` and `regex-chess move` through the binary: output against the
//! oracle, and one-line errors with a non-zero exit for bad input.
//!
//! A test that needs the rules fails when its program is not registered.

#[path = "common/oracle/mod.rs"]
mod oracle;

use std::process::{Command, Output};

use oracle::{engine, judge, search};
use regex_chess::chess::runner::{LEGAL_MOVES, MOVE};

const START: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

fn regex_chess(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_regex-chess"))
        .args(args)
        .output()
        .expect("the binary runs")
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8(bytes.to_vec()).expect("UTF-8 output")
}

/// Asserts a failure with exactly one line on standard error, containing `message`.
fn assert_one_line_error(out: &Output, message: &str) {
    let stderr = text(&out.stderr);
    assert!(
        !out.status.success(),
        "expected a failure, stderr {stderr:?}"
    );
    assert!(out.stdout.is_empty(), "stdout {:?}", text(&out.stdout));
    assert_eq!(stderr.lines().count(), 1, "stderr {stderr:?}");
    assert!(
        stderr.starts_with("regex-chess: error: ") && stderr.contains(message),
        "stderr {stderr:?}, expected {message:?}"
    );
}

#[test]
fn bad_fens_are_one_line_errors_naming_the_field() {
    for (fen, message) in [
        (
            "rnbqkbnr/pppppppp/8/8/8/p8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            "bad FEN: rank 3 has 9 squares",
        ),
        (
            "rnbqkbnr/pppppppp/8/8 w KQkq - 0 1",
            "bad FEN: the board has 4 ranks",
        ),
        ("", "bad FEN: expected 6 fields"),
        ("not a fen", "bad FEN: the board has 1 ranks"),
        ("8/8/8/8/8/8/8/8 w - - 0 1 x", "bad FEN: expected 6 fields"),
        (
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR white KQkq - 0 1",
            "bad FEN: side to move is `white`",
        ),
        (
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq e9 0 1",
            "bad FEN: en passant field `e9`",
        ),
        (
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQ1BNR w kq - 0 1",
            "bad FEN: white has 0 kings",
        ),
        (
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 0",
            "bad FEN: fullmove number `0`",
        ),
    ] {
        for command in ["legal", "move"] {
            assert_one_line_error(&regex_chess(&[command, "--fen", fen]), message);
        }
    }
}

#[test]
fn a_missing_fen_or_an_unknown_executor_fails() {
    for args in [
        &["legal"][..],
        &["move"],
        &["legal", "--fen", START, "--executor", "slow"],
        &["move", "--fen", START, "--executor", "slow"],
    ] {
        let out = regex_chess(args);
        assert!(!out.status.success(), "{args:?}");
        assert!(out.stdout.is_empty(), "{args:?}");
    }
}

#[test]
fn legal_prints_the_rules_moves_sorted() {
    if !engine::registered(LEGAL_MOVES) {
        engine::skip("legal_prints_the_rules_moves_sorted", LEGAL_MOVES);
        let out = regex_chess(&["legal", "--fen", START]);
        return assert_one_line_error(&out, "the `legal-moves` program is not registered");
    }
    for fen in [
        START,
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
        "rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3",
    ] {
        let want: String = judge::legal_uci(&judge::position(fen))
            .iter()
            .map(|m| format!("{m}\n"))
            .collect();
        for executor in ["fast", "reference"] {
            let out = regex_chess(&["legal", "--fen", fen, "--executor", executor]);
            assert!(out.status.success(), "{fen}: {}", text(&out.stderr));
            assert_eq!(text(&out.stdout), want, "{fen} on {executor}");
        }
    }
}

#[test]
fn move_prints_the_move_the_fen_after_and_the_status() {
    if !engine::registered(MOVE) {
        engine::skip("move_prints_the_move_the_fen_after_and_the_status", MOVE);
        let out = regex_chess(&["move", "--fen", START]);
        return assert_one_line_error(&out, "the `move` program is not registered");
    }
    for fen in [START, "6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1"] {
        let pos = judge::position(fen);
        let (best, _) = search::best_move(&pos).unwrap();
        let after = judge::play(&pos, &best);
        let status = judge::allowed_statuses(&after)[0];
        let out = regex_chess(&["move", "--fen", fen]);
        assert!(out.status.success(), "{fen}: {}", text(&out.stderr));
        let stdout = text(&out.stdout);
        let head = format!("{best}\n{}\n{status}\n", judge::fen(&after));
        let report = stdout
            .strip_prefix(&head)
            .unwrap_or_else(|| panic!("{fen}: {stdout:?}"));
        let keys: Vec<&str> = report
            .lines()
            .map(|l| l.split(' ').next().unwrap())
            .collect();
        assert_eq!(keys, ["score", "depth", "nodes", "pv"], "{fen}: {report:?}");
        assert!(report.contains("\ndepth 2\n"), "{report:?}");
        assert!(report.contains(&format!("\npv {best}")), "{report:?}");
    }
    let out = regex_chess(&["move", "--fen", START, "--search", "2ply-q"]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert_eq!(text(&out.stdout).lines().count(), 7);
    let out = regex_chess(&["move", "--fen", START, "--search", "9ply"]);
    assert_one_line_error(
        &out,
        "unknown search `9ply`; known: 2ply, 2ply-q, 2ply-qe, 3ply-qe",
    );
    let mated = "rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3";
    let out = regex_chess(&["move", "--fen", mated]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert_eq!(text(&out.stdout), "none\ncheckmate\n");
}
