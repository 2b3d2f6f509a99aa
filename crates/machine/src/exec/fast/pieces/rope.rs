//! The rope: a run of consecutive local rules applied thread by thread, each piece of the
//! state (a few threads, cut at thread boundaries) taken through every rule of the run
//! before the next piece, in cache.
//!
//! Contract: for a flat text cut at thread boundaries (each cut just before a `%` that
//! follows a `\n`, see [`cuts`]) and a run of rules whose patterns are all local
//! (`local.rs`), [`Run::piece`] for every piece, in order, writes to its [`Sink`] exactly
//! what applying the rules one after the other to the whole text gives, and adds to the
//! run's [`Total`]s each rule's match count, whether it changed the state and how much it
//! grew it, unless it returns [`Broken`]: then nothing is known, and the caller applies
//! the rules to the whole text instead.
//!
//! Why: `parallel.rs` proves that one local rule applied to the pieces of a text cut at
//! thread boundaries gives the rule's result on the whole text. A run applies rule after
//! rule to each piece in turn, which is the result of the rules one after the other as
//! long as, before every rule of the run, every cut is still at a thread boundary in the
//! text the rules made so far: the nearest non-empty pieces on either side of it end with
//! `\n` and start with `%`. [`Run::piece`] checks, after every rule but the last that
//! changes a piece, that the piece is empty or starts with `%` (unless it starts the
//! state) and ends with `\n` (unless it ends it), which implies that condition.
//!
//! Facts, not scans: a piece keeps the set of the run's needed literals it is known to
//! lack ([`Bits`]): those the whole state lacked before the run, then each one a rule's
//! search found absent from the piece. A rule that needs one of them is skipped for the
//! piece by one test of bits, without a search; a rule that changes the piece clears the
//! set (its output may hold anything). A piece no rule of a run can match costs the run
//! one test per rule. Identical rules: a rule with the same pattern and replacement as
//! the rule before it, in a piece that rule left unchanged, finds the same matches and
//! changes nothing; it is not searched there. A rule none of whose pieces was searched is
//! reported skipped.
//!
//! Cache and growth: a piece is cut from the state before the run and its texts live in
//! buffers kept between runs, so the rules of a run work on a few KB at a time, and a
//! piece no rule changes is never copied. A piece that a rule grows past
//! [`Plan::split_len`] is cut again at its thread boundaries, and each part goes on
//! through the rest of the run on its own: a run that multiplies its threads (the search's
//! move generation grows the state 25 times within one run) keeps working in cache. The
//! state is written once per run: each piece's final text goes to its [`Sink`] when the
//! piece is through the run (on one core, straight into the state's next buffer, see
//! [`Join`]).
//!
//! The index of `%` bytes (`starts.rs`): on large states each piece keeps its own, cut
//! from the state's when it holds one (else made by a scan of the piece), so that rules
//! whose matches start with a `%`-literal walk it as they do on the flat state; the sink
//! is handed it with the piece's text, so that no later rule scans for it again.
//!
//! Trade-offs: a rule's fixed cost (its candidate search set up, the rewrite begun) is
//! paid once per piece that may hold a match, so pieces of a few KB, not single threads;
//! a rule that changes a piece writes the whole piece again (in cache). A rule that is
//! not local ends the run, even when it is then skipped. The state after a rule inside
//! the run is not kept: an observer that reads one gets it by applying the run's first
//! rules to the state before the run again ([`Replay`]).
//!
//! Layer 6: uses `rules`, `slot`, `caches`, `rewrite` and `starts`.

use std::cell::RefCell;
use std::ops::Range;

use crate::exec::fast::caches::Caches;
use crate::exec::fast::rewrite;
use crate::exec::fast::rules::{RuleParts, Rules};
use crate::exec::fast::slot::LiteralId;
use crate::exec::fast::starts::Starts;

