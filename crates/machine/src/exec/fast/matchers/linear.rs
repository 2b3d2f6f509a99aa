//! "Linear" patterns: matches and capture groups found without an engine.
//!
//! A pattern is linear when, after flattening groups, it is a sequence of literals,
//! single-char classes, repetitions of a single-char class (`[^%]*`, `[^\n]+?`,
//! `x{2,5}`), optional parts and alternations of such sequences, with no look-around or
//! other nested repetition. The machine's lookups are linear:
//! `(%%\n#stack:\n)([^%]*\n#x: )([^\n]*)\n`, and so are its square lookups
//! `(%%\n#stack:\n)(?:(a1)\n.{70}(.)|(b1)\n.{71}(.)|...)`.
//!
//! Contract: [`Linear::find_end`] gives the leftmost-first match anchored at a position
//! and its groups, exactly as `regex` would, or gives up when its work budget runs out
//! (the caller then uses the DFA). [`Linear::resolve`] is given a span `start..end` that
//! is the pattern's leftmost-first match; it writes exactly the group spans `regex`
//! gives, or returns false (slots then undefined) when its budget runs out.
//!
//! Why it is exact: every path through a linear pattern consumes one char per repetition
//! step, and leftmost-first prefers, at each repetition, more steps (greedy) or fewer
//! (lazy). The overall winning path ends at `end`, so it is the most preferred path among
//! those that end at `end`, which is what a depth-first search in preference order, pinned
//! to `end`, finds first. The search steps back from the longest run one char at a time,
//! so the usual lookup (the wanted line is near the end of the span) costs little; the
//! budget (a few times the span length) cuts off patterns that would backtrack a lot.
//! An alternation is tried branch by branch in order (its preference order), skipping
//! branches whose next bytes cannot be the ones at hand (see `ahead`).
//!
//! Layout: this file flattens a pattern into atoms; `search` runs the depth-first search
//! (atoms without a choice in a loop, choices that may be taken back by recursion);
//! `ahead` computes the next-bytes filters; `span` merges runs of fixed-width atoms into
//! one step for the search; `tests` checks all of it against `regex`.
//! Trade-off: the search is an interpreter over atoms (a few ns a step), cheap for the
//! machine's short threads but no match for a DFA on long, branchy texts: the budget
//! hands those to the DFA.
//!
//! Layer 2 (a matcher): uses `literal` and `syntax`.

use memchr::memmem;
use regex_syntax::hir::{Class, Hir, HirKind};

use next_bytes::NextBytes;
use search::Search;
use span::Span;

/// A char class with a bitmap for ASCII, the common case, and its non-ASCII members in
/// the smallest form that holds them (the machine's classes hold all or none of them).
#[derive(Clone, Debug)]
struct CharSet {
    ascii: u128,
    beyond: Beyond,
}

/// The non-ASCII members of a [`CharSet`].
#[derive(Clone, Debug)]
enum Beyond {
    /// No non-ASCII char (`[a-h]`, `\n`).
    Nothing,
    /// Every non-ASCII char (`[^%]`, `.`).
    All,
    /// The chars of these sorted, disjoint ranges (all non-ASCII).
    Ranges(Box<[(char, char)]>),
}

