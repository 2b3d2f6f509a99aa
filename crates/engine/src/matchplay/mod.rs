//! Matches against fixed opponents: how strong the engine is, measured.
//!
//! A match plays the engine against one opponent from every opening of an openings
//! file, once with each colour (paired games, so that an opening's bias cancels out).
//! shakmaty checks every move and adjudicates ([`game`]); the opponents are not this
//! engine ([`players`]); the report gives wins, draws and losses, the score, the Elo
//! difference with a 95% interval ([`regex_chess_arena::elo`]), how the games ended, and pathology counters
//! ([`pathology`]). Games can be written as PGN ([`pgn`]), and the match's result as one
//! JSON line ([`results`]), what the charts are drawn from.
//!
//! A match can stop early: with a sequential probability ratio test ([`regex_chess_arena::sprt`]) in its
//! [`MatchConfig`], no game starts once the test has decided (the games already under
//! way are finished and kept). [`run_match`] reports each finished game to its caller
//! with the running totals ([`MatchProgress`]), which is how the command line draws its
//! progress: nothing here prints.
//!
//! The engine itself is only ever asked through [`crate::uci::Engine`]: in the binary
//! that is [`crate::uci::RulesEngine`], whose moves come from the rules.

pub mod error;
pub mod game;
pub mod outcome;
pub mod pathology;
pub mod pgn;
pub mod players;
pub mod results;

use std::collections::BTreeMap;
use std::fmt::Write;
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

use shakmaty::{Chess, Color};

pub use error::MatchError;
use game::{GameRecord, play_game};
use outcome::Outcome;
use pathology::Pathologies;
use players::Player;
use regex_chess_arena::elo::{self, EloEstimate};
use regex_chess_arena::sprt::{Sprt, Verdict};

/// An opening: a FEN line of the openings file.
#[derive(Clone, Debug)]
pub struct Opening {
    /// Its number among the openings (from 0).
    pub index: usize,
    /// The FEN.
    pub fen: String,
    /// The position.
    pub pos: Chess,
}

/// Reads an openings file: one `FEN` or `FEN;eval` a line; blank lines and lines
/// starting with `#` are skipped.
pub fn read_openings(text: &str) -> Result<Vec<Opening>, MatchError> {
    let mut openings = Vec::new();
    for (number, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let fen = line.split(';').next().unwrap_or("").trim().to_string();
        let pos = game::parse_position(&fen).map_err(|problem| MatchError::Opening {
            line: number + 1,
            problem: Box::new(problem),
        })?;
        openings.push(Opening {
            index: openings.len(),
            fen,
            pos,
        });
    }
    Ok(openings)
}

/// One game to play: which opening, and which colour the engine has.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Pairing {
    /// The game's number.
    pub number: usize,
    /// The opening's index.
    pub opening: usize,
    /// The engine's colour.
    pub engine: Color,
}

/// The games of a match: each of the first `openings` openings (all when `None`) with
/// the engine white then black, cut to the first `games` games when given.
pub fn schedule(count: usize, openings: Option<usize>, games: Option<usize>) -> Vec<Pairing> {
    let openings = openings.unwrap_or(count).min(count);
    let mut pairings: Vec<Pairing> = (0..openings)
        .flat_map(|opening| [(opening, Color::White), (opening, Color::Black)])
        .enumerate()
        .map(|(number, (opening, engine))| Pairing {
            number,
            opening,
            engine,
        })
        .collect();
    if let Some(games) = games {
        pairings.truncate(games);
    }
    pairings
}

/// What a match needs besides its players.
#[derive(Clone, Debug)]
pub struct MatchConfig {
    /// The openings.
    pub openings: Vec<Opening>,
    /// The games, in order.
    pub pairings: Vec<Pairing>,
    /// The move cap, in plies from the opening.
    pub max_plies: usize,
    /// How many games run at once.
    pub jobs: usize,
    /// The test that stops the match early, if any.
    pub sprt: Option<Sprt>,
}

