//! `cargo run --release -p regex-chess-banqi --example quick_match OPPONENT DEALS NODES`:
//! a quick match at a node budget for the engine (greedy, random or mctsN at 100 ms).
use regex_chess_banqi::DrawRules;
use regex_chess_banqi::eval::EvalConfig;
use regex_chess_banqi::matches::{MatchSpec, Summary, run};
use regex_chess_banqi::opponents::{Greedy, Mcts, RandomMover};
use regex_chess_banqi::player::{EnginePlayer, Player};
use regex_chess_banqi::search::{Limits, SearchConfig};
use std::time::Duration;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let opponent = args.get(1).cloned().unwrap_or("greedy".into());
    let deals: usize = args.get(2).and_then(|a| a.parse().ok()).unwrap_or(10);
    let nodes: u64 = args.get(3).and_then(|a| a.parse().ok()).unwrap_or(100_000);
    let engine = || {
        Box::new(EnginePlayer::new(
            EvalConfig::default(),
            SearchConfig::default(),
            20,
        )) as Box<dyn Player>
    };
    let opp = |seed: u64| -> Box<dyn Player> {
        match opponent.as_str() {
            "random" => Box::new(RandomMover::new(seed)),
            "greedy" => Box::new(Greedy::new(seed)),
            _ => Box::new(Mcts::new(1_000_000, seed)),
        }
    };
    let spec = MatchSpec {
        deals,
        seed: 1,
        jobs: 2,
        rules: DrawRules::default(),
        engine_limits: Limits {
            nodes: Some(nodes),
            ..Limits::default()
        },
        opponent_limits: Limits {
            time: Some(Duration::from_millis(100)),
            ..Limits::default()
        },
        engine: &engine,
        opponent: &opp,
    };
    let records = run(&spec, &|r, n| {
        eprintln!(
            "{n}: deal {} first {} points {} {:?} plies {} gl {} wd {} shed {}",
            r.deal,
            r.engine_first,
            r.points,
            r.outcome,
            r.plies,
            r.general_lost,
            r.won_drawn,
            r.shed_before_draw
        )
    });
    let mut s = Summary::default();
    for r in &records {
        s.add(r);
    }
    println!(
        "{s:?} score {:.3} elo {:.0} {:?}",
        s.tally.fraction(),
        s.tally.elo(),
        s.tally.elo_interval()
    );
}
