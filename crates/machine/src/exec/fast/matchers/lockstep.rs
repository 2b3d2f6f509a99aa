//! Several anchored lazy-DFA searches walked in lockstep, so that their transition loads
//! overlap.
//!
//! Contract: for each start `s` of a batch, [`search`] reports what
//! `dfa.try_search_fwd(cache, &Input::new(hay).range(s..).anchored(Anchored::Yes))`
//! would (the end of the leftmost-first match anchored at `s`, or no match), with the
//! bytes that search would have read, or [`Outcome::Redo`] when it could not decide
//! cheaply: then the caller runs that one search itself. The DFA must be a forward
//! lazy DFA searching without the "earliest" option (what the fast executor builds).
//!
//! Why: one lazy-DFA walk is a chain of dependent loads (state, byte, next state), bound
//! by load latency on the chess rules' lines. Walking [`LANES`] independent starts one
//! byte each in turn lets the loads of different chains overlap: the same walks took
//! little more than half the time (PERF.md, "Figures behind the fast executor's
//! constants").
//!
//! How: lanes take the batch's starts in order and a finished lane takes the next one,
//! so all lanes stay busy until the batch runs out. While every lane is in an untagged
//! state, all take a plain transition lookup per round (no cache mutation, so the
//! loads stay independent); a lane in or entering a tagged state (start, match, dead,
//! quit, not computed yet) takes a general step, as `find_fwd` would, while the others
//! take their plain one in the same round (they do not wait for it).
//!
//! How it stays exact: each lane follows `find_fwd`'s steps (a start state from the byte
//! before `s`, a match delayed by one byte, stop at a dead state, the end-of-input
//! transition at the end of the text). What `find_fwd` handles specially becomes
//! `Redo`: a quit state (a non-ASCII byte: the caller's fallback engine decides), an
//! error from the cache, and lanes that run long (`LONG` bytes; the library's unrolled
//! loop is faster on one long walk). Computing a new state may clear the cache, which
//! invalidates every other lane's state id: every lane not finished by then is `Redo`.
//!
//! [`LockstepAnswers`] holds a rule's batch of answers so that `Compiled::find_at` can hand them
//! out one call at a time; an anchored search's answer depends only on the text and
//! its start, so answers after a match stay right.
//!
//! Trade-offs: a lane costs more instructions per byte than the library's loop (a safe,
//! bounds-checked lookup, the round's bookkeeping), and every tagged state costs a
//! general step and a branch miss; a walk through many match states (2,047 of 2,059
//! walks matching, at about 11 places each) ran 1.6x slower than one search at a time
//! in the micro-benchmark, so batches where general steps outnumber plain ones turn
//! lockstep off for a few rules. Answers of candidates inside a match are wasted.
//!
//! Layer 2 (a matcher): uses nothing else of the executor.

use regex_automata::hybrid::LazyStateID;
use regex_automata::hybrid::dfa::{Cache, DFA};
use regex_automata::util::start;
use regex_automata::{Anchored, Input};

/// The searches walked together: on the kiwipete move's wide state, 4 lanes ran the
/// rule `#_x: [^\n]*\n#b: [^\n]*(?:[bq](?:[^\n]{8}\.)*...)` fastest; 2 lanes overlap
/// fewer loads and 8 hold too many live values for the registers (PERF.md).
const LANES: usize = 4;

/// A lane that has read this many bytes without finishing is given up (`Redo`).
const LONG: usize = 1024;

/// What one anchored search found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// The match anchored at the start ends here.
    End(usize),
    /// No match starts at the start.
    None,
    /// Undecided: run the single search.
    Redo,
}

/// One search's answer: its outcome, the bytes it read (as `Cache::search_total_len`
/// counts them for the single search: from the start to where it stopped), and whether
/// it read to within a byte of the text's end (its answer might change if the text went
/// on).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Answer {
    pub outcome: Outcome,
    pub scanned: usize,
    pub touched_end: bool,
}

impl Answer {
    /// Undecided: the caller searches this start itself.
    pub const REDO: Answer = Answer {
        outcome: Outcome::Redo,
        scanned: 0,
        touched_end: false,
    };
}

