//! `regex-chess bench` as OpenBench's client reads it: the client runs `./ENGINE bench`
//! with standard error merged into standard output, turns every character that is not a
//! letter, a digit or a space into a space, and looks from the last line up for the
//! first match of each of its two patterns (the node count and the speed). Its runs must
//! agree on the node count, or it refuses the engine as non-deterministic.
//!
//! Here the two patterns are OpenBench's, the stream is merged the same way, and the
//! count must be the same over runs on either executor (the rules decide the nodes, not
//! the machine).

use std::io::Read;
use std::process::{Command, Stdio};

use regex::Regex;

/// Two bench positions (the start and a pawn ending), to keep a debug build quick.
const POSITIONS: &str = "\
rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1;e2e4;opening: start
8/8/4k3/8/2K5/8/3P4/8 w - - 0 1;d2d4;endgame: king and pawn
";

/// Runs `bench ARGS` with standard error into the same pipe as standard output, as
/// OpenBench does, and returns the merged stream.
fn merged_bench(dir: &std::path::Path, args: &[&str]) -> String {
    let (mut reader, writer) = std::io::pipe().expect("a pipe");
    let mut child = Command::new(env!("CARGO_BIN_EXE_regex-chess"))
        .arg("bench")
        .args(args)
        .current_dir(dir)
        .env("REGEX_CHESS_CACHE", dir.join("cache"))
        .stdin(Stdio::null())
        .stdout(writer.try_clone().expect("a second writer"))
        .stderr(writer)
        .spawn()
        .expect("the binary runs");
    let mut bytes = Vec::new();
    reader.read_to_end(&mut bytes).expect("the stream reads");
    let status = child.wait().expect("the bench ends");
    let text = String::from_utf8(bytes).expect("ASCII output");
    assert!(status.success(), "bench {args:?} failed:\n{text}");
    text
}

/// The node count and the speed, found as OpenBench's client finds them.
fn openbench_parse(stream: &str) -> (Option<u64>, Option<u64>) {
    assert!(
        stream.is_ascii(),
        "OpenBench decodes the stream as ASCII:\n{stream}"
    );
    let punctuation = Regex::new(r"[^a-zA-Z0-9 ]+").unwrap();
    let nps_pattern = Regex::new(r"(?i)(\d+\s+nps)|(nps\s+\d+)|(nodes second\s+\d+)").unwrap();
    let bench_pattern =
        Regex::new(r"(?i)(\d+\s+nodes)|(nodes\s+\d+)|(nodes searched\s+\d+)").unwrap();
    let digits = Regex::new(r"\d+").unwrap();
    let number = |found: &str| digits.find(found).unwrap().as_str().parse::<u64>().unwrap();
    let (mut nps, mut bench) = (None, None);
    for line in stream.trim().split('\n').rev() {
        let line = punctuation.replace_all(line, " ");
        if nps.is_none() {
            nps = nps_pattern.find(&line).map(|m| number(m.as_str()));
        }
        if bench.is_none() {
            bench = bench_pattern.find(&line).map(|m| number(m.as_str()));
        }
    }
    (bench, nps)
}

#[test]
fn bench_ends_with_a_node_count_that_openbench_reads_and_that_never_changes() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("bench.txt"), POSITIONS).unwrap();
    let common = ["--positions", "bench.txt", "--runs", "1"];
    let mut counts = Vec::new();
    for executor in ["fast", "reference", "fast"] {
        let stream = merged_bench(
            dir.path(),
            &[&common[..], &["--executor", executor]].concat(),
        );
        // The two lines themselves, last in the output.
        let tail: Vec<&str> = stream.trim_end().lines().rev().take(2).collect();
        assert!(tail[1].starts_with("Nodes searched: "), "{stream}");
        assert!(tail[0].starts_with("Nodes/second: "), "{stream}");
        let (bench, nps) = openbench_parse(&stream);
        let (bench, nps) = (bench.expect("a node count"), nps.expect("a speed"));
        assert_eq!(tail[1], format!("Nodes searched: {bench}"));
        assert_eq!(tail[0], format!("Nodes/second: {nps}"));
        assert!(bench > 0 && nps > 0, "{stream}");
        counts.push(bench);
    }
    assert!(
        counts.iter().all(|&n| n == counts[0]),
        "node counts differ between runs and executors: {counts:?}"
    );
}

#[test]
fn the_parse_is_openbench_s() {
    // Stockfish's and Ethereal's closing lines read the same way.
    let stockfish = "Total time (ms) : 2000\nNodes searched  : 1234567\nNodes/second    : 617283\n";
    assert_eq!(openbench_parse(stockfish), (Some(1234567), Some(617283)));
    let ethereal = "OVERALL: 14 nodes 7 nps\n";
    assert_eq!(openbench_parse(ethereal), (Some(14), Some(7)));
    // The last match wins, read from the bottom up.
    assert_eq!(
        openbench_parse("Nodes searched: 1\nNodes searched: 2\n"),
        (Some(2), None)
    );
}

#[test]
fn the_binary_alone_speaks_uci_to_a_pipe() {
    // cutechess-cli and fastchess start an engine by its path, with no argument.
    let dir = tempfile::tempdir().unwrap();
    let mut child = Command::new(env!("CARGO_BIN_EXE_regex-chess"))
        .env("REGEX_CHESS_CACHE", dir.path())
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("the binary runs");
    std::io::Write::write_all(child.stdin.as_mut().unwrap(), b"uci\nquit\n").unwrap();
    let out = child.wait_with_output().unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{stdout}");
    assert!(stdout.lines().any(|l| l == "uciok"), "{stdout}");
}
