//! What a run must do at least, counted rule by rule: the work any executor of the
//! machine's semantics has to do on a given input, whatever its tricks.
//!
//! Contract: [`count`] runs a program on a state with `replace_all` semantics (the
//! reference executor's, so the final state is the reference's) and records for every rule
//! a [`RuleCounts`]:
//!
//! - the **matches** it replaces (each one found and its replacement written);
//! - the bytes it **must see**: the segments of the state (a thread from its `%` line to
//!   the next one, or the text before the first) that hold every literal each match of the
//!   pattern must contain ([`literals::required`]), together with any segment a match
//!   touches. A reader knowing which segments hold which literals may pass over the others
//!   without changing the result; none may pass over these, since the pattern could match
//!   there. When a required literal is absent from the whole state the rule does nothing
//!   and must see nothing;
//! - the bytes it **writes**: the expanded replacements (text kept between matches need
//!   not be copied by an executor that edits in place or keeps pieces);
//! - the bytes of its matches, and the state's length before it (the bytes a plain
//!   executor scans).
//!
//! A price per match, per byte seen and per byte written turns these counts into a lower
//! bound of a run's time (`regex-chess bound`, `regex-chess profile`). Trade-offs: the
//! literal analysis gives up on alternations, so a segment may be counted as one to see
//! when a finer analysis would skip it (a bound lower than it could be, never above the
//! truth); a match's cost is counted once, whatever the pattern's shape; and the counting
//! run is as slow as the reference executor (seconds on the widest states), which is why
//! it is a measurement, not a path any move takes.

pub mod literals;

use std::collections::HashMap;

use memchr::memmem;
use regex::Regex;

use crate::program::ValidProgram;

/// What one rule must do on the state it met.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct RuleCounts {
    /// The state's length before the rule.
    pub state: usize,
    /// Matches replaced.
    pub matches: usize,
    /// Bytes of the segments the rule must see.
    pub must_see: usize,
    /// Bytes of the replacements written.
    pub written: usize,
    /// Bytes of the matches (the text the replacements take the place of).
    pub matched: usize,
}

impl RuleCounts {
    /// The sum of two rules' (or runs') counts.
    pub fn plus(self, other: RuleCounts) -> RuleCounts {
        RuleCounts {
            state: self.state + other.state,
            matches: self.matches + other.matches,
            must_see: self.must_see + other.must_see,
            written: self.written + other.written,
            matched: self.matched + other.matched,
        }
    }
}

/// A counted run: the final state and one [`RuleCounts`] per rule.
#[derive(Clone, Debug, Default)]
pub struct Counted {
    /// The final state (the reference executor's).
    pub state: String,
    /// One entry per rule, in order.
    pub rules: Vec<RuleCounts>,
}

impl Counted {
    /// The counts summed over every rule.
    pub fn total(&self) -> RuleCounts {
        self.rules
            .iter()
            .fold(RuleCounts::default(), |a, b| a.plus(*b))
    }
}

/// The starts of the state's segments: 0, and every `%` that begins a line.
pub fn segment_starts(state: &str) -> Vec<usize> {
    let mut starts = vec![0];
    starts.extend(
        memmem::find_iter(state.as_bytes(), b"\n%")
            .map(|at| at + 1)
            .filter(|&at| at > 0),
    );
    starts
}

/// The index of the segment holding byte `at`.
fn segment_of(starts: &[usize], at: usize) -> usize {
    starts.partition_point(|&s| s <= at) - 1
}

/// Marks the segments holding `literal`: one search per segment at most, as the search
/// resumes at the next segment after each find.
fn mark_holding(haystack: &[u8], starts: &[usize], literal: &[u8], marks: &mut [bool]) {
    let finder = memmem::Finder::new(literal);
    let mut from = 0;
    while let Some(found) = finder.find(&haystack[from..]) {
        let segment = segment_of(starts, from + found);
        marks[segment] = true;
        match starts.get(segment + 1) {
            Some(&next) => from = next,
            None => break,
        }
    }
}

/// Counts what each rule of `program` must do, run from `input` (see the module's
/// contract).
pub fn count(program: &ValidProgram, input: &str) -> Counted {
    let mut regexes: HashMap<&str, (Regex, Vec<Vec<u8>>)> = HashMap::new();
    let mut state = input.to_string();
    let mut starts = segment_starts(&state);
    let mut rules = Vec::with_capacity(program.rules().len());
    for rule in program.rules() {
        let (regex, required) = regexes.entry(rule.pattern.as_str()).or_insert_with(|| {
            let regex = Regex::new(&rule.pattern).expect("a validated pattern compiles");
            (regex, literals::required(&rule.pattern).unwrap_or_default())
        });
        let mut counts = RuleCounts {
            state: state.len(),
            ..RuleCounts::default()
        };
        let bytes = state.as_bytes();
        if required
            .iter()
            .any(|literal| memmem::find(bytes, literal).is_none())
        {
            rules.push(counts);
            continue;
        }
        // The segments holding every required literal.
        let mut seen = vec![true; starts.len()];
        for literal in required.iter() {
            let mut marks = vec![false; starts.len()];
            mark_holding(bytes, &starts, literal, &mut marks);
            seen.iter_mut().zip(&marks).for_each(|(s, m)| *s &= *m);
        }
        let mut out = String::new();
        let mut last = 0;
        let mut take = |whole: regex::Match, caps: Option<&regex::Captures>| {
            let first = segment_of(&starts, whole.start());
            let end = segment_of(&starts, whole.end().saturating_sub(1).max(whole.start()));
            seen[first..=end].iter_mut().for_each(|s| *s = true);
            out.push_str(&state[last..whole.start()]);
            let before = out.len();
            match caps {
                Some(caps) => caps.expand(&rule.replacement, &mut out),
                None => out.push_str(&rule.replacement),
            }
            counts.written += out.len() - before;
            counts.matches += 1;
            counts.matched += whole.len();
            last = whole.end();
        };
        // As `replace_all` does: captures only when the replacement refers to groups.
        if rule.replacement.contains('$') {
            for caps in regex.captures_iter(&state) {
                take(caps.get(0).expect("group 0 takes part"), Some(&caps));
            }
        } else {
            regex.find_iter(&state).for_each(|whole| take(whole, None));
        }
        counts.must_see = seen
            .iter()
            .enumerate()
            .filter(|(_, s)| **s)
            .map(|(i, _)| starts.get(i + 1).copied().unwrap_or(state.len()) - starts[i])
            .sum();
        if counts.matches > 0 {
            out.push_str(&state[last..]);
            state = out;
            starts = segment_starts(&state);
        }
        rules.push(counts);
    }
    Counted { state, rules }
}

#[cfg(test)]
mod tests;
