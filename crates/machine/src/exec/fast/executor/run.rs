//! One run of a program's rules over a state ([`Runner::run`]): rule after rule on the
//! whole state, or a run of local rules at a time as a rope, on one core or with a crew
//! of helper threads; every rule reported to the observer in order.
//!
//! Contract: the run gives the state the reference gives and reports every rule of the
//! range in order, with the reference's match counts when the observer wants them;
//! `skipped: true` means the rule was not searched: a literal every match needs is
//! absent (0 matches), or the identical previous rule changed nothing (it then reports
//! that rule's matches, which it would find again). The observer may stop the run after
//! any rule, inside a rope run too: the state is then the state after that rule.
//!
//! How a rule runs, cheapest first: skipped when a needed literal is known absent
//! ([`Seen`]), or when the remembered needed literals (the pattern not compiled yet) are
//! not in the state; on the segmented state when its matches start with a `%` prefix and
//! the state is large ([`State::rewrite_by_segment`]); cut into pieces shared with the
//! crew when it is splittable and the state large enough ([`Stretch`]); else one
//! rewrite of the flat state ([`rewrite::rewrite`]). A run of local rules on a large
//! state goes through the rope first ([`Runner::rope_run`]).
//!
//! The state limit ([`crate::exec::limit`]): a rule whose output bound is over the limit
//! takes the flat path, its output written up to the limit and then only counted; a
//! rope run ends before its first rule whose bound, chained from the state's length
//! through the rules before it, is over the limit.
//!
//! Trade-offs: the state's length is read again only when a rule changes the state
//! (locks cost atomic operations, a noticeable share of a rule on a small state); a rope
//! run reports its rules after it ran them all, rendering a state inside the run only
//! when the observer asks for one.
//!
//! Layer 8: uses `rules`, `rewrite`, `state`, `seen`, `rope`, `stretch`, `parallel` and
//! `counters`.

use std::ops::{ControlFlow, Range};
use std::sync::RwLock;
use std::sync::atomic::{AtomicUsize, Ordering};

use crate::exec::fast::counters::Tally;
use crate::exec::fast::parallel::{self, Crew};
use crate::exec::fast::rewrite::{self, Hay};
use crate::exec::fast::rope::{self, Scratch};
use crate::exec::fast::rules::{RuleParts, Rules};
use crate::exec::fast::seen::Seen;
use crate::exec::fast::segments::{State, read, write};
use crate::exec::fast::stretch::{self, Stretch};
use crate::exec::limit::{Bounds, StateTooLarge};
use crate::exec::{Observer, RuleReport};

/// The sizes from which a run takes each path (see `Fast`'s options).
#[derive(Clone, Copy, Debug)]
pub struct Options {
    /// States at least this long use the segmented form for rules that allow it.
    pub segment_min_len: usize,
    /// On one core, states at least this long run runs of local rules as a rope.
    pub rope_min_len: usize,
    /// The length of a rope's pieces.
    pub rope_piece_len: usize,
    /// States at least this long keep an index of their `%` bytes once a rule whose
    /// prefix starts with `%` meets them.
    pub index_min_len: usize,
}

/// One run over one state, on the caller's thread.
pub struct Runner<'a> {
    /// The program's rules.
    pub rules: &'a Rules,
    /// The sizes from which the run takes each path.
    pub options: Options,
    /// The state.
    pub state: &'a RwLock<State>,
    /// The crew of helper threads, when several cores share the run.
    pub crew: Option<&'a Crew<'a>>,
    /// The rule the run is at, for the helper that compiles ahead.
    pub at: &'a AtomicUsize,
    /// The executor's counters of rope runs and stretches.
    pub tally: &'a Tally,
    /// Each rule's output bound.
    pub bounds: &'a Bounds,
    /// The state limit in bytes.
    pub max_state: usize,
}

/// What [`Runner::rope_run`] did.
enum RopeRun {
    /// Nothing: the rule runs whole.
    No,
    /// Nothing, because the cuts did not hold: the rules before this one run whole.
    Fallback(usize),
    /// Ran the rules.
    Done(RopeDone),
}

/// What a rope run did.
#[derive(Debug, Default)]
struct RopeDone {
    /// The next rule to run.
    next: usize,
    /// Whether the observer stopped the run.
    stopped: bool,
    /// Whether the state changed.
    changed: bool,
    /// The last rule's matches and whether it changed the state.
    last_matches: usize,
    last_changed: bool,
}

