//! An outside engine's process, whatever protocol it speaks: started with its standard
//! input and output piped, its output read line by line on a thread of its own so that
//! every wait has a timeout, and stopped when dropped (`quit`, then killed if it has not
//! ended within a second). [`super::UciPlayer`] and [`super::XboardPlayer`] speak their
//! protocols over it; the settings they share are [`OpponentSettings`].
//!
//! Trade-off: the reader thread outlives a killed engine only until its pipe closes,
//! which killing does at once; a line is never read twice, so a protocol that wants to
//! look ahead keeps what it read itself.

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::time::Duration;

use crate::matchplay::error::MatchError;

/// How an outside opponent is started and asked, whatever its protocol.
#[derive(Clone, Debug, Default)]
pub struct OpponentSettings {
    /// The engine's executable.
    pub path: String,
    /// Arguments on its command line.
    pub args: Vec<String>,
    /// Option pairs: UCI `setoption`, xboard `option NAME=VALUE`.
    pub options: Vec<(String, String)>,
    /// The search depth, when set (UCI `go depth N`, xboard `sd N`).
    pub depth: Option<u32>,
    /// The time per move in milliseconds, when set (UCI `go movetime MS`, xboard a
    /// one-move time control with that much on the clock). With neither, depth 1.
    pub movetime: Option<u64>,
    /// How long the engine may take to answer one command ([`ANSWER_TIMEOUT`] when
    /// `None`).
    pub timeout: Option<Duration>,
}

impl OpponentSettings {
    /// The limit the opponent plays at: the movetime when set, else the depth, else
    /// depth 1.
    pub fn limit(&self) -> Limit {
        match (self.movetime, self.depth) {
            (Some(ms), _) => Limit::Movetime(ms),
            (None, Some(depth)) => Limit::Depth(depth),
            (None, None) => Limit::Depth(1),
        }
    }

    /// An opponent's name in results and PGNs: `base` (what the engine calls itself),
    /// then what this match set on its command line and its options, when any:
    /// `Phalanx XXV (-l-, -b-)`, `Stockfish 15.1 (Skill Level=0)`.
    pub fn name_with(&self, base: String) -> String {
        let said: Vec<String> = self
            .args
            .iter()
            .cloned()
            .chain(self.options.iter().map(|(n, v)| format!("{n}={v}")))
            .collect();
        match said.is_empty() {
            true => base,
            false => format!("{base} ({})", said.join(", ")),
        }
    }
}

/// What bounds an outside opponent's search on each move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Limit {
    /// Plies.
    Depth(u32),
    /// Milliseconds a move.
    Movetime(u64),
}

/// How long an outside opponent may take to answer one command by default.
pub const ANSWER_TIMEOUT: Duration = Duration::from_secs(60);

/// A running outside engine.
pub struct EngineProcess {
    path: String,
    timeout: Duration,
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<String>,
}

impl EngineProcess {
    /// Starts the engine of `settings`.
    pub fn start(settings: &OpponentSettings) -> Result<EngineProcess, MatchError> {
        let mut child = Command::new(&settings.path)
            .args(&settings.args)
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
        Ok(EngineProcess {
            path: settings.path.clone(),
            timeout: settings.timeout.unwrap_or(ANSWER_TIMEOUT),
            child,
            stdin,
            lines,
        })
    }

    /// The engine's executable, for messages.
    pub fn path(&self) -> &str {
        &self.path
    }

    /// Writes one line to the engine.
    pub fn send(&mut self, line: &str) -> Result<(), MatchError> {
        writeln!(self.stdin, "{line}")
            .and_then(|()| self.stdin.flush())
            .map_err(|source| MatchError::Write {
                path: self.path.clone(),
                source,
            })
    }

    /// The next line, waiting at most `wait` (the settings' timeout when `None`);
    /// `awaited` names what was awaited in the error.
    pub fn line_within(
        &mut self,
        wait: Option<Duration>,
        awaited: &str,
    ) -> Result<String, MatchError> {
        let wait = wait.unwrap_or(self.timeout);
        self.lines.recv_timeout(wait).map_err(|e| match e {
            RecvTimeoutError::Timeout => MatchError::Timeout {
                path: self.path.clone(),
                word: awaited.to_string(),
                seconds: wait.as_secs_f64(),
            },
            RecvTimeoutError::Disconnected => MatchError::Closed {
                path: self.path.clone(),
                word: awaited.to_string(),
            },
        })
    }

    /// The next line within the settings' timeout.
    pub fn line(&mut self, awaited: &str) -> Result<String, MatchError> {
        self.line_within(None, awaited)
    }

    /// The lines read until one whose first word is `word`, that line last.
    pub fn wait_for(&mut self, word: &str) -> Result<Vec<String>, MatchError> {
        let mut seen = Vec::new();
        loop {
            let line = self.line(word)?;
            let done = line.split_whitespace().next() == Some(word);
            seen.push(line);
            if done {
                return Ok(seen);
            }
        }
    }
}

impl Drop for EngineProcess {
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

#[cfg(test)]
mod tests {
    use super::*;

    /// The name lists the command line's arguments, then the options, for either protocol.
    #[test]
    fn names_carry_arguments_then_options() {
        let mut settings = OpponentSettings::default();
        assert_eq!(settings.name_with("E 1".into()), "E 1");
        settings.options.push(("Skill Level".into(), "0".into()));
        assert_eq!(settings.name_with("E 1".into()), "E 1 (Skill Level=0)");
        settings.args = vec!["-l-".into(), "-b-".into()];
        assert_eq!(
            settings.name_with("E 1".into()),
            "E 1 (-l-, -b-, Skill Level=0)"
        );
    }
}
