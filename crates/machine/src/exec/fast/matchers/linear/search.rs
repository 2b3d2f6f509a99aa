//! The depth-first search over a [`Linear`](super::Linear) pattern's atoms, in preference
//! order (see the parent module for why it is exact).
//!
//! Contract: [`Search::at`] says whether the atoms from an index match from a position
//! (to `end` when pinned, else anywhere, recording the end), leaving the most preferred
//! path's groups in the slots; it spends one budget step per atom and about one per eight
//! bytes scanned, and answers false once the budget is spent.
//!
//! Trade-offs: runs of atoms without a choice are stepped in a loop with a small undo log
//! (a stack array, no allocation), as are quick runs that can end only where they stop
//! (`([^\n]*)\n`); other repetitions, lines loops, alternation branches other than the
//! last viable one, and optional parts recurse, so the stack grows with the
//! number of choices on a path (bounded by the atoms, a few hundred at most).

use memchr::memmem;

use super::{Atom, NextBytes, QuickRun, Repeat, memchr_any, memrchr_any, scan_cost};

/// How many occurrences of the literal after a lines loop one scan keeps.
const FOUND: usize = 8;

/// How many group marks one call of [`Search::at`] sets before it recurses to set more.
pub(super) const UNDO: usize = 32;

/// Whether `text` is `lit` (short literals compare byte by byte, without a call).
#[inline]
pub(super) fn same(text: &[u8], lit: &[u8]) -> bool {
    if lit.len() <= 16 {
        text.len() == lit.len() && text.iter().zip(lit).all(|(a, b)| a == b)
    } else {
        text == lit
    }
}

/// One search: the atoms, the text, and what the search has found and spent so far.
pub(super) struct Search<'a, 's> {
    pub(super) atoms: &'a [Atom],
    pub(super) hay: &'a str,
    /// The right edge of the text the atoms may consume; once an unpinned search
    /// succeeds, where the match ended.
    pub(super) end: usize,
    /// Whether a match must end exactly at `end` (group resolution on a known span).
    pub(super) pinned: bool,
    /// Set when the answer could differ if the text went on past `end` with a `%` (the
    /// thread-segmented state cuts the text before a `%`, and uses this to detect a match
    /// that might cross into the next thread). A run that would stop at `%` anyway, or a
    /// literal or class that would not accept it, leaves it unset.
    pub(super) touched_end: bool,
    pub(super) budget: usize,
    pub(super) slots: &'s mut [Option<usize>],
}

impl Search<'_, '_> {
    /// The start of the char that ends at `q` (a char boundary after `lowest`), giving a
    /// run one char back; `None` when no char of `hay[lowest..q]` ends there.
    fn char_before(&self, lowest: usize, q: usize) -> Option<usize> {
        if self.hay.as_bytes()[q - 1] < 128 {
            return Some(q - 1);
        }
        let c = self.hay[lowest..q].chars().next_back()?;
        Some(q - c.len_utf8())
    }

    /// Gives a quick run back to the places `find` reports in `hay[lowest..high]`, last
    /// first, trying atom `i + 1` at each; the next search ends `overlap` bytes after a
    /// failed place (a literal may overlap itself). False when no place is left or the
    /// budget ran out.
    fn give_back_to(
        &mut self,
        i: usize,
        lowest: usize,
        mut high: usize,
        overlap: usize,
        find: impl Fn(&[u8]) -> Option<usize>,
    ) -> bool {
        let bytes = self.hay.as_bytes();
        while high > lowest {
            let Some(k) = find(&bytes[lowest..high]) else {
                return false;
            };
            let q = lowest + k;
            if self.at(i + 1, q) {
                return true;
            }
            if self.budget == 0 {
                return false;
            }
            high = q + overlap;
        }
        false
    }

    /// The longest run of a quick run at `pos`, its scan charged to the budget: where it
    /// ends and the lowest place it may give back to; `None` when the budget ran out or
    /// the run is empty where it needs a char.
    fn quick_run(&mut self, quick: &QuickRun, min: u32, pos: usize) -> Option<(usize, usize)> {
        let run_end = quick.run_end(self.hay.as_bytes(), pos, self.end);
        self.touched_end |= run_end == self.end && !quick.stops.contains(&b'%');
        let cost = scan_cost(run_end - pos);
        if self.budget <= cost {
            self.budget = 0;
            return None;
        }
        self.budget -= cost;
        let lowest = if min == 1 {
            pos + self.hay[pos..run_end].chars().next()?.len_utf8()
        } else {
            pos
        };
        Some((run_end, lowest))
    }

