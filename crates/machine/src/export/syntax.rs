//! Re-emitting a `regex` pattern in another engine's syntax.
//!
//! A pattern is parsed with `regex-syntax` (the parser the `regex` crate itself uses, with
//! the same default settings) into its HIR, in which every class is already a plain set
//! of code points: `\d`, `\w`, `\s`, `.`, `(?i)` letters and Unicode classes are all
//! expanded to exactly what `regex` means by them. [`translate`] walks the HIR and writes
//! it for a [`Target`] using only constructs whose meaning is the same in that engine:
//!
//! - every class is an explicit bracket list (`[...]`, or `[^...]` when the complement is
//!   shorter), so no engine's own idea of `\d`, `\w`, `.` or case folding is involved;
//! - anchors become constructs with one meaning: `\A`/`\Z` in Python (Python's `$` also
//!   matches before a final newline), `(?<![\s\S])`/`(?![\s\S])` in JavaScript (which has
//!   neither); the multi-line `^`/`$` become `(?<![^\n])`/`(?![^\n])` (JavaScript's
//!   multi-line mode would also stop at `\r`, U+2028 and U+2029), so no flag is needed;
//! - word boundaries become look-arounds on the expanded word class (JavaScript's `\b`
//!   is ASCII-only, Python's uses `str.isalnum`, neither is `regex`'s);
//! - groups keep their numbers; a name is kept when it is an identifier in both engines
//!   (`regex` also allows `.`, `[` and `]`), otherwise the group is emitted unnamed, which
//!   changes nothing since replacements refer to groups by number.
//!
//! What cannot be rendered with the same meaning is refused with a [`Refusal`]:
//! a repetition of something that can match the empty string (backtracking engines give up
//! on an empty iteration, `regex` does not, so `(?:|a)?` matches differently), and, for
//! JavaScript, a capture group inside a repetition that an iteration may skip (JavaScript
//! resets captures at every iteration; `regex` and Python keep the last value).
//!
//! JavaScript patterns are written for the `u`-less mode, in which the engine sees UTF-16
//! code units: a code point above U+FFFF is written as its surrogate pair, and a class that
//! holds such code points becomes an alternation of a BMP class and surrogate-pair
//! sequences; BMP classes never include surrogates, so nothing matches half a pair. A
//! pattern that can match the empty string is prefixed with `(?![\uDC00-\uDFFF])`, so that
//! no match starts inside a pair (after an empty match `replace` advances one code unit).
//! The `u` flag is not an alternative: V8 (Node.js 20, Chromium) with `u` still tries
//! look-arounds at positions inside a surrogate pair, so `/(?<![\s\S])/gu` replaces
//! *inside* the `😀` of `a😀b`.

use std::fmt::Write;

use regex_syntax::hir::{Class, Hir, HirKind, Look};

/// The engine a pattern is written for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Target {
    /// CPython's `re` module (3.7 or later).
    Python,
    /// ECMAScript `RegExp` (ES2018 or later: look-behind, named groups).
    Js,
}

/// A pattern written for a target.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Translated {
    /// The pattern source in the target's syntax (for JavaScript, without slashes or
    /// flags; it is meant for the `g` flag alone).
    pub source: String,
    /// The pattern can match the empty string.
    pub can_be_empty: bool,
    /// The pattern matches only the empty string.
    pub only_empty: bool,
}

/// Why a pattern cannot be written for a target with the same meaning.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct Refusal(pub String);

/// Writes `pattern` (in the `regex` crate's syntax) for `target`.
pub fn translate(pattern: &str, target: Target) -> Result<Translated, Refusal> {
    let hir = regex_syntax::ParserBuilder::new()
        .build()
        .parse(pattern)
        .map_err(|e| {
            Refusal(format!(
                "the pattern does not parse: {}",
                e.to_string().lines().collect::<Vec<_>>().join(" ")
            ))
        })?;
    let mut writer = Writer {
        target,
        out: String::new(),
    };
    writer.hir(&hir)?;
    let props = hir.properties();
    let can_be_empty = props.minimum_len() == Some(0);
    let source = if target == Target::Js && can_be_empty {
        // No match, empty or not, may start between the halves of a surrogate pair.
        format!("(?![\\uDC00-\\uDFFF])(?:{})", writer.out)
    } else if writer.out.is_empty() {
        "(?:)".to_string()
    } else {
        writer.out
    };
    Ok(Translated {
        source,
        can_be_empty,
        only_empty: props.maximum_len() == Some(0),
    })
}

