//! A Thompson NFA as plain data: the program cache keeps the NFAs of the lazy DFAs a
//! fresh process is sure to build (see `pattern.rs` and PERF.md, "Cold start"), and
//! reading one back replays its states into `regex_automata`'s NFA builder, without the
//! pattern's parse and without compiling it (reading a large parse back and compiling
//! it cost about 0.6 M instructions for a trie of keys).
//!
//! Contract: [`decode`]`(`[`encode`]`(nfa))` is an NFA with the same states, in the same
//! order, the same starts, groups and settings as `nfa`, for every single-pattern NFA
//! that `thompson::Compiler` builds (the builder removes no state of a compiled NFA: it
//! has no empty states left, and each kind of state maps to itself). Other bytes give an
//! error (a state pointing outside the NFA, groups that do not come back the same), never
//! a panic; the program cache checks the bytes' checksum and key first.
//!
//! Layer 1: uses `syntax` only.

use regex_automata::nfa::thompson::{Builder, NFA, State, Transition};
use regex_automata::util::look::{Look, LookMatcher};
use regex_automata::util::primitives::{PatternID, StateID};

use super::syntax::{DecodeError, Reader, put};

/// State tags of the stored form.
mod tag {
    pub const RANGE: u8 = 0;
    pub const SPARSE: u8 = 1;
    pub const LOOK: u8 = 2;
    pub const UNION: u8 = 3;
    pub const BINARY_UNION: u8 = 4;
    pub const CAPTURE_START: u8 = 5;
    pub const CAPTURE_END: u8 = 6;
    pub const FAIL: u8 = 7;
    pub const MATCH: u8 = 8;
}

/// Appends the stored form of `nfa`, or returns false (`out` may then hold part of it)
/// when it is not a single-pattern NFA of the kinds of states this form keeps.
pub fn encode(nfa: &NFA, out: &mut Vec<u8>) -> bool {
    if nfa.pattern_len() != 1 {
        return false;
    }
    let pid = PatternID::ZERO;
    out.push(u8::from(nfa.is_utf8()));
    out.push(u8::from(nfa.is_reverse()));
    out.push(nfa.look_matcher().get_line_terminator());
    let id = |out: &mut Vec<u8>, sid: StateID| put(out, sid.as_usize());
    id(out, nfa.start_anchored());
    id(out, nfa.start_unanchored());
    id(out, nfa.start_pattern(pid).expect("one pattern"));
    // The group names, to check them once the states are replayed.
    let names: Vec<Option<&str>> = nfa.group_info().pattern_names(pid).collect();
    put(out, names.len());
    for name in names {
        match name {
            None => put(out, 0),
            Some(name) => {
                put(out, name.len() + 1);
                out.extend_from_slice(name.as_bytes());
            }
        }
    }
    put(out, nfa.states().len());
    let range = |out: &mut Vec<u8>, t: &Transition| {
        out.extend([t.start, t.end]);
        id(out, t.next);
    };
    for state in nfa.states() {
        match state {
            State::ByteRange { trans } => {
                out.push(tag::RANGE);
                range(out, trans);
            }
            State::Sparse(sparse) => {
                out.push(tag::SPARSE);
                put(out, sparse.transitions.len());
                sparse.transitions.iter().for_each(|t| range(out, t));
            }
            State::Look { look, next } => {
                out.push(tag::LOOK);
                put(out, look.as_repr() as usize);
                id(out, *next);
            }
            State::Union { alternates } => {
                out.push(tag::UNION);
                put(out, alternates.len());
                alternates.iter().for_each(|&a| id(out, a));
            }
            State::BinaryUnion { alt1, alt2 } => {
                out.push(tag::BINARY_UNION);
                id(out, *alt1);
                id(out, *alt2);
            }
            State::Capture {
                next,
                group_index,
                slot,
                ..
            } => {
                let start = slot.as_usize() % 2 == 0;
                out.push(if start {
                    tag::CAPTURE_START
                } else {
                    tag::CAPTURE_END
                });
                put(out, group_index.as_usize());
                id(out, *next);
            }
            State::Fail => out.push(tag::FAIL),
            State::Match { .. } => out.push(tag::MATCH),
            State::Dense(_) => return false,
        }
    }
    true
}

