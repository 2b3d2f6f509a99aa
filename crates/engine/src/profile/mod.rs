//! Where a run spends its time, by source origin: `regex-chess profile`.
//!
//! A [`Recorder`] observes one run and keeps, per rule, the time since the previous rule
//! ended, the matches, whether the rule was skipped, the state length before it (the bytes
//! a search may scan; 0 for a skipped rule) and after it. [`by_origin`] sums those per
//! origin (`file:line` of the DSL call and the instruction), and the output forms are a
//! top-N table ([`render_top`]), folded stacks for flame-graph tools ([`folded`]: one
//! `file:line;instruction microseconds` line per origin) and an SVG plot of the state size
//! and the elapsed time over the rule index ([`svg`]).
//!
//! Times include the observer's own cost (a clock read per rule), which is small next to
//! any rule that searches.
//!
//! Beside them: [`bound`], the run's lower bound by origin (what any executor must do,
//! priced on this machine), and [`fields`], the widest state's bytes field by field.

pub mod bound;
pub mod fields;

use std::collections::HashMap;
use std::ops::ControlFlow;
use std::time::Instant;

use regex_chess_machine::exec::{Executor, NoObserver, Observer, RuleReport, StateTooLarge};
use regex_chess_machine::program::{Origin, ValidProgram};

/// What one rule did in a profiled run.
#[derive(Clone, Copy, Debug, Default)]
pub struct RuleSample {
    /// Nanoseconds from the end of the previous rule to the end of this one.
    pub nanos: u64,
    /// Matches replaced.
    pub matches: usize,
    /// Whether the executor skipped the rule without searching.
    pub skipped: bool,
    /// The state's length before the rule, when it was searched (else 0).
    pub scanned: usize,
    /// The state's length after the rule.
    pub state_len: usize,
}

/// Records a [`RuleSample`] for every rule of a run.
#[derive(Debug)]
pub struct Recorder {
    last: Instant,
    len_before: usize,
    /// One sample per rule index (rules not reached stay default).
    pub samples: Vec<RuleSample>,
}

impl Recorder {
    /// A recorder for a program of `rules` rules, about to run on a state of `input_len`
    /// bytes. The clock starts now.
    pub fn new(rules: usize, input_len: usize) -> Recorder {
        Recorder {
            last: Instant::now(),
            len_before: input_len,
            samples: vec![RuleSample::default(); rules],
        }
    }
}

impl Observer for Recorder {
    fn after_rule(
        &mut self,
        index: usize,
        report: &RuleReport,
        _: &dyn Fn() -> String,
    ) -> ControlFlow<()> {
        let now = Instant::now();
        let nanos = (now - self.last).as_nanos() as u64;
        self.samples[index] = RuleSample {
            nanos,
            matches: report.matches,
            skipped: report.skipped,
            scanned: if report.skipped { 0 } else { self.len_before },
            state_len: report.state_len,
        };
        self.len_before = report.state_len;
        self.last = Instant::now();
        ControlFlow::Continue(())
    }
}

/// Totals for one origin.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct OriginRow {
    /// `file:line` of the DSL call, or the origin's text when it has no location.
    pub location: String,
    /// The instruction that was lowered (empty when unknown).
    pub instruction: String,
    /// Rules of this origin.
    pub rules: usize,
    /// Of those, rules that were searched.
    pub applied: usize,
    /// Nanoseconds over its rules.
    pub nanos: u64,
    /// Matches over its rules.
    pub matches: usize,
    /// Bytes of state its searched rules met.
    pub scanned: usize,
    /// The largest state after one of its rules.
    pub max_state: usize,
}

pub(crate) fn origin_key(origin: &Origin) -> (String, String) {
    match origin {
        Origin::Emitted {
            instruction,
            file,
            line,
            ..
        } => (format!("{file}:{line}"), instruction.clone()),
        Origin::Text(text) => (text.clone(), String::new()),
        Origin::Unknown => ("unknown".to_string(), String::new()),
    }
}

/// The index of the rule after which the state was widest, or `None` when no rule left
/// it wider than the input of `input_len` bytes.
pub fn widest(samples: &[RuleSample], input_len: usize) -> Option<usize> {
    let (mut best, mut at) = (input_len, None);
    for (i, sample) in samples.iter().enumerate() {
        if sample.state_len > best {
            (best, at) = (sample.state_len, Some(i));
        }
    }
    at
}

/// The state of a run of `exec` on `input` right after rule `index` (`None`: the input),
/// by running the rules up to it again (an error only if the executor's state limit was
/// lowered since the run it replays).
pub fn state_after(
    exec: &dyn Executor,
    input: &str,
    index: Option<usize>,
) -> Result<String, StateTooLarge> {
    match index {
        Some(index) => exec.run_range(input, 0..index + 1, &mut NoObserver),
        None => Ok(input.to_string()),
    }
}

