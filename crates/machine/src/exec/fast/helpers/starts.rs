//! An index of every `%` in the state, kept up to date by the rewrite pass, so that rules
//! whose matches start with a `%`-literal find their candidates without scanning.
//!
//! Contract: a [`Starts`] built by [`Starts::rebuild`] or carried through [`Follow`] holds
//! exactly the offsets of the `%` bytes of its text, in increasing order, and
//! [`Starts::next_candidate`] returns exactly what `memmem` returns for a needle that
//! starts with `%`: the first occurrence at or after a position.
//!
//! Why every `%` and not only thread starts (a `%` at offset 0 or after a `\n`): the
//! index then depends on no neighbouring byte, so a rewrite keeps it with no re-check at
//! span edges, and a needle's occurrence in the middle of a line is still found. In the
//! machine's states `%` appears only at thread starts, so both are the same size: one
//! entry per thread (about 2,000 on the widest moves), against 750 KB of text.
//!
//! Trade-offs: a rule that changes the state pays a pass over the old offsets and a
//! `memchr` over each replacement to keep the index; a rule whose prefix starts with `%`
//! then pays a binary search and a comparison per thread instead of one `memmem` call per
//! candidate (call overhead dominates those: the scans are short). The executor builds
//! the index lazily, only on large states (`Fast::index_starts`), and drops it whenever
//! a path that does not maintain it changes the state.
//!
//! Layer 1: uses nothing else of the executor.

/// The offsets of every `%` in one text, in increasing order.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Starts {
    at: Vec<usize>,
}

impl Starts {
    /// The index of `text`, by one scan.
    #[cfg(any(test, fuzzing))]
    pub fn build(text: &[u8]) -> Starts {
        let mut starts = Starts::default();
        starts.rebuild(text);
        starts
    }

    /// Empties the index, keeping its allocation.
    pub fn clear(&mut self) {
        self.at.clear();
    }

    /// Makes this the index of `text`, reusing its allocation.
    pub fn rebuild(&mut self, text: &[u8]) {
        self.at.clear();
        self.at.extend(memchr::memchr_iter(b'%', text));
    }

    /// Appends the offsets of `whole`'s `%` bytes in `range`, moved so that `range.start`
    /// lands at `at` (the index of a text holding `whole`'s text `range` at `at`).
    pub fn extend_slice(&mut self, whole: &Starts, range: std::ops::Range<usize>, at: usize) {
        let from = whole.at.partition_point(|&p| p < range.start);
        let to = from + whole.at[from..].partition_point(|&p| p < range.end);
        self.at
            .extend(whole.at[from..to].iter().map(|&p| p - range.start + at));
    }

    /// Appends `part`'s offsets moved by `at` (the index of a text holding `part`'s text
    /// at `at`).
    pub fn extend_shifted(&mut self, part: &Starts, at: usize) {
        self.at.extend(part.at.iter().map(|&p| p + at));
    }

    /// Appends the offsets of `text`'s `%` bytes moved by `at`, by one scan.
    pub fn extend_scan(&mut self, text: &[u8], at: usize) {
        self.at
            .extend(memchr::memchr_iter(b'%', text).map(|p| p + at));
    }

    /// The offsets, in increasing order.
    #[cfg(test)]
    pub fn offsets(&self) -> &[usize] {
        &self.at
    }

    /// The first occurrence of `needle` in `hay` (the text this indexes) at or after
    /// `from`, if any.
    ///
    /// `hint` speeds up searches from increasing positions: it is where the walk may
    /// start when every offset before it is below `from` (else a binary search finds
    /// where), and is left just past the offset returned. Any value is correct.
    #[inline]
    pub fn next_candidate(
        &self,
        hay: &[u8],
        needle: &Needle,
        from: usize,
        hint: &mut usize,
    ) -> Option<usize> {
        let at = &self.at;
        let below = |i: usize| i == 0 || at.get(i - 1).is_some_and(|&p| p < from);
        let mut i = if *hint <= at.len() && below(*hint) {
            *hint
        } else {
            at.partition_point(|&p| p < from)
        };
        // A hint far behind (another rule's) is caught up by a binary search.
        if at.get(i + 1).is_some_and(|&p| p < from) {
            i += at[i..].partition_point(|&p| p < from);
        }
        while let Some(&p) = at.get(i) {
            i += 1;
            if p >= from && needle.is_at(hay, p) {
                *hint = i;
                return Some(p);
            }
        }
        *hint = i;
        None
    }

