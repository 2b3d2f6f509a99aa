//! Literal facts about one pattern, read off its HIR: where a match can start, what every
//! match must contain, and which capture groups are fixed literals at a known offset.
//!
//! Contract:
//! - [`Prefix::One`] / [`Prefix::Many`]: every match of the pattern starts with that literal
//!   (one of those literals). A pattern that can match the empty string never gets a prefix.
//!   [`Prefix::Never`]: the pattern matches nothing at all.
//! - [`Literals::required`]: a literal that occurs inside every match; when it is absent
//!   from the state, the rule has no match.
//! - [`Literals::fixed_groups`]: group `i` whose start and end each sit at a fixed offset
//!   from the start or from the end of every match (the leading `(%%\n#stack:\n)`, the
//!   `(...)` of `(...)\n`), so its span is known without running a capture engine.
//!
//! Trade-offs: only the top-level concatenation is walked for required literals and fixed
//! groups. That covers the machine dialect (a literal head, then classes and groups) while
//! staying obviously sound; anything subtler is left to the engines.
//!
//! Layer 1: uses `syntax` only.

use aho_corasick::{AhoCorasick, AhoCorasickKind, MatchKind};
use memchr::memmem;
use regex_syntax::hir::literal::{ExtractKind, Extractor};
use regex_syntax::hir::{Hir, HirKind};

use crate::codec::{Reader, put, put_bytes};
use crate::exec::fast::syntax::DecodeError;

/// How common each ASCII byte is in the machine's states, 0 (never seen) to 255 (the
/// most common, `.`), on a log scale: measured over the states of the `play` program on
/// the bench positions (every 97th rule's state from 100 KB up). Non-ASCII bytes rank 0.
///
/// `memmem` looks for a needle's two rarest bytes first; its own ranking is made for
/// prose and code, where `#`, `q` and `_` are rare, but in the states `#` and `:` start
/// and end every variable's name and `_` begins the compiler's: a needle such as
/// `#_x: ` was searched by its `#_`, which every scratch variable's line holds. Only
/// the speed of a search depends on the ranking, never its answer.
#[rustfmt::skip]
const STATE_RANK: [u8; 128] = [
      0,   0,   0,   0,   0,   0,   0,   0,   0,   0, 230,   0,   0,   0,   0,   0,
      0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,
    227,   0,   0, 228,   0, 178,   0,   0,  38,  38,   0,   0,  56, 175, 255, 233,
    229, 232, 211, 197, 195, 162, 181, 192, 170, 187, 228,  98,   0,  30,   0,   0,
      1,  24, 194,  49,   0,  38, 182,   0,  38,   0,   0, 189,   0,  38, 196,  38,
    224, 191, 197,  38, 189,   0,   0,   0,   0,  24,   0,   0,   0,   0,   0, 216,
      0, 179, 211, 191, 150, 191, 148, 181, 146,  62,   0, 197,  56, 144, 202,  73,
    223, 189, 196, 175, 194,  51,  60, 104, 131,  44,   0,   0,   0,   0,   0,   0,
];

/// [`STATE_RANK`] as `memmem` takes it.
#[derive(Clone, Copy, Debug)]
struct StateRank;

impl memchr::arch::all::packedpair::HeuristicFrequencyRank for StateRank {
    fn rank(&self, byte: u8) -> u8 {
        STATE_RANK.get(usize::from(byte)).copied().unwrap_or(0)
    }
}

/// A forward finder of `needle` that picks the bytes it looks for first by how rare
/// they are in the machine's states ([`STATE_RANK`]); it finds what
/// `memmem::Finder::new` finds.
pub fn finder(needle: &[u8]) -> memmem::Finder<'static> {
    memmem::FinderBuilder::new()
        .build_forward_with_ranker(StateRank, needle)
        .into_owned()
}

