//! The fast-versus-reference comparison shared by the equivalence tests
//! (`tests/machine/equivalence*.rs`) and the fuzz target `exec_equivalence`: checking a
//! generated program ([`validate_case`]), cutting it where its state grows too large, and
//! checking that every way of running the fast executor gives what the reference gives,
//! rule by rule (match count, state length, state contents by hash, the `skipped` flag),
//! over early stops and rule ranges.
//!
//! It uses only the library's public API.

use std::collections::hash_map::DefaultHasher;
use std::hash::{Hash, Hasher};
use std::ops::{ControlFlow, Range};

use proptest::test_runner::TestCaseError;
use regex_chess_machine::exec::fast::Fast;
use regex_chess_machine::exec::reference::Reference;
use regex_chess_machine::exec::{
    DEFAULT_MAX_STATE, Executor, NoObserver, Observer, RuleReport, RunStats, StateTooLarge,
    limit::min_match_len, trace,
};
use regex_chess_machine::program::{Program, Rule, ValidProgram};

/// Records what every rule did, in order (used by the equivalence tests, not by the
/// fuzz target).
#[derive(Default)]
pub struct Recorder {
    pub reports: Vec<(usize, RuleReport)>,
}

impl Observer for Recorder {
    fn after_rule(
        &mut self,
        index: usize,
        report: &RuleReport,
        _: &dyn Fn() -> String,
    ) -> ControlFlow<()> {
        self.reports.push((index, *report));
        ControlFlow::Continue(())
    }
}

/// How far past the cap the state of the rule that outgrows it may go for that rule to
/// be kept: an empty pattern, or one that matches at every char, multiplies the state by
/// its replacement's length, and a 1 MB state can come out at 6 MB and more, which the
/// comparison (seven runs, under the fuzzer's sanitizer and coverage counters) then
/// spends minutes on.
const OUTGROW_FACTOR: usize = 4;

/// Stops the run after the first rule that leaves the state longer than `limit`, or
/// before the first rule whose work would bring the run's past `work_limit`, and says
/// how many rules to keep: the rule that outgrew the cap too when its state is at most
/// [`OUTGROW_FACTOR`] times `limit`; the rules before the one that would spend the
/// budget (which never runs).
struct Cap<'a> {
    program: &'a ValidProgram,
    /// Whether each rule's pattern can match the empty string.
    empty: Vec<bool>,
    limit: usize,
    work_limit: u64,
    /// The work of the rules run so far.
    work: u64,
    keep: Option<usize>,
}

/// What rule `index` of `program` costs on a state of `len` bytes, in the units of
/// [`cut_at_work`]: the bytes it scans, times a share of its pattern's length (a long
/// pattern's automaton walks each byte through more states, and the reference's capture
/// engine pays for every one of them), times [`EMPTY_MATCH_COST`] when the pattern can
/// match the empty string (`empty`): a match at every position then costs each run a
/// search and a replacement per byte.
pub fn rule_work(program: &ValidProgram, index: usize, len: usize, empty: bool) -> u64 {
    let pattern = program.rules()[index].pattern.len() as u64;
    let per_byte = (1 + pattern / 64) * if empty { EMPTY_MATCH_COST } else { 1 };
    (len as u64 + 1).saturating_mul(per_byte)
}

/// How many times more a byte costs a rule whose pattern can match the empty string
/// (see [`rule_work`]): measured on the fuzz target's slowest inputs, programs of
/// empty-match insertions (`a*`, `x?`, `""`), whose every byte is a match.
pub const EMPTY_MATCH_COST: u64 = 16;

impl Cap<'_> {
    /// Adds the work of rule `index` on a state of `len` bytes; false when it would
    /// bring the run past the budget.
    fn afford(&mut self, index: usize, len: usize) -> bool {
        let work = self
            .work
            .saturating_add(rule_work(self.program, index, len, self.empty[index]));
        self.work = work;
        work <= self.work_limit
    }
}

