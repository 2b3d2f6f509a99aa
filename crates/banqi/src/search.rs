//! The engine: negamax alpha-beta with principal-variation search, iterative deepening,
//! a transposition table, Star1 at the flips, quiescence over captures, and move ordering
//! (the table's move, captures by most valuable victim and least valuable attacker,
//! killers, history).
//!
//! Flips are chance nodes: the flip's value is the mean, weighted by the pool's counts, of
//! the values after each piece it can reveal. Star1 searches each outcome in the window
//! its bounds allow and stops as soon as the mean must fall outside (alpha, beta); all
//! values lie in [-[`WIN`], [`WIN`]] (the evaluation is squashed well inside) so the bounds
//! are tight. Rounding: a chance node's value is the floor of the weighted mean, in Star1
//! and in plain expectimax alike, so both give the same value.
//!
//! The game's history is seen: the keys since the last flip or capture are given with
//! the root, any repetition of one of them, or of a position on the search path, scores
//! as a draw, and the no-progress clock reaching its limit is a draw (the clock is mixed
//! into the table's key). A draw scores `-contempt` for the side to move at the root
//! (and `+contempt` for the other). The root guard: when the best move only draws and it
//! leaves material to be taken, it is penalised, so the engine does not shed material
//! and then take a draw.
//!
//! The search stops on a node budget (deterministic: the same position, history and
//! budget always give the same move) or a time limit (checked every 1024 nodes).

use std::time::{Duration, Instant};

use crate::eval::{EvalConfig, evaluate, material};
use crate::movegen::MoveList;
use crate::moves::Move;
use crate::piece::Piece;
use crate::position::Position;
use crate::tt::{Bound, Table};
use crate::zobrist::KEYS;

/// A win at the root; a win `n` plies away scores `WIN - n`.
pub const WIN: i32 = 1000;
/// The deepest ply searched.
pub const MAX_PLY: usize = 96;
const INF: i32 = WIN + 1;

/// Search features, each switchable to measure it alone.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SearchConfig {
    /// Star1 at flips (off: every outcome searched in the full window).
    pub star1: bool,
    /// The transposition table.
    pub tt: bool,
    /// Quiescence over captures at the horizon (off: the evaluation).
    pub quiescence: bool,
    /// Principal-variation search (off: every move in the full window).
    pub pvs: bool,
    /// Killer and history ordering of quiet moves and flips.
    pub killers_history: bool,
    /// The root guard against shedding material for a draw.
    pub root_guard: bool,
    /// What a draw costs the side to move at the root.
    pub contempt: i32,
    /// Plies without flip or capture that draw.
    pub no_progress: u16,
}

impl Default for SearchConfig {
    fn default() -> SearchConfig {
        SearchConfig {
            star1: true,
            tt: true,
            quiescence: true,
            pvs: true,
            killers_history: true,
            root_guard: true,
            contempt: 8,
            no_progress: 40,
        }
    }
}

impl SearchConfig {
    /// The features by name, for switching one off from the command line.
    pub const NAMES: [&'static str; 7] = [
        "star1",
        "tt",
        "quiescence",
        "pvs",
        "killers-history",
        "root-guard",
        "contempt",
    ];

    /// This configuration with `name` switched off; `None` for an unknown name.
    pub fn without(mut self, name: &str) -> Option<SearchConfig> {
        match name {
            "star1" => self.star1 = false,
            "tt" => self.tt = false,
            "quiescence" => self.quiescence = false,
            "pvs" => self.pvs = false,
            "killers-history" => self.killers_history = false,
            "root-guard" => self.root_guard = false,
            "contempt" => self.contempt = 0,
            _ => return None,
        }
        Some(self)
    }
}

/// When to stop.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Limits {
    /// Nodes (deterministic).
    pub nodes: Option<u64>,
    /// Wall time.
    pub time: Option<Duration>,
    /// Iterations.
    pub depth: Option<u32>,
}

