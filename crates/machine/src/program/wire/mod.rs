//! The one wire format of the machine: a program's file and its patterns' parses file,
//! each a header (a magic line with the format's version, the key the writer chose, the
//! payload's length and checksum) and a binary payload.
//!
//! # Contract
//!
//! [`read_program`] gives back exactly the program [`program_file`] was given under the
//! same key and name, and [`read_parses`] hands the fast executor exactly the table
//! [`parses_file`] wrote; any other bytes (truncated, corrupt, another format, another
//! key or program) are a [`Damaged`] error saying what is wrong, never a panic. The key
//! is opaque here: whoever stores files (the engine's program cache) derives it from
//! what the program was built from, so a file of another build never matches.
//!
//! The program's payload layout is in `payload.rs`; the parses' payload is the fast
//! executor's table ([`crate::exec::fast::parse_table`]).
//!
//! Trade-offs: the checksum detects accidents, not forgery; a file crafted with a
//! matching key and checksum is trusted. It is what a reader checks instead of
//! validating the program again (validation compiles every pattern with `regex`).

mod payload;

use crate::exec::fast::{parse_table, remember_parses};
use crate::program::{Program, ValidProgram};

/// What is wrong with a file: why it cannot be read back.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct Damaged(pub String);

impl From<&str> for Damaged {
    fn from(problem: &str) -> Damaged {
        Damaged(problem.to_string())
    }
}

/// The version of the program file's layout.
pub const FORMAT: u32 = 2;
/// The first line of every program file, before its version.
const MAGIC: &str = "regex-chess program cache";
/// The first line of every file of parsed patterns, with its format version.
const PARSES_MAGIC: &str = "regex-chess parsed patterns 5";

/// The program file's bytes for `program` stored as `name` under `key`: the header
/// lines, then the payload.
pub fn program_file(program: &ValidProgram, key: &str, name: &str) -> Vec<u8> {
    let inner = program.program();
    let payload = payload::write(
        name,
        &inner.name,
        &inner.description,
        &inner.rules,
        program.templates(),
    );
    frame(&format!("{MAGIC} {FORMAT}"), key, &payload)
}

/// Reads a file written by [`program_file`] for `key` and program `name`; the error says
/// what is wrong with it.
pub fn read_program(bytes: &[u8], key: &str, name: &str) -> Result<ValidProgram, Damaged> {
    let rest = unframe(bytes, &format!("{MAGIC} {FORMAT}"), key)?;
    let payload = payload::read(rest).map_err(|e| Damaged(format!("unreadable payload: {e}")))?;
    if payload.cached_as != name {
        return Err(Damaged(format!(
            "holds the program `{}`",
            payload.cached_as
        )));
    }
    let program = Program {
        name: payload.name,
        description: payload.description,
        rules: payload.rules,
    };
    ValidProgram::from_validated_parts(program, payload.templates)
        .ok_or_else(|| "the rule and template counts differ".into())
}

/// The parses file's bytes for `program` under `key`: the header lines, then the fast
/// executor's table of its patterns ([`parse_table`]).
pub fn parses_file(program: &ValidProgram, key: &str) -> Vec<u8> {
    let patterns = program.rules().iter().map(|rule| rule.pattern.as_str());
    frame(PARSES_MAGIC, key, &parse_table(patterns))
}

/// Hands the fast executor the table of a file written by [`parses_file`] for `key`
/// ([`remember_parses`]); the error says what is wrong with the bytes.
pub fn read_parses(bytes: &[u8], key: &str) -> Result<(), Damaged> {
    let table = unframe(bytes, PARSES_MAGIC, key)?;
    remember_parses(table).map_err(|e| Damaged(e.to_string()))?;
    Ok(())
}

/// Reads back a program file and its parses file written together under one key (what
/// the page gets): the program, once the fast executor has its parses. Files of two
/// different writes, of another program or damaged are an error that names which file.
pub fn read_pair(name: &str, program: &[u8], parses: &[u8]) -> Result<ValidProgram, Damaged> {
    let key = key_of(program).map_err(|e| Damaged(format!("the program: {e}")))?;
    read_parses(parses, &key).map_err(|e| Damaged(format!("the parses: {e}")))?;
    read_program(program, &key, name).map_err(|e| Damaged(format!("the program: {e}")))
}

/// The key a file's header carries.
pub fn key_of(bytes: &[u8]) -> Result<String, Damaged> {
    let mut lines = bytes.splitn(3, |&b| b == b'\n');
    let _magic = lines.next();
    let line = lines.next().ok_or("no key line")?;
    let line = std::str::from_utf8(line).map_err(|_| Damaged::from("bad key line"))?;
    line.strip_prefix("key ")
        .map(str::to_string)
        .ok_or_else(|| "bad key line".into())
}