impl Observer for Cap<'_> {
    fn after_rule(
        &mut self,
        index: usize,
        report: &RuleReport,
        _: &dyn Fn() -> String,
    ) -> ControlFlow<()> {
        if report.state_len > self.limit {
            let keep_it = report.state_len <= self.limit.saturating_mul(OUTGROW_FACTOR);
            self.keep = Some(index + usize::from(keep_it));
            return ControlFlow::Break(());
        }
        let next = index + 1;
        if next < self.program.rules().len() && !self.afford(next, report.state_len) {
            self.keep = Some(next);
            return ControlFlow::Break(());
        }
        ControlFlow::Continue(())
    }
    fn wants_match_counts(&self) -> bool {
        false
    }
    fn reads_states(&self) -> bool {
        false
    }
}

/// A property's generated `rules`, checked. A pattern past the `regex` crate's
/// compiled-size limit (Unicode classes such as `\w`, hundreds of ranges each, repeated a
/// few hundred times in all) is one the reference itself refuses: the case is rejected and
/// another drawn. Any other error is the generator's fault and fails the property.
pub fn validate_case(rules: Vec<Rule>) -> Result<ValidProgram, TestCaseError> {
    let mut too_big = false;
    let mut compile = |pattern: &str| {
        let compiled = regex::Regex::new(pattern);
        too_big |= matches!(compiled, Err(regex::Error::CompiledTooBig(_)));
        compiled
    };
    let checked = Program::from_rules(rules).validate_with(&mut compile);
    if too_big {
        return Err(TestCaseError::reject(
            "a pattern past the compiled-size limit",
        ));
    }
    checked.map_err(|e| TestCaseError::fail(format!("the generator made an invalid rule: {e}")))
}

/// `program` cut after the first rule where the reference's state outgrows `limit` on
/// any of `states`, or before it when that state is more than `OUTGROW_FACTOR` times
/// `limit` (the whole program when no state outgrows `limit`).
pub fn cut_at_cap(program: ValidProgram, states: &[String], limit: usize) -> ValidProgram {
    cut_at_work(program, states, limit, u64::MAX)
}

/// [`cut_at_cap`], and cut before the first rule that brings a run's work on any of
/// `states` past `work_limit` (the sum of [`rule_work`] over the rules run): the bound
/// that keeps a fuzz input's time in proportion to its size.
pub fn cut_at_work(
    program: ValidProgram,
    states: &[String],
    limit: usize,
    work_limit: u64,
) -> ValidProgram {
    cut(program, states, limit, work_limit, DEFAULT_MAX_STATE)
}

/// The reference's run of one state, recorded once: its end and every rule's step, for
/// [`compare_one_way`] to compare a fast executor with (a fuzz input runs the reference
/// once, not once to cut the program and again to compare).
pub struct Recorded {
    want: End,
    steps: Vec<Step>,
}

/// Cuts `reference`'s program before the first rule that would bring the run's work on
/// `state` past `work_limit` (as [`cut_at_work`], the state's growth left to the
/// executors' own limit: a rule that would grow it past the limit stays in the program, for
/// the comparison to see both executors stop there), and records the run of the rules
/// kept, in one run: the executor of the rules kept and what it does on `state`, every
/// rule's match count and state, as [`compare`] records them.
pub fn record_cut(reference: Reference, state: &str, work_limit: u64) -> (Reference, Recorded) {
    let program = reference.program();
    let mut cap = Cap {
        program,
        empty: empty_matches(program),
        limit: usize::MAX,
        work_limit,
        work: 0,
        keep: None,
    };
    if !program.rules().is_empty() && !cap.afford(0, state.len()) {
        let recorded = Recorded {
            want: Ok(state.to_string()),
            steps: Vec::new(),
        };
        return (reference.prefix(0), recorded);
    }
    let mut observer = CutSteps {
        cap,
        steps: Steps::default(),
    };
    // A run the cap stops after rule `keep - 1` ends with the state the rules kept give.
    let want = reference.run_observed(state, &mut observer);
    let recorded = Recorded {
        want,
        steps: observer.steps.steps,
    };
    let reference = match observer.cap.keep {
        Some(keep) => reference.prefix(keep),
        None => reference,
    };
    (reference, recorded)
}

