//! The machine state as the fast executor holds it between rules.
//!
//! Contract: [`State`] always renders to exactly the text the reference would hold, in
//! either form, and a rule that matches nothing leaves it untouched (no copy).
//!
//! Two forms, converted on demand:
//! - **flat**: one `String` plus a spare buffer that the next rewrite writes into (swapped
//!   in when the rule changes something), for rules that may touch any part of the text;
//! - **segmented** (design.md §5.3): the text cut before every `%` that follows a `\n`
//!   (where thread markers sit), so usually one segment per thread. A segment whose only
//!   `%` is its first byte is *clean*.
//!
//! The run loop ([`State::rewrite_by_segment`]) uses the segmented form for a rule whose
//! matches all start with a prefix literal that starts with `%` and holds no `\n%`, and
//! that has no look-around. Such a rule is searched only in the segments that could hold
//! a match (a clean segment only if it starts with the prefix), each segment as its own
//! text, and only rewritten segments are replaced; the rest of the state is neither
//! scanned nor copied. Cutting is a pure function of the text, so results never depend on
//! the form.
//!
//! Why that is exact: a prefix occurrence cannot straddle a cut (it would contain `\n%`),
//! and matches cannot be empty. What remains is a match (or a preferred path) that would
//! run past the segment's end into the next thread: the machine's pop,
//! `(%%\n#stack:\n)[^\n]*\n`, really does that on a thread with an empty stack, since
//! `[^\n]` accepts `%`. So every search reports whether its answer could change if the
//! text went on with a `%` (`touched_end`: a run that would not stop at `%`, a literal or
//! class that would accept it; the lazy DFA conservatively whenever it read to the end);
//! if a search in any segment but the last did, the rule is rerun on the flat text. Cut
//! points move with the text: rewritten segments are re-cut and merged with a neighbour
//! when a `\n` before a `%` appears or disappears.
//!
//! A flat state may also hold the index of its `%` bytes ([`Starts`]), built on request
//! ([`State::build_index`]) and carried through flat rewrites ([`State::buffers`] hands out
//! what keeps it) and through the rope's join ([`State::install`], given the joined
//! index); every other way of changing the text (cutting it into segments, a join
//! without an index) drops it, so a held index is always that of the text.
//!
//! Trade-offs: the segmented form pays a cut of the whole text when it is first needed and
//! a re-cut around every edited segment; where every thread matches, that made it about
//! three times slower than the flat path, so it is off by default (`Fast::segmented`).
//! The flat form keeps a spare buffer as large as the text, so that a rule writes into
//! memory already touched instead of allocating.
//!
//! Layer 5: uses `pattern`, `rewrite`, `rules` and `starts`.

use std::sync::{PoisonError, RwLock, RwLockReadGuard, RwLockWriteGuard};

use crate::exec::fast::pattern::{Cache, Compiled};
use crate::exec::fast::rewrite::{self, Index};
use crate::exec::fast::rules::RuleParts;
use crate::exec::fast::starts::Starts;

/// The state, locked for reading.
pub fn read(state: &RwLock<State>) -> RwLockReadGuard<'_, State> {
    state.read().unwrap_or_else(PoisonError::into_inner)
}

/// The state, locked for writing (a poisoned lock is still consistent: every change is a
/// swap).
pub fn write(state: &RwLock<State>) -> RwLockWriteGuard<'_, State> {
    state.write().unwrap_or_else(PoisonError::into_inner)
}

/// The state between rules: either one flat text, or the same text cut into segments.
#[derive(Debug, Default)]
pub struct State {
    /// The text, when not segmented.
    text: String,
    /// The buffer the next flat rewrite writes into; swapped with `text` when a rule
    /// changes the state, so large buffers are reused instead of allocated for every rule.
    spare: String,
    /// When segmented: the text cut before every `%` that follows a `\n`. Every segment
    /// but the first starts with `%`, and every segment but the last ends with `\n`.
    segments: Vec<Segment>,
    segmented: bool,
    /// The length of the text in bytes, in either form.
    len: usize,
    /// The index of `text`'s `%` bytes, when it is held (flat states only).
    starts: Option<Starts>,
    /// Where a flat rewrite writes the index of `spare`.
    spare_starts: Starts,
}

