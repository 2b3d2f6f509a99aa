//! Runs of fixed-width atoms checked as one: [`Span`].
//!
//! A run of literals, ASCII-only classes, exact repetitions of them (`[01]{13}`) and group
//! marks has one way to match: each byte
//! at a fixed offset from the run's start must be a given byte or in a given ASCII set,
//! and each group mark lands at a fixed offset. [`spans`] puts, at the first index of
//! every such run of two or more atoms, one [`Atom::Span`] that checks the whole byte
//! span and records its group marks at once, so the search dispatches once per run
//! instead of once per atom (the tournament rule's 28 `([01])` groups, the compare
//! step's `(0)0:(1)` branches).
//!
//! Contract: a span at index `i` stands for atoms `i..i + count` of the original list and
//! answers exactly as they would stepped one by one, including the "touched the end" note
//! when the text is cut inside it. The atoms after its first are kept, so a jump into the
//! middle of a run (a branch or optional part ending there) steps them as before.
//!
//! Trade-off: a span holds at most `UNDO` group marks (the search's undo log takes a
//! span's marks at once), so a longer run of groups becomes several spans.

use super::{Atom, CharSet};
use crate::codec::{Reader, put, put_bytes, put_u128};
use crate::exec::fast::syntax::DecodeError;

/// A run of fixed-width atoms (see the module doc).
#[derive(Clone, Debug)]
pub(super) struct Span {
    /// How many atoms it stands for.
    pub(super) count: usize,
    /// How many bytes it consumes.
    pub(super) len: usize,
    /// What the bytes must be, in order; adjacent pieces of one kind are merged.
    pieces: Box<[Piece]>,
    /// The group marks: slot and offset from the start, in order.
    pub(super) marks: Box<[(u16, u32)]>,
}

/// Part of a [`Span`]'s bytes.
#[derive(Clone, Debug)]
enum Piece {
    /// These bytes exactly.
    Literal(Box<[u8]>),
    /// One ASCII byte in each mask.
    Classes(Box<[u128]>),
    /// `count` bytes of one ASCII class (`[./A-Za-z]{56}`), as a table by byte value.
    Run {
        table: Box<[bool; 256]>,
        count: usize,
    },
}

/// Whether `atom` takes a fixed number of bytes with no choice.
fn fixed(atom: &Atom) -> bool {
    match atom {
        Atom::Literal(_) | Atom::Open(_) | Atom::Close(_) => true,
        Atom::Class(set) => set.only_ascii(),
        Atom::Repeat(repeat) => repeat.max == Some(repeat.min) && repeat.class.only_ascii(),
        _ => false,
    }
}

/// `atoms` with a span at the start of every run of two or more fixed-width atoms,
/// each holding at most `max_marks` group marks.
pub(super) fn spans(atoms: &[Atom], max_marks: usize) -> Vec<Atom> {
    let mut out = atoms.to_vec();
    let mut i = 0;
    while i < atoms.len() {
        let mut j = i;
        let mut marks = 0;
        while j < atoms.len() && fixed(&atoms[j]) {
            if matches!(atoms[j], Atom::Open(_) | Atom::Close(_)) {
                if marks == max_marks {
                    break;
                }
                marks += 1;
            }
            j += 1;
        }
        if j - i >= 2 {
            out[i] = Atom::Span(Box::new(Span::of(&atoms[i..j])));
        }
        i = j.max(i + 1);
    }
    out
}

impl Span {
    /// The span of `run`, atoms that are all [`fixed`].
    fn of(run: &[Atom]) -> Span {
        let mut pieces: Vec<Piece> = Vec::new();
        let mut marks = Vec::new();
        let mut len = 0;
        for atom in run {
            match atom {
                Atom::Literal(lit) => {
                    len += lit.len();
                    match pieces.last_mut() {
                        Some(Piece::Literal(last)) => *last = [&last[..], &lit[..]].concat().into(),
                        _ => pieces.push(Piece::Literal(lit.clone())),
                    }
                }
                Atom::Class(CharSet { ascii, .. }) => {
                    len += 1;
                    match pieces.last_mut() {
                        Some(Piece::Classes(last)) => {
                            *last = [&last[..], &[*ascii]].concat().into()
                        }
                        _ => pieces.push(Piece::Classes(Box::new([*ascii]))),
                    }
                }
                Atom::Repeat(repeat) => {
                    let count = repeat.min as usize;
                    len += count;
                    if count > 0 {
                        let table = repeat.class.table();
                        pieces.push(Piece::Run { table, count });
                    }
                }
                // Slot numbers fit in u16 (checked by `Linear::new`), offsets in u32
                // (a literal of 4 GB is not a pattern).
                Atom::Open(g) => marks.push(((2 * g) as u16, len as u32)),
                Atom::Close(g) => marks.push(((2 * g + 1) as u16, len as u32)),
                _ => unreachable!("only fixed-width atoms make a span"),
            }
        }
        Span {
            count: run.len(),
            len,
            pieces: pieces.into(),
            marks: marks.into(),
        }
    }