/// One finished iteration, as `info` reports it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Report {
    /// The depth completed.
    pub depth: u32,
    /// The score for the side to move.
    pub score: i32,
    /// Nodes so far.
    pub nodes: u64,
    /// Time so far.
    pub elapsed: Duration,
    /// The principal variation (ends at a flip).
    pub pv: Vec<Move>,
}

/// The search's answer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SearchResult {
    /// The move, `None` when there is no legal move.
    pub best: Option<Move>,
    /// Its score.
    pub score: i32,
    /// The last completed depth.
    pub depth: u32,
    /// Nodes searched.
    pub nodes: u64,
}

/// The engine's state across searches (the table, the ordering tables).
pub struct Engine {
    /// Evaluation terms.
    pub eval: EvalConfig,
    /// Search features.
    pub config: SearchConfig,
    table: Table,
    killers: [[u16; 2]; MAX_PLY + 1],
    history: Vec<i32>,
    keys: Vec<u64>,
    nodes: u64,
    limits: Limits,
    started: Instant,
    stopped: bool,
}

fn victim_value(piece: Option<Piece>) -> i32 {
    piece.map_or(0, |p| [30, 14, 11, 9, 7, 16, 4][p.kind.index()])
}

impl Engine {
    /// An engine with a table of 2^`tt_bits` entries.
    pub fn new(eval: EvalConfig, config: SearchConfig, tt_bits: u32) -> Engine {
        Engine {
            eval,
            config,
            table: Table::new(tt_bits),
            killers: [[0xFFFF; 2]; MAX_PLY + 1],
            history: vec![0; 2048],
            keys: Vec::new(),
            nodes: 0,
            limits: Limits::default(),
            started: Instant::now(),
            stopped: false,
        }
    }

    /// Forgets all earlier games (table and ordering).
    pub fn new_game(&mut self) {
        self.table.clear();
        self.history.fill(0);
        self.killers = [[0xFFFF; 2]; MAX_PLY + 1];
    }

    /// Nodes of the last search.
    pub fn nodes(&self) -> u64 {
        self.nodes
    }

    /// Searches `root`; `history` holds the keys of the positions since the last flip or
    /// capture before it (oldest first, the root excluded). `report` sees each finished
    /// iteration.
    pub fn search(
        &mut self,
        root: &Position,
        history: &[u64],
        limits: Limits,
        report: &mut dyn FnMut(&Report),
    ) -> SearchResult {
        self.nodes = 0;
        self.limits = limits;
        self.started = Instant::now();
        self.stopped = false;
        self.keys.clear();
        self.keys.extend_from_slice(history);
        self.keys.push(root.hash());
        let mut list = MoveList::new();
        root.legal_moves(&mut list);
        let mut moves: Vec<Move> = list.as_slice().to_vec();
        let mut result = SearchResult {
            best: moves.first().copied(),
            score: 0,
            depth: 0,
            nodes: 0,
        };
        if moves.is_empty() {
            result.score = -WIN;
            return result;
        }
        let max_depth = limits
            .depth
            .unwrap_or(MAX_PLY as u32 - 1)
            .min(MAX_PLY as u32 - 1);
        let mut scores = vec![-INF; moves.len()];
        for depth in 1..=max_depth {
            let mut alpha = -INF;
            let mut best: Option<(Move, i32)> = None;
            for (i, &mv) in moves.iter().enumerate() {
                let d = depth as i32 - 1;
                let mut v = if i == 0 || !self.config.pvs {
                    self.child_value(root, mv, d, -INF, INF, 0)
                } else {
                    let v = self.child_value(root, mv, d, alpha, alpha + 1, 0);
                    if v > alpha && !self.stopped {
                        self.child_value(root, mv, d, alpha, INF, 0)
                    } else {
                        v
                    }
                };
                if self.stopped {
                    break;
                }
                if self.config.root_guard
                    && v > alpha
                    && self.is_draw_score(v, 0)
                    && self.sheds(root, mv)
                {
                    v -= 2 * self.config.contempt.max(4);
                }
                scores[i] = v;
                if best.is_none_or(|(_, b)| v > b) {
                    best = Some((mv, v));
                    alpha = alpha.max(v);
                }
            }
            if self.stopped {
                break;
            }
            let (mv, score) = best.unwrap_or((moves[0], -INF));
            result = SearchResult {
                best: Some(mv),
                score,
                depth,
                nodes: self.nodes,
            };
            // the best first next time, then the others by this iteration's scores
            let mut order: Vec<usize> = (0..moves.len()).collect();
            order.sort_by_key(|&i| (moves[i] != mv, -scores[i]));
            moves = order.iter().map(|&i| moves[i]).collect();
            scores = order.iter().map(|&i| scores[i]).collect();
            let pv = self.principal_variation(root, mv, depth);
            report(&Report {
                depth,
                score,
                nodes: self.nodes,
                elapsed: self.started.elapsed(),
                pv,
            });
            if score.abs() > WIN - MAX_PLY as i32 || moves.len() == 1 {
                break;
            }
        }
        result.nodes = self.nodes;
        result
    }