/// One thread's scratch space, kept between runs in the executor's pool: its lazy-DFA
/// caches, and the buffers of the pieces it took through rope runs (the rope's own,
/// which is why the type lives here).
#[derive(Debug, Default)]
pub struct Scratch {
    /// A cache per pattern slot.
    pub caches: Caches,
    /// Text buffers of earlier pieces, for the next pieces (see [`Scratch::keep`]).
    buffers: Vec<String>,
    /// Index buffers of earlier pieces.
    indexes: Vec<Starts>,
}

/// How many text and index buffers a scratch space keeps for later pieces, and the
/// largest it keeps: a piece needs two of each at a time, and one more for each level
/// of cutting again; buffers that held a grown piece are left to the allocator.
const KEPT_BUFFERS: usize = 16;
const KEPT_BUFFER_MAX: usize = 1 << 20;

impl Scratch {
    /// An empty text buffer, kept from earlier pieces when there is one.
    fn buffer(&mut self) -> String {
        self.buffers.pop().unwrap_or_default()
    }

    /// Keeps `buffer` for later pieces.
    pub fn keep(&mut self, mut buffer: String) {
        if self.buffers.len() < KEPT_BUFFERS
            && buffer.capacity() > 0
            && buffer.capacity() <= KEPT_BUFFER_MAX
        {
            buffer.clear();
            self.buffers.push(buffer);
        }
    }

    /// An empty index buffer, kept from earlier pieces when there is one.
    fn index(&mut self) -> Starts {
        self.indexes.pop().unwrap_or_default()
    }

    /// Keeps `index` for later pieces.
    fn keep_index(&mut self, mut index: Starts) {
        if self.indexes.len() < KEPT_BUFFERS {
            index.clear();
            self.indexes.push(index);
        }
    }
}

/// Cut points for `pieces` pieces of `text`: each is the position of a `%` right after a
/// `\n`, at or after an equal share of the text, in increasing order (fewer when the text
/// has too few boundaries).
pub fn cuts(text: &[u8], pieces: usize) -> Vec<usize> {
    let mut out: Vec<usize> = Vec::with_capacity(pieces);
    for k in 1..pieces {
        let target = (text.len() * k / pieces).max(out.last().map_or(1, |&c| c + 1));
        if target >= text.len() {
            break;
        }
        match memchr::memmem::find(&text[target - 1..], b"\n%") {
            Some(i) => out.push(target + i),
            None => break,
        }
    }
    out
}

/// A set of a run's needed literals, one bit each ([`Plan`] numbers them; literals past
/// the 64th of a run are not tracked, and never skip a rule).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Bits(u64);

impl Bits {
    /// Whether the two sets meet.
    #[inline]
    fn meets(self, other: Bits) -> bool {
        self.0 & other.0 != 0
    }
}

/// No bit: the literal is not tracked.
const UNTRACKED: u8 = u8::MAX;

/// What one rule of a run did over the pieces taken through it (sums over the pieces).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Total {
    /// Matches replaced.
    pub count: usize,
    /// Whether some piece was searched (not: a needed literal was absent from it, or an
    /// identical rule just left it unchanged).
    pub searched: bool,
    /// Whether some piece changed.
    pub changed: bool,
    /// How many bytes the rule added to the state (less those it removed).
    pub grown: isize,
}

/// Adds the totals of `from` (other pieces of the same run) to `into`.
pub fn add_totals(into: &mut [Total], from: &[Total]) {
    for (into, from) in into.iter_mut().zip(from) {
        into.count += from.count;
        into.searched |= from.searched;
        into.changed |= from.changed;
        into.grown += from.grown;
    }
}

/// A run of local rules prepared for its pieces: the rules, the bits of their needed
/// literals, what was known absent from the whole state before the run, and how pieces
/// are cut. Plain data, shared with the helper threads of the multi-core mode.
#[derive(Clone, Debug)]
pub struct Plan {
    /// The rules of the run (all local).
    pub range: Range<usize>,
    /// The bits of each rule's needed literals: `need[k]` of rule `range.start + k`.
    need: Vec<Bits>,
    /// The bit of each literal id (by its index), [`UNTRACKED`] when none.
    bit_of: Vec<u8>,
    /// The literals the whole state lacked before the run.
    absent: Bits,
    /// Whether pieces keep an index of their `%` bytes (see [`Run::piece`]).
    pub indexed: bool,
    /// The length pieces are cut to when a piece is cut again.
    pub piece_len: usize,
    /// A piece a rule leaves longer than this is cut again.
    pub split_len: usize,
}

