//! Replacement templates: parsing, validation and conversion from Python syntax.
//!
//! A rule's replacement is stored in the syntax of the `regex` crate: `$1`, `${1}`,
//! `$name`, `${name}` insert a capture group and `$$` is a literal dollar. The reference
//! executor hands that string to [`regex::Regex::replace_all`] untouched, so the meaning of
//! a template is whatever `regex` makes of it. [`Template::parse`] mirrors those rules
//! exactly and resolves every group against the rule's pattern, so that the fast executor
//! can expand matches without consulting `regex` at all, and so that a reference to a group
//! the pattern does not have (which `regex` would silently expand to nothing) is reported
//! when a program loads.
//!
//! Tools written in Python use `\1` and `\g<name>`; [`python_to_rust`] converts such a
//! template, including its escapes (`\n`, `\\`) and its literal dollars.

use serde::{Deserialize, Serialize};

/// One piece of a parsed replacement template.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Piece {
    /// Text copied to the output as it is.
    Literal(String),
    /// The text of a capture group, by index (0 is the whole match). A group that did not
    /// take part in the match expands to nothing.
    Group(usize),
}

/// A replacement template resolved against the capture groups of one pattern. It
/// serializes (for the program cache) as its list of pieces.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(transparent)]
pub struct Template {
    pieces: Vec<Piece>,
}

/// Why a replacement template was refused.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum TemplateError {
    /// The template names a group that the pattern does not define.
    #[error(
        "the replacement refers to group `{0}`, which the pattern does not have \
         (write `${{1}}x` rather than `$1x` when a name character follows)"
    )]
    UnknownGroup(String),
    /// A Python-style escape that Python itself rejects (`\q`, a trailing `\`, `\g<`...).
    #[error("the Python-style replacement has a bad escape `{0}`")]
    BadPythonEscape(String),
}

impl Template {
    /// Parses `template` with the rules of `regex::Captures::expand`, resolving group names
    /// and numbers against `regex`'s capture groups.
    pub fn parse(template: &str, regex: &regex::Regex) -> Result<Template, TemplateError> {
        let mut pieces = Vec::new();
        let mut literal = String::new();
        let mut rest = template;
        while let Some(at) = rest.find('$') {
            literal.push_str(&rest[..at]);
            rest = &rest[at..];
            if rest.as_bytes().get(1) == Some(&b'$') {
                literal.push('$');
                rest = &rest[2..];
                continue;
            }
            match group_reference(rest) {
                None => {
                    literal.push('$');
                    rest = &rest[1..];
                }
                Some((name, len)) => {
                    let index = resolve(name, regex)
                        .ok_or_else(|| TemplateError::UnknownGroup(name.to_string()))?;
                    if !literal.is_empty() {
                        pieces.push(Piece::Literal(std::mem::take(&mut literal)));
                    }
                    pieces.push(Piece::Group(index));
                    rest = &rest[len..];
                }
            }
        }
        literal.push_str(rest);
        if !literal.is_empty() {
            pieces.push(Piece::Literal(literal));
        }
        Ok(Template { pieces })
    }

    /// The pieces in output order; adjacent literals are always merged.
    pub fn pieces(&self) -> &[Piece] {
        &self.pieces
    }

    /// The template made of `pieces`, as [`Template::pieces`] gave them for a template
    /// that [`Template::parse`] resolved (the program cache stores them; its key and
    /// checksum vouch for them).
    pub(crate) fn from_pieces(pieces: Vec<Piece>) -> Template {
        Template { pieces }
    }

    /// True when the template inserts no capture group other than possibly the whole match.
    pub fn needs_subgroups(&self) -> bool {
        self.pieces
            .iter()
            .any(|p| matches!(p, Piece::Group(i) if *i > 0))
    }

    /// The highest group index the template uses, if it uses any.
    pub fn max_group(&self) -> Option<usize> {
        self.pieces
            .iter()
            .filter_map(|p| match p {
                Piece::Group(i) => Some(*i),
                Piece::Literal(_) => None,
            })
            .max()
    }

    /// Appends the expansion to `out`; `group(i)` gives the text of group `i`, if it matched.
    pub fn expand_into<'h>(&self, out: &mut String, group: impl Fn(usize) -> Option<&'h str>) {
        for piece in &self.pieces {
            match piece {
                Piece::Literal(text) => out.push_str(text),
                Piece::Group(i) => {
                    if let Some(text) = group(*i) {
                        out.push_str(text);
                    }
                }
            }
        }
    }
}

/// Recognises a group reference at the start of `s` (which starts with `$`), returning the
/// name and the length of the reference, as `regex` does: `${...}` up to the first `}`, or
/// the longest run of ASCII letters, digits and `_`.
fn group_reference(s: &str) -> Option<(&str, usize)> {
    let after = &s[1..];
    if let Some(braced) = after.strip_prefix('{') {
        let close = braced.find('}')?;
        return Some((&braced[..close], close + 3));
    }
    let len = after
        .bytes()
        .take_while(|b| b.is_ascii_alphanumeric() || *b == b'_')
        .count();
    if len == 0 {
        return None;
    }
    Some((&after[..len], len + 1))
}

fn resolve(name: &str, regex: &regex::Regex) -> Option<usize> {
    if let Ok(index) = name.parse::<usize>() {
        return (index < regex.captures_len()).then_some(index);
    }
    regex.capture_names().position(|n| n == Some(name))
}

