//! The reference executor: `regex::Regex::replace_all`, rule by rule.
//!
//! This executor defines what a program means. It stays obviously right: each distinct
//! pattern is compiled once, and each rule is one `replace_all` with the rule's replacement
//! string handed to `regex` as written. Nothing is skipped and no state is carried between
//! rules but the text. It is slow on large states (see PERF.md); use it to check, not to
//! play.
//!
//! Memory: every rule with the same pattern searches with the same `Regex` value, so the
//! executor holds one set of search caches (a `Regex`'s pool: lazy DFAs, the PikeVM's
//! tables) per distinct pattern and thread, not one per rule (a clone of a `Regex` gets
//! an empty pool of its own). The `play` program's 8,819 rules held 1.2 GB of caches
//! that way; its 1,609 patterns hold about 530 MB, 453 MB of it the PikeVM tables of three
//! patterns (NFA states times capture slots; PERF.md, "Peak RSS"). Holding fewer warm
//! caches than patterns was measured and rejected: a pattern's cache rebuilt costs more
//! than its search (256 warm patterns ran 6.6 times slower). [`Reference::release_caches`]
//! drops them all, keeping the compiled patterns, where the work pauses.
//!
//! The state limit ([`super::limit`]): before a rule whose output bound exceeds the limit,
//! the exact length of its output is counted (`captures_iter` and `Captures::expand`, one
//! match at a time), and the run ends with [`StateTooLarge`] when it is over; below the
//! bound nothing is counted.

use std::collections::HashMap;
use std::ops::ControlFlow;
use std::sync::Arc;

use regex::Regex;

use super::limit::{Bounds, DEFAULT_MAX_STATE, StateTooLarge};
use super::{Executor, Observer, RuleReport};
use crate::program::ValidProgram;

/// Runs programs with `replace_all`.
#[derive(Debug)]
pub struct Reference {
    program: ValidProgram,
    /// One compiled regex per distinct pattern, in order of first use, each with its
    /// search caches; shared by [`Reference::prefix`] executors.
    patterns: Arc<[Regex]>,
    /// Each rule's index into `patterns`.
    pattern_of: Vec<u32>,
    /// Each rule's output bound.
    bounds: Bounds,
    /// The state limit in bytes.
    max_state: usize,
}

impl Reference {
    /// Compiles each distinct pattern of `program` once.
    pub fn new(program: ValidProgram) -> Reference {
        let mut index: HashMap<&str, u32> = HashMap::new();
        let mut patterns = Vec::new();
        let pattern_of = program
            .rules()
            .iter()
            .map(|rule| {
                *index.entry(rule.pattern.as_str()).or_insert_with(|| {
                    patterns.push(Regex::new(&rule.pattern).expect("a validated pattern compiles"));
                    u32::try_from(patterns.len() - 1).expect("fewer than 2^32 patterns")
                })
            })
            .collect();
        let bounds = Bounds::new(&program);
        Reference {
            program,
            patterns: patterns.into(),
            pattern_of,
            bounds,
            max_state: DEFAULT_MAX_STATE,
        }
    }

    /// The executor of this one's program's first `rules` rules, its compiled patterns
    /// shared (see [`ValidProgram::prefix`]), with the same state limit.
    pub fn prefix(&self, rules: usize) -> Reference {
        let program = self.program.prefix(rules);
        let keep = program.rules().len();
        let bounds = Bounds::new(&program);
        Reference {
            program,
            patterns: Arc::clone(&self.patterns),
            pattern_of: self.pattern_of[..keep].to_vec(),
            bounds,
            max_state: self.max_state,
        }
    }

    /// How many compiled patterns, each with its own search caches, this executor holds:
    /// its program's distinct patterns (more, after [`Reference::prefix`]: the whole
    /// program's).
    pub fn compiled_patterns(&self) -> usize {
        self.patterns.len()
    }

    /// Whether rules `a` and `b` search with the same `Regex` value (and so the same
    /// caches).
    pub fn share_caches(&self, a: usize, b: usize) -> bool {
        std::ptr::eq(self.regex(a), self.regex(b))
    }

    /// Drops the search caches the runs so far have grown, keeping the compiled
    /// patterns: each pattern gets an empty pool, filled again on its next search.
    /// Executors made by [`Reference::prefix`] before keep the caches they shared.
    pub fn release_caches(&mut self) {
        self.patterns = self.patterns.iter().cloned().collect();
    }