impl Runner<'_> {
    /// Runs the rules of `range` in order, reporting each to `observer`, with `scratch`
    /// as the caller's scratch space; stops with the error of the first rule that would
    /// grow the state past the limit.
    pub fn run(
        &self,
        range: Range<usize>,
        observer: &mut dyn Observer,
        scratch: &mut Scratch,
    ) -> Result<(), StateTooLarge> {
        let counts = observer.wants_match_counts();
        // True while the last applied rule changed nothing: an identical rule right after
        // it cannot change anything either.
        let mut fixpoint = false;
        // The matches of the last applied rule: an identical rule skipped at a fixpoint
        // meets the same state, so it has the same matches (which replace them by
        // themselves).
        let mut last_matches = 0;
        let mut seen = Seen::default();
        // The state's length, read again only when a rule changes the state (locks cost
        // atomic operations, a noticeable share of a rule on a small state).
        let mut len = read(self.state).len();
        // Rules before this one failed to run as a rope (see `rope.rs`): they run whole.
        let mut whole_until = range.start;
        let mut index = range.start;
        while index < range.end {
            self.at.store(index, Ordering::Relaxed);
            if index >= whole_until {
                match self.rope_run(index..range.end, len, scratch, observer, &seen) {
                    RopeRun::No => {}
                    RopeRun::Fallback(until) => whole_until = until,
                    RopeRun::Done(done) => {
                        if done.changed {
                            seen.state_changed();
                            len = read(self.state).len();
                        }
                        fixpoint = !done.last_changed;
                        last_matches = done.last_matches;
                        if done.stopped {
                            return Ok(());
                        }
                        index = done.next;
                        continue;
                    }
                }
            }
            let (matches, skipped) = if fixpoint && self.rules.same_as_previous(index) {
                (last_matches, true)
            } else {
                let program = self.rules.program();
                // A rule stops the run when its output is longer than both the limit
                // and its input (a state given longer than the limit may still shrink).
                let ceiling = self.max_state.max(len);
                let within = self.bounds.within(program, index, len, ceiling);
                let cap = (!within).then_some(ceiling);
                let (matches, skipped, changed) = self
                    .apply(index, scratch, &mut seen, cap)
                    .map_err(|size| StateTooLarge::new(program, index, size, self.max_state))?;
                if changed {
                    seen.state_changed();
                    len = read(self.state).len();
                }
                fixpoint = !changed;
                last_matches = matches;
                (matches, skipped)
            };
            let report = RuleReport {
                matches: if counts { matches } else { 0 },
                skipped,
                state_len: len,
            };
            let flow = observer.after_rule(index, &report, &|| read(self.state).render());
            if let ControlFlow::Break(()) = flow {
                break;
            }
            index += 1;
        }
        Ok(())
    }

    /// Applies rule `index` to the whole of the state, sharing its pieces with the crew
    /// when there is one and the state is large enough for it (see `stretch.rs`).
    /// Returns the report's `matches` and `skipped` and whether the state changed. With
    /// a `cap` (its output bound is over the limit), the rule takes the flat path with
    /// its output capped there, and returns the output's length as the error when it is
    /// over, the state untouched.
    fn apply(
        &self,
        index: usize,
        scratch: &mut Scratch,
        seen: &mut Seen,
        cap: Option<usize>,
    ) -> Result<(usize, bool, bool), usize> {
        let careful = cap.is_some();
        let slot = self.rules.slot(index);
        let literal_ids = self.rules.literal_ids(index);
        if literal_ids.iter().any(|&l| seen.is_absent(l)) {
            return Ok((0, true, false));
        }
        if let Some(needed) = slot.needed_before_compiling() {
            // What `first_possible` would find, without compiling the pattern: many
            // rules of a fresh process are skipped for a literal their state lacks.
            let mut guard = write(self.state);
            if guard.len() < self.options.segment_min_len {
                let (text, _) = guard.flat();
                let missing = needed.iter().zip(literal_ids).any(|(literal, &id)| {
                    let mut find = || memchr::memmem::find(text.as_bytes(), literal);
                    seen.first_of(id, &mut find).is_none()
                });
                if missing {
                    return Ok((0, true, false));
                }
            }
        }
        let rule = self.rules.parts(index);
        let compiled = rule.pattern;
        let mut guard = write(self.state);
        let cache = scratch.caches.cache(rule.slot);
        if let Some(prefix) = compiled.segment_prefix()
            && !careful
            && guard.len() >= self.options.segment_min_len
            && let Some(result) = guard.rewrite_by_segment(rule, cache, prefix)
        {
            return Ok(result);
        }
        if compiled.percent_prefixed() && guard.len() >= self.options.index_min_len {
            guard.build_index();
        }
        let (text, starts) = guard.flat();
        let first_of = |k: usize, find: &mut dyn FnMut() -> Option<usize>| match literal_ids.get(k)
        {
            Some(&id) => seen.first_of(id, find),
            None => find(),
        };
        let Ok(from) = compiled.first_possible_known(text, starts, first_of) else {
            return Ok((0, true, false));
        };
        if let Some(crew) = self.crew
            && !careful
            && text.len() >= crew.min_len()
            && slot.splittable()
        {
            drop(guard);
            return Ok(self.apply_stretched(index, rule, scratch, crew, from));
        }
        let cache = scratch.caches.cache(rule.slot);
        let cap = cap.unwrap_or(usize::MAX);
        let (text, out, index) = guard.buffers();
        match rewrite::rewrite_capped(rule, cache, text, from, out, index, cap) {
            None => Ok((0, false, false)),
            Some(done) if done.dropped > 0 => {
                let size = out.len() + done.dropped;
                out.clear();
                Err(size)
            }
            Some(done) => {
                if done.changed {
                    guard.swap();
                }
                Ok((done.count, false, done.changed))
            }
        }
    }

    /// Applies rule `index` (`rule`, splittable, see `stretch.rs`) to the whole of the
    /// state with `crew`, no match starting before `from`; returns as
    /// [`Runner::apply`] does.
    fn apply_stretched(
        &self,
        index: usize,
        rule: RuleParts<'_>,
        scratch: &mut Scratch,
        crew: &Crew<'_>,
        from: usize,
    ) -> (usize, bool, bool) {
        let (mut out, mut out_starts) = write(self.state).take_spares();
        let guard = read(self.state);
        let text = guard.flat_text();
        let pieces = crew
            .pieces()
            .max(text.len() / self.options.rope_piece_len.max(1));
        let mut bounds = rope::cuts(text.as_bytes(), pieces.min(parallel::MAX_PIECES));
        bounds.insert(0, 0);
        bounds.push(text.len());
        let hay = Hay {
            text,
            index: guard.flat_index(),
        };
        let indexed = hay.index.is_some();
        let stretch = Stretch { rule, hay, indexed };
        self.tally.stretch(bounds.len() - 1);
        let runs = crew.stretch(index, stretch, &bounds, from, scratch);
        let mut done = stretch::Joined::default();
        if runs.iter().any(|run| run.count > 0) {
            let caches = &mut scratch.caches;
            done = stretch.join(caches, &bounds, &runs, &mut out, &mut out_starts);
        }
        crew.keep(runs);
        drop(guard);
        let mut guard = write(self.state);
        let changed = done.count > 0 && done.changed;
        if changed {
            guard.install(out, out_starts, indexed);
        } else {
            out.clear();
            out_starts.clear();
            guard.give_back_spares(out, out_starts);
        }
        (done.count, false, changed)
    }

    /// Runs the rules from `rules.start` on (up to `rules.end` at most) as a rope (see
    /// `rope.rs`) when the state (`len` bytes) is large enough and they start a run of
    /// local rules long enough, sharing the pieces with the crew when there is one and
    /// the state is large enough for it; reports every rule of the run to `observer`.
    fn rope_run(
        &self,
        rules: Range<usize>,
        len: usize,
        scratch: &mut Scratch,
        observer: &mut dyn Observer,
        seen: &Seen,
    ) -> RopeRun {
        let Range { start: index, end } = rules;
        let piece_len = self.options.rope_piece_len.max(1);
        let (crew, pieces, shortest) = match self.crew {
            Some(crew) if len >= crew.min_len() => {
                let pieces = crew.pieces().max(len / piece_len);
                (Some(crew), pieces.min(parallel::MAX_PIECES), 1)
            }
            _ if len >= self.options.rope_min_len => {
                (None, (len / piece_len).min(parallel::MAX_PIECES), 2)
            }
            _ => return RopeRun::No,
        };
        if pieces < 2 || !self.rules.is_local(index) {
            return RopeRun::No;
        }
        // The run ends before a rule whose output bound, chained through the rules
        // before it, is over the limit: that rule takes the careful path alone.
        let program = self.rules.program();
        let mut bound = self.bounds.after(program, index, len, self.max_state);
        if bound > self.max_state {
            return RopeRun::No;
        }
        let mut run_end = index + 1;
        while run_end < end && self.rules.is_local(run_end) {
            bound = self.bounds.after(program, run_end, bound, self.max_state);
            if bound > self.max_state {
                break;
            }
            run_end += 1;
        }
        if run_end - index < shortest {
            return RopeRun::No;
        }
        let rules = index..run_end;
        // The state's spare buffers, which the run joins its pieces into.
        let (out, out_starts) = write(self.state).take_spares();
        let guard = read(self.state);
        let text = guard.flat_text();
        let mut bounds = rope::cuts(text.as_bytes(), pieces);
        if bounds.is_empty() {
            drop(guard);
            write(self.state).give_back_spares(out, out_starts);
            return RopeRun::No;
        }
        bounds.insert(0, 0);
        bounds.push(text.len());
        let indexed = len >= self.options.index_min_len;
        let whole_index = guard.flat_index();
        let plan = rope::Plan::new(
            self.rules,
            rules.clone(),
            |id| seen.is_absent(id),
            indexed,
            piece_len,
        );
        let mut totals = vec![rope::Total::default(); rules.len()];
        let mut join = rope::Join::new(text, whole_index, indexed, out, out_starts);
        let result = match crew {
            Some(crew) => crew.run(plan, &bounds, scratch, &mut join, &mut totals),
            None => {
                // Each piece in turn through the whole run, its text then written
                // straight into the state's next buffer: the join, as the pieces are done.
                let run = rope::Run {
                    rules: self.rules,
                    plan: &plan,
                };
                bounds.windows(2).enumerate().try_for_each(|(i, w)| {
                    let piece = rope::Piece {
                        text: &text[w[0]..w[1]],
                        whole_index: whole_index.map(|whole| (whole, w[0])),
                        first: i == 0,
                        last: i + 2 == bounds.len(),
                    };
                    let mut sink = join.sink(w[0]..w[1]);
                    let done = run.piece(scratch, piece, &mut totals, &mut sink);
                    sink.end();
                    done.map(|_| ())
                })
            }
        };
        let (mut out, out_starts, indexed) = join.finish();
        if result.is_err() {
            drop(guard);
            write(self.state).give_back_spares(out, out_starts);
            return RopeRun::Fallback(run_end);
        }
        self.tally.rope_run(bounds.len() - 1);
        let counts = observer.wants_match_counts();
        let mut done = RopeDone {
            next: run_end,
            ..RopeDone::default()
        };
        let replay = rope::Replay::new(self.rules, index, text);
        let mut state_len = len as isize;
        let mut stopped_at = None;
        for (k, rule) in rules.clone().enumerate() {
            let total = totals[k];
            state_len += total.grown;
            done.last_matches = total.count;
            done.last_changed = total.changed;
            let report = RuleReport {
                matches: if counts { total.count } else { 0 },
                skipped: !total.searched,
                state_len: state_len as usize,
            };
            let render = || replay.state_after(k);
            if let ControlFlow::Break(()) = observer.after_rule(rule, &report, &render) {
                stopped_at = Some(k);
                break;
            }
        }
        let mut indexed = indexed;
        match stopped_at {
            Some(k) => {
                done.stopped = true;
                done.changed = totals[..=k].iter().any(|t| t.changed);
                if done.changed {
                    out = replay.state_after(k);
                    indexed = false;
                }
            }
            None => done.changed = totals.iter().any(|t| t.changed),
        }
        drop(guard);
        let mut guard = write(self.state);
        if done.changed {
            guard.install(out, out_starts, indexed);
        } else {
            guard.give_back_spares(out, out_starts);
        }
        RopeRun::Done(done)
    }
}
