//! The fixed opponents are frozen: on fixed positions and seeds their moves are pinned
//! (a change to any of them fails here, and the recorded strengths in docs/banqi.md would
//! no longer be comparable). Also: the greedy player's rule on positions read by hand, a
//! small match played whole with no fault, and the deal kept from the engine (two deals
//! differing only in pieces still face-down give it the same input and the same moves).

use regex_chess_banqi::bench::POSITIONS;
use regex_chess_banqi::deal::Deal;
use regex_chess_banqi::eval::EvalConfig;
use regex_chess_banqi::matches::{MatchSpec, Summary, run};
use regex_chess_banqi::opponents::{Greedy, Mcts, RandomMover};
use regex_chess_banqi::player::{EnginePlayer, Player};
use regex_chess_banqi::search::{Limits, SearchConfig};
use regex_chess_banqi::square::SQUARES;
use regex_chess_banqi::{DrawRules, Game, Move, Position};

fn answers(player: &mut dyn Player) -> String {
    POSITIONS
        .iter()
        .map(|text| {
            let position: Position = text.parse().unwrap();
            let game = Game::from_position(position, DrawRules::default());
            player
                .choose(&game, Limits::default())
                .map_or("-".into(), |m| m.to_string())
        })
        .collect::<Vec<_>>()
        .join(" ")
}

#[test]
fn the_opponents_moves_are_pinned() {
    assert_eq!(answers(&mut RandomMover::new(42)), PINNED[0], "random");
    assert_eq!(answers(&mut Greedy::new(42)), PINNED[1], "greedy");
    assert_eq!(answers(&mut Mcts::new(300, 42)), PINNED[2], "mcts");
}

const PINNED: [&str; 3] = [
    "g0g0 b2b2 h1h1 e1e1 h3h3 e3f3 f1f2 g1f1",
    "g0g0 b2b2 h1h1 d1d2 c3c2 e3e0 f1f2 h3h3",
    "e1e1 h2h2 b2b2 c0c0 f3f3 g1f1 f1g1 g1f1",
];

#[test]
fn greedy_takes_the_most_valuable_piece_else_flips() {
    let mut greedy = Greedy::new(1);
    let choose = |g: &mut Greedy, text: &str| {
        let game = Game::from_position(text.parse().unwrap(), DrawRules::default());
        g.choose(&game, Limits::default()).unwrap().to_string()
    };
    // The advisor can take the soldier c1 or the horse d2: the horse is worth more.
    assert_eq!(choose(&mut greedy, "8/3h4/2sA4/X7 r S1 0 5"), "d1d2");
    // No capture: the only flip.
    assert_eq!(choose(&mut greedy, "8/8/2S5/X7 r s1 0 5"), "a0a0");
}

#[test]
fn a_small_match_is_played_whole_without_faults() {
    let engine = || {
        Box::new(EnginePlayer::new(
            EvalConfig::default(),
            SearchConfig::default(),
            14,
        )) as Box<dyn Player>
    };
    let random = |seed: u64| Box::new(RandomMover::new(seed)) as Box<dyn Player>;
    let spec = MatchSpec {
        deals: 3,
        seed: 5,
        jobs: 2,
        rules: DrawRules::default(),
        engine_limits: Limits {
            nodes: Some(3_000),
            ..Limits::default()
        },
        opponent_limits: Limits::default(),
        engine: &engine,
        opponent: &random,
    };
    let records = run(&spec, &|_, _| {});
    assert_eq!(records.len(), 6);
    let mut summary = Summary::default();
    records.iter().for_each(|r| summary.add(r));
    assert_eq!(summary.illegal, [0, 0]);
    assert_eq!(summary.crashes, [0, 0]);
    assert!(
        summary.tally.wins >= 5,
        "the engine should beat a random mover: {summary:?}"
    );
    // each deal twice, seats swapped
    assert_eq!(records.iter().filter(|r| r.engine_first).count(), 3);
}

/// Records what the engine is shown at each of its turns, and answers as the engine.
struct Witness {
    engine: EnginePlayer,
    seen: Vec<String>,
}

impl Player for Witness {
    fn name(&self) -> String {
        "witness".into()
    }
    fn choose(&mut self, game: &Game, limits: Limits) -> Option<Move> {
        let input = format!(
            "{} {:?} {:?}",
            game.position(),
            game.since_reset(),
            game.moves()
        );
        let mv = self.engine.choose(game, limits);
        self.seen.push(format!("{input} -> {mv:?}"));
        mv
    }
}

#[test]
fn the_engine_never_sees_the_deal() {
    use regex_chess_banqi::matches::play_game;
    let limits = [
        Limits {
            nodes: Some(2_000),
            ..Limits::default()
        },
        Limits::default(),
    ];
    let play = |deal: &Deal| {
        let mut witness = Witness {
            engine: EnginePlayer::new(EvalConfig::default(), SearchConfig::default(), 12),
            seen: Vec::new(),
        };
        let mut greedy = Greedy::new(3);
        let played = play_game(
            deal,
            [&mut witness, &mut greedy],
            limits,
            DrawRules::default(),
        );
        (played, witness.seen)
    };
    let deal = Deal::shuffled(11);
    let (played, seen) = play(&deal);
    // When each square was first flipped (never: the game's length).
    let mut flipped_at = [played.game.moves().len(); SQUARES];
    for (ply, (mv, _)) in played.game.moves().iter().enumerate().rev() {
        if mv.is_flip() {
            flipped_at[mv.from().index()] = ply;
        }
    }
    let under = |s: usize| deal.under(regex_chess_banqi::Square::from_index(s).unwrap());
    // Two squares holding different pieces, both flipped as late as possible, swapped:
    // until one of them is flipped, the engine must be shown the same and answer the same.
    let (a, b) = (0..SQUARES)
        .flat_map(|a| (0..SQUARES).map(move |b| (a, b)))
        .filter(|&(a, b)| under(a) != under(b))
        .max_by_key(|&(a, b)| (flipped_at[a].min(flipped_at[b]), a, b))
        .unwrap();
    let same_until = flipped_at[a].min(flipped_at[b]);
    let mut swapped: [_; SQUARES] = std::array::from_fn(under);
    swapped.swap(a, b);
    let (_, seen_again) = play(&Deal::from_pieces(swapped));
    // The engine moves at even plies; those up to the first flip of a or b saw the same.
    let engine_turns = same_until / 2 + 1;
    assert!(engine_turns > 5, "only {engine_turns} turns to compare");
    let k = engine_turns.min(seen.len());
    let differ = (0..k).find(|&i| seen[i] != seen_again[i]);
    assert_eq!(differ, None, "turn {differ:?} of {k} differs");
}