/// The lanes of a batch: the search of `starts[slot[i]]` is at `at[i]` in state `sid[i]`
/// (the state before reading `hay[at[i]]`), its last match so far ending at `end[i]`.
struct Lanes<'a, const K: usize> {
    dfa: &'a DFA,
    hay: &'a [u8],
    starts: &'a [usize],
    /// The cache's clear count when the batch began.
    clears: usize,
    sid: [LazyStateID; K],
    at: [usize; K],
    end: [Option<usize>; K],
    slot: [usize; K],
    /// Lanes `..live` are searching.
    live: usize,
    /// The next start to give a lane.
    next: usize,
    stats: Stats,
}

/// How a batch went: lane steps taken by plain lookups in lockstep, and general steps
/// (tagged states, new states, ends). Lockstep pays only when general steps are rare.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Stats {
    pub plain: usize,
    pub general: usize,
}

/// The cache was cleared: the lanes' states are gone.
struct Cleared;

impl<const K: usize> Lanes<'_, K> {
    /// Gives lane `i` the next start; `false` when none is left.
    fn refill(&mut self, cache: &mut Cache, i: usize) -> Result<bool, Cleared> {
        while self.next < self.starts.len() {
            let slot = self.next;
            self.next += 1;
            let s = self.starts[slot];
            let config = start::Config::from_input_forward(
                &Input::new(self.hay).range(s..).anchored(Anchored::Yes),
            );
            let started = self.dfa.start_state(cache, &config);
            if cache.clear_count() != self.clears {
                return Err(Cleared);
            }
            // A start state that cannot be made (a quit byte before the start) stays `Redo`.
            if let Ok(sid) = started {
                self.sid[i] = sid;
                self.at[i] = s;
                self.end[i] = None;
                self.slot[i] = slot;
                return Ok(true);
            }
        }
        Ok(false)
    }

    /// One step of lane `i` as `find_fwd` takes it: `Some` when the search is over.
    fn step(&mut self, cache: &mut Cache, i: usize) -> Result<Option<Outcome>, Cleared> {
        let (dfa, hay) = (self.dfa, self.hay);
        let at = self.at[i];
        self.stats.general += 1;
        if at >= hay.len() {
            let sid = dfa
                .next_eoi_state(cache, self.sid[i])
                .map_err(|_| Cleared)?;
            if cache.clear_count() != self.clears {
                return Err(Cleared);
            }
            if sid.is_match() {
                self.end[i] = Some(hay.len());
            }
            return Ok(Some(self.end[i].map_or(Outcome::None, Outcome::End)));
        }
        let sid = dfa
            .next_state(cache, self.sid[i], hay[at])
            .map_err(|_| Cleared)?;
        if cache.clear_count() != self.clears {
            return Err(Cleared);
        }
        self.sid[i] = sid;
        if sid.is_tagged() {
            if sid.is_match() {
                self.end[i] = Some(at);
            } else if sid.is_dead() {
                return Ok(Some(self.end[i].map_or(Outcome::None, Outcome::End)));
            } else if sid.is_quit() {
                return Ok(Some(Outcome::Redo));
            }
        }
        self.at[i] = at + 1;
        if at + 1 - self.starts[self.slot[i]] >= LONG {
            return Ok(Some(Outcome::Redo));
        }
        Ok(None)
    }

    /// Records lane `i`'s outcome and gives it the next start, or retires it.
    fn finish(
        &mut self,
        cache: &mut Cache,
        i: usize,
        outcome: Outcome,
        out: &mut [Answer],
    ) -> Result<(), Cleared> {
        let slot = self.slot[i];
        out[slot] = Answer {
            outcome,
            scanned: self.at[i] - self.starts[slot],
            touched_end: self.at[i] + 1 >= self.hay.len(),
        };
        if !self.refill(cache, i)? {
            self.live -= 1;
            let last = self.live;
            self.sid.swap(i, last);
            self.at.swap(i, last);
            self.end.swap(i, last);
            self.slot.swap(i, last);
        }
        Ok(())
    }

    /// Steps every live lane once, the general way.
    fn slow_round(&mut self, cache: &mut Cache, out: &mut [Answer]) -> Result<(), Cleared> {
        let mut i = 0;
        while i < self.live {
            match self.step(cache, i)? {
                Some(outcome) => {
                    let before = self.live;
                    self.finish(cache, i, outcome, out)?;
                    // A retired lane's place holds the last live lane, not stepped yet.
                    if self.live == before {
                        i += 1;
                    }
                }
                None => i += 1,
            }
        }
        Ok(())
    }

    /// Steps each of the `K` live lanes once: lanes in tagged states (start, match), or
    /// all of them when a lane has no `room` left, take a general step; the others a
    /// plain lookup, or the general step when it would enter a tagged state. Lanes in
    /// untagged states keep walking while another crosses match states (the quick
    /// mobility test meets about 11 a line), instead of waiting for it.
    fn mixed_round(
        &mut self,
        cache: &mut Cache,
        room: usize,
        out: &mut [Answer],
    ) -> Result<(), Cleared> {
        // Backwards, so that a retired lane's place is taken by one already stepped.
        for i in (0..K).rev() {
            if room > 0 && !self.sid[i].is_tagged() {
                let next = self
                    .dfa
                    .next_state_untagged(cache, self.sid[i], self.hay[self.at[i]]);
                if !next.is_tagged() {
                    self.sid[i] = next;
                    self.at[i] += 1;
                    self.stats.plain += 1;
                    continue;
                }
            }
            if let Some(outcome) = self.step(cache, i)? {
                self.finish(cache, i, outcome, out)?;
            }
        }
        Ok(())
    }

    /// Steps the `K` live lanes: when some lane is in a tagged state (start, match), one
    /// mixed round ([`Lanes::mixed_round`]); when none is, all take plain transition
    /// lookups together, round after round, until one would enter a tagged state (it
    /// then takes the general step, the others their plain one) or a lane runs out of
    /// room.
    fn fast_rounds(&mut self, cache: &mut Cache, out: &mut [Answer]) -> Result<(), Cleared> {
        let mut room = usize::MAX;
        let mut tagged = false;
        for i in 0..K {
            let limit = self.hay.len().min(self.starts[self.slot[i]] + LONG - 1);
            room = room.min(limit.saturating_sub(self.at[i]));
            tagged |= self.sid[i].is_tagged();
        }
        if tagged || room == 0 {
            self.mixed_round(cache, room, out)?;
            return Ok(());
        }
        // The plain rounds run on copies of the lanes' states and a round count: the
        // lanes' fields stay out of the loop (each lane is at `base[i] + rounds`), and
        // each lane reads its own window of `room` bytes.
        let (dfa, base) = (self.dfa, self.at);
        let windows: [&[u8]; K] = std::array::from_fn(|i| &self.hay[base[i]..base[i] + room]);
        let mut sid = self.sid;
        let mut rounds = 0;
        let mut stopped = None;
        while rounds < room {
            let mut next = sid;
            let mut any = false;
            for i in 0..K {
                // SAFETY: `sid[i]` is an untagged state of `cache`, which no plain
                // lookup changes (the contract of `next_state_untagged_unchecked`).
                next[i] =
                    unsafe { dfa.next_state_untagged_unchecked(cache, sid[i], windows[i][rounds]) };
                any |= next[i].is_tagged();
            }
            if any {
                stopped = Some(next);
                break;
            }
            sid = next;
            rounds += 1;
        }
        self.sid = sid;
        for (at, base) in self.at.iter_mut().zip(base) {
            *at = base + rounds;
        }
        self.stats.plain += K * rounds;
        if let Some(next) = stopped {
            // A lane would enter a tagged state: it takes the general step, the others
            // their plain one.
            for i in (0..K).rev() {
                if !next[i].is_tagged() {
                    self.sid[i] = next[i];
                    self.at[i] += 1;
                    self.stats.plain += 1;
                } else if let Some(outcome) = self.step(cache, i)? {
                    self.finish(cache, i, outcome, out)?;
                }
            }
            return Ok(());
        }
        Ok(())
    }
}