struct Writer {
    target: Target,
    out: String,
}

/// True when `name` is a group name both Python and JavaScript accept.
fn portable_name(name: &str) -> bool {
    let mut chars = name.chars();
    matches!(chars.next(), Some(c) if c.is_ascii_alphabetic() || c == '_')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_')
}

/// True when the expression is written as one atom that a quantifier can follow (for
/// JavaScript, a code point above U+FFFF is two units, so it is not).
fn is_atom(hir: &Hir, target: Target) -> bool {
    match hir.kind() {
        HirKind::Literal(lit) => std::str::from_utf8(&lit.0)
            .ok()
            .and_then(|s| {
                let mut chars = s.chars();
                let c = chars.next()?;
                chars.next().is_none().then_some(c)
            })
            .is_some_and(|c| target == Target::Python || (c as u32) <= 0xFFFF),
        HirKind::Class(_) | HirKind::Capture(_) => true,
        _ => false,
    }
}

impl Writer {
    fn hir(&mut self, hir: &Hir) -> Result<(), Refusal> {
        match hir.kind() {
            HirKind::Empty => {}
            HirKind::Literal(lit) => {
                let text = std::str::from_utf8(&lit.0).map_err(|_| {
                    Refusal("the pattern has a literal that is not UTF-8".to_string())
                })?;
                for c in text.chars() {
                    self.literal_char(c);
                }
            }
            HirKind::Class(class) => {
                let ranges = class_ranges(class)?;
                match self.target {
                    Target::Python => self.class(&ranges),
                    Target::Js => self.js_class(&ranges),
                }
            }
            HirKind::Look(look) => self.look(*look),
            HirKind::Repetition(rep) => {
                if rep.sub.properties().minimum_len() == Some(0) {
                    return Err(Refusal(format!(
                        "the pattern repeats `{}`, which can match the empty string; \
                         backtracking engines treat an empty iteration differently",
                        rep.sub
                    )));
                }
                if self.target == Target::Js
                    && rep.max != Some(1)
                    && has_optional_capture(&rep.sub, false)
                {
                    return Err(Refusal(format!(
                        "the pattern repeats `{}`, in which a capture group may not take \
                         part; JavaScript forgets such a group at every iteration",
                        rep.sub
                    )));
                }
                if is_atom(&rep.sub, self.target) {
                    self.hir(&rep.sub)?;
                } else {
                    self.out.push_str("(?:");
                    self.hir(&rep.sub)?;
                    self.out.push(')');
                }
                match (rep.min, rep.max) {
                    (0, None) => self.out.push('*'),
                    (1, None) => self.out.push('+'),
                    (0, Some(1)) => self.out.push('?'),
                    (min, None) => write!(self.out, "{{{min},}}").unwrap(),
                    (min, Some(max)) if min == max => write!(self.out, "{{{min}}}").unwrap(),
                    (min, Some(max)) => write!(self.out, "{{{min},{max}}}").unwrap(),
                }
                if !rep.greedy {
                    self.out.push('?');
                }
            }
            HirKind::Capture(cap) => {
                match cap.name.as_deref().filter(|n| portable_name(n)) {
                    Some(name) => match self.target {
                        Target::Python => write!(self.out, "(?P<{name}>").unwrap(),
                        Target::Js => write!(self.out, "(?<{name}>").unwrap(),
                    },
                    None => self.out.push('('),
                }
                self.hir(&cap.sub)?;
                self.out.push(')');
            }
            HirKind::Concat(parts) => {
                for part in parts {
                    if matches!(part.kind(), HirKind::Alternation(_)) {
                        self.out.push_str("(?:");
                        self.hir(part)?;
                        self.out.push(')');
                    } else {
                        self.hir(part)?;
                    }
                }
            }
            HirKind::Alternation(branches) => {
                for (i, branch) in branches.iter().enumerate() {
                    if i > 0 {
                        self.out.push('|');
                    }
                    self.hir(branch)?;
                }
            }
        }
        Ok(())
    }

