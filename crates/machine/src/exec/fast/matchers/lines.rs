//! Patterns that look for one line of a thread: `L (?:C*\n)* M R T`.
//!
//! The machine's thread-local rules start with a literal `L` (`%%\n#stack:\n`), skip
//! whole lines with a greedy lines loop (`(?:[^%\n]*\n)*`), then name a line by its
//! literal head `M` (`#b: `) and test the rest `R` of that line (classes, counted
//! repeats, alternations of board shapes; `R` may go on over more lines), often ending in
//! a tail `T` (`[^%]*`) that runs to the next `%`. Capture groups anywhere are looked
//! through: this module finds match spans only; groups are resolved on the span.
//!
//! Contract: [`Lines::find_at`] returns exactly the match, anchored at `start`, that
//! `regex` gives for the whole pattern (leftmost-first), or says it cannot decide.
//!
//! Why it is exact: the loop can end at `start + |L|` or just after any `\n` before the
//! first byte `C` excludes (its stop, usually `%`); one path per end. Leftmost-first
//! prefers more iterations, so among the line starts `q` that begin with `M`, the
//! farthest one at which `M R T` matches (anchored) wins, and there `M R T`'s own
//! preferred path decides the end. `M R` runs on an anchored lazy DFA from `q` only; a
//! greedy tail `C*` that every `M R` path can be followed by ends at its first stop
//! byte after `M R`'s end (memchr). So a thread costs a memchr to its end, a memmem
//! for `M` and a DFA pass over the candidate lines, rather than a DFA pass over it all.
//!
//! Trade-offs: one more NFA and lazy DFA per such pattern (sized like the pattern's own
//! anchored DFA, for a shorter pattern). A thread with many lines starting with `M` costs
//! a DFA search per line, farthest first; the caller's failed-work guard still applies.
//! [`Lines::search_ahead`] answers a batch of starts with their farthest lines' DFA walks
//! interleaved (see [`crate::exec::fast::lockstep`]); it decides only where that line settles the
//! start (it matches, or it is the only candidate line), and leaves the rest to
//! [`Lines::find_at`].
//!
//! Layer 2 (a matcher): uses `linear`, `lockstep`, `literal`, `nfa_form` and `syntax`.

use std::sync::OnceLock;

use memchr::memmem;
use regex_automata::hybrid::dfa as hybrid;
use regex_automata::nfa::thompson::{self, WhichCaptures};
use regex_automata::{Anchored, Input};
use regex_syntax::hir::{Class, Hir, HirKind};

use crate::codec::{Reader, put, put_bytes};
use crate::exec::fast::linear::{lines_loop, memchr_any, tail_run};
use crate::exec::fast::lockstep::{self, Answer, Outcome, Stats};
use crate::exec::fast::nfa_form;
use crate::exec::fast::syntax::{self, AsciiDfa, DecodeError, Direction};

/// A pattern of the shape `L (?:C*\n)* M R T`, ready to search.
#[derive(Debug)]
pub struct Lines {
    lead: Box<[u8]>,
    /// `(?:C*\n)* M R` parts in order. When `R` holds lines loops of its own, it is cut
    /// at them as long as each part before the cut matches exactly one line.
    segments: Vec<Segment>,
    /// The stop bytes of the tail `T`, when the pattern ends with one.
    tail: Option<Vec<u8>>,
}

/// A lines loop and the line part `M R` after it.
#[derive(Debug)]
struct Segment {
    /// The bytes the loop's class `C` excludes besides `\n`.
    loop_stops: Vec<u8>,
    /// `M` (possibly empty: every line start is a candidate).
    mark: memmem::Finder<'static>,
    /// Anchored DFAs for `M R`, or `None` when `R` is empty (then `M` is the whole of it).
    rest: Option<RestDfa>,
}

