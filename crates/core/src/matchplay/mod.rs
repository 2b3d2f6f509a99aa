//! Matches against fixed opponents: how strong the engine is, measured.
//!
//! A match plays the engine against one opponent from every opening of an openings
//! file, once with each colour (paired games, so that an opening's bias cancels out).
//! shakmaty checks every move and adjudicates ([`game`]); the opponents are not this
//! engine ([`players`]); the report gives wins, draws and losses, the score, the Elo
//! difference with a 95% interval ([`elo`]), how the games ended, and pathology counters
//! ([`pathology`]). Games can be written as PGN ([`pgn`]).
//!
//! The engine itself is only ever asked through [`crate::uci::Engine`]: in the binary
//! that is [`crate::uci::RulesEngine`], whose moves come from the rules.

pub mod elo;
pub mod game;
pub mod outcome;
pub mod pathology;
pub mod pgn;
pub mod players;

use std::collections::BTreeMap;
use std::fmt::Write;
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};

use shakmaty::{Chess, Color};

use elo::EloEstimate;
use game::{GameRecord, play_game};
use outcome::Outcome;
use pathology::Pathologies;
use players::Player;

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
pub fn read_openings(text: &str) -> Result<Vec<Opening>, String> {
    let mut openings = Vec::new();
    for (number, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let fen = line.split(';').next().unwrap_or("").trim().to_string();
        let pos = game::parse_position(&fen).map_err(|e| format!("line {}: {e}", number + 1))?;
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
}

/// Builds a player for a worker (each worker has its own engine process, say).
pub type MakePlayer<'a> = dyn Fn() -> Result<Box<dyn Player>, String> + Sync + 'a;

/// Plays the match: `engine` against `opponent`, `config.jobs` games at a time. Games
/// are returned in schedule order; `progress` is called as each one ends.
pub fn run_match(
    config: &MatchConfig,
    engine: &MakePlayer<'_>,
    opponent: &MakePlayer<'_>,
    progress: &(dyn Fn(&GameRecord) + Sync),
) -> Result<Vec<GameRecord>, String> {
    let next = AtomicUsize::new(0);
    let results: Mutex<Vec<GameRecord>> = Mutex::new(Vec::new());
    let errors: Mutex<Vec<String>> = Mutex::new(Vec::new());
    let jobs = config.jobs.clamp(1, config.pairings.len().max(1));
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
                    progress(&record);
                    results.lock().unwrap().push(record);
                }
            });
        }
    });
    let errors = errors.into_inner().unwrap();
    if let Some(e) = errors.first() {
        return Err(e.clone());
    }
    let mut games = results.into_inner().unwrap();
    games.sort_by_key(|g| g.number);
    Ok(games)
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
        for g in games {
            let engine = g.engine.unwrap_or(Color::White);
            match g.outcome {
                Outcome::Draw => s.draws += 1,
                Outcome::Win(c) if c == engine => s.wins += 1,
                Outcome::Win(_) => {
                    s.losses += 1;
                    if let outcome::Termination::Forfeit(why) = &g.termination {
                        s.engine_forfeits
                            .push(format!("game {}: {why}", g.number + 1));
                    }
                }
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
                .starts_with("line 1: ")
        );
    }
}
