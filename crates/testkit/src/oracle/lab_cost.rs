//! What a design of [`super::lab`] would cost the rules in state: the threads at the
//! widest point of its search and the state's bytes there, predicted by counting what the
//! design expands (no cut-offs: the rules search every line), and calibrated on what the
//! rules of `2ply-qe` and `3ply-qe` really hold (`tests/chess/search_lab.rs` checks the
//! prediction against them).
//!
//! The rules fork one ply of every thread at once, then the next, and keep every thread
//! until the tournaments at the end. While a position forks, its thread becomes one
//! thread per piece of the side to move (a queen two) and one per pseudo-legal move
//! (`crates/chess/src/movegen/mod.rs`, steps 1 and 2) before the illegal ones and the
//! one-piece threads go; so the state is widest during some fork, with every other line
//! of the search standing as one thread. [`widest`] counts, for each fork level (0: the
//! root's moves, 1: the replies, 2: the third ply or a capture search below a reply, 3:
//! the capture search below the third ply, and on), the threads then:
//!
//! - a position forking at that level: its pieces and pseudo-legal moves (within the
//!   fork's scope: every move, or captures and promotions), plus its copies;
//! - a position that has forked: its copies (one standing pat, where it does; a root
//!   move's position kept in its group boundary) and its children's threads, or one
//!   thread when that leaves none (kept stuck);
//! - any other position: one thread.
//!
//! The widest of those is the prediction, and its bytes are [`bytes_per_thread`] of its
//! level per thread, fitted on the rules' own states (`lab_calibrate` in
//! `tests/chess/search_lab.rs`).

use shakmaty::{Chess, Color, Move, Position, Rank, Role, Square, attacks};

use super::deep::RootMove;
use super::judge;
use super::lab::{Design, INF, Lab, Leaf, Third};
use super::variants::is_noisy;

/// The state's bytes per thread when the widest point is a fork at `level`, fitted on the
/// rules of `2ply-qe`, `3ply-qe`, `3ply-see` and `3ply-see-check` (`lab_calibrate`: bytes
/// over threads at the widest point, all bench positions of a level pooled). Since the
/// compiler's group stash (a group that ends with one thread keeps what its threads never
/// read in its boundary), a thread deeper in the search no longer carries its ancestors'
/// variables, and since a generation's children read what their moves took from two letters
/// (`MoveGen::taken`) instead of a copy of their parent's board, levels 2 and 3 cost about
/// the same (165-194 and 162-186 bytes measured); a level deeper than the rules reach today
/// (3) adds what the last level added.
pub fn bytes_per_thread(level: usize) -> f64 {
    match level {
        0 | 1 => BYTES_PER_THREAD[0],
        2 => BYTES_PER_THREAD[1],
        l => BYTES_PER_THREAD[2] + (l - 3) as f64 * (BYTES_PER_THREAD[2] - BYTES_PER_THREAD[1]),
    }
}

/// The fitted bytes per thread at levels 1, 2 and 3.
const BYTES_PER_THREAD: [f64; 3] = [195.0, 175.0, 175.0];

/// A design's predicted cost on one position.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Cost {
    /// The threads at the widest point.
    pub threads: u64,
    /// The fork level of the widest point.
    pub level: usize,
    /// The state's bytes there.
    pub bytes: f64,
}

/// `d`'s predicted cost on `pos` (the engine to move).
pub fn cost(d: &Design, pos: &Chess) -> Cost {
    let (threads, level) = widest(d, pos);
    Cost {
        threads,
        level,
        bytes: threads as f64 * bytes_per_thread(level),
    }
}

/// Fork levels counted (deeper exchanges are cut there).
const LEVELS: usize = 10;

/// Threads per fork level below one position.
type Stages = [u64; LEVELS];

/// One thread at every level from `level` on.
fn parked(level: usize) -> Stages {
    let mut s = [0; LEVELS];
    s[level.min(LEVELS)..].iter_mut().for_each(|x| *x = 1);
    s
}