/// One segment of a segmented state: usually exactly one thread.
#[derive(Debug, Default)]
pub struct Segment {
    /// The text of the segment.
    pub text: String,
    /// True when the only `%` in `text`, if any, is its first byte: a match (which starts
    /// with `%`) can then only start at the segment's start.
    pub clean: bool,
}

impl Segment {
    fn new(text: String) -> Segment {
        let clean = match text.as_bytes() {
            [b'%', rest @ ..] => memchr::memchr(b'%', rest).is_none(),
            all => memchr::memchr(b'%', all).is_none(),
        };
        Segment { text, clean }
    }
}

/// Appends the segments of `text` to `out`, continuing `out`'s last segment when `text`
/// does not start at a segment boundary (a `%` after a `\n`, or the very start).
fn push_segments(out: &mut Vec<Segment>, text: &str) {
    let bytes = text.as_bytes();
    let cuts = memchr::memchr_iter(b'%', bytes)
        .filter(|&i| i > 0 && bytes[i - 1] == b'\n')
        .chain(std::iter::once(text.len()));
    let mut from = 0;
    for cut in cuts {
        let piece = &text[from..cut];
        let starts_segment = match out.last() {
            None => true,
            Some(last) => from > 0 || (piece.starts_with('%') && last.text.ends_with('\n')),
        };
        if starts_segment {
            out.push(Segment::new(piece.to_string()));
        } else if !piece.is_empty() {
            let last = out.last_mut().expect("a previous segment");
            let mut joined = std::mem::take(&mut last.text);
            joined.push_str(piece);
            *last = Segment::new(joined);
        }
        from = cut;
    }
}

impl State {
    /// A state holding `text`.
    pub fn new(text: &str) -> State {
        State {
            text: text.to_string(),
            len: text.len(),
            ..State::default()
        }
    }

    /// The length of the text in bytes.
    pub fn len(&self) -> usize {
        self.len
    }

    /// The text when the state is flat, else `None` (without making it flat).
    pub fn text_if_flat(&self) -> Option<&str> {
        (!self.segmented).then_some(self.text.as_str())
    }

    /// The text of a flat state (see [`State::flat`], which makes it flat); empty when
    /// the state is segmented.
    pub fn flat_text(&self) -> &str {
        debug_assert!(!self.segmented);
        &self.text
    }

    /// Makes the state flat and hands out its spare buffers, emptied (the text's and the
    /// index's), for a caller that writes the next text itself (the rope's join); they
    /// come back with [`State::install`] or [`State::give_back_spares`].
    pub fn take_spares(&mut self) -> (String, Starts) {
        self.flatten();
        let mut text = std::mem::take(&mut self.spare);
        text.clear();
        let mut starts = std::mem::take(&mut self.spare_starts);
        starts.clear();
        (text, starts)
    }

    /// Hands back the spare buffers of [`State::take_spares`], unused.
    pub fn give_back_spares(&mut self, mut text: String, mut starts: Starts) {
        text.clear();
        starts.clear();
        self.spare = text;
        self.spare_starts = starts;
    }

    /// Makes `text` the (flat) text, with `starts` as the index of its `%` bytes when
    /// `indexed`; the old text and index become the spare buffers (for a caller that took
    /// them with [`State::take_spares`]).
    pub fn install(&mut self, text: String, starts: Starts, indexed: bool) {
        self.flatten();
        self.spare = std::mem::replace(&mut self.text, text);
        self.len = self.text.len();
        let old = self.starts.take();
        if indexed {
            // Every executor test, and every fuzz build, checks the index handed over.
            #[cfg(any(test, fuzzing))]
            assert_eq!(starts, Starts::build(self.text.as_bytes()));
            self.starts = Some(starts);
            self.spare_starts = old.unwrap_or_default();
        } else {
            let mut starts = starts;
            starts.clear();
            self.spare_starts = starts;
        }
    }