/// The anchored lazy DFAs of a segment's `M R`, built on first use from the stored form
/// of their NFA ([`nfa_form`]): a pattern compiled but never searched (the helper thread
/// compiles patterns ahead of the run, some of whose rules are then skipped) never pays
/// for them.
#[derive(Debug)]
struct RestDfa {
    nfa: Box<[u8]>,
    dfa: OnceLock<Option<AsciiDfa>>,
}

impl RestDfa {
    /// The exact form when `ascii`, else the quitting form (see [`AsciiDfa::get`]);
    /// `None` when the NFA does not read back or a DFA does not build (the search then
    /// gives up and the caller asks another engine).
    fn get(&self, ascii: bool) -> Option<&hybrid::DFA> {
        self.dfa.get_or_init(|| self.build()).as_ref()?.get(ascii)
    }

    /// The DFAs, built from the stored NFA.
    fn build(&self) -> Option<AsciiDfa> {
        let nfa = nfa_form::decode(&self.nfa).ok()?;
        let config = hybrid::Config::new()
            .unicode_word_boundary(true)
            .cache_capacity(LINES_CACHE);
        Some(AsciiDfa::new(nfa, config, Direction::Forward))
    }

    /// Builds what [`RestDfa::get`] returns for `ascii` when it is not built yet,
    /// without holding a lock while it builds (see [`syntax::set_built`]).
    fn build_ahead(&self, ascii: bool) {
        if let Some(dfa) = syntax::set_built(&self.dfa, || self.build()) {
            dfa.build_ahead(ascii);
        }
    }
}

/// Scratch for [`Lines::find_at`]: the lazy DFA caches and the candidate lines, per
/// segment.
#[derive(Debug)]
pub struct LinesCache {
    /// Whether the caches below belong to the exact forms of the parts' DFAs (the
    /// texts are all ASCII, see [`AsciiDfa`]), else to their quitting forms.
    ascii: bool,
    dfa: Vec<Option<hybrid::Cache>>,
    ends: Vec<Vec<usize>>,
    /// Scratch of [`Lines::search_ahead`].
    ahead_lines: Vec<(usize, usize, Effort, bool)>,
    ahead_starts: Vec<usize>,
    ahead_answers: Vec<Answer>,
}

impl LinesCache {
    /// The bytes held by the parts' lazy DFA caches.
    pub fn memory_usage(&self) -> usize {
        self.dfa
            .iter()
            .flatten()
            .map(hybrid::Cache::memory_usage)
            .sum()
    }
}

/// What one anchored search found.
#[derive(Debug, PartialEq, Eq)]
pub enum Found {
    /// The match ends here.
    End(usize),
    /// No match starts at `start`.
    None,
    /// The DFA gave up (a Unicode word boundary on non-ASCII text): use another engine.
    GaveUp,
}

/// What a search looked at, for the caller's guards.
#[derive(Clone, Copy, Debug, Default)]
pub struct Effort {
    /// Bytes scanned, roughly weighted by cost.
    pub scanned: usize,
    /// Whether the search looked at or past the end of the text.
    pub touched_end: bool,
}

/// The plain data of a [`Lines`] form: what [`LinesPlan::new`] reads off the parse, without
/// the lazy DFAs (each segment keeps the stored form of its `M R` part's NFA instead,
/// [`nfa_form`], which costs less to read back than the part's parse costs to read back
/// and compile).
/// The program cache keeps it (see `remembered.rs`), so that a fresh process builds the
/// form without the pattern's parse.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LinesPlan {
    lead: Box<[u8]>,
    segments: Vec<SegmentPlan>,
    tail: Option<Vec<u8>>,
}

/// The plain data of a [`Segment`].
#[derive(Clone, Debug, PartialEq, Eq)]
struct SegmentPlan {
    loop_stops: Vec<u8>,
    mark: Box<[u8]>,
    /// The stored form ([`nfa_form`]) of the NFA of `M R` (its parse cut down to ASCII,
    /// [`syntax::ascii_hir`]), or `None` when `R` is empty.
    rest: Option<Box<[u8]>>,
}

