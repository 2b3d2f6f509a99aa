//! Strength screens: the oracle of a search (`crates/testkit/src/oracle/`), which plays the
//! move the rules of that search play, in a match against Stockfish, in plain Rust and so
//! hundreds of times faster than the rules. They screen the search and evaluation choices
//! before the rules are written and before the long matches of `regex-chess match` that
//! measure the engine itself (docs/strength.md). Ignored: they need Stockfish and time.
//! New designs, with their cost in state, are judged in the search lab
//! (`tests/chess/search_lab.rs`); this screen keeps the registered variants' oracles.
//!
//! ```sh
//! SCREEN=NAME [SCREEN_GAMES=120] [SCREEN_JOBS=2] [SCREEN_PGN=FILE] \
//!   [SCREEN_OPTIONS="Skill Level=0"] [SCREEN_DEPTH=1 | SCREEN_MOVETIME=100] \
//!   cargo test --release --test chess -- strength_screen:: --ignored --nocapture
//! ```
//!
//! `NAME` is a variant of `crates/testkit/src/oracle/variants.rs` (`2ply-qe` and the others) or a
//! deeper search written `deep` followed by `,key=value` settings of
//! [`oracle::deep::Deep`]: `tables=simplified|tapered|bucketed`, `see=0|1`,
//! `plies=2|3`, `candidates=N|all`, `qall=0|1`.
//! `SCREEN_OPTIONS` lists Stockfish's options separated by `;`. Past 120 games the
//! schedule (60 openings, both colours) starts again.

use regex_chess_testkit::oracle;

use std::fs;
use std::sync::Arc;

use oracle::deep::{Deep, Tables};
use oracle::history::{self, Input};
use oracle::variants::Spec;
use regex_chess_chess::positions;
use regex_chess_engine::matchplay::players::{
    OpponentSettings, PlayedMove, Player, Turn, UciPlayer,
};
use regex_chess_engine::matchplay::{
    MatchConfig, MatchError, MatchProgress, Summary, pgn, read_openings, run_match, schedule,
};
use shakmaty::Chess;

/// A search the oracle plays.
type Search = Arc<dyn Fn(&Chess, &Input) -> Option<String> + Send + Sync>;

/// The search named `name` (see the module's docs).
fn search_named(name: &str) -> Search {
    if let Some(settings) = name.strip_prefix("deep") {
        let mut d = Deep {
            tables: Tables::Simplified,
            see: false,
            plies: 3,
            candidates: usize::MAX,
            q_everywhere: false,
        };
        for setting in settings.split(',').filter(|s| !s.is_empty()) {
            let (key, value) = setting.split_once('=').expect("key=value");
            match key {
                "tables" => {
                    d.tables = match value {
                        "simplified" => Tables::Simplified,
                        "tapered" => Tables::Tapered { bucketed: false },
                        "bucketed" => Tables::Tapered { bucketed: true },
                        other => panic!("tables {other}"),
                    }
                }
                "see" => d.see = value == "1",
                "plies" => d.plies = value.parse().expect("plies"),
                "candidates" => {
                    d.candidates = match value {
                        "all" => usize::MAX,
                        n => n.parse().expect("candidates"),
                    }
                }
                "qall" => d.q_everywhere = value == "1",
                other => panic!("unknown setting {other}"),
            }
        }
        return Arc::new(move |pos, input| history::deep_search(&d, pos, input).map(|s| s.best));
    }
    let spec = Spec::of(name);
    Arc::new(move |pos, input| history::search(spec, pos, input).map(|s| s.best))
}

/// The oracle as a match player.
struct OraclePlayer {
    name: String,
    search: Search,
}

impl Player for OraclePlayer {
    fn name(&self) -> String {
        self.name.clone()
    }

    fn choose(&mut self, turn: &Turn<'_>) -> Result<PlayedMove, MatchError> {
        history::played_move(turn, |pos, input| (self.search)(pos, input))
    }
}

fn env(name: &str) -> Option<String> {
    std::env::var(name).ok().filter(|v| !v.is_empty())
}

#[test]
#[ignore = "a screen: SCREEN=NAME cargo test --release --test chess -- strength_screen:: --ignored --nocapture"]
fn screen() {
    let name = env("SCREEN").unwrap_or_else(|| "2ply-qe".to_string());
    let games: usize = env("SCREEN_GAMES").map_or(120, |g| g.parse().expect("games"));
    let jobs: usize = env("SCREEN_JOBS").map_or(2, |j| j.parse().expect("jobs"));
    let stockfish = env("SCREEN_STOCKFISH").unwrap_or_else(|| "/usr/games/stockfish".to_string());
    if !std::path::Path::new(&stockfish).exists() {
        oracle::engine::require_tool("screen", "stockfish");
        return;
    }
    let options: Vec<(String, String)> = env("SCREEN_OPTIONS")
        .unwrap_or_else(|| "Skill Level=0".to_string())
        .split(';')
        .filter(|o| !o.is_empty())
        .map(|o| {
            let (k, v) = o.split_once('=').expect("NAME=VALUE");
            (k.to_string(), v.to_string())
        })
        .collect();
    let movetime = env("SCREEN_MOVETIME").map(|m| m.parse().expect("ms"));
    let depth = match movetime {
        Some(_) => None,
        None => Some(env("SCREEN_DEPTH").map_or(1, |d| d.parse().expect("depth"))),
    };
    let settings = OpponentSettings {
        path: stockfish,
        args: Vec::new(),
        options,
        depth,
        movetime,
        timeout: None,
    };
    let openings = read_openings(positions::OPENINGS).expect("the built-in openings");
    // Past the 120 games of one schedule, the schedule again (Stockfish's choices vary).
    let one = schedule(openings.len(), None, None);
    let pairings = (0..games)
        .map(|n| regex_chess_engine::matchplay::Pairing {
            number: n,
            ..one[n % one.len()]
        })
        .collect();
    let config = MatchConfig {
        pairings,
        openings,
        max_plies: 300,
        jobs,
        sprt: None,
    };
    let search = search_named(&name);
    let engine = || -> Result<Box<dyn Player>, MatchError> {
        Ok(Box::new(OraclePlayer {
            name: format!("regex-chess-oracle {name}"),
            search: search.clone(),
        }))
    };
    let opponent = || -> Result<Box<dyn Player>, MatchError> {
        Ok(Box::new(UciPlayer::start(settings.clone())?))
    };
    let progress = |p: &MatchProgress<'_>| {
        let g = p.game;
        eprintln!(
            "game {}: {:?} ({})",
            g.number + 1,
            g.outcome,
            g.termination.kind()
        );
    };
    let records = run_match(&config, &engine, &opponent, &progress)
        .expect("the match")
        .games;
    if let Some(path) = env("SCREEN_PGN") {
        let text: String = records.iter().map(|g| pgn::game_pgn(g, &name)).collect();
        fs::write(path, text).expect("the PGN");
    }
    let summary = Summary::of(&records);
    println!("{}", summary.report(&name, "stockfish"));
}
