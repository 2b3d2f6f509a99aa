//! Matches: the engine against an opponent from seeded deals, each deal played twice
//! with the seats swapped (so the luck of the deal cancels), games in parallel on std
//! threads, and the counters of the disasters a score hides.
//!
//! The referee ([`play_game`]) owns the deal and tells the players only what each flip
//! revealed, through the game; a move that is not legal, no answer, or a panic loses the
//! game for whoever made it and is counted. Disasters, counted for the engine: its
//! general lost; a draw while it was clearly ahead in material (at least
//! [`CLEARLY_AHEAD`] piece-value points, face-down pieces counted); material shed before
//! a draw (at least [`SHED`] points less in the last [`SHED_PLIES`] plies of a drawn game).

use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};

use crate::deal::Deal;
use crate::eval::{EvalConfig, material};
use crate::game::{DrawRules, Game, Outcome};
use crate::piece::{Colour, Kind, Piece};
use crate::player::Player;
use crate::position::Position;
use crate::search::Limits;
use crate::stats::Tally;

/// Material lead, in piece-value points, that counts as clearly ahead.
pub const CLEARLY_AHEAD: i32 = 10;
/// Material lost, in points, that counts as shed.
pub const SHED: i32 = 4;
/// The plies before a draw in which shedding is counted.
pub const SHED_PLIES: usize = 20;
/// A game still going after this many plies is a draw (never reached under the rules'
/// draw counters in practice; a guard).
pub const MAX_PLIES: usize = 4000;

/// What went wrong with a player's answer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Fault {
    /// A move that is not legal.
    Illegal(String),
    /// No move while moves exist.
    NoMove,
    /// The player panicked.
    Crash,
}

/// A finished game between two seats (seat 0 moves first).
#[derive(Clone, Debug)]
pub struct Played {
    /// The game as the referee saw it.
    pub game: Game,
    /// A fault and the seat that made it; the game was lost by that seat.
    pub fault: Option<(usize, Fault)>,
}

impl Played {
    /// The winning seat, `None` for a draw.
    pub fn winner_seat(&self) -> Option<usize> {
        if let Some((seat, _)) = self.fault {
            return Some(1 - seat);
        }
        let winner = self.game.outcome()?.winner()?;
        Some(if Some(winner) == self.game.first_colour() {
            0
        } else {
            1
        })
    }

    /// The colour of `seat`, once the first flip has decided.
    pub fn colour_of(&self, seat: usize) -> Option<Colour> {
        let first = self.game.first_colour()?;
        Some(if seat == 0 { first } else { first.other() })
    }
}

/// Plays one game from `deal`, `players[0]` first.
pub fn play_game(
    deal: &Deal,
    players: [&mut dyn Player; 2],
    limits: [Limits; 2],
    rules: DrawRules,
) -> Played {
    let mut game = Game::new(rules);
    let [first, second] = players;
    first.new_game();
    second.new_game();
    let mut seats = [first, second];
    for ply in 0..MAX_PLIES {
        if game.outcome().is_some() {
            break;
        }
        let seat = ply % 2;
        let view = game.clone();
        let answer = catch_unwind(AssertUnwindSafe(|| seats[seat].choose(&view, limits[seat])));
        let mv = match answer {
            Err(_) => {
                return Played {
                    game,
                    fault: Some((seat, Fault::Crash)),
                };
            }
            Ok(None) => {
                return Played {
                    game,
                    fault: Some((seat, Fault::NoMove)),
                };
            }
            Ok(Some(mv)) => mv,
        };
        let revealed = if mv.is_flip() {
            deal.under(mv.from())
        } else {
            None
        };
        if game.play(mv, revealed).is_err() {
            return Played {
                game,
                fault: Some((seat, Fault::Illegal(mv.to_string()))),
            };
        }
    }
    Played { game, fault: None }
}

/// One game of a match, from the engine's side.
#[derive(Clone, Debug)]
pub struct Record {
    /// The deal's number.
    pub deal: usize,
    /// Whether the engine moved first.
    pub engine_first: bool,
    /// 1, 1/2 or 0.
    pub points: f64,
    /// How it ended (`None`: a fault, or the ply guard).
    pub outcome: Option<Outcome>,
    /// A fault, and whether the engine made it.
    pub fault: Option<(bool, Fault)>,
    /// Plies played.
    pub plies: usize,
    /// The engine's general was captured.
    pub general_lost: bool,
    /// A draw while the engine was clearly ahead.
    pub won_drawn: bool,
    /// The engine shed material before a draw.
    pub shed_before_draw: bool,
    /// The moves, flips with their pieces (`a0a0=h`).
    pub moves: String,
}

fn points_of(colour: Colour, position: &Position) -> i32 {
    let config = EvalConfig::ALL;
    (material(position, colour, &config) - material(position, colour.other(), &config)) / 16
}

