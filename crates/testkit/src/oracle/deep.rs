//! Plain-Rust searches of the deeper variants, on shakmaty, with the oracle's own
//! tables ([`super::tables`], [`super::pesto`]): a third ply over every reply of the
//! root moves a first, two-ply pass ranks best, a capture search that discounts a
//! capture the other side can answer on the same square, and the evaluation's terms.
//!
//! Scores are centipawns from the engine's view; a mate given on ply `p` scores
//! `MATE - 5 (p - 1)` for the side giving it.

use shakmaty::{Bitboard, Chess, Color, Move, Position, Role, Square};

use super::judge;
use super::pesto;
use super::tables::{self, MATE};
use super::variants::{Searched, is_noisy, opposition_term, rook_box_term};

/// Which piece-square tables score a position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Tables {
    /// The simplified tables of `crates/chess/src/weights.rs` (the 2-ply variants').
    Simplified,
    /// PeSTO's middlegame and endgame tables blended at the root's phase, taken to the
    /// middle of its bucket of five phases ([`bucket`]) when `bucketed`.
    Tapered { bucketed: bool },
}

/// A deeper search.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Deep {
    /// The tables.
    pub tables: Tables,
    /// The capture search discounts a capture whose target square the other side then
    /// attacks by the capturing piece's worth there.
    pub see: bool,
    /// The full-width plies of the last pass: 2 or 3.
    pub plies: u32,
    /// How many root moves (the best by the two-ply pass) the three-ply pass searches;
    /// `usize::MAX`: every root move, without a two-ply pass.
    pub candidates: usize,
    /// In the two-ply pass, the capture search runs below every leaf (else only below a
    /// reply that captured on its target square).
    pub q_everywhere: bool,
}

/// The phase a bucket of five phases stands for: 2, 7, 12, 17 or 22.
pub fn bucket(phase: i32) -> i32 {
    5 * (phase / 5).min(4) + 2
}

/// The evaluation of one search: the tables at the root's phase.
#[derive(Clone, Debug)]
pub struct Eval {
    /// The phase the tapered tables are blended at; `None` for the simplified tables.
    phase: Option<i32>,
    /// Every piece's worth on every square, white's pieces first (computed once).
    worths: Vec<[i32; 64]>,
    /// The largest worth of a king.
    king_max: i32,
}

/// The index of a piece in [`Eval::worths`].
fn piece_index(role: Role, color: Color) -> usize {
    let r = match role {
        Role::Pawn => 0,
        Role::Knight => 1,
        Role::Bishop => 2,
        Role::Rook => 3,
        Role::Queen => 4,
        Role::King => 5,
    };
    if color == Color::White { r } else { 6 + r }
}

impl Eval {
    /// The evaluation for a search from `root`.
    pub fn new(tables: Tables, root: &Chess) -> Eval {
        let phase = match tables {
            Tables::Simplified => None,
            Tables::Tapered { bucketed } => {
                let p = pesto::phase(root);
                Some(if bucketed { bucket(p) } else { p })
            }
        };
        let mut ev = Eval {
            phase,
            worths: Vec::new(),
            king_max: 0,
        };
        for color in [Color::White, Color::Black] {
            for role in Role::ALL {
                let mut row = [0; 64];
                for sq in Square::ALL {
                    row[sq as usize] = ev.worth_of(role, color, sq);
                }
                ev.worths.push(row);
            }
        }
        ev.king_max = Square::ALL
            .into_iter()
            .map(|sq| ev.worth(Role::King, Color::White, sq))
            .max()
            .expect("64 squares");
        ev
    }

    /// What a `color` `role` on `square` is worth to its own side.
    pub fn worth(&self, role: Role, color: Color, square: Square) -> i32 {
        self.worths[piece_index(role, color)][square as usize]
    }

    /// [`Self::worth`] from the tables.
    fn worth_of(&self, role: Role, color: Color, square: Square) -> i32 {
        match self.phase {
            None => tables::worth(role, color, square),
            Some(p) => {
                let (mg, eg) = pesto::mg_eg(role, color, square);
                pesto::blend(mg, eg, p)
            }
        }
    }

    /// The material-plus-table score of `pos` from `side`'s view.
    pub fn score(&self, pos: &Chess, side: Color) -> i32 {
        pos.board()
            .iter()
            .map(|(sq, piece)| {
                let v = self.worth(piece.role, piece.color, sq);
                if piece.color == side { v } else { -v }
            })
            .sum()
    }

    /// The largest worth of a white king on any square.
    fn king_max(&self) -> i32 {
        self.king_max
    }

