//! What the program cache keeps of each pattern, so that a fresh process neither parses
//! its patterns nor builds a matcher for a rule it can skip: the parse in the binary
//! form of `syntax.rs`, the literals every match needs and the prefix when it is plain
//! data (`literal.rs`: the prefix extraction is the costly part of its analysis), and
//! the compiled pattern's stored form (opaque here: `pattern/` writes and reads it), so
//! that compiling a pattern reads plain data instead of decoding and walking its parse.
//!
//! Contract:
//! - [`table`] writes, for each distinct pattern, its parse's binary form and its needed
//!   literals ([`crate::exec::fast::literal::needed`]); [`remember`] takes a table back for the rest of
//!   the process, all of it or (when it is cut short or otherwise broken) none of it.
//! - [`parse`] gives the remembered parse read back and the remembered prefix, or parses
//!   the pattern (and knows no prefix) when there is no entry or its parse does not read
//!   back. Debug builds check both against a fresh parse and analysis.
//! - [`stored`] hands the remembered parse's binary form and the stored form of the
//!   compiled pattern to its caller, when the table keeps one; the caller compiles the
//!   pattern from its parse when they do not read back.
//! - [`needed`] gives the remembered needed literals, or `None`: the caller then learns
//!   them by compiling the pattern. The executor checks them against the compiled
//!   pattern's own in debug builds; they come from outside the process, so the program
//!   cache checks the table's checksum and key before handing it over (a damaged or
//!   stale file is rebuilt, never read).
//!
//! Trade-offs: the table is the process's, not an executor's (one map behind a mutex,
//! taken once per pattern compiled, never during a search), so every executor of a
//! program shares what the cache kept; a table is taken whole or not at all, so a broken
//! one costs parsing again, never a wrong pattern. The parse forms are shared with the
//! patterns compiled from them, not copied.
//!
//! Layer 1: uses `syntax` and `literal` only.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, PoisonError};

use regex_syntax::hir::Hir;

use crate::codec::{Reader, put, put_bytes};
use crate::exec::fast::literal::{self, KnownPrefix};
use crate::exec::fast::syntax::{self, DecodeError};

/// The literals every match of a pattern needs, in [`literal::Literals::needed`] order.
pub type Needed = Box<[Box<[u8]>]>;

/// What is remembered of one pattern.
#[derive(Debug)]
struct Entry {
    /// The parse's binary form ([`syntax::encode`]), shared with the patterns compiled
    /// from it (the tries' forms run to tens of KB).
    form: Arc<[u8]>,
    /// The literals every match needs.
    needed: Needed,
    /// The prefix, when it is plain data.
    prefix: Option<KnownPrefix>,
    /// The compiled pattern's stored form (see `Compiled::store`), empty when it is not
    /// kept.
    stored: Arc<[u8]>,
}

/// How the table writes an entry's prefix: `0` not kept, `1` [`KnownPrefix::None`], `2`
/// [`KnownPrefix::One`] (its literal is then the first needed literal).
mod prefix_tag {
    pub const NOT_KEPT: u8 = 0;
    pub const NONE: u8 = 1;
    pub const ONE: u8 = 2;
}

/// The entries this process was given ([`remember`]), by pattern.
static REMEMBERED: Mutex<Option<HashMap<Box<str>, Entry>>> = Mutex::new(None);

/// The entries of `patterns` (each distinct one once), as one table for [`remember`];
/// `store` appends the stored form of a compiled pattern given its parse, or returns
/// false when it keeps none.
pub fn table<'a>(
    patterns: impl IntoIterator<Item = &'a str>,
    store: impl Fn(&Hir, &mut Vec<u8>) -> bool,
) -> Vec<u8> {
    let mut seen = std::collections::HashSet::new();
    let distinct: Vec<&str> = patterns.into_iter().filter(|p| seen.insert(*p)).collect();
    let mut out = Vec::new();
    put(&mut out, distinct.len());
    let mut form = Vec::new();
    for pattern in distinct {
        let hir = syntax::parse(pattern);
        form.clear();
        syntax::encode(&hir, &mut form);
        put(&mut out, pattern.len());
        out.extend_from_slice(pattern.as_bytes());
        put(&mut out, form.len());
        out.extend_from_slice(&form);
        let (needed, prefix) = literal::needed(&hir);
        out.push(match prefix {
            None => prefix_tag::NOT_KEPT,
            Some(KnownPrefix::None) => prefix_tag::NONE,
            Some(KnownPrefix::One(_)) => prefix_tag::ONE,
        });
        put(&mut out, needed.len());
        for literal in needed {
            put(&mut out, literal.len());
            out.extend_from_slice(&literal);
        }
        form.clear();
        if !store(&hir, &mut form) {
            form.clear();
        }
        put_bytes(&mut out, &form);
    }
    out
}