impl LinesPlan {
    /// The plan of `hir` when it has the shape (see the module docs) and its parts'
    /// NFAs build.
    pub fn new(hir: &Hir) -> Option<LinesPlan> {
        let mut items = Vec::new();
        flatten(hir, &mut items);
        let mut lead = Vec::new();
        let mut i = 0;
        while let Some(HirKind::Literal(lit)) = items.get(i).map(Hir::kind) {
            lead.extend_from_slice(&lit.0);
            i += 1;
        }
        if lead.is_empty() {
            return None;
        }
        let tail = match items.last().map(Hir::kind) {
            Some(HirKind::Repetition(rep)) if items.len() > i + 1 => tail_run(rep),
            _ => None,
        };
        if tail.is_some() {
            items.pop();
        }
        let mut segments = Vec::new();
        while i < items.len() {
            let loop_stops = match items[i].kind() {
                HirKind::Repetition(rep) => lines_loop(rep)?,
                _ => return None,
            };
            i += 1;
            // The part up to the next lines loop, if it matches exactly one line;
            // otherwise everything that is left.
            let next = (i..items.len()).find(|&j| match items[j].kind() {
                HirKind::Repetition(rep) => lines_loop(rep).is_some(),
                _ => false,
            });
            let end = match next {
                Some(j) if one_line(&items[i..j]) => j,
                _ => items.len(),
            };
            segments.push(SegmentPlan::new(loop_stops, &items[i..end])?);
            i = end;
        }
        if segments.is_empty() {
            return None;
        }
        Some(LinesPlan {
            lead: lead.into(),
            segments,
            tail,
        })
    }

    /// The form (its lazy DFAs are built on first use).
    pub fn build(&self) -> Lines {
        let segments = self.segments.iter().map(SegmentPlan::build).collect();
        Lines {
            lead: self.lead.clone(),
            segments,
            tail: self.tail.clone(),
        }
    }

    /// Appends the plan's stored form.
    pub fn encode(&self, out: &mut Vec<u8>) {
        put_bytes(out, &self.lead);
        put(out, self.segments.len());
        for segment in &self.segments {
            put_bytes(out, &segment.loop_stops);
            put_bytes(out, &segment.mark);
            match &segment.rest {
                None => out.push(0),
                Some(form) => {
                    out.push(1);
                    put_bytes(out, form);
                }
            }
        }
        match &self.tail {
            None => out.push(0),
            Some(stops) => {
                out.push(1);
                put_bytes(out, stops);
            }
        }
    }

    /// Reads a plan written by [`LinesPlan::encode`]. (A segment's NFA is read back when
    /// its DFA is first needed: one that does not read back gives up that search.)
    pub fn decode(reader: &mut Reader<'_>) -> Result<LinesPlan, DecodeError> {
        let stops = |reader: &mut Reader<'_>| {
            let bytes = reader.bytes()?;
            if bytes.len() > 3 || !bytes.is_ascii() {
                return Err(DecodeError("bad stop bytes"));
            }
            Ok(bytes.to_vec())
        };
        let lead: Box<[u8]> = reader.bytes()?.into();
        let n = reader.count()?;
        let mut segments = Vec::with_capacity(n);
        for _ in 0..n {
            let loop_stops = stops(reader)?;
            let mark = reader.bytes()?.into();
            let rest = if reader.flag()? {
                Some(reader.bytes()?.into())
            } else {
                None
            };
            segments.push(SegmentPlan {
                loop_stops,
                mark,
                rest,
            });
        }
        let tail = if reader.flag()? {
            Some(stops(reader)?)
        } else {
            None
        };
        if lead.is_empty() || segments.is_empty() {
            return Err(DecodeError("not a lines form"));
        }
        Ok(LinesPlan {
            lead,
            segments,
            tail,
        })
    }
}