    fn principal_variation(&self, root: &Position, first: Move, depth: u32) -> Vec<Move> {
        let mut pv = vec![first];
        let mut position = *root;
        let mut mv = first;
        while !mv.is_flip() && pv.len() < depth as usize {
            position.play_unchecked(mv, None);
            let Some(next) = self.table.probe(self.tt_key(&position)).and_then(|h| h.mv) else {
                break;
            };
            let mut list = MoveList::new();
            position.legal_moves(&mut list);
            if !list.as_slice().contains(&next) {
                break;
            }
            pv.push(next);
            mv = next;
        }
        pv
    }

    fn draw_score(&self, ply: usize) -> i32 {
        if ply.is_multiple_of(2) {
            -self.config.contempt
        } else {
            self.config.contempt
        }
    }

    fn is_draw_score(&self, v: i32, ply: usize) -> bool {
        (v - self.draw_score(ply)).abs() <= 1
    }

    /// Whether `mv` leaves the mover worse off in material once the captures are over.
    fn sheds(&mut self, root: &Position, mv: Move) -> bool {
        let Some(us) = root.turn() else { return false };
        if mv.is_flip() {
            return false;
        }
        let before = material(root, us, &self.eval) - material(root, us.other(), &self.eval);
        let mut child = *root;
        child.play_unchecked(mv, None);
        let after = -self.material_quiescence(&child, -INF * 64, INF * 64, 0);
        after < before - 2 * 16
    }

    fn material_quiescence(
        &self,
        position: &Position,
        mut alpha: i32,
        beta: i32,
        depth: u32,
    ) -> i32 {
        let Some(us) = position.turn() else { return 0 };
        let stand = material(position, us, &self.eval) - material(position, us.other(), &self.eval);
        if stand >= beta || depth > 8 {
            return stand;
        }
        alpha = alpha.max(stand);
        let mut list = MoveList::new();
        position.captures(&mut list);
        let mut best = stand;
        for &mv in list.as_slice() {
            let mut child = *position;
            child.play_unchecked(mv, None);
            let v = -self.material_quiescence(&child, -beta, -alpha, depth + 1);
            best = best.max(v);
            alpha = alpha.max(v);
            if alpha >= beta {
                break;
            }
        }
        best
    }

    fn tt_key(&self, position: &Position) -> u64 {
        position.hash()
            ^ KEYS.square[(position.clock() % 32) as usize][(position.clock() / 32 % 15) as usize]
                .rotate_left(17)
    }

    fn out_of_budget(&mut self) -> bool {
        if self.stopped {
            return true;
        }
        let budget = self.limits.nodes.is_some_and(|n| self.nodes >= n);
        let time = self.nodes & 1023 == 0
            && self
                .limits
                .time
                .is_some_and(|t| self.started.elapsed() >= t);
        self.stopped = budget || time;
        self.stopped
    }

