//! The UCI protocol: scripted sessions through the binary, GUI-style, and a python-chess
//! driver; and the session state machine on a test-only stand-in engine, which shows what
//! the protocol does with moves before the chess rules exist.
//!
//! Through the binary the engine is always the rules: until the `apply-move` and `move`
//! programs are registered, the session must answer every command anyway, with the errors
//! as `info string` lines and `bestmove 0000`.

use regex_chess_testkit::fake_engine;
use regex_chess_testkit::oracle;

use oracle::variants::{VARIANT_FENS, best_move as oracle_move};

use regex_chess_testkit::binary;
use std::process::Command;
use std::sync::Arc;
use std::sync::atomic::Ordering;

use fake_engine::{FakeEngine, Shared};
use oracle::judge;
use regex_chess_engine::runner::MOVE;
use regex_chess_engine::uci::{APPLY_MOVE, Session};
use shakmaty::Position;

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
    assert_eq!(
        out[6],
        "option name MultiPV type spin default 1 min 1 max 5"
    );
    assert!(out[8].starts_with("option name Search type combo default auto "));
    assert_eq!(out[9], "uciok");
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
            let first = best[0].split_whitespace().nth(1).unwrap();
            assert!(
                judge::legal_uci(&pos).contains(&first.to_string()),
                "{text}"
            );
        }
        pos = judge::play(&pos, mv);
    }
    let second = best[1].split_whitespace().nth(1).unwrap();
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
    for sample in &samples {
        script.push_str(&format!("position fen {}\ngo\n", sample.fen));
    }
    script.push_str("quit\n");
    let out = uci_session(script);
    // Each `go` says which variant it searched with, then answers; the answer must be the
    // move that variant's contract defines.
    let mut chosen = Vec::new();
    let mut answers = Vec::new();
    for line in &out {
        if let Some(at) = line.find("variant ") {
            let name = line[at + "variant ".len()..]
                .split_whitespace()
                .next()
                .unwrap();
            chosen.push(name.to_string());
        }
        if let Some(rest) = line.strip_prefix("bestmove ") {
            answers.push(rest.split_whitespace().next().unwrap_or("").to_string());
        }
    }
    assert_eq!(answers.len(), samples.len(), "{out:?}");
    assert_eq!(chosen.len(), samples.len(), "{out:?}");
    for ((sample, name), got) in samples.iter().zip(&chosen).zip(&answers) {
        let pos = oracle::judge::position(&sample.fen);
        let want = oracle::variants::search(oracle::variants::Spec::of(name), &pos)
            .map_or_else(|| "(none)".to_string(), |s| s.best);
        assert_eq!(got, &want, "bestmove of {name} for {}", sample.fen);
    }
}

/// `uci --search NAME` plays that variant's move whatever the limits (a depth, a move
/// time, none), and the `Search` option switches it within a session.
#[test]
fn uci_search_fixes_the_variant_through_the_binary() {
    let names: Vec<&str> = regex_chess_engine::Search::names();
    oracle::variants::assert_they_tell_variants_apart(&names);
    let limits = [
        "go depth 1",
        "go movetime 1",
        "go",
        "go wtime 60000 btime 60000",
    ];
    for name in &names {
        let mut script = String::from("uci\nisready\n");
        for (fen, go) in VARIANT_FENS.iter().zip(limits) {
            script.push_str(&format!("position fen {fen}\n{go}\n"));
        }
        script.push_str("quit\n");
        let out = binary::run(&["uci", "--search", name], |_| {}, script.as_bytes());
        assert!(out.status.success(), "{out:?}");
        let lines: Vec<String> = String::from_utf8(out.stdout)
            .unwrap()
            .lines()
            .map(str::to_string)
            .collect();
        let option = format!("option name Search type combo default {name} var auto");
        assert!(lines.iter().any(|l| l.starts_with(&option)), "{lines:?}");
        let said = format!("info string option Search: variant {name}");
        assert_eq!(
            lines.iter().filter(|l| **l == said).count(),
            limits.len(),
            "{lines:?}"
        );
        let answers = bestmoves(&lines);
        let want: Vec<String> = VARIANT_FENS.iter().map(|f| oracle_move(name, f)).collect();
        assert_eq!(answers, want, "uci --search {name}");
    }
    // The option within a session: a variant, then `auto` again.
    let (fen, other) = (VARIANT_FENS[1], "2ply-qe");
    let script = format!(
        "setoption name Search value {other}\nposition fen {fen}\ngo\n\
         setoption name Search value auto\ngo depth 2\nquit\n"
    );
    let out = binary::run(&["uci", "--search", "2ply-q"], |_| {}, script.as_bytes());
    let lines: Vec<String> = String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(str::to_string)
        .collect();
    assert!(
        lines.contains(&format!("info string option Search: variant {other}")),
        "{lines:?}"
    );
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("info string depth 2: variant ")),
        "{lines:?}"
    );
    assert_eq!(bestmoves(&lines)[0], oracle_move(other, fen));
}

