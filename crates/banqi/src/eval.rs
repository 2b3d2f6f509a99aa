//! The static evaluation, from the side to move's view, each term behind a switch of
//! [`EvalConfig`] so it can be measured switched off alone.
//!
//! Terms (raw units: a piece value of 1 is 16 units):
//! - material: piece values, the corrected ones (general 30, cannon 16, advisor 14,
//!   elephant 11, chariot 9, horse 7, soldier 4) or, switched off, the older ones with
//!   cannon and chariot the wrong way round;
//! - covered material: each side's face-down pieces (the pool) count at full value, so
//!   a flip moves value from covered to revealed and creates none; off, only revealed
//!   pieces count;
//! - value-weighted mobility: each revealed piece's steps and captures, weighted by its
//!   value;
//! - adaptive domination: each living piece (revealed or face-down) earns
//!   value x 0.5 / (1 + dominators), its dominators being the living enemy pieces able to
//!   capture it, every enemy cannon included;
//! - general safety: a general with no empty neighbour, a face-down one beside it, and a
//!   revealed enemy soldier on its rank or file, is penalised (flip a neighbour first);
//! - chase: when clearly ahead, pieces near enemy pieces they can take earn a little, so
//!   a won ending makes progress before the no-progress draw.
//!
//! The sum is squashed into (-[`EVAL_BOUND`], [`EVAL_BOUND`]) by x * B / (|x| + K), which
//! keeps order and leaves the wins (`search::WIN`) outside: Star1 prunes only when the
//! bounds on every value are tight.

use crate::movegen::step_targets;
use crate::piece::{Colour, KINDS, Kind, Piece};
use crate::position::Position;
use crate::square::Bitboard;

/// The evaluation never reaches this, in either direction.
pub const EVAL_BOUND: i32 = 900;
const SQUASH_K: i32 = 1000;
const UNIT: i32 = 16;

/// Which terms are on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct EvalConfig {
    /// Corrected piece values (else cannon 9, chariot 16).
    pub corrected_values: bool,
    /// Face-down pieces count at full value.
    pub covered_material: bool,
    /// Value-weighted mobility.
    pub mobility: bool,
    /// Adaptive domination.
    pub domination: bool,
    /// General safety.
    pub general_safety: bool,
    /// Chase when clearly ahead.
    pub chase: bool,
}

impl Default for EvalConfig {
    fn default() -> EvalConfig {
        EvalConfig::ALL
    }
}

impl EvalConfig {
    /// Every term on.
    pub const ALL: EvalConfig = EvalConfig {
        corrected_values: true,
        covered_material: true,
        mobility: true,
        domination: true,
        general_safety: true,
        chase: true,
    };

    /// The terms by name, for switching one off from the command line.
    pub const NAMES: [&'static str; 6] = [
        "corrected-values",
        "covered-material",
        "mobility",
        "domination",
        "general-safety",
        "chase",
    ];

    /// This configuration with the term `name` switched off; `None` for an unknown name.
    pub fn without(mut self, name: &str) -> Option<EvalConfig> {
        let flag = match name {
            "corrected-values" => &mut self.corrected_values,
            "covered-material" => &mut self.covered_material,
            "mobility" => &mut self.mobility,
            "domination" => &mut self.domination,
            "general-safety" => &mut self.general_safety,
            "chase" => &mut self.chase,
            _ => return None,
        };
        *flag = false;
        Some(self)
    }

    /// The value table in use, per kind.
    pub fn values(&self) -> [i32; 7] {
        if self.corrected_values {
            [30, 14, 11, 9, 7, 16, 4]
        } else {
            [30, 14, 11, 16, 7, 9, 4]
        }
    }
}