/// Builds a player for a worker (each worker has its own engine process, say).
pub type MakePlayer<'a> = dyn Fn() -> Result<Box<dyn Player>, MatchError> + Sync + 'a;

/// The engine's wins, draws and losses so far.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Tally {
    /// Games won.
    pub wins: u32,
    /// Games drawn.
    pub draws: u32,
    /// Games lost.
    pub losses: u32,
}

impl Tally {
    /// Counts `game` from the engine's side (white's when neither side is the engine).
    pub fn add(&mut self, game: &GameRecord) {
        let engine = game.engine.unwrap_or(Color::White);
        match game.outcome {
            Outcome::Draw => self.draws += 1,
            Outcome::Win(c) if c == engine => self.wins += 1,
            Outcome::Win(_) => self.losses += 1,
        }
    }

    /// The games counted.
    pub fn games(&self) -> u32 {
        self.wins + self.draws + self.losses
    }

    /// The Elo estimate of the games counted (`None` before any).
    pub fn elo(&self) -> Option<EloEstimate> {
        EloEstimate::from_results(self.wins, self.draws, self.losses)
    }
}

/// Where a match stands when a game ends: what [`run_match`] tells its caller.
#[derive(Clone, Copy, Debug)]
pub struct MatchProgress<'a> {
    /// The game that ended.
    pub game: &'a GameRecord,
    /// The games ended so far, this one included.
    pub done: usize,
    /// The games scheduled.
    pub total: usize,
    /// The engine's results so far.
    pub tally: Tally,
    /// The test's log-likelihood ratio so far, with a test.
    pub llr: Option<f64>,
    /// The test's verdict, once it has decided (no game starts after that).
    pub verdict: Option<Verdict>,
}

/// How a sequential probability ratio test ended.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SprtOutcome {
    /// The test.
    pub test: Sprt,
    /// The accepted hypothesis; `None` when the schedule ran out first.
    pub verdict: Option<Verdict>,
    /// The log-likelihood ratio when it decided (or after the last game).
    pub llr: f64,
    /// The engine's results when it decided (or after the last game).
    pub tally: Tally,
}

impl SprtOutcome {
    /// The outcome in one line: `SPRT (elo0 0, ...): H1 accepted ... after 37 games (LLR
    /// 2.97, bounds -2.94 to 2.94)`.
    pub fn describe(&self) -> String {
        let (lower, upper) = self.test.bounds();
        let verdict = self.verdict.map_or_else(
            || "no decision: the schedule ended first".to_string(),
            |v| v.describe(&self.test),
        );
        format!(
            "SPRT ({}): {verdict} after {} games (LLR {:.2}, bounds {:.2} to {:.2})",
            self.test.describe(),
            self.tally.games(),
            self.llr,
            lower,
            upper
        )
    }
}

/// What a match gives: its games, and how its test ended, if it had one.
#[derive(Clone, Debug)]
pub struct MatchResult {
    /// The games played, in schedule order.
    pub games: Vec<GameRecord>,
    /// The test's outcome.
    pub sprt: Option<SprtOutcome>,
}

/// The totals kept while games end, in the order they end.
#[derive(Debug, Default)]
struct Running {
    done: usize,
    tally: Tally,
    decided: Option<SprtOutcome>,
}