impl Plan {
    /// The run `range` of `rules` (all local; their patterns compiled), with the
    /// literals for which `absent` answers true known absent from the whole state,
    /// pieces cut again to `piece_len` bytes once a rule grows one past four times that,
    /// and indexed when `indexed`.
    pub fn new(
        rules: &Rules,
        range: Range<usize>,
        absent: impl Fn(LiteralId) -> bool,
        indexed: bool,
        piece_len: usize,
    ) -> Plan {
        let mut bit_of: Vec<u8> = Vec::new();
        let mut tracked = 0u8;
        let mut known = Bits::default();
        let need = range
            .clone()
            .map(|index| {
                let mut need = Bits::default();
                for &id in rules.literal_ids(index) {
                    let at = id.index();
                    if bit_of.len() <= at {
                        bit_of.resize(at + 1, UNTRACKED);
                    }
                    if bit_of[at] == UNTRACKED && tracked < 64 {
                        bit_of[at] = tracked;
                        if absent(id) {
                            known.0 |= 1 << tracked;
                        }
                        tracked += 1;
                    }
                    if bit_of[at] != UNTRACKED {
                        need.0 |= 1 << bit_of[at];
                    }
                }
                need
            })
            .collect();
        let piece_len = piece_len.max(1);
        Plan {
            range,
            need,
            bit_of,
            absent: known,
            indexed,
            piece_len,
            split_len: piece_len.saturating_mul(4),
        }
    }

    /// The bit of literal `id`, when it is tracked.
    fn bit(&self, id: LiteralId) -> Option<Bits> {
        match self.bit_of.get(id.index()) {
            Some(&bit) if bit != UNTRACKED => Some(Bits(1 << bit)),
            _ => None,
        }
    }
}

/// One piece of the state before a run.
#[derive(Clone, Copy, Debug)]
pub struct Piece<'a> {
    /// Its text.
    pub text: &'a str,
    /// The index of the whole state's `%` bytes when the state holds one, and where the
    /// piece starts in the state.
    pub whole_index: Option<(&'a Starts, usize)>,
    /// Whether the piece starts the state (its first byte need not be a `%`).
    pub first: bool,
    /// Whether the piece ends the state (its last byte need not be a `\n`).
    pub last: bool,
}

/// Where the final texts of a piece go, in order, with the index of their `%` bytes
/// when the piece kept one.
pub trait Sink {
    /// Appends `text` (indexed by `index` when given).
    fn append(&mut self, text: &str, index: Option<&Starts>);
}

/// A cut between pieces stopped being at a thread boundary before some rule of the run:
/// the pieces' results mean nothing, and the run is applied to the whole state instead.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Broken;

/// A run taken through pieces: its rules and its plan.
#[derive(Clone, Copy, Debug)]
pub struct Run<'a> {
    /// The program's rules.
    pub rules: &'a Rules,
    /// The run.
    pub plan: &'a Plan,
}

/// One piece on its way through a run.
struct Walk<'p> {
    /// The text before the rule at hand, while no rule of the walk changed it.
    original: &'p str,
    /// The index of the state (or of the piece's parent) and where `original` starts in
    /// it.
    whole_index: Option<(&'p Starts, usize)>,
    /// Whether the walk's text must go to the sink even when no rule of the walk changes
    /// it (a part of a piece cut again).
    emit: bool,
    first: bool,
    last: bool,
    /// The literals known absent from the text.
    absent: Bits,
    /// The matches of the rule before and whether it changed the text.
    previous: (usize, bool),
}

