//! `bench --results FILE`: one JSON line per position, executor and core count
//! ([`BenchLine`]), appended to a file that charts and scripts read: the
//! program, its search, the executor, the widest state and the median milliseconds.

use serde::{Deserialize, Serialize};

use super::BenchError;

/// One position's figures on one executor, as a line of a results file.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct BenchLine {
    /// The program timed.
    pub program: String,
    /// The search it belongs to, if any.
    pub search: Option<String>,
    /// The executor (`fast`, `reference`).
    pub executor: String,
    /// The cores it ran on.
    pub cores: usize,
    /// The position's label.
    pub label: String,
    /// The widest state of the run, in bytes.
    pub widest_state: usize,
    /// The median milliseconds of the timed runs.
    pub median_ms: f64,
    /// How many timed runs.
    pub runs: usize,
    /// The day, `YYYY-MM-DD` (UTC).
    pub date: String,
    /// Anything else worth knowing (where transcribed figures come from, say); not
    /// written when empty.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
}

impl BenchLine {
    /// The line as JSON, without its newline.
    pub fn to_json(&self) -> String {
        serde_json::to_string(self).expect("a bench line serialises")
    }
}

/// Reads a bench results file: one JSON object a line; blank lines are skipped; an
/// error names the line.
pub fn read_lines(text: &str) -> Result<Vec<BenchLine>, BenchError> {
    regex_chess_arena::json_lines::read(text).map_err(|bad| BenchError::Results {
        line: bad.line,
        message: bad.message,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_line_round_trips() {
        let line = BenchLine {
            program: "move".into(),
            search: Some("2ply".into()),
            executor: "fast".into(),
            cores: 2,
            label: "opening: start".into(),
            widest_state: 192_000,
            median_ms: 18.2,
            runs: 5,
            date: "2026-12-04".into(),
            note: None,
        };
        assert_eq!(
            read_lines(&format!("{}\n\n", line.to_json())).unwrap(),
            [line]
        );
        let error = read_lines("[]\n").unwrap_err().to_string();
        assert!(error.starts_with("bench results line 1: "), "{error}");
    }
}
