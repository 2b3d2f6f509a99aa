//! A UCI engine as a match opponent: started as a child process, asked with `position`
//! and `go`, read until `bestmove` (with a timeout for every answer), and stopped when
//! the player is dropped. The score and depth of its last `info` line before `bestmove`
//! go into its [`PlayedMove`], for the PGN's move comments.

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::time::Duration;

use super::{PlayedMove, Player, Turn};
use crate::matchplay::error::MatchError;
use crate::reply::Score;

/// How a UCI opponent is started and asked.
#[derive(Clone, Debug, Default)]
pub struct UciSettings {
    /// The engine's executable.
    pub path: String,
    /// `setoption` pairs, sent after `uci`.
    pub options: Vec<(String, String)>,
    /// `go depth N`, when set.
    pub depth: Option<u32>,
    /// `go movetime MS`, when set (with neither, `go depth 1`).
    pub movetime: Option<u64>,
    /// How long the engine may take to answer one command ([`UCI_TIMEOUT`] when `None`).
    pub timeout: Option<Duration>,
}

/// How long a UCI opponent may take to answer one command by default.
pub const UCI_TIMEOUT: Duration = Duration::from_secs(60);

/// An external engine spoken to through UCI.
pub struct UciPlayer {
    settings: UciSettings,
    name: String,
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<String>,
}

impl UciPlayer {
    /// Starts the engine, sends `uci` and the options, and waits for `readyok`.
    pub fn start(settings: UciSettings) -> Result<UciPlayer, MatchError> {
        let mut child = Command::new(&settings.path)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .map_err(|source| MatchError::Start {
                path: settings.path.clone(),
                source,
            })?;
        let stdin = child.stdin.take().expect("piped stdin");
        let stdout = child.stdout.take().expect("piped stdout");
        let (send, lines) = mpsc::channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if send.send(line).is_err() {
                    break;
                }
            }
        });
        let mut player = UciPlayer {
            name: settings.path.clone(),
            settings,
            child,
            stdin,
            lines,
        };
        player.send("uci")?;
        let id = player.wait_for("uciok")?;
        if let Some(name) = id
            .iter()
            .find_map(|line| line.strip_prefix("id name "))
            .map(str::to_string)
        {
            player.name = name;
        }
        for (name, value) in player.settings.options.clone() {
            player.send(&format!("setoption name {name} value {value}"))?;
        }
        player.send("isready")?;
        player.wait_for("readyok")?;
        Ok(player)
    }

    fn send(&mut self, line: &str) -> Result<(), MatchError> {
        writeln!(self.stdin, "{line}")
            .and_then(|()| self.stdin.flush())
            .map_err(|source| MatchError::Write {
                path: self.settings.path.clone(),
                source,
            })
    }

    /// The lines read until one starting with `word`, that line last; an error when the
    /// engine takes longer than the timeout for a line or closes its output first.
    fn wait_for(&mut self, word: &str) -> Result<Vec<String>, MatchError> {
        let timeout = self.settings.timeout.unwrap_or(UCI_TIMEOUT);
        let mut seen = Vec::new();
        loop {
            let line = self.lines.recv_timeout(timeout).map_err(|e| match e {
                RecvTimeoutError::Timeout => MatchError::Timeout {
                    path: self.settings.path.clone(),
                    word: word.to_string(),
                    seconds: timeout.as_secs_f64(),
                },
                RecvTimeoutError::Disconnected => MatchError::Closed {
                    path: self.settings.path.clone(),
                    word: word.to_string(),
                },
            })?;
            let done = line.split_whitespace().next() == Some(word);
            seen.push(line);
            if done {
                return Ok(seen);
            }
        }
    }
}

impl Player for UciPlayer {
    fn name(&self) -> String {
        let mut name = self.name.clone();
        let options: Vec<String> = self
            .settings
            .options
            .iter()
            .map(|(n, v)| format!("{n}={v}"))
            .collect();
        if !options.is_empty() {
            name.push_str(&format!(" ({})", options.join(", ")));
        }
        name
    }

    fn new_game(&mut self, _game: usize) -> Result<(), MatchError> {
        self.send("ucinewgame")?;
        self.send("isready")?;
        self.wait_for("readyok").map(|_| ())
    }

    fn choose(&mut self, turn: &Turn<'_>) -> Result<PlayedMove, MatchError> {
        let mut position = format!("position fen {}", turn.start_fen);
        if !turn.moves.is_empty() {
            position.push_str(" moves ");
            position.push_str(&turn.moves.join(" "));
        }
        self.send(&position)?;
        let go = match (self.settings.depth, self.settings.movetime) {
            (_, Some(ms)) => format!("go movetime {ms}"),
            (Some(depth), None) => format!("go depth {depth}"),
            (None, None) => "go depth 1".to_string(),
        };
        self.send(&go)?;
        let lines = self.wait_for("bestmove")?;
        let best = lines
            .last()
            .and_then(|l| l.split_whitespace().nth(1))
            .ok_or_else(|| MatchError::NoBestMove {
                path: self.settings.path.clone(),
            })?;
        let (score, depth) = last_info(&lines);
        Ok(PlayedMove {
            score,
            depth,
            ..PlayedMove::of(best)
        })
    }
}

impl Drop for UciPlayer {
    fn drop(&mut self) {
        let _ = self.send("quit");
        for _ in 0..20 {
            if let Ok(Some(_)) = self.child.try_wait() {
                return;
            }
            std::thread::sleep(Duration::from_millis(50));
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// The score and the depth of the last `info` line that gives a score (and the depth of
/// that line, when it gives one): what the engine thought of the move it chose.
fn last_info(lines: &[String]) -> (Option<Score>, Option<u32>) {
    for line in lines.iter().rev() {
        let words: Vec<&str> = line.split_whitespace().collect();
        if words.first() != Some(&"info")
            || words.contains(&"multipv") && !line.contains(" multipv 1 ")
        {
            continue;
        }
        // The word `offset` places after `key`.
        let after = |key: &str, offset: usize| {
            let at = words.iter().position(|w| *w == key)?;
            words.get(at + offset).copied()
        };
        let score = match (after("score", 1), after("score", 2)) {
            (Some("cp"), Some(n)) => n.parse().ok().map(Score::Cp),
            (Some("mate"), Some(n)) => n.parse().ok().map(Score::Mate),
            _ => None,
        };
        if score.is_some() {
            return (score, after("depth", 1).and_then(|n| n.parse().ok()));
        }
    }
    (None, None)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_the_last_scored_info_line() {
        let lines: Vec<String> = [
            "info depth 1 seldepth 1 score cp 20 nodes 20 pv e2e4",
            "info depth 2 seldepth 3 score mate -3 nodes 80 pv e2e4 e7e5",
            "info string hello",
            "bestmove e2e4",
        ]
        .map(String::from)
        .to_vec();
        assert_eq!(last_info(&lines), (Some(Score::Mate(-3)), Some(2)));
        let lines = vec!["info depth 1".to_string(), "bestmove e2e4".to_string()];
        assert_eq!(last_info(&lines), (None, None));
        let lines = vec![
            "info depth 5 multipv 1 score cp 31 pv e2e4".to_string(),
            "info depth 5 multipv 2 score cp -7 pv d2d4".to_string(),
        ];
        assert_eq!(last_info(&lines), (Some(Score::Cp(31)), Some(5)));
    }
}