/// How to find the positions where a match may start.
// One per distinct pattern, read on the hot path: the inline finder is worth its size.
#[allow(clippy::large_enum_variant)]
#[derive(Debug)]
pub enum Prefix {
    /// No usable literal: search with a general engine.
    None,
    /// The pattern cannot match anything.
    Never,
    /// Every match starts with this literal.
    One(memmem::Finder<'static>),
    /// Every match starts with one of these literals (they share no common prefix).
    Many(AhoCorasick),
}

impl Prefix {
    /// The first position at or after `at` where a match may start, if any. Every position
    /// returned is a char boundary of a valid UTF-8 `hay` (a literal's first byte is never
    /// a continuation byte).
    pub fn next_candidate(&self, hay: &[u8], at: usize) -> Option<usize> {
        let rest = hay.get(at..)?;
        match self {
            Prefix::None => Some(at),
            Prefix::Never => None,
            Prefix::One(finder) => finder.find(rest).map(|i| i + at),
            Prefix::Many(ac) => ac.find(rest).map(|m| m.start() + at),
        }
    }
}

/// A prefix as the program cache keeps it (see `remembered.rs`): the kinds that are
/// plain data. Given to [`analyze_known`], it spares the prefix extraction, the most
/// costly part of the analysis.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum KnownPrefix {
    /// [`Prefix::None`].
    None,
    /// [`Prefix::One`], with its literal.
    One(Box<[u8]>),
}

impl Prefix {
    /// The prefix as plain data, when it is of a kind [`KnownPrefix`] holds.
    pub fn known(&self) -> Option<KnownPrefix> {
        match self {
            Prefix::None => Some(KnownPrefix::None),
            Prefix::One(finder) => Some(KnownPrefix::One(finder.needle().into())),
            Prefix::Never | Prefix::Many(_) => None,
        }
    }
}

/// Everything [`analyze_known`] learns about one pattern.
#[derive(Debug)]
pub struct Literals {
    /// Where matches may start.
    pub prefix: Prefix,
    /// A literal every match contains, when it is worth a separate check (it is not the
    /// prefix itself).
    pub required: Option<memmem::Finder<'static>>,
    /// For each group index, its start and end when both are at fixed offsets from an
    /// edge of the match. Index 0 is always `None` (the whole match is known anyway).
    pub fixed_groups: Vec<Option<(Edge, Edge)>>,
}

/// A place in every match, fixed relative to one of its edges.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Edge {
    /// This many bytes after the match start.
    FromStart(usize),
    /// This many bytes before the match end.
    FromEnd(usize),
}

impl Edge {
    /// The position in the match `start..end`.
    pub fn at(self, start: usize, end: usize) -> usize {
        match self {
            Edge::FromStart(k) => start + k,
            Edge::FromEnd(k) => end - k,
        }
    }
}

impl Literals {
    /// The literals every match needs: the prefix when it is one literal, then the
    /// required literal. When one of them is absent from the text, nothing matches.
    pub fn needed(&self) -> impl Iterator<Item = &[u8]> {
        let prefix = match &self.prefix {
            Prefix::One(finder) => Some(finder.needle()),
            _ => None,
        };
        let required = self.required.as_ref().map(|f| f.needle());
        prefix.into_iter().chain(required)
    }
}

impl Literals {
    /// Appends the stored form of these facts (see `remembered.rs`), or returns false
    /// (having appended nothing) when the prefix is [`Prefix::Many`], which is not kept.
    pub fn encode(&self, out: &mut Vec<u8>) -> bool {
        let tag = match &self.prefix {
            Prefix::None => 0,
            Prefix::Never => 1,
            Prefix::One(_) => 2,
            Prefix::Many(_) => return false,
        };
        out.push(tag);
        if let Prefix::One(finder) = &self.prefix {
            put_bytes(out, finder.needle());
        }
        match &self.required {
            None => out.push(0),
            Some(finder) => {
                out.push(1);
                put_bytes(out, finder.needle());
            }
        }
        put(out, self.fixed_groups.len());
        let edge = |out: &mut Vec<u8>, edge: Edge| match edge {
            Edge::FromStart(k) => {
                out.push(0);
                put(out, k);
            }
            Edge::FromEnd(k) => {
                out.push(1);
                put(out, k);
            }
        };
        for group in &self.fixed_groups {
            match group {
                None => out.push(0),
                Some((start, end)) => {
                    out.push(1);
                    edge(out, *start);
                    edge(out, *end);
                }
            }
        }
        true
    }