    /// One code point outside a class.
    fn literal_char(&mut self, c: char) {
        let special = match self.target {
            Target::Python => ".^$*+?{}[]\\|()".contains(c),
            Target::Js => "^$\\.*+?()[]{}|/".contains(c),
        };
        if special {
            self.out.push('\\');
            self.out.push(c);
        } else {
            self.code_point(c);
        }
    }

    /// One code point inside a class.
    fn class_char(&mut self, c: char) {
        let special = match self.target {
            Target::Python => "\\]^-[&~|".contains(c),
            Target::Js => "\\]^-[/".contains(c),
        };
        if special {
            self.out.push('\\');
            self.out.push(c);
        } else {
            self.code_point(c);
        }
    }

    /// A code point that is not a metacharacter: itself when it is visible, else an escape.
    fn code_point(&mut self, c: char) {
        let n = c as u32;
        if self.target == Target::Js && n > 0xFFFF {
            // Two code units, written as escapes: the pattern has no `u` flag.
            let mut units = [0u16; 2];
            for unit in c.encode_utf16(&mut units) {
                write!(self.out, "\\u{unit:04x}").unwrap();
            }
            return;
        }
        if visible(c) {
            self.out.push(c);
            return;
        }
        match (self.target, n) {
            (_, 0x0A) => self.out.push_str("\\n"),
            (_, 0x09) => self.out.push_str("\\t"),
            (_, 0x0D) => self.out.push_str("\\r"),
            (_, 0..=0xFF) => write!(self.out, "\\x{n:02x}").unwrap(),
            (_, 0x100..=0xFFFF) => write!(self.out, "\\u{n:04x}").unwrap(),
            (_, _) => write!(self.out, "\\U{n:08x}").unwrap(),
        }
    }

    /// A set of code points as a bracket list, the shorter of the list and its complement
    /// (Python: one class matches one code point).
    fn class(&mut self, ranges: &[(char, char)]) {
        let complement = complement(ranges);
        if ranges.is_empty() {
            // Matches nothing.
            self.out.push_str("[^\\s\\S]");
            return;
        }
        if complement.is_empty() {
            self.out.push_str("[\\s\\S]");
            return;
        }
        if complement.len() < ranges.len() {
            self.bracket(true, &complement);
        } else {
            self.bracket(false, ranges);
        }
    }

    /// `[...]` or `[^...]` of `list`.
    fn bracket(&mut self, negated: bool, list: &[(char, char)]) {
        self.out.push_str(if negated { "[^" } else { "[" });
        self.list(list);
        self.out.push(']');
    }

    /// The ranges of a bracket list, without the brackets.
    fn list(&mut self, list: &[(char, char)]) {
        for &(start, end) in list {
            self.class_char(start);
            if end != start {
                if end as u32 > start as u32 + 1 {
                    self.out.push('-');
                }
                self.class_char(end);
            }
        }
    }

