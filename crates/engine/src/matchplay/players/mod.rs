//! The players of a match: the engine (the rules, through [`Engine`]) and the fixed
//! opponents, which are not this engine: a seeded random mover, a 1-ply material
//! engine, any UCI engine ([`UciPlayer`], in `uci.rs`) and any xboard engine
//! ([`XboardPlayer`], in `xboard.rs`), both run as processes by `process.rs`.
//!
//! The opponents use shakmaty; the engine player only passes FENs to the [`Engine`] and
//! reads its answers. A player that fails returns a [`MatchError`]; in a game, that is a
//! forfeit with the error's text as its reason.

mod process;
mod uci;
mod xboard;

pub use process::{ANSWER_TIMEOUT, Limit, OpponentSettings};
pub use uci::UciPlayer;
pub use xboard::XboardPlayer;

use std::sync::Arc;

use shakmaty::fen::Fen as SFen;
use shakmaty::{CastlingMode, Chess, EnPassantMode, Move, Position, Role};

use super::error::MatchError;
use crate::reply::{MoveReply, Reply, Score};
use crate::runner::{MovePicker, RulesInput};
use crate::uci::Engine;
pub use regex_chess_arena::rng::SplitMix;
use regex_chess_chess::notation::fen::Fen;

/// What a player sees when it is to move.
pub struct Turn<'a> {
    /// The FEN the game started from.
    pub start_fen: &'a str,
    /// The moves played since, in UCI.
    pub moves: &'a [String],
    /// The position now.
    pub pos: &'a Chess,
    /// The FENs of the positions before it, oldest first (the referee's, as
    /// [`fen_of`] writes them): what the engine's search reads as the game's history.
    pub earlier: &'a [String],
}

/// The rules input of the engine's search on `turn`: the earlier positions (see
/// "Rules input" in `crates/chess/src/lib.rs`).
fn rules_input(turn: &Turn<'_>) -> Result<RulesInput, MatchError> {
    let history = turn
        .earlier
        .iter()
        .map(|f| f.parse::<Fen>())
        .collect::<Result<Vec<Fen>, _>>()?;
    Ok(RulesInput {
        history,
        searchmoves: Vec::new(),
    })
}

/// A player's move, in UCI, and what it says about it: the FEN the move leads to, the
/// score and the depth of its search.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PlayedMove {
    /// The move in UCI (`e2e4`, `e7e8q`, castling as `e1g1`).
    pub uci: String,
    /// The FEN after the move as the player computed it.
    pub fen_after: Option<String>,
    /// The player's score of the move, from its own side, when it reports one.
    pub score: Option<Score>,
    /// The plies the player searched, when it reports them.
    pub depth: Option<u32>,
}

impl PlayedMove {
    /// The move `uci`, with nothing said about it.
    pub fn of(uci: impl Into<String>) -> PlayedMove {
        PlayedMove {
            uci: uci.into(),
            ..PlayedMove::default()
        }
    }

    /// The choice the rules made: their move, the FEN after it, their score and depth.
    fn of_rules(reply: &MoveReply) -> PlayedMove {
        PlayedMove {
            uci: reply.mv.to_string(),
            fen_after: Some(reply.fen_after.to_string()),
            score: reply.score,
            depth: reply.depth,
        }
    }
}

/// A side in a match.
pub trait Player: Send {
    /// The name written in the PGN and the report.
    fn name(&self) -> String;

    /// Called before each game with the game's number, so seeded players play the same
    /// game whatever order the games run in.
    fn new_game(&mut self, _game: usize) -> Result<(), MatchError> {
        Ok(())
    }

    /// The move to play, or why there is none (the player then forfeits).
    fn choose(&mut self, turn: &Turn<'_>) -> Result<PlayedMove, MatchError>;
}

/// The FEN of a shakmaty position as the engine's contract writes it.
pub fn fen_of(pos: &Chess) -> String {
    SFen::from_position(pos, EnPassantMode::Always).to_string()
}

/// A move in UCI, castling as the king's two-square move.
pub fn uci_of(m: &Move) -> String {
    m.to_uci(CastlingMode::Standard).to_string()
}

/// The generator for game `game` of a player seeded with `seed`.
fn game_rng(seed: u64, game: usize) -> SplitMix {
    let mut mix = SplitMix::new(seed ^ (game as u64).wrapping_mul(0x2545_f491_4f6c_dd1d));
    mix.next_u64();
    mix
}

/// The legal moves in sorted UCI order, so that a seed picks the same move whatever
/// order the move generator lists them in.
fn sorted_moves(pos: &Chess) -> Vec<Move> {
    let mut moves: Vec<Move> = pos.legal_moves().into_iter().collect();
    moves.sort_by_key(uci_of);
    moves
}

/// Plays a uniformly random legal move.
pub struct RandomPlayer {
    seed: u64,
    rng: SplitMix,
}

impl RandomPlayer {
    /// A random mover with this seed.
    pub fn new(seed: u64) -> RandomPlayer {
        RandomPlayer {
            seed,
            rng: game_rng(seed, 0),
        }
    }
}

impl Player for RandomPlayer {
    fn name(&self) -> String {
        format!("random (seed {})", self.seed)
    }