    /// Reads facts written by [`Literals::encode`].
    pub fn decode(reader: &mut Reader<'_>) -> Result<Literals, DecodeError> {
        let prefix = match reader.byte()? {
            0 => Prefix::None,
            1 => Prefix::Never,
            2 => {
                let needle = reader.bytes()?;
                if needle.is_empty() {
                    return Err(DecodeError("an empty prefix"));
                }
                Prefix::One(finder(needle))
            }
            _ => return Err(DecodeError("bad prefix")),
        };
        let required = if reader.flag()? {
            let needle = reader.bytes()?;
            if needle.is_empty() {
                return Err(DecodeError("an empty required literal"));
            }
            Some(finder(needle))
        } else {
            None
        };
        let edge = |reader: &mut Reader<'_>| match reader.byte()? {
            0 => Ok(Edge::FromStart(reader.varint()?)),
            1 => Ok(Edge::FromEnd(reader.varint()?)),
            _ => Err(DecodeError("bad edge")),
        };
        let n = reader.count()?;
        let fixed_groups = (0..n)
            .map(|_| {
                Ok(if reader.flag()? {
                    Some((edge(reader)?, edge(reader)?))
                } else {
                    None
                })
            })
            .collect::<Result<Vec<_>, DecodeError>>()?;
        Ok(Literals {
            prefix,
            required,
            fixed_groups,
        })
    }
}

/// The literals [`Literals::needed`] gives for `hir`, and its prefix as plain data
/// when it is of a kind [`KnownPrefix`] holds; without the rest of [`analyze_known`]'s
/// work.
pub fn needed(hir: &Hir) -> (Vec<Vec<u8>>, Option<KnownPrefix>) {
    let (prefix, required) = prefix_and_required(hir, None);
    let literals = Literals {
        prefix,
        required,
        fixed_groups: Vec::new(),
    };
    let needed = literals.needed().map(<[u8]>::to_vec).collect();
    (needed, literals.prefix.known())
}

/// [`analyze_known`] without a known prefix.
#[cfg(test)]
pub fn analyze(hir: &Hir, group_len: usize) -> Literals {
    analyze_known(hir, group_len, None)
}

/// Reads the literal facts of `hir`, a pattern with `group_len` groups (counting group 0),
/// given its prefix when it is already known (it must be what the extraction would
/// find: debug builds check it).
pub fn analyze_known(hir: &Hir, group_len: usize, known: Option<&KnownPrefix>) -> Literals {
    let (prefix, required) = prefix_and_required(hir, known);
    let mut starts = vec![None; group_len];
    let mut ends = vec![None; group_len];
    fixed_edges(hir, &mut 0, false, &mut starts, &mut ends);
    fixed_edges(hir, &mut 0, true, &mut starts, &mut ends);
    let fixed_groups = starts
        .into_iter()
        .zip(ends)
        .enumerate()
        .map(|(i, (s, e))| if i == 0 { None } else { s.zip(e) })
        .collect();
    Literals {
        prefix,
        required,
        fixed_groups,
    }
}

/// The prefix of `hir` (`known`, when given) and the literal every match needs besides
/// it.
fn prefix_and_required(
    hir: &Hir,
    known: Option<&KnownPrefix>,
) -> (Prefix, Option<memmem::Finder<'static>>) {
    let prefix = match known {
        Some(KnownPrefix::None) => Prefix::None,
        Some(KnownPrefix::One(needle)) => Prefix::One(finder(needle)),
        None => prefix_of(hir),
    };
    debug_assert!(
        known.is_none_or(|k| prefix_of(hir).known().as_ref() == Some(k)),
        "a known prefix that the pattern does not have"
    );
    let prefix_bytes: Option<Vec<u8>> = match &prefix {
        Prefix::One(f) => Some(f.needle().to_vec()),
        _ => None,
    };
    let mut required_lits = Vec::new();
    required_literals(hir, &mut required_lits);
    let required = required_lits
        .into_iter()
        .filter(|l| !l.is_empty())
        .filter(|l| match &prefix_bytes {
            // A literal contained in the prefix is already checked by the prefix search.
            Some(p) => memmem::find(p, l).is_none(),
            None => true,
        })
        .max_by_key(|l| l.len())
        .map(|l| finder(&l));
    (prefix, required)
}

