//! An external engine over the UCI subset (`--opponent uci:PATH`), driven as the arenas
//! drive one: `uci`/`uciok` and `isready`/`readyok` at start, `ucinewgame` per game,
//! then per move `position fen F moves ...` (F the position at the last flip or capture,
//! the quiet moves since) and `go movetime MS` or `go nodes N`, read until `bestmove`.
//! The referee keeps the deal: the external engine learns a flip's piece only from the
//! next position. An engine that dies or answers nonsense makes `choose` return `None`
//! (the match counts it as a crash); one that hangs hangs the match (no watchdog).

use std::io::{self, BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};

use crate::game::Game;
use crate::moves::Move;
use crate::player::Player;
use crate::search::Limits;

/// The `position` command for `game`: the position at its last flip or capture, and
/// the quiet moves since.
pub fn position_command(game: &Game) -> String {
    let mut position = *game.start();
    let mut base = position;
    let mut quiet: Vec<String> = Vec::new();
    for &(mv, revealed) in game.moves() {
        let reset = mv.is_flip() || position.is_capture(mv);
        position.play_unchecked(mv, revealed);
        if reset {
            base = position;
            quiet.clear();
        } else {
            quiet.push(mv.to_string());
        }
    }
    if quiet.is_empty() {
        format!("position fen {base}")
    } else {
        format!("position fen {base} moves {}", quiet.join(" "))
    }
}

/// A running external engine.
pub struct External {
    path: String,
    child: Child,
    input: ChildStdin,
    output: BufReader<ChildStdout>,
}

impl External {
    /// Starts the engine (`path`, then any arguments after spaces: `regex-chess banqi
    /// uci`) and waits for `uciok` and `readyok`.
    pub fn spawn(path: &str) -> io::Result<External> {
        let mut words = path.split_whitespace();
        let program = words
            .next()
            .ok_or_else(|| io::Error::new(io::ErrorKind::InvalidInput, "no engine path"))?;
        let mut child = Command::new(program)
            .args(words)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()?;
        let broken = || io::Error::new(io::ErrorKind::BrokenPipe, "no pipe to the engine");
        let input = child.stdin.take().ok_or_else(broken)?;
        let output = BufReader::new(child.stdout.take().ok_or_else(broken)?);
        let mut engine = External {
            path: path.to_string(),
            child,
            input,
            output,
        };
        engine.send("uci")?;
        engine.wait_for("uciok")?;
        engine.send("isready")?;
        engine.wait_for("readyok")?;
        Ok(engine)
    }

    fn send(&mut self, line: &str) -> io::Result<()> {
        writeln!(self.input, "{line}")?;
        self.input.flush()
    }

    /// Reads lines until one starts with `word`; returns it.
    fn wait_for(&mut self, word: &str) -> io::Result<String> {
        let mut line = String::new();
        loop {
            line.clear();
            if self.output.read_line(&mut line)? == 0 {
                return Err(io::Error::new(
                    io::ErrorKind::UnexpectedEof,
                    format!("the engine ended before `{word}`"),
                ));
            }
            if line.trim_start().starts_with(word) {
                return Ok(line.trim().to_string());
            }
        }
    }

    fn ask(&mut self, game: &Game, limits: Limits) -> io::Result<Move> {
        self.send(&position_command(game))?;
        let go = match (limits.nodes, limits.time) {
            (Some(n), _) => format!("go nodes {n}"),
            (None, Some(t)) => format!("go movetime {}", t.as_millis()),
            (None, None) => "go movetime 1000".to_string(),
        };
        self.send(&go)?;
        let line = self.wait_for("bestmove")?;
        let text = line.split_whitespace().nth(1).unwrap_or("");
        text.parse()
            .map_err(|e| io::Error::new(io::ErrorKind::InvalidData, format!("{e}")))
    }
}

impl Player for External {
    fn name(&self) -> String {
        format!("uci:{}", self.path)
    }

    fn new_game(&mut self) {
        let _ = self.send("ucinewgame").and_then(|()| self.send("isready"));
        let _ = self.wait_for("readyok");
    }

    fn choose(&mut self, game: &Game, limits: Limits) -> Option<Move> {
        self.ask(game, limits).ok()
    }
}

impl Drop for External {
    fn drop(&mut self) {
        let _ = self.send("quit");
        if !matches!(self.child.try_wait(), Ok(Some(_))) {
            std::thread::sleep(std::time::Duration::from_millis(50));
            if !matches!(self.child.try_wait(), Ok(Some(_))) {
                let _ = self.child.kill();
            }
        }
        let _ = self.child.wait();
    }
}