    /// The lone-king endgame term of `pos` for `side` (the `2ply-qe` term of
    /// `crates/chess/src/lib.rs`, the attacking king's table cancelled with these tables).
    pub fn endgame(&self, pos: &Chess, side: Color) -> i32 {
        let board = pos.board();
        let men = |c: Color| (board.by_color(c) & !board.kings()).count();
        let pawns = |c: Color| (board.by_color(c) & board.by_role(Role::Pawn)).count();
        let attacker = [Color::White, Color::Black]
            .into_iter()
            .find(|&c| men(!c) == 0 && pawns(c) == 0 && men(c) > 0);
        let Some(attacker) = attacker else {
            return 0;
        };
        let king = |c: Color| -> Square { board.king_of(c).expect("a king") };
        let (lone, own) = (king(!attacker), king(attacker));
        let centre = |x: i32| if x <= 3 { 3 - x } else { x - 4 };
        let (lf, lr) = (i32::from(lone.file()), i32::from(lone.rank()));
        let (of, or) = (i32::from(own.file()), i32::from(own.rank()));
        let mut term = 25 * (centre(lf) + centre(lr))
            + 10 * (7 - (lf - of).abs())
            + 10 * (7 - (lr - or).abs());
        term += self.king_max() - self.worth(Role::King, attacker, own);
        let rooks = board.by_color(attacker) & board.by_role(Role::Rook);
        if let (1, Some(rook)) = (men(attacker), rooks.first()) {
            term += rook_box_term(lone, rook) + opposition_term(lone, own);
        }
        if side == attacker { term } else { -term }
    }

    /// What `m` gains its mover in `pos`, from the mover's view: the arriving piece's
    /// worth on its target less the mover's on its origin, plus the captured piece's
    /// worth (en passant: the pawn beside), plus a castling rook's change.
    pub fn gain(&self, pos: &Chess, m: &Move) -> i32 {
        let mover = pos.turn();
        match *m {
            Move::Normal {
                role,
                from,
                capture,
                to,
                promotion,
            } => {
                let arrived = promotion.unwrap_or(role);
                let taken = capture.map_or(0, |c| self.worth(c, !mover, to));
                self.worth(arrived, mover, to) - self.worth(role, mover, from) + taken
            }
            Move::EnPassant { from, to } => {
                let victim = Square::from_coords(to.file(), from.rank());
                self.worth(Role::Pawn, mover, to) - self.worth(Role::Pawn, mover, from)
                    + self.worth(Role::Pawn, !mover, victim)
            }
            Move::Castle { king, rook } => {
                let side = shakmaty::CastlingSide::from_queen_side(rook < king);
                let (kt, rt) = (side.king_to(mover), side.rook_to(mover));
                self.worth(Role::King, mover, kt) - self.worth(Role::King, mover, king)
                    + self.worth(Role::Rook, mover, rt)
                    - self.worth(Role::Rook, mover, rook)
            }
            Move::Put { .. } => unreachable!("no drops in chess"),
        }
    }
}

/// The capture search's answer for the side to move in `pos`: the best of 0 (standing
/// pat) and the gain of each legal capture (en passant included) or promotion, less,
/// with `see`, the capturing (or promoted) piece's worth on its target square when the
/// other side attacks that square after the move (by the pieces' lines of movement,
/// pins and checks aside).
pub fn capture_gain(ev: &Eval, pos: &Chess, see: bool) -> (i32, u64) {
    capture_gain_of(ev, pos, &pos.legal_moves(), see)
}

/// [`capture_gain`] given the legal moves of `pos`.
fn capture_gain_of(ev: &Eval, pos: &Chess, moves: &[Move], see: bool) -> (i32, u64) {
    let mover = pos.turn();
    let mut best = 0;
    let mut nodes = 0;
    for m in moves.iter().filter(|m| is_noisy(m)) {
        nodes += 1;
        let mut g = ev.gain(pos, m);
        if see && recapturable(pos, m) {
            let role = m.promotion().unwrap_or(m.role());
            g -= ev.worth(role, mover, m.to());
        }
        best = best.max(g);
    }
    (best, nodes)
}

/// Whether the other side attacks the target square of `m` (legal in `pos`) once `m` is
/// played: by the lines of movement of its pieces on the board after the move (an en
/// passant victim gone), pins and checks aside.
pub fn recapturable(pos: &Chess, m: &Move) -> bool {
    let board = pos.board();
    let (from, to) = (m.from().expect("a board move"), m.to());
    let mut occupied = (board.occupied() ^ Bitboard::from(from)) | Bitboard::from(to);
    let mut theirs = board.by_color(!pos.turn());
    if let Move::EnPassant { .. } = m {
        let victim = Square::from_coords(to.file(), from.rank());
        occupied ^= Bitboard::from(victim);
        theirs ^= Bitboard::from(victim);
    }
    board.attacks_to(to, !pos.turn(), occupied) & theirs & !Bitboard::from(to) != Bitboard::EMPTY
}

