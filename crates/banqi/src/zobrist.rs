//! Zobrist keys: one random 64-bit word per (square, content), per (piece, face-down
//! count) and per side to move, fixed at compile time by a splitmix64 sequence so hashes
//! are the same in every build and on every machine.
//!
//! A position's key is the XOR of its words, so it covers the board (face-down squares
//! included), the pool and the side to move, but not the clock or the move number: two
//! positions that repeat have the same key.

const fn splitmix(state: u64) -> (u64, u64) {
    let state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = state;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    (state, z ^ (z >> 31))
}

/// Keys: `[square][content]` (content 0..14 a piece, 14 face-down, 15 empty, whose key
/// is 0), then `[piece][count]`, then the side (`-`, red, black).
pub struct Keys {
    /// Per square and content.
    pub square: [[u64; 16]; 32],
    /// Per piece and face-down count (0..=5).
    pub pool: [[u64; 6]; 14],
    /// Per side to move: none yet, red, black.
    pub side: [u64; 3],
}

const fn build() -> Keys {
    let mut keys = Keys {
        square: [[0; 16]; 32],
        pool: [[0; 6]; 14],
        side: [0; 3],
    };
    let mut state = 0x000B_A4C1_u64;
    let mut s = 0;
    while s < 32 {
        let mut c = 0;
        while c < 15 {
            let (next, word) = splitmix(state);
            state = next;
            keys.square[s][c] = word;
            c += 1;
        }
        s += 1;
    }
    let mut p = 0;
    while p < 14 {
        let mut n = 0;
        while n < 6 {
            let (next, word) = splitmix(state);
            state = next;
            keys.pool[p][n] = word;
            n += 1;
        }
        p += 1;
    }
    let mut i = 0;
    while i < 3 {
        let (next, word) = splitmix(state);
        state = next;
        keys.side[i] = word;
        i += 1;
    }
    keys
}

/// The keys.
pub static KEYS: Keys = build();
