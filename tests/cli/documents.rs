//! Documents that cannot go stale: every repository path that README.md, PERF.md and
//! `docs/` cite exists (or is a generated file git ignores), and the README's headline speed is the one the recorded results
//! give (`data/results/bench.jsonl`, the one source of those figures).
//!
//! The history files (`docs/*-history.md`) are left out on purpose: they record what was,
//! under the names of the commit each run names.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

/// The repository's root.
fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// The documents whose citations must hold: README.md, PERF.md, and `docs/*.md` but the
/// history files.
fn documents() -> Vec<String> {
    let mut names = vec!["README.md".to_string(), "PERF.md".to_string()];
    for entry in std::fs::read_dir(root().join("docs")).expect("docs/ exists") {
        let name = entry.expect("a readable entry").file_name();
        let name = name.to_string_lossy();
        if name.ends_with(".md") && !name.ends_with("-history.md") {
            names.push(format!("docs/{name}"));
        }
    }
    names.sort();
    names
}

/// The folders at the root whose paths documents cite.
const TOP: [&str; 11] = [
    "crates", "tests", "src", "docs", "scripts", "examples", "data", "web", "e2e", "fuzz",
    "benches",
];

/// Whether git ignores `path`: a generated file (the site's rules, a coverage profile)
/// that a document may cite without the repository holding it.
fn ignored_by_git(path: &str) -> bool {
    std::process::Command::new("git")
        .args(["check-ignore", "-q", path])
        .current_dir(root())
        .status()
        .is_ok_and(|status| status.success())
}

/// The repository paths `text` cites: words that start with one of [`TOP`] and a `/`, cut
/// at the first character a path here never holds, with trailing punctuation dropped; a
/// word with a placeholder (`*`, `$`, `<`, `{`, `NAME`, `...`) is a pattern, not a path.
fn cited_paths(text: &str) -> BTreeSet<String> {
    let allowed = |c: char| c.is_ascii_alphanumeric() || "_-./*$<>{}".contains(c);
    let mut found = BTreeSet::new();
    let bytes = text.as_bytes();
    for top in TOP {
        let needle = format!("{top}/");
        let mut from = 0;
        while let Some(at) = text[from..].find(&needle) {
            let start = from + at;
            from = start + needle.len();
            // A path starts a word: not inside another word or path (`src/` in `crates/x/src/`).
            if start > 0 && (allowed(bytes[start - 1] as char) || bytes[start - 1] == b'/') {
                continue;
            }
            let end = text[start..]
                .find(|c: char| !allowed(c))
                .map_or(text.len(), |n| start + n);
            let word = text[start..end].trim_end_matches(['.', '-']);
            let placeholder = ["*", "$", "<", "{", "NAME", "..."]
                .iter()
                .any(|p| word.contains(p));
            if !placeholder && word.len() > needle.len() {
                found.insert(word.to_string());
            }
        }
    }
    found
}

#[test]
fn every_path_the_documents_cite_exists() {
    let mut missing = Vec::new();
    let mut checked = 0;
    for name in documents() {
        let text = std::fs::read_to_string(root().join(&name)).expect("a readable document");
        for path in cited_paths(&text) {
            checked += 1;
            if !root().join(&path).exists() && !ignored_by_git(&path) {
                missing.push(format!("{name} cites {path}"));
            }
        }
    }
    assert!(
        checked > 100,
        "only {checked} paths found: the search is broken"
    );
    assert!(
        missing.is_empty(),
        "paths cited that do not exist:\n{}",
        missing.join("\n")
    );
}

#[test]
fn cited_paths_are_found_and_placeholders_left_out() {
    let text = "see `crates/machine/src/exec/`, tests/chess/perft.rs. Not the src/ of \
                crates/x/src/y again, data/positions/$k.txt, docs/*-history.md or \
                src/cli/NAME.rs; PERF.md";
    let found: Vec<String> = cited_paths(text).into_iter().collect();
    assert_eq!(
        found,
        [
            "crates/machine/src/exec/",
            "crates/x/src/y",
            "tests/chess/perft.rs"
        ]
    );
}