    /// A quick run at `pos` followed by a literal that starts with one of its stop bytes
    /// (`([^\n]*)\n`), which the run holds nowhere: only at the run's end can the
    /// literal start, so there is no choice to take back. Where the run ends, or `None`
    /// when the rest cannot match (as [`Search::quick`] would answer).
    fn forced_run(
        &mut self,
        quick: &QuickRun,
        needle: &[u8],
        min: u32,
        pos: usize,
    ) -> Option<usize> {
        let (run_end, _) = self.quick_run(quick, min, pos)?;
        // An occurrence of the literal that starts in the run but ends past `end` is
        // invisible here; it would have to hold the `%` that follows `end`.
        self.touched_end |= run_end + needle.len() > self.end && needle.contains(&b'%');
        (run_end + needle.len() <= self.end).then_some(run_end)
    }

    /// Atom `i` is a quick run at `pos`: try the places it can stop, longest first.
    fn quick(
        &mut self,
        quick: &QuickRun,
        min: u32,
        next: &NextBytes,
        i: usize,
        pos: usize,
    ) -> bool {
        let bytes = self.hay.as_bytes();
        let Some((run_end, lowest)) = self.quick_run(quick, min, pos) else {
            return false;
        };
        match &quick.next_literal {
            Some(lit) => {
                // An occurrence of the literal that starts in the run but ends past `end`
                // is invisible here; it would have to hold the `%` that follows `end`.
                self.touched_end |=
                    run_end + lit.needle().len() > self.end && lit.needle().contains(&b'%');
                let len = lit.needle().len();
                if quick.forced().is_some() {
                    // The literal starts with a stop byte (`([^\n]*)\n`), which the run
                    // holds nowhere: only at `run_end` can the literal start.
                    return run_end + len <= self.end && self.at(i + 1, run_end);
                }
                let high = (run_end + len).min(self.end);
                self.give_back_to(i, lowest, high, len - 1, |window| lit.rfind(window))
            }
            None if quick.next_bytes.is_some() => {
                // Only places followed by a byte of the next class can go on; the byte
                // at `run_end` itself (a stop byte, or past `end`) may be one.
                let next = quick.next_bytes.as_deref().unwrap_or_default();
                if run_end == self.end {
                    self.touched_end |= next.contains(&b'%');
                }
                // The run may also end at `lowest` with the class failing there; only a
                // class byte at `lowest` can go on, and the search below tries it.
                let high = (run_end + 1).min(self.end);
                self.give_back_to(i, lowest, high, 0, |window| memrchr_any(next, window))
            }
            None => {
                let mut q = run_end;
                loop {
                    // As in the counted loop: skip places the next atom cannot start at.
                    if next.admits(bytes, q, self.end) && self.at(i + 1, q) {
                        return true;
                    }
                    if q <= lowest {
                        return false;
                    }
                    let Some(back) = self.char_before(lowest, q) else {
                        return false;
                    };
                    q = back;
                }
            }
        }
    }

    /// Atom `i` is a lines loop at `pos`: try its ends, farthest first.
    fn lines(
        &mut self,
        stops: &[u8],
        next_literal: Option<&memmem::Finder<'static>>,
        i: usize,
        pos: usize,
    ) -> bool {
        let bytes = self.hay.as_bytes();
        let h = &bytes[pos..self.end];
        let found = match *stops {
            [] => None,
            [a] => memchr::memchr(a, h),
            [a, b] => memchr::memchr2(a, b, h),
            [a, b, c] => memchr::memchr3(a, b, c, h),
            _ => unreachable!("at most two stop bytes besides the newline"),
        };
        let stop = found.map_or(self.end, |k| pos + k);
        self.touched_end |= stop == self.end && !stops.contains(&b'%');
        let cost = scan_cost(stop - pos);
        if self.budget <= cost {
            self.budget = 0;
            return false;
        }
        self.budget -= cost;
        if let Some(lit) = next_literal {
            // The ends followed by the literal, farthest first: its occurrences that start
            // at `pos` or after a `\n`, no later than `stop`, found forwards (memmem is
            // vectorised that way) and tried backwards. One cut off by `end` would have
            // to hold the `%` that may follow. The last `FOUND` occurrences are kept; when
            // there were more and all those fail, the text before them is searched again.
            let needle = lit.needle();
            let len = needle.len();
            self.touched_end |= stop + len > self.end && needle.contains(&b'%');
            let mut limit = (stop + len).min(self.end);
            loop {
                let window = &bytes[pos..limit];
                let mut found = [0usize; FOUND];
                let (mut count, mut from) = (0, 0);
                while let Some(k) = lit.find(&window[from..]) {
                    let q = pos + from + k;
                    if q <= stop && (q == pos || bytes[q - 1] == b'\n') {
                        found[count % FOUND] = q;
                        count += 1;
                    }
                    from += k + 1;
                }
                for back in 1..=count.min(FOUND) {
                    let q = found[(count - back) % FOUND];
                    if self.at(i + 1, q) {
                        return true;
                    }
                    if self.budget == 0 {
                        return false;
                    }
                }
                if count <= FOUND {
                    return false;
                }
                // Occurrences starting before the earliest one tried.
                let earliest = found[(count - FOUND) % FOUND];
                limit = earliest + len - 1;
                let cost = scan_cost(limit - pos);
                if self.budget <= cost {
                    self.budget = 0;
                    return false;
                }
                self.budget -= cost;
            }
        }
        let mut high = stop;
        while let Some(k) = memchr::memrchr(b'\n', &bytes[pos..high]) {
            if self.at(i + 1, pos + k + 1) {
                return true;
            }
            if self.budget == 0 {
                return false;
            }
            high = pos + k;
        }
        self.at(i + 1, pos)
    }

