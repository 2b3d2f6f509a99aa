//! The bottom layer of the fast executor: a pattern's parse, the ASCII cut-down form its
//! lazy DFAs are built from, and a compact binary form of a parse that is much cheaper
//! to read back than the pattern is to parse.
//!
//! Contract:
//! - [`parse`] gives the HIR `regex` builds for a pattern (its syntax defaults).
//! - [`decode`]`(`[`encode`]`(hir))` equals `hir` for every HIR [`parse`] returns (the
//!   tests check it on the chess programs' patterns and on generated ones). [`decode`] of
//!   any other bytes gives an error or some HIR, never a panic; callers that read bytes
//!   from outside the process check them first (the program cache's checksum and key).
//! - [`ascii_hir`] and [`ascii_config`]: see their docs; every lazy DFA of the executor
//!   is built from an [`ascii_hir`] parse, as an [`AsciiDfa`]: quitting per
//!   [`ascii_config`], or without those quit bytes for runs whose texts stay ASCII.
//!
//! Why a binary form: parsing is most of what a fresh process pays before its first
//! move (the AST, then its translation, Unicode class tables for `[^\n]`), and every
//! engine built later needed the parse again. The binary form is a pre-order walk of the
//! HIR, read back through `regex_syntax`'s own constructors (which rebuild the same
//! properties), at about the cost of cloning the HIR.
//!
//! The binary forms of a program's patterns travel in the program cache (see
//! `remembered.rs`).
//!
//! Trade-offs: the binary form is this build's own (the program cache's key changes
//! with the source, so a file of another build is rebuilt, never read); reading it back
//! goes through `regex_syntax`'s constructors, which recompute every property instead
//! of trusting stored ones: about a clone's cost, and never a HIR that disagrees with
//! itself.
//!
//! Layer 1: nothing here depends on other modules of the executor.

use std::sync::OnceLock;

use regex_automata::hybrid::dfa as hybrid;

use crate::codec::{Malformed, Reader, put};
use regex_automata::nfa::thompson::NFA;
use regex_automata::util::syntax as automata_syntax;
use regex_syntax::hir::{
    Capture, Class, ClassBytes, ClassBytesRange, ClassUnicode, ClassUnicodeRange, Hir, HirKind,
    Look, Repetition,
};

/// Parses `pattern`, which `regex::Regex::new` accepts, with `regex`'s syntax defaults.
pub fn parse(pattern: &str) -> Hir {
    automata_syntax::parse_with(pattern, &automata_syntax::Config::default())
        .expect("a validated pattern parses")
}

/// Which way an automaton built from [`ascii_hir`] reads the text.
#[derive(Clone, Copy, Debug)]
pub enum Direction {
    Forward,
    Reverse,
}

/// The lazy DFA configuration for an automaton built from [`ascii_hir`]: a search
/// either reads ASCII bytes only (where the ASCII restriction changes nothing) or quits,
/// and the caller then asks an engine built from the pattern itself.
///
/// The text is valid UTF-8, so a non-ASCII char is a lead byte (0xC0 and up) followed
/// by continuation bytes (0x80-0xBF). Reading forward, the first non-ASCII byte after
/// ASCII ones is a lead byte; reading back from a char boundary, a continuation byte. So
/// only those are quit bytes: every lazy DFA state sets a transition per quit byte when
/// it is made, and half as many quit bytes halve that cost. (A continuation byte where a
/// forward search starts cannot begin a match of either form, so both treat it alike.)
pub fn ascii_config(config: hybrid::Config, direction: Direction) -> hybrid::Config {
    let quit = match direction {
        Direction::Forward => 0xC0..=0xFF,
        Direction::Reverse => 0x80..=0xBF,
    };
    quit.fold(config, |c, byte| c.quit(byte, true))
}