impl Run<'_> {
    /// Takes `piece` through the run: adds each rule's effect on it to `totals` (one per
    /// rule of the run) and, when some rule changed it, appends its final text to `sink`
    /// (nothing otherwise). Returns whether some rule changed it, or [`Broken`].
    pub fn piece(
        &self,
        scratch: &mut Scratch,
        piece: Piece<'_>,
        totals: &mut [Total],
        sink: &mut dyn Sink,
    ) -> Result<bool, Broken> {
        let walk = Walk {
            original: piece.text,
            whole_index: piece.whole_index,
            emit: false,
            first: piece.first,
            last: piece.last,
            absent: self.plan.absent,
            previous: (0, false),
        };
        self.walk(scratch, walk, 0, totals, sink)
    }

    /// Takes `walk` through the rules of the run from its `from`th on (see
    /// [`Run::piece`]).
    fn walk(
        &self,
        scratch: &mut Scratch,
        mut walk: Walk<'_>,
        from: usize,
        totals: &mut [Total],
        sink: &mut dyn Sink,
    ) -> Result<bool, Broken> {
        let Run { rules, plan } = *self;
        let rules_len = plan.range.len();
        // The text once a rule changed it, and the buffer the next rewrite writes into.
        let mut own: Option<String> = None;
        let mut spare = scratch.buffer();
        // The index of the text's `%` bytes once kept, and the buffer where a rewrite
        // writes the next one.
        let mut index: Option<(Starts, Starts)> = None;
        for k in from..rules_len {
            let rule_index = plan.range.start + k;
            if !walk.previous.1 && k > 0 && rules.same_as_previous(rule_index) {
                totals[k].count += walk.previous.0;
                continue;
            }
            if plan.need[k].meets(walk.absent) {
                walk.previous = (0, false);
                continue;
            }
            let rule = rules.parts(rule_index);
            let text = own.as_deref().unwrap_or(walk.original);
            if plan.indexed && index.is_none() && rule.pattern.percent_prefixed() {
                let mut kept = scratch.index();
                match walk.whole_index {
                    Some((whole, at)) if own.is_none() => {
                        kept.extend_slice(whole, at..at + text.len(), 0)
                    }
                    _ => kept.extend_scan(text.as_bytes(), 0),
                }
                index = Some((kept, scratch.index()));
            }
            let starts = index.as_ref().map(|(starts, _)| starts);
            let from = match rule.pattern.first_possible(text, starts) {
                Ok(from) => from,
                Err(literal) => {
                    self.note_absent(rule, rule_index, literal, &mut walk.absent);
                    walk.previous = (0, false);
                    continue;
                }
            };
            totals[k].searched = true;
            spare.clear();
            let cache = scratch.caches.cache(rule.slot);
            let follow = index.as_mut().map(|(starts, next)| rewrite::Index {
                starts,
                follow: next.follow(starts),
            });
            let Some(done) = rewrite::rewrite(rule, cache, text, from, &mut spare, follow) else {
                walk.previous = (0, false);
                continue;
            };
            totals[k].count += done.count;
            walk.previous = (done.count, done.changed);
            if !done.changed {
                continue;
            }
            totals[k].changed = true;
            totals[k].grown += spare.len() as isize - text.len() as isize;
            if let Some((starts, next)) = &mut index {
                std::mem::swap(starts, next);
                // Every executor test, and every fuzz build, checks the kept index
                // against a fresh scan (as `segments.rs` does).
                #[cfg(any(test, fuzzing))]
                assert_eq!(*starts, Starts::build(spare.as_bytes()));
            }
            match &mut own {
                Some(own) => std::mem::swap(own, &mut spare),
                None => own = Some(std::mem::replace(&mut spare, scratch.buffer())),
            }
            walk.absent = Bits::default();
            if k + 1 == rules_len {
                break;
            }
            let text = own.as_deref().unwrap_or_default();
            if !walk.holds_cuts(text) {
                self.release(scratch, own, spare, index);
                return Err(Broken);
            }
            if text.len() > plan.split_len {
                // Cut again: each part goes on through the rest of the run.
                let parts = cuts(text.as_bytes(), text.len() / plan.piece_len);
                if !parts.is_empty() {
                    let starts = index.as_ref().map(|(starts, _)| starts);
                    let cut = Cut {
                        text,
                        index: starts,
                        parts: &parts,
                    };
                    let result = self.walk_parts(scratch, &walk, cut, k + 1, totals, sink);
                    self.release(scratch, own, spare, index);
                    return result.map(|()| true);
                }
            }
        }
        let changed = own.is_some();
        let starts = index.as_ref().map(|(starts, _)| starts);
        match (&own, starts, walk.whole_index) {
            (Some(text), _, _) => sink.append(text, starts),
            // An unchanged part of a piece cut again: its index is its own, or a slice
            // of its parent's when the parent kept one.
            (None, Some(starts), _) if walk.emit => sink.append(walk.original, Some(starts)),
            (None, None, Some((whole, at))) if walk.emit && plan.indexed => {
                let mut sliced = scratch.index();
                sliced.extend_slice(whole, at..at + walk.original.len(), 0);
                sink.append(walk.original, Some(&sliced));
                scratch.keep_index(sliced);
            }
            (None, _, _) if walk.emit => sink.append(walk.original, None),
            (None, _, _) => {}
        }
        self.release(scratch, own, spare, index);
        Ok(changed || walk.emit)
    }

    /// Takes the parts of `cut` (the text of `walk` after a rule) through the rules from
    /// the `from`th on, in order, into `sink`.
    fn walk_parts(
        &self,
        scratch: &mut Scratch,
        walk: &Walk<'_>,
        cut: Cut<'_>,
        from: usize,
        totals: &mut [Total],
        sink: &mut dyn Sink,
    ) -> Result<(), Broken> {
        let Cut { text, index, parts } = cut;
        let count = parts.len() + 1;
        for i in 0..count {
            let start = if i == 0 { 0 } else { parts[i - 1] };
            let end = parts.get(i).copied().unwrap_or(text.len());
            let part = Walk {
                original: &text[start..end],
                whole_index: index.map(|index| (index, start)),
                emit: true,
                first: walk.first && i == 0,
                last: walk.last && i + 1 == count,
                absent: walk.absent,
                previous: walk.previous,
            };
            self.walk(scratch, part, from, totals, sink)?;
        }
        Ok(())
    }

    /// Records in `absent` the literal a search of rule `index` (`rule`) found absent,
    /// when the run tracks it.
    fn note_absent(
        &self,
        rule: RuleParts<'_>,
        index: usize,
        literal: Option<&[u8]>,
        absent: &mut Bits,
    ) {
        let Some(literal) = literal else {
            return;
        };
        let ids = self.rules.literal_ids(index);
        let found = rule.pattern.needed_literals().zip(ids);
        if let Some((_, &id)) = found.into_iter().find(|(needed, _)| *needed == literal)
            && let Some(bit) = self.plan.bit(id)
        {
            absent.0 |= bit.0;
        }
    }

    /// Gives a walk's buffers back to `scratch`.
    fn release(
        &self,
        scratch: &mut Scratch,
        own: Option<String>,
        spare: String,
        index: Option<(Starts, Starts)>,
    ) {
        if let Some(own) = own {
            scratch.keep(own);
        }
        scratch.keep(spare);
        if let Some((starts, next)) = index {
            scratch.keep_index(starts);
            scratch.keep_index(next);
        }
    }
}