/// The NFA whose stored form ([`encode`]) is all of `bytes`.
pub fn decode(bytes: &[u8]) -> Result<NFA, DecodeError> {
    let mut reader = Reader::new(bytes);
    let (utf8, reverse) = (reader.flag()?, reader.flag()?);
    let line_terminator = reader.byte()?;
    let (start_anchored, start_unanchored, start_pattern) =
        (reader.number()?, reader.number()?, reader.number()?);
    let n = reader.count()?;
    let mut names = Vec::with_capacity(n);
    for _ in 0..n {
        names.push(match reader.number()? {
            0 => None,
            len => Some(
                std::str::from_utf8(reader.take(len - 1)?)
                    .map_err(|_| DecodeError("group name not UTF-8"))?,
            ),
        });
    }
    let len = reader.count()?;
    let sid = |reader: &mut Reader<'_>| {
        let n = reader.number()?;
        if n >= len {
            return Err(DecodeError("a state pointing outside the NFA"));
        }
        StateID::new(n).map_err(|_| DecodeError("a state pointing outside the NFA"))
    };
    let range = |reader: &mut Reader<'_>| {
        let (start, end) = (reader.byte()?, reader.byte()?);
        if start > end {
            return Err(DecodeError("a byte range that ends before it starts"));
        }
        Ok(Transition {
            start,
            end,
            next: sid(reader)?,
        })
    };
    let built = |r: Result<StateID, _>| r.map_err(|_| DecodeError("the NFA does not build"));
    let mut builder = Builder::new();
    builder.set_utf8(utf8);
    builder.set_reverse(reverse);
    let mut looks = LookMatcher::new();
    looks.set_line_terminator(line_terminator);
    builder.set_look_matcher(looks);
    builder
        .start_pattern()
        .map_err(|_| DecodeError("the NFA does not build"))?;
    // Groups are registered by their first start: every end must have one.
    let (mut groups, mut ended) = (0usize, 0usize);
    for _ in 0..len {
        match reader.byte()? {
            tag::RANGE => built(builder.add_range(range(&mut reader)?))?,
            tag::SPARSE => {
                let transitions = at_least(&mut reader, 2, range, "a sparse state of one range")?;
                if transitions.windows(2).any(|w| w[0].end >= w[1].start) {
                    return Err(DecodeError("byte ranges out of order"));
                }
                built(builder.add_sparse(transitions))?
            }
            tag::LOOK => {
                let look = Look::from_repr(reader.u32()?).ok_or(DecodeError("bad look"))?;
                built(builder.add_look(sid(&mut reader)?, look))?
            }
            tag::UNION => {
                let alternates = at_least(&mut reader, 3, sid, "a union of two states or fewer")?;
                built(builder.add_union(alternates))?
            }
            tag::BINARY_UNION => {
                let alternates = vec![sid(&mut reader)?, sid(&mut reader)?];
                built(builder.add_union(alternates))?
            }
            tag::CAPTURE_START => {
                let index = reader.u32()?;
                let name = names
                    .get(index as usize)
                    .ok_or(DecodeError("a group without a name entry"))?
                    .map(std::sync::Arc::from);
                groups = groups.max(index as usize + 1);
                built(builder.add_capture_start(sid(&mut reader)?, index, name))?
            }
            tag::CAPTURE_END => {
                let index = reader.u32()?;
                ended = ended.max(index as usize + 1);
                built(builder.add_capture_end(sid(&mut reader)?, index))?
            }
            tag::FAIL => built(builder.add_fail())?,
            tag::MATCH => built(builder.add_match())?,
            _ => return Err(DecodeError("unknown NFA state")),
        };
    }
    if !reader.at_end() {
        return Err(DecodeError("bytes after the NFA"));
    }
    if ended > groups || groups != names.len() {
        return Err(DecodeError("groups that do not fit the NFA"));
    }
    let id = |n: usize| {
        (n < len)
            .then(|| StateID::new(n).ok())
            .flatten()
            .ok_or(DecodeError("a start outside the NFA"))
    };
    builder
        .finish_pattern(id(start_pattern)?)
        .map_err(|_| DecodeError("the NFA does not build"))?;
    let nfa = builder
        .build(id(start_anchored)?, id(start_unanchored)?)
        .map_err(|_| DecodeError("the NFA does not build"))?;
    // Replaying keeps every state (the check that it did), and the groups must come back
    // as they were.
    let same_groups = nfa
        .group_info()
        .pattern_names(PatternID::ZERO)
        .eq(names.iter().copied());
    if nfa.states().len() != len || !same_groups {
        return Err(DecodeError("the NFA does not come back the same"));
    }
    Ok(nfa)
}