#[test]
fn uci_with_an_unknown_search_is_an_error_naming_the_known_ones() {
    let out = binary::run(&["uci", "--search", "deep"], |_| {}, b"uci\n");
    assert!(!out.status.success());
    assert!(out.stdout.is_empty(), "{out:?}");
    assert_eq!(
        String::from_utf8(out.stderr).unwrap(),
        format!(
            "regex-chess: error: unknown search `deep`; known: {}\n",
            regex_chess_engine::Search::names().join(", ")
        )
    );
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
    assert_eq!(s.position().unwrap().to_string(), after);
    assert_eq!(engine.applied.load(Ordering::SeqCst), 2);
    // The GUI repeats the game with one move more: only that move is applied.
    assert!(
        s.handle("position startpos moves e2e4 e7e5 g1f3")
            .is_empty()
    );
    assert_eq!(engine.applied.load(Ordering::SeqCst), 3);
    // An illegal move keeps the legal prefix and says so once.
    let out = s.handle("position startpos moves e2e4 e7e5 g1f3 e8e6 b8c6");
    assert_eq!(out.len(), 1);
    assert!(
        out[0].starts_with(
            "info string position: kept the first 3 of 5 moves: the move e8e6 is illegal in "
        ),
        "{out:?}"
    );
    let after3 = "rnbqkbnr/pppp1ppp/8/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 1 2";
    assert_eq!(s.position().unwrap().to_string(), after3);
    assert_eq!(s.handle("position startpos").len(), 0);
    assert_eq!(s.position().unwrap().to_string(), START);
    // A FEN with four fields, then moves from it.
    let out = s.handle("position fen 4k3/8/8/8/8/8/8/4K2R w K - moves e1g1");
    assert!(out.is_empty(), "{out:?}");
    assert_eq!(
        s.position().unwrap().to_string(),
        "4k3/8/8/8/8/8/8/5RK1 b - - 1 1"
    );
    // A bad FEN leaves no position.
    let out = s.handle("position fen 4k3/8/8/8/8/8/8/4K2R w KQ - 0 1");
    assert!(
        out[0].starts_with("info string position refused, no position is set"),
        "{out:?}"
    );
    assert!(out[0].contains("bad FEN"), "{out:?}");
    assert_eq!(s.position(), None);
    s.handle("ucinewgame");
    assert_eq!(s.position().unwrap().to_string(), START);
}

#[test]
fn go_reports_the_search_and_a_ponder_move() {
    let (mut s, engine) = fake_session();
    s.handle("position fen 8/P6k/8/8/8/8/8/K7 w - - 0 1");
    let out = s.handle("go wtime 1000 btime 1000");
    assert!(out[0].starts_with("info string budget "), "{out:?}");
    let info = out.iter().find(|l| l.starts_with("info depth")).unwrap();
    assert!(
        info.starts_with("info depth 2 score cp -12 nodes 7 nps "),
        "{info}"
    );
    assert!(info.ends_with(" pv a7a8q h7h6"), "{info}");
    assert_eq!(out.last().unwrap(), "bestmove a7a8q ponder h7h6");
    // Mated: no move.
    s.handle("position fen 7k/6Q1/6K1/8/8/8/8/8 b - - 0 1");
    let out = s.handle("go");
    assert_eq!(
        out[1..],
        [
            "info depth 0 score mate 0",
            "info string no legal move: checkmate",
            "bestmove (none)"
        ]
    );
    // Stalemated.
    s.handle("position fen 7k/5Q2/6K1/8/8/8/8/8 b - - 0 1");
    let out = s.handle("go movetime 50");
    assert_eq!(out[out.len() - 3], "info depth 0 score cp 0");
    assert_eq!(out.last().unwrap(), "bestmove (none)");
    // The stand-in costs nothing, so the last budget is ample: the clock's choice (the
    // strongest variant it may choose), then a stronger variant kept from the clock when
    // the registry has one (four searches in all), else that choice alone (three).
    let order = regex_chess_engine::uci::clock::strength_order();
    let chosen = order.iter().rposition(|v| v.by_clock()).unwrap();
    let deeper = order[chosen..].iter().any(|v| !v.by_clock());
    assert_eq!(out[0].ends_with("until the budget ends"), deeper, "{out:?}");
    assert_eq!(
        engine.thought.load(Ordering::SeqCst),
        3 + usize::from(deeper)
    );
}

