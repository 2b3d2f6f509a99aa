//! `profile --bound --fields` and `bound`: the lower bound beside the measured time, and
//! the widest state's bytes field by field, through the built binary. No timing is
//! asserted: only that the figures are there and add up.

use std::process::Command;

const KING_AND_PAWN: &str = "8/8/4k3/8/2K5/8/3P4/8 w - - 0 1";

fn regex_chess(args: &[&str]) -> String {
    let output = Command::new(env!("CARGO_BIN_EXE_regex-chess"))
        .args(args)
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(output.status.success(), "{stderr}");
    String::from_utf8(output.stdout).unwrap()
}

/// The first number of the line starting with `prefix`.
fn number_after(text: &str, prefix: &str) -> f64 {
    let line = text
        .lines()
        .find(|l| l.trim_start().starts_with(prefix))
        .unwrap_or_else(|| panic!("no line {prefix:?} in\n{text}"));
    line.trim_start()[prefix.len()..]
        .split(|c: char| !(c.is_ascii_digit() || c == '.'))
        .find(|w| !w.is_empty())
        .unwrap()
        .parse()
        .unwrap()
}

/// The bound and its split are printed with the prices; the widest state's kinds add up
/// to its bytes.
#[test]
fn profile_prints_the_bound_and_the_fields_of_the_widest_state() {
    let out = regex_chess(&[
        "profile",
        "--program",
        "legal-moves",
        "--fen",
        KING_AND_PAWN,
        "--top",
        "2",
        "--bound",
        "--fields",
        "4",
    ]);
    assert!(out.contains("prices on this machine: "), "{out}");
    assert!(number_after(&out, "bound ") > 0.0, "{out}");
    assert!(out.lines().any(|l| l.ends_with("  total")), "{out}");
    let widest = number_after(&out, "widest state: ");
    let kinds: f64 = out
        .lines()
        .filter(|l| l.contains("  all "))
        .map(|l| l.split_whitespace().next().unwrap().parse::<f64>().unwrap())
        .sum();
    assert!(widest > 0.0 && kinds == widest, "{out}");
    assert!(out.contains("#b ("), "the board variable is a field: {out}");
}

/// `bound` on one position and one variant: a table with the bound, the measured time
/// and their ratio, and a clear error for an unknown variant.
#[test]
fn bound_prints_one_table_per_variant() {
    let dir = tempfile::tempdir().unwrap();
    let positions = dir.path().join("one.txt");
    std::fs::write(&positions, format!("{KING_AND_PAWN};d2d4;king and pawn\n")).unwrap();
    let path = positions.to_str().unwrap();
    let out = regex_chess(&[
        "bound",
        "--variants",
        "2ply",
        "--positions",
        path,
        "--runs",
        "1",
    ]);
    assert!(out.contains("`2ply` ("), "{out}");
    let row = out
        .lines()
        .find(|l| l.starts_with("| king and pawn |"))
        .unwrap_or_else(|| panic!("{out}"));
    assert!(row.trim_end().ends_with("x |"), "a ratio: {row}");
    assert!(out.contains("| geometric mean |"), "{out}");
    let bad = Command::new(env!("CARGO_BIN_EXE_regex-chess"))
        .args(["bound", "--variants", "9ply", "--positions", path])
        .output()
        .unwrap();
    assert!(!bad.status.success());
    let err = String::from_utf8(bad.stderr).unwrap();
    assert!(err.contains("9ply") && err.lines().count() == 1, "{err}");
}