/// [`Cap`] and [`Steps`] in one observer: every rule's step is recorded, and the run
/// stops before the rule that would spend the work budget.
struct CutSteps<'a> {
    cap: Cap<'a>,
    steps: Steps,
}

impl Observer for CutSteps<'_> {
    fn after_rule(
        &mut self,
        index: usize,
        report: &RuleReport,
        state: &dyn Fn() -> String,
    ) -> ControlFlow<()> {
        let _ = self.steps.after_rule(index, report, state);
        self.cap.after_rule(index, report, state)
    }
}

/// Whether each rule's pattern of `program` can match the empty string.
fn empty_matches(program: &ValidProgram) -> Vec<bool> {
    program
        .rules()
        .iter()
        .map(|rule| min_match_len(&rule.pattern) == Some(0))
        .collect()
}

fn cut(
    program: ValidProgram,
    states: &[String],
    limit: usize,
    work_limit: u64,
    max_state: usize,
) -> ValidProgram {
    let reference = Reference::new(program.clone()).with_max_state(max_state);
    let keep = kept(&reference, states, limit, work_limit);
    if keep == program.rules().len() {
        return program;
    }
    program.prefix(keep)
}

/// How many rules of `reference`'s program to keep (see [`cut_at_work`]).
fn kept(reference: &Reference, states: &[String], limit: usize, work_limit: u64) -> usize {
    let program = reference.program();
    let empty = empty_matches(program);
    let mut keep = program.rules().len();
    for state in states {
        let mut cap = Cap {
            program,
            empty: empty.clone(),
            limit,
            work_limit,
            work: 0,
            keep: None,
        };
        if !program.rules().is_empty() && !cap.afford(0, state.len()) {
            return 0;
        }
        // A run that ends at the state limit keeps every rule up to the one that met it.
        let _ = reference.run_observed(state, &mut cap);
        if let Some(rules) = cap.keep {
            keep = keep.min(rules);
        }
    }
    keep
}

fn divergence_report(reference: &Reference, fast: &Fast, state: &str) -> String {
    match trace::first_divergence(reference, fast, state) {
        Some(divergence) => divergence.to_string(),
        None => "trace::first_divergence finds no rule where the states differ".to_string(),
    }
}

/// A hash of a state's bytes.
pub fn digest(text: &str) -> u64 {
    let mut hasher = DefaultHasher::new();
    text.hash(&mut hasher);
    hasher.finish()
}

/// What one rule did: its index, its report and a hash of the state after it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Step {
    index: usize,
    report: RuleReport,
    state: u64,
}

/// Records every rule's report and the hash of the state after it, and stops the run
/// after rule `stop_after` when set. With `hint_no_reads` it tells the executor it
/// reads no states (and still reads them: the executor must then rebuild them).
#[derive(Default)]
struct Steps {
    steps: Vec<Step>,
    stop_after: Option<usize>,
    hint_no_reads: bool,
}

impl Observer for Steps {
    fn after_rule(
        &mut self,
        index: usize,
        report: &RuleReport,
        state: &dyn Fn() -> String,
    ) -> ControlFlow<()> {
        self.steps.push(Step {
            index,
            report: *report,
            state: digest(&state()),
        });
        if self.stop_after == Some(index) {
            return ControlFlow::Break(());
        }
        ControlFlow::Continue(())
    }

    fn reads_states(&self) -> bool {
        !self.hint_no_reads
    }
}

