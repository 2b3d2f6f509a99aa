//! The stored form of a [`Linear`]: its search steps as plain data, so that the program
//! cache can keep a pattern's linear form and a fresh process reads it back instead of
//! flattening and analysing the pattern's parse (see `remembered.rs` and PERF.md, "Cold
//! start").
//!
//! Contract: [`Linear::decode`]`(`[`Linear::encode`]`(l))` searches exactly as `l` does
//! (the same steps, filters and flags; finders and tables are rebuilt from their bytes).
//! Any other bytes give an error or a linear form whose every jump, branch, span and
//! group mark stays inside its steps and its `slot_len` slots, never a panic; the
//! program cache checks the bytes' checksum and key before they get here.
//!
//! Trade-offs: what can be rebuilt from bytes (memchr finders, byte tables) is rebuilt
//! on reading rather than stored, which keeps the form small and independent of
//! `memchr`'s internals at the cost of building the finders again.

use memchr::memmem;

use super::{
    Atom, Beyond, Branches, CharSet, Linear, LinesLoop, NextBytes, QuickRun, Repeat, Span,
};
use crate::codec::{Reader, put, put_bytes, put_u128};
use crate::exec::fast::syntax::DecodeError;

/// Atom tags of the stored form.
mod tag {
    pub const LITERAL: u8 = 0;
    pub const CLASS: u8 = 1;
    pub const REPEAT: u8 = 2;
    pub const LINES: u8 = 3;
    pub const SKIP: u8 = 4;
    pub const ALT: u8 = 5;
    pub const JUMP: u8 = 6;
    pub const OPEN: u8 = 7;
    pub const CLOSE: u8 = 8;
    pub const SPAN: u8 = 9;
}

/// Appends `value`: `0` for none, else `1` and what `put_some` writes.
fn put_option<T>(out: &mut Vec<u8>, value: Option<&T>, put_some: impl FnOnce(&mut Vec<u8>, &T)) {
    match value {
        None => out.push(0),
        Some(v) => {
            out.push(1);
            put_some(out, v);
        }
    }
}

/// Reads what [`put_option`] wrote.
fn option<'a, T>(
    reader: &mut Reader<'a>,
    read: impl FnOnce(&mut Reader<'a>) -> Result<T, DecodeError>,
) -> Result<Option<T>, DecodeError> {
    Ok(if reader.flag()? {
        Some(read(reader)?)
    } else {
        None
    })
}

/// Stop bytes (of a quick run, a bounded run or a lines loop): at most three ASCII
/// bytes, as `memchr_any` takes them, and at least `least`.
fn stop_bytes(reader: &mut Reader<'_>, least: usize) -> Result<Vec<u8>, DecodeError> {
    let bytes = reader.bytes()?;
    if !(least..=3).contains(&bytes.len()) || !bytes.is_ascii() {
        return Err(DecodeError("bad stop bytes"));
    }
    Ok(bytes.to_vec())
}

impl CharSet {
    fn encode(&self, out: &mut Vec<u8>) {
        put_u128(out, self.ascii);
        match &self.beyond {
            Beyond::Nothing => out.push(0),
            Beyond::All => out.push(1),
            Beyond::Ranges(ranges) => {
                out.push(2);
                put(out, ranges.len());
                for &(start, end) in ranges.iter() {
                    put(out, start as usize);
                    put(out, end as usize);
                }
            }
        }
    }

    fn decode(reader: &mut Reader<'_>) -> Result<CharSet, DecodeError> {
        let ascii = reader.u128()?;
        let beyond = match reader.byte()? {
            0 => Beyond::Nothing,
            1 => Beyond::All,
            2 => {
                let n = reader.count()?;
                let ranges = reader.list(n, |r| Ok::<_, DecodeError>((r.char()?, r.char()?)))?;
                Beyond::Ranges(ranges.into())
            }
            _ => return Err(DecodeError("bad class")),
        };
        Ok(CharSet { ascii, beyond })
    }
}

impl Linear {
    /// Appends the stored form of this linear form.
    pub fn encode(&self, out: &mut Vec<u8>) {
        put(out, self.steps.len());
        for atom in self.steps.iter() {
            encode_atom(atom, out);
        }
        out.push(u8::from(self.dense));
        out.push(u8::from(self.backtracks_little));
        put_option(out, self.literal.as_ref(), |out, l| put_bytes(out, l));
    }

    /// Reads a linear form written by [`Linear::encode`], for a pattern with `slot_len`
    /// group slots.
    pub fn decode(reader: &mut Reader<'_>, slot_len: usize) -> Result<Linear, DecodeError> {
        let n = reader.count()?;
        let steps: Box<[Atom]> = reader.list(n, decode_atom)?.into();
        check(&steps, slot_len)?;
        let dense = reader.flag()?;
        let backtracks_little = reader.flag()?;
        let literal = option(reader, |r| Ok(Box::from(r.bytes()?)))?;
        Ok(Linear {
            steps,
            dense,
            backtracks_little,
            literal,
        })
    }
}