/// Plays the match: `engine` against `opponent`, `config.jobs` games at a time. Games
/// are returned in schedule order; `progress` is called as each one ends, with the
/// totals so far (one call at a time).
pub fn run_match(
    config: &MatchConfig,
    engine: &MakePlayer<'_>,
    opponent: &MakePlayer<'_>,
    progress: &(dyn Fn(&MatchProgress<'_>) + Sync),
) -> Result<MatchResult, MatchError> {
    let next = AtomicUsize::new(0);
    let stop = AtomicBool::new(false);
    let running = Mutex::new(Running::default());
    let results: Mutex<Vec<GameRecord>> = Mutex::new(Vec::new());
    let errors: Mutex<Vec<MatchError>> = Mutex::new(Vec::new());
    let jobs = config.jobs.clamp(1, config.pairings.len().max(1));
    let total = config.pairings.len();
    // Counts a finished game, runs the test, and tells the caller.
    let finished = |record: &GameRecord| {
        let mut run = running.lock().unwrap();
        run.done += 1;
        run.tally.add(record);
        let mut llr = None;
        if let Some(test) = config.sprt {
            let value = test.llr(run.tally.wins, run.tally.draws, run.tally.losses);
            llr = Some(value);
            if run.decided.is_none()
                && let Some(verdict) = test.verdict(value)
            {
                run.decided = Some(SprtOutcome {
                    test,
                    verdict: Some(verdict),
                    llr: value,
                    tally: run.tally,
                });
                stop.store(true, Ordering::SeqCst);
            }
        }
        progress(&MatchProgress {
            game: record,
            done: run.done,
            total,
            tally: run.tally,
            llr,
            verdict: run.decided.and_then(|d| d.verdict),
        });
    };
    std::thread::scope(|scope| {
        for _ in 0..jobs {
            scope.spawn(|| {
                let players = engine().and_then(|e| opponent().map(|o| (e, o)));
                let (mut ours, mut theirs) = match players {
                    Ok(players) => players,
                    Err(e) => {
                        errors.lock().unwrap().push(e);
                        return;
                    }
                };
                loop {
                    if stop.load(Ordering::SeqCst) {
                        break;
                    }
                    let i = next.fetch_add(1, Ordering::SeqCst);
                    let Some(pairing) = config.pairings.get(i) else {
                        break;
                    };
                    let opening = &config.openings[pairing.opening];
                    let (white, black): (&mut dyn Player, &mut dyn Player) =
                        if pairing.engine == Color::White {
                            (ours.as_mut(), theirs.as_mut())
                        } else {
                            (theirs.as_mut(), ours.as_mut())
                        };
                    let record = play_game(
                        pairing.number,
                        opening.index,
                        &opening.pos,
                        white,
                        black,
                        Some(pairing.engine),
                        config.max_plies,
                    );
                    finished(&record);
                    results.lock().unwrap().push(record);
                }
            });
        }
    });
    if let Some(e) = errors.into_inner().unwrap().into_iter().next() {
        return Err(e);
    }
    let mut games = results.into_inner().unwrap();
    games.sort_by_key(|g| g.number);
    let run = running.into_inner().unwrap();
    let sprt = config.sprt.map(|test| {
        run.decided.unwrap_or(SprtOutcome {
            test,
            verdict: None,
            llr: test.llr(run.tally.wins, run.tally.draws, run.tally.losses),
            tally: run.tally,
        })
    });
    Ok(MatchResult { games, sprt })
}

/// The totals of a match, from the engine's view.
#[derive(Clone, Debug, Default)]
pub struct Summary {
    /// Games won.
    pub wins: u32,
    /// Games drawn.
    pub draws: u32,
    /// Games lost.
    pub losses: u32,
    /// How the games ended, by kind.
    pub terminations: BTreeMap<&'static str, u32>,
    /// The engine's pathologies, summed.
    pub pathologies: Pathologies,
    /// Games the engine lost by forfeit, with the reason.
    pub engine_forfeits: Vec<String>,
    /// Each pathology, with its game, move and position.
    pub pathology_events: Vec<String>,
    /// Moves after which the engine's FEN differed from shakmaty's.
    pub fen_mismatches: Vec<String>,
}

impl Summary {
    /// Adds up `games`.
    pub fn of(games: &[GameRecord]) -> Summary {
        let mut s = Summary::default();
        let mut tally = Tally::default();
        for g in games {
            tally.add(g);
            let engine = g.engine.unwrap_or(Color::White);
            if g.outcome == Outcome::Win(!engine)
                && let outcome::Termination::Forfeit(why) = &g.termination
            {
                s.engine_forfeits
                    .push(format!("game {}: {why}", g.number + 1));
            }
            *s.terminations.entry(g.termination.kind()).or_default() += 1;
            s.pathologies.add(&g.pathologies);
            s.pathology_events.extend(
                g.pathology_events
                    .iter()
                    .map(|e| format!("game {}: {e}", g.number + 1)),
            );
            s.fen_mismatches.extend(
                g.fen_mismatches
                    .iter()
                    .map(|m| format!("game {}: {m}", g.number + 1)),
            );
        }
        (s.wins, s.draws, s.losses) = (tally.wins, tally.draws, tally.losses);
        s
    }

    /// The report printed at the end of a match.
    pub fn report(&self, engine: &str, opponent: &str) -> String {
        let mut out = String::new();
        let games = self.wins + self.draws + self.losses;
        let _ = writeln!(out, "engine:   {engine}");
        let _ = writeln!(out, "opponent: {opponent}");
        let _ = writeln!(
            out,
            "games {games}: +{} ={} -{} (engine's wins, draws, losses)",
            self.wins, self.draws, self.losses
        );
        match EloEstimate::from_results(self.wins, self.draws, self.losses) {
            Some(e) => {
                let _ = writeln!(
                    out,
                    "score {:.1}/{games} = {:.1}%",
                    e.score * f64::from(games),
                    e.score * 100.0
                );
                let _ = writeln!(
                    out,
                    "elo difference {} (95% interval {} to {})",
                    elo::show(e.elo),
                    elo::show(e.low),
                    elo::show(e.high)
                );
            }
            None => {
                let _ = writeln!(out, "no games played");
            }
        }
        let ends: Vec<String> = self
            .terminations
            .iter()
            .map(|(kind, n)| format!("{kind} {n}"))
            .collect();
        let _ = writeln!(out, "endings: {}", ends.join(", "));
        let p = &self.pathologies;
        let _ = writeln!(
            out,
            "pathologies: drawn while 5+ pawns ahead {}, queen left en prise {}, missed mates in one {}",
            p.drawn_while_ahead, p.queen_en_prise, p.missed_mates
        );
        for e in self.pathology_events.iter().take(10) {
            let _ = writeln!(out, "  {e}");
        }
        let _ = writeln!(out, "engine forfeits: {}", self.engine_forfeits.len());
        for f in self.engine_forfeits.iter().take(5) {
            let _ = writeln!(out, "  {f}");
        }
        let _ = writeln!(
            out,
            "engine FEN-after disagreements with shakmaty: {}",
            self.fen_mismatches.len()
        );
        for m in self.fen_mismatches.iter().take(5) {
            let _ = writeln!(out, "  {m}");
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn schedules_paired_games() {
        let s = schedule(3, None, None);
        assert_eq!(s.len(), 6);
        assert_eq!(
            s.iter().map(|p| (p.opening, p.engine)).collect::<Vec<_>>(),
            [
                (0, Color::White),
                (0, Color::Black),
                (1, Color::White),
                (1, Color::Black),
                (2, Color::White),
                (2, Color::Black)
            ]
        );
        assert_eq!(schedule(3, Some(1), None).len(), 2);
        assert_eq!(schedule(3, Some(10), Some(5)).len(), 5);
        assert_eq!(schedule(3, None, Some(4))[3].number, 3);
    }

    #[test]
    fn reads_openings() {
        let text = "# comment\n\nrnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1;30\n8/8/8/8/8/8/8/4K2k w - - 0 1\n";
        let openings = read_openings(text).unwrap();
        assert_eq!(openings.len(), 2);
        assert_eq!(openings[1].index, 1);
        assert!(
            read_openings("nonsense\n")
                .unwrap_err()
                .to_string()
                .starts_with("line 1: bad FEN ")
        );
    }
}
