//! What each chart plots, shaped from the lines of results files: pure functions from
//! [`MatchLine`]s and [`BenchLine`]s to points and series, with no drawing in them (that
//! is [`super::draw`]), so that the choices (which line counts, which mean) are tested on
//! their own.
//!
//! Results files gather the runs of many days, appended in order, so where several lines
//! measure the same thing the **last** one counts: a newer run supersedes an older one
//! without anyone editing the file.

use std::collections::HashMap;

use regex_chess_engine::bench::geometric_mean;
use regex_chess_engine::bench::results::BenchLine;
use regex_chess_engine::matchplay::results::MatchLine;

use super::ChartError;

/// The executor name under which a results file records the Python original's times
/// (transcribed, see `data/results/README.md`).
pub const ORIGINAL: &str = "original";

/// The engines of the headline chart, in drawing order: the results file's executor
/// name and the legend's words.
pub const HEADLINE_ENGINES: [(&str, &str); 5] = [
    (ORIGINAL, "the Python original, CPython"),
    ("cpython", "our rules in CPython's re"),
    ("node", "our rules in Node.js's RegExp"),
    ("reference", "our reference executor (regex crate)"),
    ("fast", "our fast executor"),
];

/// One search variant's strength against one opponent.
#[derive(Clone, Debug, PartialEq)]
pub struct StrengthPoint {
    /// The search variant.
    pub search: String,
    /// The opponent with its limit ([`MatchLine::opponent_label`]).
    pub opponent: String,
    /// Milliseconds per move (see [`strength_points`] for which).
    pub ms: f64,
    /// The Elo difference against the opponent.
    pub elo: f64,
    /// The 95% interval's ends; `None` where infinite (all games won or all lost).
    pub low: Option<f64>,
    /// See `low`.
    pub high: Option<f64>,
    /// The games behind it.
    pub games: u32,
}

/// A named run of `(x, y)` points, sorted by `x`.
#[derive(Clone, Debug, PartialEq)]
pub struct Series {
    /// The legend's name.
    pub name: String,
    /// The search variant it belongs to (series of one variant share a colour).
    pub search: String,
    /// The cores it ran on.
    pub cores: usize,
    /// The points.
    pub points: Vec<(f64, f64)>,
}

/// The headline: each position's milliseconds per move on each engine.
#[derive(Clone, Debug, PartialEq)]
pub struct Headline {
    /// The engines present, as `(results name, legend words)`, in drawing order.
    pub engines: Vec<(&'static str, &'static str)>,
    /// One group a position (and a last one, the geometric mean over the positions every
    /// engine measured): its label and one value an engine, `None` where not measured.
    pub groups: Vec<(String, Vec<Option<f64>>)>,
}

/// The last value of each key, keys in the order they first appear.
fn last_by_key<T, K: Eq + std::hash::Hash + Clone>(
    items: impl IntoIterator<Item = T>,
    key: impl Fn(&T) -> K,
) -> Vec<T> {
    let mut order: Vec<K> = Vec::new();
    let mut last: HashMap<K, T> = HashMap::new();
    for item in items {
        let k = key(&item);
        if last.insert(k.clone(), item).is_none() {
            order.push(k);
        }
    }
    order.into_iter().filter_map(|k| last.remove(&k)).collect()
}

/// The one-core fast-executor bench lines of `search`'s programs, the last per position.
fn one_core_fast<'a>(bench: &'a [BenchLine], search: &str) -> Vec<&'a BenchLine> {
    last_by_key(
        bench.iter().filter(|l| {
            l.search.as_deref() == Some(search) && l.executor == "fast" && l.cores == 1
        }),
        |l| l.label.clone(),
    )
}

/// One point per search variant and opponent, from the last match of each.
///
/// The time is the geometric mean, over the bench positions, of the one-core
/// fast-executor medians of the variant in `bench` (`bench --search NAME --results`): the
/// same positions for every variant, so the points compare. A variant that `bench` has
/// not timed takes the match's own mean CPU milliseconds per move; one with neither is an
/// error naming it. A match whose Elo is infinite (all won or all lost) has no point.
pub fn strength_points(
    matches: &[MatchLine],
    bench: &[BenchLine],
) -> Result<Vec<StrengthPoint>, ChartError> {
    let latest = last_by_key(matches, |m| (m.search.clone(), m.opponent_label()));
    let mut points = Vec::new();
    for m in latest {
        let Some(elo) = m.elo else { continue };
        let timed = one_core_fast(bench, &m.search);
        let ms = if timed.is_empty() {
            m.cpu_ms_per_move.ok_or_else(|| {
                ChartError::NoTime(format!(
                    "{} against {}: no bench line of it and no ms per move in the match",
                    m.search,
                    m.opponent_label()
                ))
            })?
        } else {
            geometric_mean(timed.iter().map(|l| l.median_ms))
        };
        points.push(StrengthPoint {
            search: m.search.clone(),
            opponent: m.opponent_label(),
            ms,
            elo,
            low: m.elo_low,
            high: m.elo_high,
            games: m.games,
        });
    }
    if points.is_empty() {
        return Err(ChartError::NoData("no match with a finite Elo".into()));
    }
    Ok(points)
}

