//! The evaluation the engine's rules compute: material plus piece-square tables.
//!
//! These tables are data, shared by the chess program (which turns them into rules) and
//! by the tests' independent search (which reads them natively): both sides must score a
//! position identically for the chosen moves to be comparable.
//!
//! A position's score for a side is the sum, over that side's pieces, of
//! `VALUE[role] + PST[role][square]`, minus the same sum over the opponent's pieces.
//! Tables are written from white's point of view with a1 = index 0 and h8 = index 63
//! (rank-major: index = 8 * rank + file); a black piece on square `s` reads entry
//! `s ^ 56` (the square mirrored across the middle of the board).
//!
//! The search is a 2-ply minimax over legal moves (see `crates/chess/src/lib.rs`), with
//! [`MATE`] for a side that is checkmated and 0 for stalemate.
//!
//! # The tapered tables
//!
//! The three-ply search (`Search::ThreePlyQe`) scores with [`Tables::Tapered`] instead: PeSTO's middlegame and
//! endgame values and tables ([`super::pesto`]) blended at the root position's game
//! phase ([`phase_weight`]: knights and bishops 1, rooks 2, queens 4, at most
//! [`PHASE_MAX`]), taken to the middle of its bucket ([`bucket_of`], [`bucket_phase`]):
//! one set of entries per bucket, so that a move's gain stays a table lookup (a search
//! looks a few plies ahead, where the phase rarely moves, and the rules read the bucket
//! as one more character of the lookup's key).

/// The roles in table order.
pub const ROLES: [char; 6] = ['P', 'N', 'B', 'R', 'Q', 'K'];

/// Material value of each role, in centipawns, in [`ROLES`] order.
pub const VALUE: [i32; 6] = [100, 320, 330, 500, 900, 0];

/// The score of a side that gives checkmate (negated for the side that is mated).
pub const MATE: i32 = 20_000;

/// Piece-square bonuses, in [`ROLES`] order, white's view, a1 first.
#[rustfmt::skip]
pub const PST: [[i32; 64]; 6] = [
    // pawn: push the centre, reward advanced pawns
    [
          0,   0,   0,   0,   0,   0,   0,   0,
          5,  10,  10, -20, -20,  10,  10,   5,
          5,   0,  -5,   5,   5,  -5,   0,   5,
          0,   0,  10,  20,  20,  10,   0,   0,
          5,   5,  15,  25,  25,  15,   5,   5,
         10,  15,  20,  30,  30,  20,  15,  10,
         50,  50,  50,  50,  50,  50,  50,  50,
          0,   0,   0,   0,   0,   0,   0,   0,
    ],
    // knight: the centre, never the rim
    [
        -50, -40, -30, -30, -30, -30, -40, -50,
        -40, -20,   0,   5,   5,   0, -20, -40,
        -30,   5,  10,  15,  15,  10,   5, -30,
        -30,   0,  15,  20,  20,  15,   0, -30,
        -30,   5,  15,  20,  20,  15,   5, -30,
        -30,   0,  10,  15,  15,  10,   0, -30,
        -40, -20,   0,   0,   0,   0, -20, -40,
        -50, -40, -30, -30, -30, -30, -40, -50,
    ],
    // bishop: long diagonals, out of the corners
    [
        -20, -10, -10, -10, -10, -10, -10, -20,
        -10,   5,   0,   0,   0,   0,   5, -10,
        -10,  10,  10,  10,  10,  10,  10, -10,
        -10,   0,  10,  10,  10,  10,   0, -10,
        -10,   5,   5,  10,  10,   5,   5, -10,
        -10,   0,   5,  10,  10,   5,   0, -10,
        -10,   0,   0,   0,   0,   0,   0, -10,
        -20, -10, -10, -10, -10, -10, -10, -20,
    ],
    // rook: the seventh rank, central files
    [
          0,   0,   0,   5,   5,   0,   0,   0,
         -5,   0,   0,   0,   0,   0,   0,  -5,
         -5,   0,   0,   0,   0,   0,   0,  -5,
         -5,   0,   0,   0,   0,   0,   0,  -5,
         -5,   0,   0,   0,   0,   0,   0,  -5,
         -5,   0,   0,   0,   0,   0,   0,  -5,
          5,  10,  10,  10,  10,  10,  10,   5,
          0,   0,   0,   0,   0,   0,   0,   0,
    ],
    // queen: a little centre
    [
        -20, -10, -10,  -5,  -5, -10, -10, -20,
        -10,   0,   5,   0,   0,   0,   0, -10,
        -10,   5,   5,   5,   5,   5,   0, -10,
          0,   0,   5,   5,   5,   5,   0,  -5,
         -5,   0,   5,   5,   5,   5,   0,  -5,
        -10,   0,   5,   5,   5,   5,   0, -10,
        -10,   0,   0,   0,   0,   0,   0, -10,
        -20, -10, -10,  -5,  -5, -10, -10, -20,
    ],
    // king: stay home behind the pawns, castled
    [
         20,  30,  10,   0,   0,  10,  30,  20,
         20,  20,   0,   0,   0,   0,  20,  20,
        -10, -20, -20, -20, -20, -20, -20, -10,
        -20, -30, -30, -40, -40, -30, -30, -20,
        -30, -40, -40, -50, -50, -40, -40, -30,
        -30, -40, -40, -50, -50, -40, -40, -30,
        -30, -40, -40, -50, -50, -40, -40, -30,
        -30, -40, -40, -50, -50, -40, -40, -30,
    ],
];

