//! The rope: a run of consecutive local rules applied to the state piece by piece.
//!
//! Contract: for a flat text cut at thread boundaries (each cut just before a `%` that
//! follows a `\n`, see [`super::parallel::cuts`]) and a run of rules whose patterns are
//! all local (`local.rs`), [`PieceRun`]s made by [`run_piece`] for every piece give, when
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
//! hands the state the pieces' indexes joined ([`Rope::joined_index`]), so that no later
//! rule scans for it again.
//!
//! Trade-offs: the pieces are slices of the flat text until a rule changes them; the run
//! costs one copy of the whole state at the end ([`Rope::join_into`]) besides the copies of
//! changed pieces, so runs of one rule are not worth it on one core. The state after a
//! rule inside the run is known only at the end: it is rebuilt from each piece's history
//! when the observer reads states (recorded only then), else by replaying the run's first
//! rules on the pieces.

use std::ops::Range;

use super::rewrite;
use super::starts::Starts;
use super::{Fast, LiteralId, Scratch};

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

/// One piece taken through a run of rules.
#[derive(Debug, Default)]
pub struct PieceRun {
    /// One step per rule of the run.
    pub steps: Vec<Step>,
    /// The final text, when some rule changed it.
    pub text: Option<String>,
    /// When recorded: `(k, text)` for every rule `k` of the run (counted from 0) that
    /// changed the piece, with its text after that rule.
    pub history: Vec<(usize, String)>,
    /// The index of the final text's `%` bytes, when the piece kept one.
    pub starts: Option<Starts>,
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
    /// Keep an index of each piece's `%` bytes (see [`run_piece`]).
    pub indexed: bool,
}

/// Takes `piece` through the rules `rules` (all local), recording the history when
/// `mode` says so. `absent[k]` says that a literal rule `rules.start + k` needs was
/// absent from the whole text before the run: the rule is not searched in the piece
/// until some rule changes it. When `mode` says so, the piece keeps an index of its `%`
/// bytes (`starts.rs`) from the first rule whose matches start with a `%`-literal on,
/// as the whole state does on large states: cut from the whole state's index while the
/// piece is unchanged and the state holds one, else made by a scan.
pub fn run_piece(
    fast: &Fast,
    rules: Range<usize>,
    absent: &[bool],
    scratch: &mut Scratch,
    piece: Piece<'_>,
    mode: Mode,
) -> PieceRun {
    let mut out = PieceRun {
        steps: Vec::with_capacity(rules.len()),
        ..PieceRun::default()
    };
    let mut spare = String::new();
    // The index a rewrite fills when the piece holds one (`out.starts`).
    let mut spare_starts = std::mem::take(&mut scratch.piece_starts);
    let mut last: Option<Step> = None;
    // The literals found absent from the piece since it last changed.
    let mut missing: Vec<LiteralId> = Vec::new();
    for index in rules.clone() {
        let text = out.text.as_deref().unwrap_or(piece.text);
        let id = fast.rule_pattern[index];
        let (compiled, literal_ids) = fast.patterns[id].get_with_ids(&fast.literals);
        let unchanged = out.text.is_none();
        if let Some(previous) = last
            && !previous.changed
            && fast.same_as_previous[index]
        {
            let step = Step {
                searched: false,
                ..previous
            };
            out.steps.push(step);
            last = Some(step);
            continue;
        }
        if (unchanged && absent.get(index - rules.start) == Some(&true))
            || literal_ids.iter().any(|l| missing.contains(l))
        {
            let step = Step {
                len: text.len(),
                edges: edges(text),
                ..Step::default()
            };
            out.steps.push(step);
            last = Some(step);
            continue;
        }
        if mode.indexed && out.starts.is_none() && compiled.percent_prefixed() {
            let mut starts = Starts::default();
            match piece.whole_index {
                Some((whole, at)) if unchanged => {
                    starts.extend_slice(whole, at..at + text.len(), 0)
                }
                _ => starts.extend_scan(text.as_bytes(), 0),
            }
            out.starts = Some(starts);
        }
        let template = fast.program.template(index);
        let need = *fast.needs[index].get_or_init(|| rewrite::group_need(template, compiled));
        if scratch.caches.len() <= id {
            scratch.caches.resize_with(id + 1, || None);
        }
        let cache = scratch.caches[id].get_or_insert_with(Box::default);
        let mut step = Step {
            len: text.len(),
            edges: edges(text),
            ..Step::default()
        };
        match compiled.first_possible(text, out.starts.as_ref()) {
            Err(literal) => {
                let needed = compiled.needed_literals().zip(literal_ids);
                if let Some((_, &id)) = needed.into_iter().find(|(n, _)| Some(*n) == literal) {
                    missing.push(id);
                }
            }
            Ok(from) => {
                step.searched = true;
                spare.clear();
                let follow = out.starts.as_ref().map(|starts| rewrite::Index {
                    starts,
                    follow: spare_starts.follow(starts),
                });
                let done = rewrite::rewrite(
                    compiled, cache, template, need, text, from, &mut spare, follow,
                );
                if let Some(done) = done {
                    step.count = done.count;
                    if done.changed {
                        step.changed = true;
                        step.len = spare.len();
                        step.edges = edges(&spare);
                        if let Some(starts) = &mut out.starts {
                            std::mem::swap(starts, &mut spare_starts);
                            // Every executor test, and every fuzz build, checks the
                            // kept index against a fresh scan (as `state.rs` does).
                            #[cfg(any(test, fuzzing))]
                            assert_eq!(*starts, Starts::build(spare.as_bytes()));
                        }
                        let old = out.text.replace(std::mem::take(&mut spare));
                        spare = old.unwrap_or_default();
                        missing.clear();
                        if mode.history {
                            let now = out.text.clone().unwrap_or_default();
                            out.history.push((index - rules.start, now));
                        }
                    }
                }
            }
        }
        out.steps.push(step);
        last = Some(step);
    }
    scratch.piece_starts = spare_starts;
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
    /// For each rule of the run, whether a literal it needs was absent before the run.
    pub absent: Vec<bool>,
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
        self.runs.iter().any(|run| run.text.is_some())
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
            out.push_str(run.text.as_deref().unwrap_or_else(|| self.piece(i)));
        }
    }

    /// The index of the `%` bytes of the state after the run, from the pieces' indexes
    /// where they kept one, else from `whole` (the index of the state before the run, when
    /// held) for pieces no rule changed, else by a scan.
    pub fn joined_index(&self, whole: Option<&Starts>) -> Starts {
        let mut out = Starts::default();
        let mut at = 0;
        for (i, run) in self.runs.iter().enumerate() {
            let text = run.text.as_deref().unwrap_or_else(|| self.piece(i));
            match (&run.starts, whole) {
                (Some(starts), _) => out.extend_shifted(starts, at),
                (None, Some(whole)) if run.text.is_none() => {
                    out.extend_slice(whole, self.bounds[i]..self.bounds[i + 1], at);
                }
                _ => out.extend_scan(text.as_bytes(), at),
            }
            at += text.len();
        }
        out
    }

    /// The state after rule `k` of the run (from 0): from the pieces' histories when they
    /// were recorded, else by taking the pieces through the run's first `k + 1` rules
    /// again.
    pub fn state_after(
        &self,
        fast: &Fast,
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
                let rules = self.rules.start..self.rules.start + k + 1;
                let absent = &self.absent[..=k];
                let piece = Piece {
                    text: self.piece(i),
                    whole_index: None,
                };
                let again = run_piece(fast, rules, absent, scratch, piece, Mode::default());
                out.push_str(again.text.as_deref().unwrap_or_else(|| self.piece(i)));
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