/// Material in raw units of `colour`, revealed plus (with covered material) face-down.
pub fn material(position: &Position, colour: Colour, config: &EvalConfig) -> i32 {
    let values = config.values();
    KINDS
        .iter()
        .map(|&k| {
            let piece = Piece::new(colour, k);
            let mut n = position.pieces(piece).count() as i32;
            if config.covered_material {
                n += i32::from(position.pool().count(piece));
            }
            n * values[k.index()] * UNIT
        })
        .sum()
}

fn side_terms(position: &Position, us: Colour, config: &EvalConfig) -> i32 {
    let them = us.other();
    let values = config.values();
    let mut score = material(position, us, config);
    let occupied = position.occupied().0;
    if config.mobility {
        let targets = step_targets(position, them);
        let mut mobility = 0;
        for k in KINDS {
            let reach = if k == Kind::Cannon {
                0
            } else {
                targets[k.index()]
            };
            for square in position.pieces(Piece::new(us, k)) {
                let near = square.neighbours().0;
                let n = (near & !occupied).count_ones() + (near & reach).count_ones();
                mobility += values[k.index()] * n as i32;
            }
        }
        score += mobility / 4;
    }
    if config.domination {
        let alive = |c: Colour, k: Kind| {
            let piece = Piece::new(c, k);
            position.pieces(piece).count() as i32 + i32::from(position.pool().count(piece))
        };
        let cannons = alive(them, Kind::Cannon);
        for k in KINDS {
            let n = alive(us, k);
            if n == 0 {
                continue;
            }
            let dominators: i32 = KINDS
                .iter()
                .filter(|&&d| d.steps_onto(k))
                .map(|&d| alive(them, d))
                .sum::<i32>()
                + cannons;
            score += n * values[k.index()] * UNIT / 2 / (1 + dominators);
        }
    }
    if config.general_safety {
        for square in position.pieces(Piece::new(us, Kind::General)) {
            let near = square.neighbours().0;
            let boxed = near & !occupied == 0 && near & position.face_down().0 != 0;
            if boxed {
                let line = Bitboard(position.pieces(Piece::new(them, Kind::Soldier)).0)
                    .any(|s| s.rank() == square.rank() || s.file() == square.file());
                if line {
                    score -= values[Kind::General.index()] * UNIT / 4;
                }
            }
        }
    }
    score
}

fn chase(position: &Position, us: Colour) -> i32 {
    let them = us.other();
    let mut bonus = 0;
    for k in KINDS {
        if k == Kind::Cannon {
            continue;
        }
        for from in position.pieces(Piece::new(us, k)) {
            let mut nearest = 12;
            for t in KINDS.iter().filter(|&&t| k.steps_onto(t)) {
                for to in position.pieces(Piece::new(them, *t)) {
                    let d = from.file().abs_diff(to.file()) + from.rank().abs_diff(to.rank());
                    nearest = nearest.min(d as i32);
                }
            }
            bonus += 12 - nearest;
        }
    }
    bonus
}

/// The raw (unsquashed) score for the side to move; 0 before colours are decided.
pub fn evaluate_raw(position: &Position, config: &EvalConfig) -> i32 {
    let Some(us) = position.turn() else { return 0 };
    let them = us.other();
    let mut score = side_terms(position, us, config) - side_terms(position, them, config);
    if config.chase {
        let lead = material(position, us, config) - material(position, them, config);
        if lead > 8 * UNIT {
            score += chase(position, us) * 2;
        } else if lead < -8 * UNIT {
            score -= chase(position, them) * 2;
        }
    }
    score
}

/// The score for the side to move, squashed into (-[`EVAL_BOUND`], [`EVAL_BOUND`]).
pub fn evaluate(position: &Position, config: &EvalConfig) -> i32 {
    squash(evaluate_raw(position, config))
}

/// x * B / (|x| + K): odd, increasing, below B in absolute value.
pub fn squash(raw: i32) -> i32 {
    let raw = i64::from(raw);
    (raw * i64::from(EVAL_BOUND) / (raw.abs() + i64::from(SQUASH_K))) as i32
}
