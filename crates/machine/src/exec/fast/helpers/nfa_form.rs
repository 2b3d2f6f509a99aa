//! A Thompson NFA as plain data: the program cache keeps the NFAs of the lazy DFAs a
//! fresh process is sure to build (see `pattern/` and PERF.md, "Cold start"), and
//! reading one back replays its states into `regex_automata`'s NFA builder, without the
//! pattern's parse and without compiling it (reading a large parse back and compiling
//! it cost about 0.6 M instructions for a trie of keys).
//!
//! The stored NFA is the compiled one with the states that behave alike made one
//! ([`encode`]: the coarsest bisimulation, found by refining the states by what they do
//! and where they lead until nothing splits): the chess programs' tries and attack
//! tables repeat the same tails over and over, and their NFAs shrink to a quarter to a
//! half, which is what replaying them and every lazy-DFA state built from them cost.
//!
//! Contract: [`decode`]`(`[`encode`]`(nfa))` is an NFA whose states are those of `nfa`
//! with states that behave alike merged (same kind, bytes, look-around, group slot, and
//! successors that behave alike, in the same order), in the order of their first
//! occurrence, with the same starts, groups and settings, for every single-pattern NFA
//! that `thompson::Compiler` builds (the builder removes no state of a compiled NFA: it
//! has no empty states left, and each kind of state maps to itself). Its lazy DFA finds
//! the same matches as `nfa`'s: a state merged into an earlier one that behaves alike
//! only ever adds, after that one, threads the earlier one already runs, and a
//! leftmost-first search keeps the first of equal threads. (It is meant for the lazy
//! DFAs, which look through capture states; the capture engines compile their own
//! NFAs.) Other bytes give an error (a state pointing outside the NFA, groups that do
//! not come back the same), never a panic; the program cache checks the bytes'
//! checksum and key first.
//!
//! Trade-offs: the merging (a partition refinement over the whole NFA) is paid once,
//! when the program cache is written, and reading back costs a replay into the builder;
//! only single-pattern NFAs are kept, and only for the lazy DFAs.
//!
//! Layer 1: uses `syntax` only.

use std::collections::HashMap;

use regex_automata::nfa::thompson::{Builder, NFA, State, Transition};
use regex_automata::util::look::{Look, LookMatcher};
use regex_automata::util::primitives::{PatternID, StateID};

use crate::codec::{Reader, put};
use crate::exec::fast::syntax::DecodeError;

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