/// Compares the fast executor's steps with the reference's: the same rules in the same
/// order, and for each the same match count, state length and state contents (by hash);
/// a rule the fast executor reports as skipped must have left the state as it was.
fn compare_steps(
    fast: &Fast,
    start: u64,
    theirs: &[Step],
    ours: &[Step],
    what: &str,
) -> Result<(), String> {
    let (got, want): (Vec<usize>, Vec<usize>) = (
        theirs.iter().map(|s| s.index).collect(),
        ours.iter().map(|s| s.index).collect(),
    );
    if got != want {
        return Err(format!(
            "{what}: rules reported {got:?}, the reference reports {want:?}"
        ));
    }
    let mut before = start;
    for (theirs, ours) in theirs.iter().zip(ours) {
        let rule = &fast.program().rules()[theirs.index];
        let describe = || {
            format!(
                "{what}: rule {} ({:?} -> {:?}, skipped by fast: {})",
                theirs.index, rule.pattern, rule.replacement, theirs.report.skipped
            )
        };
        let (t, o) = (
            (theirs.report.matches, theirs.report.state_len),
            (ours.report.matches, ours.report.state_len),
        );
        if t != o {
            return Err(format!(
                "{}: (matches, state length) differ, fast {t:?} vs reference {o:?}",
                describe()
            ));
        }
        if theirs.state != ours.state {
            return Err(format!(
                "{}: the states after it differ (same length)",
                describe()
            ));
        }
        if theirs.report.skipped && ours.state != before {
            return Err(format!(
                "{}: skipped, but the reference's state changed",
                describe()
            ));
        }
        before = ours.state;
    }
    Ok(())
}

/// Every way of running `fast` on `state` must give what `reference` gives:
/// - `run`, `run_with_stats` and `run_observed`: the final state; for every rule the
///   match count, the state length and the state itself (by hash); a rule reported
///   skipped must not change the state; the run's totals, skipped rules included;
/// - the same through an observer that says it reads no states (and reads them);
/// - an observer that stops the run after a rule (saying it reads states or not): the
///   same reports up to it and the state there;
/// - `run_range` over several ranges (empty, from the start, to the end, in the
///   middle, chained): the state each gives from `state`.
///
/// A run that ends at the state limit (the executors' own, see
/// `regex_chess_machine::exec::limit`) must end at the same rule with the same error
/// in every way of running, the rules before it reported alike.
///
/// The error says what differs.
pub fn compare(reference: &Reference, fast: &Fast, state: &str) -> Result<(), String> {
    Expected::new(reference, state).compare(fast)
}

/// What a run ends with: the state, or the error of the rule that met the state limit.
type End = Result<String, StateTooLarge>;

/// What the reference does on one state in every way [`compare`] runs it, computed once
/// and compared with as many fast executors (of the same program) as wanted: the runs
/// of the reference are most of a comparison's time on small states.
pub struct Expected<'a> {
    reference: &'a Reference,
    state: &'a str,
    want: End,
    steps: Vec<Step>,
    /// Each early stop: the rule, the reference's steps and its end.
    stops: Vec<(usize, Vec<Step>, End)>,
    /// Each range: the range, the reference's steps and its end.
    ranges: Vec<(Range<usize>, Vec<Step>, End)>,
}

impl<'a> Expected<'a> {
    /// Runs `reference` on `state` in every way [`compare`] runs a fast executor.
    pub fn new(reference: &'a Reference, state: &'a str) -> Expected<'a> {
        let n = reference.program().rules().len();
        let mut expected = Steps::default();
        let want = reference.run_observed(state, &mut expected);
        // Early stops: after the first rule, a middle one and the last.
        let mut stops = vec![0, n / 3, n.saturating_sub(1)];
        stops.dedup();
        let stops = stops
            .into_iter()
            .filter(|&s| s < n)
            .map(|stop| {
                let mut ours = Steps {
                    stop_after: Some(stop),
                    ..Steps::default()
                };
                let end = reference.run_observed(state, &mut ours);
                (stop, ours.steps, end)
            })
            .collect();
        let ranges = ranges(n)
            .into_iter()
            .map(|range| {
                let mut ours = Steps::default();
                let end = reference.run_range(state, range.clone(), &mut ours);
                (range, ours.steps, end)
            })
            .collect();
        Expected {
            reference,
            state,
            want,
            steps: expected.steps,
            stops,
            ranges,
        }
    }

    /// [`compare`] of `fast` with the reference's runs.
    pub fn compare(&self, fast: &Fast) -> Result<(), String> {
        compare_with(self, fast)
    }
}