fn prefix_of(hir: &Hir) -> Prefix {
    let mut seq = Extractor::new().kind(ExtractKind::Prefix).extract(hir);
    seq.dedup();
    let Some(lits) = seq.literals() else {
        return Prefix::None;
    };
    if lits.is_empty() {
        return Prefix::Never;
    }
    if lits.iter().any(|l| l.as_bytes().is_empty()) {
        return Prefix::None;
    }
    if let Some(lcp) = seq.longest_common_prefix().filter(|p| !p.is_empty()) {
        return Prefix::One(finder(lcp));
    }
    if lits.len() > 64 {
        return Prefix::None;
    }
    // Leftmost semantics: `find` reports the occurrence that starts first, which is what
    // candidate enumeration needs (standard semantics would report the one ending first).
    let ac = AhoCorasick::builder()
        .match_kind(MatchKind::LeftmostFirst)
        .kind(Some(AhoCorasickKind::DFA))
        .build(lits.iter().map(|l| l.as_bytes()));
    match ac {
        Ok(ac) => Prefix::Many(ac),
        Err(_) => Prefix::None,
    }
}

/// Collects literals that every match must contain: the literal leaves of the top-level
/// concatenation, looking through groups and repetitions that occur at least once.
fn required_literals(hir: &Hir, out: &mut Vec<Vec<u8>>) {
    match hir.kind() {
        HirKind::Literal(lit) => out.push(lit.0.to_vec()),
        HirKind::Capture(cap) => required_literals(&cap.sub, out),
        HirKind::Repetition(rep) if rep.min >= 1 => required_literals(&rep.sub, out),
        HirKind::Concat(subs) => subs.iter().for_each(|s| required_literals(s, out)),
        _ => {}
    }
}