impl Lines {
    /// The form of `hir` when it has this shape (and its parts' NFAs build).
    #[cfg(test)]
    pub fn new(hir: &Hir) -> Option<Lines> {
        Some(LinesPlan::new(hir)?.build())
    }

    /// A fresh cache for [`Lines::find_at`], for texts that are all ASCII when `ascii`
    /// (see [`AsciiDfa`]).
    pub fn create_cache(&self, ascii: bool) -> LinesCache {
        LinesCache {
            ascii,
            dfa: self
                .segments
                .iter()
                .map(|s| {
                    let dfa = s.rest.as_ref()?.get(ascii)?;
                    Some(dfa.create_cache())
                })
                .collect(),
            ends: vec![Vec::new(); self.segments.len()],
            ahead_lines: Vec::new(),
            ahead_starts: Vec::new(),
            ahead_answers: Vec::new(),
        }
    }

    /// Builds the parts' lazy DFAs for texts that are all ASCII when `ascii` (see
    /// [`AsciiDfa`]), as the first [`Lines::create_cache`] would: the helper thread that
    /// compiles ahead of a run does it, so that the run finds them built.
    pub fn build_dfas(&self, ascii: bool) {
        for segment in &self.segments {
            if let Some(rest) = &segment.rest {
                rest.build_ahead(ascii);
            }
        }
    }

    /// The match anchored at `start` (a char boundary of `hay`), if any.
    pub fn find_at(
        &self,
        cache: &mut LinesCache,
        hay: &str,
        start: usize,
        effort: &mut Effort,
    ) -> Found {
        let bytes = hay.as_bytes();
        if !bytes[start..].starts_with(&self.lead) {
            // A lead cut off by the end of the text might go on past it.
            effort.touched_end |= self.lead.starts_with(&bytes[start..]);
            return Found::None;
        }
        self.segment_at(0, cache, hay, start + self.lead.len(), effort)
    }

    /// Segments `k..` and the tail, matched from `pos` (where loop `k` starts).
    fn segment_at(
        &self,
        k: usize,
        cache: &mut LinesCache,
        hay: &str,
        pos: usize,
        effort: &mut Effort,
    ) -> Found {
        let mut ends = std::mem::take(&mut cache.ends[k]);
        self.line_ends(k, hay.as_bytes(), pos, effort, &mut ends);
        let segment = &self.segments[k];
        let mark = segment.mark.needle();
        let mut found = Found::None;
        for &q in ends.iter().rev() {
            let rest = segment.rest.as_ref().map(|d| d.get(cache.ascii));
            let end = match (rest, cache.dfa[k].as_mut()) {
                (Some(Some(dfa)), Some(dcache)) => {
                    let input = Input::new(hay).range(q..).anchored(Anchored::Yes);
                    let before = dcache.search_total_len();
                    let result = dfa.try_search_fwd(dcache, &input);
                    let after = dcache.search_total_len();
                    let scanned = after.checked_sub(before).unwrap_or(after);
                    effort.scanned += scanned;
                    effort.touched_end |= q + scanned + 1 >= hay.len() || after < before;
                    match result {
                        Ok(Some(hm)) => hm.offset(),
                        Ok(None) => continue,
                        Err(_) => {
                            found = Found::GaveUp;
                            break;
                        }
                    }
                }
                (Some(_), _) => {
                    found = Found::GaveUp;
                    break;
                }
                (None, _) => q + mark.len(),
            };
            found = if k + 1 < self.segments.len() {
                // This segment matched one whole line (its only possible end): the next
                // loop starts after it.
                self.segment_at(k + 1, cache, hay, end, effort)
            } else {
                self.tail_from(hay, end, effort)
            };
            if found != Found::None {
                break;
            }
        }
        cache.ends[k] = ends;
        found
    }

