//! The program cache's payload: a program's rules and their templates in a compact binary
//! form that reads back with one allocation per string and per list.
//!
//! # Contract
//!
//! [`read`] gives back exactly what [`write`] was given, and on any other bytes either a
//! payload that [`write`] could have produced or an error saying where the bytes stop
//! making sense; it never panics and never allocates more than the bytes it is given can
//! describe (a count is checked against the bytes left before anything is reserved). It
//! does not vouch for the payload's meaning: the header's key and checksum around it do
//! (see the parent module).
//!
//! # Layout
//!
//! Written in the primitives of `crate::codec`: integers are little-endian `u32`; a string is its byte length then its UTF-8 bytes.
//! The payload is: the name the program was cached as, its name, its description, the
//! number of rules, each rule (pattern, replacement, origin), the number of templates,
//! each template (its number of pieces, each piece), and nothing after. An origin is a
//! tag byte: 0 unknown; 1 text, then the text; 2 emitted, then the instruction, the file,
//! the line and the column. A piece is a tag byte: 0 a literal, then its text; 1 a group,
//! then its index.

use super::Damaged;
use crate::codec;
use crate::program::{Origin, Piece, Rule, Template};

/// What a payload holds.
#[derive(Debug, PartialEq, Eq)]
pub(super) struct Payload {
    /// The name the program was stored under.
    pub cached_as: String,
    /// The program's own name.
    pub name: String,
    /// The program's description.
    pub description: String,
    /// The rules, in order.
    pub rules: Vec<Rule>,
    /// The templates validation resolved, in rule order.
    pub templates: Vec<Template>,
}

/// The payload's bytes for these parts.
pub(super) fn write(
    cached_as: &str,
    name: &str,
    description: &str,
    rules: &[Rule],
    templates: &[Template],
) -> Vec<u8> {
    let mut out = Writer(Vec::with_capacity(64 * rules.len() + 256));
    out.str(cached_as);
    out.str(name);
    out.str(description);
    out.count(rules.len());
    for rule in rules {
        out.str(&rule.pattern);
        out.str(&rule.replacement);
        match &rule.origin {
            Origin::Unknown => out.0.push(0),
            Origin::Text(text) => {
                out.0.push(1);
                out.str(text);
            }
            Origin::Emitted {
                instruction,
                file,
                line,
                column,
            } => {
                out.0.push(2);
                out.str(instruction);
                out.str(file);
                out.u32(*line);
                out.u32(*column);
            }
        }
    }
    out.count(templates.len());
    for template in templates {
        out.count(template.pieces().len());
        for piece in template.pieces() {
            match piece {
                Piece::Literal(text) => {
                    out.0.push(0);
                    out.str(text);
                }
                Piece::Group(index) => {
                    out.0.push(1);
                    out.count(*index);
                }
            }
        }
    }
    out.0
}

/// The payload in `bytes`; the error says what is wrong with them.
pub(super) fn read(bytes: &[u8]) -> Result<Payload, Damaged> {
    let mut input = Reader {
        bytes: codec::Reader::new(bytes),
    };
    let cached_as = input.string("the cached name")?;
    let name = input.string("the name")?;
    let description = input.string("the description")?;
    // The smallest rule is 9 bytes: two empty strings and a tag.
    let count = input.count("the rule count", 9)?;
    let mut rules = Vec::with_capacity(count);
    for _ in 0..count {
        let pattern = input.string("a pattern")?;
        let replacement = input.string("a replacement")?;
        let origin = match input.byte("an origin")? {
            0 => Origin::Unknown,
            1 => Origin::Text(input.string("an origin")?),
            2 => Origin::Emitted {
                instruction: input.string("an origin")?,
                file: input.string("an origin")?,
                line: input.u32("an origin")?,
                column: input.u32("an origin")?,
            },
            tag => {
                return Err(Damaged(format!(
                    "unknown origin tag {tag} at byte {}",
                    input.at() - 1
                )));
            }
        };
        rules.push(Rule {
            pattern,
            replacement,
            origin,
        });
    }
    let count = input.count("the template count", 4)?;
    let mut templates = Vec::with_capacity(count);
    for _ in 0..count {
        // The smallest piece is 5 bytes: a tag and an empty string or an index.
        let pieces = input.count("a template", 5)?;
        let mut list = Vec::with_capacity(pieces);
        for _ in 0..pieces {
            list.push(match input.byte("a piece")? {
                0 => Piece::Literal(input.string("a piece")?),
                1 => Piece::Group(input.u32("a piece")? as usize),
                tag => {
                    return Err(Damaged(format!(
                        "unknown piece tag {tag} at byte {}",
                        input.at() - 1
                    )));
                }
            });
        }
        templates.push(Template::from_pieces(list));
    }
    if !input.bytes.at_end() {
        return Err(Damaged(format!(
            "{} bytes after the payload's end",
            input.bytes.left()
        )));
    }
    Ok(Payload {
        cached_as,
        name,
        description,
        rules,
        templates,
    })
}

/// The bytes written so far, in the primitives of [`crate::codec`].
struct Writer(Vec<u8>);

impl Writer {
    fn u32(&mut self, n: u32) {
        codec::put_u32_le(&mut self.0, n);
    }

