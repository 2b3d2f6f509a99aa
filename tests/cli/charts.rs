//! `regex-chess chart`: the pictures in `docs/charts/` are what the command draws from
//! the recorded results in `data/results/` (so neither can change without the other),
//! they show what they claim, the transcribed match lines agree with their own games,
//! and bad or missing data is an error that names the file and the line.

use regex_chess_testkit::binary;

use std::path::{Path, PathBuf};

use regex_chess_arena::elo::EloEstimate;
use regex_chess_arena::json_lines;
use regex_chess_engine::bench::results::read_lines;
use regex_chess_engine::matchplay::results::MatchLine;

/// The repository's root, where the defaults of `chart` point.
fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// Draws `chart` with the default data into a temporary file; the SVG text.
fn draw(chart: &str, extra: &[&str]) -> String {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("chart.svg");
    let mut args = vec!["chart", chart, "--out", out.to_str().unwrap()];
    args.extend_from_slice(extra);
    let output = binary::run(&args, |c| _ = c.current_dir(root()), b"");
    assert!(
        output.status.success(),
        "chart {chart}: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    std::fs::read_to_string(out).unwrap()
}

/// The picture in the repository.
fn committed(chart: &str) -> String {
    let path = root().join("docs/charts").join(format!("{chart}.svg"));
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

#[test]
fn each_picture_is_what_the_command_draws_from_the_recorded_results() {
    for chart in ["strength", "state", "headline"] {
        assert!(
            draw(chart, &[]) == committed(chart),
            "docs/charts/{chart}.svg is not what `regex-chess chart {chart}` draws from \
             data/results/: redraw it with that command in the repository's root"
        );
    }
}

#[test]
fn the_pictures_show_what_they_claim() {
    let strength = draw("strength", &[]);
    for search in ["2ply", "2ply-q", "2ply-qe", "3ply-qe"] {
        assert!(
            strength.contains(&format!("{search} (")),
            "strength names {search}"
        );
    }
    let state = draw("state", &[]);
    for series in ["2ply, 1 core", "3ply-qe, 1 core", "3ply-qe, 2 cores"] {
        assert!(state.contains(series), "state has the series {series}");
    }
    let headline = draw("headline", &[]);
    for engine in [
        "Python original",
        "in CPython",
        "in Node.js",
        "fast executor",
    ] {
        assert!(headline.contains(engine), "the headline has {engine}");
    }
    assert!(headline.contains("kiwipete") && headline.contains("geometric mean"));
}

#[test]
fn the_recorded_matches_agree_with_their_games() {
    let text = std::fs::read_to_string(root().join("data/results/matches.jsonl")).unwrap();
    let lines: Vec<MatchLine> = json_lines::read(&text).unwrap();
    assert!(!lines.is_empty());
    for m in lines {
        assert_eq!(m.games, m.wins + m.draws + m.losses, "{}", m.search);
        let e = EloEstimate::from_results(m.wins, m.draws, m.losses).unwrap();
        let close = |a: Option<f64>, b: f64| a.is_some_and(|a| (a - b).abs() < 1e-6);
        assert!(close(Some(m.score), e.score), "{}: score", m.search);
        assert!(close(m.elo, e.elo), "{}: elo", m.search);
        assert!(
            close(m.elo_low, e.low) && close(m.elo_high, e.high),
            "{}",
            m.search
        );
    }
    let bench = std::fs::read_to_string(root().join("data/results/bench.jsonl")).unwrap();
    assert!(
        read_lines(&bench)
            .unwrap()
            .iter()
            .all(|l| l.median_ms > 0.0)
    );
}

/// Runs `chart` on a given bench file; the exit status and standard error.
fn chart_on(chart: &str, bench: &Path) -> (bool, String) {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("chart.svg");
    let args = [
        "chart",
        chart,
        "--bench",
        bench.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
    ];
    let output = binary::run(&args, |c| _ = c.current_dir(root()), b"");
    (
        output.status.success(),
        String::from_utf8_lossy(&output.stderr).into_owned(),
    )
}

#[test]
fn bad_or_missing_data_is_an_error_naming_the_file_and_the_line() {
    let dir = tempfile::tempdir().unwrap();
    let bad = dir.path().join("bad.jsonl");
    let good = std::fs::read_to_string(root().join("data/results/bench.jsonl")).unwrap();
    let first = good.lines().next().unwrap();
    std::fs::write(&bad, format!("{first}\n{{\"program\": 3}}\n")).unwrap();
    let (ok, stderr) = chart_on("state", &bad);
    assert!(!ok);
    assert!(
        stderr.contains("bad.jsonl") && stderr.contains("line 2"),
        "{stderr}"
    );
    assert!(!stderr.contains("panicked"), "{stderr}");

    let (ok, stderr) = chart_on("headline", &dir.path().join("missing.jsonl"));
    assert!(!ok && stderr.contains("missing.jsonl"), "{stderr}");

    // Only the original's line: nothing the headline can compare.
    let original = dir.path().join("original.jsonl");
    std::fs::write(&original, format!("{first}\n")).unwrap();
    let (ok, stderr) = chart_on("headline", &original);
    assert!(!ok && stderr.contains("nothing to draw"), "{stderr}");
}