#[test]
fn perft_on_the_stand_in_engine_lists_each_move() {
    let (mut s, _) = fake_session();
    let out = s.handle("go perft 2");
    assert_eq!(out.len(), 20 + 3, "{out:?}");
    assert_eq!(out[0], "a2a3: 20");
    assert_eq!(out[21], "Nodes searched: 400");
    assert!(out.iter().all(|l| !l.starts_with("bestmove")));
}

/// The moves of the `bestmove` lines, in order (`(none)` included).
fn bestmoves(out: &[String]) -> Vec<String> {
    out.iter()
        .filter_map(|l| l.strip_prefix("bestmove "))
        .map(|rest| rest.split(' ').next().unwrap_or("").to_string())
        .collect()
}

/// Asserts `mv` is legal in `fen`, by shakmaty.
fn assert_legal(fen: &str, mv: &str, text: &str) {
    let pos = judge::position(fen);
    assert!(
        judge::legal_uci(&pos).contains(&mv.to_string()),
        "{mv} is not legal in {fen}:\n{text}"
    );
}

/// True (after saying so) when the rules are missing and a test through the binary
/// cannot check moves.
fn skipped(test: &str) -> bool {
    if rules_registered() {
        return false;
    }
    oracle::engine::skip(test, APPLY_MOVE);
    true
}

#[test]
fn a_bad_move_keeps_the_legal_prefix_through_the_binary() {
    if skipped("a_bad_move_keeps_the_legal_prefix_through_the_binary") {
        return;
    }
    for (moves, kept, why) in [
        ("e2e4 e7e5 e1e3 g1f3", 2, "the move e1e3 is illegal"),
        ("e2e4 e7e5 zz g1f3", 2, "`zz` is not a move"),
        ("e2e4 e7e5 e7e5", 2, "the move e7e5 is illegal"),
        ("e2e5", 0, "the move e2e5 is illegal"),
        (
            "e2e4 e7e5 g1f3 b8c6 f1b5 a7a6 e1h1",
            6,
            "the move e1h1 is illegal",
        ),
    ] {
        let out = uci_session(format!(
            "position startpos moves {moves}\ngo movetime 100\n"
        ));
        let text = out.join("\n");
        let notes: Vec<&String> = out
            .iter()
            .filter(|l| l.starts_with("info string position:"))
            .collect();
        assert_eq!(notes.len(), 1, "{text}");
        let total = moves.split(' ').count();
        assert!(
            notes[0].starts_with(&format!(
                "info string position: kept the first {kept} of {total} moves: {why}"
            )),
            "{text}"
        );
        let mut pos = judge::position(START);
        for mv in moves.split(' ').take(kept) {
            pos = judge::play(&pos, mv);
        }
        let best = bestmoves(&out);
        assert_eq!(best.len(), 1, "{text}");
        assert_legal(&judge::fen(&pos), &best[0], &text);
    }
}