    /// Starts following a rewrite of the text this indexes: `self` becomes the index
    /// of the rewritten text (see [`Follow`]).
    pub fn follow<'a>(&'a mut self, old: &'a Starts) -> Follow<'a> {
        self.at.clear();
        Follow {
            old: &old.at,
            next: 0,
            copied_to: 0,
            new: &mut self.at,
        }
    }
}

/// A literal that starts with `%`, compared at indexed offsets.
#[derive(Clone, Debug)]
pub struct Needle {
    bytes: Box<[u8]>,
    /// Its first 8 bytes and its last 8 (little-endian), when it has at least 8.
    head: u64,
    tail: u64,
}

/// The 8 bytes of `bytes` at `at`, little-endian (`at + 8 <= bytes.len()`).
fn word(bytes: &[u8], at: usize) -> u64 {
    let mut w = [0u8; 8];
    w.copy_from_slice(&bytes[at..at + 8]);
    u64::from_le_bytes(w)
}

impl Needle {
    /// `bytes` as a needle, if it starts with `%`.
    pub fn new(bytes: &[u8]) -> Option<Needle> {
        if bytes.first() != Some(&b'%') {
            return None;
        }
        let (head, tail) = match bytes.len() {
            8.. => (word(bytes, 0), word(bytes, bytes.len() - 8)),
            _ => (0, 0),
        };
        Some(Needle {
            bytes: bytes.into(),
            head,
            tail,
        })
    }

    /// Whether `hay` holds the needle at `p`. A needle of 8 to 16 bytes is decided by
    /// two 8-byte comparisons (its first and last 8 bytes cover it); the machine's
    /// thread heads (`%%\n#stack:\n`, 11 bytes) all are.
    fn is_at(&self, hay: &[u8], p: usize) -> bool {
        let n = self.bytes.len();
        if n < 8 || p + n > hay.len() {
            return hay[p..].starts_with(&self.bytes);
        }
        word(hay, p) == self.head
            && word(hay, p + n - 8) == self.tail
            && (n <= 16 || hay[p + 8..p + n - 8] == self.bytes[8..n - 8])
    }
}

/// The index of a text being written by a rewrite pass, made from the old text's index.
/// The pass reports, in output order, every span it copies from the old text: in
/// increasing order ([`Follow::copied`]), in any order ([`Follow::group`]) or either
/// ([`Follow::span`]), and every literal it writes ([`Follow::literal`]).
#[derive(Debug)]
pub struct Follow<'a> {
    old: &'a [usize],
    /// The first old offset not yet passed.
    next: usize,
    /// The end of the last span reported to [`Follow::copied`].
    copied_to: usize,
    new: &'a mut Vec<usize>,
}