/// The threads of a position at `level` that forks into `generated` threads (pieces and
/// pseudo-legal moves), keeps `copies` and whose searched children have `children`.
fn forked(level: usize, generated: u64, copies: u64, children: &[Stages]) -> Stages {
    let mut s = [0; LEVELS];
    if level >= LEVELS {
        return s;
    }
    s[level] = generated + copies;
    for l in level + 1..LEVELS {
        let below: u64 = children.iter().map(|c| c[l]).sum();
        s[l] = (copies + below).max(1);
    }
    s
}

/// The threads of the side to move's pieces while it forks (a queen counts twice), and
/// its pseudo-legal moves: every one, or only captures (en passant included) and
/// promotions (each piece promoted to a move).
pub fn fork_threads(pos: &Chess, captures_only: bool) -> u64 {
    let board = pos.board();
    let side = pos.turn();
    let ours = board.by_color(side);
    let theirs = board.by_color(!side);
    let occupied = board.occupied();
    let mut threads = 0;
    for (sq, piece) in board.iter().filter(|(_, p)| p.color == side) {
        threads += if piece.role == Role::Queen { 2 } else { 1 };
        if piece.role != Role::Pawn {
            let targets = attacks::attacks(sq, piece, occupied) & !ours;
            let targets = if captures_only {
                targets & theirs
            } else {
                targets
            };
            threads += targets.count() as u64;
            continue;
        }
        let last = if side == Color::White {
            Rank::Eighth
        } else {
            Rank::First
        };
        let each = |to: Square| if to.rank() == last { 4 } else { 1 };
        for to in attacks::pawn_attacks(side, sq) & theirs {
            threads += each(to);
        }
        let step = |s: Square| s.offset(if side == Color::White { 8 } else { -8 });
        if let Some(one) = step(sq).filter(|t| !occupied.contains(*t)) {
            if !captures_only || one.rank() == last {
                threads += each(one);
            }
            let home = if side == Color::White {
                Rank::Second
            } else {
                Rank::Seventh
            };
            let two = step(one).filter(|t| !occupied.contains(*t));
            if sq.rank() == home && two.is_some() && !captures_only {
                threads += 1;
            }
        }
    }
    let special = pos
        .legal_moves()
        .iter()
        .filter(|m| m.is_en_passant() || (!captures_only && m.is_castle()))
        .count();
    threads + special as u64
}

/// The root's moves for counting (no history).
fn root_moves(pos: &Chess) -> Vec<RootMove> {
    pos.legal_moves()
        .iter()
        .map(|m| RootMove {
            uci: judge::uci(m),
            child: judge::play_move(pos, m),
            fixed: None,
            allowed: true,
        })
        .collect()
}

/// The threads at the widest point of `d`'s search of `pos` (the engine to move): with
/// `root=R`, the wider of the first pass (two plies over every root move) and the deeper
/// pass over the `R` moves it keeps.
pub fn widest(d: &Design, pos: &Chess) -> (u64, usize) {
    let lab = Lab::new(d, pos);
    let moves = root_moves(pos);
    let plies = if d.third == Third::None { 2 } else { 3 };
    let tree = |plies: u32, which: &[usize]| -> (u64, usize) {
        let children: Vec<Stages> = which
            .iter()
            .map(|&i| child(d, &lab, &moves[i].child, plies))
            .collect();
        let s = forked(0, fork_threads(pos, false), 0, &children);
        (0..LEVELS).map(|l| (s[l], l)).max().expect("levels")
    };
    let every: Vec<usize> = (0..moves.len()).collect();
    match d.root {
        Some(r) if r < moves.len() && plies == 3 => {
            let mut first: Vec<(i32, &str, usize)> = every
                .iter()
                .map(|&i| {
                    let v = lab.root_move(&moves[i], 2, -INF, INF, &|_| false);
                    (v, moves[i].uci.as_str(), i)
                })
                .collect();
            first.sort_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(b.1)));
            let kept: Vec<usize> = first.iter().take(r).map(|e| e.2).collect();
            tree(2, &every).max(tree(3, &kept))
        }
        _ => tree(plies, &every),
    }
}