    /// The index of the `%` bytes of a flat state, when held.
    pub fn flat_index(&self) -> Option<&Starts> {
        debug_assert!(!self.segmented);
        self.starts.as_ref()
    }

    /// The whole text as a new string, in either form.
    pub fn render(&self) -> String {
        if self.segmented {
            self.segments.iter().map(|s| s.text.as_str()).collect()
        } else {
            self.text.clone()
        }
    }

    fn flatten(&mut self) {
        if self.segmented {
            self.text.clear();
            self.text.reserve(self.len);
            for segment in self.segments.drain(..) {
                self.text.push_str(&segment.text);
            }
            self.segmented = false;
        }
    }

    /// The text (made flat), an empty spare buffer to write the next text into and,
    /// when the index is held, the index and what makes the spare buffer's.
    pub fn buffers(&mut self) -> (&str, &mut String, Option<Index<'_>>) {
        self.flatten();
        self.spare.clear();
        let index = self.starts.as_ref().map(|starts| Index {
            starts,
            follow: self.spare_starts.follow(starts),
        });
        (&self.text, &mut self.spare, index)
    }

    /// Makes the spare buffer the text (after a rewrite into it, which was handed the
    /// index if one was held).
    pub fn swap(&mut self) {
        std::mem::swap(&mut self.text, &mut self.spare);
        if let Some(starts) = &mut self.starts {
            std::mem::swap(starts, &mut self.spare_starts);
            // Every executor test, and every fuzz build (`--cfg fuzzing`, set by
            // cargo-fuzz), checks the kept index against a fresh scan.
            #[cfg(any(test, fuzzing))]
            assert_eq!(
                *starts,
                Starts::build(self.text.as_bytes()),
                "{:?}",
                self.text
            );
        }
        self.len = self.text.len();
    }

    /// Makes the state flat and builds the index of its `%` bytes if it is not held.
    pub fn build_index(&mut self) {
        self.flatten();
        if self.starts.is_none() {
            let mut fresh = std::mem::take(&mut self.spare_starts);
            fresh.rebuild(self.text.as_bytes());
            self.starts = Some(fresh);
        }
    }

    /// The whole text, made flat, and its index when held.
    pub fn flat(&mut self) -> (&str, Option<&Starts>) {
        self.flatten();
        (&self.text, self.starts.as_ref())
    }

    /// The segments, cutting the text first if it was flat.
    pub fn segments(&mut self) -> &[Segment] {
        if !self.segmented {
            self.starts = None;
            self.segments.clear();
            push_segments(&mut self.segments, &self.text);
            self.text.clear();
            self.segmented = true;
        }
        &self.segments
    }

