//! The search report the rules may write after the `move` program's output.
//!
//! The `move` contract (see [`crate::chess`]) ends with the status line. A search may
//! add, after it, any of these lines, each at most once, in any order:
//!
//! | line | meaning |
//! | --- | --- |
//! | `score cp <int>` / `score mate <int>` | the chosen move's score from the mover's view |
//! | `depth <plies>` | the depth searched |
//! | `nodes <n>` | the positions examined |
//! | `pv <uci> [<uci> ...]` | the principal variation, the chosen move first |
//!
//! [`split_report`] cuts them off the state so the rest can be read as the contract
//! says; every field is optional, and a state without them has an empty report.

use crate::chess::uci::UciMove;

/// A score as UCI writes it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Score {
    /// Centipawns from the mover's view.
    Cp(i32),
    /// Mate in this many moves (negative: the mover is mated).
    Mate(i32),
}

impl std::fmt::Display for Score {
    /// `cp <int>` or `mate <int>`, as after `score` in an `info` line.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Score::Cp(cp) => write!(f, "cp {cp}"),
            Score::Mate(moves) => write!(f, "mate {moves}"),
        }
    }
}

/// What the rules said about their search; every field may be missing.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SearchReport {
    /// The chosen move's score.
    pub score: Option<Score>,
    /// The depth searched, in plies.
    pub depth: Option<u32>,
    /// The positions examined.
    pub nodes: Option<u64>,
    /// The principal variation, the chosen move first (empty when not reported).
    pub pv: Vec<UciMove>,
}

/// Splits a `move` output state into the contract's lines (as a state, each line ending
/// in `\n`) and the report lines after them. The report starts at the first line whose
/// first word is `score`, `depth`, `nodes` or `pv`; every line from there must be one of
/// those, well formed and not repeated.
pub fn split_report(state: &str) -> Result<(&str, SearchReport), String> {
    let keys = ["score ", "depth ", "nodes ", "pv ", "pv\n"];
    let mut at = 0;
    while at < state.len() && !keys.iter().any(|k| state[at..].starts_with(k)) {
        at = match state[at..].find('\n') {
            Some(end) => at + end + 1,
            None => state.len(),
        };
    }
    let (core, rest) = state.split_at(at);
    let mut report = SearchReport::default();
    let mut seen = Vec::new();
    for line in rest.lines() {
        let (key, value) = line.split_once(' ').unwrap_or((line, ""));
        if seen.contains(&key) {
            return Err(format!("the report line `{key}` appears twice"));
        }
        seen.push(key);
        let bad = || format!("malformed report line {line:?}");
        match key {
            "score" => {
                report.score = Some(match value.split_once(' ') {
                    Some(("cp", n)) => Score::Cp(n.parse().map_err(|_| bad())?),
                    Some(("mate", n)) => Score::Mate(n.parse().map_err(|_| bad())?),
                    _ => return Err(bad()),
                });
            }
            "depth" => report.depth = Some(value.parse().map_err(|_| bad())?),
            "nodes" => report.nodes = Some(value.parse().map_err(|_| bad())?),
            "pv" => {
                report.pv = value
                    .split(' ')
                    .filter(|m| !m.is_empty())
                    .map(|m| m.parse::<UciMove>().map_err(|_| bad()))
                    .collect::<Result<_, _>>()?;
            }
            _ => return Err(format!("unexpected line {line:?} after the report")),
        }
    }
    if !rest.is_empty() && !rest.ends_with('\n') {
        return Err("the last report line does not end in a newline".to_string());
    }
    Ok((core, report))
}

#[cfg(test)]
mod tests {
    use super::*;

    const CORE: &str = "move e2e4\nfen rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1\nstatus ongoing\n";

    fn pv(moves: &[&str]) -> Vec<UciMove> {
        moves.iter().map(|m| m.parse().unwrap()).collect()
    }

    #[test]
    fn a_state_without_a_report_is_all_core() {
        assert_eq!(split_report(CORE), Ok((CORE, SearchReport::default())));
        assert_eq!(
            split_report("status checkmate\n"),
            Ok(("status checkmate\n", SearchReport::default()))
        );
        assert_eq!(split_report(""), Ok(("", SearchReport::default())));
    }

    #[test]
    fn reads_every_report_line() {
        let state = format!("{CORE}score cp -35\ndepth 4\nnodes 12345\npv e2e4 e7e5 g1f3\n");
        let (core, report) = split_report(&state).unwrap();
        assert_eq!(core, CORE);
        assert_eq!(
            report,
            SearchReport {
                score: Some(Score::Cp(-35)),
                depth: Some(4),
                nodes: Some(12345),
                pv: pv(&["e2e4", "e7e5", "g1f3"]),
            }
        );
        let state = format!("{CORE}pv e2e4\nscore mate -3\n");
        let (_, report) = split_report(&state).unwrap();
        assert_eq!(report.score, Some(Score::Mate(-3)));
        assert_eq!(report.score.unwrap().to_string(), "mate -3");
        assert_eq!(report.pv, pv(&["e2e4"]));
        assert_eq!((report.depth, report.nodes), (None, None));
        let (core, report) = split_report("status checkmate\nscore mate 0\n").unwrap();
        assert_eq!(core, "status checkmate\n");
        assert_eq!(report.score, Some(Score::Mate(0)));
    }

    #[test]
    fn refuses_a_malformed_report() {
        for (tail, problem) in [
            ("score cp\n", "malformed"),
            ("score pawns 3\n", "malformed"),
            ("score cp 1.5\n", "malformed"),
            ("depth -1\n", "malformed"),
            ("nodes many\n", "malformed"),
            ("pv e2e4 e7e9\n", "malformed"),
            ("depth 2\ndepth 3\n", "appears twice"),
            ("depth 2\nstatus ongoing\n", "unexpected line"),
            ("depth 2", "newline"),
        ] {
            let state = format!("{CORE}{tail}");
            let error = split_report(&state).unwrap_err();
            assert!(error.contains(problem), "{tail:?}: {error}");
        }
    }
}