/// Judges a played game for the engine sitting in `engine_seat`.
pub fn record(deal: usize, engine_seat: usize, played: &Played) -> Record {
    let game = &played.game;
    let winner = played.winner_seat();
    let points = match winner {
        None => 0.5,
        Some(seat) if seat == engine_seat => 1.0,
        Some(_) => 0.0,
    };
    let colour = played.colour_of(engine_seat);
    let mut positions = vec![*game.start()];
    let mut replay = *game.start();
    for &(mv, revealed) in game.moves() {
        replay.play_unchecked(mv, revealed);
        positions.push(replay);
    }
    let last = positions[positions.len() - 1];
    let (mut general_lost, mut won_drawn, mut shed) = (false, false, false);
    if let Some(us) = colour {
        let general = Piece::new(us, Kind::General);
        general_lost = last.pieces(general).is_empty() && last.pool().count(general) == 0;
        if winner.is_none() && played.fault.is_none() {
            let lead = points_of(us, &last);
            won_drawn = lead >= CLEARLY_AHEAD;
            let before = positions[positions.len().saturating_sub(SHED_PLIES + 1)];
            shed = points_of(us, &before) - lead >= SHED;
        }
    }
    let moves = game
        .moves()
        .iter()
        .map(|(mv, piece)| piece.map_or(mv.to_string(), |p| format!("{mv}={p}")))
        .collect::<Vec<_>>()
        .join(" ");
    Record {
        deal,
        engine_first: engine_seat == 0,
        points,
        outcome: game.outcome(),
        fault: played
            .fault
            .clone()
            .map(|(seat, f)| (seat == engine_seat, f)),
        plies: game.moves().len(),
        general_lost,
        won_drawn,
        shed_before_draw: shed,
        moves,
    }
}

/// What a match needs.
pub struct MatchSpec<'a> {
    /// Deals (each played twice).
    pub deals: usize,
    /// The first deal's seed; deal `i` uses `seed + i`.
    pub seed: u64,
    /// Games at once.
    pub jobs: usize,
    /// The draw rule.
    pub rules: DrawRules,
    /// The engine's limits a move.
    pub engine_limits: Limits,
    /// The opponent's limits a move.
    pub opponent_limits: Limits,
    /// Makes the engine (a fresh one per job).
    pub engine: &'a (dyn Fn() -> Box<dyn Player> + Sync),
    /// Makes the opponent from a seed (a fresh one per game).
    pub opponent: &'a (dyn Fn(u64) -> Box<dyn Player> + Sync),
}

/// The sums of a match.
#[derive(Clone, Debug, Default)]
pub struct Summary {
    /// The engine's wins, draws and losses.
    pub tally: Tally,
    /// Illegal moves by the engine and by the opponent.
    pub illegal: [u32; 2],
    /// Crashes (panics or no answer) by the engine and by the opponent.
    pub crashes: [u32; 2],
    /// The engine's general lost.
    pub general_lost: u32,
    /// Draws while the engine was clearly ahead.
    pub won_drawn: u32,
    /// Draws after the engine shed material.
    pub shed_before_draw: u32,
    /// Draws by repetition and by no progress.
    pub draws_by: [u32; 2],
    /// Plies over all games.
    pub plies: usize,
}

impl Summary {
    /// Adds a game.
    pub fn add(&mut self, r: &Record) {
        match r.points {
            p if p > 0.75 => self.tally.wins += 1,
            p if p < 0.25 => self.tally.losses += 1,
            _ => self.tally.draws += 1,
        }
        if let Some((by_engine, fault)) = &r.fault {
            let who = usize::from(!*by_engine);
            match fault {
                Fault::Illegal(_) => self.illegal[who] += 1,
                Fault::NoMove | Fault::Crash => self.crashes[who] += 1,
            }
        }
        self.general_lost += u32::from(r.general_lost);
        self.won_drawn += u32::from(r.won_drawn);
        self.shed_before_draw += u32::from(r.shed_before_draw);
        match r.outcome {
            Some(Outcome::DrawRepetition) => self.draws_by[0] += 1,
            Some(Outcome::DrawNoProgress(_)) => self.draws_by[1] += 1,
            _ => {}
        }
        self.plies += r.plies;
    }
}

/// Plays the match; `progress` sees each game as it ends (with the games done so far).
/// Records come back in schedule order (deal 0 engine first, deal 0 engine second, ...).
pub fn run(spec: &MatchSpec, progress: &(dyn Fn(&Record, usize) + Sync)) -> Vec<Record> {
    let total = spec.deals * 2;
    let next = AtomicUsize::new(0);
    let done = AtomicUsize::new(0);
    let records: Mutex<Vec<Option<Record>>> = Mutex::new(vec![None; total]);
    std::thread::scope(|scope| {
        for _ in 0..spec.jobs.max(1) {
            scope.spawn(|| {
                let mut engine = (spec.engine)();
                loop {
                    let index = next.fetch_add(1, Ordering::SeqCst);
                    if index >= total {
                        break;
                    }
                    let (deal_index, engine_seat) = (index / 2, index % 2);
                    let seed = spec.seed.wrapping_add(deal_index as u64);
                    let deal = Deal::shuffled(seed);
                    let mut opponent = (spec.opponent)(seed ^ 0x5EED_0000 ^ engine_seat as u64);
                    let played = if engine_seat == 0 {
                        let limits = [spec.engine_limits, spec.opponent_limits];
                        play_game(
                            &deal,
                            [engine.as_mut(), opponent.as_mut()],
                            limits,
                            spec.rules,
                        )
                    } else {
                        let limits = [spec.opponent_limits, spec.engine_limits];
                        play_game(
                            &deal,
                            [opponent.as_mut(), engine.as_mut()],
                            limits,
                            spec.rules,
                        )
                    };
                    let r = record(deal_index, engine_seat, &played);
                    let n = done.fetch_add(1, Ordering::SeqCst) + 1;
                    progress(&r, n);
                    if let Ok(mut all) = records.lock() {
                        all[index] = Some(r);
                    }
                }
            });
        }
    });
    records
        .into_inner()
        .unwrap_or_else(|e| e.into_inner())
        .into_iter()
        .flatten()
        .collect()
}
