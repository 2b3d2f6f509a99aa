//! The helper thread that compiles patterns ahead of a run ([`CompileAhead::compile_rules`]).
//!
//! Contract: the helper only ever compiles patterns and decides group needs, through
//! the same [`Rules`] the run reads, so a run's results, reports and states are the same
//! with it or without it; it only moves compile time to a second core. It stops when
//! the run says so, and never waits for the run.
//!
//! Trade-offs: a fresh process pays for compiling on first use (see PERF.md, "Cold
//! start"). The helper goes through the rules ahead of the one the run is at, in rule
//! order; it leaves out, on small states, the patterns whose remembered needed literals
//! the state lacks right now (their rules would be skipped without compiling them), and
//! comes back to them once the state has gained those literals. A pattern the run meets
//! while the helper compiles it is compiled by the run itself (the helper does not hold
//! the pattern's lock while it compiles), so the run never waits for the helper.
//!
//! Layer 6: uses `rules`, `slot` and `state`.

use std::ops::Range;
use std::sync::RwLock;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

use crate::exec::fast::rules::Rules;
use crate::exec::fast::segments::State;
use crate::exec::fast::slot::PatternSlot;

/// The largest state on which the helper that compiles ahead checks a pattern's needed
/// literals before compiling it (see [`CompileAhead::lacks_needed`]): one search per literal
/// of every pattern ahead costs little on a small state, and the patterns it leaves out
/// are what a small state's first move wastes most on.
pub const AHEAD_CHECK_MAX: usize = 1 << 15;

/// The run a helper compiles ahead of.
#[derive(Clone, Copy, Debug)]
pub struct CompileAhead<'a> {
    /// The program's rules.
    pub rules: &'a Rules,
    /// The run's state.
    pub state: &'a RwLock<State>,
    /// The rule the run is at.
    pub at: &'a AtomicUsize,
    /// Set when the run is over.
    pub stop: &'a AtomicBool,
    /// Whether the run's texts are all ASCII (its caches' setting, for the engines the
    /// helper builds).
    pub ascii: bool,
}

impl CompileAhead<'_> {
    /// Compiles, in rule order, the patterns of the rules of `range` from the rule the
    /// run is at on (read again after each pattern: the run compiles what it meets
    /// itself) until the run stops, leaving out those the state lacks a needed literal of
    /// right now (see [`CompileAhead::lacks_needed`]); sets `all_compiled` when it went through
    /// every rule of the program (later runs compile what they meet that is still not
    /// compiled, as they would without a helper). Then, until the run stops, goes again
    /// over the left-out rules still ahead of the run, in rule order, and compiles the
    /// patterns whose literals the state has gained meanwhile (the run's earlier rules
    /// write them): the first pass meets the state as the run started it, before the
    /// rules that write the tags most patterns need, so it used to leave out nearly all
    /// of them and end within the run's first rules (PERF.md, "Cold start"). With each
    /// pattern it builds the engines a search of it is sure to build
    /// (`Compiled::build_search_engines`) for the run's texts.
    pub fn compile_rules(&self, range: Range<usize>, all_compiled: &AtomicBool) {
        let CompileAhead {
            rules,
            state,
            at,
            stop,
            ..
        } = *self;
        let whole = range == (0..rules.count());
        // The rules left out for a literal the state lacked, in rule order.
        let mut left_out = Vec::new();
        let mut index = range.start;
        while index < range.end {
            if stop.load(Ordering::Relaxed) {
                return;
            }
            // Patterns the run has already passed are its own business.
            index = index.max(at.load(Ordering::Relaxed) + 1);
            if index >= rules.count() {
                break;
            }
            if index < range.end {
                if self.lacks_needed(rules.slot(index)) {
                    left_out.push(index);
                } else {
                    self.compile_rule(index);
                }
            }
            index += 1;
        }
        if whole && index >= range.end {
            all_compiled.store(true, Ordering::Relaxed);
        }
        // The state as last checked: the left-out patterns are checked against a copy,
        // taken under the lock only when the state changed, so that the helper holds the
        // lock for a copy's time, not for a search per pattern (a helper preempted while
        // it holds the lock would hold up the run's next rule).
        let mut text = String::new();
        while !left_out.is_empty() && !stop.load(Ordering::Relaxed) {
            let checkable = match state.try_read() {
                Ok(guard) => match guard.text_if_flat() {
                    Some(now) if now.len() <= AHEAD_CHECK_MAX && now == text => None,
                    Some(now) if now.len() <= AHEAD_CHECK_MAX => {
                        text.clear();
                        text.push_str(now);
                        Some(true)
                    }
                    // Too large to check, as in `lacks_needed`: compile them all.
                    _ => Some(false),
                },
                Err(_) => None,
            };
            let Some(checkable) = checkable else {
                // Unchanged, or being written: give the run time to change the state.
                std::thread::sleep(std::time::Duration::from_micros(100));
                continue;
            };
            left_out.retain(|&index| {
                let slot = rules.slot(index);
                if stop.load(Ordering::Relaxed) {
                    return true;
                }
                // Passed by the run, or compiled for another rule of its pattern.
                if index <= at.load(Ordering::Relaxed) || slot.is_compiled() {
                    return false;
                }
                let lacks = |needed: &[Box<[u8]>]| {
                    let bytes = text.as_bytes();
                    needed
                        .iter()
                        .any(|l| memchr::memmem::find(bytes, l).is_none())
                };
                if checkable && slot.needed_before_compiling().is_some_and(lacks) {
                    return true;
                }
                self.compile_rule(index);
                false
            });
        }
    }

    /// Compiles the pattern of rule `index` and the engines its search is sure to build
    /// (for the run's texts), and decides how its template uses groups.
    fn compile_rule(&self, index: usize) {
        let rule = self.rules.parts_ahead(index);
        self.rules.literal_ids(index);
        rule.pattern.build_search_engines(self.ascii);
    }

    /// Whether the state lacks, right now, a literal that the pattern of `slot` needs (its
    /// remembered needed literals, while it is not compiled), on a flat state of at most
    /// [`AHEAD_CHECK_MAX`] bytes that no rule is writing: a rule of that pattern met
    /// now would be skipped without compiling it. The helper that compiles ahead leaves
    /// such patterns to the run, which compiles one itself if its literal appears by the
    /// time it gets there: in a fresh process's first move on the endgames, the helper
    /// compiled a pattern for every rule ahead, and about 10 M instructions of it went to
    /// patterns whose rules the run then skipped (PERF.md, "Cold start").
    fn lacks_needed(&self, slot: &PatternSlot) -> bool {
        let Some(needed) = slot.needed_before_compiling() else {
            return false;
        };
        let Ok(guard) = self.state.try_read() else {
            return false;
        };
        match guard.text_if_flat() {
            Some(text) if text.len() <= AHEAD_CHECK_MAX => needed
                .iter()
                .any(|literal| memchr::memmem::find(text.as_bytes(), literal).is_none()),
            _ => false,
        }
    }
}