/// A lazy DFA of an NFA built from an [`ascii_hir`] parse, in the two forms a run may
/// need, each built on first use from the one NFA.
///
/// - [`AsciiDfa::get`]`(true)`, *exact*: no quit bytes of ours. It is only right on texts
///   whose every byte is ASCII, where the cut-down parse matches what the pattern
///   matches: runs whose text and every template are ASCII, so that the state stays
///   ASCII throughout (a rule only copies bytes of the state and writes its template's
///   literals). Every new lazy-DFA state of the quitting form sets a transition per quit
///   byte; this form skips that (a sixth of the states' cost in a fresh process's first
///   move, PERF.md "Cold start").
/// - [`AsciiDfa::get`]`(false)`, *quitting*: configured with [`ascii_config`], right on
///   every text (a search that meets a non-ASCII byte quits and the caller asks another
///   engine).
///
/// Both keep the configuration's `unicode_word_boundary(true)`: for a pattern with a
/// Unicode word boundary `regex_automata` itself quits on every non-ASCII byte, which
/// an ASCII text never holds.
#[derive(Debug)]
pub struct AsciiDfa {
    nfa: NFA,
    config: hybrid::Config,
    direction: Direction,
    exact: OnceLock<Option<hybrid::DFA>>,
    quitting: OnceLock<Option<hybrid::DFA>>,
}

/// The value of `lock`, built with `build` outside the lock when it has none yet and then
/// set: unlike `get_or_init`, another thread that needs the value meanwhile does not wait
/// for this one (a helper thread preempted while it builds would hold up the run that
/// waits for it); it builds its own, and whichever is set first is kept. For values that
/// `build` makes the same every time.
pub fn set_built<T>(lock: &OnceLock<T>, build: impl FnOnce() -> T) -> &T {
    if let Some(value) = lock.get() {
        return value;
    }
    let _ = lock.set(build());
    lock.get().expect("set just now, by this thread or another")
}

impl AsciiDfa {
    /// Builds the form [`AsciiDfa::get`] returns for `ascii` when it is not built yet,
    /// without holding its lock while it builds (see [`set_built`]).
    pub fn build_ahead(&self, ascii: bool) {
        if ascii {
            set_built(&self.exact, || self.build(self.config.clone()));
        } else {
            set_built(&self.quitting, || {
                self.build(ascii_config(self.config.clone(), self.direction))
            });
        }
    }

    /// A lazy DFA of the NFA with `config`, `None` when it cannot be built.
    fn build(&self, config: hybrid::Config) -> Option<hybrid::DFA> {
        hybrid::Builder::new()
            .configure(config)
            .build_from_nfa(self.nfa.clone())
            .ok()
    }

    /// The lazy DFAs of `nfa` (built from an [`ascii_hir`] parse) with `config` (without
    /// quit bytes: the quitting form adds those of `direction`).
    pub fn new(nfa: NFA, config: hybrid::Config, direction: Direction) -> AsciiDfa {
        AsciiDfa {
            nfa,
            config,
            direction,
            exact: OnceLock::new(),
            quitting: OnceLock::new(),
        }
    }

    /// The exact form when `ascii` (the caller's texts are all ASCII), else the quitting
    /// form; built on first use, `None` when it cannot be built.
    pub fn get(&self, ascii: bool) -> Option<&hybrid::DFA> {
        // The configuration is made inside the closures: a lookup of a built form (every
        // search) must not pay for cloning it and setting its quit bytes.
        if ascii {
            self.exact.get_or_init(|| self.build(self.config.clone()))
        } else {
            self.quitting
                .get_or_init(|| self.build(ascii_config(self.config.clone(), self.direction)))
        }
        .as_ref()
    }
}

/// `hir` with every Unicode class cut down to its ASCII chars.
///
/// On a text whose every byte is ASCII it matches exactly what `hir` matches, with the
/// same groups: a non-ASCII char is encoded by bytes 0x80 and up, so the text holds none,
/// and a path through a class can only step over an ASCII char. It is only ever run with
/// [`ascii_config`], which stops at the first non-ASCII byte. The point is memory: `.`
/// and `[^\n]` are Unicode classes, which compile into many UTF-8 byte-range states and
/// split the bytes 0x80-0xFF into many byte classes, which widens every lazy DFA state's
/// transition table; the machine's texts are ASCII.
pub fn ascii_hir(hir: &Hir) -> Hir {
    match hir.kind() {
        HirKind::Class(Class::Unicode(class)) => {
            let mut ascii = class.clone();
            ascii.intersect(&ClassUnicode::new([ClassUnicodeRange::new('\0', '\x7F')]));
            Hir::class(Class::Unicode(ascii))
        }
        _ => map_subs(hir, ascii_hir),
    }
}

