//! `regex-chess banqi` from outside: bench's OpenBench lines, perft of the start, a UCI
//! session over pipes, a match against this very binary as an external UCI engine
//! (`--opponent "uci:PATH banqi uci"`) with no fault, and clear refusals.

use std::io::Write;
use std::process::{Command, Stdio};

fn regex_chess(args: &[&str]) -> (bool, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_regex-chess"))
        .args(args)
        .output()
        .unwrap();
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn banqi_bench_prints_the_openbench_lines() {
    let (ok, out, _) = regex_chess(&["banqi", "bench", "--nodes", "2000"]);
    assert!(ok);
    assert!(out.contains("Nodes searched: 16000\n"), "{out}");
    assert!(
        out.lines().last().unwrap().starts_with("Nodes/second: "),
        "{out}"
    );
}

#[test]
fn banqi_perft_counts_the_start() {
    let (ok, out, _) = regex_chess(&["banqi", "perft", "--depth", "2"]);
    assert!(ok);
    assert!(out.ends_with("perft(2) = 192448\n"), "{out}");
}

#[test]
fn banqi_uci_answers_over_pipes() {
    let mut child = Command::new(env!("CARGO_BIN_EXE_regex-chess"))
        .args(["banqi", "uci"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(b"uci\nisready\nposition fen 8/1g6/1S6/8 r - 0 9\ngo nodes 1000\nquit\n")
        .unwrap();
    let out = child.wait_with_output().unwrap();
    let out = String::from_utf8(out.stdout).unwrap();
    assert!(out.contains("uciok\nreadyok\n"), "{out}");
    assert!(out.ends_with("bestmove b1b2\n"), "{out}");
}

#[test]
fn banqi_match_against_itself_over_uci_has_no_fault() {
    let opponent = format!("uci:{} banqi uci", env!("CARGO_BIN_EXE_regex-chess"));
    let (ok, out, err) = regex_chess(&[
        "--quiet",
        "banqi",
        "match",
        "--opponent",
        &opponent,
        "--deals",
        "1",
        "--nodes",
        "500",
        "--opponent-movetime",
        "5",
    ]);
    assert!(ok, "{err}");
    assert!(out.contains(": 2 games"), "{out}");
    assert!(
        out.contains("illegal moves: engine 0, opponent 0; crashes: engine 0, opponent 0"),
        "{out}"
    );
}

#[test]
fn banqi_refuses_bad_arguments_clearly() {
    let (ok, _, err) = regex_chess(&["banqi", "match", "--opponent", "stockfish"]);
    assert!(!ok && err.contains("--opponent stockfish"), "{err}");
    let (ok, _, err) = regex_chess(&["banqi", "perft", "--fen", "8/8 r - 0 1"]);
    assert!(!ok && err.contains("4 ranks"), "{err}");
    let (ok, _, err) = regex_chess(&["banqi", "match", "--without", "luck"]);
    assert!(!ok && err.contains("--without luck"), "{err}");
}
