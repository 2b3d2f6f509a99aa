//! Seeded random playouts: a deterministic supply of distinct, varied positions.
//!
//! Games start from the standard position, the perft positions and the openings of
//! `data/positions/`, and follow random legal moves chosen with a tiny local PRNG
//! ([`SplitMix64`]), weighted so that games reach the rare rules far more often than
//! uniform play would:
//! - a mating move, when there is one, is played with probability 1/2;
//! - a promotion or an en passant capture with probability 3/4;
//! - a castling move with probability 1/4 (castling stays available for longer);
//! - a two-square pawn move that lands beside an enemy pawn (so that en passant becomes
//!   possible) with probability 1/2;
//! - a checking move with probability 1/4;
//! - otherwise any legal move, uniformly.
//!
//! Games end at mate, stalemate, insufficient material, the fifty-move rule or after 120
//! plies. Every position where the side to move has no move, or could promote, capture en
//! passant or castle is collected; positions in check are collected with probability 1/2,
//! other positions (including those with a mere checking move) with probability 1/4. Positions are distinct by FEN,
//! in the order found, and the same seed always gives the same list.

use std::collections::HashSet;

use shakmaty::{Chess, Move, Position, Role};

use super::judge::{self, Features};
use super::perft;

/// The seed of the positions every test uses.
pub const SEED: u64 = 0x5EED_C4E5_5000_0001;

/// Plies after which a game is abandoned.
const MAX_PLIES: usize = 120;

/// splitmix64: a tiny, good-enough deterministic generator.
#[derive(Clone, Debug)]
pub struct SplitMix64(u64);

impl SplitMix64 {
    /// A generator starting from `seed`.
    pub fn new(seed: u64) -> SplitMix64 {
        SplitMix64(seed)
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A number below `n` (`n` > 0).
    pub fn below(&mut self, n: usize) -> usize {
        (self.next_u64() % n as u64) as usize
    }

    /// True with probability `num / den`.
    pub fn chance(&mut self, num: u64, den: u64) -> bool {
        self.next_u64() % den < num
    }
}

/// A collected position.
#[derive(Clone, Debug)]
pub struct Sample {
    /// Its FEN (standard form, see [`judge::fen`]).
    pub fen: String,
    /// What is special about it.
    pub features: Features,
}

/// The FENs games start from: the standard position, perft.txt and openings.txt.
pub fn starts() -> Vec<String> {
    let mut fens = vec![judge::fen(&Chess::default())];
    fens.extend(perft::cases().into_iter().map(|c| c.fen));
    let text = perft::suite("openings.txt");
    fens.extend(
        text.lines()
            .filter(|line| !line.trim().is_empty() && !line.starts_with('#'))
            .map(|line| line.split(';').next().unwrap_or("").trim().to_string()),
    );
    fens
}

/// At least `count` distinct positions from playouts seeded with `seed`.
pub fn positions(seed: u64, count: usize) -> Vec<Sample> {
    let starts: Vec<Chess> = starts().iter().map(|f| judge::position(f)).collect();
    let mut rng = SplitMix64::new(seed);
    let mut seen = HashSet::new();
    let mut samples = Vec::new();
    while samples.len() < count {
        let mut pos = starts[rng.below(starts.len())].clone();
        for _ in 0..MAX_PLIES {
            let features = Features::of(&pos);
            let rare = (features.in_check && rng.chance(1, 2))
                || features.terminal
                || features.can_promote
                || features.can_en_passant
                || features.can_castle;
            if rare || rng.chance(1, 4) {
                let fen = judge::fen(&pos);
                if seen.insert(fen.clone()) {
                    samples.push(Sample { fen, features });
                }
            }
            let moves = pos.legal_moves();
            if moves.is_empty() || pos.is_insufficient_material() || pos.halfmoves() >= 100 {
                break;
            }
            let pick = |rng: &mut SplitMix64, keep: &dyn Fn(&Move) -> bool, num, den| {
                let kept: Vec<Move> = moves.iter().filter(|m| keep(m)).copied().collect();
                (!kept.is_empty() && rng.chance(num, den)).then(|| kept[rng.below(kept.len())])
            };
            let m = pick(
                &mut rng,
                &|m| judge::play_move(&pos, m).is_checkmate(),
                1,
                2,
            )
            .or_else(|| pick(&mut rng, &|m| m.is_promotion() || m.is_en_passant(), 3, 4))
            .or_else(|| pick(&mut rng, &|m| m.is_castle(), 1, 4))
            .or_else(|| pick(&mut rng, &|m| allows_en_passant(&pos, m), 1, 2))
            .or_else(|| pick(&mut rng, &|m| judge::gives_check(&pos, m), 1, 4))
            .unwrap_or_else(|| moves[rng.below(moves.len())]);
            pos.play_unchecked(m);
        }
    }
    samples
}

/// True when `m` is a two-square pawn move landing beside an enemy pawn.
fn allows_en_passant(pos: &Chess, m: &Move) -> bool {
    let (Some(from), to) = (m.from(), m.to()) else {
        return false;
    };
    if m.role() != Role::Pawn || from.rank().distance(to.rank()) != 2 {
        return false;
    }
    let enemy_pawns = pos.board().by_color(!pos.turn()) & pos.board().pawns();
    [-1, 1].into_iter().any(|d| {
        to.offset(d)
            .is_some_and(|s| s.rank() == to.rank() && enemy_pawns.contains(s))
    })
}

/// `n` of `samples` for a CI-sized run: for each rare feature (promotion, en passant,
/// castling, in check, no move) up to `n / 10` positions having it, spread over the list,
/// then positions at an even stride until there are `n`. Returned in list order.
pub fn share(samples: &[Sample], n: usize) -> Vec<Sample> {
    let n = n.min(samples.len());
    let mut chosen = std::collections::BTreeSet::new();
    let rare: [fn(&Features) -> bool; 5] = [
        |f| f.can_promote,
        |f| f.can_en_passant,
        |f| f.can_castle,
        |f| f.in_check,
        |f| f.terminal,
    ];
    for has in rare {
        let having: Vec<usize> = (0..samples.len())
            .filter(|&i| has(&samples[i].features))
            .collect();
        let take = (n / 10).min(having.len());
        for k in 0..take {
            chosen.insert(having[k * having.len() / take]);
        }
    }
    let mut k = 0;
    while chosen.len() < n {
        chosen.insert(k * samples.len() / n % samples.len());
        k += 1;
        if k > n {
            // The stride has wrapped: fill from the start.
            let next = (0..samples.len())
                .find(|i| !chosen.contains(i))
                .expect("n <= len");
            chosen.insert(next);
        }
    }
    chosen.into_iter().map(|i| samples[i].clone()).collect()
}
