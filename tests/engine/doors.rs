//! The binary's doors on random input, drawn as the fuzz targets `uci_session` and
//! `play_prompt` draw it (`crates/testkit/src/doors/`), from seeded bytes: UCI sessions through
//! `regex-chess uci` and typed lines at `regex-chess play`, each judged by the same judge
//! as the fuzz target's (shakmaty follows the game). `REGEX_CHESS_DOORS_SEED=N` adds a
//! seed of your own (printed, with how to replay it).

use regex_chess_testkit::binary;
use regex_chess_testkit::doors;

use std::time::Duration;

use doors::{Bytes, seeded};
use regex_chess_chess::pretty::{PROMPT_ENGINE, PROMPT_PLAYER};

/// The end of a finished game's screen.
const GAME_OVER: &str = "Game over.\n";

/// The fixed seeds, and the one the environment adds.
fn seeds(fixed: &[u64]) -> Vec<u64> {
    let mut seeds = fixed.to_vec();
    if let Some(seed) = std::env::var("REGEX_CHESS_DOORS_SEED")
        .ok()
        .and_then(|s| s.trim().parse().ok())
    {
        eprintln!(
            "doors: seed {seed} (replay: REGEX_CHESS_DOORS_SEED={seed} cargo test --test engine doors::)"
        );
        seeds.push(seed);
    }
    seeds
}

/// The lines of a UCI session drawn from `seed`, each followed by `isready`, so that the
/// output splits into each line's answer.
fn uci_script(seed: u64, lines: usize) -> Vec<Vec<u8>> {
    let data = seeded(seed, 8192);
    let mut bytes = Bytes::new(&data);
    let mut judge = doors::uci::Judge::new();
    let mut out = Vec::new();
    while out.len() < lines && !judge.quit() {
        let line = doors::uci::line(&mut bytes, judge.position());
        judge.sent(&line);
        judge.sent(b"isready");
        out.push(line);
    }
    out
}

/// Whether the session reads `line` as `isready` (its first word, the line read as
/// lossy UTF-8).
fn is_isready(line: &[u8]) -> bool {
    String::from_utf8_lossy(line).split_whitespace().next() == Some("isready")
}

#[test]
fn random_uci_sessions_through_the_binary_keep_the_protocol() {
    for seed in seeds(&[1, 2, 3, 4]) {
        judge_session(&format!("seed {seed}"), &uci_script(seed, 24));
    }
}

/// A random legal game from `seed` (shakmaty draws it), up to `plies` long: it stops
/// where the game ends, and before the half-move clock passes 100.
fn random_game(seed: u64, plies: usize) -> Vec<String> {
    use shakmaty::{Chess, Position, uci::UciMove};
    let data = seeded(seed, 4 * plies);
    let mut bytes = Bytes::new(&data);
    let mut pos = Chess::default();
    let mut game = Vec::new();
    while game.len() < plies && !pos.is_game_over() && pos.halfmoves() < 100 {
        let moves = pos.legal_moves();
        let m = moves[bytes.below(moves.len())];
        game.push(UciMove::from_standard(m).to_string());
        pos.play_unchecked(m);
    }
    game
}

/// Long `position ... moves` lines, as a GUI sends them late in a game: random games of
/// up to 400 plies from the start and from the position after the first ten of their
/// moves, whole and with a wrong move in the middle, then searched; the engine keeps
/// what shakmaty keeps (with its note when it stops early) and answers a legal move.
#[test]
fn long_move_lists_keep_the_game() {
    for seed in seeds(&[21, 22]) {
        let game = random_game(seed, 400);
        assert!(
            game.len() > 40,
            "seed {seed}: a game of {} plies",
            game.len()
        );
        let mut after_ten = shakmaty::Chess::default();
        for mv in &game[..10] {
            let m = mv.parse::<shakmaty::uci::UciMove>().unwrap();
            let m = m.to_move(&after_ten).unwrap();
            shakmaty::Position::play_unchecked(&mut after_ten, m);
        }
        let fen = shakmaty::fen::Fen::from_position(&after_ten, shakmaty::EnPassantMode::Legal);
        let mut broken = game.clone();
        broken.insert(game.len() / 2, "e1e8".into());
        let lines: Vec<Vec<u8>> = [
            format!("position startpos moves {}", game.join(" ")),
            "go depth 1".into(),
            format!("position fen {fen} moves {}", game[10..].join(" ")),
            "go depth 1".into(),
            format!("position startpos moves {}", broken.join(" ")),
            "go depth 1".into(),
        ]
        .into_iter()
        .map(String::into_bytes)
        .collect();
        judge_session(&format!("long game, seed {seed}"), &lines);
    }
}