/// A walk's text cut again: the text, its index when kept, and the cut points.
#[derive(Clone, Copy)]
struct Cut<'a> {
    text: &'a str,
    index: Option<&'a Starts>,
    parts: &'a [usize],
}

impl Walk<'_> {
    /// Whether `text`, the walk's text after a rule, keeps the cuts around it at thread
    /// boundaries: empty, or starting with `%` (unless it starts the state) and ending
    /// with `\n` (unless it ends the state).
    fn holds_cuts(&self, text: &str) -> bool {
        let bytes = text.as_bytes();
        match (bytes.first(), bytes.last()) {
            (Some(&first), Some(&last)) => {
                (self.first || first == b'%') && (self.last || last == b'\n')
            }
            _ => true,
        }
    }
}

/// The join of a rope run's pieces into the state's next text, written as the pieces are
/// done ([`Join::sink`] for each piece in order, [`Join::finish`] after the last): the
/// unchanged pieces before a changed one are copied from the state in one stretch, and
/// nothing is copied when no piece changed. With `indexed`, the index of the output's
/// `%` bytes too.
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
    /// The output and its index.
    out: String,
    out_index: Starts,
}

impl<'a> Join<'a> {
    /// A join of a run on `text` (indexed by `whole` when held) into `out` and its index
    /// into `out_index` (both empty), writing the index when `indexed`.
    pub fn new(
        text: &'a str,
        whole: Option<&'a Starts>,
        indexed: bool,
        out: String,
        out_index: Starts,
    ) -> Join<'a> {
        Join {
            text,
            whole,
            indexed,
            pending: 0,
            changed: false,
            out,
            out_index,
        }
    }

    /// Writes the stretch of unchanged pieces up to `to` (in the state).
    fn flush(&mut self, to: usize) {
        if !self.changed {
            self.changed = true;
            let len = self.text.len();
            self.out.reserve(len + len / 8 + 64);
        }
        let at = self.out.len();
        self.out.push_str(&self.text[self.pending..to]);
        if self.indexed {
            let stretch = self.pending..to;
            match self.whole {
                Some(whole) => self.out_index.extend_slice(whole, stretch, at),
                None => self
                    .out_index
                    .extend_scan(&self.text.as_bytes()[stretch], at),
            }
        }
        self.pending = to;
    }

    /// The sink of the piece `range` of the state (pieces come in order): its texts,
    /// when a rule changed it, replace it in the output.
    pub fn sink(&mut self, range: Range<usize>) -> JoinSink<'_, 'a> {
        JoinSink {
            join: self,
            range,
            begun: false,
        }
    }

    /// Appends the output of a piece `range` of the state (in order; `texts` the
    /// piece's final texts when a rule changed it, else empty).
    pub fn piece_texts<'t>(
        &mut self,
        range: Range<usize>,
        texts: impl IntoIterator<Item = (&'t str, Option<&'t Starts>)>,
    ) {
        let mut sink = self.sink(range);
        for (text, index) in texts {
            sink.append(text, index);
        }
        sink.end();
    }

    /// After the last piece: writes the unchanged pieces after the last changed one and
    /// gives back the output and its index, and whether the index is the output's (it
    /// is empty and to be dropped otherwise). The output is empty when no piece
    /// changed.
    pub fn finish(mut self) -> (String, Starts, bool) {
        if !self.changed {
            return (self.out, self.out_index, false);
        }
        self.flush(self.text.len());
        (self.out, self.out_index, self.indexed)
    }
}

