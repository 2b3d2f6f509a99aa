//! The primitive encodings of every binary format the machine writes: one writer (the
//! `put_*` functions, appending to a `Vec<u8>`) and one reader ([`Reader`]).
//!
//! Two formats are built from these primitives, each with its own layout and version:
//! the program file's payload (`program/wire/payload.rs`: little-endian `u32` counts and
//! byte lengths, tag bytes) and the fast executor's table of parsed patterns
//! (`exec/fast/parse/`: LEB128 varints, length-prefixed bytes, flags, 128-bit masks).
//! A format names what it reads; this module only says whether the bytes hold the
//! primitive asked for.
//!
//! Contract: every `put_*` has its reader method, which gives back exactly the value
//! written; on other bytes a reader method returns a [`Malformed`] error and leaves the
//! cursor where it was on failure or past what it read, never panics, and never reserves
//! more than the bytes left can describe ([`Reader::count`], [`Reader::count_le`]).
//!
//! Trade-offs: errors are static words, not positions; a format that reports positions
//! asks [`Reader::at`] (the payload does). Counts are bounded by the bytes left, not by
//! the items' true sizes, so a hostile count can still reserve up to one item per byte
//! left.

/// Why bytes do not hold the primitive asked for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Malformed(pub &'static str);

/// Appends `n` as a LEB128 varint (what [`Reader::varint`] reads).
pub fn put(out: &mut Vec<u8>, mut n: usize) {
    while n >= 0x80 {
        out.push((n as u8) | 0x80);
        n >>= 7;
    }
    out.push(n as u8);
}

/// Appends `bytes` with its varint length first (what [`Reader::bytes`] reads).
pub fn put_bytes(out: &mut Vec<u8>, bytes: &[u8]) {
    put(out, bytes.len());
    out.extend_from_slice(bytes);
}

/// Appends `n` as 16 little-endian bytes (what [`Reader::u128`] reads).
pub fn put_u128(out: &mut Vec<u8>, n: u128) {
    out.extend_from_slice(&n.to_le_bytes());
}

/// Appends `n` as 4 little-endian bytes (what [`Reader::u32_le`] reads).
pub fn put_u32_le(out: &mut Vec<u8>, n: u32) {
    out.extend_from_slice(&n.to_le_bytes());
}

/// Appends a length or a count as a little-endian `u32` (what [`Reader::count_le`]
/// reads). The machine's programs keep every count far below 4 G.
pub fn put_count_le(out: &mut Vec<u8>, n: usize) {
    put_u32_le(
        out,
        u32::try_from(n).expect("a program's counts and lengths fit in 32 bits"),
    );
}

/// Appends `text` as its `u32` byte length, then its bytes (read back with
/// [`Reader::count_le`] and [`Reader::take`]).
pub fn put_str_le(out: &mut Vec<u8>, text: &str) {
    put_count_le(out, text.len());
    out.extend_from_slice(text.as_bytes());
}

/// A cursor over bytes written by the `put_*` functions.
#[derive(Clone, Debug)]
pub struct Reader<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl<'a> Reader<'a> {
    /// A cursor at the start of `bytes`.
    pub fn new(bytes: &'a [u8]) -> Reader<'a> {
        Reader { bytes, at: 0 }
    }

    /// How many bytes have been read.
    pub fn at(&self) -> usize {
        self.at
    }

    /// How many bytes are left.
    pub fn left(&self) -> usize {
        self.bytes.len() - self.at
    }

    /// Whether every byte has been read.
    pub fn at_end(&self) -> bool {
        self.at == self.bytes.len()
    }

    /// One byte (a tag, a small number).
    pub fn byte(&mut self) -> Result<u8, Malformed> {
        let b = *self.bytes.get(self.at).ok_or(Malformed("cut short"))?;
        self.at += 1;
        Ok(b)
    }

    /// The next `len` bytes.
    pub fn take(&mut self, len: usize) -> Result<&'a [u8], Malformed> {
        let end = self
            .at
            .checked_add(len)
            .filter(|&end| end <= self.bytes.len())
            .ok_or(Malformed("cut short"))?;
        let taken = &self.bytes[self.at..end];
        self.at = end;
        Ok(taken)
    }

    /// A number written by [`put`].
    pub fn varint(&mut self) -> Result<usize, Malformed> {
        let mut n = 0usize;
        for shift in (0..64).step_by(7) {
            let b = self.byte()?;
            n |= usize::from(b & 0x7F)
                .checked_shl(shift)
                .ok_or(Malformed("number too large"))?;
            if b & 0x80 == 0 {
                return Ok(n);
            }
        }
        Err(Malformed("number too large"))
    }