/// A count of at least `min`, then that many items read by `item`; `short` names a count
/// below `min`, which the writer never produces.
fn at_least<T>(
    reader: &mut Reader<'_>,
    min: usize,
    item: impl Fn(&mut Reader<'_>) -> Result<T, DecodeError>,
    short: &'static str,
) -> Result<Vec<T>, DecodeError> {
    let k = reader.count()?;
    if k < min {
        return Err(DecodeError(short));
    }
    reader.list(k, item)
}

#[cfg(test)]
mod tests {
    use super::*;
    use regex_automata::nfa::thompson;

    fn round_trip(nfa: &NFA) {
        let mut form = Vec::new();
        assert!(encode(nfa, &mut form));
        let back = decode(&form).expect("reads back");
        assert_eq!(format!("{back:?}"), format!("{nfa:?}"));
        assert_eq!(back.group_info().slot_len(), nfa.group_info().slot_len());
        assert_eq!(back.has_empty(), nfa.has_empty());
        assert_eq!(back.look_set_any(), nfa.look_set_any());
        for cut in 0..form.len() {
            assert!(decode(&form[..cut]).is_err(), "cut at {cut}");
        }
    }

    #[test]
    fn compiled_nfas_read_back_the_same() {
        for pattern in [
            "",
            "a",
            "(%%\\n#stack:\\n)((?:[^%\\n]*\\n)*#b: )([^\\n]*)\\n",
            "(?:Ba1:|Bb2:|Nc3:|Nd4:|Qe5:)[01]{3}(x)?",
            "(a)(?P<name>b|c)(?:d|e)*?\\b$",
            "x(){0}(y)",
            "(?m)^%tag\\n|[^\\n]{2,5}",
        ] {
            let hir = super::super::syntax::parse(pattern);
            let ascii = super::super::syntax::ascii_hir(&hir);
            round_trip(&thompson::Compiler::new().build_from_hir(&ascii).unwrap());
            round_trip(&thompson::Compiler::new().build_from_hir(&hir).unwrap());
            let reverse = thompson::Config::new()
                .reverse(true)
                .which_captures(thompson::WhichCaptures::None);
            let nfa = thompson::Compiler::new()
                .configure(reverse)
                .build_from_hir(&ascii)
                .unwrap();
            round_trip(&nfa);
        }
    }

    #[test]
    fn damaged_forms_are_errors_not_panics() {
        let hir = super::super::syntax::parse("(%%\\n)(?P<x>[^\\n]{2,7})|b*");
        let nfa = thompson::Compiler::new().build_from_hir(&hir).unwrap();
        let mut form = Vec::new();
        assert!(encode(&nfa, &mut form));
        for i in 0..form.len() {
            for bit in 0..8 {
                let mut flipped = form.clone();
                flipped[i] ^= 1 << bit;
                let _ = decode(&flipped);
            }
        }
    }
}
