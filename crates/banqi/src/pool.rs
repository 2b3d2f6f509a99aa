//! The pool: how many of each piece are still face-down.
//!
//! A flip reveals one of them, each with probability count / total; nobody, the engine
//! included, knows which face-down square holds which (the deal is the game runner's).
//! Counts never exceed a side's starting count of the kind ([`Pool::new`] checks it).

use crate::piece::{KINDS, Piece};

/// Face-down counts per piece (index [`Piece::index`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Pool {
    counts: [u8; 14],
    total: u8,
}

/// Why counts are not a pool.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("the pool holds {count} of `{piece}`, more than the {max} a side starts with")]
pub struct PoolError {
    /// The piece.
    pub piece: Piece,
    /// Its count.
    pub count: u8,
    /// The most a side has.
    pub max: u8,
}

impl Pool {
    /// The pool before any flip: all 32 pieces.
    pub const FULL: Pool = {
        let mut counts = [0u8; 14];
        let mut i = 0;
        while i < 14 {
            counts[i] = KINDS[i % 7].start_count();
            i += 1;
        }
        Pool { counts, total: 32 }
    };

    /// Nothing face-down.
    pub const EMPTY: Pool = Pool {
        counts: [0; 14],
        total: 0,
    };

    /// A pool of these counts (index [`Piece::index`]), each at most the starting count.
    pub fn new(counts: [u8; 14]) -> Result<Pool, PoolError> {
        for piece in Piece::ALL {
            let (count, max) = (counts[piece.index()], piece.kind.start_count());
            if count > max {
                return Err(PoolError { piece, count, max });
            }
        }
        Ok(Pool {
            counts,
            total: counts.iter().sum(),
        })
    }

    /// How many of `piece` are face-down.
    pub fn count(&self, piece: Piece) -> u8 {
        self.counts[piece.index()]
    }

    /// All counts, index [`Piece::index`].
    pub fn counts(&self) -> [u8; 14] {
        self.counts
    }

    /// How many pieces are face-down.
    pub fn total(&self) -> u8 {
        self.total
    }

    /// Whether nothing is face-down.
    pub fn is_empty(&self) -> bool {
        self.total == 0
    }

    /// The pieces a flip can reveal, each with its count (its weight), red G first.
    pub fn outcomes(&self) -> impl Iterator<Item = (Piece, u8)> + '_ {
        Piece::ALL
            .into_iter()
            .filter_map(|piece| Some((piece, self.count(piece))).filter(|&(_, n)| n > 0))
    }

    /// Takes one `piece` out (a flip revealed it); false, and nothing changed, if none is
    /// left.
    pub fn take(&mut self, piece: Piece) -> bool {
        let count = &mut self.counts[piece.index()];
        if *count == 0 {
            return false;
        }
        *count -= 1;
        self.total -= 1;
        true
    }
}
