//! Value encodings and a small model of the state, for building inputs and reading results.
//!
//! Encodings (all short, because every byte of a thread is scanned by every rule):
//!
//! | type | text | example |
//! | --- | --- | --- |
//! | bool | `T` / `F` | `T` |
//! | enum | the variant name | `e4` |
//! | int, `n` bits | offset binary, MSB first: `value + 2^(n-1)` in `n` digits | 4 bits: `-8` = `0000`, `0` = `1000`, `7` = `1111` |
//! | string | itself | `rnbqkbnr` |
//! | list | `;` before each element; empty list = empty text | `;e2;e4` |
//!
//! Offset binary makes the signed order equal to the string order, so comparisons and
//! tournaments compare digits from the left without a sign case. Arithmetic wraps modulo
//! `2^n` (`max + 1 = min`), as two's complement arithmetic does.

use std::fmt::Write;

/// The smallest value of an `bits`-bit integer.
pub fn int_min(bits: u8) -> i64 {
    check_bits(bits);
    -(1i128 << (bits - 1)) as i64
}

/// The largest value of an `bits`-bit integer.
pub fn int_max(bits: u8) -> i64 {
    check_bits(bits);
    ((1i128 << (bits - 1)) - 1) as i64
}

fn check_bits(bits: u8) {
    assert!(
        (1..=64).contains(&bits),
        "integer width {bits} is not in 1..=64"
    );
}

/// Encodes `value` in `bits` digits of offset binary.
///
/// # Panics
/// When the value does not fit.
pub fn int(bits: u8, value: i64) -> String {
    assert!(
        (int_min(bits)..=int_max(bits)).contains(&value),
        "{value} does not fit in {bits} bits"
    );
    let code = (value as i128 - int_min(bits) as i128) as u128;
    (0..bits)
        .rev()
        .map(|i| if code >> i & 1 == 1 { '1' } else { '0' })
        .collect()
}

/// Decodes offset binary; `None` if the text is not binary digits (1 to 64 of them).
pub fn decode_int(text: &str) -> Option<i64> {
    if text.is_empty() || text.len() > 64 || !text.bytes().all(|b| b == b'0' || b == b'1') {
        return None;
    }
    let code = u128::from_str_radix(text, 2).ok()?;
    Some((code as i128 + int_min(text.len() as u8) as i128) as i64)
}

/// Wraps `value` into the range of `bits`-bit integers, as the machine's arithmetic does.
pub fn wrap(bits: u8, value: i128) -> i64 {
    let modulus = 1i128 << bits;
    let shifted = (value - int_min(bits) as i128).rem_euclid(modulus);
    (shifted + int_min(bits) as i128) as i64
}

/// Encodes a boolean.
pub fn bool(value: bool) -> &'static str {
    if value { "T" } else { "F" }
}

/// Encodes a list from already encoded elements.
pub fn list<S: AsRef<str>>(elements: &[S]) -> String {
    let mut out = String::new();
    for e in elements {
        out.push(';');
        out.push_str(e.as_ref());
    }
    out
}

/// Splits an encoded list into its encoded elements.
pub fn decode_list(text: &str) -> Vec<&str> {
    match text.strip_prefix(';') {
        Some(rest) => rest.split(';').collect(),
        None => Vec::new(),
    }
}

/// One thread of a state: its marker, stack (top first) and variables (in order).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Thread {
    /// `None` for an active thread, `Some(tag)` for a paused one.
    pub tag: Option<String>,
    /// Stack values, top first.
    pub stack: Vec<String>,
    /// Variables, in the order they appear.
    pub vars: Vec<(String, String)>,
}

impl Thread {
    /// An active thread with `stack` (top first) and `vars`.
    pub fn active(stack: &[&str], vars: &[(&str, &str)]) -> Thread {
        Thread {
            tag: None,
            stack: stack.iter().map(|s| s.to_string()).collect(),
            vars: vars
                .iter()
                .map(|(k, v)| (k.to_string(), v.to_string()))
                .collect(),
        }
    }

    /// The same thread paused under `tag`.
    pub fn paused(mut self, tag: &str) -> Thread {
        self.tag = Some(tag.to_string());
        self
    }