/// Converts a Python `re.sub` replacement (`\1`, `\g<1>`, `\g<name>`, `\n`, `\\`) to the
/// `regex` crate's syntax, doubling literal dollars.
pub fn python_to_rust(template: &str) -> Result<String, TemplateError> {
    let mut out = String::with_capacity(template.len() + 8);
    let mut chars = template.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '$' => out.push_str("$$"),
            '\\' => {
                let Some(e) = chars.next() else {
                    return Err(TemplateError::BadPythonEscape("\\".into()));
                };
                match e {
                    'n' => out.push('\n'),
                    't' => out.push('\t'),
                    'r' => out.push('\r'),
                    'a' => out.push('\x07'),
                    'b' => out.push('\x08'),
                    'f' => out.push('\x0c'),
                    'v' => out.push('\x0b'),
                    '\\' => out.push('\\'),
                    'g' => {
                        if chars.next() != Some('<') {
                            return Err(TemplateError::BadPythonEscape("\\g".into()));
                        }
                        let mut name = String::new();
                        loop {
                            match chars.next() {
                                Some('>') => break,
                                Some(ch) => name.push(ch),
                                None => {
                                    return Err(TemplateError::BadPythonEscape(format!(
                                        "\\g<{name}"
                                    )));
                                }
                            }
                        }
                        if name.is_empty() {
                            return Err(TemplateError::BadPythonEscape("\\g<>".into()));
                        }
                        out.push_str(&format!("${{{name}}}"));
                    }
                    '0'..='9' => {
                        let mut number = e.to_string();
                        if let Some(d) = chars.peek().filter(|d| d.is_ascii_digit()) {
                            number.push(*d);
                            chars.next();
                        }
                        if e == '0' {
                            return Err(TemplateError::BadPythonEscape(format!("\\{number}")));
                        }
                        out.push_str(&format!("${{{number}}}"));
                    }
                    other if other.is_ascii_alphabetic() => {
                        return Err(TemplateError::BadPythonEscape(format!("\\{other}")));
                    }
                    other => {
                        out.push('\\');
                        out.push(other);
                    }
                }
            }
            other => out.push(other),
        }
    }
    Ok(out)
}

/// Converts a template in the `regex` crate's syntax to Python's `re.sub` syntax
/// (`\g<1>`, doubled backslashes), for exports.
pub fn rust_to_python(template: &Template) -> String {
    let mut out = String::new();
    for piece in template.pieces() {
        match piece {
            Piece::Literal(text) => out.push_str(&text.replace('\\', "\\\\")),
            Piece::Group(i) => out.push_str(&format!("\\g<{i}>")),
        }
    }
    out
}

/// Whether a template looks like Python syntax: it holds `\` followed by a digit or `g<`.
pub fn looks_like_python(template: &str) -> bool {
    let bytes = template.as_bytes();
    bytes.windows(2).enumerate().any(|(i, w)| {
        w[0] == b'\\'
            && (w[1].is_ascii_digit() || (w[1] == b'g' && bytes.get(i + 2) == Some(&b'<')))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn re(p: &str) -> regex::Regex {
        regex::Regex::new(p).unwrap()
    }

    #[test]
    fn parses_like_regex_expand() {
        let r = re("(?P<a>x)(y)");
        let cases = [
            "$1",
            "${1}z",
            "$a-$2",
            "$$1",
            "$",
            "a$",
            "${",
            "$-",
            "${a}${2}$0",
        ];
        for case in cases {
            let t = Template::parse(case, &r).unwrap();
            let caps = r.captures("xy").unwrap();
            let mut ours = String::new();
            t.expand_into(&mut ours, |i| caps.get(i).map(|m| m.as_str()));
            let mut theirs = String::new();
            caps.expand(case, &mut theirs);
            assert_eq!(ours, theirs, "template {case:?}");
        }
    }

    #[test]
    fn rejects_unknown_groups() {
        let r = re("(x)");
        assert_eq!(
            Template::parse("$1x", &r),
            Err(TemplateError::UnknownGroup("1x".into()))
        );
        assert!(Template::parse("$2", &r).is_err());
        assert!(Template::parse("${name}", &r).is_err());
        assert!(Template::parse("${}", &r).is_err());
    }

    #[test]
    fn converts_python() {
        assert_eq!(python_to_rust(r"\1a\g<2>\g<n>").unwrap(), "${1}a${2}${n}");
        assert_eq!(python_to_rust(r"$\\\n").unwrap(), "$$\\\n");
        assert_eq!(python_to_rust(r"\12").unwrap(), "${12}");
        assert!(python_to_rust(r"\q").is_err());
        assert!(python_to_rust("\\").is_err());
        assert!(python_to_rust(r"\g<1").is_err());
        assert!(looks_like_python(r"a\1"));
        assert!(looks_like_python(r"\g<x>"));
        assert!(!looks_like_python("${1}"));
    }

    #[test]
    fn round_trips_to_python() {
        let r = re("(a)(b)");
        let t = Template::parse("x${2}\\$1", &r).unwrap();
        let py = rust_to_python(&t);
        assert_eq!(py, "x\\g<2>\\\\\\g<1>");
        assert_eq!(python_to_rust(&py).unwrap(), "x${2}\\${1}");
    }
}
