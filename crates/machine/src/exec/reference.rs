//! The reference executor: `regex::Regex::replace_all`, rule by rule.
//!
//! This executor defines what a program means. It stays obviously right: each distinct
//! pattern is compiled once, and each rule is one `replace_all` with the rule's replacement
//! string handed to `regex` as written. Nothing is skipped and nothing is cached between
//! rules. It is slow on large states (see PERF.md); use it to check, not to play.
//!
//! The state limit ([`super::limit`]): before a rule whose output bound exceeds the limit,
//! the exact length of its output is counted (`captures_iter` and `Captures::expand`, one
//! match at a time), and the run ends with [`StateTooLarge`] when it is over; below the
//! bound nothing is counted.

use std::collections::HashMap;
use std::ops::ControlFlow;

use regex::Regex;

use super::limit::{Bounds, DEFAULT_MAX_STATE, StateTooLarge};
use super::{Executor, Observer, RuleReport};
use crate::program::ValidProgram;

/// Runs programs with `replace_all`.
#[derive(Debug)]
pub struct Reference {
    program: ValidProgram,
    /// One compiled regex per rule (clones share the compiled program).
    regexes: Vec<Regex>,
    /// Each rule's output bound.
    bounds: Bounds,
    /// The state limit in bytes.
    max_state: usize,
}

impl Reference {
    /// Compiles each distinct pattern of `program` once.
    pub fn new(program: ValidProgram) -> Reference {
        let mut cache: HashMap<&str, Regex> = HashMap::new();
        let regexes = program
            .rules()
            .iter()
            .map(|rule| {
                cache
                    .entry(rule.pattern.as_str())
                    .or_insert_with(|| {
                        Regex::new(&rule.pattern).expect("a validated pattern compiles")
                    })
                    .clone()
            })
            .collect();
        let bounds = Bounds::new(&program);
        Reference {
            program,
            regexes,
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
            regexes: self.regexes[..keep].to_vec(),
            bounds,
            max_state: self.max_state,
        }
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
        for caps in self.regexes[index].captures_iter(state) {
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
        self.regexes[index]
            .replace_all(state, replacement)
            .into_owned()
    }

    /// The number of matches rule `index` has in `state` (a separate search, so that
    /// [`Reference::apply`] stays a bare `replace_all`).
    pub fn count_matches(&self, index: usize, state: &str) -> usize {
        self.regexes[index].find_iter(state).count()
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
}
