//! The search lab's designs: searches the rules could run, written in plain Rust on
//! shakmaty so that a design's strength is judged in minutes before any rule is
//! written (`tests/chess/search_lab.rs`), and its cost in state counted by [`super::lab_cost`].
//!
//! Every design scores with PeSTO's tapered tables blended at the middle of the root's
//! bucket of phases and the lone-king term, as `3ply-qe` does ([`super::variants`]), and
//! mates on ply `p` as `MATE - 5 (p - 1)`. From the engine `E` to move at the root:
//!
//! - ply 1: every legal move of `E` (with `root=R`, only the best `R` by a first pass of
//!   two plies, the others never chosen);
//! - ply 2: every reply of the opponent `O`; a position after a reply that repeats the
//!   game scores 0 (the rules input of `crates/chess/src/lib.rs`);
//! - ply 3 ([`Third`]): nothing (two plies), `3ply-qe`'s captures after a capturing reply
//!   (or after every reply), every move, or the best `K` by a cheap order; standing pat
//!   (the static score) is a floor except at full width; with `q2`, `3ply-qe`'s third ply
//!   and `2ply-see`'s leaf after a reply that captured nothing;
//! - below the last move of `E`, `O`'s answer at the leaf ([`Leaf`]);
//! - with `check`, a side in check where only standing pat or captures would be looked at
//!   searches every evasion one ply more, without standing pat;
//! - [`Terms`]: evaluation terms added to every static score, each alone.
//!
//! The search is a minimax with alpha-beta cut-offs and the root's ties to the smallest
//! UCI text, so it chooses the move and score the full minimax (what the rules compute)
//! would; the cut-offs change only how many positions it visits, which is not a cost the
//! rules pay: [`super::lab_cost`] counts that.

use shakmaty::{Bitboard, Chess, Color, Move, Position, Role, Square};

use super::deep::{Eval, RootMove, Tables, capture_gain};
use super::judge;
use super::lab_terms;
use super::tables::MATE;
use super::variants::{Searched, Spec, endgame_term, is_noisy};

/// The third ply.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Third {
    /// Two plies: the leaf after a reply stands pat, or after a capturing reply takes
    /// the larger of that and `E`'s captures and promotions (`2ply-qe`).
    None,
    /// `3ply-qe`: after a reply that captured on its target square, `E`'s captures and
    /// promotions, standing pat as a floor; after any other reply, standing pat.
    Captures,
    /// As `Captures`, but after every reply, not only a capturing one (`qall`).
    EveryCapture,
    /// Every legal move of `E` after every reply.
    Full,
    /// The best `K` moves of `E` by [`cheap_order`] after every reply, standing pat as a
    /// floor (late-move pruning).
    Best(usize),
}

/// `O`'s answer below `E`'s last move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Leaf {
    /// `3ply-qe`'s: the smaller of standing pat and the score after each of `O`'s
    /// captures and promotions.
    Capture,
    /// As `Capture`, but each capture's score is its static exchange on the target
    /// square (both sides recapturing with the least valuable attacker while it pays);
    /// captures whose exchange loses are discarded.
    See,
    /// As `Capture`, then the exchange played out: after each capture the other side may
    /// recapture on the same square, and so on to the end, each side free to stop.
    Exchange,
    /// `2ply-see`'s recapture discount, the rules' `see` (`disc`): as `Capture`, but a
    /// capture or promotion whose target square the engine then attacks
    /// ([`super::deep::recapturable`]: lines of movement, pins and checks aside) counts
    /// the arriving piece as lost.
    Discount,
}

/// Evaluation terms, each in centipawns for its side, added to every static score.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Terms {
    /// A passed pawn: 0, 5, 10, 20, 35, 60 on its side's ranks 2 to 7.
    pub passed: bool,
    /// Mobility from the move counts the forks give: 5 per legal move of `E` after a
    /// reply (at full width), less 5 per legal reply of `O` after an engine move.
    pub mobility: bool,
    /// King shelter: 10 per own pawn on the three files around the king, one or two
    /// ranks ahead of it, at most 3, when the other side has a queen.
    pub shelter: bool,
    /// Two bishops or more: 30.
    pub bishop_pair: bool,
    /// A rook on a file with no pawn: 20; with only the other side's pawns: 10.
    pub open_files: bool,
}

