//! `regex-chess legal` and `regex-chess move` through the binary: output against the
//! oracle, and one-line errors with a non-zero exit for bad input.
//!
//! A test that needs the rules fails when its program is not registered.

use regex_chess_testkit::oracle;

use std::process::{Command, Output};

use oracle::{engine, judge, search};
use regex_chess_engine::runner::{LEGAL_MOVES, MOVE};

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
        &format!(
            "unknown search `9ply`; known: {}",
            regex_chess_engine::Search::names().join(", ")
        ),
    );
    let mated = "rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3";
    let out = regex_chess(&["move", "--fen", mated]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert_eq!(text(&out.stdout), "none\ncheckmate\n");
}

/// Runs the binary with `input` on standard input.
fn regex_chess_with_input(args: &[&str], input: &str) -> Output {
    use std::io::Write;
    use std::process::Stdio;
    let mut child = Command::new(env!("CARGO_BIN_EXE_regex-chess"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary runs");
    child
        .stdin
        .take()
        .unwrap()
        .write_all(input.as_bytes())
        .unwrap();
    child.wait_with_output().unwrap()
}

/// A PGN's words without the times of its move comments (`{+0.50/2 1.142s}` keeps
/// `{+0.50/2 }`), so that games played at different speeds compare; line breaks count
/// as spaces (a time's length moves them).
fn timeless_pgn(pgn: &str) -> String {
    pgn.split_whitespace()
        .map(|word| {
            let bare = word.trim_end_matches(['}', ',']);
            let is_time = bare
                .strip_suffix('s')
                .is_some_and(|n| n.parse::<f64>().is_ok());
            if is_time { &word[bare.len()..] } else { word }
        })
        .collect::<Vec<_>>()
        .join(" ")
}

/// The UCI lines that do not depend on time: `info` lines without their `time` and
/// `nps` fields, and the rest as they are.
fn timeless(uci: &str) -> Vec<String> {
    uci.lines()
        .map(|line| {
            let mut words = line.split(' ').peekable();
            let mut kept = Vec::new();
            while let Some(word) = words.next() {
                if line.starts_with("info ") && (word == "time" || word == "nps") {
                    words.next();
                } else {
                    kept.push(word);
                }
            }
            kept.join(" ")
        })
        .collect()
}

/// `--cores 2` (and UCI's `Threads`) change how the fast executor runs local rules on
/// large states, never what the rules answer: `move` (on a position whose states are
/// cut, for each search), `play`, `match` and `uci` print the same on one core and two.
#[test]
fn two_cores_answer_as_one() {
    if !engine::registered(MOVE) {
        return engine::skip("two_cores_answer_as_one", MOVE);
    }
    // Kiwipete after white castles: the widest states of the bench suite's middlegames.
    let fen = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R4RK1 b kq - 1 1";
    let on = |cores: &str, args: &[&str], input: Option<&str>| {
        let args: Vec<&str> = args.iter().copied().chain(["--cores", cores]).collect();
        let out = match input {
            Some(input) => regex_chess_with_input(&args, input),
            None => regex_chess(&args),
        };
        assert!(out.status.success(), "{args:?}: {}", text(&out.stderr));
        text(&out.stdout)
    };
    for search in ["2ply", "2ply-q"] {
        let args = ["move", "--fen", fen, "--search", search];
        let one = on("1", &args, None);
        assert_eq!(one.lines().count(), 7, "{one:?}");
        assert_eq!(on("2", &args, None), one, "{search}");
    }
    let play = [
        "play",
        "--search",
        "2ply-see",
        "--fen",
        fen,
        "--engine-color",
        "white",
    ];
    let one = on("1", &play, Some("Kd8\nO-O-O\nquit\n"));
    assert!(one.contains("White plays"), "{one:?}");
    assert_eq!(on("2", &play, Some("Kd8\nO-O-O\nquit\n")), one);
    let dir = std::env::temp_dir().join(format!("regex-chess-cores-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let pgn = |cores: &str| {
        let file = dir.join(format!("cores-{cores}.pgn"));
        let file_arg = file.to_str().unwrap();
        let args = [
            "match",
            "--search",
            "2ply-see",
            "--opponent",
            "random",
            "--games",
            "2",
            "--max-plies",
            "6",
            "--pgn",
            file_arg,
        ];
        on(cores, &args, None);
        timeless_pgn(&std::fs::read_to_string(&file).unwrap())
    };
    let one = pgn("1");
    assert!(one.contains("[PlyCount \"6\"]"), "{one}");
    assert!(
        one.contains("/2 }"),
        "the engine's moves carry their scores: {one}"
    );
    assert_eq!(pgn("2"), one);
    std::fs::remove_dir_all(&dir).unwrap();
    let uci = |threads: &str| {
        let input = format!(
            "setoption name Threads value {threads}\nposition fen {fen}\ngo depth 2\nquit\n"
        );
        let out = regex_chess_with_input(&["uci"], &input);
        assert!(out.status.success(), "{}", text(&out.stderr));
        timeless(&text(&out.stdout))
    };
    let one = uci("1");
    assert!(one.iter().any(|l| l.starts_with("bestmove ")), "{one:?}");
    assert_eq!(uci("2"), one);
}