    fn count(&mut self, n: usize) {
        codec::put_count_le(&mut self.0, n);
    }

    fn str(&mut self, text: &str) {
        codec::put_str_le(&mut self.0, text);
    }
}

/// The codec's reader, with the payload's messages: each read names what was being read
/// and where.
struct Reader<'a> {
    bytes: codec::Reader<'a>,
}

impl Reader<'_> {
    /// How far the bytes have been read.
    fn at(&self) -> usize {
        self.bytes.at()
    }

    /// The error of a read of `what` that ran out of bytes.
    fn cut(&self, what: &str) -> Damaged {
        Damaged(format!("cut short in {what} at byte {}", self.at()))
    }

    fn byte(&mut self, what: &str) -> Result<u8, Damaged> {
        self.bytes.byte().map_err(|_| self.cut(what))
    }

    fn u32(&mut self, what: &str) -> Result<u32, Damaged> {
        let at = self.at();
        self.bytes
            .u32_le()
            .map_err(|_| Damaged(format!("cut short in {what} at byte {at}")))
    }

    /// A count of items at least `min_size` bytes each, checked against the bytes left.
    fn count(&mut self, what: &str, min_size: usize) -> Result<usize, Damaged> {
        let at = self.at();
        match self.bytes.count_le(min_size) {
            Err(_) => Err(Damaged(format!("cut short in {what} at byte {at}"))),
            Ok(Ok(count)) => Ok(count),
            Ok(Err(count)) => Err(Damaged(format!(
                "{what} ({count}) is more than the {} bytes left can hold",
                self.bytes.left()
            ))),
        }
    }

    fn string(&mut self, what: &str) -> Result<String, Damaged> {
        let length = self.count(what, 1)?;
        let at = self.at();
        let bytes = self.bytes.take(length).map_err(|_| self.cut(what))?;
        match std::str::from_utf8(bytes) {
            Ok(text) => Ok(text.to_owned()),
            Err(_) => Err(Damaged(format!("{what} at byte {at} is not UTF-8"))),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample() -> Vec<u8> {
        let rules = vec![
            Rule::new("(a)(?P<x>b)", "${x}$1$$"),
            Rule::new("c", "").with_origin(Origin::Text("by hand é".into())),
            Rule::new("", "d").with_origin(Origin::Emitted {
                instruction: "push".into(),
                file: "src/chess/x.rs".into(),
                line: 12,
                column: 70_000,
            }),
        ];
        let templates = vec![
            Template::from_pieces(vec![
                Piece::Group(2),
                Piece::Group(1),
                Piece::Literal("$".into()),
            ]),
            Template::from_pieces(Vec::new()),
            Template::from_pieces(vec![Piece::Literal("d".into())]),
        ];
        write("as", "name", "what it does", &rules, &templates)
    }

    #[test]
    fn a_payload_reads_back_as_written() {
        let payload = read(&sample()).unwrap();
        assert_eq!(payload.cached_as, "as");
        assert_eq!(payload.name, "name");
        assert_eq!(payload.description, "what it does");
        assert_eq!(payload.rules.len(), 3);
        assert_eq!(
            payload.rules[2].origin.to_string(),
            "push at src/chess/x.rs:12:70000"
        );
        assert_eq!(payload.rules[1].origin, Origin::Text("by hand é".into()));
        assert_eq!(payload.templates[0].pieces()[0], Piece::Group(2));
        assert_eq!(
            write(
                &payload.cached_as,
                &payload.name,
                &payload.description,
                &payload.rules,
                &payload.templates
            ),
            sample()
        );
    }

    #[test]
    fn every_truncation_and_extension_is_an_error() {
        let bytes = sample();
        for end in 0..bytes.len() {
            assert!(read(&bytes[..end]).is_err(), "cut at {end}");
        }
        let mut longer = bytes.clone();
        longer.push(0);
        assert!(
            read(&longer)
                .unwrap_err()
                .to_string()
                .contains("after the payload's end")
        );
    }

    #[test]
    fn changed_bytes_never_panic_nor_over_allocate() {
        let bytes = sample();
        for at in 0..bytes.len() {
            for value in [0x00, 0x01, 0x02, 0x03, 0x7f, 0x80, 0xc3, 0xff] {
                let mut changed = bytes.clone();
                changed[at] = value;
                // Whatever it gives, it gives without panicking; a wrong length or tag
                // is an error, a wrong letter may read as another payload.
                let _ = read(&changed);
            }
        }
        // A count far beyond the bytes is refused before anything is reserved.
        let mut huge = bytes.clone();
        huge[..4].copy_from_slice(&u32::MAX.to_le_bytes());
        assert!(read(&huge).unwrap_err().to_string().contains("bytes left"));
        // The last piece: tag 0, length 1, `d`.
        let mut bad_tag = bytes.clone();
        let tag_at = bytes.len() - 6;
        assert_eq!(bad_tag[tag_at], 0);
        bad_tag[tag_at] = 9;
        assert!(
            read(&bad_tag)
                .unwrap_err()
                .to_string()
                .contains("unknown piece tag 9")
        );
    }
}