/// Remembers, for the rest of the process, the entries of a table written by
/// [`parse_table`](crate::exec::fast::parse_table);
/// returns how many. A table that is cut short or otherwise broken is an error, and
/// nothing of it is remembered.
pub fn remember(table: &[u8]) -> Result<usize, DecodeError> {
    let mut reader = Reader::new(table);
    let n = reader.count()?;
    let mut entries = Vec::with_capacity(n);
    for _ in 0..n {
        let len = reader.varint()?;
        let pattern =
            std::str::from_utf8(reader.take(len)?).map_err(|_| DecodeError("pattern not UTF-8"))?;
        let len = reader.varint()?;
        let form = Arc::<[u8]>::from(reader.take(len)?);
        let tag = reader.take(1)?[0];
        let count = reader.count()?;
        let needed = (0..count)
            .map(|_| {
                let len = reader.varint()?;
                Ok(Box::<[u8]>::from(reader.take(len)?))
            })
            .collect::<Result<Box<[_]>, DecodeError>>()?;
        if needed.iter().any(|literal| literal.is_empty()) {
            return Err(DecodeError("an empty needed literal"));
        }
        let prefix = match (tag, needed.first()) {
            (prefix_tag::NOT_KEPT, _) => None,
            (prefix_tag::NONE, _) => Some(KnownPrefix::None),
            (prefix_tag::ONE, Some(first)) => Some(KnownPrefix::One(first.clone())),
            _ => return Err(DecodeError("a bad prefix")),
        };
        let stored = reader.bytes()?.into();
        entries.push((
            Box::<str>::from(pattern),
            Entry {
                form,
                needed,
                prefix,
                stored,
            },
        ));
    }
    if !reader.at_end() {
        return Err(DecodeError("bytes after the table"));
    }
    let mut remembered = REMEMBERED.lock().unwrap_or_else(PoisonError::into_inner);
    remembered.get_or_insert_with(HashMap::new).extend(entries);
    Ok(n)
}

/// Forgets every entry [`remember`] was given: patterns compiled from then on are
/// compiled from their parse (the fuzz target uses this so that a long run does not
/// keep the tables of every program it met).
pub fn forget() {
    *REMEMBERED.lock().unwrap_or_else(PoisonError::into_inner) = None;
}

/// The parse of `pattern` and its prefix when known: the remembered form read back and
/// the remembered prefix when there is an entry whose form reads back, else
/// [`syntax::parse`] and no prefix.
pub fn parse(pattern: &str) -> (Hir, Option<KnownPrefix>) {
    let entry = REMEMBERED
        .lock()
        .unwrap_or_else(PoisonError::into_inner)
        .as_ref()
        .and_then(|remembered| {
            let entry = remembered.get(pattern)?;
            Some((entry.form.clone(), entry.prefix.clone()))
        });
    match entry.map(|(form, prefix)| (syntax::decode(&form), prefix)) {
        Some((Ok(hir), prefix)) => {
            debug_assert_eq!(
                hir,
                syntax::parse(pattern),
                "the remembered parse of {pattern:?}"
            );
            (hir, prefix)
        }
        _ => (syntax::parse(pattern), None),
    }
}

/// What `read` makes of the remembered parse of `pattern` (its binary form) and the
/// compiled pattern's stored form, when there is an entry that keeps one; `None`
/// otherwise. `read` runs with the table locked: it should only read (or take a share
/// of the bytes).
pub fn stored<T>(pattern: &str, read: impl FnOnce(&Arc<[u8]>, &Arc<[u8]>) -> T) -> Option<T> {
    let remembered = REMEMBERED.lock().unwrap_or_else(PoisonError::into_inner);
    let entry = remembered.as_ref()?.get(pattern)?;
    (!entry.stored.is_empty()).then(|| read(&entry.form, &entry.stored))
}