    /// The places loop `k`, started at `pos`, can end at that `M` follows (the line
    /// starts that begin with `M`), in order, into `ends`.
    fn line_ends(
        &self,
        k: usize,
        bytes: &[u8],
        pos: usize,
        effort: &mut Effort,
        ends: &mut Vec<usize>,
    ) {
        let segment = &self.segments[k];
        let stop = memchr_any(&segment.loop_stops, &bytes[pos..]).map_or(bytes.len(), |j| pos + j);
        let mark = segment.mark.needle();
        effort.scanned += (stop - pos) / 4;
        effort.touched_end |= stop + mark.len() >= bytes.len();
        // The loop's ends followed by `M`, found forwards.
        let window = &bytes[pos..(stop + mark.len()).min(bytes.len())];
        ends.clear();
        let mut from = 0;
        while let Some(j) = segment.mark.find(&window[from..]) {
            let q = pos + from + j;
            if q > stop {
                break;
            }
            if q == pos || bytes[q - 1] == b'\n' {
                ends.push(q);
            }
            from += j + 1;
            if from > window.len() {
                break;
            }
        }
    }

    /// The answers of [`Lines::find_at`] at each of `starts` into `out`, where they are
    /// quick to give: the first segment's farthest candidate line of every start is
    /// searched in lockstep with the others' (see [`lockstep`]); when it matches, or is
    /// the only candidate line, that decides the start (the later segments and the tail
    /// are searched as usual). Other starts are `Redo`, for `find_at`.
    pub fn search_ahead(
        &self,
        cache: &mut LinesCache,
        hay: &str,
        starts: &[usize],
        out: &mut Vec<Answer>,
    ) -> Stats {
        let bytes = hay.as_bytes();
        out.clear();
        out.resize(starts.len(), Answer::REDO);
        let Some(dfa) = self.segments[0]
            .rest
            .as_ref()
            .and_then(|d| d.get(cache.ascii))
        else {
            return Stats::default();
        };
        // Per start searched: its index, the farthest line, the effort so far, and
        // whether that line is the only candidate.
        let mut lines = std::mem::take(&mut cache.ahead_lines);
        let mut ends = std::mem::take(&mut cache.ends[0]);
        lines.clear();
        for (index, &start) in starts.iter().enumerate() {
            if !bytes[start..].starts_with(&self.lead) {
                continue;
            }
            let mut effort = Effort::default();
            self.line_ends(0, bytes, start + self.lead.len(), &mut effort, &mut ends);
            match ends.last() {
                None => {
                    out[index] = Answer {
                        outcome: Outcome::None,
                        scanned: effort.scanned,
                        touched_end: effort.touched_end,
                    }
                }
                Some(&q) => lines.push((index, q, effort, ends.len() == 1)),
            }
        }
        cache.ends[0] = ends;
        let mut qs = std::mem::take(&mut cache.ahead_starts);
        qs.clear();
        qs.extend(lines.iter().map(|l| l.1));
        let mut answers = std::mem::take(&mut cache.ahead_answers);
        let dcache = cache.dfa[0].as_mut().expect("a DFA has a cache");
        let stats = lockstep::search(dfa, dcache, bytes, &qs, &mut answers);
        for (&(index, q, mut effort, only), answer) in lines.iter().zip(&answers) {
            effort.scanned += answer.scanned;
            effort.touched_end |= answer.touched_end;
            let found = match answer.outcome {
                Outcome::End(end) if self.segments.len() > 1 => {
                    self.segment_at(1, cache, hay, end, &mut effort)
                }
                Outcome::End(end) => self.tail_from(hay, end, &mut effort),
                Outcome::None if only => Found::None,
                _ => continue,
            };
            let outcome = match found {
                Found::End(end) => Outcome::End(end),
                // An earlier candidate line might still match.
                Found::None if !only => continue,
                Found::None => Outcome::None,
                Found::GaveUp => continue,
            };
            debug_assert!(q >= starts[index]);
            out[index] = Answer {
                outcome,
                scanned: effort.scanned,
                touched_end: effort.touched_end,
            };
        }
        cache.ahead_lines = lines;
        cache.ahead_starts = qs;
        cache.ahead_answers = answers;
        stats
    }

