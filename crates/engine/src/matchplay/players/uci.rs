//! A UCI engine as a match opponent: started as a child process
//! ([`super::process::EngineProcess`]), asked with `position` and `go`, read until
//! `bestmove` (with a timeout for every answer), and stopped when the player is dropped.
//! The score and depth of its last `info` line before `bestmove` go into its
//! [`PlayedMove`], for the PGN's move comments.

use super::process::{EngineProcess, Limit, OpponentSettings};
use super::{PlayedMove, Player, Turn};
use crate::matchplay::error::MatchError;
use crate::reply::Score;

/// An external engine spoken to through UCI.
pub struct UciPlayer {
    settings: OpponentSettings,
    name: String,
    process: EngineProcess,
}

impl UciPlayer {
    /// Starts the engine, sends `uci` and the options, and waits for `readyok`.
    pub fn start(settings: OpponentSettings) -> Result<UciPlayer, MatchError> {
        let process = EngineProcess::start(&settings)?;
        let mut player = UciPlayer {
            name: settings.path.clone(),
            settings,
            process,
        };
        player.process.send("uci")?;
        let id = player.process.wait_for("uciok")?;
        if let Some(name) = id
            .iter()
            .find_map(|line| line.strip_prefix("id name "))
            .map(str::to_string)
        {
            player.name = name;
        }
        for (name, value) in player.settings.options.clone() {
            player
                .process
                .send(&format!("setoption name {name} value {value}"))?;
        }
        player.process.send("isready")?;
        player.process.wait_for("readyok")?;
        Ok(player)
    }
}

impl Player for UciPlayer {
    fn name(&self) -> String {
        self.settings.name_with(self.name.clone())
    }

    fn new_game(&mut self, _game: usize) -> Result<(), MatchError> {
        self.process.send("ucinewgame")?;
        self.process.send("isready")?;
        self.process.wait_for("readyok").map(|_| ())
    }

    fn choose(&mut self, turn: &Turn<'_>) -> Result<PlayedMove, MatchError> {
        let mut position = format!("position fen {}", turn.start_fen);
        if !turn.moves.is_empty() {
            position.push_str(" moves ");
            position.push_str(&turn.moves.join(" "));
        }
        self.process.send(&position)?;
        let go = match self.settings.limit() {
            Limit::Movetime(ms) => format!("go movetime {ms}"),
            Limit::Depth(depth) => format!("go depth {depth}"),
        };
        self.process.send(&go)?;
        let lines = self.process.wait_for("bestmove")?;
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