/// A design of the lab.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Design {
    /// Its name in the lab's table.
    pub name: String,
    /// The third ply.
    pub third: Third,
    /// Only the best `R` root moves by a two-ply pass are searched deeper.
    pub root: Option<usize>,
    /// `O`'s answer at the leaves.
    pub leaf: Leaf,
    /// The check extension.
    pub check: bool,
    /// With the `3ply-qe` third ply (`q2`): after a reply that captured nothing, the
    /// leaf of `2ply-see` instead of standing pat: the larger of standing pat and the
    /// engine's captures and promotions, each with the recapture discount, no answer
    /// looked at below them.
    pub quiet_captures: bool,
    /// The evaluation terms.
    pub terms: Terms,
}

impl Design {
    /// The design written `name`: settings joined by `,` among `2ply`, `sel` (the
    /// `3ply-qe` third ply), `qall`, `full`, `lmp=K`, `root=R`, `see`, `xchg`, `disc`, `check`, `q2`, `passed`,
    /// `mob`, `shelter`, `pair`, `open`; `3ply-qe` is `sel` alone. `None` for an unknown
    /// setting.
    pub fn parse(name: &str) -> Option<Design> {
        let mut d = Design {
            name: name.to_string(),
            third: Third::Captures,
            root: None,
            leaf: Leaf::Capture,
            check: false,
            quiet_captures: false,
            terms: Terms::default(),
        };
        for part in name.split(',').filter(|p| !p.is_empty()) {
            let (key, value) = part.split_once('=').unwrap_or((part, ""));
            let number = || value.parse::<usize>().ok().filter(|&n| n > 0);
            match key {
                "3ply-qe" | "sel" => d.third = Third::Captures,
                "2ply" => d.third = Third::None,
                "full" => d.third = Third::Full,
                "lmp" => d.third = Third::Best(number()?),
                "root" => d.root = Some(number()?),
                "see" => d.leaf = Leaf::See,
                "xchg" => d.leaf = Leaf::Exchange,
                "disc" => d.leaf = Leaf::Discount,
                "qall" => d.third = Third::EveryCapture,
                "check" => d.check = true,
                "q2" => d.quiet_captures = true,
                "passed" => d.terms.passed = true,
                "mob" => d.terms.mobility = true,
                "shelter" => d.terms.shelter = true,
                "pair" => d.terms.bishop_pair = true,
                "open" => d.terms.open_files = true,
                _ => return None,
            }
        }
        Some(d)
    }
}

/// Beyond every score: the window of a search without bounds.
pub const INF: i32 = 1_000_000;

/// The mobility term's weight per move.
const MOBILITY: i32 = 5;
/// The check extension's mate on ply 4 (the engine mated after an evasion).
const MATED_ON_4: i32 = -(MATE - 15);

/// A search of one design from one root.
pub struct Lab<'a> {
    d: &'a Design,
    /// Whether the search cuts off (else it searches every line with an open window:
    /// the plain minimax its cut-offs must agree with).
    pub prune: bool,
    ev: Eval,
    spec: Spec,
    engine: Color,
}

/// The value of a piece for ordering and exchanges.
fn rank_value(role: Role) -> i32 {
    match role {
        Role::Pawn => 1,
        Role::Knight | Role::Bishop => 3,
        Role::Rook => 5,
        Role::Queen => 9,
        Role::King => 50,
    }
}

/// The piece a move takes, if any.
fn victim(pos: &Chess, m: &Move) -> Option<Role> {
    match m {
        Move::EnPassant { .. } => Some(Role::Pawn),
        _ => m.capture().or_else(|| pos.board().role_at(m.to())),
    }
}

/// The cheap order of late-move pruning and of the cut-offs, larger first: captures by
/// victim then attacker, promotions, checks, then the piece-square gain.
pub fn cheap_order(ev: &Eval, pos: &Chess, m: &Move) -> i32 {
    let mut key = ev.gain(pos, m);
    if let Some(v) = victim(pos, m) {
        key += 100_000 + 1_000 * rank_value(v) - 10 * rank_value(m.role());
    }
    if m.is_promotion() {
        key += 50_000;
    }
    if judge::gives_check(pos, m) {
        key += 20_000;
    }
    key
}

