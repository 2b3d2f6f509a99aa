//! The search of a compiled pattern: where the leftmost-first match from a position is,
//! by the pattern's `Strategy`, with the rule-level choice between anchored and
//! unanchored search kept in the [`Cache`].
//!
//! Contract: [`Compiled::find_at`] returns exactly the match `regex` reports for a search
//! of the whole text starting at `at`.
//!
//! Trade-offs: anchored search per candidate is cheap when candidates match; when they
//! rarely do on large texts, or failed candidates add up to several scans of the text,
//! the rest of the rule runs unanchored (linear in the text). Only the cost differs.

use super::*;

impl Compiled {
    /// Resets the per-rule bookkeeping of `cache`; call before each rule's first search
    /// of a text of `hay_len` bytes.
    ///
    /// Choosing the search: an anchored search per candidate pays a set-up and a scan of
    /// the candidate's thread even when the thread does not match; the unanchored
    /// search scans the text once with a DFA and finds groups only on the matches. When
    /// earlier rules of this pattern on large texts matched at fewer than one candidate
    /// in 32, the rule starts unanchored (every fourth such rule still runs anchored to
    /// measure the rate again), unless the last anchored rule's failed candidates cost
    /// less than half a scan of the text (linear and `lines` searches jump to the one
    /// line they test, so a miss is cheap). Both give `regex`'s matches; only the cost
    /// differs.
    pub fn begin_rule(&self, cache: &mut Cache, hay_len: usize) {
        cache.stop = None;
        if let Some(len) = cache.measuring.take() {
            cache.cheap_failures = cache.failed_work.saturating_mul(2) < len;
        }
        cache.failed_work = 0;
        cache.touched_end = false;
        cache.groups_for = None;
        cache.unanchored = false;
        cache.ahead.begin_rule();
        let measured = match &self.strategy {
            Strategy::Anchored(Candidate::Literal(_)) | Strategy::Never | Strategy::Unanchored => {
                false
            }
            Strategy::Anchored(_) => true,
        };
        if hay_len >= LARGE_TEXT && measured {
            cache.large_rules = cache.large_rules.wrapping_add(1);
            let sparse = cache.tried >= 64 && cache.hits.saturating_mul(32) < cache.tried;
            cache.unanchored =
                sparse && !cache.cheap_failures && !cache.large_rules.is_multiple_of(4);
            if !cache.unanchored {
                cache.tried /= 2;
                cache.hits /= 2;
                cache.measuring = Some(hay_len);
            }
        }
        cache.dfa_ahead = self.sparse_ahead(cache);
        cache.unanchored &= !cache.dfa_ahead;
    }

    /// [`Compiled::begin_rule`] for a search of the matches of a splittable pattern that
    /// start before `stop` only: candidates from `stop` on are not searched (a search
    /// then reports no match), and every candidate is searched anchored, so that no
    /// search runs on far past `stop`.
    pub fn begin_stretch(&self, cache: &mut Cache, hay_len: usize, stop: usize) {
        self.begin_rule(cache, hay_len);
        cache.stop = Some(stop);
        cache.unanchored = false;
        cache.dfa_ahead = false;
    }

    /// Whether a rule that would run unanchored (its candidates rarely match) searches
    /// its candidates ahead with the lazy DFA instead: for linear patterns, whose
    /// candidates otherwise take the linear search one at a time. Both read about the
    /// same bytes (the candidates' lines, which is all a machine rule's match can span);
    /// the walks of four candidates interleaved overlap their loads, where the
    /// unanchored DFA walks one chain (the quick mobility tests `#_q: bF([^\n]*[RQ]\.*)...`
    /// on kiwipete's wide state: 2,059 lines, no match). The failed-work guard still
    /// sends a rule whose candidates rescan the text unanchored.
    pub(super) fn sparse_ahead(&self, cache: &Cache) -> bool {
        cache.unanchored
            && cache.ahead.enabled()
            && self.linear.is_some()
            && !self.searches_ahead(cache.ascii)
            && self.dfa().and_then(|d| d.get(cache.ascii)).is_some()
    }