/// The two-ply score of the position `next` after a reply (the engine to move) that
/// captured on its target square when `took`.
fn leaf2(d: &Deep, ev: &Eval, next: &Chess, engine: Color, took: bool) -> (i32, u64) {
    if next.legal_moves().is_empty() {
        return (if next.is_check() { -MATE } else { 0 }, 0);
    }
    let stand = ev.score(next, engine) + ev.endgame(next, engine);
    if took || d.q_everywhere {
        let (q, nodes) = capture_gain(ev, next, d.see);
        (stand + q, nodes)
    } else {
        (stand, 0)
    }
}

/// The three-ply score of the position `next` after a reply (the engine to move).
fn node3(d: &Deep, ev: &Eval, next: &Chess, engine: Color) -> (i32, u64) {
    let moves = next.legal_moves();
    if moves.is_empty() {
        return (if next.is_check() { -(MATE - 5) } else { 0 }, 0);
    }
    let mut best = i32::MIN;
    let mut nodes = 0;
    let base = ev.score(next, engine);
    for m in &moves {
        let last = judge::play_move(next, m);
        nodes += 1;
        let replies = last.legal_moves();
        let value = if replies.is_empty() {
            if last.is_check() { MATE - 10 } else { 0 }
        } else {
            let (q, below) = capture_gain_of(ev, &last, &replies, d.see);
            nodes += below;
            base + ev.gain(next, m) + ev.endgame(&last, engine) - q
        };
        best = best.max(value);
    }
    (best, nodes)
}

/// The score of the child `after` (the engine's move played) searched to `plies`, with
/// `near` telling a position after a reply that repeats the game (scored 0).
pub fn after_move(
    d: &Deep,
    ev: &Eval,
    after: &Chess,
    engine: Color,
    plies: u32,
    near: &dyn Fn(&Chess) -> bool,
) -> (i32, u64) {
    let replies = after.legal_moves();
    if replies.is_empty() {
        return (if after.is_check() { MATE } else { 0 }, 0);
    }
    let mut best = i32::MAX;
    let mut nodes = 0;
    for r in &replies {
        let next = judge::play_move(after, r);
        nodes += 1;
        let (value, below) =
            if next.halfmoves() != 0 && !next.legal_moves().is_empty() && near(&next) {
                (0, 0)
            } else if plies == 3 {
                node3(d, ev, &next, engine)
            } else {
                let took = r.is_capture() && !r.is_en_passant();
                leaf2(d, ev, &next, engine, took)
            };
        nodes += below;
        best = best.min(value);
    }
    (best, nodes)
}

/// A root move as the search sees it: its UCI text, the position after it, and, when the
/// game's history decides it (a repetition), its score.
pub struct RootMove {
    /// The move.
    pub uci: String,
    /// The position after it.
    pub child: Chess,
    /// Its score when the history decides it.
    pub fixed: Option<i32>,
    /// Whether `searchmoves` lets it be chosen.
    pub allowed: bool,
}

/// The search of `d` over `moves` (the root's legal moves) from `root`, with `near`
/// telling, per root move, the positions after a reply that repeat the game.
pub fn search_moves(
    d: &Deep,
    root: &Chess,
    moves: &[RootMove],
    near: &dyn Fn(usize, &Chess) -> bool,
) -> Option<Searched> {
    let engine = root.turn();
    let ev = Eval::new(d.tables, root);
    let mut nodes = 0;
    let score = |i: usize, plies: u32, nodes: &mut u64| {
        let m = &moves[i];
        *nodes += 1;
        if let Some(v) = m.fixed {
            return v;
        }
        let (v, below) = after_move(d, &ev, &m.child, engine, plies, &|p| near(i, p));
        *nodes += below;
        v
    };
    let allowed: Vec<usize> = (0..moves.len()).filter(|&i| moves[i].allowed).collect();
    let pool: Vec<usize> = if allowed.is_empty() {
        (0..moves.len()).collect()
    } else {
        allowed
    };
    let searched: Vec<usize> = if d.plies == 2 || d.candidates >= pool.len() {
        pool
    } else {
        let mut first: Vec<(i32, &str, usize)> = pool
            .iter()
            .map(|&i| (score(i, 2, &mut nodes), moves[i].uci.as_str(), i))
            .collect();
        first.sort_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(b.1)));
        first.iter().take(d.candidates).map(|e| e.2).collect()
    };
    let scored: Vec<(String, i32)> = searched
        .iter()
        .map(|&i| (moves[i].uci.clone(), score(i, d.plies, &mut nodes)))
        .collect();
    Searched::choose(scored, nodes, |_| true)
}

/// The search of `d` on `pos` without history; `None` when there is no legal move.
pub fn search(d: &Deep, pos: &Chess) -> Option<Searched> {
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
    search_moves(d, pos, &moves, &|_, _| false)
}