/// Sums `samples` (one per rule of `program`) by origin, most time first.
pub fn by_origin(program: &ValidProgram, samples: &[RuleSample]) -> Vec<OriginRow> {
    let mut index: HashMap<(String, String), usize> = HashMap::new();
    let mut rows: Vec<OriginRow> = Vec::new();
    for (rule, sample) in program.rules().iter().zip(samples) {
        let key = origin_key(&rule.origin);
        let at = *index.entry(key.clone()).or_insert_with(|| {
            rows.push(OriginRow {
                location: key.0,
                instruction: key.1,
                ..OriginRow::default()
            });
            rows.len() - 1
        });
        let row = &mut rows[at];
        row.rules += 1;
        row.applied += usize::from(!sample.skipped);
        row.nanos += sample.nanos;
        row.matches += sample.matches;
        row.scanned += sample.scanned;
        row.max_state = row.max_state.max(sample.state_len);
    }
    rows.sort_by(|a, b| b.nanos.cmp(&a.nanos).then(a.location.cmp(&b.location)));
    rows
}

/// The `top` origins as a table, with shares of the total time.
pub fn render_top(rows: &[OriginRow], top: usize) -> String {
    let total: u64 = rows.iter().map(|r| r.nanos).sum::<u64>().max(1);
    let mut out = format!(
        "{:>9} {:>6} {:>6} {:>6} {:>9} {:>12} {:>10}  {}\n",
        "ms", "%", "rules", "run", "matches", "scanned B", "max state", "origin"
    );
    for row in rows.iter().take(top) {
        out.push_str(&format!(
            "{:>9.3} {:>5.1}% {:>6} {:>6} {:>9} {:>12} {:>10}  {} {}\n",
            row.nanos as f64 / 1e6,
            100.0 * row.nanos as f64 / total as f64,
            row.rules,
            row.applied,
            row.matches,
            row.scanned,
            row.max_state,
            row.location,
            row.instruction
        ));
    }
    out.push_str(&format!(
        "{:>9.3} total over {} origins\n",
        total as f64 / 1e6,
        rows.len()
    ));
    out
}

/// The `top` slowest single rules: index, ms, matches, state before, origin and the
/// pattern's first 100 chars.
pub fn render_slowest(program: &ValidProgram, samples: &[RuleSample], top: usize) -> String {
    let mut order: Vec<usize> = (0..samples.len()).collect();
    order.sort_by(|&a, &b| samples[b].nanos.cmp(&samples[a].nanos));
    let mut out = format!(
        "{:>6} {:>9} {:>8} {:>10}  origin / pattern\n",
        "rule", "ms", "matches", "scanned B"
    );
    for &i in order.iter().take(top) {
        let rule = &program.rules()[i];
        let (location, instruction) = origin_key(&rule.origin);
        let pattern: String = rule.pattern.chars().take(100).collect();
        out.push_str(&format!(
            "{i:>6} {:>9.3} {:>8} {:>10}  {location} {instruction}\n{:>38}{pattern:?}\n",
            samples[i].nanos as f64 / 1e6,
            samples[i].matches,
            samples[i].scanned,
            ""
        ));
    }
    out
}

/// Folded stacks: `file:line;instruction microseconds`, one line per origin (spaces in a
/// frame become `_`, as flame-graph tools split on the last space).
pub fn folded(rows: &[OriginRow]) -> String {
    let frame = |s: &str| s.replace([' ', ';'], "_");
    let mut out = String::new();
    for row in rows {
        let micros = row.nanos / 1000;
        if micros == 0 {
            continue;
        }
        let instruction = if row.instruction.is_empty() {
            "rules".to_string()
        } else {
            frame(&row.instruction)
        };
        out.push_str(&format!(
            "{};{} {}\n",
            frame(&row.location),
            instruction,
            micros
        ));
    }
    out
}

