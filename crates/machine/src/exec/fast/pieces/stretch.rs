//! One rule that is not local, applied to a large state on several cores: the state cut
//! into pieces, each piece's matches searched from its start on one core, and the
//! pieces joined in order with the few matches that cross a cut searched again.
//!
//! Contract: for a pattern that is splittable (`Compiled::splittable`: no look-around,
//! no empty match) and a text cut at any bounds, [`Stretch::join`] of the
//! [`StretchRun`]s that [`Stretch::run_piece`] gives for the pieces (each from its bound,
//! or from where the piece before it ended) writes exactly
//! `regex::Regex::replace_all`'s text for the whole text, and returns its match count.
//!
//! Why it is exact. Without look-around, the match a search reports at a start depends
//! only on the text from that start on; matches are never empty, so after a match the
//! search goes on from its end, and the next match is the leftmost at or after that end.
//! A piece searched from its bound `b` finds the matches the whole search finds once the
//! search reaches `b` with no match in progress: true when the pieces before it ended
//! exactly at `b` (their last match ended at or before it, and the search from there
//! found its next match at or after `b`, which is what the piece found first). When a
//! match of the piece before runs past `b`, [`Stretch::join`] searches the piece again
//! from that match's end, and as soon as it meets a match the piece's own search also
//! started at, the two searches are at the same place, and the rest of the piece's run
//! is taken as it is (its output from that match on, and its count of the matches from
//! there).
//!
//! Where it pays: the rules that compare a thread with the next (the search's
//! tournaments, which pair threads) or end a thread at the next one's head are not
//! local, and on one core they ran whole on the widest states while the other core
//! waited. Cut at thread boundaries, a tournament round's pairs cross about half the
//! cuts, and the search again runs to the end of the run of threads being paired, a
//! small part of a piece.
//!
//! Trade-offs: the join copies the output of every piece once more (pieces are written
//! in their own buffers, as their place in the output is known only in order); a piece
//! with no match is not written, and the join copies its text from the state. The
//! caller's pieces (a prefix, taken in order) start exactly where the one before ended,
//! so only a helper's pieces are searched again. The index of `%` bytes: each piece
//! with matches scans its output for one; the join shifts them into the output's index.
//!
//! Layer 6: uses `rules`, `caches`, `rewrite` and `starts`.

use std::ops::Range;
use std::sync::{Mutex, PoisonError};

use crate::exec::fast::caches::Caches;
use crate::exec::fast::rewrite::{self, Hay, Mark, Marks};
use crate::exec::fast::rules::RuleParts;
use crate::exec::fast::starts::Starts;

/// One rule applied to a text cut into pieces: what each piece's run
/// ([`Stretch::run_piece`]) and the join ([`Stretch::join`]) read.
#[derive(Clone, Copy, Debug)]
pub struct Stretch<'a> {
    /// The rule (splittable).
    pub rule: RuleParts<'a>,
    /// The whole text and its index when held.
    pub hay: Hay<'a>,
    /// Whether the pieces' runs keep their output's index of `%` bytes, and the join
    /// writes the output's.
    pub indexed: bool,
}

/// One piece of a text taken through one rule (see [`Stretch::run_piece`]).
#[derive(Debug, Default)]
pub struct StretchRun {
    /// Where the piece's search started (and its output starts) in the text.
    pub from: usize,
    /// Where the text the output stands for ends.
    pub end: usize,
    /// The matches replaced.
    pub count: usize,
    /// Whether some match was replaced by other bytes.
    pub changed: bool,
    /// The output when `count > 0` (else empty: the text is unchanged).
    out: String,
    /// The index of `out`'s `%` bytes, when the run kept one.
    starts: Starts,
    /// Each match: its start in the text, where its output starts in `out`, and
    /// whether it changed.
    marks: Vec<Mark>,
}

/// The buffers of finished runs, shared by the threads of a crew from one rule to the
/// next: a piece's run takes one and the join gives them all back, so that the pieces
/// of later rules write into memory already touched instead of fresh allocations (on
/// the widest states, allocating each piece's buffers made whole rules twice as slow
/// in some processes).
#[derive(Debug, Default)]
pub struct Buffers {
    kept: Mutex<Vec<StretchRun>>,
}

impl Buffers {
    /// A run with emptied buffers, kept or new.
    fn take(&self) -> StretchRun {
        let kept = self
            .kept
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .pop();
        let mut run = kept.unwrap_or_default();
        run.out.clear();
        run.starts.clear();
        run.marks.clear();
        run
    }

    /// Keeps `runs`' buffers for later pieces.
    pub fn keep(&self, runs: Vec<StretchRun>) {
        let mut kept = self.kept.lock().unwrap_or_else(PoisonError::into_inner);
        kept.extend(runs);
    }
}

