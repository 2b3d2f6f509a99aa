//! xboard (CECP 2) opponents: short matches through the binary against Debian's
//! `fairymax` and `phalanx` (their games replayed move by move by shakmaty from the PGN,
//! their results line carrying the opponent's protocol and limit), and a scripted
//! stand-in engine for the conversation itself: what it is told (`setboard` or `edit`,
//! `usermove`, the limit) and the clear errors when it refuses a move, answers garbage,
//! falls silent, dies or is asked for an option it lacks.
//!
//! The matches need `/usr/games/fairymax` and `/usr/games/phalanx`
//! (`apt-get install fairymax phalanx`); without them they say so and check nothing,
//! unless `REGEX_CHESS_REQUIRE_ENGINES` is set, which makes that a failure.

use std::path::Path;
use std::process::Command;

use regex_chess_engine::matchplay::game::parse_position;
use regex_chess_engine::matchplay::players::{OpponentSettings, Player, Turn, XboardPlayer};
use regex_chess_engine::matchplay::results::read_lines;
use regex_chess_testkit::oracle;
use shakmaty::Position;

use super::matchplay::{parse_pgn, scripted_settings, write_script};

/// Plays a short match against the xboard engine `engine` with `limit` (its flags), and
/// checks the games' moves and the results line; returns the line's opponent.
fn short_match(test: &str, engine: &str, limit: &[&str]) -> Option<String> {
    if !Path::new(engine).exists() {
        oracle::engine::require_tool(
            test,
            &format!("{engine} (apt-get install fairymax phalanx)"),
        );
        return None;
    }
    let dir = tempfile::tempdir().unwrap();
    let pgn_path = dir.path().join("games.pgn");
    let results = dir.path().join("matches.jsonl");
    let opponent = format!("xboard:{engine}");
    let mut args = vec![
        "match",
        "--search",
        "2ply",
        "--opponent",
        &opponent,
        "--games",
        "2",
        "--max-plies",
        "40",
        "--pgn",
        pgn_path.to_str().unwrap(),
        "--results",
        results.to_str().unwrap(),
    ];
    args.extend(limit);
    let out = Command::new(env!("CARGO_BIN_EXE_regex-chess"))
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .args(&args)
        .output()
        .expect("the binary runs");
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    assert!(stdout.contains("games 2: +"), "{stdout}");
    // Neither side forfeited: every move was legal and every answer came.
    let endings = stdout.lines().find(|l| l.starts_with("endings:")).unwrap();
    assert!(!endings.contains("forfeit"), "{stdout}");
    let games = parse_pgn(&std::fs::read_to_string(&pgn_path).unwrap());
    assert_eq!(games.len(), 2);
    for (tags, moves, result) in &games {
        let fen = &tags.iter().find(|(n, _)| n == "FEN").unwrap().1;
        // parse_pgn replayed every move of both sides with shakmaty; a game that ended
        // before the cap ended on the board.
        let mut pos = parse_position(fen).unwrap();
        for m in moves {
            pos = oracle::judge::play(&pos, m);
        }
        if moves.len() < 40 && result != "1/2-1/2" {
            assert!(pos.is_checkmate(), "{result} after {moves:?}");
        }
    }
    let lines = read_lines(&std::fs::read_to_string(&results).unwrap()).unwrap();
    assert_eq!(lines.len(), 1);
    assert_eq!(lines[0].games, 2);
    assert_eq!(lines[0].opponent_protocol.as_deref(), Some("xboard"));
    Some(lines[0].opponent_label())
}

#[test]
fn a_short_match_against_fairymax_at_a_movetime() {
    let test = "a_short_match_against_fairymax_at_a_movetime";
    let limit = ["--opponent-movetime", "50"];
    if let Some(opponent) = short_match(test, "/usr/games/fairymax", &limit) {
        assert!(opponent.starts_with("Fairy-Max"), "{opponent}");
        assert!(opponent.ends_with(", 50 ms"), "{opponent}");
    }
}

#[test]
fn a_short_match_against_phalanx_at_a_depth() {
    let test = "a_short_match_against_phalanx_at_a_depth";
    // Phalanx refuses `sd`: the player finds its `depth` command.
    let limit = ["--opponent-depth", "2", "--opponent-arg=-l-"];
    if let Some(opponent) = short_match(test, "/usr/games/phalanx", &limit) {
        assert_eq!(opponent, "Phalanx XXV (-l-), depth 2");
    }
}

