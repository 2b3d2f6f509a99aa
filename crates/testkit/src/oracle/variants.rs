//! An independent implementation, in plain Rust on shakmaty, of every search variant of
//! `regex_chess_engine::variants` as `crates/chess/src/lib.rs` states it, with the oracle's own
//! evaluation ([`super::search::score`]): the move, its score, the number of positions
//! the search reaches by a move, and the score of each reply (to check the reported
//! principal variation).
//!
//! - `2ply`: the search of [`super::search`].
//! - `2ply-q`: the same, but a leaf whose reply captured a piece on its target square
//!   (not en passant) and where the engine has a legal move scores the larger of its own
//!   score (standing pat) and the score after each legal capture (en passant included)
//!   or promotion of the engine.
//! - `2ply-qe`: `2ply-q`, plus at every such leaf [`endgame_term`] of the position after
//!   the reply, from the engine's view.
//! - `3ply-qe`: two full-width plies, then ([`after_reply3`]) standing pat (the position
//!   after the reply, with [`endgame_term`]) or, after a reply that captured on its
//!   target square (not en passant), the larger of standing pat and the engine's legal
//!   captures and promotions; a third-ply position where the opponent can move scores
//!   the smaller of its own score and the score after each legal capture or promotion of
//!   the opponent, plus [`endgame_term`] of the third-ply position; a mate given on ply
//!   `p` scores `MATE - 5 (p - 1)` (mated: its negation), a stalemate 0.
//!
//! - `2ply-see`: two full-width plies scored as `3ply-qe` scores standing pat (tapered
//!   tables, [`endgame_term`]), a mate on ply 2 scoring `-MATE` as in `2ply-qe`; below
//!   every leaf where the engine has a legal move (not only after a capturing reply) the
//!   larger of standing pat and the engine's captures and promotions, each less the
//!   arriving piece's worth on its target square when the opponent then attacks that
//!   square ([`super::deep::recapturable`]: by lines of movement, pins and checks aside).
//!   The lab's design `deep,tables=bucketed,see=1,plies=2,qall=1`
//!   ([`super::deep`]), but for the endgame term's king share (here at phase 2).
//!
//! - `3ply-see`: `3ply-qe`, but after a reply that captured nothing (or en passant) the
//!   leaf of `2ply-see` (standing pat or the engine's captures and promotions with the
//!   recapture discount, no answer below), and below a third-ply move each of the
//!   opponent's captures and promotions scored with the discount from its side: its
//!   arriving piece counted lost where the engine then attacks its square. The lab's
//!   design `3ply-qe,disc,q2` ([`super::lab`]).
//!
//! - `3ply-see-check`: `3ply-see` with the check extension: after any reply that gives
//!   check, the engine's every legal move searched as the third ply, without standing
//!   pat; after a third-ply move that gives
//!   check, the smallest over the opponent's every evasion of the position's standing
//!   pat (material, tables, [`endgame_term`]), `-(MATE - 15)` when the evasion mates
//!   the engine, 0 when it stalemates it. The lab's `3ply-qe,disc,check,q2`.
//!
//! `3ply-qe`, `2ply-see`, `3ply-see` and `3ply-see-check` score with PeSTO's tapered tables ([`super::pesto`]) blended once per
//! search, at the middle of the root position's bucket of five phases (phase 0-4 at 2,
//! 5-9 at 7, ..., 20-24 at 22); its endgame term cancels the attacking king's entry at
//! phase 2 (the first bucket's). The other variants score with the simplified tables.
//! `3ply-qe-simplified` (oracle only: the screens' baseline) is `3ply-qe` with the
//! simplified tables.
//!
//! Scores are centipawns from the engine's view; `MATE` and `-MATE` are mates.

use super::pesto;
use super::tables;
use shakmaty::{Chess, Color, Move, Position, Role, Square};

use super::judge;
use super::search::score;