    /// The end of the match whose `M R` parts end at `end`.
    fn tail_from(&self, hay: &str, end: usize, effort: &mut Effort) -> Found {
        let Some(stops) = &self.tail else {
            return Found::End(end);
        };
        match memchr_any(stops, &hay.as_bytes()[end..]) {
            Some(k) => Found::End(end + k),
            None => {
                effort.touched_end = true;
                Found::End(hay.len())
            }
        }
    }
}

impl SegmentPlan {
    /// The plan of a segment whose loop stops at `loop_stops` and whose part is the
    /// concatenation of `items`; `None` when the part's NFA does not build.
    fn new(loop_stops: Vec<u8>, items: &[Hir]) -> Option<SegmentPlan> {
        let mut mark = Vec::new();
        for item in items {
            match item.kind() {
                HirKind::Literal(lit) => mark.extend_from_slice(&lit.0),
                _ => break,
            }
        }
        let only_mark = items
            .iter()
            .all(|h| matches!(h.kind(), HirKind::Literal(_)));
        let rest = match only_mark {
            true => None,
            false => {
                let ascii = syntax::ascii_hir(&Hir::concat(items.to_vec()));
                let nfa = thompson::Compiler::new()
                    .configure(thompson::Config::new().which_captures(WhichCaptures::Implicit))
                    .build_from_hir(&ascii)
                    .ok()?;
                let mut form = Vec::new();
                if !nfa_form::encode(&nfa, &mut form) {
                    return None;
                }
                Some(form.into())
            }
        };
        Some(SegmentPlan {
            loop_stops,
            mark: mark.into(),
            rest,
        })
    }

    fn build(&self) -> Segment {
        Segment {
            loop_stops: self.loop_stops.clone(),
            mark: crate::exec::fast::literal::finder(&self.mark),
            rest: self.rest.as_ref().map(|form| RestDfa {
                nfa: form.clone(),
                dfa: OnceLock::new(),
            }),
        }
    }
}

/// Whether every match of the concatenation `items` is one line: it ends with a literal
/// whose only `\n` is its last byte, and nothing before can match a `\n`. Such a part
/// has one possible end from a given start.
fn one_line(items: &[Hir]) -> bool {
    let Some((last, before)) = items.split_last() else {
        return false;
    };
    let HirKind::Literal(lit) = last.kind() else {
        return false;
    };
    lit.0.iter().position(|&b| b == b'\n') == Some(lit.0.len() - 1)
        && !before.iter().any(can_match_newline)
}

/// Whether some match of `hir` contains a `\n`.
fn can_match_newline(hir: &Hir) -> bool {
    match hir.kind() {
        HirKind::Empty | HirKind::Look(_) => false,
        HirKind::Literal(lit) => lit.0.contains(&b'\n'),
        HirKind::Class(Class::Unicode(c)) => c
            .ranges()
            .iter()
            .any(|r| r.start() <= '\n' && '\n' <= r.end()),
        HirKind::Class(Class::Bytes(c)) => c
            .ranges()
            .iter()
            .any(|r| r.start() <= b'\n' && b'\n' <= r.end()),
        HirKind::Repetition(rep) => rep.max != Some(0) && can_match_newline(&rep.sub),
        HirKind::Capture(cap) => can_match_newline(&cap.sub),
        HirKind::Concat(subs) | HirKind::Alternation(subs) => subs.iter().any(can_match_newline),
    }
}

/// The concatenation of `hir` with groups looked through, as a list of parts.
fn flatten(hir: &Hir, out: &mut Vec<Hir>) {
    match hir.kind() {
        HirKind::Capture(cap) => flatten(&cap.sub, out),
        HirKind::Concat(subs) => subs.iter().for_each(|s| flatten(s, out)),
        HirKind::Empty => {}
        _ => out.push(hir.clone()),
    }
}