/// The threads below a root move's position `after` (the opponent to move; kept in its
/// group boundary while its replies are searched).
fn child(d: &Design, lab: &Lab<'_>, after: &Chess, plies: u32) -> Stages {
    let replies: Vec<Stages> = after
        .legal_moves()
        .iter()
        .map(|r| {
            let next = judge::play_move(after, r);
            let moves = next.legal_moves();
            if moves.is_empty() {
                return parked(2);
            }
            let took = r.is_capture() && !r.is_en_passant();
            after_reply(d, lab, &next, &moves, took, plies)
        })
        .collect();
    forked(1, fork_threads(after, false), 1, &replies)
}

/// The threads below `next` (after a reply, the engine to move with `moves`).
fn after_reply(
    d: &Design,
    lab: &Lab<'_>,
    next: &Chess,
    moves: &[Move],
    took: bool,
    plies: u32,
) -> Stages {
    let captures = || {
        moves
            .iter()
            .copied()
            .filter(is_noisy)
            .collect::<Vec<Move>>()
    };
    if plies == 2 {
        if !took {
            return parked(2);
        }
        let below: Vec<Stages> = captures().iter().map(|_| parked(3)).collect();
        return forked(2, fork_threads(next, true), 1, &below);
    }
    let in_check = d.check && next.is_check();
    // What is searched, whether the fork is of captures only, and the copy standing pat.
    let (searched, captures_only, floor) = match d.third {
        _ if in_check => (moves.to_vec(), false, 0),
        Third::None => unreachable!("a third ply of two plies"),
        Third::Captures if !took && d.quiet_captures => {
            let below: Vec<Stages> = captures().iter().map(|_| parked(3)).collect();
            return forked(2, fork_threads(next, true), 1, &below);
        }
        Third::Captures if !took => return parked(2),
        Third::Captures | Third::EveryCapture => (captures(), true, 1),
        Third::Full => (moves.to_vec(), false, 0),
        Third::Best(k) => (
            lab.ordered(next, moves).into_iter().take(k).collect(),
            false,
            1,
        ),
    };
    let below: Vec<Stages> = searched.iter().map(|t| after_third(d, next, t)).collect();
    forked(2, fork_threads(next, captures_only), floor, &below)
}

/// The threads below the engine's third-ply move `t` in `next`.
fn after_third(d: &Design, next: &Chess, t: &Move) -> Stages {
    let last = judge::play_move(next, t);
    let replies = last.legal_moves();
    if replies.is_empty() {
        return parked(3);
    }
    if d.check && last.is_check() {
        let below: Vec<Stages> = replies.iter().map(|_| parked(4)).collect();
        return forked(3, fork_threads(&last, false), 0, &below);
    }
    let captures: Vec<&Move> = replies.iter().filter(|m| is_noisy(m)).collect();
    let below: Vec<Stages> = match d.leaf {
        Leaf::Capture | Leaf::See | Leaf::Discount => captures.iter().map(|_| parked(4)).collect(),
        Leaf::Exchange => captures
            .iter()
            .map(|c| exchange(&judge::play_move(&last, c), c.to(), 4))
            .collect(),
    };
    forked(3, fork_threads(&last, true), 1, &below)
}

/// The threads of the exchange on `square` from `pos` (a position at `level`): it
/// forks its captures, stands pat, and every recapture there goes on, to the end.
fn exchange(pos: &Chess, square: Square, level: usize) -> Stages {
    let below: Vec<Stages> = pos
        .legal_moves()
        .iter()
        .filter(|m| m.to() == square && m.is_capture())
        .map(|m| exchange(&judge::play_move(pos, m), square, level + 1))
        .collect();
    forked(level, fork_threads(pos, true), 1, &below)
}