/// One series per search variant and core count: each bench position's widest state (in
/// kilobytes) against its median milliseconds, fast executor, the last line per
/// position. Lines of programs outside the search variants (`play`, say) are left out.
pub fn state_series(bench: &[BenchLine]) -> Result<Vec<Series>, ChartError> {
    let fast = bench
        .iter()
        .filter(|l| l.executor == "fast" && l.search.is_some());
    let latest = last_by_key(fast, |l| (l.search.clone(), l.cores, l.label.clone()));
    let mut series: Vec<Series> = Vec::new();
    for line in latest {
        let search = line.search.clone().unwrap_or_default();
        let point = (line.widest_state as f64 / 1000.0, line.median_ms);
        match series
            .iter_mut()
            .find(|s| s.search == search && s.cores == line.cores)
        {
            Some(s) => s.points.push(point),
            None => series.push(Series {
                name: format!("{search}, {}", cores_words(line.cores)),
                search,
                cores: line.cores,
                points: vec![point],
            }),
        }
    }
    if series.is_empty() {
        return Err(ChartError::NoData(
            "no fast-executor bench line of a search variant".into(),
        ));
    }
    for s in &mut series {
        s.points.sort_by(|a, b| a.0.total_cmp(&b.0));
    }
    series.sort_by(|a, b| (&a.search, a.cores).cmp(&(&b.search, b.cores)));
    Ok(series)
}

/// `1 core`, `2 cores`.
fn cores_words(cores: usize) -> String {
    if cores == 1 {
        "1 core".into()
    } else {
        format!("{cores} cores")
    }
}