/// Which variant.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Spec {
    /// A capture search below the leaves.
    pub quiescence: bool,
    /// The endgame term at the leaves.
    pub endgame: bool,
    /// The full-width plies: 2 or 3.
    pub depth: u32,
    /// The endgame term cancels the attacking king's table and counts the rook's box
    /// (an attacker with exactly one rook).
    pub rook_box: bool,
    /// The endgame term counts the kings' opposition, with the rook's box
    /// ([`opposition_term`]).
    pub opposition: bool,
    /// PeSTO's tapered tables instead of the simplified ones.
    pub tapered: bool,
    /// With `tapered`: the phase the tables are blended at, the middle of the root's
    /// bucket ([`Spec::at`]); -1 until a root sets it.
    pub phase: i32,
    /// With `quiescence`: the capture search runs below every leaf where the engine can
    /// move, not only after a reply that captured on its target square (at depth 3,
    /// below every reply that captured nothing: the others have the third ply).
    pub everywhere: bool,
    /// With `quiescence`: a capture or promotion whose target square the other side then
    /// attacks ([`super::deep::recapturable`]) gains less the arriving piece's worth there
    /// (at depth 3 also the opponent's below the third ply).
    pub see: bool,
    /// At depth 3, the check extension: after a reply that gives check, every legal
    /// move of the engine instead of standing pat and its captures; after a third-ply
    /// move that gives check, every evasion scored as it stands instead of the capture
    /// search ([`after_third`]).
    pub check: bool,
}

impl Spec {
    /// The spec of a registered variant; panics on an unknown name.
    pub fn of(name: &str) -> Spec {
        match name {
            "2ply" => Spec {
                quiescence: false,
                endgame: false,
                depth: 2,
                rook_box: false,
                opposition: false,
                tapered: false,
                phase: -1,
                everywhere: false,
                see: false,
                check: false,
            },
            "2ply-q" => Spec {
                quiescence: true,
                endgame: false,
                depth: 2,
                rook_box: false,
                opposition: false,
                tapered: false,
                phase: -1,
                everywhere: false,
                see: false,
                check: false,
            },
            "2ply-qe" => Spec {
                quiescence: true,
                endgame: true,
                depth: 2,
                rook_box: true,
                opposition: true,
                tapered: false,
                phase: -1,
                everywhere: false,
                see: false,
                check: false,
            },
            "3ply-qe" => Spec {
                quiescence: true,
                endgame: true,
                depth: 3,
                rook_box: true,
                opposition: true,
                tapered: true,
                phase: -1,
                everywhere: false,
                see: false,
                check: false,
            },
            "2ply-see" => Spec {
                depth: 2,
                everywhere: true,
                see: true,
                ..Spec::of("3ply-qe")
            },
            "3ply-see" => Spec {
                everywhere: true,
                see: true,
                ..Spec::of("3ply-qe")
            },
            "3ply-see-check" => Spec {
                check: true,
                ..Spec::of("3ply-see")
            },
            "3ply-qe-simplified" => Spec {
                tapered: false,
                ..Spec::of("3ply-qe")
            },
            other => panic!("the oracle has no search `{other}`"),
        }
    }

    /// The spec for a search from `root`: with the tapered tables, the phase they are
    /// blended at is the middle of the bucket of five phases `root`'s phase falls in.
    pub fn at(self, root: &Chess) -> Spec {
        let phase = if self.tapered {
            5 * (pesto::phase(root) / 5).min(4) + 2
        } else {
            -1
        };
        Spec { phase, ..self }
    }

    /// What a `color` `role` on `square` is worth to its own side.
    pub fn worth(self, role: Role, color: Color, square: Square) -> i32 {
        if !self.tapered {
            return tables::worth(role, color, square);
        }
        assert!(self.phase >= 0, "a tapered spec needs its root (Spec::at)");
        let (mg, eg) = pesto::mg_eg(role, color, square);
        pesto::blend(mg, eg, self.phase)
    }

    /// The material-plus-table score of `pos` from `side`'s view.
    pub fn score(self, pos: &Chess, side: Color) -> i32 {
        if !self.tapered {
            return score(pos, side);
        }
        pos.board()
            .iter()
            .map(|(sq, piece)| {
                let v = self.worth(piece.role, piece.color, sq);
                if piece.color == side { v } else { -v }
            })
            .sum()
    }