/// What a [`Stretch::join`] did.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Joined {
    /// The matches replaced.
    pub count: usize,
    /// Whether some match was replaced by other bytes.
    pub changed: bool,
}

impl Stretch<'_> {
    /// Applies the rule to `hay.text[span.start..]` as far as `span.end` (the matches
    /// that start before it; the last may end past it, see [`rewrite::rewrite_stretch`]),
    /// in buffers taken from `buffers`, keeping the output's index of `%` bytes when the
    /// stretch is indexed.
    pub fn run_piece(
        &self,
        caches: &mut Caches,
        buffers: &Buffers,
        span: Range<usize>,
    ) -> StretchRun {
        let rule = self.rule;
        let mut run = buffers.take();
        let cache = caches.cache(rule.slot);
        rule.pattern
            .begin_stretch(cache, self.hay.text.len(), span.end);
        let from = span.start;
        let record = Marks::Record(&mut run.marks);
        let done = rewrite::rewrite_stretch(rule, cache, self.hay, span, &mut run.out, record);
        run.from = from;
        run.end = done.end;
        run.count = done.count;
        run.changed = done.changed;
        if done.count == 0 {
            run.out.clear();
            run.marks.clear();
        } else if self.indexed {
            run.starts.rebuild(run.out.as_bytes());
        }
        run
    }

    /// Writes into `out` (empty) the rule applied to `hay.text`, from the runs of its
    /// pieces (cut at `bounds`, in order; the first from where no match can start
    /// before), searching again from where a match ran past a piece's start (see the
    /// module doc). When the stretch is indexed, writes the index of `out`'s `%` bytes
    /// into `out_starts` (empty) too.
    pub fn join(
        &self,
        caches: &mut Caches,
        bounds: &[usize],
        runs: &[StretchRun],
        out: &mut String,
        out_starts: &mut Starts,
    ) -> Joined {
        let (rule, hay) = (self.rule, self.hay);
        let mut starts = self.indexed.then_some(out_starts);
        let text = hay.text;
        out.reserve(text.len() + text.len() / 8 + 64);
        let mut done = Joined::default();
        // Where the text written so far ends.
        let mut pos = runs.first().map_or(0, |run| run.from);
        copy_text(hay, 0..pos, out, starts.as_deref_mut());
        for (i, run) in runs.iter().enumerate() {
            if pos == run.from {
                append(hay, run, 0, out, starts.as_deref_mut());
                done.count += run.count;
                done.changed |= run.changed;
                pos = run.end;
                continue;
            }
            let limit = bounds[i + 1];
            if pos >= limit {
                continue;
            }
            // A match before the piece ran past its start: search it again from there
            // until a match its own search found too.
            let cache = caches.cache(rule.slot);
            rule.pattern.begin_stretch(cache, text.len(), limit);
            let at = out.len();
            let stop_at = Marks::StopAt(&run.marks);
            let again = rewrite::rewrite_stretch(rule, cache, hay, pos..limit, out, stop_at);
            if let Some(starts) = starts.as_deref_mut() {
                starts.extend_scan(&out.as_bytes()[at..], at);
            }
            done.count += again.count;
            done.changed |= again.changed;
            pos = again.end;
            if again.stopped {
                let k = run
                    .marks
                    .binary_search_by_key(&again.end, |mark| mark.start)
                    .expect("the join stops only at a match the piece found");
                append(hay, run, run.marks[k].at, out, starts.as_deref_mut());
                done.count += run.count - k;
                // Exactly the matches taken (as a whole-text rewrite decides it), so that
                // which thread ran which piece never shows in the run's reports.
                done.changed |= run.marks[k..].iter().any(|mark| mark.changed);
                pos = run.end;
            }
        }
        copy_text(hay, pos.min(text.len())..text.len(), out, starts);
        done
    }
}

/// Appends the output of `run` from its byte `from` on (a match's start, or 0) to `out`,
/// and its index to `starts`.
fn append(
    hay: Hay<'_>,
    run: &StretchRun,
    from: usize,
    out: &mut String,
    starts: Option<&mut Starts>,
) {
    if run.count == 0 {
        copy_text(hay, run.from..run.end, out, starts);
        return;
    }
    let at = out.len();
    out.push_str(&run.out[from..]);
    if let Some(starts) = starts {
        starts.extend_slice(&run.starts, from..run.out.len(), at);
    }
}

/// Appends `hay.text[range]` to `out`, and its index to `starts`.
fn copy_text(hay: Hay<'_>, range: Range<usize>, out: &mut String, starts: Option<&mut Starts>) {
    let at = out.len();
    out.push_str(&hay.text[range.clone()]);
    if let Some(starts) = starts {
        match hay.index {
            Some(whole) => starts.extend_slice(whole, range, at),
            None => starts.extend_scan(hay.text[range].as_bytes(), at),
        }
    }
}