/// The sink of one piece of a [`Join`].
pub struct JoinSink<'j, 'a> {
    join: &'j mut Join<'a>,
    range: Range<usize>,
    begun: bool,
}

impl JoinSink<'_, '_> {
    /// Ends the piece: what follows in the output comes after the piece in the state.
    pub fn end(self) {
        if self.begun {
            self.join.pending = self.range.end;
        }
    }
}

impl Sink for JoinSink<'_, '_> {
    fn append(&mut self, text: &str, index: Option<&Starts>) {
        let join = &mut *self.join;
        if !self.begun {
            self.begun = true;
            join.flush(self.range.start);
        }
        let at = join.out.len();
        join.out.push_str(text);
        if join.indexed {
            match index {
                Some(own) => join.out_index.extend_shifted(own, at),
                None => join.out_index.extend_scan(text.as_bytes(), at),
            }
        }
    }
}

/// A piece's final texts kept in buffers of its own (a helper's piece, joined later),
/// with their index when the run keeps one.
#[derive(Debug, Default)]
pub struct Kept {
    /// The texts, in order.
    pub text: String,
    /// Their index, when the run keeps one.
    pub index: Option<Starts>,
}

impl Kept {
    /// Empty (in `text`'s buffer, cleared), keeping an index when `indexed`.
    pub fn new(mut text: String, indexed: bool) -> Kept {
        text.clear();
        Kept {
            text,
            index: indexed.then(Starts::default),
        }
    }
}

