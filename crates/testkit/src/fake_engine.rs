//! A TEST-ONLY stand-in engine, backed by shakmaty, for checking the UCI protocol and the
//! match plumbing before the chess rules exist. It is not this project's engine: the
//! binary never sees it (it lives under `tests/`), and no result obtained with it says
//! anything about the engine's strength.

use std::sync::atomic::{AtomicUsize, Ordering};

use regex_chess_chess::notation::fen::Fen;
use regex_chess_chess::notation::uci::UciMove;
use regex_chess_engine::reply::{MoveReply, Reply, Status};
use regex_chess_engine::uci::{Engine, EngineError, Score, SearchReport, Thought};
use regex_chess_engine::variants::Search;
use shakmaty::fen::Fen as SFen;
use shakmaty::{CastlingMode, Chess, EnPassantMode, Position};

/// Plays a promotion to a queen when it has one, else the legal move whose UCI text is
/// largest, and counts the questions it is asked. Its report: score cp -12, 7 nodes, and
/// a pv of the move and the reply it would itself play.
#[derive(Default)]
pub struct FakeEngine {
    /// How many times `apply` was called.
    pub applied: AtomicUsize,
    /// How many times `think` was called.
    pub thought: AtomicUsize,
}

fn position(fen: &Fen) -> Chess {
    let parsed: SFen = fen.to_string().parse().expect("shakmaty reads our FEN");
    parsed
        .into_position(CastlingMode::Standard)
        .expect("a legal position")
}

fn fen_of(pos: &Chess) -> Fen {
    SFen::from_position(pos, EnPassantMode::Always)
        .to_string()
        .parse()
        .expect("we read shakmaty's FEN")
}

fn status(pos: &Chess) -> Status {
    if pos.is_checkmate() {
        Status::Checkmate
    } else if pos.is_stalemate() {
        Status::Stalemate
    } else if pos.halfmoves() >= 100 {
        Status::FiftyMove
    } else if pos.is_insufficient_material() {
        Status::InsufficientMaterial
    } else {
        Status::Ongoing
    }
}

impl Engine for FakeEngine {
    fn apply(&self, fen: &Fen, mv: UciMove) -> Result<Option<Fen>, EngineError> {
        self.applied.fetch_add(1, Ordering::SeqCst);
        let pos = position(fen);
        let found = pos
            .legal_moves()
            .into_iter()
            .find(|m| m.to_uci(CastlingMode::Standard).to_string() == mv.to_string());
        Ok(found.map(|m| {
            let mut next = pos.clone();
            next.play_unchecked(m);
            fen_of(&next)
        }))
    }

    fn think_with(&self, fen: &Fen, _: Search) -> Result<Thought, EngineError> {
        self.thought.fetch_add(1, Ordering::SeqCst);
        let pos = position(fen);
        let reply = match best(&pos) {
            None => Reply::NoMove(status(&pos)),
            Some(m) => {
                let mut next = pos.clone();
                next.play_unchecked(m);
                Reply::Move(MoveReply::new(uci(&m), fen_of(&next), status(&next)))
            }
        };
        let mut pv = Vec::new();
        if let Reply::Move(reply) = &reply {
            pv.push(reply.mv);
            pv.extend(best(&position(&reply.fen_after)).map(|m| uci(&m)));
        }
        Ok(Thought {
            reply,
            report: SearchReport {
                score: Some(Score::Cp(-12)),
                depth: None,
                nodes: Some(7),
                pv,
                multipv: Vec::new(),
            },
        })
    }

    fn children(&self, fen: &Fen) -> Result<Vec<(UciMove, Fen)>, EngineError> {
        let pos = position(fen);
        Ok(pos
            .legal_moves()
            .into_iter()
            .map(|m| {
                let mut next = pos.clone();
                next.play_unchecked(m);
                (uci(&m), fen_of(&next))
            })
            .collect())
    }
}

/// The fake engine's choice: a queen promotion if any, else the largest UCI text.
fn best(pos: &Chess) -> Option<shakmaty::Move> {
    pos.legal_moves().into_iter().max_by_key(|m| {
        let text = m.to_uci(CastlingMode::Standard).to_string();
        (text.ends_with('q'), text)
    })
}

fn uci(m: &shakmaty::Move) -> UciMove {
    m.to_uci(CastlingMode::Standard)
        .to_string()
        .parse()
        .expect("a UCI move")
}

/// A [`FakeEngine`] shared with the test, so the test can read its counters.
pub struct Shared(pub std::sync::Arc<FakeEngine>);

impl Engine for Shared {
    fn apply(&self, fen: &Fen, mv: UciMove) -> Result<Option<Fen>, EngineError> {
        self.0.apply(fen, mv)
    }
    fn think_with(&self, fen: &Fen, variant: Search) -> Result<Thought, EngineError> {
        self.0.think_with(fen, variant)
    }
    fn children(&self, fen: &Fen) -> Result<Vec<(UciMove, Fen)>, EngineError> {
        self.0.children(fen)
    }
}
