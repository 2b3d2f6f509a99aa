//! Random input at the program's doors, drawn from a stream of bytes, and the judges of
//! what comes out: UCI command lines ([`uci`]), lines typed at the `play` prompt
//! ([`play`]) and damage to program-cache files ([`cache`]).
//!
//! The fuzz targets `uci_session`, `play_prompt` and `program_cache` (`fuzz/`) draw from
//! libFuzzer's bytes; the tests draw from seeded bytes ([`seeded`]) and run the binary.
//! Both take it from the test kit; it uses only the libraries' public API, shakmaty,
//! the standard library and the oracle's judge.
//!
//! A stream that runs out gives zeros: every input, however short, decodes.

pub mod cache;
pub use crate::oracle::judge;
pub mod play;
pub mod uci;

/// A stream of bytes that decides what comes next.
pub struct Bytes<'a> {
    data: &'a [u8],
    at: usize,
}

impl<'a> Bytes<'a> {
    /// The stream of `data`.
    pub fn new(data: &'a [u8]) -> Bytes<'a> {
        Bytes { data, at: 0 }
    }

    /// True once every byte was read.
    pub fn is_empty(&self) -> bool {
        self.at >= self.data.len()
    }

    /// The next byte, or 0 at the end.
    pub fn byte(&mut self) -> u8 {
        let b = self.data.get(self.at).copied().unwrap_or(0);
        self.at += 1;
        b
    }

    /// A number below `n` (0 when `n` is 0 or 1), from two bytes.
    pub fn below(&mut self, n: usize) -> usize {
        if n <= 1 {
            return 0;
        }
        let v = usize::from(self.byte()) << 8 | usize::from(self.byte());
        v % n
    }

    /// True with a chance of `k` in 256.
    pub fn chance(&mut self, k: u8) -> bool {
        self.byte() < k
    }

    /// One of `items`.
    pub fn pick<'b, T>(&mut self, items: &'b [T]) -> &'b T {
        &items[self.below(items.len())]
    }

    /// Up to `max` raw bytes.
    pub fn raw(&mut self, max: usize) -> Vec<u8> {
        let n = self.below(max + 1);
        (0..n).map(|_| self.byte()).collect()
    }
}

/// `len` bytes from `seed` (SplitMix64), for tests that replay the fuzz targets'
/// generators without libFuzzer.
pub fn seeded(seed: u64, len: usize) -> Vec<u8> {
    let mut state = seed;
    let mut out = Vec::with_capacity(len);
    while out.len() < len {
        state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = state;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^= z >> 31;
        out.extend_from_slice(&z.to_le_bytes());
    }
    out.truncate(len);
    out
}

/// Positions to start from: the standard ones of the bench and perft suites, an
/// endgame, a position with a promotion and one with en passant (FENs both the engine
/// and shakmaty accept).
pub const FENS: [&str; 8] = [
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
    "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
    "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
    "8/8/4k3/8/2K5/8/3P4/8 w - - 0 1",
    "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
    "6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1",
];

/// Text that is no command and no move: words of the protocols, numbers, `%` (the
/// machine's thread marker), lone glyphs, control characters.
pub const NOISE: [&str; 16] = [
    "%",
    "%%",
    "%%\n#stack:",
    "#x: 1",
    "$1",
    "${1}",
    "\\",
    "\t",
    "\r",
    "♔",
    "é",
    "-1",
    "99999999999999999999",
    "0",
    "e9e4",
    "",
];