/// Writes a stand-in xboard engine: a shell script that records its process id in `pid`
/// and every line it is told in `told` (next to it), offers `features`, answers `ping`,
/// and does `on_go` when told `go`.
fn script_engine(dir: &Path, features: &str, on_go: &str) -> String {
    let path = dir.join("engine.sh");
    let script = format!(
        "#!/bin/sh\necho $$ > '{pid}'\nwhile read -r line; do\n  echo \"$line\" >> '{told}'\n  \
         case \"$line\" in\n    protover*) echo 'feature myname=\"scripted\" {features}'; \
         echo 'feature done=1';;\n    ping*) echo \"pong ${{line#ping }}\";;\n    \
         go) {on_go};;\n    quit) exit 0;;\n  esac\ndone\n",
        pid = dir.join("pid").display(),
        told = dir.join("told").display(),
    );
    write_script(&path, &script)
}

/// The player's answer in the position `fen` after `moves`.
fn choose_in(player: &mut XboardPlayer, fen: &str, moves: &[&str]) -> Result<String, String> {
    let mut pos = parse_position(fen).unwrap();
    for m in moves {
        pos = oracle::judge::play(&pos, m);
    }
    let moves: Vec<String> = moves.iter().map(|m| m.to_string()).collect();
    player.new_game(0).map_err(|e| e.to_string())?;
    player
        .choose(&Turn {
            start_fen: fen,
            moves: &moves,
            pos: &pos,
            earlier: &[],
        })
        .map(|m| m.uci)
        .map_err(|e| e.to_string())
}

fn told(dir: &Path) -> Vec<String> {
    std::fs::read_to_string(dir.join("told"))
        .unwrap()
        .lines()
        .map(str::to_string)
        .collect()
}

fn alive(dir: &Path) -> bool {
    let pid = std::fs::read_to_string(dir.join("pid")).unwrap();
    Path::new(&format!("/proc/{}", pid.trim())).exists()
}

const BLACK_TO_MOVE: &str = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1";

#[test]
fn an_engine_without_setboard_is_set_up_by_edit_and_told_its_limit() {
    let dir = tempfile::tempdir().unwrap();
    let path = script_engine(dir.path(), "setboard=0 ping=1", "echo 'move e7e5'");
    let mut player = XboardPlayer::start(OpponentSettings {
        depth: Some(3),
        ..scripted_settings(path)
    })
    .unwrap();
    assert_eq!(player.name(), "scripted");
    assert_eq!(choose_in(&mut player, BLACK_TO_MOVE, &[]).unwrap(), "e7e5");
    let told = told(dir.path());
    let at = |line: &str| told.iter().position(|l| l == line);
    for line in [
        "xboard",
        "protover 2",
        "accepted myname",
        "new",
        "force",
        "sd 3",
    ] {
        assert!(at(line).is_some(), "{line} not in {told:?}");
    }
    // Black to move: a white move first, then the pieces, as xboard does.
    let (a2a3, edit, end) = (at("a2a3").unwrap(), at("edit").unwrap(), at(".").unwrap());
    assert!(a2a3 < edit && edit < end, "{told:?}");
    assert_eq!(told[edit + 1], "#");
    assert!(told[edit..end].contains(&"Pe4".to_string()), "{told:?}");
    assert!(told[edit..end].contains(&"c".to_string()), "{told:?}");
    assert!(told[end..].contains(&"go".to_string()), "{told:?}");
    assert!(!told.iter().any(|l| l.starts_with("setboard")), "{told:?}");
    drop(player);
    assert!(!alive(dir.path()), "the engine outlives its player");
}