/// Walks the top-level concatenation from its start (or, with `backwards`, from its end)
/// while the length walked is fixed, recording the group edges met on the way
/// (`starts[i]`, `ends[i]`; from the end, a group's end is met first). Parts without
/// groups whose length is fixed (`[01]`, `.{3}`, `(?:ab|cd)`) are stepped over. Returns
/// false once the walk meets something of variable length. A group of the top-level
/// concatenation takes part in every match, so its edges are always set.
fn fixed_edges(
    hir: &Hir,
    offset: &mut usize,
    backwards: bool,
    starts: &mut [Option<Edge>],
    ends: &mut [Option<Edge>],
) -> bool {
    let edge = |k: usize| {
        if backwards {
            Edge::FromEnd(k)
        } else {
            Edge::FromStart(k)
        }
    };
    let props = hir.properties();
    match hir.kind() {
        HirKind::Capture(cap) => {
            let first = if backwards { &mut *ends } else { &mut *starts };
            let index = cap.index as usize;
            if let Some(slot) = first.get_mut(index) {
                slot.get_or_insert(edge(*offset));
            }
            if !fixed_edges(&cap.sub, offset, backwards, starts, ends) {
                return false;
            }
            let second = if backwards { starts } else { ends };
            if let Some(slot) = second.get_mut(index) {
                slot.get_or_insert(edge(*offset));
            }
            true
        }
        HirKind::Concat(subs) => {
            if backwards {
                subs.iter()
                    .rev()
                    .all(|s| fixed_edges(s, offset, backwards, starts, ends))
            } else {
                subs.iter()
                    .all(|s| fixed_edges(s, offset, backwards, starts, ends))
            }
        }
        _ if props.explicit_captures_len() == 0 => match (props.minimum_len(), props.maximum_len())
        {
            (Some(min), Some(max)) if min == max => {
                *offset += min;
                true
            }
            _ => false,
        },
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn state_ranked_finders_find_what_memmem_finds() {
        let hay = "%%\n#stack:\n#_x: .B\n#b: .rbqk.nr//pppp.ppp//\n#_236: c4abcdefgh87654321\n\
                   #_q: bF....p\n#_q: bT\n%mb\n#_x: é#_q: bF\n";
        let needles = [
            "#_x: ",
            "#_q: bF",
            "\n#_236: ",
            "#b: ",
            "%mb\n",
            "é#",
            "bF\n",
            "zz",
            "#_q: bFx",
        ];
        for needle in needles {
            let ranked = finder(needle.as_bytes());
            for from in 0..=hay.len() {
                let rest = &hay.as_bytes()[from..];
                assert_eq!(
                    ranked.find(rest),
                    memmem::find(rest, needle.as_bytes()),
                    "{needle:?} from {from}"
                );
            }
        }
    }

    fn lits(pattern: &str) -> Literals {
        let hir = regex_syntax::parse(pattern).unwrap();
        let groups = regex::Regex::new(pattern).unwrap().captures_len();
        analyze(&hir, groups)
    }

    fn one(p: &Prefix) -> Option<&[u8]> {
        match p {
            Prefix::One(f) => Some(f.needle()),
            _ => None,
        }
    }

    #[test]
    fn machine_prefixes() {
        let l = lits("(%%\n#stack:\n)([^%]*\n#x: )([^\n]*)\n");
        assert_eq!(one(&l.prefix), Some(&b"%%\n#stack:\n"[..]));
        assert_eq!(l.required.as_ref().unwrap().needle(), b"\n#x: ");
        let s = Edge::FromStart;
        assert_eq!(l.fixed_groups, vec![None, Some((s(0), s(11))), None, None]);

        let l = lits("%%\n([^%]*)");
        assert_eq!(one(&l.prefix), Some(&b"%%\n"[..]));
        assert!(l.required.is_none());

        let l = lits("(?m)^%tag\n");
        assert_eq!(one(&l.prefix), Some(&b"%tag\n"[..]));
    }

    #[test]
    fn empty_matching_patterns_have_no_prefix() {
        for p in ["a*", "x?", "^", "$", "(?m)^", r"\b", "(?:ab)?c*", "|a"] {
            assert!(matches!(lits(p).prefix, Prefix::None), "{p}");
        }
    }

    #[test]
    fn alternatives_use_several_literals() {
        let l = lits("%%\n|%t\n");
        assert_eq!(one(&l.prefix), Some(&b"%"[..]));
        let l = lits("ab|cd");
        assert!(matches!(l.prefix, Prefix::Many(_)));
        assert_eq!(l.prefix.next_candidate(b"xxcdab", 0), Some(2));
        assert_eq!(l.prefix.next_candidate(b"xxcdab", 3), Some(4));
    }

    #[test]
    fn fixed_groups_from_either_edge() {
        let (s, e) = (Edge::FromStart, Edge::FromEnd);
        let l = lits("(a)(bc)(d*)(e)");
        let want = [
            None,
            Some((s(0), s(1))),
            Some((s(1), s(3))),
            Some((s(3), e(1))),
            Some((e(1), e(0))),
        ];
        assert_eq!(l.fixed_groups, want);
        let l = lits("((a)b)");
        assert_eq!(
            l.fixed_groups,
            vec![None, Some((s(0), s(2))), Some((s(0), s(1)))]
        );
        // A group around a variable part: one edge from each end.
        let l = lits("(x[0-9]*)[ab]\n(y)");
        assert_eq!(
            l.fixed_groups,
            vec![None, Some((s(0), e(3))), Some((e(1), e(0)))]
        );
        // Groups inside a variable part, or optional, are left to the engines.
        let l = lits("a(b(c)*)d|e");
        assert_eq!(l.fixed_groups, vec![None, None, None]);
        let l = lits("a(b)?(c)");
        assert_eq!(l.fixed_groups, vec![None, None, Some((e(1), e(0)))]);
    }

    /// Texts that stress candidate enumeration: machine threads, `%` in the middle of a
    /// line, no `%` at all, overlapping and cut-off occurrences, non-ASCII chars.
    fn hard_texts() -> Vec<String> {
        let thread = |tag: &str, x: &str| format!("%{tag}\n#stack:\n#_x: {x}\n#b: r..k//\n");
        let mut machine: String = ["%", "mg", "mb", "%", "mr", "mb"]
            .iter()
            .enumerate()
            .map(|(k, tag)| thread(tag, &k.to_string()))
            .collect();
        // Long enough for memmem's vector loop, which ends with a separate tail.
        machine = machine.repeat(8);
        vec![
            machine,
            String::new(),
            "no percent here\n#_x: a\n".repeat(5),
            "a%%\n#stack:\nb%mb\n#stack:\n%%%\n#stack:\n".into(),
            "%%%%\n#stack:\n#_x: #_x: #_x:#_x: x".into(),
            "é%%\n#stack:\né%mb\n#stack:\ncdab".into(),
            // Occurrences cut off by the end of the text.
            "%%\n#stack:\n%%\n#stac".into(),
            format!("{}%mb\n#stack:", "x".repeat(100)),
        ]
    }

    /// The first position at or after `at` where one of `lits` starts.
    fn naive(lits: &[&str], hay: &str, at: usize) -> Option<usize> {
        (at..hay.len()).find(|&i| {
            lits.iter()
                .any(|l| hay.as_bytes()[i..].starts_with(l.as_bytes()))
        })
    }

    #[test]
    fn candidates_are_exactly_the_occurrences() {
        let cases: [(&str, &[&str]); 7] = [
            ("(%%\n#stack:\n)[^\n]*\n", &["%%\n#stack:\n"]),
            ("%mb\n#stack:\n([^%]*)", &["%mb\n#stack:\n"]),
            ("#_x: ([^\n]*)\n", &["#_x: "]),
            ("%%\n|%t\n", &["%"]),
            ("(?:%mb|%mr)\n", &["%m"]),
            ("ab|cd", &["ab", "cd"]),
            ("x?(?:ab|cd)", &["xab", "xcd", "ab", "cd"]),
        ];
        for (pattern, lits_wanted) in cases {
            let prefix = lits(pattern).prefix;
            assert!(
                matches!(prefix, Prefix::One(_) | Prefix::Many(_)),
                "{pattern}"
            );
            let re = regex::Regex::new(pattern).unwrap();
            for hay in hard_texts() {
                for at in 0..=hay.len() + 1 {
                    let found = prefix.next_candidate(hay.as_bytes(), at);
                    let want = if at > hay.len() {
                        None
                    } else {
                        naive(lits_wanted, &hay, at)
                    };
                    assert_eq!(found, want, "{pattern:?} in {hay:?} from {at}");
                    // Every match starts at a candidate, and none is skipped.
                    if hay.is_char_boundary(at)
                        && let Some(m) = re.find_at(&hay, at)
                    {
                        assert!(
                            found.is_some_and(|c| c <= m.start()),
                            "{pattern:?} {hay:?} {at}"
                        );
                        let again = prefix.next_candidate(hay.as_bytes(), m.start());
                        assert_eq!(again, Some(m.start()), "{pattern:?} in {hay:?}");
                    }
                }
            }
        }
    }

    #[test]
    fn no_literal_or_no_match() {
        for hay in hard_texts() {
            let (none, never) = (lits("[a%]*").prefix, lits("[a&&b]").prefix);
            assert!(matches!(never, Prefix::Never));
            for at in 0..=hay.len() + 1 {
                let want = (at <= hay.len()).then_some(at);
                assert_eq!(none.next_candidate(hay.as_bytes(), at), want);
                assert_eq!(never.next_candidate(hay.as_bytes(), at), None);
            }
        }
    }
}