impl CharSet {
    /// The set of `class`'s chars, or `None` for a byte class with non-ASCII bytes (a
    /// byte that is not a char: such patterns are left to the engines).
    fn new(class: &Class) -> Option<CharSet> {
        let ranges: Vec<(char, char)> = match class {
            Class::Unicode(u) => u.ranges().iter().map(|r| (r.start(), r.end())).collect(),
            Class::Bytes(b) => {
                if !b.ranges().iter().all(|r| r.end().is_ascii()) {
                    return None;
                }
                b.ranges()
                    .iter()
                    .map(|r| (char::from(r.start()), char::from(r.end())))
                    .collect()
            }
        };
        // Bits `start..=end` of the ASCII bitmap, for each range's ASCII part.
        let ascii = ranges
            .iter()
            .filter(|r| r.0.is_ascii())
            .fold(0u128, |m, &(start, end)| {
                let (start, end) = (start as u32, (end as u32).min(127));
                let upto = if end == 127 {
                    u128::MAX
                } else {
                    (1u128 << (end + 1)) - 1
                };
                m | (upto & !((1u128 << start) - 1))
            });
        let beyond: Vec<(char, char)> = ranges
            .iter()
            .filter(|r| !r.1.is_ascii())
            .map(|&(start, end)| (start.max('\u{80}'), end))
            .collect();
        // Ranges are sorted, disjoint and not adjacent (the surrogates count as adjacent
        // to their neighbours), so a class holding every non-ASCII char holds them in
        // one range.
        let all_beyond =
            matches!(class, Class::Unicode(_)) && beyond.first() == Some(&('\u{80}', char::MAX));
        let beyond = if beyond.is_empty() {
            Beyond::Nothing
        } else if all_beyond {
            Beyond::All
        } else {
            Beyond::Ranges(beyond.into_boxed_slice())
        };
        Some(CharSet { ascii, beyond })
    }

    /// The ASCII bytes outside the set, when they are at most three and every non-ASCII
    /// char is in it (`[^%]`, `[^\n]`, `.`): its runs end at the first of them (memchr).
    fn few_stops(&self) -> Option<Box<[u8]>> {
        let stops: Vec<u8> = (0u8..128).filter(|b| self.ascii >> b & 1 == 0).collect();
        (matches!(self.beyond, Beyond::All) && stops.len() <= 3).then(|| stops.into())
    }

    /// Whether `%` is in the set.
    fn has_percent(&self) -> bool {
        self.ascii >> b'%' & 1 == 1
    }

    /// Whether every member is ASCII.
    fn only_ascii(&self) -> bool {
        matches!(self.beyond, Beyond::Nothing)
    }

    /// Membership by byte value, for a set of ASCII chars only (no byte from 128 on).
    fn table(&self) -> Box<[bool; 256]> {
        let mut table = Box::new([false; 256]);
        for (b, member) in table.iter_mut().enumerate().take(128) {
            *member = self.ascii >> b & 1 == 1;
        }
        table
    }

    /// Whether the char starting at byte `at` of `hay` (at a char boundary) is in the set,
    /// and its length in bytes.
    #[inline]
    fn step(&self, hay: &str, at: usize) -> Option<usize> {
        let b = *hay.as_bytes().get(at)?;
        if b < 128 {
            return (self.ascii >> b & 1 == 1).then_some(1);
        }
        let c = hay[at..].chars().next()?;
        let member = match &self.beyond {
            Beyond::Nothing => false,
            Beyond::All => true,
            Beyond::Ranges(ranges) => {
                let i = ranges.partition_point(|r| r.1 < c);
                ranges.get(i).is_some_and(|r| r.0 <= c)
            }
        };
        member.then(|| c.len_utf8())
    }
}

#[derive(Clone, Debug)]
enum Atom {
    Literal(Box<[u8]>),
    Class(CharSet),
    /// Boxed, as is [`Atom::Lines`]: both are large and rare, and atoms are many (a
    /// square lookup has hundreds), so the common atoms stay small.
    Repeat(Box<Repeat>),
    /// A greedy `(?:C*\n)*` where `C` excludes `\n` and stops only at a few ASCII bytes
    /// (the machine's "any whole lines of this thread", `(?:[^%\n]*\n)*`). It can end at
    /// its start or just after any `\n` before the first byte of `stops` (`C`'s stop
    /// bytes other than `\n`), preferring the farthest.
    Lines(Box<LinesLoop>),
    /// An optional part, `(?:X|)` or `X?` (lazy: `(?:|X)`, `X??`): the next `len` atoms
    /// are X; a greedy one tries them first, then jumps past them.
    Skip {
        len: usize,
        greedy: bool,
    },
    /// An alternation: each branch starts this many atoms further on, and is tried only
    /// where its filter (that of its path on to the pattern's end) admits the text. Every
    /// branch but the last ends in a [`Atom::Jump`] past the alternation; the last flows
    /// into what follows.
    Alt {
        branches: Box<Branches>,
    },
    /// Go on this many atoms further on.
    Jump(usize),
    Open(usize),
    Close(usize),
    /// A run of fixed-width atoms checked at once; only in [`Linear::steps`] (see `span`).
    Span(Box<Span>),
}