impl<'a> Lab<'a> {
    /// The lab's search of `d` from `root`.
    pub fn new(d: &'a Design, root: &Chess) -> Lab<'a> {
        Lab {
            d,
            prune: true,
            ev: Eval::new(Tables::Tapered { bucketed: true }, root),
            spec: Spec::of("3ply-qe").at(root),
            engine: root.turn(),
        }
    }

    /// The window a node searches: `(alpha, beta)`, or wide open without cut-offs.
    fn open(&self, alpha: i32, beta: i32) -> (i32, i32) {
        if self.prune {
            (alpha, beta)
        } else {
            (-10 * INF, 10 * INF)
        }
    }

    /// `moves` sorted by [`cheap_order`], best first.
    pub fn ordered(&self, pos: &Chess, moves: &[Move]) -> Vec<Move> {
        let mut keyed: Vec<(i32, Move)> = moves
            .iter()
            .map(|m| (cheap_order(&self.ev, pos, m), *m))
            .collect();
        keyed.sort_by_key(|k| std::cmp::Reverse(k.0));
        keyed.into_iter().map(|(_, m)| m).collect()
    }

    /// The tables' score of `pos` from the engine's view.
    pub fn material(&self, pos: &Chess) -> i32 {
        self.ev.score(pos, self.engine)
    }

    /// The lone-king term and the design's terms of `pos`, from the engine's view.
    fn extra(&self, pos: &Chess) -> i32 {
        let t = &self.d.terms;
        let mut total = endgame_term(pos, self.engine, self.spec);
        if t.passed || t.shelter || t.bishop_pair || t.open_files {
            let own = lab_terms::side_terms(pos, self.engine, t);
            total += own - lab_terms::side_terms(pos, !self.engine, t);
        }
        total
    }

    /// The static score of `pos` from the engine's view.
    pub fn stand(&self, pos: &Chess) -> i32 {
        self.material(pos) + self.extra(pos)
    }

    /// The score of root move `m` (its child and the repetition test of the positions
    /// after a reply), searched within `(alpha, beta)`.
    pub fn root_move(
        &self,
        m: &RootMove,
        plies: u32,
        alpha: i32,
        beta: i32,
        near: &dyn Fn(&Chess) -> bool,
    ) -> i32 {
        if let Some(v) = m.fixed {
            return v;
        }
        let (alpha, beta) = self.open(alpha, beta);
        let after = &m.child;
        let replies = after.legal_moves();
        if replies.is_empty() {
            return if after.is_check() { MATE } else { 0 };
        }
        let bonus = if self.d.terms.mobility {
            -MOBILITY * replies.len() as i32
        } else {
            0
        };
        let (alpha, beta) = (alpha - bonus, beta - bonus);
        let mut best = INF;
        for r in self.ordered(after, &replies) {
            let next = judge::play_move(after, &r);
            let moves = next.legal_moves();
            let value = if moves.is_empty() {
                if next.is_check() { -(MATE - 5) } else { 0 }
            } else if next.halfmoves() != 0 && near(&next) {
                0
            } else {
                let took = r.is_capture() && !r.is_en_passant();
                self.after_reply(&next, &moves, took, plies, alpha, best.min(beta))
            };
            best = best.min(value);
            if best <= alpha {
                break;
            }
        }
        best + bonus
    }

    /// The score of `next` (after a reply, `E` to move with `moves`), within the window.
    fn after_reply(
        &self,
        next: &Chess,
        moves: &[Move],
        took: bool,
        plies: u32,
        alpha: i32,
        beta: i32,
    ) -> i32 {
        let (alpha, beta) = self.open(alpha, beta);
        let stand = self.stand(next);
        let in_check = self.d.check && next.is_check();
        if plies == 2 {
            if !took {
                return stand;
            }
            let extra = self.extra(next);
            let best = moves
                .iter()
                .filter(|m| is_noisy(m))
                .map(|m| self.material(&judge::play_move(next, m)) + extra)
                .fold(stand, i32::max);
            return best;
        }
        let (searched, floor): (Vec<Move>, bool) = match self.d.third {
            _ if in_check => (moves.to_vec(), false),
            Third::None => unreachable!("a third ply of two plies"),
            Third::Captures if !took && self.d.quiet_captures => {
                let (gain, _) = capture_gain(&self.ev, next, true);
                return stand + gain;
            }
            Third::Captures if !took => (Vec::new(), true),
            Third::Captures | Third::EveryCapture => {
                (moves.iter().copied().filter(is_noisy).collect(), true)
            }
            Third::Full => (moves.to_vec(), false),
            Third::Best(k) => (
                self.ordered(next, moves).into_iter().take(k).collect(),
                true,
            ),
        };
        let bonus = if self.d.terms.mobility && self.d.third == Third::Full {
            MOBILITY * moves.len() as i32
        } else {
            0
        };
        let (alpha, beta) = (alpha - bonus, beta - bonus);
        let mut best = if floor { stand - bonus } else { -INF };
        if best >= beta {
            return best + bonus;
        }
        for t in self.ordered(next, &searched) {
            let value = self.after_third(next, &t, best.max(alpha), beta);
            best = best.max(value);
            if best >= beta {
                break;
            }
        }
        best + bonus
    }

    /// The score after `E`'s third-ply move `t` in `next` (`O` to move), within the
    /// window.
    fn after_third(&self, next: &Chess, t: &Move, alpha: i32, beta: i32) -> i32 {
        let (alpha, beta) = self.open(alpha, beta);
        let last = judge::play_move(next, t);
        let replies = last.legal_moves();
        if replies.is_empty() {
            return if last.is_check() { MATE - 10 } else { 0 };
        }
        if self.d.check && last.is_check() {
            let mut best = INF;
            for e in &replies {
                let after = judge::play_move(&last, e);
                let value = if after.legal_moves().is_empty() {
                    if after.is_check() { MATED_ON_4 } else { 0 }
                } else {
                    self.stand(&after)
                };
                best = best.min(value);
                if best <= alpha {
                    break;
                }
            }
            return best;
        }
        let extra = self.extra(&last);
        let stand = self.material(&last);
        let mut best = stand;
        for c in replies.iter().filter(|m| is_noisy(m)) {
            let value = match self.d.leaf {
                Leaf::Capture => self.material(&judge::play_move(&last, c)),
                Leaf::See => self.see(&last, c),
                Leaf::Discount => self.discounted(&last, c),
                Leaf::Exchange => {
                    let after = judge::play_move(&last, c);
                    self.exchange(&after, c.to(), alpha - extra, best.min(beta - extra))
                }
            };
            best = best.min(value);
            if best + extra <= alpha {
                break;
            }
        }
        best + extra
    }

    /// The exchange on `square` played out from `pos` (the side to move may recapture
    /// there or stop), the tables' score from the engine's view.
    fn exchange(&self, pos: &Chess, square: Square, alpha: i32, beta: i32) -> i32 {
        let (alpha, beta) = self.open(alpha, beta);
        let stand = self.material(pos);
        let maximise = pos.turn() == self.engine;
        let mut best = stand;
        if (maximise && best >= beta) || (!maximise && best <= alpha) {
            return best;
        }
        let moves = pos.legal_moves();
        let mut takers: Vec<&Move> = moves
            .iter()
            .filter(|m| m.to() == square && m.is_capture())
            .collect();
        takers.sort_by_key(|m| rank_value(m.role()));
        for m in takers {
            let after = judge::play_move(pos, m);
            if maximise {
                best = best.max(self.exchange(&after, square, best.max(alpha), beta));
                if best >= beta {
                    break;
                }
            } else {
                best = best.min(self.exchange(&after, square, alpha, best.min(beta)));
                if best <= alpha {
                    break;
                }
            }
        }
        best
    }

    /// What the side to move in `pos` wins back by the static exchange on `square`,
    /// where the other side's piece worth `standing` (to its side) now stands: the
    /// least valuable attacker takes while it pays, by the pieces' lines of movement on
    /// `occupied` (x-rays included; pins aside, a king never takes into an attack).
    fn swap(
        &self,
        pos: &Chess,
        occupied: Bitboard,
        square: Square,
        side: Color,
        standing: i32,
    ) -> i32 {
        let board = pos.board();
        let attackers = board.attacks_to(square, side, occupied) & board.by_color(side) & occupied;
        let least = attackers
            .into_iter()
            .filter_map(|sq| board.role_at(sq).map(|r| (rank_value(r), sq, r)))
            .min();
        let Some((_, from, role)) = least else {
            return 0;
        };
        let rest = occupied ^ Bitboard::from(from);
        if role == Role::King
            && !(board.attacks_to(square, !side, rest) & board.by_color(!side) & rest).is_empty()
        {
            return 0;
        }
        let arrived = self.ev.worth(role, side, square);
        (standing - self.swap(pos, rest, square, !side, arrived)).max(0)
    }

    /// The leaf's score, from the engine's view, after `O`'s capture or promotion `c` in
    /// `last` with the recapture discount: the arriving piece's worth regained when the
    /// engine then attacks its square.
    pub fn discounted(&self, last: &Chess, c: &Move) -> i32 {
        let after = judge::play_move(last, c);
        let mut value = self.material(&after);
        if super::deep::recapturable(last, c) {
            let role = c.promotion().unwrap_or(c.role());
            value += self.ev.worth(role, last.turn(), c.to());
        }
        value
    }

    /// The leaf's score, from the engine's view, after `O`'s capture or promotion `c` in
    /// `last` with the static exchange on its square (the engine regains what the swap
    /// below says: the least valuable attacker takes while it pays).
    pub fn see(&self, last: &Chess, c: &Move) -> i32 {
        let after = judge::play_move(last, c);
        let role = c.promotion().unwrap_or(c.role());
        let standing = self.ev.worth(role, last.turn(), c.to());
        let occupied = after.board().occupied();
        self.material(&after) + self.swap(&after, occupied, c.to(), self.engine, standing)
    }
}

/// The design's search over `moves` (the root's legal moves) from `root`, with `near`
/// telling, per root move, the positions after a reply that repeat the game.
pub fn search_moves(
    d: &Design,
    root: &Chess,
    moves: &[RootMove],
    near: &dyn Fn(usize, &Chess) -> bool,
) -> Option<Searched> {
    search_with(Lab::new(d, root), moves, near)
}

/// The search of `lab` over the root's `moves`.
fn search_with(
    lab: Lab<'_>,
    moves: &[RootMove],
    near: &dyn Fn(usize, &Chess) -> bool,
) -> Option<Searched> {
    let d = lab.d;
    let allowed: Vec<usize> = (0..moves.len()).filter(|&i| moves[i].allowed).collect();
    let pool: Vec<usize> = if allowed.is_empty() {
        (0..moves.len()).collect()
    } else {
        allowed
    };
    let full = (-INF, INF);
    let plies = if d.third == Third::None { 2 } else { 3 };
    let searched: Vec<usize> = match d.root {
        Some(r) if r < pool.len() && plies == 3 => {
            let mut first: Vec<(i32, &str, usize)> = pool
                .iter()
                .map(|&i| {
                    let v = lab.root_move(&moves[i], 2, full.0, full.1, &|p| near(i, p));
                    (v, moves[i].uci.as_str(), i)
                })
                .collect();
            first.sort_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(b.1)));
            first.iter().take(r).map(|e| e.2).collect()
        }
        _ => pool,
    };
    // The likely best first, so that the cut-offs come early; ties go to the smallest
    // UCI text whatever the order, by searching a move that sorts before the best so far
    // with a window one below its score.
    let mut order: Vec<(i32, usize)> = searched
        .iter()
        .map(|&i| (lab.stand(&moves[i].child), i))
        .collect();
    order.sort_by(|a, b| b.0.cmp(&a.0).then(moves[a.1].uci.cmp(&moves[b.1].uci)));
    let mut best: Option<(i32, usize)> = None;
    for (_, i) in order {
        let alpha = match best {
            None => full.0,
            Some((v, b)) if moves[i].uci < moves[b].uci => v - 1,
            Some((v, _)) => v,
        };
        let value = lab.root_move(&moves[i], plies, alpha, full.1, &|p| near(i, p));
        let better = match best {
            None => true,
            Some((v, b)) => value > v || (value == v && moves[i].uci < moves[b].uci),
        };
        if better {
            best = Some((value, i));
        }
    }
    let (score, i) = best?;
    Some(Searched {
        best: moves[i].uci.clone(),
        score,
        nodes: 0,
        scored: vec![(moves[i].uci.clone(), score)],
    })
}

/// The design's answer on `pos` without history; `None` when there is no legal move.
pub fn search(d: &Design, pos: &Chess) -> Option<Searched> {
    search_pruned(d, pos, true)
}

/// [`search`], with or without the cut-offs.
pub fn search_pruned(d: &Design, pos: &Chess, prune: bool) -> Option<Searched> {
    let moves: Vec<RootMove> = pos
        .legal_moves()
        .iter()
        .map(|m| RootMove {
            uci: judge::uci(m),
            child: judge::play_move(pos, m),
            fixed: None,
            allowed: true,
        })
        .collect();
    let mut lab = Lab::new(d, pos);
    lab.prune = prune;
    search_with(lab, &moves, &|_, _| false)
}