    /// The value of variable `name`.
    pub fn var(&self, name: &str) -> Option<&str> {
        self.vars
            .iter()
            .find(|(k, _)| k == name)
            .map(|(_, v)| v.as_str())
    }

    /// Appends the thread's text to `out`.
    pub fn render_into(&self, out: &mut String) {
        out.push('%');
        out.push_str(self.tag.as_deref().unwrap_or("%"));
        out.push_str("\n#stack:\n");
        for value in &self.stack {
            out.push_str(value);
            out.push('\n');
        }
        for (name, value) in &self.vars {
            let _ = writeln!(out, "#{name}: {value}");
        }
    }
}

/// One piece of a state: a thread or a group boundary `%/<level>`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Segment {
    /// A thread.
    Thread(Thread),
    /// A group boundary of this level.
    Boundary(u32),
}

/// Renders threads as a state.
pub fn render(threads: &[Thread]) -> String {
    let mut out = String::new();
    for t in threads {
        t.render_into(&mut out);
    }
    out
}

/// Parses a state into its threads and boundaries; `None` if it is not well formed.
pub fn parse(state: &str) -> Option<Vec<Segment>> {
    let mut segments = Vec::new();
    if state.is_empty() {
        return Some(segments);
    }
    let body = state.strip_suffix('\n')?;
    let mut lines = body.split('\n').peekable();
    while let Some(first) = lines.next() {
        let marker = first.strip_prefix('%')?;
        if let Some(level) = marker.strip_prefix('/') {
            segments.push(Segment::Boundary(level.parse().ok()?));
            continue;
        }
        let tag = match marker {
            "%" => None,
            t if !t.is_empty() && t.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_') => {
                Some(t.to_string())
            }
            _ => return None,
        };
        if lines.next()? != "#stack:" {
            return None;
        }
        let mut thread = Thread {
            tag,
            ..Thread::default()
        };
        while let Some(line) = lines.next_if(|l| !l.starts_with('%')) {
            if let Some(var) = line.strip_prefix('#') {
                let (name, value) = var.split_once(": ")?;
                thread.vars.push((name.to_string(), value.to_string()));
            } else if thread.vars.is_empty() {
                thread.stack.push(line.to_string());
            } else {
                return None;
            }
        }
        segments.push(Segment::Thread(thread));
    }
    Some(segments)
}

/// Parses a state and keeps only its threads.
///
/// # Panics
/// When the state is not well formed (the message shows it).
pub fn threads(state: &str) -> Vec<Thread> {
    parse(state)
        .unwrap_or_else(|| panic!("malformed state:\n{state}"))
        .into_iter()
        .filter_map(|s| match s {
            Segment::Thread(t) => Some(t),
            Segment::Boundary(_) => None,
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ints_round_trip_and_order() {
        for bits in [1u8, 2, 5, 16, 63, 64] {
            for v in [int_min(bits), -1, 0, 1, int_max(bits)] {
                if (int_min(bits)..=int_max(bits)).contains(&v) {
                    assert_eq!(decode_int(&int(bits, v)), Some(v), "{bits} {v}");
                }
            }
        }
        assert_eq!(int(4, -8), "0000");
        assert_eq!(int(4, 0), "1000");
        assert_eq!(int(4, 7), "1111");
        assert!(int(8, -3) < int(8, 2));
        assert_eq!(wrap(4, 8), -8);
        assert_eq!(wrap(4, -9), 7);
    }

    #[test]
    fn states_round_trip() {
        let threads = vec![
            Thread::active(&["T", ""], &[("x", "1")]),
            Thread::active(&[], &[]).paused("e1"),
            Thread::active(&[], &[("y", "")]),
        ];
        let text = render(&threads);
        assert_eq!(
            text,
            "%%\n#stack:\nT\n\n#x: 1\n%e1\n#stack:\n%%\n#stack:\n#y: \n"
        );
        assert_eq!(super::threads(&text), threads);
        assert_eq!(
            parse("%/1\n%%\n#stack:\n").unwrap()[0],
            Segment::Boundary(1)
        );
        assert_eq!(decode_list(&list(&["a", "b"])), vec!["a", "b"]);
        assert!(decode_list("").is_empty());
    }
}