/// The branches of an [`Atom::Alt`], in order of preference.
#[derive(Clone, Debug, Default)]
struct Branches {
    /// Where each branch starts, in atoms after the alternation's own.
    offsets: Vec<usize>,
    /// Each branch's filter (see `ahead`).
    paths: Vec<NextBytes>,
    /// The first mask of each filter ([`NextBytes::first`]), side by side: most branches are
    /// ruled out by one load each.
    firsts: Vec<u128>,
}

/// A repetition of a char class.
#[derive(Clone, Debug)]
struct Repeat {
    class: CharSet,
    min: u32,
    max: Option<u32>,
    greedy: bool,
    /// Set for greedy `*`/`+` of a class that stops only at a few ASCII bytes.
    quick: Option<QuickRun>,
    /// The filter of the atoms after it: places to stop it refuses are not tried.
    next: NextBytes,
    /// For a bounded repetition of a class with [`CharSet::few_stops`]: those bytes.
    /// Over ASCII text (one char a byte) its longest run is found with memchr.
    stops: Option<Box<[u8]>>,
    /// For a class of ASCII chars only: membership by byte value, so that its longest
    /// run is found a byte at a time without decoding.
    table: Option<Box<[bool; 256]>>,
}

/// See [`Atom::Lines`].
#[derive(Clone, Debug)]
struct LinesLoop {
    stops: Vec<u8>,
    /// The literal that follows, if one does: only its occurrences are tried.
    next_literal: Option<memmem::Finder<'static>>,
}

/// A greedy `C*` / `C+` where `C` is every char but one to three ASCII bytes (`[^%]*`,
/// `[^\n]+`, `.*`): its longest run ends at the first of those bytes (memchr), and when a
/// literal follows, the places to give back to are found with a reverse memmem.
#[derive(Clone, Debug)]
struct QuickRun {
    stops: Vec<u8>,
    next_literal: Option<memmem::FinderRev<'static>>,
    /// When a class of one to three ASCII bytes follows (`[^\n]*([45])`): those bytes,
    /// so that the places to give back to are found with a reverse memchr.
    next_bytes: Option<Vec<u8>>,
}

impl QuickRun {
    fn new(class: &CharSet, min: u32, max: Option<u32>, greedy: bool) -> Option<QuickRun> {
        if !greedy || max.is_some() || min > 1 {
            return None;
        }
        Some(QuickRun {
            stops: class.few_stops()?.into(),
            next_literal: None,
            next_bytes: None,
        })
    }

    /// The literal that follows, when it starts with a stop byte (`([^\n]*)\n`): the run
    /// can then end only where it stops.
    fn forced(&self) -> Option<&[u8]> {
        let needle = self.next_literal.as_ref()?.needle();
        needle
            .first()
            .is_some_and(|b| self.stops.contains(b))
            .then_some(needle)
    }

    /// The end of the longest run of the class in `hay[from..end]`.
    #[inline]
    fn run_end(&self, hay: &[u8], from: usize, end: usize) -> usize {
        memchr_any(&self.stops, &hay[from..end]).map_or(end, |k| from + k)
    }
}

/// A linear pattern, ready to resolve groups.
#[derive(Clone, Debug)]
pub struct Linear {
    /// The atoms the search steps: the flattened pattern with a [`Atom::Span`] heading
    /// each run of fixed-width atoms. (The flattened pattern itself is analysed once,
    /// by [`Linear::new`], and not kept: its filters would double the memory.)
    steps: Box<[Atom]>,
    /// See [`Linear::dense`].
    dense: bool,
    /// See [`Linear::backtracks_little`].
    backtracks_little: bool,
    /// See [`Linear::as_literal`].
    literal: Option<Box<[u8]>>,
}

