//! The rope: a run of consecutive local rules applied to the state piece by piece.
//!
//! Contract: for a flat text cut at thread boundaries (each cut just before a `%` that
//! follows a `\n`, see [`super::parallel::cuts`]) and a run of rules whose patterns are
//! all local (`local.rs`), [`PieceRun`]s made by [`Run::piece`] for every piece give, when
//! [`cuts_hold`] says so, exactly what applying the rules one after the other to the whole
//! text gives: for each rule the match count and whether the state changed (the sums over
//! the pieces), the state after it ([`Rope::state_after`]) and the final state
//! ([`Rope::join_into`]). When the cuts do not hold, nothing is known and the caller
//! applies the rules to the whole text instead.
//!
//! Why: `parallel.rs` proves that one local rule applied to the pieces of a text cut at
//! thread boundaries gives the rule's result on the whole text. A run applies rule after
//! rule to each piece in turn, so each piece stays in cache for the whole run and a piece
//! no rule of the run matches is never copied. That is the result of the rules one after
//! the other as long as, before every rule of the run, every cut is still at a thread
//! boundary in the text the rules made so far: the nearest non-empty pieces on either
//! side of it end with `\n` and start with `%`. Each piece records its first and last
//! byte after every rule, and [`cuts_hold`] checks exactly that, after the fact.
//!
//! Identical rules: a rule with the same pattern and replacement as the rule before it,
//! in a piece that rule left unchanged, finds the same matches and changes nothing; it is
//! not searched there. A rule none of whose pieces was searched is reported skipped.
//!
//! The index of `%` bytes (`starts.rs`): on large states each piece keeps its own, cut
//! from the state's when it holds one (else made by a scan of the piece), so that rules
//! whose matches start with a `%`-literal walk it as they do on the flat state; the run
//! hands the state the pieces' indexes joined ([`Rope::joined_index_into`]), so that no
//! later rule scans for it again.
//!
//! Buffers and the join: a piece's texts live in buffers kept between runs (in the
//! scratch space, [`recycle`]), so a piece costs no allocation once runs have grown
//! them. On one core each piece goes through the whole run and is then written straight
//! into the state's spare buffer ([`Join`]), so its buffers serve the next piece: the
//! run's working set is the state, its spare and one piece's two buffers, as for a flat
//! rule. Pieces no rule changed are copied from the state in stretches, and nothing is
//! copied when no piece changed. Several cores run all pieces first and join after
//! ([`Rope::join_into`]).
//!
//! Trade-offs: the pieces are slices of the flat text until a rule changes them; the run
//! copies the unchanged pieces once (when some piece changed) besides writing the
//! changed ones, so runs of one rule are not worth it on one core. A rule that is not
//! local ends the run, even when it is then skipped (a literal it needs is absent): the
//! next run cuts the joined state again, which costs a search for each cut, not a copy.
//! The state after a rule inside the run is known only at the end: it is rebuilt from
//! each piece's history when the observer reads states (recorded only then), else by
//! replaying the run's first rules on the pieces.
//!
//! Layer 6: uses `rules`, `slot`, `caches`, `rewrite` and `starts`.

use std::ops::Range;

use super::caches::Caches;
use super::rewrite;
use super::rules::Rules;
use super::slot::LiteralId;
use super::starts::Starts;

/// One thread's scratch space, kept between runs in the executor's pool: its lazy-DFA
/// caches, and the buffers of the pieces it took through rope runs (the rope's own,
/// which is why the type lives here).
#[derive(Debug, Default)]
pub struct Scratch {
    /// A cache per pattern slot.
    pub caches: Caches,
    /// The pieces of earlier rope runs, whose buffers later runs reuse (see [`recycle`]).
    piece_runs: Vec<PieceRun>,
    /// Text buffers of earlier rope runs' pieces, for the next pieces (see
    /// [`release_buffers`]).
    piece_buffers: Vec<String>,
    /// The spare index of `%` bytes of a piece (see [`Run::piece`]), reused between
    /// pieces.
    piece_starts: Starts,
}

/// What one rule of a run did in one piece.
#[derive(Clone, Copy, Debug, Default)]
pub struct Step {
    /// Matches replaced.
    pub count: usize,
    /// Whether the piece was searched (not: a needed literal was absent, or an identical
    /// rule just left the piece unchanged).
    pub searched: bool,
    /// Whether the piece's text changed.
    pub changed: bool,
    /// The piece's length after the rule.
    pub len: usize,
    /// The piece's first and last bytes after the rule (`None` when empty).
    pub edges: Option<(u8, u8)>,
}