/// Runs the anchored search at each of `starts` (positions of `hay`, in any order) and
/// writes their answers, in the same order, to `out` (cleared first). Returns how many
/// steps took the general path (see [`Stats`]).
pub fn search(
    dfa: &DFA,
    cache: &mut Cache,
    hay: &[u8],
    starts: &[usize],
    out: &mut Vec<Answer>,
) -> Stats {
    out.clear();
    out.resize(starts.len(), Answer::REDO);
    let mut lanes = Lanes::<LANES> {
        dfa,
        hay,
        starts,
        clears: cache.clear_count(),
        sid: [LazyStateID::default(); LANES],
        at: [0; LANES],
        end: [None; LANES],
        slot: [0; LANES],
        live: 0,
        next: 0,
        stats: Stats::default(),
    };
    // A cleared cache leaves the unfinished searches `Redo`.
    let _ = run(&mut lanes, cache, out);
    lanes.stats
}

fn run<const K: usize>(
    lanes: &mut Lanes<'_, K>,
    cache: &mut Cache,
    out: &mut [Answer],
) -> Result<(), Cleared> {
    while lanes.live < K && lanes.refill(cache, lanes.live)? {
        lanes.live += 1;
    }
    while lanes.live == K {
        lanes.fast_rounds(cache, out)?;
    }
    while lanes.live > 0 {
        lanes.slow_round(cache, out)?;
    }
    Ok(())
}