    /// A set of code points for JavaScript without `u`: a class of BMP code points (never
    /// a surrogate, so a negated list also excludes them) and, for the code points above
    /// U+FFFF, surrogate-pair sequences; an alternation of both is grouped.
    fn js_class(&mut self, ranges: &[(char, char)]) {
        // The BMP part, split around the surrogates: a JavaScript range such as
        // `&-\uffff` would include them.
        let mut bmp: Vec<(char, char)> = Vec::new();
        for &(start, end) in ranges.iter().filter(|(start, _)| (*start as u32) <= 0xFFFF) {
            let end = end.min('\u{FFFF}');
            if start <= '\u{D7FF}' && end >= '\u{E000}' {
                bmp.push((start, '\u{D7FF}'));
                bmp.push(('\u{E000}', end));
            } else {
                bmp.push((start, end));
            }
        }
        let astral: Vec<(u32, u32)> = ranges
            .iter()
            .filter(|(_, end)| (*end as u32) > 0xFFFF)
            .map(|&(start, end)| ((start as u32).max(0x10000), end as u32))
            .collect();
        let mut branches = Vec::new();
        if !bmp.is_empty() {
            // The complement within the BMP; written negated, it also lists the
            // surrogates, so that `[^...]` never matches half a pair.
            let outside: Vec<(char, char)> = complement(&bmp)
                .into_iter()
                .filter(|(start, _)| (*start as u32) <= 0xFFFF)
                .map(|(start, end)| (start, end.min('\u{FFFF}')))
                .collect();
            let mut w = Writer {
                target: self.target,
                out: String::new(),
            };
            if outside.len() < bmp.len() {
                w.out.push_str("[^");
                w.list(&outside);
                w.out.push_str("\\ud800-\\udfff]");
            } else {
                w.bracket(false, &bmp);
            }
            branches.push(w.out);
        }
        let only_bmp = astral.is_empty();
        for (start, end) in astral {
            branches.extend(surrogate_ranges(start, end));
        }
        match branches.len() {
            0 => self.out.push_str("[^\\s\\S]"),
            1 if only_bmp => self.out.push_str(&branches[0]),
            _ => {
                self.out.push_str("(?:");
                self.out.push_str(&branches.join("|"));
                self.out.push(')');
            }
        }
    }

    fn look(&mut self, look: Look) {
        let ascii_word = [('0', '9'), ('A', 'Z'), ('_', '_'), ('a', 'z')];
        let word = match look {
            Look::WordAscii
            | Look::WordAsciiNegate
            | Look::WordStartAscii
            | Look::WordEndAscii
            | Look::WordStartHalfAscii
            | Look::WordEndHalfAscii => Some(ascii_word.to_vec()),
            Look::WordUnicode
            | Look::WordUnicodeNegate
            | Look::WordStartUnicode
            | Look::WordEndUnicode
            | Look::WordStartHalfUnicode
            | Look::WordEndHalfUnicode => Some(unicode_word()),
            _ => None,
        };
        let Some(word) = word else {
            let text = match (look, self.target) {
                (Look::Start, Target::Python) => "\\A",
                (Look::End, Target::Python) => "\\Z",
                (Look::Start, Target::Js) => "(?<![\\s\\S])",
                (Look::End, Target::Js) => "(?![\\s\\S])",
                (Look::StartLF, _) => "(?<![^\\n])",
                (Look::EndLF, _) => "(?![^\\n])",
                (Look::StartCRLF, _) => "(?:(?<![\\s\\S])|(?<=\\n)|(?<=\\r)(?!\\n))",
                (Look::EndCRLF, _) => "(?:(?![\\s\\S])|(?=\\r)|(?<!\\r)(?=\\n))",
                _ => unreachable!("word looks are handled above"),
            };
            self.out.push_str(text);
            return;
        };
        let mut w = Writer {
            target: self.target,
            out: String::new(),
        };
        match self.target {
            Target::Python => w.class(&word),
            Target::Js => w.js_class(&word),
        }
        let w = w.out;
        let text = match look {
            Look::WordAscii | Look::WordUnicode => {
                format!("(?:(?<={w})(?!{w})|(?<!{w})(?={w}))")
            }
            Look::WordAsciiNegate | Look::WordUnicodeNegate => {
                format!("(?:(?<={w})(?={w})|(?<!{w})(?!{w}))")
            }
            Look::WordStartAscii | Look::WordStartUnicode => format!("(?<!{w})(?={w})"),
            Look::WordEndAscii | Look::WordEndUnicode => format!("(?<={w})(?!{w})"),
            Look::WordStartHalfAscii | Look::WordStartHalfUnicode => format!("(?<!{w})"),
            _ => format!("(?!{w})"),
        };
        self.out.push_str(&text);
    }
}