    /// The first match when searching `hay` from `at` (a char boundary, `at <= hay.len()`),
    /// or `None`. Whether the state even contains a required literal is checked first, by
    /// the caller, with [`Compiled::first_possible`]. `starts`, when given, is the index of
    /// `hay`'s `%` bytes.
    pub fn find_at(
        &self,
        cache: &mut Cache,
        hay: &str,
        at: usize,
        starts: Option<&Starts>,
    ) -> Option<(usize, usize)> {
        match self.strategy {
            Strategy::Never => return None,
            Strategy::Unanchored => return self.find_unanchored(cache, hay, at),
            Strategy::Anchored(_) => {}
        }
        // A sparse rule whose lockstep turned itself off runs unanchored after all.
        cache.unanchored |= cache.dfa_ahead && !cache.ahead.enabled();
        if cache.ahead.enabled() && (cache.dfa_ahead || self.searches_ahead(cache.ascii)) {
            return self.find_ahead(cache, hay, at, starts);
        }
        let bytes = hay.as_bytes();
        let mut from = at;
        let stop = cache.stop.unwrap_or(usize::MAX);
        while let Some(start) = self
            .next_candidate(bytes, from, starts, &mut cache.start_hint)
            .filter(|&start| start < stop)
        {
            if cache.unanchored {
                return self.find_unanchored(cache, hay, start);
            }
            let counted = hay.len() >= LARGE_TEXT;
            cache.tried += u32::from(counted);
            if let Some(end) = self.anchored_end(cache, hay, start) {
                cache.hits += u32::from(counted);
                return Some((start, end));
            }
            from = start + 1;
        }
        None
    }

    /// Whether candidates are searched ahead in lockstep: by the `lines` search, or by
    /// the lazy DFA when no other search comes first (and it builds; in its exact form
    /// when `ascii`, see [`Cache::set_ascii`]).
    pub(in crate::exec::fast) fn searches_ahead(&self, ascii: bool) -> bool {
        match self.strategy {
            Strategy::Anchored(Candidate::Lines { .. }) => true,
            Strategy::Anchored(Candidate::Dfa) => self.dfa().and_then(|d| d.get(ascii)).is_some(),
            _ => false,
        }
    }

    /// The `lines` form, when the pattern's candidates are searched with it.
    pub(super) fn lines(&self) -> Option<&Lines> {
        match &self.strategy {
            Strategy::Anchored(Candidate::Lines { lines, .. }) => Some(lines),
            _ => None,
        }
    }

    /// [`Compiled::find_at`] for patterns whose candidates the lazy DFA decides: the
    /// candidates are searched ahead in batches, several in lockstep (see
    /// [`crate::exec::fast::lockstep`]), and their answers taken in order. An anchored search's
    /// answer depends only on the text and its start, so answers of candidates after a
    /// match stay right; those inside a match are dropped. Undecided answers (`Redo`)
    /// take the one-at-a-time search.
    pub(super) fn find_ahead(
        &self,
        cache: &mut Cache,
        hay: &str,
        at: usize,
        starts: Option<&Starts>,
    ) -> Option<(usize, usize)> {
        let bytes = hay.as_bytes();
        let mut from = at;
        loop {
            let Some((start, answer)) = cache.ahead.take(bytes, from) else {
                let hint = &mut cache.start_hint;
                let stop = cache.stop.unwrap_or(usize::MAX);
                let next = |i| {
                    self.next_candidate(bytes, i, starts, hint)
                        .filter(|&start| start < stop)
                };
                let ascii = cache.ascii;
                // The pattern's own DFA only when there is no `lines` form: building it
                // for a pattern that has one (compiling its parse) cost a fresh process
                // more than the `lines` searches themselves.
                let filled = match self.lines() {
                    Some(lines) => {
                        let lcache = cache.lines.get_or_insert_with(|| lines.create_cache(ascii));
                        cache.ahead.fill(bytes, from, next, |starts, out| {
                            lines.search_ahead(lcache, hay, starts, out)
                        })
                    }
                    None => {
                        // `searches_ahead` rules out a DFA that does not build.
                        let dfa = self.dfa().and_then(|d| d.get(ascii))?;
                        let dcache = cache.dfa.get_or_insert_with(|| dfa.create_cache());
                        cache.ahead.fill(bytes, from, next, |starts, out| {
                            lockstep::search(dfa, dcache, bytes, starts, out)
                        })
                    }
                };
                if !filled {
                    return None;
                }
                continue;
            };
            if cache.unanchored {
                return self.find_unanchored(cache, hay, start);
            }
            let counted = hay.len() >= LARGE_TEXT;
            cache.tried += u32::from(counted);
            cache.groups_for = None;
            let end = match answer.outcome {
                Outcome::End(end) => {
                    cache.touched_end |= answer.touched_end;
                    Some(end)
                }
                Outcome::None => {
                    cache.touched_end |= answer.touched_end;
                    self.note_failure(cache, hay, answer.scanned);
                    None
                }
                Outcome::Redo => self.anchored_end(cache, hay, start),
            };
            if let Some(end) = end {
                cache.hits += u32::from(counted);
                return Some((start, end));
            }
            from = start + 1;
        }
    }

    /// Whether a search since [`Compiled::begin_rule`] looked at or past the end of the
    /// text (conservatively: general-engine searches always count).
    pub fn touched_end(cache: &Cache) -> bool {
        cache.touched_end
    }