impl Linear {
    /// The linear form of `hir`, if it has one.
    pub fn new(hir: &Hir) -> Option<Linear> {
        let mut atoms = Vec::new();
        flatten(hir, &mut atoms)?;
        // The search undoes a failed path's group marks by clearing them, which needs each
        // group marked by one `Open` and one `Close` (true of what `flatten` accepts), and
        // slot numbers that fit its undo log.
        let mut marks: Vec<usize> = atoms
            .iter()
            .filter_map(|a| match a {
                Atom::Open(g) => Some(2 * g),
                Atom::Close(g) => Some(2 * g + 1),
                _ => None,
            })
            .collect();
        marks.sort_unstable();
        let unique = marks.windows(2).all(|w| w[0] != w[1]);
        if !unique || marks.last().is_some_and(|&m| m > usize::from(u16::MAX)) {
            return None;
        }
        // Tell each repetition and lines loop what follows it (the literal, if one does:
        // group marks between them take no space; the next-bytes filter), and each
        // alternation branch its filter.
        for i in 0..atoms.len() {
            if !matches!(
                atoms[i],
                Atom::Alt { .. } | Atom::Repeat(_) | Atom::Lines(_)
            ) {
                continue;
            }
            let next = atoms[i + 1..]
                .iter()
                .find(|a| !matches!(a, Atom::Open(_) | Atom::Close(_)));
            let literal = match next {
                Some(Atom::Literal(lit)) => Some(memmem::FinderRev::new(&lit[..]).into_owned()),
                _ => None,
            };
            let bytes = match next {
                Some(Atom::Class(set)) => small_ascii_set(set),
                _ => None,
            };
            let mut paths: Vec<NextBytes> = match &atoms[i] {
                Atom::Alt { branches } => branches
                    .offsets
                    .iter()
                    .map(|&offset| NextBytes::of(&atoms, i + offset))
                    .collect(),
                Atom::Repeat(_) => vec![NextBytes::of(&atoms, i + 1)],
                _ => Vec::new(),
            };
            match &mut atoms[i] {
                Atom::Alt { branches } => {
                    branches.firsts = paths.iter().map(NextBytes::first).collect();
                    branches.paths = paths;
                }
                Atom::Repeat(repeat) => {
                    repeat.next = paths.pop().unwrap_or_default();
                    if let Some(quick) = &mut repeat.quick {
                        quick.next_literal = literal;
                        quick.next_bytes = bytes;
                    }
                }
                Atom::Lines(lines) => {
                    lines.next_literal = literal
                        .as_ref()
                        .map(|l| crate::exec::fast::literal::finder(l.needle()));
                }
                _ => {}
            }
        }
        Some(Linear {
            steps: span::spans(&atoms, search::UNDO).into(),
            dense: dense(&atoms),
            backtracks_little: backtracks_little(&atoms),
            literal: as_literal(&atoms),
        })
    }

    /// Whether a search backtracks little: every repetition either is a quick run
    /// ([`QuickRun`]) or has at most 8 counts to choose from. Such a pattern finds a
    /// match and its groups in one pass faster than a jump to its line followed by a
    /// second search for the groups (`lines`); a repetition like `[^\n]{9,58}` tries
    /// too many places.
    pub fn backtracks_little(&self) -> bool {
        self.backtracks_little
    }

    /// Whether finding matches would try many places one by one: a run of a class with
    /// something after it that is neither a literal nor a class of at most three bytes
    /// (`[^\n]*[.pnbrqk]...`), so each char of the run is a place to try the rest at. A
    /// DFA finds such matches in one pass; the groups of the matches are still resolved
    /// here.
    pub fn dense(&self) -> bool {
        self.dense
    }

    /// The number of alternation branches the search may try, over all alternations
    /// (0 for a pattern without one). Each branch tried is a step of the interpreter: a
    /// pattern with many (a trie of keys, `(?:Ba1:|Ba2:|...)`) costs many steps a
    /// candidate where a DFA reads each byte once.
    pub fn branches(&self) -> usize {
        self.steps
            .iter()
            .map(|atom| match atom {
                Atom::Alt { branches } => branches.offsets.len(),
                _ => 0,
            })
            .sum()
    }

