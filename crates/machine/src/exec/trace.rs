//! Tracing: find the first rule where two executors disagree.
//!
//! Both executors run the whole program on the same state. The first run records a hash of
//! the state after every rule; the second compares against those hashes and stops at the
//! first rule whose state differs. The states on both sides are then rebuilt around that
//! rule, so memory stays at a few copies of the state however long the program is.
//!
//! A run that ends at the state limit ([`super::limit`]) is compared too: the executors
//! disagree at a rule when one stops there and the other does not, or both stop with
//! different errors.

use std::collections::hash_map::DefaultHasher;
use std::fmt;
use std::hash::{Hash, Hasher};
use std::ops::ControlFlow;

use super::{Executor, Observer, RuleReport, StateTooLarge};
use crate::program::Rule;

/// What an executor holds after a rule: the state, or the error that ended the run.
pub type After = Result<String, StateTooLarge>;

/// The first rule after which two executors hold different states.
#[derive(Clone, Debug)]
pub struct Divergence {
    /// Index of the rule.
    pub index: usize,
    /// The rule itself.
    pub rule: Rule,
    /// The state both held before the rule.
    pub before: String,
    /// Name and state (or error) of the first executor after the rule.
    pub left: (&'static str, After),
    /// Name and state (or error) of the second executor after the rule.
    pub right: (&'static str, After),
}

fn hash(state: &str) -> u64 {
    let mut h = DefaultHasher::new();
    state.hash(&mut h);
    h.finish()
}

struct Recorder(Vec<u64>);

impl Observer for Recorder {
    fn after_rule(
        &mut self,
        _: usize,
        _: &RuleReport,
        state: &dyn Fn() -> String,
    ) -> ControlFlow<()> {
        self.0.push(hash(&state()));
        ControlFlow::Continue(())
    }
    fn wants_match_counts(&self) -> bool {
        false
    }
}

struct Comparer<'a> {
    expected: &'a [u64],
    found: Option<(usize, String)>,
}

impl Observer for Comparer<'_> {
    fn after_rule(
        &mut self,
        index: usize,
        _: &RuleReport,
        state: &dyn Fn() -> String,
    ) -> ControlFlow<()> {
        let now = state();
        if self.expected.get(index) != Some(&hash(&now)) {
            self.found = Some((index, now));
            return ControlFlow::Break(());
        }
        ControlFlow::Continue(())
    }
    fn wants_match_counts(&self) -> bool {
        false
    }
}

/// Runs both executors on `state` and returns the first rule where they disagree, or
/// `None` when every intermediate state is the same.
pub fn first_divergence(
    left: &dyn Executor,
    right: &dyn Executor,
    state: &str,
) -> Option<Divergence> {
    let mut recorder = Recorder(Vec::new());
    let left_end = left.run_observed(state, &mut recorder);
    let mut comparer = Comparer {
        expected: &recorder.0,
        found: None,
    };
    let right_end = right.run_observed(state, &mut comparer);
    // The first rule where the states differ, or else where a run ended at the limit
    // (a right run that went past the rule where the left one stopped differs there).
    let index = match (comparer.found, &left_end, &right_end) {
        (Some((index, _)), _, _) => index,
        (None, Ok(_), Ok(_)) => return None,
        (None, Err(e), Ok(_)) | (None, Ok(_), Err(e)) => e.rule,
        (None, Err(l), Err(r)) if l == r => return None,
        (None, Err(l), Err(r)) => l.rule.min(r.rule),
    };
    let mut none = super::NoObserver;
    // Both ran the rules before `index` to the same states (or the same hashes).
    let before = left.run_range(state, 0..index, &mut none).ok()?;
    let left_after = left.run_range(&before, index..index + 1, &mut none);
    let right_after = right.run_range(&before, index..index + 1, &mut none);
    Some(Divergence {
        index,
        rule: left.program().rules()[index].clone(),
        before,
        left: (left.name(), left_after),
        right: (right.name(), right_after),
    })
}

/// The byte offset of the first difference between `a` and `b`, on a char boundary of both.
pub fn first_difference(a: &str, b: &str) -> usize {
    let mut at = a
        .bytes()
        .zip(b.bytes())
        .position(|(x, y)| x != y)
        .unwrap_or(a.len().min(b.len()));
    while !a.is_char_boundary(at) || !b.is_char_boundary(at) {
        at -= 1;
    }
    at
}

/// Up to `radius` bytes on each side of `at`, with newlines shown as `\n`.
pub fn context(s: &str, at: usize, radius: usize) -> String {
    let mut start = at.saturating_sub(radius);
    while !s.is_char_boundary(start) {
        start -= 1;
    }
    let mut end = (at + radius).min(s.len());
    while !s.is_char_boundary(end) {
        end += 1;
    }
    let mut shown = String::new();
    if start > 0 {
        shown.push('…');
    }
    shown.push_str(&s[start..end].escape_debug().to_string());
    if end < s.len() {
        shown.push('…');
    }
    shown
}

impl fmt::Display for Divergence {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(
            f,
            "executors diverge at rule {} ({})",
            self.index, self.rule.origin
        )?;
        writeln!(f, "  pattern:     {:?}", self.rule.pattern)?;
        writeln!(f, "  replacement: {:?}", self.rule.replacement)?;
        let (ln, rn) = (self.left.0, self.right.0);
        let (ls, rs) = match (&self.left.1, &self.right.1) {
            (Ok(ls), Ok(rs)) => (ls, rs),
            (left, right) => {
                let show = |after: &After| match after {
                    Ok(state) => format!("a state of {} bytes", state.len()),
                    Err(e) => format!("stopped: {e}"),
                };
                writeln!(f, "  {ln:<8} {}", show(left))?;
                return write!(f, "  {rn:<8} {}", show(right));
            }
        };
        let at = first_difference(ls, rs);
        writeln!(
            f,
            "  state before: {} bytes; after: {ln} {} bytes, {rn} {} bytes; first difference at byte {at}",
            self.before.len(),
            ls.len(),
            rs.len()
        )?;
        writeln!(f, "  before:  {}", context(&self.before, at, 120))?;
        writeln!(f, "  {ln:<8} {}", context(ls, at, 120))?;
        write!(f, "  {rn:<8} {}", context(rs, at, 120))
    }
}
