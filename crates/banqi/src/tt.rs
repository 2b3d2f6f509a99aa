//! The transposition table: a fixed array of 16-byte entries indexed by the low bits of
//! the key (board, pool, side to move, and the no-progress clock mixed in by the search),
//! the whole key kept to check a hit. An entry is replaced unless it holds the same
//! position searched deeper; the trade-off is simplicity over bucket schemes.

use crate::moves::Move;

/// What a stored score means.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bound {
    /// The exact value.
    Exact,
    /// At least this (a beta cutoff).
    Lower,
    /// At most this (all moves failed low).
    Upper,
}

/// One stored search result.
#[derive(Clone, Copy, Debug)]
pub struct Entry {
    key: u64,
    /// The best move's code, 0xFFFF for none.
    mv: u16,
    score: i16,
    depth: i8,
    bound: Bound,
}

/// What a probe found.
#[derive(Clone, Copy, Debug)]
pub struct Hit {
    /// The best move found before, if any.
    pub mv: Option<Move>,
    /// Its score.
    pub score: i32,
    /// Depth searched.
    pub depth: i32,
    /// The score's meaning.
    pub bound: Bound,
}

/// The table.
pub struct Table {
    entries: Vec<Entry>,
    mask: usize,
}

const EMPTY: Entry = Entry {
    key: 0,
    mv: 0xFFFF,
    score: 0,
    depth: -1,
    bound: Bound::Upper,
};

impl Table {
    /// A table of 2^`bits` entries (16 bytes each).
    pub fn new(bits: u32) -> Table {
        let len = 1usize << bits;
        Table {
            entries: vec![EMPTY; len],
            mask: len - 1,
        }
    }

    /// Forgets everything.
    pub fn clear(&mut self) {
        self.entries.fill(EMPTY);
    }

    /// The entry for `key`, if stored.
    pub fn probe(&self, key: u64) -> Option<Hit> {
        let entry = self.entries[key as usize & self.mask];
        (entry.key == key && entry.depth >= 0).then(|| Hit {
            mv: Move::from_code(entry.mv),
            score: i32::from(entry.score),
            depth: i32::from(entry.depth),
            bound: entry.bound,
        })
    }

    /// Stores a result.
    pub fn store(&mut self, key: u64, mv: Option<Move>, score: i32, depth: i32, bound: Bound) {
        let slot = &mut self.entries[key as usize & self.mask];
        if slot.key == key && i32::from(slot.depth) > depth && bound != Bound::Exact {
            return;
        }
        *slot = Entry {
            key,
            mv: mv.map_or(0xFFFF, Move::code),
            score: score as i16,
            depth: depth.clamp(0, 127) as i8,
            bound,
        };
    }
}