/// FENs no game reaches, with the error the validator gives.
const IMPOSSIBLE: [(&str, &str); 6] = [
    (
        "QQQQkQQQ/QQQQQQQQ/8/8/8/8/8/Q3K3 b - - 0 1",
        "white has 17 pieces",
    ),
    ("4k3/8/8/8/P7/PPPPPPPP/8/4K3 w - - 0 1", "white has 9 pawns"),
    (
        "4k3/8/8/8/8/8/PPPPPPPP/QQ2K3 w - - 0 1",
        "white has 1 promoted pieces",
    ),
    (
        "4k3/8/8/8/8/8/8/4R1K1 w - - 0 1",
        "black is in check but it is not black's move",
    ),
    (
        "4k3/8/8/8/8/8/8/4K3 w - - 0 4294967295",
        "fullmove number `4294967295`",
    ),
    (
        "4k3/8/8/8/8/8/8/4K3 w - - 20001 200",
        "halfmove clock `20001`",
    ),
];

#[test]
fn a_refused_fen_leaves_no_position_through_the_binary() {
    for (fen, why) in IMPOSSIBLE {
        let out = uci_session(format!(
            "position startpos moves e2e4\nposition fen {fen}\ngo movetime 100\n\
             position fen {fen} moves e1e2\ngo infinite\nstop\nposition startpos\ngo depth 1\n"
        ));
        let text = out.join("\n");
        let refusals = out
            .iter()
            .filter(|l| {
                l.starts_with("info string position refused, no position is set") && l.contains(why)
            })
            .count();
        assert_eq!(refusals, 2, "{text}");
        let best = bestmoves(&out);
        assert_eq!(best.len(), 3, "{text}");
        assert_eq!(best[..2], ["(none)", "(none)"], "{text}");
        if rules_registered() {
            assert_legal(START, &best[2], &text);
        }
        // The commands that take a FEN refuse it alike.
        for command in ["legal", "move"] {
            let out = binary::run(&[command, "--fen", fen], |_| {}, b"");
            let stderr = String::from_utf8_lossy(&out.stderr);
            assert!(!out.status.success(), "{command} {fen}");
            assert!(stderr.contains(why), "{command} {fen}: {stderr}");
        }
    }
}

#[test]
fn short_and_x_fen_positions_are_played_through_the_binary() {
    if skipped("short_and_x_fen_positions_are_played_through_the_binary") {
        return;
    }
    for (given, full) in [
        (
            "r3k2r/8/8/8/8/8/8/R3K2R w HAha -",
            "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1",
        ),
        (
            "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b",
            "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b - - 0 1",
        ),
    ] {
        let out = uci_session(format!("position fen {given}\ngo movetime 100\n"));
        let text = out.join("\n");
        assert!(!text.contains("info string position"), "{text}");
        let best = bestmoves(&out);
        assert_eq!(best.len(), 1, "{text}");
        assert_legal(full, &best[0], &text);
    }
}

/// A game past FIDE's 75-move rule (GUIs that do not apply it send one): every move of
/// the list is kept, the clock counts on past 150, and `go` answers a legal move without
/// an error, before and after the clock passes 150.
#[test]
fn a_game_past_the_75_move_rule_goes_on_through_the_binary() {
    if skipped("a_game_past_the_75_move_rule_goes_on_through_the_binary") {
        return;
    }
    let fen = "4k3/8/8/8/8/8/8/4K2R w - - 148 80";
    let shuffle = ["e1d1", "e8d8", "d1e1", "d8e8"];
    for plies in [2, 3, 8] {
        let moves: Vec<&str> = shuffle.iter().copied().cycle().take(plies).collect();
        let out = uci_session(format!(
            "position fen {fen} moves {}\ngo depth 1\n",
            moves.join(" ")
        ));
        let text = out.join("\n");
        assert!(
            !out.iter()
                .any(|l| l.contains("error") || l.contains("kept")),
            "{text}"
        );
        let mut pos = judge::position(fen);
        for mv in &moves {
            pos = judge::play(&pos, mv);
        }
        let best = bestmoves(&out);
        assert_eq!(best.len(), 1, "{text}");
        assert_legal(&judge::fen(&pos), &best[0], &text);
    }
}

#[test]
fn no_legal_move_is_bestmove_none_through_the_binary() {
    if skipped("no_legal_move_is_bestmove_none_through_the_binary") {
        return;
    }
    for (fen, score) in [
        ("7k/6Q1/6K1/8/8/8/8/8 b - - 0 1", "mate 0"),
        ("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1", "cp 0"),
        (
            "rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3",
            "mate 0",
        ),
    ] {
        let out = uci_session(format!("position fen {fen}\ngo wtime 1000 btime 1000\n"));
        let text = out.join("\n");
        let n = out.len();
        assert_eq!(out[n - 1], "bestmove (none)", "{text}");
        assert_eq!(out[n - 3], format!("info depth 0 score {score}"), "{text}");
    }
}