/// One piece taken through a run of rules. Its buffers are kept between runs
/// ([`recycle`]), so that a piece a rule changes is rewritten into buffers earlier runs
/// grew, not into new ones.
#[derive(Debug, Default)]
pub struct PieceRun {
    /// One step per rule of the run.
    pub steps: Vec<Step>,
    /// The final text when `changed`, else an empty buffer kept for the next run.
    text: String,
    /// Whether some rule changed the piece.
    changed: bool,
    /// The buffer the next rewrite of the piece writes into.
    spare: String,
    /// When recorded: `(k, text)` for every rule `k` of the run (counted from 0) that
    /// changed the piece, with its text after that rule.
    pub history: Vec<(usize, String)>,
    /// The index of the final text's `%` bytes when `indexed`, else an empty buffer.
    starts: Starts,
    /// Whether the piece kept an index.
    indexed: bool,
    /// The literals found absent from the piece since it last changed.
    missing: Vec<LiteralId>,
}

impl PieceRun {
    /// The final text, when some rule changed it.
    pub fn text(&self) -> Option<&str> {
        self.changed.then_some(self.text.as_str())
    }

    /// The index of the final text's `%` bytes, when the piece kept one.
    pub fn starts(&self) -> Option<&Starts> {
        self.indexed.then_some(&self.starts)
    }

    /// Whether the piece kept an index of its `%` bytes.
    pub fn indexed(&self) -> bool {
        self.indexed
    }
}

/// How many piece runs (their steps) and text buffers a scratch space keeps for later
/// runs (see [`recycle`]), and the largest buffer it keeps: one core needs two buffers
/// at a time (see [`Join`]); several cores hand their pieces' buffers to the caller,
/// whose pool would otherwise hold as much as the state between runs.
const KEPT_RUNS: usize = 64;
const KEPT_BUFFERS: usize = 16;
const KEPT_BUFFER_MAX: usize = 1 << 20;

/// Keeps the buffers of `run`'s texts in `scratch` for the next pieces; `run` keeps its
/// steps and history, not its text (see [`Join`]).
pub fn release_buffers(run: &mut PieceRun, scratch: &mut Scratch) {
    for buffer in [&mut run.text, &mut run.spare] {
        let mut buffer = std::mem::take(buffer);
        if scratch.piece_buffers.len() < KEPT_BUFFERS
            && buffer.capacity() > 0
            && buffer.capacity() <= KEPT_BUFFER_MAX
        {
            buffer.clear();
            scratch.piece_buffers.push(buffer);
        }
    }
}

/// Keeps `runs`' buffers in `scratch` for the pieces of later runs.
pub fn recycle(runs: impl IntoIterator<Item = PieceRun>, scratch: &mut Scratch) {
    for mut run in runs {
        release_buffers(&mut run, scratch);
        if scratch.piece_runs.len() < KEPT_RUNS {
            run.history = Vec::new();
            scratch.piece_runs.push(run);
        }
    }
}

/// The join of a rope run on one core, written as the pieces are done ([`Join::piece`]
/// after each piece, [`Join::finish`] after the last): each piece a rule changed is
/// written out before the next piece is run, so its buffers serve the next piece; the
/// unchanged pieces before it are copied from the state in one stretch, and not at all
/// when no piece changed. With `indexed`, the index of the output's `%` bytes too.
pub struct Join<'a> {
    /// The state before the run.
    text: &'a str,
    /// Its index of `%` bytes, when held.
    whole: Option<&'a Starts>,
    /// Whether to write the output's index.
    indexed: bool,
    /// Where the stretch of unchanged pieces not written yet starts in `text`.
    pending: usize,
    /// Whether some piece changed.
    changed: bool,
}

