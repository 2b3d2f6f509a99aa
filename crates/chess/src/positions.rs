//! The position suites of `data/positions/`, compiled into the binary.
//!
//! `bench` and `match` (and the criterion benches) read their positions from here unless
//! a file is named on the command line, so every command works from any directory with
//! nothing beside the binary. The formats and sources of the suites are described in
//! `data/positions/README.md`; each command parses its suite itself.

use std::path::Path;

/// `FEN;white's move;label` a line: the seconds-per-move suite.
pub const BENCH: &str = include_str!("../../../data/positions/bench.txt");

/// `name;FEN;perft(1);perft(2);perft(3)` a line: the standard perft positions.
pub const PERFT: &str = include_str!("../../../data/positions/perft.txt");

/// `FEN;evaluation` a line: 60 balanced openings for paired matches.
pub const OPENINGS: &str = include_str!("../../../data/positions/openings.txt");

/// A suite's file that could not be read: its path and why.
#[derive(Debug, thiserror::Error)]
#[error("cannot read {}: {source}", path.display())]
pub struct SuiteError {
    /// The file.
    pub path: std::path::PathBuf,
    /// Why it could not be read.
    #[source]
    pub source: std::io::Error,
}

/// The text of a suite: the file at `path` when one is given, else the built-in `default`.
/// The error names the file and why it could not be read.
pub fn read_or_builtin(path: Option<&Path>, default: &'static str) -> Result<String, SuiteError> {
    match path {
        None => Ok(default.to_string()),
        Some(path) => std::fs::read_to_string(path).map_err(|source| SuiteError {
            path: path.to_path_buf(),
            source,
        }),
    }
}

/// How to name a suite in messages: the file, or `built-in NAME`.
pub fn describe(path: Option<&Path>, builtin_name: &str) -> String {
    path.map_or_else(
        || format!("the built-in {builtin_name}"),
        |p| p.display().to_string(),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_suite_has_data_lines() {
        for (name, text, fields) in [
            ("bench", BENCH, 3),
            ("perft", PERFT, 5),
            ("openings", OPENINGS, 2),
        ] {
            let lines: Vec<&str> = text
                .lines()
                .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
                .collect();
            assert!(lines.len() >= 7, "{name}: only {} lines", lines.len());
            for line in lines {
                assert_eq!(line.split(';').count(), fields, "{name}: {line:?}");
            }
        }
    }

    #[test]
    fn a_named_file_wins_and_a_missing_one_is_named() {
        assert_eq!(read_or_builtin(None, "x").unwrap(), "x");
        let err = read_or_builtin(Some(Path::new("/nonexistent/suite.txt")), "x")
            .unwrap_err()
            .to_string();
        assert!(err.contains("/nonexistent/suite.txt"), "{err}");
    }
}