/// Appends the stored form of `nfa`, its states that behave alike merged (see the
/// module docs), or returns false (`out` may then hold part of it) when it is not a
/// single-pattern NFA of the kinds of states this form keeps.
pub fn encode(nfa: &NFA, out: &mut Vec<u8>) -> bool {
    if nfa.pattern_len() != 1 || nfa.states().iter().any(|s| matches!(s, State::Dense(_))) {
        return false;
    }
    let (new_id, kept) = quotient(nfa);
    let pid = PatternID::ZERO;
    out.push(u8::from(nfa.is_utf8()));
    out.push(u8::from(nfa.is_reverse()));
    out.push(nfa.look_matcher().get_line_terminator());
    let id = |out: &mut Vec<u8>, sid: StateID| put(out, new_id[sid.as_usize()]);
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
    put(out, kept.len());
    let range = |out: &mut Vec<u8>, t: &Transition| {
        out.extend([t.start, t.end]);
        id(out, t.next);
    };
    for &sid in &kept {
        match nfa.state(sid) {
            State::ByteRange { trans } => {
                out.push(tag::RANGE);
                range(out, trans);
            }
            State::Sparse(sparse) => {
                // Ranges that touch and now lead to the same state are one range (fewer
                // transitions to replay, and fewer byte classes for the lazy DFA).
                let mut merged: Vec<Transition> = Vec::with_capacity(sparse.transitions.len());
                for t in sparse.transitions.iter() {
                    match merged.last_mut() {
                        Some(last)
                            if u16::from(last.end) + 1 == u16::from(t.start)
                                && new_id[last.next.as_usize()] == new_id[t.next.as_usize()] =>
                        {
                            last.end = t.end;
                        }
                        _ => merged.push(*t),
                    }
                }
                if let [one] = merged[..] {
                    out.push(tag::RANGE);
                    range(out, &one);
                } else {
                    out.push(tag::SPARSE);
                    put(out, merged.len());
                    merged.iter().for_each(|t| range(out, t));
                }
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

/// The states of `nfa` that behave alike, found by Moore's refinement: first by what
/// each state does (its kind, bytes, look-around or group slot: its *label*), then, again
/// and again, by its label and the classes of its successors in order, until no class
/// splits. Returns each state's index among the classes (numbered in the order of their
/// first state) and the first state of each class, in that order.
///
/// The refinement's rounds times the NFA's states past which [`quotient`] gives up and
/// keeps every state. Moore's refinement takes a round per state of a long chain whose
/// states differ only by how far they are from its end (`(?:\b\w+\b\x00{90}\s*){33}`, a
/// fuzzer's find: 3,173 states with ASCII classes, some 3,000 rounds, about 10 million
/// visits, over a second of CPU in the fuzzing build), while the chess programs' NFAs
/// settle within 78,472 (9,809 states in 8 rounds, the largest): a budget 25 times that
/// bounds a pattern's encoding to tens of milliseconds and merges every shipped one as
/// before.
const REFINE_BUDGET: usize = 2_000_000;

/// An NFA with a cycle of states that read no byte (a loop whose body can match the empty
/// string, `(?:a??)*`) keeps every state: there the lazy DFA's epsilon closure can meet a
/// state that behaves like one whose closure it has not finished, and a merged copy
/// would move the copy's threads ahead of that closure's later alternatives (a
/// leftmost-first search would then prefer another match). Without such a cycle, a
/// closure that meets a state again has always finished it.
fn quotient(nfa: &NFA) -> (Vec<usize>, Vec<StateID>) {
    let states = nfa.states();
    let every_state = || {
        let ids = (0..states.len()).map(|s| StateID::new(s).expect("a state of the NFA"));
        ((0..states.len()).collect(), ids.collect())
    };
    if has_epsilon_cycle(nfa) {
        return every_state();
    }
    let mut labels: HashMap<Vec<u32>, u32> = HashMap::new();
    let mut label = Vec::with_capacity(states.len());
    // The successors of state `s` are `targets[ends[s]..ends[s + 1]]`.
    let mut targets: Vec<usize> = Vec::new();
    let mut ends = Vec::with_capacity(states.len() + 1);
    ends.push(0);
    let mut key: Vec<u32> = Vec::new();
    for state in states {
        key.clear();
        match state {
            State::ByteRange { trans } => {
                key.extend([0, trans.start.into(), trans.end.into()]);
                targets.push(trans.next.as_usize());
            }
            State::Sparse(sparse) => {
                key.push(1);
                for t in sparse.transitions.iter() {
                    key.extend([u32::from(t.start), u32::from(t.end)]);
                    targets.push(t.next.as_usize());
                }
            }
            State::Look { look, next } => {
                key.extend([2, look.as_repr()]);
                targets.push(next.as_usize());
            }
            State::Union { alternates } => {
                key.push(3);
                targets.extend(alternates.iter().map(|a| a.as_usize()));
            }
            State::BinaryUnion { alt1, alt2 } => {
                key.push(4);
                targets.extend([alt1.as_usize(), alt2.as_usize()]);
            }
            State::Capture {
                next,
                group_index,
                slot,
                ..
            } => {
                key.extend([5, group_index.as_u32(), slot.as_u32()]);
                targets.push(next.as_usize());
            }
            State::Fail => key.push(6),
            State::Match { pattern_id } => key.extend([7, pattern_id.as_u32()]),
            State::Dense(_) => key.push(8),
        }
        ends.push(targets.len());
        let n = labels.len() as u32;
        label.push(*labels.entry(key.clone()).or_insert(n));
    }
    let mut class = label.clone();
    let mut count = labels.len();
    let mut visits = 0usize;
    loop {
        // Keeping every state is always a quotient, only a larger one.
        visits += states.len();
        if visits > REFINE_BUDGET {
            return every_state();
        }
        let mut signatures: HashMap<Vec<u32>, u32> = HashMap::with_capacity(count);
        let mut refined = Vec::with_capacity(states.len());
        for s in 0..states.len() {
            key.clear();
            key.push(label[s]);
            key.extend(targets[ends[s]..ends[s + 1]].iter().map(|&t| class[t]));
            let n = signatures.len() as u32;
            let c = match signatures.get(&key) {
                Some(&c) => c,
                None => *signatures.entry(key.clone()).or_insert(n),
            };
            refined.push(c);
        }
        class = refined;
        // Each round splits classes or changes nothing: the same count is the fixpoint.
        if signatures.len() == count {
            break;
        }
        count = signatures.len();
    }
    let mut index = vec![usize::MAX; count];
    let mut kept = Vec::with_capacity(count);
    let new_id = class
        .iter()
        .enumerate()
        .map(|(s, &c)| {
            let i = &mut index[c as usize];
            if *i == usize::MAX {
                *i = kept.len();
                kept.push(StateID::new(s).expect("a state of the NFA"));
            }
            *i
        })
        .collect();
    (new_id, kept)
}

/// Whether some states of `nfa` lead back to themselves without reading a byte.
fn has_epsilon_cycle(nfa: &NFA) -> bool {
    /// Where a state is in the walk: not met, on the current path, or done.
    #[derive(Clone, Copy, PartialEq)]
    enum Mark {
        New,
        OnPath,
        Done,
    }
    let epsilon_next = |sid: StateID| -> Vec<StateID> {
        match nfa.state(sid) {
            State::Look { next, .. } | State::Capture { next, .. } => vec![*next],
            State::Union { alternates } => alternates.to_vec(),
            State::BinaryUnion { alt1, alt2 } => vec![*alt1, *alt2],
            _ => Vec::new(),
        }
    };
    let mut mark = vec![Mark::New; nfa.states().len()];
    // A depth-first walk: each entry is a state and its epsilon successors not yet
    // walked.
    let mut path: Vec<(StateID, Vec<StateID>)> = Vec::new();
    for root in 0..mark.len() {
        if mark[root] != Mark::New {
            continue;
        }
        let root = StateID::new(root).expect("a state of the NFA");
        mark[root.as_usize()] = Mark::OnPath;
        path.push((root, epsilon_next(root)));
        while let Some((sid, pending)) = path.last_mut() {
            match pending.pop() {
                Some(next) => match mark[next.as_usize()] {
                    Mark::OnPath => return true,
                    Mark::Done => {}
                    Mark::New => {
                        mark[next.as_usize()] = Mark::OnPath;
                        let more = epsilon_next(next);
                        path.push((next, more));
                    }
                },
                None => {
                    mark[sid.as_usize()] = Mark::Done;
                    path.pop();
                }
            }
        }
    }
    false
}

/// The NFA whose stored form ([`encode`]) is all of `bytes`.
pub fn decode(bytes: &[u8]) -> Result<NFA, DecodeError> {
    let mut reader = Reader::new(bytes);
    let (utf8, reverse) = (reader.flag()?, reader.flag()?);
    let line_terminator = reader.byte()?;
    let (start_anchored, start_unanchored, start_pattern) =
        (reader.varint()?, reader.varint()?, reader.varint()?);
    let n = reader.count()?;
    let mut names = Vec::with_capacity(n);
    for _ in 0..n {
        names.push(match reader.varint()? {
            0 => None,
            len => Some(
                std::str::from_utf8(reader.take(len - 1)?)
                    .map_err(|_| DecodeError("group name not UTF-8"))?,
            ),
        });
    }
    let len = reader.count()?;
    let sid = |reader: &mut Reader<'_>| {
        let n = reader.varint()?;
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
mod tests;