/// Which tables score positions.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Tables {
    /// [`VALUE`] and [`PST`]: the 2-ply variants'.
    #[default]
    Simplified,
    /// PeSTO's tables blended at the root's phase bucket: the three-ply search's.
    Tapered,
}

/// The largest game phase (the starting position's).
pub const PHASE_MAX: u32 = 24;

/// The buckets of phases the tapered tables come in.
pub const BUCKETS: usize = 5;

/// What a piece of `role` (one of `PNBRQK`, either case) adds to the game phase.
pub fn phase_weight(role: char) -> u32 {
    match role.to_ascii_uppercase() {
        'N' | 'B' => 1,
        'R' => 2,
        'Q' => 4,
        _ => 0,
    }
}

/// The bucket of a game phase (which is capped at [`PHASE_MAX`]): five phases a bucket,
/// 20 to 24 the last.
pub fn bucket_of(phase: u32) -> usize {
    (phase.min(PHASE_MAX) / 5).min(BUCKETS as u32 - 1) as usize
}

/// The phase a bucket's tables are blended at: its middle, 2, 7, 12, 17, 22.
pub fn bucket_phase(bucket: usize) -> i32 {
    5 * bucket as i32 + 2
}

/// The middlegame entry `mg` and the endgame entry `eg` blended at `phase`:
/// `(mg * phase + eg * (24 - phase)) / 24`, rounded to the nearest multiple of 5 (halves
/// up), the rules' unit.
pub fn blend(mg: i32, eg: i32, phase: i32) -> i32 {
    let n = mg * phase + eg * (PHASE_MAX as i32 - phase);
    (n + 60).div_euclid(120) * 5
}

impl Tables {
    /// How many sets of entries the tables have: 1, or one per bucket.
    pub fn buckets(self) -> usize {
        match self {
            Tables::Simplified => 1,
            Tables::Tapered => BUCKETS,
        }
    }

    /// The entry of `piece` (`PNBRQK` white, `pnbrqk` black) on `square` (a1 = 0) in
    /// set `bucket`: its value plus its square bonus, from its own side's view.
    pub fn entry(self, bucket: usize, piece: char, square: usize) -> Option<i32> {
        match self {
            Tables::Simplified => piece_square(piece, square),
            Tables::Tapered => {
                let role = role_index(piece)?;
                let index = if piece.is_ascii_uppercase() {
                    square
                } else {
                    square ^ 56
                };
                let mg = super::pesto::MG_VALUE[role] + super::pesto::MG_PST[role][index];
                let eg = super::pesto::EG_VALUE[role] + super::pesto::EG_PST[role][index];
                Some(blend(mg, eg, bucket_phase(bucket)))
            }
        }
    }
}

/// The index of `role` (one of `PNBRQK`, either case) in [`ROLES`].
pub fn role_index(role: char) -> Option<usize> {
    ROLES.iter().position(|r| *r == role.to_ascii_uppercase())
}

/// The table entry for a piece (`PNBRQK` white, `pnbrqk` black) on `square`
/// (a1 = 0 .. h8 = 63): its value plus its square bonus, from its own side's view.
pub fn piece_square(piece: char, square: usize) -> Option<i32> {
    let role = role_index(piece)?;
    let index = if piece.is_ascii_uppercase() {
        square
    } else {
        square ^ 56
    };
    Some(VALUE[role] + PST[role][index])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn black_reads_mirrored_entries() {
        // e2 for white is e7 for black.
        assert_eq!(piece_square('P', 12), piece_square('p', 52));
        assert_eq!(piece_square('k', 62), Some(PST[5][6]));
        assert_eq!(piece_square('x', 0), None);
    }

    #[test]
    fn tables_are_symmetric_enough_for_a_level_start() {
        // The starting position scores zero for either side.
        let back = ['R', 'N', 'B', 'Q', 'K', 'B', 'N', 'R'];
        let mut white = 0;
        let mut black = 0;
        for (file, &piece) in back.iter().enumerate() {
            white += piece_square(piece, file).unwrap();
            white += piece_square('P', 8 + file).unwrap();
            black += piece_square(piece.to_ascii_lowercase(), 56 + file).unwrap();
            black += piece_square('p', 48 + file).unwrap();
        }
        assert_eq!(white, black);
    }
}