    /// The attacking king's table cancelled by the endgame term: the largest entry of
    /// the king's table less its entry on `square` (the tapered tables at phase 2).
    fn king_share(self, color: Color, square: Square) -> i32 {
        if !self.tapered {
            // The simplified king's table, whose largest entry is 30.
            return 30 - tables::bonus(Role::King, color, square);
        }
        let entry = |sq: Square| {
            let (mg, eg) = pesto::mg_eg(Role::King, color, sq);
            pesto::blend(mg, eg, 2)
        };
        let most = Square::ALL
            .into_iter()
            .map(entry)
            .max()
            .expect("64 squares");
        most - entry(square)
    }
}

/// A move of the capture search: a capture (en passant included) or a promotion.
pub fn is_noisy(m: &Move) -> bool {
    m.is_capture() || m.is_promotion()
}

/// The endgame term of `pos` for `side`, in centipawns, written out from the contract:
/// when one side has only its king and the other has a knight, bishop, rook or queen
/// (pawns or not), 25 per step of the lone king's centre distance (per axis `3 - x` for
/// `x <= 3`, else `x - 4`) plus 10 per step of `7 - |file distance|` and of
/// `7 - |rank distance|` of the kings; when `spec.rook_box` holds (the `2ply-qe` and
/// `3ply-qe` terms), plus 30 less the king's table entry of the side with pieces' king,
/// and, when that side has exactly one rook (whatever else it has), plus
/// [`rook_box_term`] and, when
/// `spec.opposition` holds (the same terms), [`opposition_term`]; for the
/// side with pieces; else 0.
pub fn endgame_term(pos: &Chess, side: Color, spec: Spec) -> i32 {
    let board = pos.board();
    let men = |c: Color| (board.by_color(c) & !board.kings()).count();
    let pieces = |c: Color| men(c) - (board.by_color(c) & board.by_role(Role::Pawn)).count();
    let attacker = [Color::White, Color::Black]
        .into_iter()
        .find(|&c| men(!c) == 0 && pieces(c) > 0);
    let Some(attacker) = attacker else {
        return 0;
    };
    let king = |c: Color| -> Square { board.king_of(c).expect("a king") };
    let (lone, own) = (king(!attacker), king(attacker));
    let centre = |x: i32| if x <= 3 { 3 - x } else { x - 4 };
    let (lf, lr) = (i32::from(lone.file()), i32::from(lone.rank()));
    let (of, or) = (i32::from(own.file()), i32::from(own.rank()));
    let mut term =
        25 * (centre(lf) + centre(lr)) + 10 * (7 - (lf - of).abs()) + 10 * (7 - (lr - or).abs());
    let rooks = board.by_color(attacker) & board.by_role(Role::Rook);
    if spec.rook_box {
        // The king's table cancelled up to a constant.
        term += spec.king_share(attacker, own);
        if let (1, Some(rook)) = (rooks.count(), rooks.first()) {
            term += rook_box_term(lone, rook);
            if spec.opposition {
                term += opposition_term(lone, own);
            }
        }
    }
    if side == attacker { term } else { -term }
}

/// The rook's box, for the attacker with one rook on `rook` against the lone king on
/// `lone`: on each axis, 10 cp per line beyond the lone king's side of the rook's line,
/// `10 × (8 − n)`, where `n` counts the files (ranks) on the lone king's side of the
/// rook's file (rank), the rook's own excluded, or is 8 when the king stands on the
/// rook's file (rank).
pub fn rook_box_term(lone: Square, rook: Square) -> i32 {
    let side = |king: i32, rook: i32| match king.cmp(&rook) {
        std::cmp::Ordering::Less => rook,
        std::cmp::Ordering::Greater => 7 - rook,
        std::cmp::Ordering::Equal => 8,
    };
    let files = side(i32::from(lone.file()), i32::from(rook.file()));
    let ranks = side(i32::from(lone.rank()), i32::from(rook.rank()));
    10 * (8 - files) + 10 * (8 - ranks)
}