/// The ranges [`compare`] runs, of a program of `n` rules.
fn ranges(n: usize) -> [Range<usize>; 7] {
    let (third, middle) = (n / 3, n / 2);
    [
        0..0,
        middle..middle,
        0..third,
        third..n,
        third..middle.max(third),
        (n / 4)..(3 * n / 4),
        n.saturating_sub(1)..n,
    ]
}

/// A run observed by an observer that says it reads no states must end as `want` and
/// report the steps `expected` (the reference's) all the same.
fn compare_unhinted(
    reference: &Reference,
    fast: &Fast,
    state: &str,
    want: &End,
    expected: &[Step],
) -> Result<(), String> {
    let what = "run_observed by an observer that says it reads no states";
    let mut unhinted = Steps {
        hint_no_reads: true,
        ..Steps::default()
    };
    if fast.run_observed(state, &mut unhinted) != *want {
        return Err(format!(
            "final states differ ({what})\n{}",
            divergence_report(reference, fast, state)
        ));
    }
    compare_steps(fast, digest(state), &unhinted.steps, expected, what)
}

fn compare_with(expected: &Expected<'_>, fast: &Fast) -> Result<(), String> {
    let Expected {
        reference,
        state,
        want,
        ..
    } = expected;
    let (reference, state, want) = (*reference, *state, want.clone());
    let n = reference.program().rules().len();
    let differ = |how: &str| {
        Err(format!(
            "final states differ ({how})\n{}",
            divergence_report(reference, fast, state)
        ))
    };

    if fast.run(state) != want {
        return differ("run");
    }
    let with_stats = fast.run_with_stats(state);
    let stats = match (with_stats, &want) {
        (Ok((got, stats)), Ok(want)) if got == *want => Some(stats),
        (Err(got), Err(want)) if got == *want => None,
        _ => return differ("run_with_stats"),
    };
    let mut observed = Steps::default();
    if fast.run_observed(state, &mut observed) != want {
        return differ("run_observed");
    }
    // Every rule, or those before the one that stopped the run at the state limit.
    let reported = want.as_ref().map_or_else(|e| e.rule, |_| n);
    if observed.steps.len() != reported {
        return Err(format!(
            "run_observed reported {} rules of {reported}",
            observed.steps.len()
        ));
    }
    let start = digest(state);
    compare_steps(
        fast,
        start,
        &observed.steps,
        &expected.steps,
        "run_observed",
    )?;
    compare_unhinted(reference, fast, state, &want, &expected.steps)?;

    let mut want_stats = RunStats::default();
    for step in &expected.steps {
        want_stats.record(&step.report);
    }
    let stats = stats.unwrap_or(want_stats);
    if stats.matches != want_stats.matches {
        return Err(format!(
            "run_with_stats match totals differ: fast {} vs reference {}",
            stats.matches, want_stats.matches
        ));
    }
    if stats.max_state_len != want_stats.max_state_len {
        return Err(format!(
            "run_with_stats largest states differ: fast {} vs reference {}",
            stats.max_state_len, want_stats.max_state_len
        ));
    }
    let skipped = observed.steps.iter().filter(|s| s.report.skipped).count();
    if want.is_ok() && (stats.rules_applied, stats.rules_skipped) != (n - skipped, skipped) {
        return Err(format!(
            "run_with_stats counts {} applied and {} skipped rules of {n}; the observed \
             run skipped {skipped}",
            stats.rules_applied, stats.rules_skipped
        ));
    }

    for (stop, ours, want) in &expected.stops {
        for hint_no_reads in [false, true] {
            let mut theirs = Steps {
                stop_after: Some(*stop),
                hint_no_reads,
                ..Steps::default()
            };
            let got = fast.run_observed(state, &mut theirs);
            let what = format!("a run stopped after rule {stop} (hint_no_reads {hint_no_reads})");
            compare_steps(fast, start, &theirs.steps, ours, &what)?;
            if got != *want {
                return Err(format!("{what} returns another state"));
            }
        }
    }

    // Ranges, each from the given state.
    for (range, ours, want) in &expected.ranges {
        let mut theirs = Steps::default();
        let got = fast.run_range(state, range.clone(), &mut theirs);
        let what = format!("run_range {range:?}");
        compare_steps(fast, start, &theirs.steps, ours, &what)?;
        if got != *want {
            return Err(format!("{what} returns another state"));
        }
    }
    let middle = n / 2;
    let chained = fast
        .run_range(state, 0..middle, &mut NoObserver)
        .and_then(|first| fast.run_range(&first, middle..n, &mut NoObserver));
    if chained != want {
        return Err(format!(
            "running rules 0..{middle} then {middle}..{n} gives another state"
        ));
    }
    Ok(())
}