/// An SVG plot over the rule index: the state size after each rule (blue, left axis, in
/// bytes) and the elapsed time (red, right axis, in ms).
pub fn svg(samples: &[RuleSample], title: &str) -> String {
    let (w, h) = (1000.0_f64, 480.0_f64);
    let (left, right, top, bottom) = (80.0, 80.0, 40.0, 50.0);
    let pw = w - left - right;
    let ph = h - top - bottom;
    let n = samples.len().max(2) as f64;
    let max_state = samples
        .iter()
        .map(|s| s.state_len)
        .max()
        .unwrap_or(1)
        .max(1) as f64;
    let total: f64 = samples
        .iter()
        .map(|s| s.nanos as f64 / 1e6)
        .sum::<f64>()
        .max(1e-6);
    let x = |i: usize| left + pw * i as f64 / (n - 1.0);
    let y = |frac: f64| top + ph * (1.0 - frac);
    // At most ~2,000 points per line: keep each bucket's maximum state.
    let step = (samples.len() / 2000).max(1);
    let mut state_points = String::new();
    let mut time_points = String::new();
    let mut elapsed = 0.0;
    for (i, chunk) in samples.chunks(step).enumerate() {
        let index = i * step;
        let state = chunk.iter().map(|s| s.state_len).max().unwrap_or(0) as f64;
        elapsed += chunk.iter().map(|s| s.nanos as f64 / 1e6).sum::<f64>();
        state_points.push_str(&format!("{:.1},{:.1} ", x(index), y(state / max_state)));
        time_points.push_str(&format!("{:.1},{:.1} ", x(index), y(elapsed / total)));
    }
    let escape = |s: &str| {
        s.replace('&', "&amp;")
            .replace('<', "&lt;")
            .replace('>', "&gt;")
    };
    let mut out = format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{w}\" height=\"{h}\" \
         font-family=\"sans-serif\" font-size=\"12\">\n\
         <rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n\
         <text x=\"{left}\" y=\"20\" font-size=\"14\">{}</text>\n\
         <rect x=\"{left}\" y=\"{top}\" width=\"{pw}\" height=\"{ph}\" fill=\"none\" stroke=\"#888\"/>\n",
        escape(title)
    );
    for k in 0..=4 {
        let frac = k as f64 / 4.0;
        let yy = y(frac);
        out.push_str(&format!(
            "<line x1=\"{left}\" y1=\"{yy:.1}\" x2=\"{:.1}\" y2=\"{yy:.1}\" stroke=\"#eee\"/>\n\
             <text x=\"{:.1}\" y=\"{:.1}\" text-anchor=\"end\" fill=\"#1f4e9c\">{:.0} B</text>\n\
             <text x=\"{:.1}\" y=\"{:.1}\" fill=\"#b22\">{:.1} ms</text>\n",
            left + pw,
            left - 6.0,
            yy + 4.0,
            frac * max_state,
            left + pw + 6.0,
            yy + 4.0,
            frac * total
        ));
        let xi = (frac * (n - 1.0)).round();
        out.push_str(&format!(
            "<text x=\"{:.1}\" y=\"{:.1}\" text-anchor=\"middle\">{xi:.0}</text>\n",
            left + pw * frac,
            top + ph + 18.0
        ));
    }
    out.push_str(&format!(
        "<text x=\"{:.1}\" y=\"{:.1}\" text-anchor=\"middle\">rule index</text>\n\
         <polyline fill=\"none\" stroke=\"#1f4e9c\" stroke-width=\"1.2\" points=\"{}\"/>\n\
         <polyline fill=\"none\" stroke=\"#b22\" stroke-width=\"1.2\" points=\"{}\"/>\n\
         <text x=\"{:.1}\" y=\"{:.1}\" fill=\"#1f4e9c\">state size</text>\n\
         <text x=\"{:.1}\" y=\"{:.1}\" fill=\"#b22\">elapsed time</text>\n</svg>\n",
        left + pw / 2.0,
        h - 10.0,
        state_points.trim_end(),
        time_points.trim_end(),
        left + 10.0,
        top + 16.0,
        left + 10.0,
        top + 32.0
    ));
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use regex_chess_machine::exec::Executor;
    use regex_chess_machine::program::{Program, Rule};

    fn program() -> ValidProgram {
        let at = |line| Origin::Emitted {
            instruction: "push".into(),
            file: "src/x.rs".into(),
            line,
            column: 1,
        };
        Program::from_rules(vec![
            Rule::new("a", "bb").with_origin(at(1)),
            Rule::new("b", "c").with_origin(at(2)),
            Rule::new("b", "c").with_origin(at(2)),
        ])
        .validate()
        .unwrap()
    }

    #[test]
    fn origins_sum_their_rules() {
        let program = program();
        let exec = regex_chess_machine::exec::fast::Fast::new(program.clone());
        let mut recorder = Recorder::new(3, 2);
        let out = exec.run_observed("aa", &mut recorder).unwrap();
        assert_eq!(out, "cccc");
        let rows = by_origin(&program, &recorder.samples);
        assert_eq!(rows.len(), 2);
        let second = rows.iter().find(|r| r.location == "src/x.rs:2").unwrap();
        assert_eq!((second.rules, second.matches, second.max_state), (2, 4, 4));
        assert_eq!(second.scanned, 4);
        let first = rows.iter().find(|r| r.location == "src/x.rs:1").unwrap();
        assert_eq!((first.matches, first.scanned), (2, 2));
        assert!(render_top(&rows, 5).contains("src/x.rs:1 push"));
        let plot = svg(&recorder.samples, "t<est>");
        assert!(plot.starts_with("<svg") && plot.contains("t&lt;est&gt;"));
        for line in folded(&rows).lines() {
            assert!(line.starts_with("src/x.rs:"), "{line}");
        }
    }
}