/// The kings' opposition, for the attacker with one rook: 60 cp when the lone king on
/// `lone` stands on rank 1 or 8 and the attacker's king on `own` on its file two ranks
/// away, or on file a or h and the attacker's king on its rank two files away; 30 cp
/// when the attacker's king stands so but one file (rank) aside; else 0.
pub fn opposition_term(lone: Square, own: Square) -> i32 {
    let edge = |x: i32| x == 0 || x == 7;
    let (lf, lr) = (i32::from(lone.file()), i32::from(lone.rank()));
    let (files, ranks) = (
        (lf - i32::from(own.file())).abs(),
        (lr - i32::from(own.rank())).abs(),
    );
    let across = |aside: i32| {
        (edge(lr) && files == aside && ranks == 2) || (edge(lf) && ranks == aside && files == 2)
    };
    if across(0) {
        60
    } else if across(1) {
        30
    } else {
        0
    }
}

/// The score of a leaf (`pos`, the engine to move with at least one legal move) and the
/// positions the capture search reached below it.
pub fn leaf(spec: Spec, pos: &Chess, engine: Color) -> (i32, u64) {
    let extra = if spec.endgame {
        endgame_term(pos, engine, spec)
    } else {
        0
    };
    let stand = spec.score(pos, engine) + extra;
    if !spec.quiescence {
        return (stand, 0);
    }
    let noisy: Vec<Move> = pos.legal_moves().into_iter().filter(is_noisy).collect();
    let best = noisy
        .iter()
        .map(|m| {
            let value = spec.score(&judge::play_move(pos, m), engine) + extra;
            if spec.see && super::deep::recapturable(pos, m) {
                let arrived = m.promotion().unwrap_or(m.role());
                value - spec.worth(arrived, engine, m.to())
            } else {
                value
            }
        })
        .fold(stand, i32::max);
    (best, noisy.len() as u64)
}

/// The score, from the engine's view, of the position after `reply` (played in
/// `after`), and the positions reached below it.
pub fn after_reply(spec: Spec, after: &Chess, reply: &Move, engine: Color) -> (i32, u64) {
    let next = judge::play_move(after, reply);
    if next.legal_moves().is_empty() {
        return (if next.is_check() { -tables::MATE } else { 0 }, 0);
    }
    let took = reply.is_capture() && !reply.is_en_passant();
    let spec = Spec {
        quiescence: spec.quiescence && (took || spec.everywhere),
        ..spec
    };
    leaf(spec, &next, engine)
}

/// The score of a mate given on ply `ply` (1-based) of a 3-ply search.
pub fn mate_on_ply(ply: i32) -> i32 {
    tables::MATE - 5 * (ply - 1)
}

/// The score, from the engine's view, of the engine's third-ply move `third` played in
/// `next` (the position after a reply), and the positions reached below it.
pub fn after_third(spec: Spec, next: &Chess, third: &Move, engine: Color) -> (i32, u64) {
    let last = judge::play_move(next, third);
    let replies = last.legal_moves();
    if replies.is_empty() {
        return (if last.is_check() { mate_on_ply(3) } else { 0 }, 0);
    }
    if spec.check && last.is_check() {
        // Every evasion, scored as it stands; the engine mated on the fourth ply.
        let worst = replies
            .iter()
            .map(|e| {
                let answered = judge::play_move(&last, e);
                if !answered.legal_moves().is_empty() {
                    stand_pat(spec, &answered, engine)
                } else if answered.is_check() {
                    -mate_on_ply(4)
                } else {
                    0
                }
            })
            .fold(i32::MAX, i32::min);
        return (worst, replies.len() as u64);
    }
    let extra = if spec.endgame {
        endgame_term(&last, engine, spec)
    } else {
        0
    };
    let stand = spec.score(&last, engine);
    if !spec.quiescence {
        return (stand + extra, 0);
    }
    let noisy: Vec<&Move> = replies.iter().filter(|m| is_noisy(m)).collect();
    let worst = noisy
        .iter()
        .map(|m| {
            let value = spec.score(&judge::play_move(&last, m), engine);
            if spec.see && super::deep::recapturable(&last, m) {
                // The opponent's arriving piece counted lost.
                let arrived = m.promotion().unwrap_or(m.role());
                value + spec.worth(arrived, !engine, m.to())
            } else {
                value
            }
        })
        .fold(stand, i32::min);
    (worst + extra, noisy.len() as u64)
}