    /// The general search from `at`, as `regex` itself searches: the unanchored lazy
    /// DFAs, else `meta::Regex`.
    pub(super) fn find_unanchored(
        &self,
        cache: &mut Cache,
        hay: &str,
        at: usize,
    ) -> Option<(usize, usize)> {
        cache.groups_for = None;
        cache.touched_end = true;
        let input = Input::new(hay).range(at..);
        if let Ok(found) = self.lazy_search(cache, &input) {
            return found;
        }
        let meta = self.meta();
        let mcache = cache.meta.get_or_insert_with(|| meta.create_cache());
        let m = meta.search_with(mcache, &input)?;
        Some((m.start(), m.end()))
    }

    /// Anchored search at `start`: the linear search when the pattern is linear (it also
    /// fills the groups), else (or when it gives up) the lazy DFA.
    pub(super) fn anchored_end(&self, cache: &mut Cache, hay: &str, start: usize) -> Option<usize> {
        cache.groups_for = None;
        let linear_search = match &self.strategy {
            Strategy::Anchored(Candidate::Literal(literal)) => {
                // A literal cut off by the end of the text might go on past it.
                cache.touched_end |= start + literal.len() > hay.len();
                return hay.as_bytes()[start..]
                    .starts_with(literal)
                    .then_some(start + literal.len());
            }
            Strategy::Anchored(Candidate::Lines { then_linear, .. }) => *then_linear,
            Strategy::Anchored(Candidate::Linear) => true,
            _ => false,
        };
        if let Some(lines) = self.lines() {
            let ascii = cache.ascii;
            let lcache = cache.lines.get_or_insert_with(|| lines.create_cache(ascii));
            let mut effort = lines::Effort::default();
            let found = lines.find_at(lcache, hay, start, &mut effort);
            cache.touched_end |= effort.touched_end;
            match found {
                lines::Found::End(end) => return Some(end),
                lines::Found::None => {
                    self.note_failure(cache, hay, effort.scanned);
                    return None;
                }
                lines::Found::GaveUp => {}
            }
        }
        if let Some(linear) = self.linear.as_ref().filter(|_| linear_search) {
            // `find_end` clears the slots itself; they only need the right length.
            cache.groups.resize(self.slot_len, None);
            let mut work = 0;
            let found = linear.find_end(
                hay,
                start,
                &mut cache.groups,
                &mut work,
                &mut cache.touched_end,
            );
            match found {
                Ok(Some(end)) => {
                    cache.groups_for = Some((start, end));
                    return Some(end);
                }
                Ok(None) => {
                    // Failed candidates normally cost a few steps each (a thread each).
                    // When they add up to several scans of the whole state, candidates
                    // are rescanning the same text: finish the rule unanchored.
                    // One step scans about eight bytes.
                    self.note_failure(cache, hay, 8 * work);
                    return None;
                }
                Err(()) => {}
            }
        }
        let input = Input::new(hay).range(start..).anchored(Anchored::Yes);
        let Some(dfa) = self.dfa().and_then(|d| d.get(cache.ascii)) else {
            cache.touched_end = true;
            let meta = self.meta();
            let mcache = cache.meta.get_or_insert_with(|| meta.create_cache());
            return meta.search_with(mcache, &input).map(|m| m.end());
        };
        let dcache = cache.dfa.get_or_insert_with(|| dfa.create_cache());
        let before = dcache.search_total_len();
        let result = dfa.try_search_fwd(dcache, &input);
        // The lazy DFA counts the bytes it searched (from zero again if its cache was
        // cleared during this search).
        let after = dcache.search_total_len();
        let scanned = after.checked_sub(before).unwrap_or(after);
        // A search that stopped within a byte of the end may have needed what follows.
        cache.touched_end |= start + scanned + 1 >= hay.len() || after < before;
        match result {
            Ok(Some(hm)) => Some(hm.offset()),
            Ok(None) => {
                self.note_failure(cache, hay, scanned);
                None
            }
            Err(_) => {
                cache.touched_end = true;
                let meta = self.meta();
                let mcache = cache.meta.get_or_insert_with(|| meta.create_cache());
                meta.search_with(mcache, &input).map(|m| m.end())
            }
        }
    }

    /// Counts `scanned` bytes spent on a failed candidate; once failures add up to several
    /// scans of the whole state, candidates are rescanning the same text, and the rest of
    /// the rule is searched unanchored.
    pub(super) fn note_failure(&self, cache: &mut Cache, hay: &str, scanned: usize) {
        cache.failed_work += scanned;
        if cache.failed_work > 4 * hay.len() + 32 * 1024 && cache.stop.is_none() {
            cache.unanchored = true;
        }
    }
}