/// The code points `start..=end` (all above U+FFFF) as surrogate-pair sequences.
fn surrogate_ranges(start: u32, end: u32) -> Vec<String> {
    let split = |c: u32| {
        let v = c - 0x10000;
        (0xD800 + (v >> 10), 0xDC00 + (v & 0x3FF))
    };
    let unit_class = |a: u32, b: u32| {
        if a == b {
            format!("\\u{a:04x}")
        } else {
            format!("[\\u{a:04x}-\\u{b:04x}]")
        }
    };
    let ((hs, ls), (he, le)) = (split(start), split(end));
    if hs == he {
        return vec![format!("\\u{hs:04x}{}", unit_class(ls, le))];
    }
    let mut out = Vec::new();
    let (mut first_full, mut last_full) = (hs, he);
    if ls != 0xDC00 {
        out.push(format!("\\u{hs:04x}{}", unit_class(ls, 0xDFFF)));
        first_full += 1;
    }
    let tail = (le != 0xDFFF).then(|| format!("\\u{he:04x}{}", unit_class(0xDC00, le)));
    if tail.is_some() {
        last_full -= 1;
    }
    if first_full <= last_full {
        out.push(format!(
            "{}[\\udc00-\\udfff]",
            unit_class(first_full, last_full)
        ));
    }
    out.extend(tail);
    out
}

/// True when a capture group in `hir` may not take part in a match of `hir`.
fn has_optional_capture(hir: &Hir, optional: bool) -> bool {
    match hir.kind() {
        HirKind::Capture(cap) => optional || has_optional_capture(&cap.sub, optional),
        HirKind::Concat(parts) => parts.iter().any(|p| has_optional_capture(p, optional)),
        HirKind::Alternation(branches) => branches.iter().any(|b| has_optional_capture(b, true)),
        HirKind::Repetition(rep) => has_optional_capture(&rep.sub, optional || rep.min == 0),
        _ => false,
    }
}

/// The code points a class matches, as inclusive ranges in order.
fn class_ranges(class: &Class) -> Result<Vec<(char, char)>, Refusal> {
    match class {
        Class::Unicode(c) => Ok(c.ranges().iter().map(|r| (r.start(), r.end())).collect()),
        Class::Bytes(c) => c
            .ranges()
            .iter()
            .map(|r| {
                if r.end() > 0x7F {
                    Err(Refusal(
                        "the pattern has a byte class beyond ASCII, which matches no \
                         whole code point"
                            .to_string(),
                    ))
                } else {
                    Ok((char::from(r.start()), char::from(r.end())))
                }
            })
            .collect(),
    }
}

/// The code points (U+0000 to U+10FFFF, surrogates excluded) that `ranges` does not hold.
fn complement(ranges: &[(char, char)]) -> Vec<(char, char)> {
    let mut out = Vec::new();
    let mut next: Option<char> = Some('\0');
    for &(start, end) in ranges {
        if let Some(from) = next
            && from < start
        {
            out.push((from, before(start)));
        }
        next = after(end);
    }
    if let Some(from) = next {
        out.push((from, char::MAX));
    }
    out
}

fn after(c: char) -> Option<char> {
    match c {
        '\u{D7FF}' => Some('\u{E000}'),
        char::MAX => None,
        c => char::from_u32(c as u32 + 1),
    }
}

fn before(c: char) -> char {
    match c {
        '\u{E000}' => '\u{D7FF}',
        c => char::from_u32(c as u32 - 1).expect("not the first code point"),
    }
}

/// `regex`'s Unicode word class (`\w`).
fn unicode_word() -> Vec<(char, char)> {
    let hir = regex_syntax::Parser::new()
        .parse(r"\w")
        .expect("\\w parses");
    match hir.kind() {
        HirKind::Class(class) => class_ranges(class).expect("\\w is a Unicode class"),
        _ => unreachable!("\\w is a class"),
    }
}