    fn new_game(&mut self, game: usize) -> Result<(), MatchError> {
        self.rng = game_rng(self.seed, game);
        Ok(())
    }

    fn choose(&mut self, turn: &Turn<'_>) -> Result<PlayedMove, MatchError> {
        let moves = sorted_moves(turn.pos);
        if moves.is_empty() {
            return Err(MatchError::NoLegalMove);
        }
        let m = &moves[self.rng.below(moves.len())];
        Ok(PlayedMove::of(uci_of(m)))
    }
}

/// The material value of a role in pawns: 1, 3, 3, 5, 9, and 0 for the king.
pub fn pawns(role: Role) -> i32 {
    match role {
        Role::Pawn => 1,
        Role::Knight | Role::Bishop => 3,
        Role::Rook => 5,
        Role::Queen => 9,
        Role::King => 0,
    }
}

/// What a move gains in material at once: the captured piece's value plus, for a
/// promotion, the new piece's value less the pawn's.
pub fn material_gain(m: &Move) -> i32 {
    m.capture().map_or(0, pawns) + m.promotion().map_or(0, |r| pawns(r) - 1)
}

/// A 1-ply material engine: plays a move that gains the most material at once
/// ([`material_gain`]: it takes the most valuable piece it can, and promotes to a queen),
/// choosing at random (seeded) among the moves that gain as much.
pub struct MaterialPlayer {
    seed: u64,
    rng: SplitMix,
}

impl MaterialPlayer {
    /// A material engine with this seed.
    pub fn new(seed: u64) -> MaterialPlayer {
        MaterialPlayer {
            seed,
            rng: game_rng(seed, 0),
        }
    }
}

impl Player for MaterialPlayer {
    fn name(&self) -> String {
        format!("material (seed {})", self.seed)
    }

    fn new_game(&mut self, game: usize) -> Result<(), MatchError> {
        self.rng = game_rng(self.seed, game);
        Ok(())
    }

    fn choose(&mut self, turn: &Turn<'_>) -> Result<PlayedMove, MatchError> {
        let moves = sorted_moves(turn.pos);
        let best = moves
            .iter()
            .map(material_gain)
            .max()
            .ok_or(MatchError::NoLegalMove)?;
        let best: Vec<&Move> = moves.iter().filter(|m| material_gain(m) == best).collect();
        let m = best[self.rng.below(best.len())];
        Ok(PlayedMove::of(uci_of(m)))
    }
}

/// The engine: asks the [`Engine`] (the rules, in the binary) for its move in the FEN of
/// the position, and passes on the FEN the rules say the move leads to.
pub struct EnginePlayer {
    name: String,
    engine: Arc<dyn Engine>,
}

impl EnginePlayer {
    /// The engine called `name`.
    pub fn new(name: impl Into<String>, engine: Arc<dyn Engine>) -> EnginePlayer {
        EnginePlayer {
            name: name.into(),
            engine,
        }
    }
}

impl Player for EnginePlayer {
    fn name(&self) -> String {
        self.name.clone()
    }

    fn choose(&mut self, turn: &Turn<'_>) -> Result<PlayedMove, MatchError> {
        let fen: Fen = fen_of(turn.pos).parse()?;
        let input = rules_input(turn)?;
        let thought = self
            .engine
            .think_given(&fen, &input, crate::Search::default_play())?;
        match &thought.reply {
            Reply::Move(reply) => Ok(PlayedMove {
                score: thought.report.score,
                depth: thought.report.depth,
                ..PlayedMove::of_rules(reply)
            }),
            Reply::NoMove(status) => Err(MatchError::NoMove {
                who: "the engine says",
                status: status.to_string(),
            }),
        }
    }
}

/// A search variant of the rules (see [`crate::variants`]), run directly by its
/// program: asks it for its move in the FEN of the position and passes on the FEN the
/// rules say the move leads to. Shared by the workers of a match.
pub struct VariantPlayer {
    name: String,
    picker: Arc<MovePicker>,
}

impl VariantPlayer {
    /// The variant's program, already built, called `name`.
    pub fn new(name: impl Into<String>, picker: Arc<MovePicker>) -> VariantPlayer {
        VariantPlayer {
            name: name.into(),
            picker,
        }
    }
}

impl Player for VariantPlayer {
    fn name(&self) -> String {
        self.name.clone()
    }

    fn choose(&mut self, turn: &Turn<'_>) -> Result<PlayedMove, MatchError> {
        let fen: Fen = fen_of(turn.pos).parse()?;
        let input = rules_input(turn)?;
        match self.picker.run_with(&fen, &input)? {
            Reply::Move(reply) => Ok(PlayedMove::of_rules(&reply)),
            Reply::NoMove(status) => Err(MatchError::NoMove {
                who: "the rules say",
                status: status.to_string(),
            }),
        }
    }
}