    /// Replaces segments: `edits` holds `(index, new text)` in increasing index order.
    /// Segments are re-cut around the new texts as needed.
    pub fn edit_segments(&mut self, mut edits: Vec<(usize, String)>) {
        debug_assert!(self.segmented);
        // Most edits keep the cut points: the new text starts with `%` (or is the first
        // segment), has no `\n%` inside and ends with `\n` (or is the last segment).
        // Those are swapped in place.
        let last = self.segments.len() - 1;
        let in_place = edits.iter().all(|(index, text)| {
            let bytes = text.as_bytes();
            (*index == 0 || bytes.first() == Some(&b'%'))
                && (*index == last || bytes.last() == Some(&b'\n'))
                && !memchr::memchr_iter(b'%', bytes).any(|i| i > 0 && bytes[i - 1] == b'\n')
        });
        if in_place {
            for (index, text) in edits.drain(..) {
                self.len = self.len - self.segments[index].text.len() + text.len();
                self.segments[index] = Segment::new(text);
            }
            return;
        }
        let old = std::mem::take(&mut self.segments);
        let mut out = Vec::with_capacity(old.len() + edits.len());
        let mut edits = edits.into_iter().peekable();
        for (index, segment) in old.into_iter().enumerate() {
            match edits.next_if(|(i, _)| *i == index) {
                Some((_, text)) => push_segments(&mut out, &text),
                None => {
                    let continues = index > 0
                        && out
                            .last()
                            .is_some_and(|last: &Segment| !last.text.ends_with('\n'));
                    if continues {
                        push_segments(&mut out, &segment.text);
                    } else {
                        out.push(segment);
                    }
                }
            }
        }
        self.len = out.iter().map(|s| s.text.len()).sum();
        self.segments = out;
    }

    /// Applies `rule`, whose matches start with `prefix` (see `Compiled::segment_prefix`),
    /// segment by segment: a clean segment is searched only if it starts with the prefix,
    /// and only rewritten segments are replaced. Returns the match count, whether no
    /// segment was searched and whether the state changed; `None`, having changed
    /// nothing, when a search in some segment other than the last looked at the
    /// segment's end: a match there might continue into the next segment, so the caller
    /// runs the rule on the flat text instead.
    pub fn rewrite_by_segment(
        &mut self,
        rule: RuleParts<'_>,
        cache: &mut Cache,
        prefix: &[u8],
    ) -> Option<(usize, bool, bool)> {
        let segments = self.segments();
        let last = segments.len().saturating_sub(1);
        let mut edits = Vec::new();
        let mut count = 0;
        let mut searched = false;
        for (index, segment) in segments.iter().enumerate() {
            let text = segment.text.as_str();
            if segment.clean && !text.as_bytes().starts_with(prefix) {
                continue;
            }
            searched = true;
            let mut out = String::with_capacity(text.len() + 64);
            let result = rewrite::rewrite(rule, cache, text, 0, &mut out, None);
            if index != last && Compiled::touched_end(cache) {
                return None;
            }
            if let Some(done) = result {
                count += done.count;
                if done.changed {
                    edits.push((index, out));
                }
            }
        }
        let changed = !edits.is_empty();
        if changed {
            self.edit_segments(edits);
        }
        Some((count, !searched, changed))
    }

    /// Gives back the text.
    pub fn into_string(mut self) -> String {
        self.flatten();
        self.text
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cut(text: &str) -> Vec<String> {
        let mut out = Vec::new();
        push_segments(&mut out, text);
        out.into_iter().map(|s| s.text).collect()
    }

    #[test]
    fn segments_start_at_markers_after_newlines() {
        assert_eq!(cut("%%\na\n%p\nb\n"), ["%%\na\n", "%p\nb\n"]);
        assert_eq!(cut("x%%\n%a"), ["x%%\n", "%a"]);
        assert_eq!(cut(""), [""]);
        assert_eq!(cut("\n%"), ["\n", "%"]);
    }

    #[test]
    fn edits_recut_and_merge() {
        let mut state = State::new("%%\na\n%%\nb\n%%\nc\n");
        assert_eq!(state.segments().len(), 3);
        // A fork splits a segment in two; a deleted newline merges with the next one.
        state.edit_segments(vec![(0, "%%\na\n%%\na\n".into()), (1, "%%\nb".into())]);
        let texts: Vec<&str> = state.segments().iter().map(|s| s.text.as_str()).collect();
        assert_eq!(texts, ["%%\na\n", "%%\na\n", "%%\nb%%\nc\n"]);
        assert!(!state.segments()[2].clean);
        assert_eq!(state.len(), state.render().len());
        assert_eq!(state.into_string(), "%%\na\n%%\na\n%%\nb%%\nc\n");
    }
}