#[test]
fn a_held_search_answers_once_for_its_position_through_the_binary() {
    if skipped("a_held_search_answers_once_for_its_position_through_the_binary") {
        return;
    }
    let black = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1";
    let go_black = format!("position fen {black}\n");
    for (script, fens) in [
        (
            format!("{go_black}go infinite\nposition startpos\nstop\n"),
            vec![black],
        ),
        (
            format!("{go_black}go ponder wtime 9000 btime 9000\nponderhit\n"),
            vec![black],
        ),
        (
            format!("{go_black}go infinite\nucinewgame\nposition startpos\ngo movetime 50\n"),
            vec![black, START],
        ),
        (
            format!("{go_black}go infinite\ngo movetime 50\nstop\n"),
            vec![black, black],
        ),
        (format!("{go_black}go infinite\nquit\ngo\n"), vec![black]),
        (format!("{go_black}go infinite\nisready\n"), vec![black]),
        (format!("{go_black}go ponder\n"), vec![black]),
    ] {
        let out = uci_session(&script);
        let text = format!("{script}---\n{}", out.join("\n"));
        let best = bestmoves(&out);
        assert_eq!(best.len(), fens.len(), "{text}");
        for (mv, fen) in best.iter().zip(&fens) {
            assert_legal(fen, mv, &text);
        }
    }
}

/// `stop`, `quit`, `ucinewgame`, another `go` or the end of the input right after `go
/// infinite` on the reference executor (the default variant's search takes seconds
/// there): exactly one legal `bestmove` for each `go`. Whether the search was cut
/// depends on timing, so the test only asks that a cut says so and answers with the
/// cheapest variant's move, the one `go depth 1` plays.
#[test]
fn a_search_cut_by_the_gui_answers_once_through_the_binary() {
    if skipped("a_search_cut_by_the_gui_answers_once_through_the_binary") {
        return;
    }
    let black = "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 3 3";
    let setup = format!("setoption name Executor value reference\nposition fen {black}\n");
    let cheapest = bestmoves(&uci_session(format!("{setup}go depth 1\n")));
    for (end, answers) in [
        ("stop\n", 1),
        ("quit\n", 1),
        ("ucinewgame\n", 1),
        ("go depth 1\n", 2),
        ("", 1),
    ] {
        let script = format!("{setup}go infinite\n{end}");
        let out = uci_session(&script);
        let text = format!("{script}---\n{}", out.join("\n"));
        let best = bestmoves(&out);
        assert_eq!(best.len(), answers, "{text}");
        for mv in &best {
            assert_legal(black, mv, &text);
        }
        if out
            .iter()
            .any(|l| l.starts_with("info string search stopped"))
        {
            assert_eq!(best[0], cheapest[0], "{text}");
        }
    }
}

#[test]
fn clocks_give_a_budget_and_every_go_is_answered_through_the_binary() {
    if skipped("clocks_give_a_budget_and_every_go_is_answered_through_the_binary") {
        return;
    }
    let black = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1";
    let out = uci_session(format!(
        "position startpos\ngo wtime 60030 btime 1000\n\
         position fen {black}\ngo wtime 60000 btime 10030 winc 1000 binc 1000\n\
         setoption name Move Overhead value 100\ngo movetime 500\n\
         go wtime 0 btime 0\ngo depth 1\ngo depth 30\ngo nodes 1000\ngo mate 3\n"
    ));
    let text = out.join("\n");
    let notes: Vec<&String> = out
        .iter()
        .filter(|l| l.starts_with("info string budget") || l.starts_with("info string depth"))
        .collect();
    for (note, start) in notes.iter().zip([
        "info string budget 2400 ms: variant ",
        "info string budget 1150 ms: variant ",
        "info string budget 400 ms: variant ",
        "info string budget 0 ms: variant ",
        "info string depth 1: variant ",
        "info string depth 30: variant ",
    ]) {
        assert!(note.starts_with(start), "{note} / {start}\n{text}");
    }
    assert_eq!(notes.len(), 6, "{text}");
    assert_eq!(
        out.iter()
            .filter(|l| l.starts_with("info string not supported"))
            .count(),
        2,
        "{text}"
    );
    let best = bestmoves(&out);
    assert_eq!(best.len(), 8, "{text}");
    assert_legal(START, &best[0], &text);
    for mv in &best[1..] {
        assert_legal(black, mv, &text);
    }
}

