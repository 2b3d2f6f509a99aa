//! Results files: one JSON object a line, the form `match --results` and `bench
//! --results` append to.
//!
//! Appending a line never rewrites what a file already holds, so the runs of several
//! days gather in one file; reading skips blank lines and names the line at fault, so a
//! hand-edited file that went wrong says where.

use serde::de::DeserializeOwned;

/// A line that is not the JSON of the expected record.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("line {line}: {message}")]
pub struct BadLine {
    /// Its number, from 1.
    pub line: usize,
    /// What the JSON reader said of it.
    pub message: String,
}

/// Reads every non-blank line of `text` as a `T`.
pub fn read<T: DeserializeOwned>(text: &str) -> Result<Vec<T>, BadLine> {
    text.lines()
        .enumerate()
        .filter(|(_, line)| !line.trim().is_empty())
        .map(|(i, line)| {
            serde_json::from_str(line).map_err(|e| BadLine {
                line: i + 1,
                message: e.to_string(),
            })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn blank_lines_are_skipped_and_a_bad_line_is_named() {
        let read_numbers = |text: &str| read::<u32>(text);
        assert_eq!(read_numbers("1\n\n  \n2\n"), Ok(vec![1, 2]));
        let bad = read_numbers("1\n\nx\n").unwrap_err();
        assert_eq!(bad.line, 3);
        assert!(bad.to_string().starts_with("line 3: "), "{bad}");
    }
}