impl Sink for Kept {
    fn append(&mut self, text: &str, index: Option<&Starts>) {
        let at = self.text.len();
        self.text.push_str(text);
        if let Some(kept) = &mut self.index {
            match index {
                Some(own) => kept.extend_shifted(own, at),
                None => kept.extend_scan(text.as_bytes(), at),
            }
        }
    }
}

/// The states inside a rope run, rebuilt on request: the rules of the run applied one
/// after the other to the state before it, on the whole text, each state kept for the
/// next request (an observer reads them in rule order).
pub struct Replay<'a> {
    rules: &'a Rules,
    /// The first rule of the run.
    start: usize,
    /// The state before the run.
    text: &'a str,
    /// The number of the run's rules applied to get the last state rebuilt, that state,
    /// and the caches of the rebuilding.
    at: RefCell<(usize, Option<String>, Caches)>,
}

impl<'a> Replay<'a> {
    /// The states of the run from rule `start` on `text`.
    pub fn new(rules: &'a Rules, start: usize, text: &'a str) -> Replay<'a> {
        Replay {
            rules,
            start,
            text,
            at: RefCell::new((0, None, Caches::default())),
        }
    }

    /// The state after the `k`th rule of the run (from 0).
    pub fn state_after(&self, k: usize) -> String {
        let mut at = self.at.borrow_mut();
        let (done, kept, caches) = &mut *at;
        if *done > k + 1 {
            (*done, *kept) = (0, None);
        }
        let mut text = kept.take().unwrap_or_else(|| self.text.to_string());
        let mut spare = String::new();
        while *done <= k {
            let rule = self.rules.parts(self.start + *done);
            if let Ok(from) = rule.pattern.first_possible(&text, None) {
                let cache = caches.cache(rule.slot);
                spare.clear();
                if let Some(result) = rewrite::rewrite(rule, cache, &text, from, &mut spare, None)
                    && result.changed
                {
                    std::mem::swap(&mut text, &mut spare);
                }
            }
            *done += 1;
        }
        *kept = Some(text.clone());
        text
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cuts_sit_before_a_percent_after_a_newline() {
        let text = b"%%\na\n%%\nb\n%p\nc\n";
        assert_eq!(cuts(text, 2), [10]);
        assert_eq!(cuts(text, 3), [5, 10]);
        // No boundary: no cut; a boundary only near the start: one cut at most.
        assert!(cuts(b"abc%\nd%", 2).is_empty());
        assert_eq!(cuts(b"\n%abcdefgh", 4), Vec::<usize>::new());
        assert_eq!(cuts(b"a\n%\n%\n%", 8), [2, 4, 6]);
        for (text, n) in [(&text[..], 5), (b"\n%\n%", 3)] {
            for c in cuts(text, n) {
                assert!(c > 0 && text[c] == b'%' && text[c - 1] == b'\n');
            }
        }
    }

    #[test]
    fn cuts_hold_while_pieces_start_with_percent_and_end_with_newline() {
        let walk = |first, last| Walk {
            original: "",
            whole_index: None,
            emit: false,
            first,
            last,
            absent: Bits::default(),
            previous: (0, false),
        };
        let middle = walk(false, false);
        assert!(middle.holds_cuts(""));
        assert!(middle.holds_cuts("%a\n%b\n"));
        assert!(!middle.holds_cuts("a\n"));
        assert!(!middle.holds_cuts("%a"));
        // The state's own edges may be anything.
        assert!(walk(true, false).holds_cuts("a\n"));
        assert!(walk(false, true).holds_cuts("%a"));
        assert!(walk(true, true).holds_cuts("a"));
    }
}