/// `payload` behind the header lines: `first` (the magic line and format version), the
/// key, the payload's length and its checksum.
fn frame(first: &str, key: &str, payload: &[u8]) -> Vec<u8> {
    let mut out = format!(
        "{first}\nkey {key}\nlength {}\nchecksum {:016x}\n",
        payload.len(),
        checksum(payload)
    )
    .into_bytes();
    out.extend_from_slice(payload);
    out
}

/// The payload of bytes written by [`frame`] with `first` and `key`, once the header
/// proves it whole; the error says what is wrong.
fn unframe<'a>(bytes: &'a [u8], first: &str, key: &str) -> Result<&'a [u8], Damaged> {
    let mut rest = bytes;
    let mut line = |what: &str| -> Result<&str, Damaged> {
        let end = memchr::memchr(b'\n', rest).ok_or_else(|| Damaged(format!("no {what} line")))?;
        let text =
            std::str::from_utf8(&rest[..end]).map_err(|_| Damaged(format!("bad {what} line")))?;
        rest = &rest[end + 1..];
        Ok(text)
    };
    if line("header")? != first {
        return Err("not a program cache file of this format".into());
    }
    if line("key")?.strip_prefix("key ") != Some(key) {
        return Err("written for another build or program".into());
    }
    let length: usize = line("length")?
        .strip_prefix("length ")
        .and_then(|n| n.parse().ok())
        .ok_or("bad length line")?;
    let sum = line("checksum")?
        .strip_prefix("checksum ")
        .and_then(|n| u64::from_str_radix(n, 16).ok())
        .ok_or("bad checksum line")?;
    if rest.len() != length {
        return Err(Damaged(format!(
            "truncated or padded ({} payload bytes, {length} expected)",
            rest.len()
        )));
    }
    if checksum(rest) != sum {
        return Err("corrupt (checksum mismatch)".into());
    }
    Ok(rest)
}

/// A 64-bit checksum (FNV-1a over 8-byte words, then the tail bytes): fast, and any
/// accidental change to the bytes alters it with overwhelming likelihood.
pub fn checksum(bytes: &[u8]) -> u64 {
    const PRIME: u64 = 0x0100_0000_01b3;
    let mut hash = 0xcbf2_9ce4_8422_2325_u64 ^ bytes.len() as u64;
    let mut words = bytes.chunks_exact(8);
    for word in &mut words {
        let word = u64::from_le_bytes(word.try_into().expect("chunks of 8"));
        hash = (hash ^ word).wrapping_mul(PRIME).rotate_left(29);
    }
    for &b in words.remainder() {
        hash = (hash ^ u64::from(b)).wrapping_mul(PRIME);
    }
    hash
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::program::Rule;

    fn program() -> ValidProgram {
        Program::from_rules(vec![
            Rule::new("(a)(?P<x>b)", "${x}$1$$"),
            Rule::new("c", "d"),
        ])
        .validate()
        .unwrap()
    }

    #[test]
    fn a_file_round_trips_and_its_damage_is_named() {
        let valid = program();
        let bytes = program_file(&valid, "k1", "");
        let back = read_program(&bytes, "k1", "").unwrap();
        assert_eq!(back.program(), valid.program());
        assert_eq!(back.templates(), valid.templates());
        assert!(
            read_program(&bytes, "k2", "")
                .unwrap_err()
                .to_string()
                .contains("another build")
        );
        assert!(
            read_program(&bytes, "k1", "x")
                .unwrap_err()
                .to_string()
                .contains("holds")
        );
        let cut = &bytes[..bytes.len() - 1];
        assert!(
            read_program(cut, "k1", "")
                .unwrap_err()
                .to_string()
                .contains("truncated")
        );
        let mut flipped = bytes.clone();
        let last = flipped.len() - 3;
        flipped[last] ^= 1;
        assert!(
            read_program(&flipped, "k1", "")
                .unwrap_err()
                .to_string()
                .contains("checksum")
        );
        assert!(
            read_program(b"", "k1", "")
                .unwrap_err()
                .to_string()
                .contains("header")
        );
        assert!(
            read_program(b"{}\n", "k1", "")
                .unwrap_err()
                .to_string()
                .contains("format")
        );
    }

    #[test]
    fn checksums_see_every_byte() {
        let text = b"0123456789abcdefghij";
        let base = checksum(text);
        for i in 0..text.len() {
            let mut changed = *text;
            changed[i] ^= 0x20;
            assert_ne!(checksum(&changed), base, "byte {i}");
        }
        assert_ne!(checksum(&text[..19]), base);
    }

    #[test]
    fn a_pair_reads_back_and_a_foreign_parses_file_is_named() {
        let valid = program();
        let (bytes, parses) = (program_file(&valid, "k1", "p"), parses_file(&valid, "k1"));
        assert_eq!(
            read_pair("p", &bytes, &parses).unwrap().program(),
            valid.program()
        );
        let other = parses_file(&valid, "k2");
        let problem = read_pair("p", &bytes, &other).unwrap_err().to_string();
        assert!(problem.starts_with("the parses:"), "{problem}");
    }
}