/// The geometric mean.
fn geometric_mean(values: &[f64]) -> f64 {
    (values.iter().map(|v| v.ln()).sum::<f64>() / values.len() as f64).exp()
}

/// The `play` program's one-core medians of each engine by position (the original's own
/// program for the original), the last line of each, as `regex-chess chart headline`
/// reads them.
fn headline_medians() -> BTreeMap<String, BTreeMap<String, f64>> {
    let text = std::fs::read_to_string(root().join("data/results/bench.jsonl")).unwrap();
    let mut by_engine: BTreeMap<String, BTreeMap<String, f64>> = BTreeMap::new();
    for line in text.lines().filter(|l| !l.trim().is_empty()) {
        let value: serde_json::Value = serde_json::from_str(line).expect("a JSON line");
        let executor = value["executor"].as_str().unwrap().to_string();
        let play = value["program"] == "play" || executor == "original";
        if value["cores"] == 1 && play {
            let label = value["label"].as_str().unwrap().to_string();
            let ms = value["median_ms"].as_f64().unwrap();
            by_engine.entry(executor).or_default().insert(label, ms);
        }
    }
    by_engine
}

/// The README's headline speed, word for word as the recorded results give it.
#[test]
fn the_readme_headline_speed_is_the_recorded_one() {
    let medians = headline_medians();
    let engine = |name: &str| {
        medians
            .get(name)
            .unwrap_or_else(|| panic!("no {name} lines"))
    };
    let (fast, original, reference) = (engine("fast"), engine("original"), engine("reference"));
    let positions: Vec<&String> = fast
        .keys()
        .filter(|label| original.contains_key(*label) && reference.contains_key(*label))
        .collect();
    let values =
        |of: &BTreeMap<String, f64>| -> Vec<f64> { positions.iter().map(|l| of[*l]).collect() };
    let fast_ms = values(fast);
    let (lo, hi) = fast_ms
        .iter()
        .fold((f64::MAX, 0.0_f64), |(lo, hi), &v| (lo.min(v), hi.max(v)));
    let ratios: Vec<f64> = positions.iter().map(|l| original[*l] / fast[*l]).collect();
    let (rlo, rhi) = ratios
        .iter()
        .fold((f64::MAX, 0.0_f64), |(lo, hi), &v| (lo.min(v), hi.max(v)));
    let fast_mean = geometric_mean(&fast_ms);
    let original_mean = geometric_mean(&values(original));
    let times = (original_mean / fast_mean / 10.0).round() * 10.0;
    let reference_times = geometric_mean(&values(reference)) / fast_mean;
    let words = |text: &str| text.split_whitespace().collect::<Vec<_>>().join(" ");
    let readme = words(&std::fs::read_to_string(root().join("README.md")).unwrap());
    let expected = [
        format!(
            "answers the {} bench moves in {lo:.1} to {hi:.1} ms, geometric mean {fast_mean:.1} ms,",
            match positions.len() {
                8 => "eight".to_string(),
                n => n.to_string(),
            }
        ),
        format!(
            "against the Python original's {:.1} s:",
            original_mean / 1000.0
        ),
        format!("about {times:.0} times faster ({rlo:.0} to {rhi:.0} times, move by move),"),
        format!("and {reference_times:.1} times faster than the reference executor"),
    ];
    for phrase in expected {
        assert!(
            readme.contains(&phrase),
            "the README's speed does not say `{phrase}`, what data/results/bench.jsonl gives"
        );
    }
    for (engine, words_before) in [("cpython", "a geometric mean of"), ("node", "and")] {
        let mean = geometric_mean(&values(medians.get(engine).unwrap()));
        let phrase = format!("{words_before} {mean:.0} ms in");
        assert!(
            readme.contains(&phrase),
            "the README does not say `{phrase}`"
        );
    }
}