impl<'a> Join<'a> {
    /// A join of a run on `text` (indexed by `whole` when held), writing the output's
    /// index when `indexed`.
    pub fn new(text: &'a str, whole: Option<&'a Starts>, indexed: bool) -> Join<'a> {
        Join {
            text,
            whole,
            indexed,
            pending: 0,
            changed: false,
        }
    }

    /// Writes the stretch of unchanged pieces up to `to` (in the state) into `out` and
    /// its index into `starts`.
    fn flush(&mut self, to: usize, out: &mut String, starts: &mut Starts) {
        let at = out.len();
        out.push_str(&self.text[self.pending..to]);
        if self.indexed {
            match self.whole {
                Some(whole) => starts.extend_slice(whole, self.pending..to, at),
                None => starts.extend_scan(&self.text.as_bytes()[self.pending..to], at),
            }
        }
        self.pending = to;
    }

    /// Piece `i` (of the state cut at `bounds`) went through the run as `run`: when a
    /// rule changed it, writes it (and the unchanged pieces before it) into `out`
    /// (empty before the first piece) and its index into `starts`.
    pub fn piece(
        &mut self,
        bounds: &[usize],
        i: usize,
        run: &PieceRun,
        out: &mut String,
        starts: &mut Starts,
    ) {
        let Some(new) = run.text() else {
            return;
        };
        if !self.changed {
            self.changed = true;
            out.reserve(self.text.len() + self.text.len() / 8 + 64);
        }
        self.flush(bounds[i], out, starts);
        let at = out.len();
        out.push_str(new);
        if self.indexed {
            match run.starts() {
                Some(own) => starts.extend_shifted(own, at),
                None => starts.extend_scan(new.as_bytes(), at),
            }
        }
        self.pending = bounds[i + 1];
    }

    /// After the last piece: writes the unchanged pieces after the last changed one.
    /// Returns whether `starts` is the index of `out` (else it is to be dropped); `out`
    /// stays empty when no piece changed.
    pub fn finish(mut self, out: &mut String, starts: &mut Starts) -> bool {
        if !self.changed {
            return false;
        }
        self.flush(self.text.len(), out, starts);
        self.indexed
    }
}

/// The first and last bytes of `text`.
fn edges(text: &str) -> Option<(u8, u8)> {
    Some((*text.as_bytes().first()?, *text.as_bytes().last()?))
}

/// One piece of the state before a run.
#[derive(Clone, Copy, Debug)]
pub struct Piece<'a> {
    /// Its text.
    pub text: &'a str,
    /// The index of the whole state's `%` bytes when the state holds one, and where the
    /// piece starts in the state.
    pub whole_index: Option<(&'a Starts, usize)>,
}

impl<'a> Piece<'a> {
    /// The part `range` of this piece.
    pub fn cut(self, range: Range<usize>) -> Piece<'a> {
        Piece {
            text: &self.text[range.clone()],
            whole_index: self
                .whole_index
                .map(|(whole, at)| (whole, at + range.start)),
        }
    }
}

/// How pieces are taken through a run.
#[derive(Clone, Copy, Debug, Default)]
pub struct Mode {
    /// Record each piece's history (see [`PieceRun::history`]).
    pub history: bool,
    /// Keep an index of each piece's `%` bytes (see [`Run::piece`]).
    pub indexed: bool,
}

/// What was known of a rule of a run before the run.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Known {
    /// Nothing.
    #[default]
    Nothing,
    /// A literal the rule needs was absent from the whole text before the run: the
    /// rule is not searched in a piece until some rule changes the piece.
    Absent,
}

/// A run of rules taken through pieces: what each piece's run reads.
#[derive(Clone, Debug)]
pub struct Run<'a> {
    /// The program's rules.
    pub rules: &'a Rules,
    /// The rules of the run (all local).
    pub range: Range<usize>,
    /// What was known of each rule of the run before the run: `known[k]` of rule
    /// `range.start + k`.
    pub known: &'a [Known],
    /// How the pieces are taken through it.
    pub mode: Mode,
}

