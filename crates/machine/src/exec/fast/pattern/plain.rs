//! What compiling a pattern reads off its parse ([`Plain`]), the program cache's stored
//! form of a pattern (its bytes unchanged since the format's last bump), and the cost
//! tests that choose between the linear search and the lazy DFA for a pattern.
//!
//! Contract: [`Plain::decode`] reads back exactly what [`Plain::encode`] wrote, and any
//! other bytes are an error, never a panic. The facts it holds decide the pattern's
//! `Strategy`, once, in `Compiled::from_plain`.
//!
//! Trade-offs: the stored form keeps flags (`dense`, `local`, `segment_prefix`) rather
//! than the strategy itself, so that the file format did not change when the strategy
//! became a type.

use super::*;

/// What compiling a pattern reads off its parse: plain data (its `lines` form keeps the
/// stored NFAs of its parts, whose lazy DFAs are built on first use). The program cache keeps it (see `remembered.rs` and PERF.md, "Cold
/// start"), so that a fresh process compiles a pattern without decoding and walking its
/// parse.
#[derive(Debug)]
pub(super) struct Plain {
    /// Group slots (two per group, group 0 included).
    pub(super) slot_len: usize,
    pub(super) literals: Literals,
    /// The linear form, unless the pattern has none or it is a trie the DFA searches.
    pub(super) linear: Option<Linear>,
    /// The linear form finds matches slowly, or is a trie: the DFA finds them.
    pub(super) dense: bool,
    /// The `lines` form's plan, when the pattern has one and it is searched first.
    pub(super) lines: Option<LinesPlan>,
    /// See [`Compiled::is_local`].
    pub(super) local: bool,
    /// Whether the prefix literal is a [`Compiled::segment_prefix`].
    pub(super) segment_prefix: bool,
    /// The stored form ([`nfa_form`]) of the forward lazy DFA's NFA, kept for the
    /// patterns that always build that DFA (see [`Plain::stored`]); `None` otherwise
    /// and when compiling from the parse.
    pub(super) forward: Option<Box<[u8]>>,
}

impl Plain {
    /// The facts of the pattern whose parse is `hir` and whose prefix is `known` when
    /// given (as [`literal::analyze_known`] would find it).
    pub(super) fn from_hir(hir: &Hir, known: Option<&KnownPrefix>) -> Plain {
        let linear = Linear::new(hir);
        let group_len = group_len(hir);
        let literals = literal::analyze_known(hir, group_len, known);
        let anchored = matches!(literals.prefix, Prefix::One(_) | Prefix::Many(_));
        let segment_prefix = match &literals.prefix {
            Prefix::One(f) => {
                f.needle().first() == Some(&b'%')
                    && memchr::memmem::find(f.needle(), b"\n%").is_none()
                    && hir.properties().look_set().is_empty()
            }
            _ => false,
        };
        // A dense linear form, or a trie, finds matches slowly: the DFA finds them.
        let trie = anchored && trie_for_dfa(hir, linear.as_ref(), &literals);
        let dense = linear.as_ref().is_some_and(Linear::dense) || trie;
        // A trie's linear form would never run (the DFA finds its matches, and its groups
        // are fixed): it is dropped, which pays for part of the DFA's memory.
        let linear = linear.filter(|_| !trie);
        // A linear pattern that backtracks little finds its match and groups in one
        // pass; jumping to the line first would search twice (kiwipete's lookups
        // `(%%\n#stack:\n)((?:[^%\n]*\n)*#_97: )([^\n]*)\n` took half the time; PERF.md).
        let linear_first = !dense && linear.as_ref().is_some_and(Linear::backtracks_little);
        let lines = if anchored && !linear_first {
            LinesPlan::new(hir)
        } else {
            None
        };
        Plain {
            slot_len: 2 * group_len,
            literals,
            linear,
            dense,
            lines,
            // A walk of the parse (see `local.rs`), while it is at hand.
            local: crate::exec::fast::local::is_local(hir),
            segment_prefix,
            forward: None,
        }
    }

    /// What the program cache keeps of the pattern whose parse is `hir`: its facts, and
    /// the NFA of its forward lazy DFA when the pattern searches with that DFA whenever
    /// it runs (no prefix to anchor at, or candidates that the DFA decides), so that a
    /// fresh process builds the DFA without reading and compiling the parse.
    pub(super) fn stored(hir: &Hir) -> Plain {
        let mut plain = Plain::from_hir(hir, None);
        let anchored = matches!(plain.literals.prefix, Prefix::One(_) | Prefix::Many(_));
        let never = matches!(plain.literals.prefix, Prefix::Never);
        let literal = plain
            .linear
            .as_ref()
            .is_some_and(|l| l.as_literal().is_some());
        let dfa_candidates = anchored
            && !literal
            && plain.lines.is_none()
            && (plain.linear.is_none() || plain.dense);
        if (!anchored && !never) || dfa_candidates {
            let nfa = thompson::Compiler::new().build_from_hir(&syntax::ascii_hir(hir));
            let mut form = Vec::new();
            if let Ok(nfa) = nfa
                && nfa_form::encode(&nfa, &mut form)
            {
                plain.forward = Some(form.into());
            }
        }
        plain
    }

