//! A match's result as one JSON line ([`MatchLine`]), appended by `match --results FILE`
//! to a file that charts and scripts read: who played whom, the
//! engine's wins, draws and losses, the Elo estimate with its 95% interval, and what the
//! engine's moves cost (CPU and clock milliseconds per move, averaged over its moves).
//!
//! Infinite Elo values (a match all won or all lost) are written as `null`. Unknown
//! fields are ignored on reading and missing optional ones are `None`, so older and
//! newer lines mix in one file.

use serde::{Deserialize, Serialize};

use super::Tally;
use super::error::MatchError;
use super::game::GameRecord;
use super::{MatchResult, SprtOutcome};

/// One match, as a line of a results file.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct MatchLine {
    /// The engine's name, as in the report and the PGN.
    pub engine: String,
    /// The search variant the engine ran.
    pub search: String,
    /// The executor (`fast`, `reference`).
    pub executor: String,
    /// The cores the executor ran on.
    pub cores: usize,
    /// The opponent's name.
    pub opponent: String,
    /// The protocol of an outside opponent (`uci`, `xboard`); `None` for a built-in one
    /// and in lines written before it was recorded.
    #[serde(default)]
    pub opponent_protocol: Option<String>,
    /// An outside opponent's search depth, when that was its limit.
    #[serde(default)]
    pub opponent_depth: Option<u32>,
    /// An outside opponent's milliseconds a move, when that was its limit.
    #[serde(default)]
    pub opponent_movetime_ms: Option<u64>,
    /// Games played.
    pub games: u32,
    /// The engine's wins.
    pub wins: u32,
    /// Draws.
    pub draws: u32,
    /// The engine's losses.
    pub losses: u32,
    /// The score fraction, wins plus half the draws over the games.
    pub score: f64,
    /// The Elo difference (`None` when infinite).
    pub elo: Option<f64>,
    /// The low end of its 95% interval (`None` when minus infinity).
    pub elo_low: Option<f64>,
    /// The high end of its 95% interval (`None` when plus infinity).
    pub elo_high: Option<f64>,
    /// The engine's moves over all games.
    pub engine_moves: usize,
    /// The engine's mean CPU milliseconds per move (the asking thread's).
    pub cpu_ms_per_move: Option<f64>,
    /// The engine's mean milliseconds per move by the clock.
    pub wall_ms_per_move: Option<f64>,
    /// The move cap, in plies.
    pub max_plies: usize,
    /// The day the match ended, `YYYY-MM-DD` (UTC).
    pub date: String,
    /// The sequential test's outcome, in words, when there was one.
    #[serde(default)]
    pub sprt: Option<String>,
    /// Anything else worth knowing (where transcribed figures come from, say).
    #[serde(default)]
    pub note: Option<String>,
}

/// What a results line needs besides the games.
#[derive(Clone, Debug)]
pub struct MatchInfo {
    /// The engine's name.
    pub engine: String,
    /// The search variant.
    pub search: String,
    /// The executor's name.
    pub executor: String,
    /// Its cores.
    pub cores: usize,
    /// The opponent's name.
    pub opponent: String,
    /// An outside opponent's protocol and limit.
    pub opponent_limit: OpponentLimit,
    /// The move cap.
    pub max_plies: usize,
    /// The day, `YYYY-MM-DD`.
    pub date: String,
}

/// An outside opponent's protocol and limit, as a results line records them; all
/// `None` for a built-in opponent.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct OpponentLimit {
    /// `uci` or `xboard`.
    pub protocol: Option<String>,
    /// The search depth, when that was the limit.
    pub depth: Option<u32>,
    /// The milliseconds a move, when that was the limit.
    pub movetime_ms: Option<u64>,
}

/// A finite value, else `None`.
fn finite(x: f64) -> Option<f64> {
    x.is_finite().then_some(x)
}

impl MatchLine {
    /// The line of a finished match.
    pub fn of(result: &MatchResult, info: &MatchInfo) -> MatchLine {
        let mut tally = Tally::default();
        result.games.iter().for_each(|g| tally.add(g));
        let estimate = tally.elo();
        let (mut moves, mut cpu, mut wall) = (0usize, 0.0, 0.0);
        for note in result
            .games
            .iter()
            .flat_map(|g: &GameRecord| &g.notes)
            .filter(|n| n.by_engine)
        {
            moves += 1;
            cpu += note.cpu_ms;
            wall += note.wall_ms;
        }
        let mean = |total: f64| (moves > 0).then(|| total / moves as f64);
        MatchLine {
            engine: info.engine.clone(),
            search: info.search.clone(),
            executor: info.executor.clone(),
            cores: info.cores,
            opponent: info.opponent.clone(),
            opponent_protocol: info.opponent_limit.protocol.clone(),
            opponent_depth: info.opponent_limit.depth,
            opponent_movetime_ms: info.opponent_limit.movetime_ms,
            games: tally.games(),
            wins: tally.wins,
            draws: tally.draws,
            losses: tally.losses,
            score: estimate.map_or(f64::NAN, |e| e.score),
            elo: estimate.and_then(|e| finite(e.elo)),
            elo_low: estimate.and_then(|e| finite(e.low)),
            elo_high: estimate.and_then(|e| finite(e.high)),
            engine_moves: moves,
            cpu_ms_per_move: mean(cpu),
            wall_ms_per_move: mean(wall),
            max_plies: info.max_plies,
            date: info.date.clone(),
            sprt: result.sprt.as_ref().map(SprtOutcome::describe),
            note: None,
        }
    }

    /// The opponent with its limit, as charts and tables name it: `NAME, depth N` or
    /// `NAME, MS ms`; just the name when the line records no limit (older lines name the
    /// limit in the opponent itself, written by hand).
    pub fn opponent_label(&self) -> String {
        match (self.opponent_depth, self.opponent_movetime_ms) {
            (Some(depth), _) => format!("{}, depth {depth}", self.opponent),
            (None, Some(ms)) => format!("{}, {ms} ms", self.opponent),
            (None, None) => self.opponent.clone(),
        }
    }

    /// The line as JSON, without its newline.
    pub fn to_json(&self) -> String {
        serde_json::to_string(self).expect("a results line serialises")
    }
}

/// Reads a results file: one JSON object a line; blank lines are skipped.
pub fn read_lines(text: &str) -> Result<Vec<MatchLine>, MatchError> {
    regex_chess_arena::json_lines::read(text).map_err(|bad| MatchError::Results {
        line: bad.line,
        message: bad.message,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_line_round_trips_and_infinities_are_null() {
        let line = MatchLine {
            engine: "e".into(),
            search: "2ply".into(),
            executor: "fast".into(),
            cores: 1,
            opponent: "o".into(),
            opponent_protocol: Some("xboard".into()),
            opponent_depth: Some(2),
            opponent_movetime_ms: None,
            games: 2,
            wins: 2,
            draws: 0,
            losses: 0,
            score: 1.0,
            elo: None,
            elo_low: Some(400.0),
            elo_high: None,
            engine_moves: 10,
            cpu_ms_per_move: Some(12.5),
            wall_ms_per_move: Some(13.0),
            max_plies: 300,
            date: "2026-12-04".into(),
            sprt: None,
            note: None,
        };
        let json = line.to_json();
        assert!(json.contains("\"elo\":null"), "{json}");
        assert_eq!(
            read_lines(&format!("{json}\n\n{json}\n")).unwrap(),
            [line.clone(), line]
        );
        let error = read_lines("{}\n").unwrap_err().to_string();
        assert!(
            error.starts_with("results line 1: missing field"),
            "{error}"
        );
    }
}