/// The score of standing pat after a reply: the position `next`'s own score and term.
pub fn stand_pat(spec: Spec, next: &Chess, engine: Color) -> i32 {
    let extra = if spec.endgame {
        endgame_term(next, engine, spec)
    } else {
        0
    };
    spec.score(next, engine) + extra
}

/// The 3-ply score, from the engine's view, of the position after `reply` (played in
/// `after`): a mate or stalemate; else standing pat, and, when the reply captured on its
/// target square (not en passant), the best of it and the engine's third-ply captures
/// and promotions; and the positions reached below it.
pub fn after_reply3(spec: Spec, after: &Chess, reply: &Move, engine: Color) -> (i32, u64) {
    let next = judge::play_move(after, reply);
    let moves = next.legal_moves();
    if moves.is_empty() {
        return (if next.is_check() { -mate_on_ply(2) } else { 0 }, 0);
    }
    let mut nodes = 0;
    let in_check = spec.check && next.is_check();
    let mut best = if in_check {
        i32::MIN
    } else {
        stand_pat(spec, &next, engine)
    };
    if (!reply.is_capture() || reply.is_en_passant()) && !in_check {
        if spec.everywhere {
            // `2ply-see`'s leaf: the engine's captures, no answer below them.
            return leaf(spec, &next, engine);
        }
        return (best, 0);
    }
    for third in moves.iter().filter(|m| in_check || is_noisy(m)) {
        let (value, below) = after_third(spec, &next, third, engine);
        nodes += 1 + below;
        best = best.max(value);
    }
    (best, nodes)
}

/// [`after_reply`] or [`after_reply3`], as `spec`'s depth says.
pub fn reply_value(spec: Spec, after: &Chess, reply: &Move, engine: Color) -> (i32, u64) {
    if spec.depth == 3 {
        after_reply3(spec, after, reply, engine)
    } else {
        after_reply(spec, after, reply, engine)
    }
}

/// The score of the position `after` an engine move and the positions reached below it.
pub fn after_move(spec: Spec, after: &Chess, engine: Color) -> (i32, u64) {
    let replies = after.legal_moves();
    if replies.is_empty() {
        return (if after.is_check() { tables::MATE } else { 0 }, 0);
    }
    let mut nodes = 0;
    let mut best = i32::MAX;
    for reply in &replies {
        let (value, below) = reply_value(spec, after, reply, engine);
        nodes += 1 + below;
        best = best.min(value);
    }
    (best, nodes)
}

/// What the search answers for a position with a legal move.
#[derive(Clone, Debug)]
pub struct Searched {
    /// The chosen move (ties: the smallest UCI text).
    pub best: String,
    /// Its score.
    pub score: i32,
    /// The positions reached by a move: every child, every reply, every capture below.
    pub nodes: u64,
    /// Every move with its score, sorted by UCI text.
    pub scored: Vec<(String, i32)>,
}

/// The variant's answer; `None` when the side to move has no legal move.
pub fn search(spec: Spec, pos: &Chess) -> Option<Searched> {
    let spec = spec.at(pos);
    let engine = pos.turn();
    let mut scored = Vec::new();
    let mut nodes = 0;
    for m in &pos.legal_moves() {
        let (value, below) = after_move(spec, &judge::play_move(pos, m), engine);
        nodes += 1 + below;
        scored.push((judge::uci(m), value));
    }
    Searched::choose(scored, nodes, |_| true)
}