/// Runs `regex-chess uci` on `lines`, each followed by `isready`, and judges what it
/// prints with [`doors::uci::Judge`]; `what` names the session in a failure.
fn judge_session(what: &str, lines: &[Vec<u8>]) {
    let mut input = Vec::new();
    for line in lines {
        input.extend_from_slice(line);
        input.extend_from_slice(b"\nisready\n");
    }
    let out = binary::run(&["uci"], |_| {}, &input);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{what}: {:?} {stderr}", out.status);
    assert!(!stderr.contains("panicked"), "{what}: {stderr}");
    let stdout = String::from_utf8_lossy(&out.stdout);
    // Each line's answer ends with the `readyok` of the `isready` after it (the
    // second one when the line is an `isready` itself).
    let mut printed = stdout.lines().map(str::to_string);
    let mut answers: Vec<Vec<String>> = Vec::new();
    for line in lines {
        let mut due = 1 + usize::from(is_isready(line));
        let mut answer = Vec::new();
        while due > 0 {
            let Some(next) = printed.next() else { break };
            due -= usize::from(next == "readyok");
            answer.push(next);
        }
        answers.push(answer);
    }
    answers.push(printed.collect());
    let mut judge = doors::uci::Judge::new();
    for (k, line) in lines.iter().enumerate() {
        let answer = answers.get(k).cloned().unwrap_or_default();
        // The line's own output, then the `readyok` of the `isready` after it.
        let own = match answer.last().map(String::as_str) {
            Some("readyok") => &answer[..answer.len() - 1],
            _ => &answer[..],
        };
        judge.sent(line);
        let checked = own
            .iter()
            .try_for_each(|printed| judge.received(printed))
            .and_then(|()| judge.line_done(own))
            .and_then(|()| {
                judge.sent(b"isready");
                answer[own.len()..]
                    .iter()
                    .try_for_each(|printed| judge.received(printed))
            });
        if let Err(e) = checked {
            panic!(
                "{what}, line {k}: {e}\nafter: {}\n{answer:?}",
                judge.recent()
            );
        }
    }
    // What the end of the input printed (a held `bestmove`).
    for printed in answers.iter().skip(lines.len()).flatten() {
        judge
            .received(printed)
            .unwrap_or_else(|e| panic!("{what}, at the end: {e}"));
    }
    judge
        .finish()
        .unwrap_or_else(|e| panic!("{what}: {e}\nafter: {}", judge.recent()));
}

/// `regex-chess play` driven a line at a time: each typed line, then the screen it
/// brings.
struct Prompt {
    child: std::process::Child,
    stdin: std::process::ChildStdin,
    output: std::sync::mpsc::Receiver<u8>,
}

impl Prompt {
    fn start(args: &[&str]) -> Prompt {
        use std::io::Read;
        use std::process::{Command, Stdio};
        let mut child = Command::new(env!("CARGO_BIN_EXE_regex-chess"))
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("the binary starts");
        let stdin = child.stdin.take().expect("piped");
        let mut stdout = child.stdout.take().expect("piped");
        let (send, output) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            let mut byte = [0u8];
            while stdout.read(&mut byte).unwrap_or(0) == 1 {
                if send.send(byte[0]).is_err() {
                    break;
                }
            }
        });
        Prompt {
            child,
            stdin,
            output,
        }
    }

    /// The next screen: up to the prompt (`...: `) or the end of the game; `None` when
    /// the program ended first.
    fn screen(&mut self) -> Option<String> {
        let mut bytes = Vec::new();
        loop {
            let Ok(byte) = self.output.recv_timeout(Duration::from_secs(120)) else {
                return None;
            };
            bytes.push(byte);
            let text = String::from_utf8_lossy(&bytes);
            let ended = [GAME_OVER, PROMPT_PLAYER, PROMPT_ENGINE]
                .iter()
                .any(|end| text.ends_with(end));
            if ended {
                return Some(text.trim_start_matches('\n').to_string());
            }
        }
    }

    fn type_line(&mut self, line: &[u8]) {
        use std::io::Write;
        let mut bytes = line.to_vec();
        bytes.push(b'\n');
        self.stdin.write_all(&bytes).expect("the prompt reads");
        self.stdin.flush().expect("flushed");
    }
}

impl Drop for Prompt {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// The board text of a screen: from its rank-8 line on (a message such as the one for a
/// line that is not UTF-8 may come before it).
fn board_of(screen: &str) -> &str {
    let at = if screen.starts_with("8 ") {
        0
    } else {
        screen.find("\n8 ").map_or(0, |i| i + 1)
    };
    &screen[at..]
}

#[test]
fn random_lines_typed_at_the_play_prompt_keep_the_game() {
    for seed in seeds(&[11, 12, 13]) {
        let data = seeded(seed, 4096);
        let mut bytes = Bytes::new(&data);
        let fen = doors::FENS[bytes.below(doors::FENS.len())];
        let engine = if fen.split(' ').nth(1) == Some("w") {
            "black"
        } else {
            "white"
        };
        let args = [
            "play",
            "--fen",
            fen,
            "--engine-color",
            engine,
            "--search",
            "2ply",
        ];
        let mut prompt = Prompt::start(&args);
        let first = prompt.screen().expect("the first board");
        let mut judge = doors::play::Judge::new(board_of(&first))
            .unwrap_or_else(|e| panic!("seed {seed}: {e}"));
        for _ in 0..10 {
            let line = doors::play::line(&mut bytes, judge.position());
            let clipped = String::from_utf8(line.clone()).map(|t| doors::play::clip(&t));
            if let Ok("quit" | "exit") = clipped.as_deref() {
                break;
            }
            prompt.type_line(&line);
            let screen = prompt
                .screen()
                .unwrap_or_else(|| panic!("seed {seed} from {fen}: no screen after {line:?}"));
            let board = board_of(&screen);
            match &clipped {
                Ok(typed) => judge.after(typed, board).unwrap_or_else(|e| {
                    panic!("seed {seed} from {fen}, typed {typed:?}: {e}\n{screen}")
                }),
                // Not UTF-8: a message, and the same board again.
                Err(_) => assert!(
                    screen.starts_with("That line is not UTF-8") && judge.after("", board).is_ok(),
                    "seed {seed}: {screen}"
                ),
            }
            if board.ends_with("Game over.\n") {
                break;
            }
        }
    }
}
