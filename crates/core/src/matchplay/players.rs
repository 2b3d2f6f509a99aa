//! The players of a match: the engine (the rules, through [`Engine`]) and the fixed
//! opponents, which are not this engine: a seeded random mover, a 1-ply material
//! engine, and any UCI engine.
//!
//! The opponents use shakmaty; the engine player only passes FENs to the [`Engine`] and
//! reads its answers.

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::Arc;
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::time::Duration;

use shakmaty::fen::Fen as SFen;
use shakmaty::{CastlingMode, Chess, EnPassantMode, Move, Position, Role};

use crate::engine::reply::Reply;
use crate::engine::runner::{MovePicker, RulesInput};
use crate::notation::fen::Fen;
use crate::uci::Engine;

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
/// "Rules input" in `src/chess/mod.rs`).
fn rules_input(turn: &Turn<'_>) -> Result<RulesInput, String> {
    let history = turn
        .earlier
        .iter()
        .map(|f| f.parse::<Fen>().map_err(|e| format!("{e}")))
        .collect::<Result<Vec<Fen>, String>>()?;
    Ok(RulesInput {
        history,
        searchmoves: Vec::new(),
    })
}

/// A player's move, in UCI, and the FEN it says the move leads to, if it says.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Choice {
    /// The move in UCI (`e2e4`, `e7e8q`, castling as `e1g1`).
    pub uci: String,
    /// The FEN after the move as the player computed it.
    pub fen_after: Option<String>,
}

/// A side in a match.
pub trait Player: Send {
    /// The name written in the PGN and the report.
    fn name(&self) -> String;

    /// Called before each game with the game's number, so seeded players play the same
    /// game whatever order the games run in.
    fn new_game(&mut self, _game: usize) -> Result<(), String> {
        Ok(())
    }

    /// The move to play, or why there is none (the player then forfeits).
    fn choose(&mut self, turn: &Turn<'_>) -> Result<Choice, String>;
}

/// The FEN of a shakmaty position as the engine's contract writes it.
pub fn fen_of(pos: &Chess) -> String {
    SFen::from_position(pos, EnPassantMode::Always).to_string()
}

/// A move in UCI, castling as the king's two-square move.
pub fn uci_of(m: &Move) -> String {
    m.to_uci(CastlingMode::Standard).to_string()
}

/// A small seeded generator (SplitMix64): the same seed gives the same games.
#[derive(Clone, Debug)]
pub struct SplitMix(u64);

impl SplitMix {
    /// A generator from a seed.
    pub fn new(seed: u64) -> SplitMix {
        SplitMix(seed)
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// A number in `0..n` (`n > 0`).
    pub fn below(&mut self, n: usize) -> usize {
        (self.next_u64() % n as u64) as usize
    }
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

    fn new_game(&mut self, game: usize) -> Result<(), String> {
        self.rng = game_rng(self.seed, game);
        Ok(())
    }

    fn choose(&mut self, turn: &Turn<'_>) -> Result<Choice, String> {
        let moves = sorted_moves(turn.pos);
        if moves.is_empty() {
            return Err("no legal move".to_string());
        }
        let m = &moves[self.rng.below(moves.len())];
        Ok(Choice {
            uci: uci_of(m),
            fen_after: None,
        })
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

    fn new_game(&mut self, game: usize) -> Result<(), String> {
        self.rng = game_rng(self.seed, game);
        Ok(())
    }

    fn choose(&mut self, turn: &Turn<'_>) -> Result<Choice, String> {
        let moves = sorted_moves(turn.pos);
        let best = moves
            .iter()
            .map(material_gain)
            .max()
            .ok_or_else(|| "no legal move".to_string())?;
        let best: Vec<&Move> = moves.iter().filter(|m| material_gain(m) == best).collect();
        let m = best[self.rng.below(best.len())];
        Ok(Choice {
            uci: uci_of(m),
            fen_after: None,
        })
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

    fn choose(&mut self, turn: &Turn<'_>) -> Result<Choice, String> {
        let fen: Fen = fen_of(turn.pos).parse().map_err(|e| format!("{e}"))?;
        let input = rules_input(turn)?;
        let thought = self
            .engine
            .think_given(&fen, &input, crate::engine::Search::default_play())
            .map_err(|e| e.to_string())?;
        match thought.reply {
            Reply::Move(reply) => Ok(Choice {
                uci: reply.mv.to_string(),
                fen_after: Some(reply.fen_after.to_string()),
            }),
            Reply::NoMove(status) => Err(format!("the engine says there is no move: {status}")),
        }
    }
}

/// A search variant of the rules (see [`crate::engine::search`]), run directly by its
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

    fn choose(&mut self, turn: &Turn<'_>) -> Result<Choice, String> {
        let fen: Fen = fen_of(turn.pos).parse().map_err(|e| format!("{e}"))?;
        let input = rules_input(turn)?;
        match self
            .picker
            .run_with(&fen, &input)
            .map_err(|e| e.to_string())?
        {
            Reply::Move(reply) => Ok(Choice {
                uci: reply.mv.to_string(),
                fen_after: Some(reply.fen_after.to_string()),
            }),
            Reply::NoMove(status) => Err(format!("the rules say there is no move: {status}")),
        }
    }
}

/// How a UCI opponent is started and asked.
#[derive(Clone, Debug, Default)]
pub struct UciSettings {
    /// The engine's executable.
    pub path: String,
    /// `setoption` pairs, sent after `uci`.
    pub options: Vec<(String, String)>,
    /// `go depth N`, when set.
    pub depth: Option<u32>,
    /// `go movetime MS`, when set (with neither, `go depth 1`).
    pub movetime: Option<u64>,
    /// How long the engine may take to answer one command ([`UCI_TIMEOUT`] when `None`).
    pub timeout: Option<Duration>,
}

/// How long a UCI opponent may take to answer one command by default.
pub const UCI_TIMEOUT: Duration = Duration::from_secs(60);

/// An external engine spoken to through UCI.
pub struct UciPlayer {
    settings: UciSettings,
    name: String,
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<String>,
}

impl UciPlayer {
    /// Starts the engine, sends `uci` and the options, and waits for `readyok`.
    pub fn start(settings: UciSettings) -> Result<UciPlayer, String> {
        let mut child = Command::new(&settings.path)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .map_err(|e| format!("cannot start {}: {e}", settings.path))?;
        let stdin = child.stdin.take().expect("piped stdin");
        let stdout = child.stdout.take().expect("piped stdout");
        let (send, lines) = mpsc::channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if send.send(line).is_err() {
                    break;
                }
            }
        });
        let mut player = UciPlayer {
            name: settings.path.clone(),
            settings,
            child,
            stdin,
            lines,
        };
        player.send("uci")?;
        let id = player.wait_for("uciok")?;
        if let Some(name) = id
            .iter()
            .find_map(|line| line.strip_prefix("id name "))
            .map(str::to_string)
        {
            player.name = name;
        }
        for (name, value) in player.settings.options.clone() {
            player.send(&format!("setoption name {name} value {value}"))?;
        }
        player.send("isready")?;
        player.wait_for("readyok")?;
        Ok(player)
    }