/// Candidates searched per batch by [`LockstepAnswers::fill`].
const BATCH: usize = 32;

/// Batches whose general steps outnumber their plain ones (walks that meet a tagged
/// state at nearly every byte, such as a tail of match states) turn lockstep off for the
/// pattern's next few rules: one search at a time is then faster. A stricter test does
/// not pay: turning it off at a smaller share of general steps made the kiwipete move
/// slower (PERF.md) because most such batches still gain.
/// Rules of the pattern searched one candidate at a time after a bad batch.
const OFF_RULES: u32 = 8;

/// The answers of a rule's next candidates, searched ahead in lockstep and handed out in
/// order (see `Compiled::find_at`). Valid for one text: cleared at each rule's start.
#[derive(Debug, Default)]
pub struct LockstepAnswers {
    starts: Vec<usize>,
    answers: Vec<Answer>,
    /// The next entry to hand out.
    pos: usize,
    /// The text the answers are for (its address and length), as a guard.
    text: (usize, usize),
    /// Rules left before lockstep is tried again.
    off: u32,
}

impl LockstepAnswers {
    /// Forgets the answers; call when a rule starts. Counts a rule of the pattern.
    pub fn begin_rule(&mut self) {
        self.starts.clear();
        self.answers.clear();
        self.pos = 0;
        self.off = self.off.saturating_sub(1);
    }

    /// Whether lockstep is on for the pattern's current rule.
    pub fn enabled(&self) -> bool {
        self.off == 0
    }

    /// The first candidate at or after `from` and its answer, if one was searched ahead
    /// (candidates before `from` are dropped).
    pub fn take(&mut self, hay: &[u8], from: usize) -> Option<(usize, Answer)> {
        if self.text != (hay.as_ptr() as usize, hay.len()) {
            self.starts.clear();
            self.answers.clear();
            self.pos = 0;
            return None;
        }
        while let Some(&start) = self.starts.get(self.pos) {
            self.pos += 1;
            if start >= from {
                return Some((start, self.answers[self.pos - 1]));
            }
        }
        None
    }