/// `hir` rebuilt with `f` applied to each of its direct sub-expressions (a repetition's or
/// a group's body, a concatenation's or an alternation's parts); a leaf (empty, literal,
/// class, look) comes back as it is. The rewrites of parses recurse through it.
pub fn map_subs(hir: &Hir, f: impl Fn(&Hir) -> Hir) -> Hir {
    match hir.kind() {
        HirKind::Empty | HirKind::Literal(_) | HirKind::Class(_) | HirKind::Look(_) => hir.clone(),
        HirKind::Repetition(rep) => Hir::repetition(Repetition {
            sub: Box::new(f(&rep.sub)),
            ..rep.clone()
        }),
        HirKind::Capture(cap) => Hir::capture(Capture {
            sub: Box::new(f(&cap.sub)),
            ..cap.clone()
        }),
        HirKind::Concat(subs) => Hir::concat(subs.iter().map(f).collect()),
        HirKind::Alternation(subs) => Hir::alternation(subs.iter().map(f).collect()),
    }
}

/// Node tags of the binary form.
mod tag {
    pub const EMPTY: u8 = 0;
    pub const LITERAL: u8 = 1;
    pub const UNICODE: u8 = 2;
    pub const BYTES: u8 = 3;
    pub const LOOK: u8 = 4;
    pub const REPETITION: u8 = 5;
    pub const CAPTURE: u8 = 6;
    pub const CONCAT: u8 = 7;
    pub const ALTERNATION: u8 = 8;
}

/// How deep [`decode`] follows nested nodes (`regex`'s parser stops at 250 levels of
/// nesting; a HIR nests less than its pattern).
const MAX_DEPTH: usize = 1000;

/// `hir` in the binary form [`decode`] reads, appended to `out`.
pub fn encode(hir: &Hir, out: &mut Vec<u8>) {
    match hir.kind() {
        HirKind::Empty => out.push(tag::EMPTY),
        HirKind::Literal(lit) => {
            out.push(tag::LITERAL);
            put(out, lit.0.len());
            out.extend_from_slice(&lit.0);
        }
        HirKind::Class(Class::Unicode(class)) => {
            out.push(tag::UNICODE);
            put(out, class.ranges().len());
            for range in class.ranges() {
                put(out, range.start() as usize);
                put(out, range.end() as usize);
            }
        }
        HirKind::Class(Class::Bytes(class)) => {
            out.push(tag::BYTES);
            put(out, class.ranges().len());
            for range in class.ranges() {
                out.extend_from_slice(&[range.start(), range.end()]);
            }
        }
        HirKind::Look(look) => {
            out.push(tag::LOOK);
            put(out, look.as_repr() as usize);
        }
        HirKind::Repetition(rep) => {
            out.push(tag::REPETITION);
            put(out, rep.min as usize);
            put(out, rep.max.map_or(0, |max| max as usize + 1));
            out.push(u8::from(rep.greedy));
            encode(&rep.sub, out);
        }
        HirKind::Capture(cap) => {
            out.push(tag::CAPTURE);
            put(out, cap.index as usize);
            match &cap.name {
                Some(name) => {
                    put(out, name.len() + 1);
                    out.extend_from_slice(name.as_bytes());
                }
                None => put(out, 0),
            }
            encode(&cap.sub, out);
        }
        HirKind::Concat(subs) | HirKind::Alternation(subs) => {
            let is_concat = matches!(hir.kind(), HirKind::Concat(_));
            out.push(if is_concat {
                tag::CONCAT
            } else {
                tag::ALTERNATION
            });
            put(out, subs.len());
            for sub in subs {
                encode(sub, out);
            }
        }
    }
}