impl Run<'_> {
    /// Takes `piece` through the run, recording the history when the mode says so. When
    /// the mode says so, the piece keeps an index of its `%` bytes (`starts.rs`) from the
    /// first rule whose matches start with a `%`-literal on, as the whole state does on
    /// large states: cut from the whole state's index while the piece is unchanged and
    /// the state holds one, else made by a scan.
    pub fn piece(&self, scratch: &mut Scratch, piece: Piece<'_>) -> PieceRun {
        let mut out = start(scratch, self.range.len());
        self.advance(&mut out, scratch, piece);
        out
    }

    /// Takes the piece run `out` (of `piece`, before the run's first rule) through the
    /// run's rules (as [`Run::piece`]).
    fn advance(&self, out: &mut PieceRun, scratch: &mut Scratch, piece: Piece<'_>) {
        let first = self.range.start;
        // The index a rewrite of an indexed piece fills.
        let mut spare_starts = std::mem::take(&mut scratch.piece_starts);
        for index in self.range.clone() {
            let text = if out.changed {
                out.text.as_str()
            } else {
                piece.text
            };
            let rule = self.rules.parts(index);
            let literal_ids = self.rules.literal_ids(index);
            let before = self.known.get(index - first).copied().unwrap_or_default();
            if let Some(&previous) = out.steps.last()
                && !previous.changed
                && self.rules.same_as_previous(index)
            {
                out.steps.push(Step {
                    searched: false,
                    ..previous
                });
                continue;
            }
            if (!out.changed && before == Known::Absent)
                || literal_ids.iter().any(|l| out.missing.contains(l))
            {
                out.steps.push(Step {
                    len: text.len(),
                    edges: edges(text),
                    ..Step::default()
                });
                continue;
            }
            if self.mode.indexed && !out.indexed && rule.pattern.percent_prefixed() {
                out.starts.clear();
                match piece.whole_index {
                    Some((whole, at)) if !out.changed => {
                        out.starts.extend_slice(whole, at..at + text.len(), 0)
                    }
                    _ => out.starts.extend_scan(text.as_bytes(), 0),
                }
                out.indexed = true;
            }
            let cache = scratch.caches.cache(rule.slot);
            let mut step = Step {
                len: text.len(),
                edges: edges(text),
                ..Step::default()
            };
            let index_now = out.indexed.then_some(&out.starts);
            match rule.pattern.first_possible(text, index_now) {
                Err(literal) => {
                    let needed = rule.pattern.needed_literals().zip(literal_ids);
                    if let Some((_, &id)) = needed.into_iter().find(|(n, _)| Some(*n) == literal) {
                        out.missing.push(id);
                    }
                }
                Ok(from) => {
                    step.searched = true;
                    out.spare.clear();
                    let follow = index_now.map(|starts| rewrite::Index {
                        starts,
                        follow: spare_starts.follow(starts),
                    });
                    let done = rewrite::rewrite(rule, cache, text, from, &mut out.spare, follow);
                    if let Some(done) = done {
                        step.count = done.count;
                        if done.changed {
                            step.changed = true;
                            step.len = out.spare.len();
                            step.edges = edges(&out.spare);
                            if out.indexed {
                                std::mem::swap(&mut out.starts, &mut spare_starts);
                                // Every executor test, and every fuzz build, checks the
                                // kept index against a fresh scan (as `state.rs` does).
                                #[cfg(any(test, fuzzing))]
                                assert_eq!(out.starts, Starts::build(out.spare.as_bytes()));
                            }
                            std::mem::swap(&mut out.text, &mut out.spare);
                            out.changed = true;
                            out.missing.clear();
                            if self.mode.history {
                                out.history.push((index - first, out.text.clone()));
                            }
                        }
                    }
                }
            }
            out.steps.push(step);
        }
        scratch.piece_starts = spare_starts;
    }
}

/// A piece run before its first rule, with buffers kept from earlier runs when
/// `scratch` holds some; `rules` is the number of rules it is expected to meet.
fn start(scratch: &mut Scratch, rules: usize) -> PieceRun {
    let mut out = scratch.piece_runs.pop().unwrap_or_default();
    out.steps.clear();
    out.steps.reserve(rules);
    out.history.clear();
    out.missing.clear();
    if out.text.capacity() == 0 {
        out.text = scratch.piece_buffers.pop().unwrap_or_default();
    }
    if out.spare.capacity() == 0 {
        out.spare = scratch.piece_buffers.pop().unwrap_or_default();
    }
    out.text.clear();
    out.changed = false;
    out.indexed = false;
    out
}

/// Whether, before every rule of the run but the first, each cut between the pieces is
/// still at a thread boundary: the nearest non-empty pieces around it end with `\n` and
/// start with `%` (the pieces were cut at boundaries, which holds before the first).
pub fn cuts_hold(runs: &[PieceRun], rules: usize) -> bool {
    (0..rules.saturating_sub(1)).all(|k| {
        let mut before: Option<u8> = None;
        runs.iter().all(|run| match run.steps[k].edges {
            None => true,
            Some((first, last)) => {
                let fine = before.is_none_or(|b| b == b'\n' && first == b'%');
                before = Some(last);
                fine
            }
        })
    })
}

/// A run of rules taken through every piece of a text.
pub struct Rope<'a> {
    /// The text before the run.
    pub text: &'a str,
    /// The piece bounds: piece `i` is `text[bounds[i]..bounds[i + 1]]`.
    pub bounds: Vec<usize>,
    /// The rules of the run.
    pub rules: Range<usize>,
    /// What was known of each rule of the run before the run reached it.
    pub known: Vec<Known>,
    /// One per piece, in order.
    pub runs: Vec<PieceRun>,
}