    /// The text of every match when the pattern is a plain literal (groups aside).
    pub fn as_literal(&self) -> Option<&[u8]> {
        self.literal.as_deref()
    }

    /// Fills `slots` (2 per group) for the match `start..end` of `hay`. Returns false when
    /// the budget ran out.
    pub fn resolve(
        &self,
        hay: &str,
        start: usize,
        end: usize,
        slots: &mut [Option<usize>],
    ) -> bool {
        slots.fill(None);
        let mut search = Search {
            atoms: &self.steps,
            hay,
            end,
            pinned: true,
            budget: 4 * (end - start) + 64,
            touched_end: false,
            slots,
        };
        let found = search.at(0, start);
        if found {
            search.slots[0] = Some(start);
            search.slots[1] = Some(end);
        }
        found
    }

    /// The leftmost-first match anchored at `start`: `Ok(Some(end))` with the groups in
    /// `slots`, `Ok(None)` when there is none, `Err(())` when the budget ran out (the
    /// caller then asks a DFA). Without look-around and without empty loops, the first
    /// path a depth-first search in preference order completes is the leftmost-first
    /// match, so no end needs to be known beforehand. The steps spent are added to `work`
    /// (scanning charges about one step per eight bytes).
    #[allow(clippy::result_unit_err)]
    pub fn find_end(
        &self,
        hay: &str,
        start: usize,
        slots: &mut [Option<usize>],
        work: &mut usize,
        touched_end: &mut bool,
    ) -> Result<Option<usize>, ()> {
        let budget = 1024 + (hay.len() - start) / 4;
        slots.fill(None);
        let mut search = Search {
            atoms: &self.steps,
            hay,
            end: hay.len(),
            pinned: false,
            budget,
            touched_end: false,
            slots,
        };
        let found = search.at(0, start);
        *work += budget - search.budget;
        *touched_end |= search.touched_end;
        if found {
            let end = search.end;
            search.slots[0] = Some(start);
            search.slots[1] = Some(end);
            Ok(Some(end))
        } else if search.budget == 0 {
            Err(())
        } else {
            Ok(None)
        }
    }
}

fn flatten(hir: &Hir, out: &mut Vec<Atom>) -> Option<()> {
    match hir.kind() {
        HirKind::Empty => {}
        HirKind::Literal(lit) => out.push(Atom::Literal(lit.0.clone())),
        HirKind::Class(class) => out.push(Atom::Class(CharSet::new(class)?)),
        HirKind::Capture(cap) => {
            out.push(Atom::Open(cap.index as usize));
            flatten(&cap.sub, out)?;
            out.push(Atom::Close(cap.index as usize));
        }
        HirKind::Concat(subs) => {
            for sub in subs {
                flatten(sub, out)?;
            }
        }
        HirKind::Repetition(rep) => {
            let class = match rep.sub.kind() {
                HirKind::Class(class) => class.clone(),
                HirKind::Literal(lit) => single_char_class(&lit.0)?,
                _ if rep.min == 0 && rep.max == Some(1) => {
                    return optional(&rep.sub, rep.greedy, out);
                }
                _ => {
                    if let Some(stops) = lines_loop(rep) {
                        out.push(Atom::Lines(Box::new(LinesLoop {
                            stops,
                            next_literal: None,
                        })));
                        return Some(());
                    }
                    // `(?:X){n}`: X repeated exactly n times is X written out n times,
                    // when X holds no group (the same group in each copy would need
                    // the last copy's span, which the slots would not keep apart).
                    let n = rep.max.filter(|&m| m == rep.min && m <= 16)?;
                    let mut body = Vec::new();
                    flatten(&rep.sub, &mut body)?;
                    if body
                        .iter()
                        .any(|a| matches!(a, Atom::Open(_) | Atom::Close(_)))
                    {
                        return None;
                    }
                    for _ in 0..n {
                        out.extend(body.iter().cloned());
                    }
                    return Some(());
                }
            };
            let class = CharSet::new(&class)?;
            out.push(Atom::Repeat(Box::new(Repeat {
                quick: QuickRun::new(&class, rep.min, rep.max, rep.greedy),
                stops: class.few_stops().filter(|_| rep.max.is_some()),
                table: class.only_ascii().then(|| class.table()),
                next: NextBytes::default(),
                class,
                min: rep.min,
                max: rep.max,
                greedy: rep.greedy,
            })));
        }
        HirKind::Alternation(alts) => {
            // An optional part (one alternative and an empty one) is a skip.
            match &alts[..] {
                [x, e] if matches!(e.kind(), HirKind::Empty) => optional(x, true, out)?,
                [e, x] if matches!(e.kind(), HirKind::Empty) => optional(x, false, out)?,
                _ => alternation(alts, out)?,
            }
        }
        HirKind::Look(_) => return None,
    }
    Some(())
}