/// Why bytes are not the binary form of a HIR.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("not a parsed pattern: {0}")]
pub struct DecodeError(pub(in crate::exec::fast) &'static str);

/// The HIR whose binary form ([`encode`]) is all of `bytes`.
pub fn decode(bytes: &[u8]) -> Result<Hir, DecodeError> {
    let mut reader = HirReader {
        r: Reader::new(bytes),
        ascii: false,
    };
    let hir = reader.hir(0)?;
    if !reader.r.at_end() {
        return Err(DecodeError("bytes after the end"));
    }
    Ok(hir)
}

/// [`ascii_hir`] of the HIR whose binary form is all of `bytes`, read in one pass (the
/// lazy DFAs' form, without building the whole parse first).
pub fn decode_ascii(bytes: &[u8]) -> Result<Hir, DecodeError> {
    let mut reader = HirReader {
        r: Reader::new(bytes),
        ascii: true,
    };
    let hir = reader.hir(0)?;
    if !reader.r.at_end() {
        return Err(DecodeError("bytes after the end"));
    }
    Ok(hir)
}

impl From<Malformed> for DecodeError {
    fn from(Malformed(problem): Malformed) -> DecodeError {
        DecodeError(problem)
    }
}

/// The codec's reader of the binary form, which cuts Unicode classes down to their ASCII
/// chars as they are read when `ascii`.
struct HirReader<'a> {
    r: Reader<'a>,
    ascii: bool,
}