impl Rope<'_> {
    /// Piece `i` before the run.
    fn piece(&self, i: usize) -> &str {
        &self.text[self.bounds[i]..self.bounds[i + 1]]
    }

    /// The totals of rule `k` of the run (from 0): matches, whether no piece was
    /// searched, whether some piece changed, and the state's length after it.
    pub fn totals(&self, k: usize) -> (usize, bool, bool, usize) {
        let mut totals = (0, true, false, 0);
        for run in &self.runs {
            let step = &run.steps[k];
            totals.0 += step.count;
            totals.1 &= !step.searched;
            totals.2 |= step.changed;
            totals.3 += step.len;
        }
        totals
    }

    /// Whether some rule changed some piece.
    pub fn changed(&self) -> bool {
        self.runs.iter().any(|run| run.changed)
    }

    /// Writes the state after the run into `out` (empty).
    pub fn join_into(&self, out: &mut String) {
        out.reserve(
            self.runs
                .iter()
                .map(|r| r.steps.last().map_or(0, |s| s.len))
                .sum(),
        );
        for (i, run) in self.runs.iter().enumerate() {
            out.push_str(run.text().unwrap_or_else(|| self.piece(i)));
        }
    }

    /// Writes the index of the `%` bytes of the state after the run into `out` (empty):
    /// from the pieces' indexes where they kept one, else from `whole` (the index of the
    /// state before the run, when held) for pieces no rule changed, else by a scan.
    pub fn joined_index_into(&self, whole: Option<&Starts>, out: &mut Starts) {
        let mut at = 0;
        for (i, run) in self.runs.iter().enumerate() {
            let text = run.text().unwrap_or_else(|| self.piece(i));
            match (run.starts(), whole) {
                (Some(starts), _) => out.extend_shifted(starts, at),
                (None, Some(whole)) if !run.changed => {
                    out.extend_slice(whole, self.bounds[i]..self.bounds[i + 1], at);
                }
                _ => out.extend_scan(text.as_bytes(), at),
            }
            at += text.len();
        }
    }

    /// The state after rule `k` of the run (from 0): from the pieces' histories when they
    /// were recorded, else by taking the pieces through the run's first `k + 1` rules
    /// again.
    pub fn state_after(
        &self,
        rules: &Rules,
        scratch: &mut Scratch,
        k: usize,
        recorded: bool,
    ) -> String {
        let mut out = String::new();
        for (i, run) in self.runs.iter().enumerate() {
            if !run.steps.iter().take(k + 1).any(|s| s.changed) {
                out.push_str(self.piece(i));
            } else if recorded {
                let (_, text) = run
                    .history
                    .iter()
                    .rev()
                    .find(|(at, _)| *at <= k)
                    .expect("a recorded change at or before the rule");
                out.push_str(text);
            } else {
                let again = Run {
                    rules,
                    range: self.rules.start..self.rules.start + k + 1,
                    known: &self.known[..=k],
                    mode: Mode::default(),
                };
                let piece = Piece {
                    text: self.piece(i),
                    whole_index: None,
                };
                let again = again.piece(scratch, piece);
                out.push_str(again.text().unwrap_or_else(|| self.piece(i)));
                recycle([again], scratch);
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A piece whose text before every rule has these edges (`None`: empty).
    fn piece(edges: &[Option<(u8, u8)>]) -> PieceRun {
        PieceRun {
            steps: edges
                .iter()
                .map(|&edges| Step {
                    edges,
                    ..Step::default()
                })
                .collect(),
            ..PieceRun::default()
        }
    }

    #[test]
    fn cuts_hold_while_newline_then_percent_surround_them() {
        let thread = Some((b'%', b'\n'));
        let open = Some((b'%', b'x'));
        let plain = Some((b'a', b'\n'));
        // Empty pieces are skipped over; the edges after the last rule do not matter.
        let fine = [
            piece(&[thread, thread, open]),
            piece(&[None, thread, None]),
            piece(&[thread, None, thread]),
        ];
        assert!(cuts_hold(&fine, 3));
        // The first piece may start with anything.
        assert!(cuts_hold(
            &[piece(&[plain, plain]), piece(&[thread, thread])],
            2
        ));
        // A piece that stops ending with a newline before a later rule breaks the cut
        // after it; so does one that stops starting with `%`, even across empty pieces.
        let no_newline = [
            piece(&[thread, open, thread]),
            piece(&[thread, thread, thread]),
        ];
        assert!(!cuts_hold(&no_newline, 3));
        assert!(cuts_hold(&no_newline[..], 2));
        let no_percent = [
            piece(&[thread, thread]),
            piece(&[None, None]),
            piece(&[thread, plain]),
            piece(&[thread, thread]),
        ];
        assert!(cuts_hold(&no_percent, 2));
        let no_percent = [
            piece(&[thread, thread]),
            piece(&[None, None]),
            piece(&[plain, thread]),
        ];
        assert!(!cuts_hold(&no_percent, 2));
    }
}