/// Appends an alternation of `alts` (see [`Atom::Alt`]).
fn alternation(alts: &[Hir], out: &mut Vec<Atom>) -> Option<()> {
    let at = out.len();
    out.push(Atom::Jump(0));
    let mut offsets = Vec::with_capacity(alts.len());
    let mut jumps = Vec::new();
    for (k, alt) in alts.iter().enumerate() {
        let start = out.len();
        flatten(alt, out)?;
        offsets.push(start - at);
        if k + 1 < alts.len() {
            jumps.push(out.len());
            out.push(Atom::Jump(0));
        }
    }
    let end = out.len();
    for j in jumps {
        out[j] = Atom::Jump(end - j);
    }
    out[at] = Atom::Alt {
        branches: Box::new(Branches {
            offsets,
            ..Branches::default()
        }),
    };
    Some(())
}

/// Appends an optional `body` (see [`Atom::Skip`]).
fn optional(body: &Hir, greedy: bool, out: &mut Vec<Atom>) -> Option<()> {
    let mut atoms = Vec::new();
    flatten(body, &mut atoms)?;
    out.push(Atom::Skip {
        len: atoms.len(),
        greedy,
    });
    out.extend(atoms);
    Some(())
}

/// The members of `set` when they are one to three ASCII bytes and nothing else.
fn small_ascii_set(set: &CharSet) -> Option<Vec<u8>> {
    let bytes: Vec<u8> = (0u8..128).filter(|b| set.ascii >> b & 1 == 1).collect();
    (set.only_ascii() && (1..=3).contains(&bytes.len())).then_some(bytes)
}

/// The first position in `hay` of one of `bytes` (none to three).
pub(in crate::exec::fast) fn memchr_any(bytes: &[u8], hay: &[u8]) -> Option<usize> {
    match *bytes {
        [] => None,
        [a] => memchr::memchr(a, hay),
        [a, b] => memchr::memchr2(a, b, hay),
        [a, b, c] => memchr::memchr3(a, b, c, hay),
        _ => unreachable!("at most three bytes"),
    }
}

/// The last position in `hay` of one of `bytes` (one to three).
fn memrchr_any(bytes: &[u8], hay: &[u8]) -> Option<usize> {
    match *bytes {
        [a] => memchr::memrchr(a, hay),
        [a, b] => memchr::memrchr2(a, b, hay),
        [a, b, c] => memchr::memrchr3(a, b, c, hay),
        _ => unreachable!("one to three bytes"),
    }
}

