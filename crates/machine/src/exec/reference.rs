//! The reference executor: `regex::Regex::replace_all`, rule by rule.
//!
//! This executor defines what a program means. It stays obviously right: each distinct
//! pattern is compiled once, and each rule is one `replace_all` with the rule's replacement
//! string handed to `regex` as written. Nothing is skipped and nothing is cached between
//! rules. It is slow on large states (see PERF.md); use it to check, not to play.

use std::collections::HashMap;
use std::ops::ControlFlow;

use regex::Regex;

use super::{Executor, Observer, RuleReport};
use crate::program::ValidProgram;

/// Runs programs with `replace_all`.
#[derive(Debug)]
pub struct Reference {
    program: ValidProgram,
    /// One compiled regex per rule (clones share the compiled program).
    regexes: Vec<Regex>,
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
        Reference { program, regexes }
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
    ) -> String {
        let mut state = state.to_string();
        for index in range {
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
        state
    }
}