/// `go perft` through the binary on `executor`, each move's count against shakmaty's.
fn check_perft(executor: &str, fen: &str, depth: u32) {
    let out = uci_session(format!(
        "setoption name Executor value {executor}\nposition fen {fen}\ngo perft {depth}\n"
    ));
    let text = out.join("\n");
    let pos = judge::position(fen);
    let mut expected: Vec<String> = pos
        .legal_moves()
        .into_iter()
        .map(|m| {
            let next = judge::play_move(&pos, &m);
            format!(
                "{}: {}",
                judge::uci(&m),
                oracle::perft::perft(&next, depth - 1)
            )
        })
        .collect();
    expected.sort();
    let total = oracle::perft::perft(&pos, depth);
    assert_eq!(
        out[..expected.len()],
        expected[..],
        "{executor} {fen}\n{text}"
    );
    assert_eq!(
        out[expected.len() + 1],
        format!("Nodes searched: {total}"),
        "{executor} {fen}\n{text}"
    );
    assert!(bestmoves(&out).is_empty(), "{text}");
}

/// The standard perft positions (chessprogramming.org's), without the published counts:
/// shakmaty counts.
const PERFT_POSITIONS: [&str; 6] = [
    START,
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
    "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
    "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
    "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10",
];

#[test]
fn perft_through_the_binary_agrees_with_shakmaty_on_both_executors() {
    if !oracle::engine::registered("chess-children") {
        oracle::engine::skip("perft_through_the_binary", "chess-children");
        return;
    }
    check_perft("fast", START, 3);
    for fen in &PERFT_POSITIONS[1..] {
        check_perft("fast", fen, 2);
        check_perft("reference", fen, 1);
    }
    check_perft("reference", PERFT_POSITIONS[1], 2);
}

/// `go perft` through the binary: depth 4 on the fast executor on the start and the
/// endgame position, depth 3 on the reference executor on the six standard positions
/// (minutes; perft(4) of every position, each child judged, is `tests/chess/perft.rs`'s
/// volume, and the reference executor's depth 4 would take hours).
#[test]
#[ignore = "volume: cargo test --release --test engine -- uci:: --ignored"]
fn perft_through_the_binary_to_depth_4_on_fast_and_3_on_reference() {
    for fen in [PERFT_POSITIONS[0], PERFT_POSITIONS[2]] {
        check_perft("fast", fen, 4);
    }
    for fen in PERFT_POSITIONS {
        check_perft("reference", fen, 3);
    }
}

#[test]
fn bench_prints_stockfish_s_totals() {
    let (mut s, engine) = fake_session();
    let out = s.handle("bench");
    // Every position of the built-in bench suite, 7 nodes each on the stand-in engine.
    let suite = regex_chess_engine::bench::parse_positions(regex_chess_chess::positions::BENCH)
        .unwrap()
        .len();
    assert_eq!(engine.thought.load(Ordering::SeqCst), suite);
    assert!(
        out.contains(&format!("Nodes searched  : {}", 7 * suite)),
        "{out:?}"
    );
    let nps = out.iter().find(|l| l.starts_with("Nodes/second    : "));
    assert!(nps.is_some(), "{out:?}");
    assert!(out.iter().all(|l| !l.starts_with("bestmove")));
    // Through the binary the lines are there whether or not the rules count nodes.
    if skipped("bench_prints_stockfish_s_totals (binary)") {
        return;
    }
    let out = uci_session("bench\n");
    let text = out.join("\n");
    for start in [
        "Total time (ms) : ",
        "Nodes searched  : ",
        "Nodes/second    : ",
    ] {
        assert!(out.iter().any(|l| l.starts_with(start)), "{start}\n{text}");
    }
}

/// Runs `tests/engine/uci_driver.py` with `args`; `None` (after saying so) when python-chess is
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
        .arg(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/tests/engine/uci_driver.py"
        ))
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