/// The most memory each segment's lazy DFA cache may hold, in bytes, unless the
/// automaton needs more to work at all (when full it is cleared and states are rebuilt).
/// These caches are most of the lazy-DFA memory, and one move keeps each of them small;
/// over a game they grow to their cap, and a smaller cap lowers a game's peak memory at
/// about the same instructions. But too small a cap fails the widest single move: on
/// promotion capture the move rules of the leaves' full `has_legal_move` test rebuilt
/// their states over and over. This cap costs no instruction on promotion capture,
/// kiwipete, the queen's gambit or perft position 4 (callgrind, warm runs of one move),
/// and lowers a long UCI game's peak (PERF.md, "Figures behind the fast executor's
/// constants").
const LINES_CACHE: usize = 320 << 10;

#[cfg(test)]
mod tests {
    use super::*;

    fn lines(pattern: &str) -> Option<Lines> {
        Lines::new(&regex_syntax::parse(pattern).unwrap())
    }

    /// Every start of `hay`: our anchored answer against `regex`'s anchored one, with
    /// the quitting DFAs and, when `hay` is all ASCII, the exact ones. The number of
    /// starts where the quitting search gave up (the caller then asks another engine):
    /// only allowed when a non-ASCII byte follows the start.
    fn agrees(pattern: &str, hay: &str) -> usize {
        let l = lines(pattern).unwrap_or_else(|| panic!("{pattern:?} has the shape"));
        if hay.is_ascii() {
            assert_eq!(agrees_in(&l, pattern, hay, true), 0);
        }
        agrees_in(&l, pattern, hay, false)
    }

    fn agrees_in(l: &Lines, pattern: &str, hay: &str, ascii: bool) -> usize {
        let re = regex::Regex::new(&format!("^(?:{pattern})")).unwrap();
        let mut cache = l.create_cache(ascii);
        let mut gave_up = 0;
        for start in (0..=hay.len()).filter(|&i| hay.is_char_boundary(i)) {
            let want = re.find(&hay[start..]).map(|m| start + m.end());
            let got = match l.find_at(&mut cache, hay, start, &mut Effort::default()) {
                Found::End(e) => Some(e),
                Found::None => None,
                Found::GaveUp => {
                    assert!(!hay[start..].is_ascii(), "{pattern:?} gave up at {start}");
                    gave_up += 1;
                    continue;
                }
            };
            assert_eq!(got, want, "{pattern:?} at {start} of {hay:?}");
        }
        ahead_agrees(l, hay, ascii);
        gave_up
    }

    /// `search_ahead` at every start of `hay`, in batches, against `find_at`: the same
    /// answer and effort where it decides.
    fn ahead_agrees(l: &Lines, hay: &str, ascii: bool) {
        let starts: Vec<usize> = (0..=hay.len())
            .filter(|&i| hay.is_char_boundary(i))
            .collect();
        let mut cache = l.create_cache(ascii);
        let mut answers = Vec::new();
        for batch in starts.chunks(7) {
            l.search_ahead(&mut cache, hay, batch, &mut answers);
            for (&start, answer) in batch.iter().zip(&answers) {
                let mut effort = Effort::default();
                let want = match l.find_at(&mut cache, hay, start, &mut effort) {
                    Found::End(e) => Outcome::End(e),
                    Found::None => Outcome::None,
                    Found::GaveUp => Outcome::Redo,
                };
                if answer.outcome == Outcome::Redo {
                    continue;
                }
                let at = format!("at {start} of {hay:?}");
                assert_eq!(answer.outcome, want, "{at}");
                assert_eq!(answer.scanned, effort.scanned, "{at}");
                assert_eq!(answer.touched_end, effort.touched_end, "{at}");
            }
        }
    }