/// The remembered needed literals of each of `patterns`, in order (`None` for a pattern
/// that has no entry).
pub fn needed<'a>(patterns: impl IntoIterator<Item = &'a str>) -> Vec<Option<Needed>> {
    let remembered = REMEMBERED.lock().unwrap_or_else(PoisonError::into_inner);
    patterns
        .into_iter()
        .map(|pattern| Some(remembered.as_ref()?.get(pattern)?.needed.clone()))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn remembered_tables_give_the_parse_and_broken_ones_nothing() {
        let patterns = [
            "remembered-test-a(b)",
            "remembered-test-[^\\n]*c",
            "remembered-test-a(b)",
        ];
        // A stand-in for the compiled form: one byte, kept for patterns with a group.
        let store = |hir: &Hir, out: &mut Vec<u8>| {
            out.push(u8::from(hir.properties().explicit_captures_len() > 0));
            hir.properties().explicit_captures_len() > 0
        };
        let table = table(patterns, store);
        for cut in 0..table.len() {
            assert!(remember(&table[..cut]).is_err(), "cut at {cut}");
        }
        let mut longer = table.clone();
        longer.push(0);
        assert!(remember(&longer).is_err());
        assert_eq!(needed([patterns[0]]), vec![None]);
        assert_eq!(remember(&table), Ok(2));
        for pattern in patterns {
            assert_eq!(parse(pattern).0, syntax::parse(pattern));
        }
        let mut form = Vec::new();
        syntax::encode(&syntax::parse(patterns[0]), &mut form);
        let read = |form: &Arc<[u8]>, stored: &Arc<[u8]>| (form.to_vec(), stored.to_vec());
        assert_eq!(stored(patterns[0], read), Some((form, vec![1])));
        assert_eq!(stored(patterns[1], read), None, "none kept");
        assert_eq!(stored("remembered-test-not-in-the-table", read), None);
        assert_eq!(
            parse(patterns[0]).1,
            Some(KnownPrefix::One(b"remembered-test-ab"[..].into()))
        );
        assert_eq!(
            parse(patterns[1]).1,
            Some(KnownPrefix::One(b"remembered-test-"[..].into()))
        );
        assert_eq!(
            parse("remembered-test-not-in-the-table"),
            (syntax::parse("remembered-test-not-in-the-table"), None)
        );
        let literals = |l: &[&str]| {
            Some(
                l.iter()
                    .map(|l| Box::<[u8]>::from(l.as_bytes()))
                    .collect::<Box<[_]>>(),
            )
        };
        assert_eq!(
            needed([patterns[0], patterns[1], "remembered-test-none"]),
            vec![
                literals(&["remembered-test-ab"]),
                literals(&["remembered-test-", "c"]),
                None
            ]
        );
    }

    #[test]
    fn an_empty_needed_literal_is_refused() {
        // One entry: the pattern `x`, the form of `x`, the prefix tag, one needed literal
        // of length 0, no stored form.
        let mut form = Vec::new();
        syntax::encode(&syntax::parse("x"), &mut form);
        let mut table = vec![1, 1, b'x', form.len() as u8];
        table.extend_from_slice(&form);
        table.extend_from_slice(&[prefix_tag::ONE, 1, 0, 0]);
        assert!(remember(&table).is_err());
        table.truncate(table.len() - 4);
        // A prefix literal that is not there, and an unknown tag.
        for bad in [[prefix_tag::ONE, 0, 0], [3, 0, 0]] {
            let mut bad_table = table.clone();
            bad_table.extend_from_slice(&bad);
            assert!(remember(&bad_table).is_err());
        }
        table.extend_from_slice(&[prefix_tag::ONE, 1, 1, b'x', 0]);
        assert_eq!(remember(&table), Ok(1));
        assert_eq!(parse("x").1, Some(KnownPrefix::One(b"x"[..].into())));
    }

    /// The needed literals of the table are those the compiled pattern finds, for every
    /// pattern of the chess programs.
    #[test]
    fn needed_literals_agree_with_the_compiled_patterns() {
        for pattern in crate::exec::fast::generated::program_patterns(&["move", "move-qe"]) {
            let hir = syntax::parse(&pattern);
            let compiled = crate::exec::fast::pattern::Compiled::from_hir(&hir);
            let from_compiled: Vec<Vec<u8>> =
                compiled.needed_literals().map(<[u8]>::to_vec).collect();
            let (needed, prefix) = literal::needed(&hir);
            assert_eq!(needed, from_compiled, "{:?}", pattern);
            let analyzed = literal::analyze(&hir, 1).prefix.known();
            assert_eq!(prefix, analyzed, "{:?}", pattern);
            if let Some(known) = &prefix {
                let given = literal::analyze_known(&hir, 1, Some(known));
                assert_eq!(given.prefix.known().as_ref(), Some(known));
                assert!(given.needed().eq(compiled.needed_literals()));
            }
        }
    }
}
