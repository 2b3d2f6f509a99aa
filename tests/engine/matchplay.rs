//! The match plumbing: games between the built-in opponents and a test-only stand-in
//! engine, PGN that parses back, forfeits, a UCI opponent (Stockfish, when installed),
//! and the `match` command through the binary.

use regex_chess_testkit::fake_engine;
use regex_chess_testkit::oracle;

use std::process::Command;
use std::sync::Arc;

use fake_engine::FakeEngine;
use regex_chess_arena::sprt::{Sprt, Verdict};
use regex_chess_engine::matchplay::game::{parse_position, play_game};
use regex_chess_engine::matchplay::outcome::{Outcome, Termination};
use regex_chess_engine::matchplay::players::{
    EnginePlayer, MaterialPlayer, OpponentSettings, PlayedMove, Player, RandomPlayer, Turn,
    UciPlayer,
};
use regex_chess_engine::matchplay::{self, MatchConfig, MatchError, Summary, pgn};
use regex_chess_engine::runner::MOVE;
use shakmaty::san::SanPlus;
use shakmaty::{Color, Position};

const STOCKFISH: &str = "/usr/games/stockfish";

fn openings() -> Vec<matchplay::Opening> {
    let text = oracle::perft::suite("openings.txt");
    matchplay::read_openings(&text).unwrap()
}

fn config(openings: usize, jobs: usize) -> MatchConfig {
    let all = self::openings();
    MatchConfig {
        pairings: matchplay::schedule(all.len(), Some(openings), None),
        openings: all,
        max_plies: 120,
        jobs,
        sprt: None,
    }
}

fn random() -> Result<Box<dyn Player>, MatchError> {
    Ok(Box::new(RandomPlayer::new(7)))
}

fn material() -> Result<Box<dyn Player>, MatchError> {
    Ok(Box::new(MaterialPlayer::new(7)))
}

fn fake() -> Result<Box<dyn Player>, MatchError> {
    Ok(Box::new(EnginePlayer::new(
        "fake engine (test-only)",
        Arc::new(FakeEngine::default()),
    )))
}

fn summary_line(games: &[matchplay::game::GameRecord]) -> Vec<String> {
    games
        .iter()
        .map(|g| {
            format!(
                "{} {} {} {}",
                g.number,
                g.outcome.pgn(),
                g.termination.describe(),
                g.moves.len()
            )
        })
        .collect()
}

#[test]
fn the_openings_file_reads() {
    let all = openings();
    assert!(all.len() >= 30, "{} openings", all.len());
}

#[test]
fn a_tiny_match_between_built_in_opponents_is_deterministic() {
    let one = matchplay::run_match(&config(3, 1), &material, &random, &|_| {})
        .unwrap()
        .games;
    let two = matchplay::run_match(&config(3, 2), &material, &random, &|_| {})
        .unwrap()
        .games;
    assert_eq!(one.len(), 6);
    assert_eq!(summary_line(&one), summary_line(&two));
    for (i, g) in one.iter().enumerate() {
        assert_eq!(g.number, i);
        assert_eq!(g.opening, i / 2);
        assert_eq!(
            g.engine,
            Some(if i % 2 == 0 {
                Color::White
            } else {
                Color::Black
            })
        );
        assert!(g.fen_mismatches.is_empty());
        assert!(!matches!(g.termination, Termination::Forfeit(_)), "{g:?}");
        assert!(g.moves.len() <= 120);
    }
    let summary = Summary::of(&one);
    assert_eq!(summary.wins + summary.draws + summary.losses, 6);
    let report = summary.report("material", "random");
    assert!(report.contains("games 6: +"), "{report}");
    assert!(report.contains("elo difference "), "{report}");
    assert!(
        report.contains("pathologies: drawn while 5+ pawns ahead "),
        "{report}"
    );
    // The material engine against the random mover should not lose much.
    assert!(summary.wins >= summary.losses, "{report}");
}