    #[test]
    fn shapes() {
        assert!(lines("%%\n#stack:\n((?:[^%\n]*\n)*#b: )([^\n]*)([45])([^%]*)").is_some());
        assert!(lines("(%%\n#stack:\n(?:[^%\n]*\n)*#h: [0-9]*)8\\+").is_some());
        assert!(lines("(?:[^%\n]*\n)*#b: ").is_none());
        assert!(lines("%%\n(?:[^%\n]*\n)*?#b: ").is_none());
        assert!(lines("%%\n#b: x").is_none());
    }

    #[test]
    fn farthest_line_that_matches() {
        let hay = "%%\n#b: 1x\n#c: 2\n#b: 2y\n#b: 3\n%%\n#b: 1\n%%\n#b: 2y";
        agrees("%%\n(?:[^%\n]*\n)*#b: [0-9](?:x|y)", hay);
        agrees("%%\n((?:[^%\n]*\n)*#b: )([0-9])(x|)([^%]*)", hay);
        agrees("%%\n(?:[^%\n]*\n)*#b: ", hay);
        agrees("%%\n(?:[^%\n]*\n)*#b: [^%]*", hay);
        agrees("%%\n(?:[^%\n]*\n)*(?:x|#c: 2\n)[^%]*", hay);
        agrees("%%\n(?:[^%\n]*\n)*", hay);
        agrees("%%\n(?:[^%\n]*\n)*[0-9]\n(?:[^%\n]*\n)*#b: 2", hay);
        agrees(
            "%%\n(?:[^%\n]*\n)*#b: [0-9]\n(?:[^%\n]*\n)*#b: [^\n]{2}\n",
            hay,
        );
    }

    #[test]
    fn loops_after_one_line_parts() {
        let two = "%%\n(?:[^%\n]*\n)*#b: [0-9]\n(?:[^%\n]*\n)*#c: ";
        assert_eq!(lines(two).unwrap().segments.len(), 2);
        // `[^R]` can match a newline: not one line, so one segment.
        let one = "%%\n(?:[^%\n]*\n)*#b: [^R][^\n]*\n(?:[^%\n]*\n)*#c: ";
        assert_eq!(lines(one).unwrap().segments.len(), 1);
        // The farthest `#b` line has no `#c` line after it: an earlier one does.
        let hay = "%%\n#b: 1\n#c: x\n#b: 2\n#d: y\n%%\n#b: 3\n#c: \n#b: 4\n#c: z";
        agrees(two, hay);
        agrees(one, hay);
        agrees(
            "(%%\n(?:[^%\n]*\n)*#b: ([0-9])\n(?:[^%\n]*\n)*#c: )([^\n]*)",
            hay,
        );
        agrees(
            "%%\n(?:[^%\n]*\n)*#b: [0-9]\n(?:[^%\n]*\n)*#c: [a-z]\n(?:.*\n)*#d: ",
            hay,
        );
        agrees("%%\n(?:[^%\n]*\n)*#b: [0-9]\n(?:[^%\n]*\n)*[^%]*", hay);
    }

    #[test]
    fn stops_inside_lines_and_unicode() {
        let hay = "%%\n#b: é%x\n#b: ü\n%%\n#b: a\n#x";
        agrees("%%\n(?:[^%\n]*\n)*#b: .", hay);
        agrees("%%\n(?:[^%\n]*\n)*#b: .[^%x]*", hay);
        agrees("%%\n(?:[^x\n]*\n)*#b: (?:é|ü|a)\n", hay);
        agrees("%%\n(?:.*\n)*#b: .\\b", hay);
        agrees("%%\n(?:[^%\n]*\n)*#(?:x|b: a$)", hay);
        // The line DFAs are ASCII-only: they give up on the lines with `é` and `ü`, and
        // decide alone on ASCII text.
        assert!(agrees("%%\n(?:[^%\n]*\n)*#b: .", hay) > 0);
        assert_eq!(
            agrees("%%\n(?:[^%\n]*\n)*#b: .", "%%\n#b: e%x\n#b: u\n%%\n#b: a"),
            0
        );
    }
}