/// A game with clocks, `analyse`, and the positions without a move, through python-chess.
#[test]
fn a_python_chess_driver_uses_clocks_analyse_and_no_move() {
    let Some(stdout) = python_driver(
        "a_python_chess_driver_uses_clocks_analyse_and_no_move",
        &["clocks"],
    ) else {
        return;
    };
    assert!(rules_registered(), "the chess rules are not registered");
    for line in ["CLOCKS ", "ANALYSE pv ", "NO MOVE 7k/6Q1", "NO MOVE 7k/5Q2"] {
        assert!(stdout.contains(line), "{line}: {stdout}");
    }
}

/// Where polyglot is installed, if it is.
fn polyglot() -> Option<&'static str> {
    [
        "/usr/games/polyglot",
        "/usr/bin/polyglot",
        "/usr/local/bin/polyglot",
    ]
    .into_iter()
    .find(|p| std::path::Path::new(p).exists())
}

/// A game through polyglot (UCI to xboard), the engine black: each of its moves is read
/// from polyglot's `move` lines and checked by shakmaty.
#[test]
fn a_game_through_polyglot_as_an_xboard_engine() {
    use std::io::{BufRead, BufReader, Write};
    use std::process::Stdio;
    use std::time::Duration;
    let Some(polyglot) = polyglot() else {
        oracle::engine::require_tool(
            "a_game_through_polyglot_as_an_xboard_engine",
            "polyglot (apt-get install polyglot)",
        );
        return;
    };
    if skipped("a_game_through_polyglot_as_an_xboard_engine") {
        return;
    }
    let engine = format!("{} uci", env!("CARGO_BIN_EXE_regex-chess"));
    let mut child = Command::new(polyglot)
        .args(["-noini", "-ec", &engine])
        .env("HOME", std::env::temp_dir())
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("polyglot starts");
    let mut stdin = child.stdin.take().unwrap();
    let stdout = child.stdout.take().unwrap();
    let (send, lines) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        for line in BufReader::new(stdout).lines().map_while(Result::ok) {
            if send.send(line).is_err() {
                break;
            }
        }
    });
    let mut say = |text: &str| {
        stdin.write_all(text.as_bytes()).unwrap();
        stdin.flush().unwrap();
    };
    say("xboard\nprotover 2\nnew\nlevel 0 1 0\npost\n");
    let mut pos = judge::position(START);
    let mut played = Vec::new();
    for _ in 0..8 {
        let ours = judge::legal_uci(&pos);
        let Some(white) = ours.first().cloned() else {
            break;
        };
        pos = judge::play(&pos, &white);
        played.push(white.clone());
        if judge::legal_uci(&pos).is_empty() {
            break;
        }
        say(&format!("usermove {white}\n"));
        let reply = loop {
            // The first move waits for every program to be compiled (a cold program
            // cache, on a machine busy with the other tests): minutes, not seconds.
            let wait = if played.len() == 1 { 900 } else { 120 };
            let line = lines
                .recv_timeout(Duration::from_secs(wait))
                .unwrap_or_else(|_| panic!("no move from polyglot after {played:?}"));
            if let Some(mv) = line.strip_prefix("move ") {
                break mv.trim().to_string();
            }
        };
        assert!(
            judge::legal_uci(&pos).contains(&reply),
            "{reply} is not legal after {played:?}"
        );
        pos = judge::play(&pos, &reply);
        played.push(reply);
    }
    say("quit\n");
    let _ = child.wait();
    assert!(played.len() >= 8, "{played:?}");
    eprintln!("PLAYED through polyglot: {}", played.join(" "));
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

/// The ranking the oracle gives the variant `go depth 2` plays: (move, centipawns) of
/// the best `k` root moves, by score, ties to the smaller UCI text.
fn oracle_ranking(fen: &str, k: usize) -> Vec<(String, i32)> {
    let variant = regex_chess_engine::uci::clock::for_depth(2);
    let spec = oracle::variants::Spec::of(variant.name());
    let searched = oracle::variants::search(spec, &judge::position(fen)).expect("a move");
    let mut ranked = searched.scored;
    ranked.sort_by(|(m, a), (n, b)| b.cmp(a).then(m.cmp(n)));
    ranked.truncate(k);
    ranked
}