/// The headline groups: the `play` program's one-core medians per position on each
/// engine of [`HEADLINE_ENGINES`] that the lines hold (the original's lines are its own
/// program's), then their geometric means over the positions that every engine measured.
pub fn headline(bench: &[BenchLine]) -> Result<Headline, ChartError> {
    let relevant = bench
        .iter()
        .filter(|l| l.cores == 1 && (l.program == "play" || l.executor == ORIGINAL));
    let latest = last_by_key(relevant, |l| (l.executor.clone(), l.label.clone()));
    let engines: Vec<(&'static str, &'static str)> = HEADLINE_ENGINES
        .into_iter()
        .filter(|(name, _)| latest.iter().any(|l| l.executor == *name))
        .collect();
    if engines.len() < 2 {
        return Err(ChartError::NoData(
            "the headline needs the `play` program's lines of at least two engines".into(),
        ));
    }
    let labels = last_by_key(latest.iter().map(|l| l.label.clone()), Clone::clone);
    let value = |engine: &str, label: &str| {
        latest
            .iter()
            .find(|l| l.executor == engine && l.label == label)
            .map(|l| l.median_ms)
    };
    let mut groups: Vec<(String, Vec<Option<f64>>)> = labels
        .iter()
        .map(|label| {
            let values = engines.iter().map(|(e, _)| value(e, label)).collect();
            (label.clone(), values)
        })
        .collect();
    let complete: Vec<&Vec<Option<f64>>> = groups
        .iter()
        .map(|(_, v)| v)
        .filter(|v| v.iter().all(Option::is_some))
        .collect();
    if !complete.is_empty() {
        let means = (0..engines.len())
            .map(|i| Some(geometric_mean(complete.iter().filter_map(|v| v[i]))))
            .collect();
        groups.push((
            format!("geometric mean ({} positions)", complete.len()),
            means,
        ));
    }
    Ok(Headline { engines, groups })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn bench(
        search: Option<&str>,
        executor: &str,
        cores: usize,
        label: &str,
        ms: f64,
    ) -> BenchLine {
        BenchLine {
            program: search.map_or("play", |_| "move").into(),
            search: search.map(Into::into),
            executor: executor.into(),
            cores,
            label: label.into(),
            widest_state: (ms * 1000.0) as usize,
            median_ms: ms,
            runs: 3,
            date: "2026-12-05".into(),
            note: None,
        }
    }

    fn played(search: &str, opponent: &str, (w, d, l): (u32, u32, u32)) -> MatchLine {
        let e = regex_chess_arena::elo::EloEstimate::from_results(w, d, l).unwrap();
        let finite = |x: f64| x.is_finite().then_some(x);
        MatchLine {
            engine: "regex-chess".into(),
            search: search.into(),
            executor: "fast".into(),
            cores: 1,
            opponent: opponent.into(),
            opponent_protocol: None,
            opponent_depth: None,
            opponent_movetime_ms: None,
            games: w + d + l,
            wins: w,
            draws: d,
            losses: l,
            score: e.score,
            elo: finite(e.elo),
            elo_low: finite(e.low),
            elo_high: finite(e.high),
            engine_moves: 10,
            cpu_ms_per_move: Some(999.0),
            wall_ms_per_move: None,
            max_plies: 300,
            date: "2026-12-05".into(),
            sprt: None,
            note: None,
        }
    }

    #[test]
    fn the_last_match_counts_and_time_comes_from_the_bench() {
        let matches = [
            played("2ply", "sf", (1, 0, 9)),
            played("2ply", "sf", (3, 0, 7)),
            played("3ply-qe", "sf", (5, 0, 5)),
            played("2ply", "other", (10, 0, 0)),
        ];
        let lines = [
            bench(Some("2ply"), "fast", 1, "a", 10.0),
            bench(Some("2ply"), "fast", 1, "b", 40.0),
            bench(Some("2ply"), "fast", 2, "a", 1.0),
            bench(Some("2ply"), "reference", 1, "a", 1.0),
        ];
        let points = strength_points(&matches, &lines).unwrap();
        // The all-won match has no finite Elo: no point.
        assert_eq!(points.len(), 2);
        assert_eq!(points[0].search, "2ply");
        assert!((points[0].elo - elo_of(0.3)).abs() < 1e-9, "{points:?}");
        assert!(
            (points[0].ms - 20.0).abs() < 1e-9,
            "geometric mean of 10 and 40"
        );
        // Not in the bench: the match's own time.
        assert_eq!(points[1].ms, 999.0);
        assert_eq!(points[1].elo, 0.0);
    }

    #[test]
    fn an_opponent_s_recorded_limit_names_its_point_and_old_lines_keep_their_names() {
        let old = played("2ply", "Fairy-Max 5.0b, depth 2", (3, 0, 7));
        let at = |depth: Option<u32>, ms: Option<u64>, (w, d, l)| MatchLine {
            opponent_protocol: Some("xboard".into()),
            opponent_depth: depth,
            opponent_movetime_ms: ms,
            ..played("2ply", "Fairy-Max 5.0b", (w, d, l))
        };
        let matches = [
            old,
            at(Some(2), None, (5, 0, 5)),
            at(Some(3), None, (2, 0, 8)),
            at(None, Some(100), (1, 0, 9)),
        ];
        let points = strength_points(&matches, &[]).unwrap();
        let names: Vec<&str> = points.iter().map(|p| p.opponent.as_str()).collect();
        // The old line and the new one at depth 2 name the same opponent: the last counts.
        assert_eq!(
            names,
            [
                "Fairy-Max 5.0b, depth 2",
                "Fairy-Max 5.0b, depth 3",
                "Fairy-Max 5.0b, 100 ms"
            ]
        );
        assert_eq!(points[0].elo, 0.0);
    }

    fn elo_of(score: f64) -> f64 {
        regex_chess_arena::elo::elo_of_score(score)
    }

    #[test]
    fn a_point_without_a_time_is_an_error_naming_it() {
        let mut m = played("2ply-q", "sf", (1, 1, 1));
        m.cpu_ms_per_move = None;
        let error = strength_points(&[m], &[]).unwrap_err().to_string();
        assert!(error.contains("2ply-q against sf"), "{error}");
        assert!(matches!(
            strength_points(&[], &[]),
            Err(ChartError::NoData(_))
        ));
    }

    #[test]
    fn state_series_group_by_search_and_cores_sorted_by_size() {
        let lines = [
            bench(Some("2ply"), "fast", 1, "b", 40.0),
            bench(Some("2ply"), "fast", 1, "a", 10.0),
            bench(Some("2ply"), "fast", 2, "a", 12.0),
            bench(Some("2ply"), "fast", 1, "a", 11.0),
            bench(None, "fast", 1, "a", 5.0),
            bench(Some("2ply"), "reference", 1, "a", 50.0),
        ];
        let series = state_series(&lines).unwrap();
        let names: Vec<&str> = series.iter().map(|s| s.name.as_str()).collect();
        assert_eq!(names, ["2ply, 1 core", "2ply, 2 cores"]);
        assert_eq!(series[0].points, [(11.0, 11.0), (40.0, 40.0)]);
        assert_eq!(series[1].points, [(12.0, 12.0)]);
        assert!(state_series(&lines[4..]).is_err());
    }

    #[test]
    fn the_headline_takes_play_and_the_original_and_means_complete_positions() {
        let mut original = bench(None, ORIGINAL, 1, "a", 5000.0);
        original.program = "the Python original".into();
        let lines = [
            original,
            bench(None, "fast", 1, "a", 10.0),
            bench(None, "fast", 1, "b", 40.0),
            bench(None, "fast", 2, "a", 1.0),
            bench(Some("2ply"), "fast", 1, "a", 1.0),
        ];
        let h = headline(&lines).unwrap();
        let engines: Vec<&str> = h.engines.iter().map(|(e, _)| *e).collect();
        assert_eq!(engines, [ORIGINAL, "fast"]);
        assert_eq!(h.groups[0], ("a".into(), vec![Some(5000.0), Some(10.0)]));
        assert_eq!(h.groups[1], ("b".into(), vec![None, Some(40.0)]));
        assert_eq!(h.groups[2].0, "geometric mean (1 positions)");
        assert_eq!(h.groups.len(), 3);
        assert!(
            headline(&lines[1..]).is_err(),
            "one engine is no comparison"
        );
    }
}