    /// A varint count of items that take at least one byte each (bounded by what is
    /// left).
    pub fn count(&mut self) -> Result<usize, Malformed> {
        let n = self.varint()?;
        if n > self.left() {
            return Err(Malformed("count past the end"));
        }
        Ok(n)
    }

    /// A varint that fits in 32 bits.
    pub fn u32(&mut self) -> Result<u32, Malformed> {
        u32::try_from(self.varint()?).map_err(|_| Malformed("number too large"))
    }

    /// A char written as the varint of its code point.
    pub fn char(&mut self) -> Result<char, Malformed> {
        char::from_u32(self.u32()?).ok_or(Malformed("not a char"))
    }

    /// A flag written as one byte, `0` or `1`.
    pub fn flag(&mut self) -> Result<bool, Malformed> {
        match self.byte()? {
            0 => Ok(false),
            1 => Ok(true),
            _ => Err(Malformed("bad flag")),
        }
    }

    /// Bytes written by [`put_bytes`].
    pub fn bytes(&mut self) -> Result<&'a [u8], Malformed> {
        let len = self.varint()?;
        self.take(len)
    }

    /// A number written by [`put_u128`].
    pub fn u128(&mut self) -> Result<u128, Malformed> {
        let bytes = self.take(16)?;
        Ok(u128::from_le_bytes(bytes.try_into().expect("16 bytes")))
    }

    /// A number written by [`put_u32_le`].
    pub fn u32_le(&mut self) -> Result<u32, Malformed> {
        let bytes = self.take(4)?;
        Ok(u32::from_le_bytes([bytes[0], bytes[1], bytes[2], bytes[3]]))
    }

    /// A count written by [`put_count_le`] of items at least `min_size` bytes each:
    /// `Err(count)` when the bytes left cannot hold that many (nothing is reserved).
    pub fn count_le(&mut self, min_size: usize) -> Result<Result<usize, usize>, Malformed> {
        let count = self.u32_le()? as usize;
        Ok(match count.saturating_mul(min_size) > self.left() {
            true => Err(count),
            false => Ok(count),
        })
    }

    /// `n` items read by `item`, in one allocation of exactly `n` (collecting from a
    /// fallible iterator grows the list from empty, reallocating as it goes). `n` must be
    /// bounded by the bytes left, as [`Reader::count`] bounds it, or by a small constant.
    pub fn list<T, E>(
        &mut self,
        n: usize,
        mut item: impl FnMut(&mut Self) -> Result<T, E>,
    ) -> Result<Vec<T>, E> {
        let mut items = Vec::with_capacity(n);
        for _ in 0..n {
            items.push(item(self)?);
        }
        Ok(items)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_primitive_reads_back_as_written() {
        let mut out = Vec::new();
        for n in [0, 1, 127, 128, 300, usize::MAX] {
            put(&mut out, n);
        }
        put_bytes(&mut out, b"abc");
        put_u128(&mut out, u128::MAX - 5);
        put_u32_le(&mut out, 70_000);
        put_str_le(&mut out, "é!");
        put_count_le(&mut out, 2);
        out.extend([1, 0]);
        let mut r = Reader::new(&out);
        for n in [0, 1, 127, 128, 300, usize::MAX] {
            assert_eq!(r.varint(), Ok(n));
        }
        assert_eq!(r.bytes(), Ok(&b"abc"[..]));
        assert_eq!(r.u128(), Ok(u128::MAX - 5));
        assert_eq!(r.u32_le(), Ok(70_000));
        assert_eq!(r.count_le(1), Ok(Ok(3)));
        assert_eq!(r.take(3), Ok("é!".as_bytes()));
        assert_eq!(r.count_le(1), Ok(Ok(2)));
        assert_eq!(r.list(2, Reader::flag), Ok(vec![true, false]));
        assert!(r.at_end());
        assert_eq!(r.byte(), Err(Malformed("cut short")));
    }

    #[test]
    fn bad_bytes_are_errors() {
        assert_eq!(
            Reader::new(&[0xff; 11]).varint(),
            Err(Malformed("number too large"))
        );
        assert_eq!(
            Reader::new(&[5, 1]).count(),
            Err(Malformed("count past the end"))
        );
        assert_eq!(Reader::new(&[2]).flag(), Err(Malformed("bad flag")));
        assert_eq!(Reader::new(&[9, 0, 0, 0, 1]).count_le(1), Ok(Err(9)));
        assert_eq!(Reader::new(&[3, 1]).bytes(), Err(Malformed("cut short")));
    }
}