    fn send(&mut self, line: &str) -> Result<(), String> {
        writeln!(self.stdin, "{line}")
            .and_then(|()| self.stdin.flush())
            .map_err(|e| format!("{}: cannot write: {e}", self.settings.path))
    }

    /// The lines read until one starting with `word`, that line last; an error when the
    /// engine takes longer than the timeout for a line or closes its output first.
    fn wait_for(&mut self, word: &str) -> Result<Vec<String>, String> {
        let timeout = self.settings.timeout.unwrap_or(UCI_TIMEOUT);
        let mut seen = Vec::new();
        loop {
            let line = self.lines.recv_timeout(timeout).map_err(|e| match e {
                RecvTimeoutError::Timeout => format!(
                    "{}: no `{word}` within {:.1}s",
                    self.settings.path,
                    timeout.as_secs_f64()
                ),
                RecvTimeoutError::Disconnected => format!(
                    "{}: the engine ended (closed its output) before `{word}`",
                    self.settings.path
                ),
            })?;
            let done = line.split_whitespace().next() == Some(word);
            seen.push(line);
            if done {
                return Ok(seen);
            }
        }
    }
}

impl Player for UciPlayer {
    fn name(&self) -> String {
        let mut name = self.name.clone();
        let options: Vec<String> = self
            .settings
            .options
            .iter()
            .map(|(n, v)| format!("{n}={v}"))
            .collect();
        if !options.is_empty() {
            name.push_str(&format!(" ({})", options.join(", ")));
        }
        name
    }

    fn new_game(&mut self, _game: usize) -> Result<(), String> {
        self.send("ucinewgame")?;
        self.send("isready")?;
        self.wait_for("readyok").map(|_| ())
    }

    fn choose(&mut self, turn: &Turn<'_>) -> Result<Choice, String> {
        let mut position = format!("position fen {}", turn.start_fen);
        if !turn.moves.is_empty() {
            position.push_str(" moves ");
            position.push_str(&turn.moves.join(" "));
        }
        self.send(&position)?;
        let go = match (self.settings.depth, self.settings.movetime) {
            (_, Some(ms)) => format!("go movetime {ms}"),
            (Some(depth), None) => format!("go depth {depth}"),
            (None, None) => "go depth 1".to_string(),
        };
        self.send(&go)?;
        let lines = self.wait_for("bestmove")?;
        let best = lines
            .last()
            .and_then(|l| l.split_whitespace().nth(1))
            .ok_or_else(|| format!("{}: `bestmove` without a move", self.settings.path))?;
        Ok(Choice {
            uci: best.to_string(),
            fen_after: None,
        })
    }
}

impl Drop for UciPlayer {
    fn drop(&mut self) {
        let _ = self.send("quit");
        for _ in 0..20 {
            if let Ok(Some(_)) = self.child.try_wait() {
                return;
            }
            std::thread::sleep(Duration::from_millis(50));
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