    /// The value of `mv` for the mover at `position` (a flip's is its chance node's).
    fn child_value(
        &mut self,
        position: &Position,
        mv: Move,
        depth: i32,
        alpha: i32,
        beta: i32,
        ply: usize,
    ) -> i32 {
        if mv.is_flip() {
            return self.chance(position, mv, depth, alpha, beta, ply);
        }
        let mut child = *position;
        child.play_unchecked(mv, None);
        self.keys.push(child.hash());
        let v = -self.negamax(&child, depth, -beta, -alpha, ply + 1);
        self.keys.pop();
        v
    }

    /// A flip's value for the mover: Star1 over the pieces it can reveal.
    fn chance(
        &mut self,
        position: &Position,
        mv: Move,
        depth: i32,
        alpha: i32,
        beta: i32,
        ply: usize,
    ) -> i32 {
        let (lower, upper) = (-WIN, WIN);
        let total = i32::from(position.pool().total());
        let mut remaining = total;
        let mut sum = 0;
        for (piece, count) in position.pool().outcomes() {
            let c = i32::from(count);
            remaining -= c;
            let (a, b, low, high) = if self.config.star1 {
                let low = (alpha * total - sum - upper * remaining).div_euclid(c);
                let high = -(-(beta * total - sum - lower * remaining)).div_euclid(c);
                (low.max(lower - 1), high.min(upper + 1), low, high)
            } else {
                (lower - 1, upper + 1, lower - 1, upper + 1)
            };
            if a >= b {
                // this outcome cannot bring the mean back inside (alpha, beta)
                let bound = if low >= upper { upper } else { lower };
                return (sum + bound * (c + remaining)).div_euclid(total);
            }
            let mut child = *position;
            child.play_unchecked(mv, Some(piece));
            self.keys.push(child.hash());
            let v = -self.negamax(&child, depth, -b, -a, ply + 1);
            self.keys.pop();
            if self.stopped {
                return 0;
            }
            if v <= low {
                return (sum + c * v + upper * remaining).div_euclid(total);
            }
            if v >= high {
                return (sum + c * v + lower * remaining).div_euclid(total);
            }
            sum += c * v;
        }
        sum.div_euclid(total)
    }

    fn is_repetition(&self, position: &Position) -> bool {
        let n = self.keys.len();
        let reach = (position.clock() as usize).min(n - 1);
        let now = self.keys[n - 1];
        (2..=reach)
            .step_by(2)
            .any(|back| self.keys[n - 1 - back] == now)
    }

    fn order(
        &self,
        position: &Position,
        list: &mut MoveList,
        tt_move: Option<Move>,
        ply: usize,
    ) -> Vec<(Move, i32)> {
        let side = position.turn().map_or(0, |c| c.index());
        list.as_slice()
            .iter()
            .map(|&mv| {
                let score = if Some(mv) == tt_move {
                    1 << 30
                } else if position.is_capture(mv) {
                    (1 << 24) + victim_value(position.piece_at(mv.to())) * 64
                        - victim_value(position.piece_at(mv.from()))
                } else if self.config.killers_history && self.killers[ply].contains(&mv.code()) {
                    1 << 22
                } else if self.config.killers_history {
                    self.history[side * 1024 + mv.code() as usize].min((1 << 21) - 1)
                } else {
                    0
                };
                (mv, score)
            })
            .collect()
    }