    /// The regex rule `index` searches with.
    fn regex(&self, index: usize) -> &Regex {
        &self.patterns[self.pattern_of[index] as usize]
    }

    /// The same executor with a state limit of `bytes` (see [`super::limit`]).
    pub fn with_max_state(mut self, bytes: usize) -> Reference {
        self.max_state = bytes;
        self
    }

    /// The exact length of rule `index`'s output on `state`, counted one match at a
    /// time with `regex`'s own expansion, without building the output.
    pub fn output_len(&self, index: usize, state: &str) -> usize {
        let replacement = self.program.rules()[index].replacement.as_str();
        let mut len = state.len();
        let mut expanded = String::new();
        for caps in self.regex(index).captures_iter(state) {
            let whole = caps.get(0).map_or(0, |m| m.len());
            expanded.clear();
            caps.expand(replacement, &mut expanded);
            len = len - whole + expanded.len();
        }
        len
    }

    /// Applies rule `index` once to `state`, returning the new state.
    pub fn apply(&self, index: usize, state: &str) -> String {
        let replacement = self.program.rules()[index].replacement.as_str();
        self.regex(index)
            .replace_all(state, replacement)
            .into_owned()
    }

    /// The number of matches rule `index` has in `state` (a separate search, so that
    /// [`Reference::apply`] stays a bare `replace_all`).
    pub fn count_matches(&self, index: usize, state: &str) -> usize {
        self.regex(index).find_iter(state).count()
    }
}

impl Executor for Reference {
    fn name(&self) -> &'static str {
        "reference"
    }

    fn program(&self) -> &ValidProgram {
        &self.program
    }

    fn run_range(
        &self,
        state: &str,
        range: std::ops::Range<usize>,
        observer: &mut dyn Observer,
    ) -> Result<String, StateTooLarge> {
        let mut state = state.to_string();
        let limit = self.max_state;
        for index in range {
            // A rule stops the run when its output is longer than both the limit and
            // its input (a state given longer than the limit may still shrink).
            let ceiling = limit.max(state.len());
            if !self
                .bounds
                .within(&self.program, index, state.len(), ceiling)
            {
                let size = self.output_len(index, &state);
                if size > ceiling {
                    return Err(StateTooLarge::new(&self.program, index, size, limit));
                }
            }
            let matches = if observer.wants_match_counts() {
                self.count_matches(index, &state)
            } else {
                0
            };
            state = self.apply(index, &state);
            let report = RuleReport {
                matches,
                skipped: false,
                state_len: state.len(),
            };
            if let ControlFlow::Break(()) = observer.after_rule(index, &report, &|| state.clone()) {
                break;
            }
        }
        Ok(state)
    }

    fn max_state(&self) -> usize {
        self.max_state
    }

    fn set_max_state(&mut self, bytes: usize) {
        self.max_state = bytes;
    }

    fn release_caches(&mut self) {
        Reference::release_caches(self);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::program::{Program, Rule};

    fn program(rules: &[(&str, &str)]) -> ValidProgram {
        Program::from_rules(rules.iter().map(|(p, r)| Rule::new(*p, *r)).collect())
            .validate()
            .expect("a valid program")
    }

    /// Rules with one pattern search with one `Regex` value, hence one pool of search
    /// caches (a clone per rule would hold one pool per rule: 1.2 GB on `play`).
    #[test]
    fn one_cache_per_distinct_pattern() {
        let exec = Reference::new(program(&[
            ("a", "b"),
            ("(b)", "${1}c"),
            ("a", "d"),
            ("(b)", "x"),
        ]));
        assert_eq!(exec.compiled_patterns(), 2);
        assert!(exec.share_caches(0, 2));
        assert!(exec.share_caches(1, 3));
        assert!(!exec.share_caches(0, 1));
        let prefix = exec.prefix(3);
        assert!(prefix.share_caches(0, 2));
    }

    /// Dropping the caches changes no result.
    #[test]
    fn released_caches_change_nothing() {
        let mut exec = Reference::new(program(&[("a+", "b"), ("(b)(c?)", "$2$1$1"), ("a", "q")]));
        let state = "aacaaa ba c";
        let before = exec.run(state).unwrap();
        exec.release_caches();
        assert_eq!(exec.run(state).unwrap(), before);
        assert_eq!(before, "cbbbb bbbb c");
    }
}