impl Follow<'_> {
    /// The old text's bytes `from..to` were copied to the output at `out_at`. Spans
    /// must come in increasing order, in the old text and in the output.
    #[inline]
    pub fn copied(&mut self, from: usize, to: usize, out_at: usize) {
        // Linear walks: over a whole rule they pass each old offset once, and most
        // spans hold none or one.
        while self.old.get(self.next).is_some_and(|&p| p < from) {
            self.next += 1;
        }
        while let Some(&p) = self.old.get(self.next).filter(|&&p| p < to) {
            self.new.push(p - from + out_at);
            self.next += 1;
        }
        self.copied_to = to;
    }

    /// The old text's bytes `from..to` were copied to the output at `out_at`, after
    /// every span reported before (in the output). Spans that start at or after the
    /// end of the last [`Follow::copied`] span take its linear walk, others
    /// [`Follow::group`]'s search.
    #[inline]
    pub fn span(&mut self, from: usize, to: usize, out_at: usize) {
        if from >= self.copied_to {
            self.copied(from, to, out_at);
        } else {
            self.group(from, to, out_at);
        }
    }

    /// The old text's bytes `from..to` were copied to the output at `out_at`, after
    /// every span reported before (in the output); in the old text they may come
    /// anywhere (a group of a replacement that reorders or repeats its match's parts).
    pub fn group(&mut self, from: usize, to: usize, out_at: usize) {
        let first = self.old.partition_point(|&p| p < from);
        // A plain loop: a span holds one `%` or none, and `extend` over an iterator
        // adapter costs more than the walk.
        for &p in &self.old[first..] {
            if p >= to {
                break;
            }
            self.new.push(p - from + out_at);
        }
    }

    /// `text` (a literal of the replacement) was written to the output at `out_at`.
    pub fn literal(&mut self, text: &[u8], out_at: usize) {
        // Replacement literals are short: a plain loop beats a `memchr` call.
        for (k, &b) in text.iter().enumerate() {
            if b == b'%' {
                self.new.push(out_at + k);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::exec::fast::generated::Rng;

    #[test]
    fn built_index_lists_every_percent() {
        for (text, want) in [
            ("", &[][..]),
            ("no percent", &[]),
            ("%", &[0]),
            ("%%\n#stack:\na%b\n%mb\n", &[0, 1, 12, 15]),
            ("é%", &[2]),
        ] {
            assert_eq!(Starts::build(text.as_bytes()).offsets(), want, "{text:?}");
        }
    }

    /// Texts made of machine-like pieces, with `%` anywhere.
    fn random_text(rng: &mut Rng) -> String {
        let bits = [
            "%%\n",
            "#stack:\n",
            "%mb\n",
            "%",
            "\n",
            "a",
            "#_x: 1\n",
            "é",
            "%%%",
            "\n%",
        ];
        (0..rng.below(40)).map(|_| rng.pick(&bits)).collect()
    }

    #[test]
    fn candidates_equal_memmem() {
        let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
        let needles = ["%", "%%", "%%\n#stack:\n", "%mb\n", "%%%", "%\n%", "%a"];
        for _ in 0..300 {
            let text = random_text(&mut rng);
            let hay = text.as_bytes();
            let starts = Starts::build(hay);
            for needle in needles {
                let finder = memchr::memmem::Finder::new(needle);
                let indexed = Needle::new(needle.as_bytes()).unwrap();
                // Searches from increasing positions (the hint kept), then from random
                // ones (the hint stale or ahead).
                let mut hint = 0;
                let froms = (0..=hay.len()).chain((0..20).map(|_| rng.below(hay.len() + 1)));
                for from in froms {
                    let want = finder.find(&hay[from..]).map(|i| i + from);
                    let got = starts.next_candidate(hay, &indexed, from, &mut hint);
                    assert_eq!(got, want, "{needle:?} in {text:?} from {from}");
                }
            }
        }
    }

    #[test]
    fn followed_index_equals_a_fresh_scan() {
        let mut rng = Rng(0x2545_F491_4F6C_DD1D);
        let inserts = ["", "%", "\n", "%%\n#stack:\n", "x%y", "\n%\n", "é"];
        for _ in 0..500 {
            let old_text = random_text(&mut rng);
            let old = Starts::build(old_text.as_bytes());
            // Random non-overlapping spans replaced by random texts, or by themselves.
            let mut out = String::new();
            let mut new = Starts::default();
            let mut follow = new.follow(&old);
            let mut copied = 0;
            let chars: Vec<usize> = old_text.char_indices().map(|(i, _)| i).collect();
            let mut cuts: Vec<usize> = (0..rng.below(6))
                .filter_map(|_| chars.get(rng.below(chars.len() + 1)).copied())
                .collect();
            cuts.sort_unstable();
            for pair in cuts.chunks(2) {
                let (start, end) = (pair[0], pair.get(1).copied().unwrap_or(pair[0]));
                follow.copied(copied, start, out.len());
                out.push_str(&old_text[copied..start]);
                // The replacement: literals and parts of the match, in any order.
                for _ in 0..rng.below(4) {
                    let mark = out.len();
                    if rng.below(2) == 0 {
                        let text = rng.pick(&inserts);
                        out.push_str(text);
                        follow.literal(text.as_bytes(), mark);
                    } else {
                        let inside: Vec<usize> = chars
                            .iter()
                            .copied()
                            .filter(|&c| c >= start && c <= end)
                            .collect();
                        let a = inside[rng.below(inside.len())];
                        let b = inside[rng.below(inside.len())];
                        let (a, b) = (a.min(b), a.max(b));
                        out.push_str(&old_text[a..b]);
                        follow.group(a, b, mark);
                    }
                }
                copied = end;
            }
            follow.copied(copied, old_text.len(), out.len());
            out.push_str(&old_text[copied..]);
            assert_eq!(
                new,
                Starts::build(out.as_bytes()),
                "{old_text:?} -> {out:?}"
            );
        }
    }
}