#[test]
fn an_engine_with_setboard_and_usermove_is_told_so_and_only_new_moves_later() {
    let dir = tempfile::tempdir().unwrap();
    let path = script_engine(
        dir.path(),
        "setboard=1 usermove=1 ping=1",
        "echo '1 25 0 10 Nf6'; echo 'move g8f6'",
    );
    let mut player = XboardPlayer::start(OpponentSettings {
        movetime: Some(250),
        ..scripted_settings(path)
    })
    .unwrap();
    let start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
    let fen = "rnbqkbnr/pppppppp/8/8/8/5N2/PPPPPPPP/RNBQKB1R w KQkq - 1 1";
    let mut pos = parse_position(fen).unwrap();
    player.new_game(0).unwrap();
    let mut moves: Vec<String> = vec!["e2e4".into()];
    pos = oracle::judge::play(&pos, "e2e4");
    let first = player
        .choose(&Turn {
            start_fen: fen,
            moves: &moves,
            pos: &pos,
            earlier: &[],
        })
        .unwrap();
    assert_eq!(first.uci, "g8f6");
    assert_eq!(first.depth, Some(1));
    // The same game later: the engine hears only the two moves since.
    moves.extend(["g8f6".into(), "d2d4".into()]);
    for m in ["g8f6", "d2d4"] {
        pos = oracle::judge::play(&pos, m);
    }
    let _ = player.choose(&Turn {
        start_fen: fen,
        moves: &moves,
        pos: &pos,
        earlier: &[],
    });
    let told = told(dir.path());
    let count = |line: &str| told.iter().filter(|l| *l == line).count();
    assert_eq!(count(&format!("setboard {fen}")), 1, "{told:?}");
    assert_eq!(count("usermove e2e4"), 1, "{told:?}");
    assert_eq!(count("usermove d2d4"), 1, "{told:?}");
    assert_eq!(count("usermove g8f6"), 0, "its own move is not told back");
    assert_eq!(count("level 1 0:01 0"), 1, "{told:?}");
    assert_eq!(count("time 25"), 2, "{told:?}");
    assert!(!told.iter().any(|l| l == "edit" || l.contains(start)));
}

#[test]
fn an_engine_that_refuses_a_move_answers_garbage_or_claims_a_result_is_an_error() {
    for (on_go, error) in [
        (
            "echo 'Illegal move: e2e4'",
            "refused the game's moves: Illegal move: e2e4",
        ),
        ("echo 'resign'", "the engine resigns"),
        (
            "echo '1-0 {White mates}'",
            "claims `1-0 {White mates}` instead of moving",
        ),
        ("echo 'move'", "`move` without a move"),
        ("sleep 30", "no `move` within 0.5s"),
        ("kill -9 $$", "ended (closed its output) before `move`"),
    ] {
        let dir = tempfile::tempdir().unwrap();
        let path = script_engine(dir.path(), "setboard=1 ping=1", on_go);
        let mut player = XboardPlayer::start(scripted_settings(path)).unwrap();
        let start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
        let got = choose_in(&mut player, start, &[]).unwrap_err();
        assert!(got.contains(error), "{on_go}: {got}");
        drop(player);
        assert!(
            !alive(dir.path()),
            "{on_go}: the engine outlives its player"
        );
    }
    // Garbage for a move is passed on as written: the referee forfeits it as illegal.
    let dir = tempfile::tempdir().unwrap();
    let path = script_engine(dir.path(), "setboard=1 ping=1", "echo 'move zz9'");
    let mut player = XboardPlayer::start(scripted_settings(path)).unwrap();
    let start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
    assert_eq!(choose_in(&mut player, start, &[]).unwrap(), "zz9");
}

#[test]
fn an_engine_is_set_only_the_options_it_declares() {
    let dir = tempfile::tempdir().unwrap();
    let path = script_engine(
        dir.path(),
        "option=\"Resign -check 0\" option=\"Hash Size -spin 16 1 64\"",
        "echo 'move e2e4'",
    );
    let with = |options: &[(&str, &str)]| {
        XboardPlayer::start(OpponentSettings {
            options: options
                .iter()
                .map(|(n, v)| (n.to_string(), v.to_string()))
                .collect(),
            ..scripted_settings(path.clone())
        })
    };
    let Err(error) = with(&[("Skill", "3")]) else {
        panic!("an undeclared option was set");
    };
    assert!(
        error
            .to_string()
            .ends_with("declares no option `Skill` (its options: Hash Size, Resign)"),
        "{error}"
    );
    let player = with(&[("Hash Size", "8")]).unwrap();
    assert_eq!(player.name(), "scripted (Hash Size=8)");
    drop(player);
    assert!(told(dir.path()).contains(&"option Hash Size=8".to_string()));
}

#[test]
fn an_engine_that_is_missing_or_never_done_is_an_error() {
    let Err(error) = XboardPlayer::start(scripted_settings("/nonexistent/engine".into())) else {
        panic!("a missing engine started");
    };
    assert!(
        error
            .to_string()
            .starts_with("cannot start /nonexistent/engine"),
        "{error}"
    );
    // `done=0` asks for patience; the timeout still ends it.
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("slow.sh");
    let path = write_script(
        &path,
        "#!/bin/sh\nread -r a\nread -r b\necho 'feature done=0'\nexec sleep 30\n",
    );
    let Err(error) = XboardPlayer::start(scripted_settings(path)) else {
        panic!("an engine that never said done=1 started");
    };
    assert!(
        error
            .to_string()
            .contains("no `feature done=1` within 0.5s"),
        "{error}"
    );
}