/// Code points written as themselves: printable ASCII and the visible non-ASCII letters,
/// digits and symbols (chess glyphs, `·`, box drawing). Everything else is escaped, so an
/// exported pattern never holds a control, format or line-separator character.
fn visible(c: char) -> bool {
    let n = c as u32;
    if c.is_ascii() {
        return c.is_ascii_graphic() || c == ' ';
    }
    c.is_alphanumeric()
        || matches!(n, 0xA1..=0xAC | 0xAE..=0xBF | 0x2010..=0x2027 | 0x2030..=0x205E)
        || matches!(n, 0x2070..=0x2BFF | 0x1F000..=0x1FAFF)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn py(p: &str) -> String {
        translate(p, Target::Python).unwrap().source
    }

    fn js(p: &str) -> String {
        translate(p, Target::Js).unwrap().source
    }

    #[test]
    fn classes_are_explicit() {
        assert_eq!(py(r"[^%\n]"), r"[^\n%]");
        assert_eq!(
            js(r"[^%\n]"),
            r"(?:[^\n%\ud800-\udfff]|[\ud800-\udbff][\udc00-\udfff])"
        );
        assert_eq!(js("[a😀-😂]"), r"(?:[a]|\ud83d[\ude00-\ude02])");
        assert_eq!(
            js("[\u{FFFF}-\u{10400}]"),
            r"(?:[\uffff]|\ud800[\udc00-\udfff]|\ud801\udc00)"
        );
        assert_eq!(py(r"[-a\]&]"), r"[\&\-\]a]");
        assert_eq!(js(r"[01]"), r"[01]");
        assert_eq!(py(r"(?-u:\d)"), r"[0-9]");
        assert_eq!(py(r"."), r"[^\n]");
        assert_eq!(py(r"(?s:.)"), r"[\s\S]");
        assert_eq!(py(r"[a-b]"), r"[ab]");
        // Unicode \d is much more than 0-9.
        assert!(py(r"\d").len() > 100);
    }

    #[test]
    fn anchors_and_flags() {
        assert_eq!(py(r"^a$"), r"\Aa\Z");
        assert_eq!(js(r"^a$"), r"(?<![\s\S])a(?![\s\S])");
        assert_eq!(py(r"(?m)^a$"), r"(?<![^\n])a(?![^\n])");
        assert_eq!(py(r"\Aa\z"), r"\Aa\Z");
    }

    #[test]
    fn groups_and_repeats() {
        assert_eq!(py(r"(?P<x>a)(?P<a.b>b)"), r"(?P<x>a)(b)");
        assert_eq!(js(r"(?P<x>a)"), r"(?<x>a)");
        assert_eq!(py(r"(?:ab){2,3}?c+"), r"(?:ab){2,3}?c+");
        assert_eq!(py(r"a|b(?:cc|d)"), r"a|b(?:cc|d)");
        assert_eq!(js(r"a/b"), r"a\/b");
        assert_eq!(py("♔ ·"), "♔ ·");
        assert_eq!(js("😀+"), r"(?:\ud83d\ude00)+");
        assert_eq!(js("x*"), r"(?![\uDC00-\uDFFF])(?:x*)");
    }

    #[test]
    fn refusals() {
        assert!(translate(r"(?:|a)?", Target::Python).is_err());
        assert!(translate(r"(?:a*)*", Target::Js).is_err());
        assert!(translate(r"(?:(a)|b)+", Target::Js).is_err());
        assert!(translate(r"(?:(a)|b)+", Target::Python).is_ok());
        assert!(translate(r"(?:(a)b)+", Target::Js).is_ok());
    }

    #[test]
    fn empty_matches_are_classified() {
        let t = translate(r"a*", Target::Python).unwrap();
        assert!(t.can_be_empty && !t.only_empty);
        let t = translate(r"\b", Target::Python).unwrap();
        assert!(t.can_be_empty && t.only_empty);
        let t = translate(r"a", Target::Python).unwrap();
        assert!(!t.can_be_empty);
    }
}