/// A middlegame position without mates near the top of the ranking.
const RANKED_FEN: &str = "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3";

#[test]
fn multipv_lines_rank_as_the_oracle_through_the_binary() {
    if skipped("multipv_lines_rank_as_the_oracle_through_the_binary") {
        return;
    }
    for executor in ["fast", "reference"] {
        let out = uci_session(format!(
            "setoption name Executor value {executor}\nsetoption name MultiPV value 3\n\
             position fen {RANKED_FEN}\ngo depth 2\nsetoption name MultiPV value 1\ngo depth 2\n"
        ));
        let text = out.join("\n");
        let ranked: Vec<&String> = out.iter().filter(|l| l.contains(" multipv ")).collect();
        assert_eq!(ranked.len(), 3, "{text}");
        let want = oracle_ranking(RANKED_FEN, 3);
        for (rank, (line, (mv, cp))) in ranked.iter().zip(&want).enumerate() {
            let start = format!("info multipv {} depth 2 score cp {cp} nodes ", rank + 1);
            assert!(
                line.starts_with(&start),
                "{executor}: {line}, want {start}\n{text}"
            );
            let (_, pv) = line.split_once(" pv ").unwrap();
            assert!(pv.starts_with(mv.as_str()), "{executor}: {line}, want {mv}");
        }
        // Each `go` answers once; the ranked one plays rank 1, and MultiPV 1 prints the
        // single line again.
        let best = bestmoves(&out);
        assert_eq!(best.len(), 2, "{text}");
        assert_eq!(best[0], want[0].0, "{text}");
        assert_eq!(best[1], want[0].0, "{text}");
        let plain: Vec<&String> = out
            .iter()
            .filter(|l| l.starts_with("info depth 2 score"))
            .collect();
        assert_eq!(plain.len(), 1, "{text}");
    }
}

/// `analyse(multipv=3)` through python-chess: three entries with scores and pvs, ranked
/// as the oracle ranks the root moves.
#[test]
fn a_python_chess_driver_analyses_with_multipv() {
    let test = "a_python_chess_driver_analyses_with_multipv";
    let Some(stdout) = python_driver(test, &["multipv", RANKED_FEN]) else {
        return;
    };
    assert!(rules_registered(), "the chess rules are not registered");
    let got: Vec<(String, i32)> = stdout
        .lines()
        .filter_map(|l| l.strip_prefix("MULTIPV "))
        .map(|l| {
            let words: Vec<&str> = l.split(' ').collect();
            (words[1].to_string(), words[2].parse().unwrap())
        })
        .collect();
    assert_eq!(got, oracle_ranking(RANKED_FEN, 3), "{stdout}");
}

/// `go searchmoves` restricts the ranking as well as the move: with `MultiPV 3` and two
/// listed moves, exactly those two are ranked, in the oracle's order of their scores.
#[test]
fn searchmoves_restrict_the_multipv_lines_through_the_binary() {
    let out = uci_session(
        "uci\nsetoption name MultiPV value 3\nposition startpos\n\
         go depth 2 searchmoves e2e4 d2d4\nquit\n",
    );
    let text = out.join("\n");
    let ranked: Vec<(String, String)> = out
        .iter()
        .filter(|l| l.starts_with("info multipv "))
        .map(|l| {
            let words: Vec<&str> = l.split_whitespace().collect();
            let at = |key: &str| words[words.iter().position(|w| *w == key).unwrap() + 1];
            (at("multipv").to_string(), at("pv").to_string())
        })
        .collect();
    let mut moves: Vec<&str> = ranked.iter().map(|(_, mv)| mv.as_str()).collect();
    moves.sort();
    assert_eq!(moves, ["d2d4", "e2e4"], "{text}");
    let best = oracle::history::search(
        oracle::variants::Spec::of(regex_chess_engine::uci::clock::for_depth(2).name()),
        &shakmaty::Chess::default(),
        &oracle::history::Input {
            history: Vec::new(),
            searchmoves: vec!["e2e4".to_string(), "d2d4".to_string()],
        },
    )
    .expect("a move")
    .best;
    assert_eq!(ranked[0], ("1".to_string(), best.clone()), "{text}");
    let answer = format!("bestmove {best}");
    assert!(out.iter().any(|l| l.starts_with(&answer)), "{text}");
}