/// A lighter [`compare`], for the fuzz target's many inputs: `run_observed` (every rule's
/// report and state, and the end, the state limit's error included) always, against the
/// reference's run that [`record_cut`] recorded, and one other way of running, chosen by
/// `which`: `run_with_stats`, an observer that says it reads no states, an early stop, a
/// range, or two ranges chained. A corpus of inputs covers every way; each input pays for
/// one or two runs of the reference and two of the fast executor, not twenty.
pub fn compare_one_way(
    reference: &Reference,
    recorded: &Recorded,
    fast: &Fast,
    state: &str,
    which: u64,
) -> Result<(), String> {
    let n = reference.program().rules().len();
    let differ = |how: &str| {
        Err(format!(
            "final states differ ({how})\n{}",
            divergence_report(reference, fast, state)
        ))
    };
    let start = digest(state);
    let (want, ours) = (recorded.want.clone(), &recorded.steps);
    let mut theirs = Steps::default();
    if fast.run_observed(state, &mut theirs) != want {
        return differ("run_observed");
    }
    compare_steps(fast, start, &theirs.steps, ours, "run_observed")?;
    let ranges = ranges(n);
    let pick = (which as usize) % (3 + 2 + ranges.len());
    match pick {
        0 => match (fast.run_with_stats(state), &want) {
            (Ok((got, stats)), Ok(want)) if got == *want => {
                let mut want_stats = RunStats::default();
                for step in ours {
                    want_stats.record(&step.report);
                }
                if (stats.matches, stats.max_state_len)
                    != (want_stats.matches, want_stats.max_state_len)
                {
                    return Err(format!(
                        "run_with_stats totals differ: fast {stats:?} vs reference {want_stats:?}"
                    ));
                }
            }
            (Err(got), Err(want)) if got == *want => {}
            _ => return differ("run_with_stats"),
        },
        1 => {
            compare_unhinted(reference, fast, state, &want, ours)?;
        }
        2 => {
            let middle = n / 2;
            let chained = fast
                .run_range(state, 0..middle, &mut NoObserver)
                .and_then(|first| fast.run_range(&first, middle..n, &mut NoObserver));
            if chained != want {
                return Err(format!(
                    "running rules 0..{middle} then {middle}..{n} gives another state"
                ));
            }
        }
        3 | 4 if n > 0 => {
            let stop = (which as usize >> 8) % n;
            let mut ours = Steps {
                stop_after: Some(stop),
                ..Steps::default()
            };
            let mut theirs = Steps {
                stop_after: Some(stop),
                hint_no_reads: pick == 4,
                ..Steps::default()
            };
            let want = reference.run_observed(state, &mut ours);
            let got = fast.run_observed(state, &mut theirs);
            let what = format!(
                "a run stopped after rule {stop} (hint_no_reads {})",
                pick == 4
            );
            compare_steps(fast, start, &theirs.steps, &ours.steps, &what)?;
            if got != want {
                return Err(format!("{what} returns another state"));
            }
        }
        3 | 4 => {}
        _ => {
            let range = ranges[pick - 5].clone();
            let mut ours = Steps::default();
            let mut theirs = Steps::default();
            let want = reference.run_range(state, range.clone(), &mut ours);
            let got = fast.run_range(state, range.clone(), &mut theirs);
            let what = format!("run_range {range:?}");
            compare_steps(fast, start, &theirs.steps, &ours.steps, &what)?;
            if got != want {
                return Err(format!("{what} returns another state"));
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use regex_chess_machine::program::{Program, Rule};

    fn program(rules: &[(&str, &str)]) -> ValidProgram {
        let rules = rules.iter().map(|(p, r)| Rule::new(*p, *r)).collect();
        Program::from_rules(rules).validate().unwrap()
    }

    /// `record_cut` keeps the rules the separate cut (`kept`) keeps, and what it records
    /// is the run of the rules kept; a fast executor of another program is told apart.
    #[test]
    fn one_run_cuts_and_records_as_two_runs_did() {
        let growth = [("(.+)", "$1$1"); 12];
        let inserts = [
            ("a*", "-"),
            ("", "."),
            ("x?", "+"),
            ("\\b", "|"),
            ("b", "c"),
        ];
        // Rules, state, work budget and state limit.
        type Case<'a> = (&'a [(&'a str, &'a str)], &'a str, u64, usize);
        let cases: &[Case] = &[
            (&growth, "ab", u64::MAX, 1 << 20),
            (&growth, "ab", 2_000, 1 << 20),
            (&growth, "ab", u64::MAX, 100),
            (&inserts, "abab", 500, 1 << 20),
            (&inserts, "abab", 5, 1 << 20),
            (&inserts, "abab", u64::MAX, 60),
            (&[], "abab", 5, 60),
        ];
        for &(rules, state, work, max_state) in cases {
            let program = program(rules);
            let reference = Reference::new(program.clone()).with_max_state(max_state);
            let keep = kept(&reference, &[state.to_string()], usize::MAX, work);
            let (cut, recorded) = record_cut(reference, state, work);
            assert_eq!(cut.program().rules().len(), keep, "{rules:?} on {state:?}");
            let mut steps = Steps::default();
            let want = cut.run_observed(state, &mut steps);
            assert_eq!(want, recorded.want, "{rules:?} on {state:?}");
            assert_eq!(steps.steps, recorded.steps, "{rules:?} on {state:?}");
            for which in 0..12 {
                let fast = Fast::new(cut.program().clone()).with_max_state(max_state);
                compare_one_way(&cut, &recorded, &fast, state, which).unwrap();
            }
            // A fast executor whose last rule differs must disagree somewhere (when the
            // run reaches that rule).
            if let (Some(last), Ok(_)) = (keep.checked_sub(1), &recorded.want) {
                let mut changed: Vec<Rule> = cut.program().rules().to_vec();
                changed[last].replacement.push('!');
                let other = Program::from_rules(changed).validate().unwrap();
                let fast = Fast::new(other).with_max_state(max_state);
                let caught = (0..12)
                    .any(|which| compare_one_way(&cut, &recorded, &fast, state, which).is_err());
                assert!(caught, "{rules:?} on {state:?}: a changed rule goes unseen");
            }
        }
    }
}