    /// Whether atoms `i..` match `hay[pos..end]` exactly, following the most preferred
    /// path; on success the slots hold that path's groups, on failure they are as before.
    ///
    /// Atoms without a choice (literals, classes, group marks, jumps) are stepped through
    /// in a loop, as is the last choice an alternation or optional part has left; only the
    /// choices that may be taken back recurse. The group marks of the loop are undone on
    /// failure by setting them to `None`: each slot belongs to one atom and the path only
    /// goes forwards, so the path had not set it before (see
    /// [`Linear::new`](super::Linear::new)).
    pub(super) fn at(&mut self, mut i: usize, mut pos: usize) -> bool {
        let mut written = [0u16; UNDO];
        let mut n = 0;
        let found = 'run: loop {
            if self.budget == 0 {
                break false;
            }
            self.budget -= 1;
            let Some(atom) = self.atoms.get(i) else {
                if self.pinned {
                    break pos == self.end;
                }
                self.end = pos;
                break true;
            };
            match atom {
                Atom::Literal(lit) => {
                    let after = pos + lit.len();
                    let bytes = self.hay.as_bytes();
                    if after > self.end {
                        let available = &bytes[pos..self.end];
                        self.touched_end |=
                            lit.starts_with(available) && lit[available.len()] == b'%';
                        break false;
                    }
                    if !same(&bytes[pos..after], lit) {
                        break false;
                    }
                    (i, pos) = (i + 1, after);
                }
                Atom::Class(class) => {
                    if pos >= self.end {
                        self.touched_end |= class.has_percent();
                        break false;
                    }
                    match class.step(self.hay, pos) {
                        Some(len) => (i, pos) = (i + 1, pos + len),
                        None => break false,
                    }
                }
                Atom::Open(g) | Atom::Close(g) => {
                    if n == UNDO {
                        break self.at(i, pos);
                    }
                    let slot = 2 * g + usize::from(matches!(atom, Atom::Close(_)));
                    self.slots[slot] = Some(pos);
                    written[n] = slot as u16;
                    n += 1;
                    i += 1;
                }
                Atom::Span(span) => {
                    // One step charged above, the rest here.
                    if self.budget < span.count - 1 {
                        self.budget = 0;
                        break false;
                    }
                    self.budget -= span.count - 1;
                    let after = pos + span.len;
                    let bytes = self.hay.as_bytes();
                    if after > self.end {
                        self.touched_end |= span.touches_end(&bytes[pos..self.end]);
                        break false;
                    }
                    if !span.matches(&bytes[pos..after]) {
                        break false;
                    }
                    if n + span.marks.len() > UNDO {
                        // At most `UNDO` marks a span: a fresh call takes them all.
                        break self.at(i, pos);
                    }
                    for &(slot, offset) in &span.marks {
                        self.slots[usize::from(slot)] = Some(pos + offset as usize);
                        written[n] = slot;
                        n += 1;
                    }
                    (i, pos) = (i + span.count, after);
                }
                Atom::Jump(offset) => i += offset,
                Atom::Skip { len, greedy } => {
                    let (first, second) = if *greedy {
                        (i + 1, i + 1 + len)
                    } else {
                        (i + 1 + len, i + 1)
                    };
                    if self.at(first, pos) {
                        break true;
                    }
                    i = second;
                }
                Atom::Alt { branches } => {
                    let (bytes, end) = (self.hay.as_bytes(), self.end);
                    // An ASCII byte at hand rules out most branches by their first mask.
                    let byte = bytes.get(pos).copied().filter(|&b| pos < end && b < 128);
                    let viable = |k: usize| {
                        byte.is_none_or(|b| branches.firsts[k] >> b & 1 == 1)
                            && branches.paths[k].admits(bytes, pos, end)
                    };
                    let count = branches.offsets.len();
                    let mut next = (0..count).find(|&k| viable(k));
                    loop {
                        let Some(k) = next else {
                            break 'run false;
                        };
                        next = (k + 1..count).find(|&later| viable(later));
                        let start = i + branches.offsets[k];
                        if next.is_none() {
                            // The last branch that may match: its answer is the answer.
                            i = start;
                            continue 'run;
                        }
                        if self.at(start, pos) {
                            break 'run true;
                        }
                        if self.budget == 0 {
                            break 'run false;
                        }
                    }
                }
                Atom::Repeat(repeat) => {
                    if let Some(quick) = &repeat.quick
                        && let Some(needle) = quick.forced()
                    {
                        // No choice to take back: step on in this loop, not a call.
                        match self.forced_run(quick, needle, repeat.min, pos) {
                            Some(run_end) => (i, pos) = (i + 1, run_end),
                            None => break false,
                        }
                        continue;
                    }
                    break match &repeat.quick {
                        Some(quick) => self.quick(quick, repeat.min, &repeat.next, i, pos),
                        None => self.repeat(repeat, i, pos),
                    };
                }
                Atom::Lines(lines) => {
                    break self.lines(&lines.stops, lines.next_literal.as_ref(), i, pos);
                }
            }
        };
        if !found {
            for &slot in &written[..n] {
                self.slots[usize::from(slot)] = None;
            }
        }
        found
    }

    /// Atom `i` is a repetition without a quick run at `pos`.
    fn repeat(&mut self, repeat: &Repeat, i: usize, pos: usize) -> bool {
        let Repeat {
            class,
            min,
            max,
            greedy,
            next,
            stops,
            table,
            ..
        } = repeat;
        let (min, max) = (*min as usize, max.map_or(usize::MAX, |m| m as usize));
        let bytes = self.hay.as_bytes();
        if *greedy {
            // Run as far as the class and `max` allow, then give back one char at
            // a time.
            let (mut steps, mut q) = (0, pos);
            // Bounded, with few stops (see `Repeat::stops`): the run ends at the first stop
            // in a window of `max` bytes, which holds `max` chars if it is ASCII up to there.
            let window = &bytes[pos..self.end.min(pos.saturating_add(max))];
            let ascii_run = stops
                .as_deref()
                .map(|stops| memchr_any(stops, window).unwrap_or(window.len()))
                .filter(|&run| window[..run].is_ascii())
                .or_else(|| {
                    // An ASCII-only class (see `Repeat::table`): one byte a char.
                    let table = table.as_deref()?;
                    let run = window.iter().position(|&b| !table[usize::from(b)]);
                    Some(run.unwrap_or(window.len()))
                });
            if let Some(run) = ascii_run {
                (steps, q) = (run, pos + run);
            }
            while ascii_run.is_none() && steps < max && q < self.end {
                let b = bytes[q];
                let len = if b < 128 {
                    if class.ascii >> b & 1 == 0 {
                        break;
                    }
                    1
                } else {
                    match class.step(self.hay, q) {
                        Some(len) => len,
                        None => break,
                    }
                };
                steps += 1;
                q += len;
            }
            self.touched_end |= q == self.end && steps < max && class.has_percent();
            if self.budget <= steps {
                // Out of budget: every later step fails too, so the whole
                // search reports failure rather than a less preferred path.
                self.budget = 0;
                return false;
            }
            self.budget -= steps;
            loop {
                if steps < min {
                    return false;
                }
                // A place where the next atom cannot start is not tried (at the
                // end the next atom runs, to note whether it touched the end).
                if next.admits(bytes, q, self.end) && self.at(i + 1, q) {
                    return true;
                }
                if q == pos {
                    return false;
                }
                let Some(back) = self.char_before(pos, q) else {
                    return false;
                };
                q = back;
                steps -= 1;
            }
        } else {
            let mut steps = 0;
            let mut q = pos;
            loop {
                if steps >= min && self.at(i + 1, q) {
                    return true;
                }
                if steps == max {
                    return false;
                }
                if q >= self.end {
                    self.touched_end |= class.has_percent();
                    return false;
                }
                match class.step(self.hay, q) {
                    Some(len) => {
                        steps += 1;
                        q += len;
                    }
                    None => return false,
                }
            }
        }
    }
}
