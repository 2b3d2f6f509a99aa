//! Monte-Carlo tree search with random playouts: UCT (UCB1 with exploration constant
//! [`Mcts::EXPLORATION`]) over a tree whose flips are chance nodes (each iteration draws
//! the revealed piece from the pool, weighted by count, and follows or grows that
//! outcome's child), one node added per iteration, then a uniformly random playout to the
//! end (a side without moves loses; the no-progress limit or [`Mcts::PLAYOUT_PLIES`]
//! draws). No evaluation function at all: a playout's result is win 1, draw 1/2, loss 0.
//! It stops at its playout budget or the time limit, whichever comes first, and plays the
//! most visited move.

use std::time::Instant;

use crate::game::Game;
use crate::movegen::MoveList;
use crate::moves::Move;
use crate::piece::{Colour, Piece};
use crate::player::Player;
use crate::position::Position;
use crate::rng::Rng;
use crate::search::Limits;

struct Edge {
    mv: Move,
    visits: u32,
    reward: f64,
    children: Vec<(Option<Piece>, usize)>,
}

struct Node {
    position: Position,
    edges: Vec<Edge>,
    visits: u32,
}

/// The Monte-Carlo player.
pub struct Mcts {
    rng: Rng,
    playouts: u32,
}

fn pick_from_pool(position: &Position, rng: &mut Rng) -> Piece {
    let mut pick = rng.below(position.pool().total() as usize) as u8;
    for (piece, count) in position.pool().outcomes() {
        if pick < count {
            return piece;
        }
        pick -= count;
    }
    unreachable!("the pool's counts sum to its total")
}

impl Mcts {
    /// UCB1's exploration constant.
    pub const EXPLORATION: f64 = 1.0;
    /// A playout longer than this is a draw.
    pub const PLAYOUT_PLIES: u32 = 300;

    /// A player with `playouts` playouts a move (at most) and seeded randomness.
    pub fn new(playouts: u32, seed: u64) -> Mcts {
        Mcts {
            rng: Rng::new(seed),
            playouts,
        }
    }

    fn node(&mut self, position: Position) -> Node {
        let mut list = MoveList::new();
        position.legal_moves(&mut list);
        let mut moves = list.as_slice().to_vec();
        for i in (1..moves.len()).rev() {
            moves.swap(i, self.rng.below(i + 1));
        }
        let edges = moves
            .into_iter()
            .map(|mv| Edge {
                mv,
                visits: 0,
                reward: 0.0,
                children: Vec::new(),
            })
            .collect();
        Node {
            position,
            edges,
            visits: 0,
        }
    }

    /// The winner of a random playout from `position` (`None`: a draw).
    fn playout(&mut self, mut position: Position, limit: u16) -> Option<Colour> {
        let mut list = MoveList::new();
        for _ in 0..Mcts::PLAYOUT_PLIES {
            position.legal_moves(&mut list);
            if list.is_empty() {
                return position.turn().map(Colour::other);
            }
            if position.clock() >= limit {
                return None;
            }
            let mv = list.as_slice()[self.rng.below(list.len())];
            let revealed = mv
                .is_flip()
                .then(|| pick_from_pool(&position, &mut self.rng));
            position.play_unchecked(mv, revealed);
        }
        None
    }

    fn iterate(&mut self, tree: &mut Vec<Node>, limit: u16) {
        let mut path: Vec<(usize, usize, Option<Colour>)> = Vec::new();
        let mut at = 0;
        let winner = loop {
            let node = &tree[at];
            if node.edges.is_empty() {
                break node.position.turn().map(Colour::other);
            }
            if node.position.clock() >= limit {
                break None;
            }
            let ln = f64::from(node.visits.max(1)).ln();
            let e = (0..node.edges.len())
                .max_by(|&a, &b| {
                    let ucb = |edge: &Edge| {
                        if edge.visits == 0 {
                            f64::INFINITY
                        } else {
                            let n = f64::from(edge.visits);
                            edge.reward / n + Mcts::EXPLORATION * (ln / n).sqrt()
                        }
                    };
                    ucb(&node.edges[a])
                        .total_cmp(&ucb(&node.edges[b]))
                        .then(b.cmp(&a))
                })
                .unwrap_or(0);
            let mv = node.edges[e].mv;
            let position = node.position;
            let revealed = mv
                .is_flip()
                .then(|| pick_from_pool(&position, &mut self.rng));
            let mover = position.turn().or(revealed.map(|p| p.colour));
            path.push((at, e, mover));
            let existing = tree[at].edges[e]
                .children
                .iter()
                .find(|c| c.0 == revealed)
                .map(|c| c.1);
            match existing {
                Some(child) => at = child,
                None => {
                    let mut next = position;
                    next.play_unchecked(mv, revealed);
                    let node = self.node(next);
                    tree.push(node);
                    let child = tree.len() - 1;
                    tree[at].edges[e].children.push((revealed, child));
                    break self.playout(next, limit);
                }
            }
        };
        for (node, edge, mover) in path {
            tree[node].visits += 1;
            let edge = &mut tree[node].edges[edge];
            edge.visits += 1;
            edge.reward += match winner {
                None => 0.5,
                Some(w) if Some(w) == mover => 1.0,
                Some(_) => 0.0,
            };
        }
    }
}

impl Player for Mcts {
    fn name(&self) -> String {
        format!("mcts{}", self.playouts)
    }

    fn choose(&mut self, game: &Game, limits: Limits) -> Option<Move> {
        let started = Instant::now();
        let root = self.node(*game.position());
        if root.edges.len() <= 1 {
            return root.edges.first().map(|e| e.mv);
        }
        let mut tree = vec![root];
        let limit = game.rules().no_progress;
        for i in 0..self.playouts {
            if i % 16 == 0 && limits.time.is_some_and(|t| started.elapsed() >= t) {
                break;
            }
            self.iterate(&mut tree, limit);
        }
        tree[0].edges.iter().max_by_key(|e| e.visits).map(|e| e.mv)
    }
}