/// The stop bytes of a `(?:C*\n)*` loop (see [`Atom::Lines`]), when `rep` is one: greedy,
/// no bounds, a body of a repeated class `C` without `\n` whose quick run stops at a few
/// ASCII bytes (one of them `\n`), then `\n`.
pub(in crate::exec::fast) fn lines_loop(rep: &regex_syntax::hir::Repetition) -> Option<Vec<u8>> {
    if rep.min != 0 || rep.max.is_some() || !rep.greedy {
        return None;
    }
    let HirKind::Concat(parts) = rep.sub.kind() else {
        return None;
    };
    let [run, newline] = &parts[..] else {
        return None;
    };
    match newline.kind() {
        HirKind::Literal(lit) if &lit.0[..] == b"\n" => {}
        _ => return None,
    }
    let HirKind::Repetition(inner) = run.kind() else {
        return None;
    };
    let HirKind::Class(class) = inner.sub.kind() else {
        return None;
    };
    if inner.min != 0 || inner.max.is_some() {
        return None;
    }
    // Greedy or lazy alike: the run must reach the `\n`, so it has one way to match.
    let class = CharSet::new(class)?;
    let quick = QuickRun::new(&class, 0, None, true)?;
    if !quick.stops.contains(&b'\n') {
        return None;
    }
    Some(quick.stops.into_iter().filter(|&b| b != b'\n').collect())
}

/// The stop bytes of a greedy `C*` (`[^%]*`, `.*`) when `C` is every char but one to
/// three ASCII bytes: its longest run from any place ends at the first of them.
pub(in crate::exec::fast) fn tail_run(rep: &regex_syntax::hir::Repetition) -> Option<Vec<u8>> {
    if rep.min != 0 || rep.max.is_some() || !rep.greedy {
        return None;
    }
    let HirKind::Class(class) = rep.sub.kind() else {
        return None;
    };
    let class = CharSet::new(class)?;
    QuickRun::new(&class, 0, None, true).map(|q| q.stops)
}

/// The class holding exactly the one char `bytes` encodes.
fn single_char_class(bytes: &[u8]) -> Option<Class> {
    let text = std::str::from_utf8(bytes).ok()?;
    let mut chars = text.chars();
    let c = chars.next()?;
    if chars.next().is_some() {
        return None;
    }
    let range = regex_syntax::hir::ClassUnicodeRange::new(c, c);
    Some(Class::Unicode(regex_syntax::hir::ClassUnicode::new([
        range,
    ])))
}

/// Charge for scanning `len` bytes with memchr/memmem, in search steps.
fn scan_cost(len: usize) -> usize {
    len / 8 + 1
}

// The analyses of the flattened pattern behind `Linear`'s flags.

/// Whether a search backtracks little: every repetition either is a quick run
/// ([`QuickRun`]) or has at most 8 counts to choose from. Such a pattern finds a
/// match and its groups in one pass faster than a jump to its line followed by a
/// second search for the groups (`lines`); a repetition like `[^\n]{9,58}` tries
/// too many places.
fn backtracks_little(atoms: &[Atom]) -> bool {
    atoms.iter().all(|atom| match atom {
        Atom::Repeat(repeat) => {
            repeat.quick.is_some()
                || repeat
                    .max
                    .is_some_and(|max| max.saturating_sub(repeat.min) <= 8)
        }
        _ => true,
    })
}

/// Whether finding matches would try many places one by one: a run of a class with
/// something after it that is neither a literal nor a class of at most three bytes
/// (`[^\n]*[.pnbrqk]...`), so each char of the run is a place to try the rest at. A
/// DFA finds such matches in one pass; the groups of the matches are still resolved
/// here.
fn dense(atoms: &[Atom]) -> bool {
    atoms.iter().enumerate().any(|(i, atom)| {
        let Atom::Repeat(repeat) = atom else {
            return false;
        };
        let Some(quick) = &repeat.quick else {
            return false;
        };
        let rest = atoms[i + 1..]
            .iter()
            .any(|a| !matches!(a, Atom::Open(_) | Atom::Close(_)));
        rest && quick.next_literal.is_none() && quick.next_bytes.is_none()
    })
}

/// The text of every match when the pattern is a plain literal (groups aside).
fn as_literal(atoms: &[Atom]) -> Option<Box<[u8]>> {
    let mut text = Vec::new();
    for atom in atoms {
        match atom {
            Atom::Literal(lit) => text.extend_from_slice(lit),
            Atom::Open(_) | Atom::Close(_) => {}
            _ => return None,
        }
    }
    (!text.is_empty()).then(|| text.into())
}

mod next_bytes;
mod search;
mod span;
mod stored;
#[cfg(test)]
mod tests;