    /// Whether `text` (exactly [`Span::len`] bytes) has the span's bytes.
    #[inline]
    pub(super) fn matches(&self, text: &[u8]) -> bool {
        let mut at = 0;
        for piece in &self.pieces {
            match piece {
                Piece::Literal(lit) => {
                    let after = at + lit.len();
                    if !super::search::same(&text[at..after], lit) {
                        return false;
                    }
                    at = after;
                }
                Piece::Classes(masks) => {
                    let after = at + masks.len();
                    let ok = text[at..after]
                        .iter()
                        .zip(masks.iter())
                        .all(|(&b, m)| b < 128 && m >> b & 1 == 1);
                    if !ok {
                        return false;
                    }
                    at = after;
                }
                Piece::Run { table, count } => {
                    let after = at + count;
                    if !text[at..after].iter().all(|&b| table[usize::from(b)]) {
                        return false;
                    }
                    at = after;
                }
            }
        }
        true
    }

    /// For text cut short (`text` is shorter than the span): whether stepping the atoms
    /// one by one would touch the end, that is, every byte of `text` fits and the first
    /// byte past it may be `%`.
    pub(super) fn touches_end(&self, text: &[u8]) -> bool {
        let mut bytes = text.iter();
        for piece in &self.pieces {
            match piece {
                Piece::Literal(lit) => {
                    for &want in lit.iter() {
                        match bytes.next() {
                            None => return want == b'%',
                            Some(&b) if b != want => return false,
                            Some(_) => {}
                        }
                    }
                }
                Piece::Classes(masks) => {
                    for m in masks.iter() {
                        match bytes.next() {
                            None => return m >> b'%' & 1 == 1,
                            Some(&b) if b >= 128 || m >> b & 1 == 0 => return false,
                            Some(_) => {}
                        }
                    }
                }
                Piece::Run { table, count } => {
                    for _ in 0..*count {
                        match bytes.next() {
                            None => return table[usize::from(b'%')],
                            Some(&b) if !table[usize::from(b)] => return false,
                            Some(_) => {}
                        }
                    }
                }
            }
        }
        false
    }
}

// The stored form (see `stored.rs`).
impl Span {
    /// Appends the span's stored form.
    pub(super) fn encode(&self, out: &mut Vec<u8>) {
        put(out, self.count);
        put(out, self.len);
        put(out, self.pieces.len());
        for piece in &self.pieces {
            match piece {
                Piece::Literal(lit) => {
                    out.push(0);
                    put_bytes(out, lit);
                }
                Piece::Classes(masks) => {
                    out.push(1);
                    put(out, masks.len());
                    masks.iter().for_each(|&m| put_u128(out, m));
                }
                Piece::Run { table, count } => {
                    out.push(2);
                    put(out, *count);
                    let bits =
                        table
                            .iter()
                            .enumerate()
                            .fold([0u128; 2], |mut bits, (b, &member)| {
                                bits[b / 128] |= u128::from(member) << (b % 128);
                                bits
                            });
                    put_u128(out, bits[0]);
                    put_u128(out, bits[1]);
                }
            }
        }
        put(out, self.marks.len());
        for &(slot, offset) in &self.marks {
            put(out, usize::from(slot));
            put(out, offset as usize);
        }
    }

    /// Reads a span written by [`Span::encode`], checking that its pieces cover exactly
    /// its length, its marks fit the search's undo log and lie within it.
    pub(super) fn decode(reader: &mut Reader<'_>) -> Result<Span, DecodeError> {
        let count = reader.varint()?;
        let len = reader.varint()?;
        let n = reader.count()?;
        let mut pieces = Vec::with_capacity(n);
        let mut covered = 0usize;
        for _ in 0..n {
            let piece = match reader.byte()? {
                0 => Piece::Literal(reader.bytes()?.into()),
                1 => {
                    let k = reader.count()?;
                    Piece::Classes(reader.list(k, Reader::u128)?.into())
                }
                2 => {
                    let count = reader.varint()?;
                    let bits = [reader.u128()?, reader.u128()?];
                    let mut table = Box::new([false; 256]);
                    for (b, member) in table.iter_mut().enumerate() {
                        *member = bits[b / 128] >> (b % 128) & 1 == 1;
                    }
                    Piece::Run { table, count }
                }
                _ => return Err(DecodeError("unknown span piece")),
            };
            let piece_len = match &piece {
                Piece::Literal(lit) => lit.len(),
                Piece::Classes(masks) => masks.len(),
                Piece::Run { count, .. } => *count,
            };
            covered = covered
                .checked_add(piece_len)
                .ok_or(DecodeError("span too long"))?;
            pieces.push(piece);
        }
        let k = reader.count()?;
        if k > super::search::UNDO {
            return Err(DecodeError("too many marks in a span"));
        }
        let marks: Box<[_]> = reader
            .list(k, |r| {
                let slot = u16::try_from(r.varint()?).map_err(|_| DecodeError("bad slot"))?;
                let offset = r.u32()?;
                Ok::<_, DecodeError>((slot, offset))
            })?
            .into();
        if covered != len || marks.iter().any(|&(_, offset)| offset as usize > len) {
            return Err(DecodeError("a span's pieces do not fit it"));
        }
        Ok(Span {
            count,
            len,
            pieces: pieces.into(),
            marks,
        })
    }

    /// The highest slot the span marks, if any.
    pub(super) fn highest_slot(&self) -> Option<usize> {
        self.marks.iter().map(|&(slot, _)| usize::from(slot)).max()
    }
}