    /// Appends the stored form, or returns false when a part is not kept (see
    /// [`Compiled::store`]); `out` may then hold part of it.
    pub(super) fn encode(&self, out: &mut Vec<u8>) -> bool {
        put(out, self.slot_len);
        if !self.literals.encode(out) {
            return false;
        }
        match &self.linear {
            None => out.push(0),
            Some(linear) => {
                out.push(1);
                linear.encode(out);
            }
        }
        match &self.lines {
            None => out.push(0),
            Some(plan) => {
                out.push(1);
                plan.encode(out);
            }
        }
        out.extend([self.dense, self.local, self.segment_prefix].map(u8::from));
        match &self.forward {
            None => out.push(0),
            Some(form) => {
                out.push(1);
                put_bytes(out, form);
            }
        }
        true
    }

    /// Reads what [`Plain::encode`] wrote (all of `bytes`).
    pub(super) fn decode(bytes: &[u8]) -> Result<Plain, DecodeError> {
        let mut reader = Reader::new(bytes);
        let slot_len = reader.varint()?;
        let literals = Literals::decode(&mut reader)?;
        if slot_len == 0 || slot_len % 2 == 1 || literals.fixed_groups.len() != slot_len / 2 {
            return Err(DecodeError("groups that do not fit the pattern"));
        }
        let linear = if reader.flag()? {
            Some(Linear::decode(&mut reader, slot_len)?)
        } else {
            None
        };
        let lines = if reader.flag()? {
            Some(LinesPlan::decode(&mut reader)?)
        } else {
            None
        };
        let (dense, local, segment_prefix) = (reader.flag()?, reader.flag()?, reader.flag()?);
        let forward = if reader.flag()? {
            Some(reader.bytes()?.into())
        } else {
            None
        };
        if !reader.at_end() {
            return Err(DecodeError("bytes after a stored pattern"));
        }
        Ok(Plain {
            slot_len,
            literals,
            linear,
            dense,
            lines,
            local,
            segment_prefix,
            forward,
        })
    }
}

/// Alternation branches from which a linear pattern whose groups are all at fixed
/// offsets is searched by the lazy DFA instead (see [`trie_for_dfa`]).
pub(super) const TRIE_BRANCHES: usize = 16;

/// A repetition of a class at least this many times keeps a trie on the linear search
/// (see [`trie_for_dfa`]).
pub(super) const LONG_COUNT: u32 = 24;

/// Whether a linear pattern's candidates are better searched by the lazy DFA (in
/// lockstep) than by the linear search: the pattern holds many alternation branches (a
/// trie of keys such as the gain's `(%%\n#stack:\n(?:B[a-h][1-8](?:a[1-8]:[...]|...)|...)\n[01]{3})0`,
/// which the linear search steps through atom by atom, twice as slow a thread on
/// kiwipete's wide state as the lockstep DFA walks; PERF.md), and every group sits at a
/// fixed offset from an edge of the match, so the match span alone gives the groups and
/// the linear search's one pass for match and groups saves nothing. A trie followed by a
/// long counted run (the board look-ups' `[./A-Za-z]{56}`) stays linear: the linear search
/// checks such a run with independent table loads, the DFA with one dependent load a
/// byte, slower (PERF.md). Only the cost differs: both searches are exact.
pub(super) fn trie_for_dfa(hir: &Hir, linear: Option<&Linear>, literals: &Literals) -> bool {
    let groups_fixed = literals.fixed_groups.iter().skip(1).all(Option::is_some);
    groups_fixed
        && linear.is_some_and(|l| l.branches() >= TRIE_BRANCHES)
        && longest_count(hir) < LONG_COUNT
}

/// The largest minimum count of a repetition in `hir` (0 when it has none).
pub(super) fn longest_count(hir: &Hir) -> u32 {
    match hir.kind() {
        HirKind::Repetition(rep) => rep.min.max(longest_count(&rep.sub)),
        HirKind::Capture(cap) => longest_count(&cap.sub),
        HirKind::Concat(subs) | HirKind::Alternation(subs) => {
            subs.iter().map(longest_count).max().unwrap_or(0)
        }
        HirKind::Empty | HirKind::Literal(_) | HirKind::Class(_) | HirKind::Look(_) => 0,
    }
}

/// The number of groups of the pattern `hir` was parsed from, group 0 included, as its NFA
/// and `regex` count them: one more than the highest group index left in the HIR (not
/// the number of groups left: `(a){0}(b)` drops group 1 but keeps group 2).
pub(super) fn group_len(hir: &regex_syntax::hir::Hir) -> usize {
    use regex_syntax::hir::HirKind;
    pub(super) fn highest(hir: &regex_syntax::hir::Hir) -> u32 {
        match hir.kind() {
            HirKind::Capture(cap) => cap.index.max(highest(&cap.sub)),
            HirKind::Concat(subs) | HirKind::Alternation(subs) => {
                subs.iter().map(highest).max().unwrap_or(0)
            }
            HirKind::Repetition(rep) => highest(&rep.sub),
            HirKind::Empty | HirKind::Literal(_) | HirKind::Class(_) | HirKind::Look(_) => 0,
        }
    }
    highest(hir) as usize + 1
}