#[test]
fn the_stand_in_engine_plays_through_the_engine_player() {
    let games = matchplay::run_match(&config(2, 2), &fake, &material, &|_| {})
        .unwrap()
        .games;
    assert_eq!(games.len(), 4);
    for g in &games {
        assert!(g.fen_mismatches.is_empty(), "{:?}", g.fen_mismatches);
        assert!(!matches!(g.termination, Termination::Forfeit(_)), "{g:?}");
    }
    let names: Vec<&str> = games
        .iter()
        .map(|g| {
            if g.engine == Some(Color::White) {
                g.white.as_str()
            } else {
                g.black.as_str()
            }
        })
        .collect();
    assert!(names.iter().all(|n| *n == "fake engine (test-only)"));
}

/// A player that always names the same move.
struct Stubborn(&'static str);

impl Player for Stubborn {
    fn name(&self) -> String {
        format!("stubborn {}", self.0)
    }
    fn choose(&mut self, _: &Turn<'_>) -> Result<PlayedMove, MatchError> {
        Ok(PlayedMove {
            fen_after: Some("8/8/8/8/8/8/8/8 w - - 0 1".to_string()),
            ..PlayedMove::of(self.0)
        })
    }
}

#[test]
fn an_illegal_move_forfeits_and_a_wrong_fen_is_recorded() {
    let start = parse_position("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1").unwrap();
    let mut white = Stubborn("e2e4");
    let mut black = Stubborn("e2e4");
    let g = play_game(
        0,
        0,
        &start,
        &mut white,
        &mut black,
        Some(Color::White),
        100,
    );
    assert_eq!(g.outcome, Outcome::Win(Color::White));
    match &g.termination {
        Termination::Forfeit(why) => {
            assert!(why.starts_with("black: illegal move `e2e4`"), "{why}")
        }
        other => panic!("{other:?}"),
    }
    assert_eq!(g.moves.len(), 1);
    assert_eq!(g.fen_mismatches.len(), 1);
    assert!(g.fen_mismatches[0].contains("said 8/8/8/8/8/8/8/8 w - - 0 1"));
    let summary = Summary::of(&[g]);
    assert_eq!((summary.wins, summary.losses), (1, 0));
}

/// A game read back from PGN: its tags, its moves in UCI, its result.
pub(crate) type ParsedGame = (Vec<(String, String)>, Vec<String>, String);

/// Reads a PGN file back with shakmaty: tags, then the SAN moves replayed from the FEN.
pub(crate) fn parse_pgn(text: &str) -> Vec<ParsedGame> {
    let mut games = Vec::new();
    for block in text.split("\n\n[").filter(|b| !b.trim().is_empty()) {
        let block = block.strip_prefix('[').unwrap_or(block);
        let (header, movetext) = block.split_once("\n\n").expect("tags, a blank line, moves");
        let tags: Vec<(String, String)> = header
            .lines()
            .map(|line| {
                let line = line.trim_start_matches('[').trim_end_matches(']');
                let (name, value) = line.split_once(' ').unwrap();
                (name.to_string(), value.trim_matches('"').to_string())
            })
            .collect();
        let fen = &tags.iter().find(|(n, _)| n == "FEN").unwrap().1;
        let mut pos = parse_position(fen).unwrap();
        let mut moves = Vec::new();
        let mut result = String::new();
        let without_comments: String = {
            let mut out = String::new();
            let mut depth = 0;
            for c in movetext.chars() {
                match c {
                    '{' => depth += 1,
                    '}' => depth -= 1,
                    _ if depth == 0 => out.push(c),
                    _ => {}
                }
            }
            out
        };
        for word in without_comments.split_whitespace() {
            if ["1-0", "0-1", "1/2-1/2", "*"].contains(&word) {
                result = word.to_string();
                continue;
            }
            if word.ends_with('.') {
                continue;
            }
            let san: SanPlus = word.parse().unwrap_or_else(|e| panic!("{word}: {e:?}"));
            let m = san
                .san
                .to_move(&pos)
                .unwrap_or_else(|e| panic!("{word}: {e:?}"));
            moves.push(m.to_uci(shakmaty::CastlingMode::Standard).to_string());
            pos.play_unchecked(m);
        }
        games.push((tags, moves, result));
    }
    games
}

#[test]
fn pgn_output_parses_back() {
    let games = matchplay::run_match(&config(2, 1), &random, &material, &|_| {})
        .unwrap()
        .games;
    let text: String = games
        .iter()
        .map(|g| pgn::game_pgn(g, "test \"event\""))
        .collect();
    for line in text.lines() {
        assert!(
            line.len() <= 79 || line.starts_with('[') || line.contains('{'),
            "{line}"
        );
    }
    let parsed = parse_pgn(&text);
    assert_eq!(parsed.len(), games.len());
    for (g, (tags, moves, result)) in games.iter().zip(&parsed) {
        let tag = |name: &str| {
            tags.iter()
                .find(|(n, _)| n == name)
                .map(|(_, v)| v.as_str())
        };
        assert_eq!(tag("Result"), Some(g.outcome.pgn()));
        assert_eq!(result, g.outcome.pgn());
        assert_eq!(tag("FEN"), Some(g.start_fen.as_str()));
        assert_eq!(tag("SetUp"), Some("1"));
        assert_eq!(tag("Event"), Some(r#"test \"event\"#));
        assert_eq!(tag("PlyCount").unwrap(), g.moves.len().to_string());
        let expected: Vec<String> = g
            .moves
            .iter()
            .map(|m| m.to_uci(shakmaty::CastlingMode::Standard).to_string())
            .collect();
        assert_eq!(moves, &expected);
    }
    // A game from a position with black to move starts with `N...`.
    let start = parse_position("4k3/8/8/8/8/8/8/R3K3 b - - 0 7").unwrap();
    let mut white = RandomPlayer::new(1);
    let mut black = RandomPlayer::new(1);
    let g = play_game(0, 0, &start, &mut black, &mut white, None, 3);
    let text = pgn::game_pgn(&g, "e");
    assert!(text.contains("\n\n7... K"), "{text}");
    assert_eq!(parse_pgn(&text)[0].1.len(), 3);
    assert_eq!(start.turn(), Color::Black);
}

#[test]
fn a_uci_opponent_plays_when_stockfish_is_installed() {
    if !std::path::Path::new(STOCKFISH).exists() {
        oracle::engine::require_tool(
            "a_uci_opponent_plays_when_stockfish_is_installed",
            &format!("{STOCKFISH} (apt-get install stockfish)"),
        );
        return;
    }
    let make = || -> Result<Box<dyn Player>, MatchError> {
        Ok(Box::new(UciPlayer::start(OpponentSettings {
            path: STOCKFISH.to_string(),
            args: Vec::new(),
            options: vec![("Skill Level".to_string(), "0".to_string())],
            depth: Some(1),
            movetime: None,
            timeout: None,
        })?))
    };
    let mut cfg = config(1, 2);
    cfg.max_plies = 40;
    let games = matchplay::run_match(&cfg, &random, &make, &|_| {})
        .unwrap()
        .games;
    assert_eq!(games.len(), 2);
    for g in &games {
        assert!(!matches!(g.termination, Termination::Forfeit(_)), "{g:?}");
        let opponent = if g.engine == Some(Color::White) {
            &g.black
        } else {
            &g.white
        };
        assert!(opponent.starts_with("Stockfish"), "{opponent}");
        assert!(opponent.ends_with("(Skill Level=0)"), "{opponent}");
    }
}

fn regex_chess(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_regex-chess"))
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .args(args)
        .output()
        .expect("the binary runs")
}

#[test]
fn the_match_command_checks_its_arguments() {
    for (args, message) in [
        (
            vec!["--opponent", "gnuchess"],
            "unknown opponent `gnuchess`",
        ),
        (vec!["--opponent", "uci:"], "unknown opponent `uci:`"),
        (vec!["--opponent", "xboard:"], "unknown opponent `xboard:`"),
        (
            vec!["--opponent", "material", "--opponent-arg=-l-"],
            "apply to a uci:PATH or xboard:PATH opponent",
        ),
        (
            vec!["--opponent", "random", "--opponent-depth", "3"],
            "apply to a uci:PATH or xboard:PATH opponent",
        ),
        (
            vec!["--opponent", "uci:/x", "--opponent-option", "novalue"],
            "expected NAME=VALUE",
        ),
        (
            vec!["--openings-file", "/nonexistent/openings.txt"],
            "cannot read /nonexistent/openings.txt",
        ),
        (vec!["--jobs", "0"], "--jobs must be at least 1"),
        (vec!["--search", "9ply"], "unknown search `9ply`"),
        (
            vec!["--opponent", "search:nope"],
            "unknown search `nope`; known: 2ply, 2ply-q,",
        ),
        (
            vec!["--opponent", "search:2ply", "--opponent-depth", "3"],
            "apply to a uci:PATH or xboard:PATH opponent",
        ),
        (vec!["--games", "0"], "no games to play"),
    ] {
        let mut all = vec!["match"];
        all.extend(args.iter());
        let out = regex_chess(&all);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(!out.status.success(), "{all:?}");
        assert_eq!(stderr.lines().count(), 1, "{stderr}");
        assert!(stderr.contains(message), "{all:?}: {stderr}");
    }
}

#[test]
fn the_match_command_plays_the_rules() {
    let dir = tempfile::tempdir().unwrap();
    let pgn_path = dir.path().join("games.pgn");
    let out = regex_chess(&[
        "match",
        "--search",
        "2ply-see",
        "--opponent",
        "random",
        "--games",
        "2",
        "--jobs",
        "2",
        "--max-plies",
        "20",
        "--pgn",
        pgn_path.to_str().unwrap(),
    ]);
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    if !oracle::engine::registered(MOVE) {
        oracle::engine::skip("the_match_command_plays_the_rules", MOVE);
        assert!(!out.status.success());
        assert!(stderr.contains("not registered"), "{stderr}");
        return;
    }
    assert!(out.status.success(), "{stderr}");
    assert!(stdout.contains("games 2: +"), "{stdout}");
    assert!(
        stdout.contains("engine FEN-after disagreements with shakmaty: 0"),
        "{stdout}"
    );
    assert!(stdout.contains("engine forfeits: 0"), "{stdout}");
    let text = std::fs::read_to_string(&pgn_path).unwrap();
    let games = parse_pgn(&text);
    assert_eq!(games.len(), 2);
    // Every move the engine played is the one its search's contract defines (`2ply-see`,
    // named: the default playing variant may be a costlier one).
    let spec = oracle::variants::Spec::of("2ply-see");
    let mut checked = 0;
    for (tags, moves, _) in &games {
        let tag = |name: &str| &tags.iter().find(|(n, _)| n == name).unwrap().1;
        let engine = if tag("White").starts_with("random") {
            Color::Black
        } else {
            Color::White
        };
        let mut pos = parse_position(tag("FEN")).unwrap();
        for played in moves {
            if pos.turn() == engine {
                let best = oracle::variants::search(spec, &pos)
                    .expect("a legal move")
                    .best;
                assert_eq!(
                    played,
                    &best,
                    "the engine's move in {}",
                    oracle::judge::fen(&pos)
                );
                checked += 1;
            }
            pos = oracle::judge::play(&pos, played);
        }
    }
    assert!(checked >= 10, "only {checked} engine moves");
}

#[test]
fn the_match_command_plays_one_variant_against_another() {
    let out = regex_chess(&[
        "match",
        "--search",
        "2ply-q",
        "--opponent",
        "search:2ply",
        "--games",
        "2",
        "--max-plies",
        "12",
    ]);
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    assert!(stdout.contains("games 2: +"), "{stdout}");
    assert!(stdout.contains("search 2ply-q"), "{stdout}");
    assert!(stdout.contains("regex-chess search 2ply"), "{stdout}");
    assert!(
        stdout.contains("engine FEN-after disagreements with shakmaty: 0"),
        "{stdout}"
    );
    assert!(stdout.contains("engine forfeits: 0"), "{stdout}");
    // Not on a terminal: plain progress lines on standard error, never an escape code.
    let progress: Vec<&str> = stderr
        .lines()
        .filter(|l| l.starts_with("regex-chess: match: "))
        .collect();
    assert!(
        progress.last().is_some_and(|l| l.contains("2/2 games, +")),
        "{stderr}"
    );
    assert!(!stderr.contains('\x1b'), "{stderr:?}");
}

/// Runs `regex-chess ARGS` under a pseudo-terminal (util-linux `script`) and returns
/// what the terminal received; `None` when `script` is not installed.
fn on_a_terminal(args: &[&str]) -> Option<String> {
    let mut command = vec![env!("CARGO_BIN_EXE_regex-chess")];
    command.extend_from_slice(args);
    let started = Command::new("script")
        .args(["-qec", &command.join(" "), "/dev/null"])
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .stdin(std::process::Stdio::null())
        .output();
    // Only a missing `script` is `None`; the caller fails or skips by the environment.
    let Ok(out) = started else {
        return None;
    };
    assert!(out.status.success(), "{out:?}");
    Some(String::from_utf8_lossy(&out.stdout).into_owned())
}

#[test]
fn a_match_on_a_terminal_shows_a_live_line_unless_quiet() {
    let args = [
        "match",
        "--search",
        "2ply",
        "--opponent",
        "random",
        "--games",
        "2",
        "--max-plies",
        "12",
    ];
    let Some(live) = on_a_terminal(&args) else {
        oracle::engine::require_tool(
            "a_match_on_a_terminal_shows_a_live_line_unless_quiet",
            "script (util-linux)",
        );
        return;
    };
    // indicatif redraws the line in place (carriage return, erase line) as games end.
    assert!(live.contains("\r\x1b[2K"), "{live:?}");
    assert!(live.contains("match ["), "{live:?}");
    assert!(live.contains("2/2 games, +"), "{live:?}");
    assert!(live.contains("games 2: +"), "{live:?}");
    let quiet = on_a_terminal(&[&args[..], &["--quiet"]].concat()).unwrap();
    assert!(quiet.contains("games 2: +"), "{quiet:?}");
    assert!(
        !quiet.contains("match [") && !quiet.contains('\x1b'),
        "{quiet:?}"
    );
}

/// A player that plays a fixed list of moves, then has no move (and forfeits).
struct Scripted(Vec<&'static str>);

impl Player for Scripted {
    fn name(&self) -> String {
        "scripted".to_string()
    }
    fn choose(&mut self, turn: &Turn<'_>) -> Result<PlayedMove, MatchError> {
        let ply = turn.moves.len() / 2;
        self.0
            .get(ply)
            .map(|m| PlayedMove::of(*m))
            .ok_or_else(|| MatchError::player("out of moves"))
    }
}

#[test]
fn pathologies_are_counted_in_games() {
    let game = |fen: &str, engine: Vec<&'static str>, other: Vec<&'static str>| {
        let start = parse_position(fen).unwrap();
        let (mut e, mut o) = (Scripted(engine), Scripted(other));
        play_game(0, 0, &start, &mut e, &mut o, Some(Color::White), 100)
    };
    // Ra7 instead of the mate Ra8, then Ra8 mate after all.
    let g = game(
        "6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1",
        vec!["a1a7", "a7a8"],
        vec!["g8h8"],
    );
    assert_eq!(g.pathologies.missed_mates, 1, "{g:?}");
    assert_eq!(g.termination, Termination::Checkmate);
    assert_eq!(
        g.pathology_events,
        ["missed mate in one: 1. Ra7 (a1a7) in 6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1"]
    );
    // The queen to d5, where the e6 pawn takes it for nothing.
    let g = game(
        "4k3/8/4p3/8/8/8/8/3QK3 w - - 0 1",
        vec!["d1d5"],
        vec!["e6d5"],
    );
    assert_eq!(g.pathologies.queen_en_prise, 1, "{g:?}");
    assert!(g.pathology_events[0].starts_with("queen en prise: 1. Qd5 (d1d5) in "));
    assert_eq!(g.pathologies.missed_mates, 0);
    // Stalemate with a queen and a rook more, when Ra8 mated.
    let g = game("7k/4Q3/8/6K1/8/8/8/R7 w - - 0 1", vec!["e7f7"], vec![]);
    assert_eq!(g.termination, Termination::Stalemate);
    assert_eq!(g.pathologies.drawn_while_ahead, 1, "{g:?}");
    assert_eq!(g.pathology_events.len(), 2, "{g:?}");
    assert!(g.pathology_events[1].starts_with("drawn while ahead (stalemate): 7k/5Q2/"));
    let summary = Summary::of(&[g]);
    assert_eq!(summary.pathologies.drawn_while_ahead, 1);
    assert!(
        summary
            .report("e", "o")
            .contains("drawn while 5+ pawns ahead 1, queen left en prise 0, missed mates in one 1")
    );
}

/// Writes a UCI stand-in engine: a shell script that records its process id in `pid`
/// (next to it), answers `uci` and `isready`, and does `on_go` when told `go`.
fn script_engine(dir: &std::path::Path, on_go: &str) -> String {
    let path = dir.join("engine.sh");
    let pid = dir.join("pid");
    let script = format!(
        "#!/bin/sh\necho $$ > '{}'\nwhile read -r line; do\n  case \"$line\" in\n    \
         uci) echo 'id name scripted'; echo uciok;;\n    isready) echo readyok;;\n    \
         go*) {on_go};;\n    quit) exit 0;;\n  esac\ndone\n",
        pid.display()
    );
    write_script(&path, &script)
}

/// Writes `text` to `path` as an executable script; the path as text.
pub(crate) fn write_script(path: &std::path::Path, text: &str) -> String {
    std::fs::write(path, text).unwrap();
    let mut perms = std::fs::metadata(path).unwrap().permissions();
    std::os::unix::fs::PermissionsExt::set_mode(&mut perms, 0o755);
    std::fs::set_permissions(path, perms).unwrap();
    path.display().to_string()
}

/// A stand-in engine's settings: no arguments, options or limits, half a second for
/// each answer.
pub(crate) fn scripted_settings(path: String) -> OpponentSettings {
    OpponentSettings {
        path,
        args: Vec::new(),
        options: Vec::new(),
        depth: None,
        movetime: None,
        timeout: Some(std::time::Duration::from_millis(500)),
    }
}

/// True while the process `pid` (read from the file) exists (a reaped child does not).
fn alive(pid_file: &std::path::Path) -> bool {
    let pid = std::fs::read_to_string(pid_file).unwrap();
    std::path::Path::new(&format!("/proc/{}", pid.trim())).exists()
}

fn start_turn<T>(choose: impl FnOnce(&Turn<'_>) -> T) -> T {
    let pos = shakmaty::Chess::default();
    let fen = oracle::judge::fen(&pos);
    choose(&Turn {
        start_fen: &fen,
        moves: &[],
        pos: &pos,
        earlier: &[],
    })
}

#[test]
fn a_uci_opponent_that_cannot_start_is_an_error() {
    let Err(error) = UciPlayer::start(scripted_settings("/nonexistent/engine".into())) else {
        panic!("a missing engine started");
    };
    let error = error.to_string();
    assert!(
        error.starts_with("cannot start /nonexistent/engine"),
        "{error}"
    );
}

#[test]
fn a_uci_opponent_answers_plays_and_is_stopped_when_dropped() {
    let dir = tempfile::tempdir().unwrap();
    let path = script_engine(dir.path(), "echo 'info depth 1'; echo 'bestmove e2e4'");
    let mut player = UciPlayer::start(scripted_settings(path)).unwrap();
    assert_eq!(player.name(), "scripted");
    player.new_game(0).unwrap();
    let choice = start_turn(|turn| player.choose(turn)).unwrap();
    assert_eq!(choice.uci, "e2e4");
    assert!(alive(&dir.path().join("pid")));
    drop(player);
    assert!(
        !alive(&dir.path().join("pid")),
        "the engine outlives its player"
    );
}

#[test]
fn a_silent_uci_opponent_times_out_and_is_killed() {
    let dir = tempfile::tempdir().unwrap();
    // It never answers `go`, and ignores `quit` while it sleeps.
    let path = script_engine(dir.path(), "sleep 30");
    let mut player = UciPlayer::start(scripted_settings(path)).unwrap();
    let error = start_turn(|turn| player.choose(turn))
        .unwrap_err()
        .to_string();
    assert!(error.contains("no `bestmove` within 0.5s"), "{error}");
    drop(player);
    assert!(
        !alive(&dir.path().join("pid")),
        "the engine outlives its player"
    );
}

#[test]
fn a_uci_opponent_that_crashes_is_an_error() {
    let dir = tempfile::tempdir().unwrap();
    let path = script_engine(dir.path(), "kill -9 $$");
    let mut player = UciPlayer::start(scripted_settings(path)).unwrap();
    let error = start_turn(|turn| player.choose(turn))
        .unwrap_err()
        .to_string();
    assert!(
        error.contains("ended (closed its output) before `bestmove`"),
        "{error}"
    );
    drop(player);
    assert!(!alive(&dir.path().join("pid")));
}

#[test]
fn a_uci_opponent_that_never_says_uciok_is_an_error() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("mute.sh");
    let path = write_script(&path, "#!/bin/sh\nexec sleep 30\n");
    let Err(error) = UciPlayer::start(scripted_settings(path)) else {
        panic!("a mute engine started");
    };
    let error = error.to_string();
    assert!(error.contains("no `uciok` within 0.5s"), "{error}");
}

/// An engine that plays the first legal move and records the history each search got.
struct Recorder {
    histories: std::sync::Mutex<Vec<(String, Vec<String>)>>,
}

impl regex_chess_engine::uci::Engine for Recorder {
    fn apply(
        &self,
        _: &regex_chess_chess::notation::fen::Fen,
        _: regex_chess_chess::notation::uci::UciMove,
    ) -> Result<Option<regex_chess_chess::notation::fen::Fen>, regex_chess_engine::uci::EngineError>
    {
        Err(regex_chess_engine::uci::EngineError(
            "not asked".to_string(),
        ))
    }
    fn think_with(
        &self,
        _: &regex_chess_chess::notation::fen::Fen,
        _: regex_chess_engine::Search,
    ) -> Result<regex_chess_engine::uci::Thought, regex_chess_engine::uci::EngineError> {
        Err(regex_chess_engine::uci::EngineError(
            "the game is not passed".to_string(),
        ))
    }
    fn think_given(
        &self,
        fen: &regex_chess_chess::notation::fen::Fen,
        input: &regex_chess_engine::runner::RulesInput,
        _: regex_chess_engine::Search,
    ) -> Result<regex_chess_engine::uci::Thought, regex_chess_engine::uci::EngineError> {
        let pos = oracle::judge::position(&fen.to_string());
        let mv = oracle::judge::legal_uci(&pos).remove(0);
        let after = oracle::judge::fen(&oracle::judge::play(&pos, &mv));
        let history = input.history.iter().map(|f| f.to_string()).collect();
        self.histories
            .lock()
            .unwrap()
            .push((fen.to_string(), history));
        let reply = regex_chess_engine::reply::MoveReply::new(
            mv.parse().unwrap(),
            after.parse().unwrap(),
            regex_chess_engine::reply::Status::Ongoing,
        );
        Ok(regex_chess_engine::uci::Thought {
            reply: regex_chess_engine::reply::Reply::Move(reply),
            report: regex_chess_engine::uci::SearchReport::default(),
        })
    }
}

#[test]
fn the_engine_player_passes_the_game_s_earlier_positions() {
    let recorder = Arc::new(Recorder {
        histories: std::sync::Mutex::new(Vec::new()),
    });
    let mut engine = EnginePlayer::new("recorder", recorder.clone());
    let mut other = RandomPlayer::new(7);
    let start = parse_position(oracle::judge::fen(&shakmaty::Chess::default()).as_str()).unwrap();
    let record = play_game(
        1,
        0,
        &start,
        &mut engine,
        &mut other,
        Some(Color::White),
        12,
    );
    let histories = recorder.histories.lock().unwrap();
    assert_eq!(histories.len(), 6, "{record:?}");
    // Before the engine's k-th move (k from 0) the game has 2k earlier positions, the
    // start first, each the FEN of the game's position after that many plies.
    let mut pos = start.clone();
    let mut fens = vec![oracle::judge::fen(&pos)];
    for m in &record.moves {
        pos.play_unchecked(*m);
        fens.push(oracle::judge::fen(&pos));
    }
    for (k, (fen, history)) in histories.iter().enumerate() {
        assert_eq!(*fen, fens[2 * k]);
        assert_eq!(*history, fens[..2 * k].to_vec(), "move {k}");
    }
}

/// Reads every game of a PGN file with python-chess, replays it, and checks the tags, the
/// move comments and the result; prints `ok N` for N games.
const PGN_CHECK: &str = r#"
import re, sys, chess, chess.pgn
games = 0
with open(sys.argv[1]) as f:
    while (game := chess.pgn.read_game(f)) is not None:
        assert not game.errors, game.errors
        for tag in ["Event", "Site", "Date", "Round", "White", "Black", "Result",
                    "SetUp", "FEN", "TimeControl", "Termination", "PlyCount"]:
            assert tag in game.headers, (tag, dict(game.headers))
        engine = chess.WHITE if game.headers["White"].startswith("fake") else chess.BLACK
        board = game.board()
        plies = 0
        for node in game.mainline():
            mover = not node.board().turn
            if mover == engine:
                assert re.match(r"^([+-](\d+\.\d\d|M\d+)(/\d+)? )?\d+\.\d{3}s", node.comment), node.comment
            board.push(node.move)
            plies += 1
        assert plies == int(game.headers["PlyCount"]), (plies, game.headers["PlyCount"])
        outcome = board.outcome(claim_draw=True)
        if game.headers["Termination"] == "normal":
            assert outcome is not None and outcome.result() == game.headers["Result"]
        games += 1
print("ok", games)
"#;

#[test]
fn python_chess_reads_and_replays_every_game_of_a_match_pgn() {
    let test = "python_chess_reads_and_replays_every_game_of_a_match_pgn";
    let importable = Command::new("python3")
        .args(["-c", "import chess.pgn"])
        .output()
        .is_ok_and(|o| o.status.success());
    if !importable {
        oracle::engine::require_tool(test, "python-chess (pip install chess)");
        return;
    }
    let result = matchplay::run_match(&config(2, 2), &fake, &material, &|_| {}).unwrap();
    assert_eq!(result.games.len(), 4);
    let tags = pgn::PgnTags {
        date: "2026.12.03".to_string(),
        ..pgn::PgnTags::new("fake vs material")
    };
    let text: String = result
        .games
        .iter()
        .map(|g| pgn::game_pgn_with(g, &tags))
        .collect();
    assert!(text.contains("[TimeControl \"-\"]"), "{text}");
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("games.pgn");
    std::fs::write(&path, &text).unwrap();
    let out = Command::new("python3")
        .args(["-c", PGN_CHECK, path.to_str().unwrap()])
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{stdout}{}\n{text}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(stdout.trim(), "ok 4", "{text}");
}

/// The engine's side forfeits every game on its first move (a scripted player without
/// moves): losses only.
fn forfeiting() -> Result<Box<dyn Player>, MatchError> {
    Ok(Box::new(Scripted(Vec::new())))
}

#[test]
fn a_match_stops_once_its_sprt_decides_and_runs_out_its_schedule_without_one() {
    let mut with_test = config(20, 1);
    with_test.sprt = Some(Sprt::new(0.0, 50.0, 0.05, 0.05).unwrap());
    let scheduled = with_test.pairings.len();
    let result = matchplay::run_match(&with_test, &forfeiting, &random, &|_| {}).unwrap();
    let outcome = result.sprt.expect("the match had a test");
    assert_eq!(outcome.verdict, Some(Verdict::H0), "{outcome:?}");
    assert!(
        result.games.len() < scheduled,
        "{} of {scheduled} games played though the test decided",
        result.games.len()
    );
    assert_eq!(outcome.tally.games() as usize, result.games.len());
    assert_eq!(outcome.tally.losses as usize, result.games.len());

    // The same schedule without a test plays every game.
    let all = matchplay::run_match(&config(20, 1), &forfeiting, &random, &|_| {}).unwrap();
    assert_eq!(all.games.len(), scheduled);
    assert!(all.sprt.is_none());
}
