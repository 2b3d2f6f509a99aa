//! The command line as a newcomer meets it: commands that need the position suites run
//! from an empty directory, `profile` explains its flags and checks its FEN, and a closed
//! pipe ends a command quietly.

use std::io::Read;
use std::process::{Command, Output, Stdio};

const START: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

/// Runs the binary in `dir` (an empty temporary directory unless given).
fn regex_chess_in(dir: &std::path::Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_regex-chess"))
        .args(args)
        .current_dir(dir)
        .output()
        .expect("the binary runs")
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

#[test]
fn bench_runs_from_an_empty_directory_with_the_built_in_suite() {
    let empty = tempfile::tempdir().unwrap();
    let out = regex_chess_in(
        empty.path(),
        &[
            "bench",
            "--program",
            "legal-moves",
            "--executor",
            "fast",
            "--runs",
            "1",
            "--no-child-processes",
        ],
    );
    let stdout = text(&out.stdout);
    assert!(out.status.success(), "stderr {}", text(&out.stderr));
    assert!(stdout.contains("the built-in bench suite"), "{stdout}");
    // Every label of the repository's suite is a row of the table.
    let suite = std::fs::read_to_string(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("data/positions/bench.txt"),
    )
    .unwrap();
    let labels: Vec<&str> = suite
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(|l| l.rsplit(';').next().unwrap())
        .collect();
    assert_eq!(labels.len(), 8);
    for label in labels {
        assert!(stdout.contains(label), "no row for {label:?} in {stdout}");
    }
    assert_eq!(
        std::fs::read_dir(empty.path()).unwrap().count(),
        0,
        "bench wrote files"
    );
}

#[test]
fn match_runs_from_an_empty_directory_with_the_built_in_openings() {
    let empty = tempfile::tempdir().unwrap();
    let out = regex_chess_in(
        empty.path(),
        &[
            "match",
            "--search",
            "2ply-see",
            "--opponent",
            "random",
            "--games",
            "2",
            "--max-plies",
            "40",
        ],
    );
    let stdout = text(&out.stdout);
    assert!(out.status.success(), "stderr {}", text(&out.stderr));
    assert!(stdout.contains("engine forfeits: 0"), "{stdout}");
}

#[test]
fn a_missing_suite_file_is_named() {
    let empty = tempfile::tempdir().unwrap();
    let out = regex_chess_in(empty.path(), &["match", "--openings-file", "nowhere.txt"]);
    assert!(!out.status.success());
    let stderr = text(&out.stderr);
    assert!(stderr.contains("cannot read nowhere.txt"), "{stderr}");
    let out = regex_chess_in(empty.path(), &["bench", "--positions", "nowhere.txt"]);
    assert!(!out.status.success());
    assert!(text(&out.stderr).contains("cannot read nowhere.txt"));
}

#[test]
fn profile_checks_its_fen_and_names_the_move_flag() {
    let dir = std::env::temp_dir();
    let out = regex_chess_in(&dir, &["profile", "--fen", "not a fen"]);
    assert!(!out.status.success());
    let stderr = text(&out.stderr);
    assert!(stderr.contains("bad FEN"), "{stderr}");
    assert_eq!(stderr.lines().count(), 1, "{stderr}");

    let out = regex_chess_in(&dir, &["profile", "--program", "play", "--fen", START]);
    assert!(!out.status.success());
    let stderr = text(&out.stderr);
    assert!(stderr.contains("--move"), "{stderr}");
}

#[test]
fn profile_reports_a_run_by_origin() {
    let dir = std::env::temp_dir();
    let out = regex_chess_in(
        &dir,
        &[
            "profile",
            "--program",
            "legal-moves",
            "--fen",
            START,
            "--top",
            "3",
        ],
    );
    assert!(out.status.success(), "stderr {}", text(&out.stderr));
    let stdout = text(&out.stdout);
    assert!(
        stdout.starts_with("legal-moves on the fast executor: "),
        "{stdout}"
    );
    assert!(stdout.contains(" ms, peak state "), "{stdout}");
}

#[cfg(unix)]
#[test]
fn a_closed_pipe_ends_the_command_quietly() {
    use std::os::unix::process::ExitStatusExt;
    let mut child = Command::new(env!("CARGO_BIN_EXE_regex-chess"))
        // Quiet: its progress lines are not what this test looks for.
        .args(["compile", "--program", "play", "--ir", "--quiet"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdout = child.stdout.take().unwrap();
    let mut first = [0u8; 16];
    stdout.read_exact(&mut first).unwrap();
    drop(stdout);
    let out = child.wait_with_output().unwrap();
    assert_eq!(text(&out.stderr), "", "a closed pipe printed an error");
    assert!(
        out.status.success() || out.status.signal() == Some(libc::SIGPIPE),
        "status {:?}",
        out.status
    );
}

#[test]
fn a_long_typed_line_is_echoed_clipped() {
    let mut child = Command::new(env!("CARGO_BIN_EXE_regex-chess"))
        .args(["play", "--search", "2ply-see"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    {
        use std::io::Write;
        let mut stdin = child.stdin.take().unwrap();
        writeln!(stdin, "{}", "z".repeat(5000)).unwrap();
        writeln!(stdin, "quit").unwrap();
    }
    let out = child.wait_with_output().unwrap();
    assert!(out.status.success(), "stderr {}", text(&out.stderr));
    let stdout = text(&out.stdout);
    let echo = stdout
        .lines()
        .find(|line| line.contains("zzzz"))
        .expect("the rules' message echoes the line");
    assert!(echo.contains("zzz..."), "{echo}");
    assert!(echo.len() < 160, "an echo of {} bytes: {echo}", echo.len());
}