impl Searched {
    /// The best of the `scored` moves that `allowed` lets through (ties: the smallest UCI
    /// text), with every move kept in `scored`; `None` when none is allowed.
    pub fn choose(
        mut scored: Vec<(String, i32)>,
        nodes: u64,
        allowed: impl Fn(&str) -> bool,
    ) -> Option<Searched> {
        scored.sort();
        let mut best: Option<(String, i32)> = None;
        for (uci, value) in scored.iter().filter(|(u, _)| allowed(u)) {
            if best.as_ref().is_none_or(|(_, b)| value > b) {
                best = Some((uci.clone(), *value));
            }
        }
        let (best, score) = best?;
        Some(Searched {
            best,
            score,
            nodes,
            scored,
        })
    }
}

/// Positions (the side to move searching) whose moves tell the registered search
/// variants apart: the oracles of `2ply` and `2ply-q` differ on the first and third,
/// those of `2ply-q` and `2ply-qe` on the second, those of `2ply-qe` and `3ply-qe` on the
/// fourth ([`assert_they_tell_variants_apart`] checks it, so that a test through them
/// cannot pass with one search behind every name).
pub const VARIANT_FENS: [&str; 4] = [
    "rnbqkb1r/ppp2ppp/4pn2/1B1p4/3P4/4PN2/PPP2PPP/RNBQK2R b KQkq - 2 4",
    "8/8/8/4k3/8/8/8/R3K3 w - - 0 1",
    "rn1qkb1r/pppb1ppp/4pn2/1B1p4/3P4/4PN2/PPP2PPP/RNBQK2R w KQkq - 3 5",
    // A mate in two through a queen sacrifice: only `3ply-qe` sees it.
    "3r2k1/5ppp/8/8/8/8/4QPPP/4R1K1 w - - 0 1",
];

/// The variant `name`'s move in `fen`, `(none)` when there is no legal move.
pub fn best_move(name: &str, fen: &str) -> String {
    search(Spec::of(name), &judge::position(fen)).map_or_else(|| "(none)".to_string(), |s| s.best)
}

/// Positions that tell the three-ply variants with `2ply-see`'s leaf apart from the
/// others and from each other (the check extension decides the first), beyond
/// [`VARIANT_FENS`]: [`assert_they_tell_variants_apart`] looks at them too.
pub const SEE_VARIANT_FENS: [&str; 3] = [
    "2r3k1/8/1p4p1/3QBp1b/P2PrP1P/3K3R/8/1n3R1B b - - 0 52",
    "8/5k1p/6r1/3N1p2/1P1b1P1P/2P3n1/P7/5K2 w - - 0 53",
    "3k1b1r/rb2np1p/1Q2p1pN/p1p3BP/K1P1P3/P7/1P4PR/R4BN1 b - - 0 24",
];

/// Panics unless, for every two of `names`, some position of [`VARIANT_FENS`] or
/// [`SEE_VARIANT_FENS`] has different oracle moves.
pub fn assert_they_tell_variants_apart(names: &[&str]) {
    for (i, a) in names.iter().enumerate() {
        for b in &names[i + 1..] {
            assert!(
                VARIANT_FENS
                    .iter()
                    .chain(&SEE_VARIANT_FENS)
                    .any(|f| best_move(a, f) != best_move(b, f)),
                "no position tells {a} from {b}"
            );
        }
    }
}

/// King and queen, king and rook, king and two rooks against a lone king, either side to
/// move and either side attacking: positions where `2ply-qe`'s endgame term applies at the
/// leaves and where the game's history decides between a mate and a repetition.
pub const LONE_KING_FENS: [&str; 8] = [
    "8/8/3k4/8/8/8/8/4K2Q w - - 0 1",
    "8/8/8/8/3K4/8/1k6/7q b - - 0 1",
    "7k/8/8/8/8/8/8/Q3K3 b - - 0 1",
    "8/8/8/4k3/8/8/8/R3K3 w - - 0 1",
    "8/8/8/8/2k5/8/7r/4K3 b - - 0 1",
    "7K/8/8/8/4k3/8/8/6r1 w - - 0 1",
    "8/8/8/3k4/8/8/8/R3K2R w - - 0 1",
    "r6r/8/8/8/8/5K2/8/3k4 b - - 0 1",
];