    fn negamax(
        &mut self,
        position: &Position,
        depth: i32,
        mut alpha: i32,
        beta: i32,
        ply: usize,
    ) -> i32 {
        self.nodes += 1;
        if self.out_of_budget() {
            return 0;
        }
        if self.is_repetition(position) {
            return self.draw_score(ply);
        }
        let mut list = MoveList::new();
        position.legal_moves(&mut list);
        if list.is_empty() {
            return -(WIN - ply as i32);
        }
        if position.clock() >= self.config.no_progress {
            return self.draw_score(ply);
        }
        if depth <= 0 || ply >= MAX_PLY {
            return if self.config.quiescence {
                self.quiescence(position, alpha, beta, ply)
            } else {
                evaluate(position, &self.eval)
            };
        }
        let key = self.tt_key(position);
        let mut tt_move = None;
        if self.config.tt
            && let Some(hit) = self.table.probe(key)
        {
            tt_move = hit.mv;
            let score = from_tt(hit.score, ply);
            if hit.depth >= depth {
                match hit.bound {
                    Bound::Exact => return score,
                    Bound::Lower if score >= beta => return score,
                    Bound::Upper if score <= alpha => return score,
                    _ => {}
                }
            }
        }
        let mut scored = self.order(position, &mut list, tt_move, ply);
        let original_alpha = alpha;
        let mut best = -INF;
        let mut best_move = None;
        for i in 0..scored.len() {
            let pick = (i..scored.len())
                .max_by_key(|&j| (scored[j].1, std::cmp::Reverse(j)))
                .unwrap_or(i);
            scored.swap(i, pick);
            let mv = scored[i].0;
            let v = if i == 0 || !self.config.pvs {
                self.child_value(position, mv, depth - 1, alpha, beta, ply)
            } else {
                let v = self.child_value(position, mv, depth - 1, alpha, alpha + 1, ply);
                if v > alpha && v < beta && !self.stopped {
                    self.child_value(position, mv, depth - 1, alpha, beta, ply)
                } else {
                    v
                }
            };
            if self.stopped {
                return 0;
            }
            if v > best {
                best = v;
                best_move = Some(mv);
            }
            if v > alpha {
                alpha = v;
            }
            if alpha >= beta {
                if self.config.killers_history && !position.is_capture(mv) {
                    let code = mv.code();
                    if self.killers[ply][0] != code {
                        self.killers[ply] = [code, self.killers[ply][0]];
                    }
                    let side = position.turn().map_or(0, |c| c.index());
                    self.history[side * 1024 + code as usize] += depth * depth;
                }
                break;
            }
        }
        if self.config.tt {
            let bound = if best >= beta {
                Bound::Lower
            } else if best > original_alpha {
                Bound::Exact
            } else {
                Bound::Upper
            };
            self.table
                .store(key, best_move, to_tt(best, ply), depth, bound);
        }
        best
    }

    fn quiescence(&mut self, position: &Position, mut alpha: i32, beta: i32, ply: usize) -> i32 {
        self.nodes += 1;
        if self.out_of_budget() {
            return 0;
        }
        if let Some(us) = position.turn()
            && position.colour(us).is_empty()
            && position.face_down().is_empty()
        {
            return -(WIN - ply as i32);
        }
        let stand = evaluate(position, &self.eval);
        if stand >= beta || ply >= MAX_PLY {
            return stand;
        }
        alpha = alpha.max(stand);
        let mut list = MoveList::new();
        position.captures(&mut list);
        let mut scored = self.order(position, &mut list, None, ply);
        let mut best = stand;
        for i in 0..scored.len() {
            let pick = (i..scored.len())
                .max_by_key(|&j| (scored[j].1, std::cmp::Reverse(j)))
                .unwrap_or(i);
            scored.swap(i, pick);
            let mut child = *position;
            child.play_unchecked(scored[i].0, None);
            let v = -self.quiescence(&child, -beta, -alpha, ply + 1);
            if self.stopped {
                return 0;
            }
            best = best.max(v);
            alpha = alpha.max(v);
            if alpha >= beta {
                break;
            }
        }
        best
    }
}

fn to_tt(score: i32, ply: usize) -> i32 {
    if score > WIN - MAX_PLY as i32 {
        score + ply as i32
    } else if score < -(WIN - MAX_PLY as i32) {
        score - ply as i32
    } else {
        score
    }
}

fn from_tt(score: i32, ply: usize) -> i32 {
    if score > WIN - MAX_PLY as i32 {
        score - ply as i32
    } else if score < -(WIN - MAX_PLY as i32) {
        score + ply as i32
    } else {
        score
    }
}