impl HirReader<'_> {
    fn hir(&mut self, depth: usize) -> Result<Hir, DecodeError> {
        if depth > MAX_DEPTH {
            return Err(DecodeError("nested too deep"));
        }
        Ok(match self.r.byte()? {
            tag::EMPTY => Hir::empty(),
            tag::LITERAL => {
                let len = self.r.varint()?;
                Hir::literal(self.r.take(len)?)
            }
            tag::UNICODE => {
                let n = self.r.count()?;
                let mut ranges = Vec::with_capacity(n);
                for _ in 0..n {
                    let (start, end) = (self.r.char()?, self.r.char()?);
                    if !self.ascii {
                        ranges.push(ClassUnicodeRange::new(start, end));
                    } else if start <= '\x7F' {
                        ranges.push(ClassUnicodeRange::new(start, end.min('\x7F')));
                    }
                }
                Hir::class(Class::Unicode(ClassUnicode::new(ranges)))
            }
            tag::BYTES => {
                let n = self.r.count()?;
                let mut ranges = Vec::with_capacity(n);
                for _ in 0..n {
                    let (start, end) = (self.r.byte()?, self.r.byte()?);
                    ranges.push(ClassBytesRange::new(start, end));
                }
                Hir::class(Class::Bytes(ClassBytes::new(ranges)))
            }
            tag::LOOK => Hir::look(Look::from_repr(self.r.u32()?).ok_or(DecodeError("bad look"))?),
            tag::REPETITION => {
                let min = self.r.u32()?;
                let max = match self.r.u32()? {
                    0 => None,
                    n => Some(n - 1),
                };
                if max.is_some_and(|max| max < min) {
                    return Err(DecodeError("repetition max below min"));
                }
                let greedy = match self.r.byte()? {
                    0 => false,
                    1 => true,
                    _ => return Err(DecodeError("bad greedy flag")),
                };
                let sub = Box::new(self.hir(depth + 1)?);
                Hir::repetition(Repetition {
                    min,
                    max,
                    greedy,
                    sub,
                })
            }
            tag::CAPTURE => {
                let index = self.r.u32()?;
                let name = match self.r.varint()? {
                    0 => None,
                    n => {
                        let bytes = self.r.take(n - 1)?;
                        let name = std::str::from_utf8(bytes)
                            .map_err(|_| DecodeError("group name not UTF-8"))?;
                        Some(name.into())
                    }
                };
                let sub = Box::new(self.hir(depth + 1)?);
                Hir::capture(Capture { index, name, sub })
            }
            tag @ (tag::CONCAT | tag::ALTERNATION) => {
                let n = self.r.count()?;
                let subs = (0..n)
                    .map(|_| self.hir(depth + 1))
                    .collect::<Result<Vec<_>, _>>()?;
                if tag == tag::CONCAT {
                    Hir::concat(subs)
                } else {
                    Hir::alternation(subs)
                }
            }
            _ => return Err(DecodeError("unknown node")),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn round_trip(pattern: &str) {
        let hir = parse(pattern);
        let mut bytes = Vec::new();
        encode(&hir, &mut bytes);
        assert_eq!(decode(&bytes).as_ref(), Ok(&hir), "{pattern:?}");
        assert_eq!(decode_ascii(&bytes), Ok(ascii_hir(&hir)), "{pattern:?}");
    }

    /// A counted list reads back whole, in one allocation of its length; a list whose
    /// count runs past the bytes, or whose items run out, is an error.
    #[test]
    fn counted_lists_read_back_or_fail() {
        let mut out = Vec::new();
        put(&mut out, 3);
        for n in [5, 300, 7] {
            put(&mut out, n);
        }
        let mut reader = Reader::new(&out);
        let n = reader.count().expect("a count");
        let items = reader.list(n, Reader::varint).expect("three numbers");
        assert_eq!(items, [5, 300, 7]);
        assert_eq!(items.capacity(), 3);
        assert!(reader.at_end());
        for cut in 1..out.len() {
            let mut reader = Reader::new(&out[..cut]);
            let read = reader.count().and_then(|n| reader.list(n, Reader::varint));
            assert!(read.is_err(), "cut at {cut}");
        }
        let mut reader = Reader::new(&[200, 1, 0]);
        assert!(reader.count().is_err(), "a count past the end");
    }

    #[test]
    fn the_binary_form_reads_back_every_kind_of_node() {
        for pattern in [
            "",
            "a",
            "abc",
            "[a-c]",
            "(?-u:[\\x00-\\x7F])",
            "(?-u:\\w)",
            "[^\\n]*",
            ".+?",
            "\\P{any}",
            "a{2,5}x{3,}y{0,1}?",
            "^(?m)$\\b\\B(?-u:\\b)\\<\\>\\b{start-half}",
            "(a)(?P<name>b|c)(?:d|e)",
            "(%%\\n#stack:\\n)((?:[^%\\n]*\\n)*#b: )([^\\n]*)\\n",
            "(?i)é[αβ]|\\w+",
            "a|b|c",
            "x(){0}(y)",
        ] {
            round_trip(pattern);
        }
    }

    #[test]
    fn damaged_forms_are_errors_not_panics() {
        let mut bytes = Vec::new();
        encode(&parse("(%%\\n)(?P<x>[^\\n]{2,7})|b*"), &mut bytes);
        for cut in 0..bytes.len() {
            assert!(decode(&bytes[..cut]).is_err(), "cut at {cut}");
            assert!(decode_ascii(&bytes[..cut]).is_err(), "cut at {cut}");
        }
        let mut longer = bytes.clone();
        longer.push(0);
        assert!(decode(&longer).is_err());
        for i in 0..bytes.len() {
            for bit in 0..8 {
                let mut flipped = bytes.clone();
                flipped[i] ^= 1 << bit;
                let _ = decode(&flipped);
            }
        }
        assert!(decode(&[tag::REPETITION, 3, 2, 1, tag::EMPTY]).is_err());
        let deep: Vec<u8> = std::iter::repeat_n([tag::CAPTURE, 1, 0], MAX_DEPTH + 2)
            .flatten()
            .chain([tag::EMPTY])
            .collect();
        assert!(decode(&deep).is_err());
    }

    #[test]
    fn the_chess_programs_patterns_read_back() {
        for pattern in crate::exec::fast::generated::program_patterns(&["play", "move"]) {
            round_trip(&pattern);
        }
    }

    mod generated {
        use proptest::prelude::*;

        fn pattern() -> BoxedStrategy<String> {
            crate::exec::fast::generated::patterns(
                "[a-c%\\n#]",
                &[
                    "[^\\n]",
                    "[^%]",
                    ".",
                    "[0-9é]",
                    "\\b",
                    "^",
                    "(?m:$)",
                    "(?-u:[a-f])",
                ],
                &["({})", "(?P<n>{})", "(?:{})*", "(?:{}){1,3}?", "(?i:{})+"],
            )
        }

        proptest! {
            #![proptest_config(ProptestConfig::with_cases(500))]
            #[test]
            fn generated_patterns_read_back(p in pattern()) {
                if regex::Regex::new(&p).is_ok() {
                    super::round_trip(&p);
                }
            }
        }
    }
}
