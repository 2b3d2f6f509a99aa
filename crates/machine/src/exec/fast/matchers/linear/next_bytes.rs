//! What the next bytes must be: a filter the search checks before trying a place.
//!
//! [`NextBytes`] holds, for the first few bytes any match of the atoms from some index on
//! must consume, the set of ASCII bytes each can be. It is read off the leading literals
//! and ASCII-only classes (each takes exactly one byte), looking through group marks and
//! jumps, and merged over the paths of alternations and optional parts (per byte, the
//! union; as long as the shortest path's filter). An empty filter admits everything.
//!
//! Contract: if atoms `i..` match at `pos`, [`NextBytes::admits`] is true there. A place it
//! refuses is one where the search would fail within those bytes before reaching the end
//! of the text, so skipping it changes neither the answer nor the "touched the end" note.
//!
//! Trade-off: up to 8 bytes of lookahead (16 bytes of mask each, boxed) per alternation
//! branch and repetition; merging is bounded by a step allowance, so a long chain of
//! optional parts yields a shorter (still exact) filter instead of exponential work.

use super::Atom;
use crate::codec::{Reader, put, put_u128};
use crate::exec::fast::syntax::DecodeError;

/// How many bytes a filter looks at.
const AHEAD: usize = 8;

/// The ASCII bytes allowed at each of the first few offsets (see the module doc).
#[derive(Clone, Debug, Default)]
pub(super) struct NextBytes {
    masks: Box<[u128]>,
}

impl NextBytes {
    /// The filter of the atoms from index `i` on.
    pub(super) fn of(atoms: &[Atom], i: usize) -> NextBytes {
        let mut allowance = 256;
        let found = Masks::walk(atoms, i, &mut allowance);
        NextBytes {
            masks: found.masks[..found.len].into(),
        }
    }

    /// Appends the filter's stored form (see `stored.rs`).
    pub(super) fn encode(&self, out: &mut Vec<u8>) {
        put(out, self.masks.len());
        self.masks.iter().for_each(|&m| put_u128(out, m));
    }

    /// Reads a filter written by [`NextBytes::encode`].
    pub(super) fn decode(reader: &mut Reader<'_>) -> Result<NextBytes, DecodeError> {
        let n = reader.count()?;
        if n > AHEAD {
            return Err(DecodeError("a filter too long"));
        }
        let masks = reader.list(n, Reader::u128)?.into();
        Ok(NextBytes { masks })
    }

    /// The mask of the first byte (every ASCII byte when the filter is empty).
    pub(super) fn first(&self) -> u128 {
        self.masks.first().copied().unwrap_or(u128::MAX)
    }

    /// Whether the bytes at `pos` (those before `end`) pass the filter.
    #[inline]
    pub(super) fn admits(&self, bytes: &[u8], pos: usize, end: usize) -> bool {
        let n = self.masks.len().min(end.saturating_sub(pos));
        bytes[pos..pos + n]
            .iter()
            .zip(&self.masks)
            .all(|(&b, m)| b < 128 && m >> b & 1 == 1)
    }
}

/// An [`NextBytes`] while it is read off the atoms.
#[derive(Clone, Debug, Default)]
struct Masks {
    masks: [u128; AHEAD],
    len: usize,
}

impl Masks {
    fn push(&mut self, mask: u128) -> bool {
        if self.len == AHEAD {
            return false;
        }
        self.masks[self.len] = mask;
        self.len += 1;
        true
    }

    /// This filter followed by `rest`.
    fn then(mut self, rest: &Masks) -> Masks {
        for &mask in &rest.masks[..rest.len] {
            if !self.push(mask) {
                break;
            }
        }
        self
    }

    /// A filter that every path's filter implies.
    fn union(mut self, other: &Masks) -> Masks {
        self.len = self.len.min(other.len);
        for (m, o) in self.masks.iter_mut().zip(&other.masks).take(self.len) {
            *m |= o;
        }
        self
    }

    fn walk(atoms: &[Atom], mut i: usize, allowance: &mut usize) -> Masks {
        let mut out = Masks::default();
        if *allowance == 0 {
            return out;
        }
        *allowance -= 1;
        loop {
            let merged = match atoms.get(i) {
                Some(Atom::Open(_) | Atom::Close(_)) => {
                    i += 1;
                    continue;
                }
                Some(Atom::Jump(offset)) => {
                    i += offset;
                    continue;
                }
                Some(Atom::Literal(lit)) => {
                    for &b in lit.iter() {
                        if !b.is_ascii() || !out.push(1u128 << b) {
                            return out;
                        }
                    }
                    i += 1;
                    continue;
                }
                Some(Atom::Class(set)) if set.only_ascii() => {
                    if !out.push(set.ascii) {
                        return out;
                    }
                    i += 1;
                    continue;
                }
                Some(Atom::Alt { branches }) => {
                    let mut paths = branches
                        .offsets
                        .iter()
                        .map(|offset| Masks::walk(atoms, i + offset, allowance));
                    let first = paths.next().unwrap_or_default();
                    paths.fold(first, |all, path| all.union(&path))
                }
                Some(Atom::Skip { len, .. }) => {
                    let body = Masks::walk(atoms, i + 1, allowance);
                    body.union(&Masks::walk(atoms, i + 1 + len, allowance))
                }
                _ => return out,
            };
            return out.then(&merged);
        }
    }
}