/// Checks that every step leads to a step (or just past the last) and every group mark
/// to a slot.
fn check(steps: &[Atom], slot_len: usize) -> Result<(), DecodeError> {
    let n = steps.len();
    let within = |i: usize, k: usize| i.checked_add(k).is_some_and(|j| j <= n);
    let slot_ok = |slot: usize| slot < slot_len;
    for (i, atom) in steps.iter().enumerate() {
        let ok = match atom {
            Atom::Skip { len, .. } => within(i + 1, *len),
            Atom::Jump(k) => within(i, *k),
            Atom::Alt { branches } => {
                branches.offsets.iter().all(|&k| within(i, k))
                    && branches.paths.len() == branches.offsets.len()
            }
            Atom::Open(g) => g.checked_mul(2).is_some_and(slot_ok),
            Atom::Close(g) => g
                .checked_mul(2)
                .and_then(|s| s.checked_add(1))
                .is_some_and(slot_ok),
            Atom::Span(span) => {
                span.count >= 1 && within(i, span.count) && span.highest_slot().is_none_or(slot_ok)
            }
            Atom::Literal(_) | Atom::Class(_) | Atom::Repeat(_) | Atom::Lines(_) => true,
        };
        if !ok {
            return Err(DecodeError("a step that leads outside the pattern"));
        }
    }
    Ok(())
}

fn encode_atom(atom: &Atom, out: &mut Vec<u8>) {
    match atom {
        Atom::Literal(lit) => {
            out.push(tag::LITERAL);
            put_bytes(out, lit);
        }
        Atom::Class(set) => {
            out.push(tag::CLASS);
            set.encode(out);
        }
        Atom::Repeat(repeat) => {
            out.push(tag::REPEAT);
            repeat.class.encode(out);
            put(out, repeat.min as usize);
            put(out, repeat.max.map_or(0, |max| max as usize + 1));
            out.push(u8::from(repeat.greedy));
            put_option(out, repeat.quick.as_ref(), |out, quick| {
                put_bytes(out, &quick.stops);
                put_option(out, quick.next_literal.as_ref(), |out, f| {
                    put_bytes(out, f.needle())
                });
                put_option(out, quick.next_bytes.as_ref(), |out, b| put_bytes(out, b));
            });
            repeat.next.encode(out);
            put_option(out, repeat.stops.as_ref(), |out, s| put_bytes(out, s));
            out.push(u8::from(repeat.table.is_some()));
        }
        Atom::Lines(lines) => {
            out.push(tag::LINES);
            put_bytes(out, &lines.stops);
            put_option(out, lines.next_literal.as_ref(), |out, f| {
                put_bytes(out, f.needle())
            });
        }
        Atom::Skip { len, greedy } => {
            out.push(tag::SKIP);
            put(out, *len);
            out.push(u8::from(*greedy));
        }
        Atom::Alt { branches } => {
            out.push(tag::ALT);
            put(out, branches.offsets.len());
            for (&offset, path) in branches.offsets.iter().zip(&branches.paths) {
                put(out, offset);
                path.encode(out);
            }
        }
        Atom::Jump(k) => {
            out.push(tag::JUMP);
            put(out, *k);
        }
        Atom::Open(g) => {
            out.push(tag::OPEN);
            put(out, *g);
        }
        Atom::Close(g) => {
            out.push(tag::CLOSE);
            put(out, *g);
        }
        Atom::Span(span) => {
            out.push(tag::SPAN);
            span.encode(out);
        }
    }
}

fn decode_atom(reader: &mut Reader<'_>) -> Result<Atom, DecodeError> {
    Ok(match reader.byte()? {
        tag::LITERAL => Atom::Literal(reader.bytes()?.into()),
        tag::CLASS => Atom::Class(CharSet::decode(reader)?),
        tag::REPEAT => {
            let class = CharSet::decode(reader)?;
            let min = reader.u32()?;
            let max = match reader.u32()? {
                0 => None,
                n => Some(n - 1),
            };
            if max.is_some_and(|max| max < min) {
                return Err(DecodeError("repetition max below min"));
            }
            let greedy = reader.flag()?;
            let quick = option(reader, |r| {
                Ok(QuickRun {
                    stops: stop_bytes(r, 0)?,
                    next_literal: option(r, |r| {
                        Ok(memmem::FinderRev::new(r.bytes()?).into_owned())
                    })?,
                    next_bytes: option(r, |r| stop_bytes(r, 1))?,
                })
            })?;
            let next = NextBytes::decode(reader)?;
            let stops = option(reader, |r| Ok(stop_bytes(r, 0)?.into_boxed_slice()))?;
            let table = reader.flag()?;
            if table && !class.only_ascii() {
                return Err(DecodeError("a byte table for a class beyond ASCII"));
            }
            Atom::Repeat(Box::new(Repeat {
                table: table.then(|| class.table()),
                class,
                min,
                max,
                greedy,
                quick,
                next,
                stops,
            }))
        }
        tag::LINES => Atom::Lines(Box::new(LinesLoop {
            stops: stop_bytes(reader, 0)?,
            next_literal: option(reader, |r| {
                Ok(crate::exec::fast::literal::finder(r.bytes()?))
            })?,
        })),
        tag::SKIP => Atom::Skip {
            len: reader.varint()?,
            greedy: reader.flag()?,
        },
        tag::ALT => {
            let n = reader.count()?;
            let mut branches = Branches {
                offsets: Vec::with_capacity(n),
                paths: Vec::with_capacity(n),
                firsts: Vec::with_capacity(n),
            };
            for _ in 0..n {
                branches.offsets.push(reader.varint()?);
                let path = NextBytes::decode(reader)?;
                branches.firsts.push(path.first());
                branches.paths.push(path);
            }
            Atom::Alt {
                branches: Box::new(branches),
            }
        }
        tag::JUMP => Atom::Jump(reader.varint()?),
        tag::OPEN => Atom::Open(reader.varint()?),
        tag::CLOSE => Atom::Close(reader.varint()?),
        tag::SPAN => Atom::Span(Box::new(Span::decode(reader)?)),
        _ => return Err(DecodeError("unknown step")),
    })
}