    /// Finds the next candidates from `from` (with `next_candidate`, which gives the
    /// first at or after a position) and has `search` answer them (it returns how its
    /// steps went, to turn lockstep off where it does not pay). Returns `false` when
    /// there is no candidate at all. With fewer candidates than lanes, their answers
    /// are `Redo` without a search.
    pub fn fill(
        &mut self,
        hay: &[u8],
        from: usize,
        mut next_candidate: impl FnMut(usize) -> Option<usize>,
        search: impl FnOnce(&[usize], &mut Vec<Answer>) -> Stats,
    ) -> bool {
        self.starts.clear();
        self.pos = 0;
        self.text = (hay.as_ptr() as usize, hay.len());
        let mut at = from;
        while self.starts.len() < BATCH
            && let Some(start) = next_candidate(at)
        {
            self.starts.push(start);
            at = start + 1;
        }
        if self.starts.len() < LANES {
            self.answers.clear();
            self.answers.resize(self.starts.len(), Answer::REDO);
        } else {
            let stats = search(&self.starts, &mut self.answers);
            debug_assert_eq!(self.answers.len(), self.starts.len());
            if stats.general > stats.plain && !always_on() {
                self.off = OFF_RULES;
            }
        }
        !self.starts.is_empty()
    }
}

/// Whether lockstep stays on however little it pays: only in this thread's tests that
/// ask for it, so that they exercise it on every rule.
fn always_on() -> bool {
    #[cfg(test)]
    return tests::ALWAYS.get();
    #[cfg(not(test))]
    false
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::cell::Cell;

    thread_local! {
        /// Keeps lockstep on for this thread's tests however little it pays, so that
        /// the executor tests exercise it on every rule.
        pub static ALWAYS: Cell<bool> = const { Cell::new(false) };
    }
    use crate::exec::Executor;
    use crate::exec::fast::generated::Rng;
    use crate::exec::fast::pattern::Compiled;
    use crate::exec::fast::syntax::{AsciiDfa, Direction, ascii_hir};
    use regex_automata::nfa::thompson;
    use regex_automata::util::prefilter::Prefilter;

    /// The forward lazy DFA as the executor builds it: ASCII-cut classes, quitting at
    /// non-ASCII bytes unless `ascii` (the exact form, for ASCII texts), tagged start
    /// states (with a prefilter) or not, a cache of `capacity` bytes (the least that
    /// works with 0).
    fn dfa(pattern: &str, prefilter: bool, capacity: usize, ascii: bool) -> DFA {
        let hir = regex_syntax::parse(pattern).unwrap();
        let nfa = thompson::Compiler::new()
            .build_from_hir(&ascii_hir(&hir))
            .unwrap();
        let pre = prefilter
            .then(|| Prefilter::from_hir_prefix(regex_automata::MatchKind::LeftmostFirst, &hir))
            .flatten();
        let config = DFA::config()
            .unicode_word_boundary(true)
            .cache_capacity(capacity)
            .skip_cache_capacity_check(true)
            .prefilter(pre);
        let dfas = AsciiDfa::new(nfa, config, Direction::Forward);
        dfas.get(ascii).unwrap().clone()
    }

    /// The answers at every char boundary of `hay` (overlapping starts, every lane
    /// position) against one search at a time; returns how many were `Redo`, which is
    /// only allowed where the single search gives up, reads `LONG` bytes or more, or
    /// (`clears_allowed`) the cache was cleared during the batch. On an ASCII `hay` the
    /// exact DFA is checked too, and must never redo more than the quitting one.
    fn agrees(pattern: &str, hay: &str, prefilter: bool, capacity: usize) -> usize {
        let quitting = agrees_with(pattern, hay, prefilter, capacity, false);
        if hay.is_ascii() {
            let exact = agrees_with(pattern, hay, prefilter, capacity, true);
            assert!(
                exact <= quitting || capacity < 1 << 16,
                "{pattern:?} on {hay:?}"
            );
        }
        quitting
    }

    fn agrees_with(
        pattern: &str,
        hay: &str,
        prefilter: bool,
        capacity: usize,
        ascii: bool,
    ) -> usize {
        let dfa = dfa(pattern, prefilter, capacity, ascii);
        let clears_allowed = capacity < 1 << 16;
        let mut cache = dfa.create_cache();
        let starts: Vec<usize> = (0..=hay.len())
            .filter(|&i| hay.is_char_boundary(i))
            .collect();
        let mut answers = Vec::new();
        let mut redo = 0;
        for batch in starts.chunks(BATCH) {
            let clears = cache.clear_count();
            search(&dfa, &mut cache, hay.as_bytes(), batch, &mut answers);
            let cleared = cache.clear_count() != clears;
            assert_eq!(answers.len(), batch.len());
            for (&s, answer) in batch.iter().zip(&answers) {
                let input = Input::new(hay).range(s..).anchored(Anchored::Yes);
                let (before, clears) = (cache.search_total_len(), cache.clear_count());
                let want = dfa.try_search_fwd(&mut cache, &input);
                // The count starts again when the cache is cleared.
                let read =
                    (cache.clear_count() == clears).then(|| cache.search_total_len() - before);
                let at = format!("{pattern:?} at {s} of {hay:?}");
                match (answer.outcome, want) {
                    (Outcome::Redo, want) => {
                        assert!(
                            want.is_err()
                                || read.is_none_or(|r| r >= LONG)
                                || (cleared && clears_allowed),
                            "needless redo: {at}"
                        );
                        redo += 1;
                        continue;
                    }
                    (Outcome::End(end), Ok(Some(m))) => assert_eq!(end, m.offset(), "{at}"),
                    (Outcome::None, Ok(None)) => {}
                    (got, want) => panic!("{got:?} against {want:?}: {at}"),
                }
                if let Some(read) = read {
                    assert_eq!(answer.scanned, read, "bytes read: {at}");
                }
            }
        }
        redo
    }

    const PATTERNS: &[&str] = &[
        "ab[^\n]*(?:x[^\n]{2}y|y[^\n]{2}x)",
        "a(?:b|bx)*",
        "a|ab",
        "(?:ab)+y?",
        "a[^\n]*",
        "a[^%]*",
        "(?m)a.*$",
        "a.*\\z",
        "\\ba\\w*\\b",
        "a(?:[^\n]{3}\\.)*[^\n]{3}[xy]",
        "b(?:a|é)x",
        // Many match states a line (the quick mobility test): lanes cross match states
        // while others walk plain ones.
        "q[^\n]*(?:n[^\n]{2}[.K]|[.K][^\n]{2}n|[rq][.K]|[.K][rq])",
    ];

    #[test]
    fn every_start_agrees() {
        let hays = [
            "",
            "a",
            "abab",
            "abxaay\nab ayyx\nabab\naaaa\nab.x..y",
            "ab ab ab ab ab ab ab ab ab ab ab ab ab ab ab ab ab ab ab ab ab",
            "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaabbbbbbbbbb%aaaaaa\n",
            "a...x...y...x%ab\nabé x\nbéx bax aé\nab xaby",
            "ab\nab\nab\nab\nab\nab\nab\nab\nab\nab\nab\nab\nab",
            "q.r.K.n..K.q\nq....\nqK.r.n.K..rq.\nq.K\nqq.Kn..n.Kr\nq.n..K.r.q..KK.\nqé.K",
        ];
        for pattern in PATTERNS {
            for hay in hays {
                for prefilter in [false, true] {
                    agrees(pattern, hay, prefilter, 1 << 20);
                }
            }
        }
    }

    #[test]
    fn non_ascii_bytes_are_redone_and_ascii_text_never() {
        assert!(agrees("a[^\n]*", "ab é\nab\nab\nab\nab\nab", true, 1 << 20) > 0);
        assert!(agrees("\\ba\\w*\\b", "aé ab ab ab ab ab ab ab", true, 1 << 20) > 0);
        assert_eq!(
            agrees("a[^\n]*", "ab e\nab\nab\nab\nab\nab", true, 1 << 20),
            0
        );
    }

    #[test]
    fn long_lanes_are_redone() {
        let hay = format!("{}\nab", "ab".repeat(700));
        assert!(agrees("a[^\n]*", &hay, false, 1 << 20) > 0);
        assert!(agrees("a[^\n]{0,2000}z", &hay, false, 1 << 20) > 0);
    }

    #[test]
    fn cleared_caches_leave_only_redos() {
        // The smallest cache: new states clear it again and again.
        let hay = "abxaay\nab ayyx\nabab\naaaa\nab.x..y ab ab ax..y a..y".repeat(4);
        for pattern in PATTERNS {
            agrees(pattern, &hay, true, 0);
        }
    }

    #[test]
    fn random_texts_agree() {
        let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
        let pieces = [
            "a", "b", "ab", "x", "y", ".", " ", "\n", "%", "é", "q", "n", "K", "r",
        ];
        for round in 0..300 {
            let len = rng.below(120);
            let hay: String = (0..len).map(|_| pieces[rng.below(pieces.len())]).collect();
            let pattern = PATTERNS[round % PATTERNS.len()];
            agrees(pattern, &hay, round % 2 == 0, 1 << 20);
        }
    }

    /// Rules whose candidates are searched ahead, on states with many threads: the fast
    /// executor against the reference.
    #[test]
    fn executors_agree_on_rules_searched_ahead() {
        let rules = [
            ("#b: [^\n]*(?:n[^\n]{2}K|K[^\n]{2}n)", "#b: hit"),
            ("#b: ([^\n]*)(?:q(?:[^\n]{3}\\.)*[^\n]{3}K)", "#b: ${1}Q"),
            ("#q: [^\n]*(?:a|b(?:[^\n]{2}\\.)*c)", "<$0>"),
            ("(?:#q|#b): [^\n]*(?:xx|y(?:[^\n]{2}\\.)*y)\n", "$0!"),
            // Candidates inside and at the last byte of matches.
            ("xa(?:\\.[^\n]{2})*[^\n]?x", "<$0>"),
            // `lines` patterns: one segment, two segments, a tail.
            // (Their repeats choose among many counts, so the linear search does not
            // come first.)
            (
                "(%%\n(?:[^%\n]*\n)*#b: )([^\n]{0,30}n[^\n]{2}K)",
                "${1}<$2>",
            ),
            (
                "(%%\n(?:[^%\n]*\n)*#q: [^\n]*b(?:[^\n]{2}\\.)*c\n(?:[^%\n]*\n)*#b: )",
                "$1!",
            ),
            ("(%%\n)((?:[^%\n]*\n)*#b: [^\n]{0,30}\n)([^%]*)", "$1$3$2"),
        ];
        for (pattern, _) in rules {
            assert!(Compiled::new(pattern).searches_ahead(false), "{pattern:?}");
            assert!(Compiled::new(pattern).searches_ahead(true), "{pattern:?}");
        }
        ALWAYS.set(true);
        let program = crate::program::Program::from_rules(
            rules
                .iter()
                .map(|(p, r)| crate::program::Rule::new(*p, *r))
                .collect(),
        )
        .validate()
        .unwrap();
        let fast = crate::exec::fast::Fast::new(program.clone());
        let reference = crate::exec::reference::Reference::new(program);
        let mut rng = Rng(7);
        let lines = [
            "#b: n..K.....",
            "#b: ..Kn",
            "#b: q...K",
            "#b: q....K",
            "#b: q...K...",
            "#q: abc",
            "#q: b...c",
            "#q: b..c",
            "#q: b...c",
            "#q: yy..y",
            "#q: xx",
            "#b: #b: n..K",
            "#q: é b..c",
            "#b: Kén..n",
        ];
        let fixed = "%%\nxaxaxaxa\nxa.xaxxa\n#b: n..K\n%%\n#q: b...c\n#b: x\n".repeat(20);
        assert_eq!(fast.run(&fixed), reference.run(&fixed));
        for round in 0..200 {
            let threads = 1 + rng.below(if round % 4 == 0 { 400 } else { 30 });
            let mut state = String::new();
            for _ in 0..threads {
                state.push_str("%%\n");
                for _ in 0..rng.below(4) {
                    state.push_str(lines[rng.below(lines.len())]);
                    state.push('\n');
                }
            }
            assert_eq!(fast.run(&state), reference.run(&state), "{state:?}");
        }
    }
}
