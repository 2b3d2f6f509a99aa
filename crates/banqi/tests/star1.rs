//! Star1 judged against plain expectimax: on random positions with face-down pieces, the
//! engine with Star1 must give the same root value as the engine with every chance node
//! searched in the full window and no principal-variation windows, and as a plain
//! expectimax written here (no pruning at all), with fewer nodes than the full-window
//! search. The table and quiescence are off in all three (the table lets a deeper result
//! answer a shallower question, which changes values legitimately), the root guard and
//! contempt too; depths are small enough that no repetition can occur.

mod naive;

use naive::{Naive, TestRng};
use regex_chess_banqi::Position;
use regex_chess_banqi::eval::{EvalConfig, evaluate};
use regex_chess_banqi::movegen::MoveList;
use regex_chess_banqi::search::{Engine, Limits, SearchConfig, WIN};

fn expectimax(position: &Position, depth: u32, ply: i32, eval: &EvalConfig) -> i32 {
    let mut list = MoveList::new();
    position.legal_moves(&mut list);
    if list.is_empty() {
        return -(WIN - ply);
    }
    if position.clock() >= 40 {
        return 0;
    }
    if depth == 0 {
        return evaluate(position, eval);
    }
    let mut best = i32::MIN;
    for &mv in list.as_slice() {
        let value = if mv.is_flip() {
            let total = i32::from(position.pool().total());
            let mut sum = 0;
            for (piece, count) in position.pool().outcomes() {
                let mut child = *position;
                child.play_unchecked(mv, Some(piece));
                sum += i32::from(count) * -expectimax(&child, depth - 1, ply + 1, eval);
            }
            sum.div_euclid(total)
        } else {
            let mut child = *position;
            child.play_unchecked(mv, None);
            -expectimax(&child, depth - 1, ply + 1, eval)
        };
        best = best.max(value);
    }
    best
}

/// Random positions reached by random play from the start, with pieces still face-down.
fn positions(count: usize, seed: u64) -> Vec<Position> {
    let mut rng = TestRng(seed);
    let mut out = Vec::new();
    while out.len() < count {
        let mut naive = Naive::parse(&Position::start().to_string());
        let plies = 8 + rng.below(40);
        for _ in 0..plies {
            let moves = naive.moves();
            if moves.is_empty() {
                break;
            }
            let mv = &moves[rng.below(moves.len())];
            let revealed = (mv[..2] == mv[2..]).then(|| rng.pick_from_pool(&naive));
            naive.play(mv, revealed);
        }
        let position: Position = naive.text().parse().unwrap();
        let face_down = position.face_down().count();
        if (2..=14).contains(&face_down) && position.clock() < 30 && position.has_legal_move() {
            out.push(position);
        }
    }
    out
}

fn engine(star1: bool) -> Engine {
    let config = SearchConfig {
        star1,
        tt: false,
        quiescence: false,
        pvs: star1,
        root_guard: false,
        contempt: 0,
        ..SearchConfig::default()
    };
    Engine::new(EvalConfig::default(), config, 10)
}

// 40 positions: with 12, a planted error in Star1's upper bound (U for L) went unseen.
#[test]
fn star1_gives_expectimax_values_with_fewer_nodes() {
    let eval = EvalConfig::default();
    let (mut star1_nodes, mut full_nodes) = (0, 0);
    for (i, position) in positions(40, 3).iter().enumerate() {
        let depth = if i % 3 == 0 { 2 } else { 3 };
        let limits = Limits {
            depth: Some(depth),
            ..Limits::default()
        };
        let with = engine(true).search(position, &[], limits, &mut |_| {});
        let without = engine(false).search(position, &[], limits, &mut |_| {});
        assert_eq!(with.depth, without.depth, "{position}");
        assert_eq!(
            with.score, without.score,
            "{position} at depth {}",
            with.depth
        );
        if with.depth <= 2 {
            let plain = expectimax(position, with.depth, 0, &eval);
            assert_eq!(
                with.score, plain,
                "{position}: plain expectimax at depth {}",
                with.depth
            );
        }
        star1_nodes += with.nodes;
        full_nodes += without.nodes;
    }
    assert!(
        star1_nodes * 10 < full_nodes * 9,
        "Star1 should prune: {star1_nodes} nodes against {full_nodes}"
    );
}

#[test]
fn a_node_budget_is_deterministic() {
    for position in positions(4, 9) {
        let limits = Limits {
            nodes: Some(20_000),
            ..Limits::default()
        };
        let mut a = Engine::new(EvalConfig::default(), SearchConfig::default(), 12);
        let mut b = Engine::new(EvalConfig::default(), SearchConfig::default(), 12);
        let first = a.search(&position, &[], limits, &mut |_| {});
        let second = b.search(&position, &[], limits, &mut |_| {});
        assert_eq!(first, second, "{position}");
        assert!(first.best.is_some());
    }
}

#[test]
fn the_engine_takes_a_free_general_and_sees_a_win() {
    // Red's soldier b1 takes the black general b2, the last black piece: an immediate win.
    let position: Position = "8/1g6/1S6/8 r - 0 9".parse().unwrap();
    let mut engine = Engine::new(EvalConfig::default(), SearchConfig::default(), 12);
    let result = engine.search(
        &position,
        &[],
        Limits {
            depth: Some(4),
            ..Limits::default()
        },
        &mut |_| {},
    );
    assert_eq!(result.best.map(|m| m.to_string()).as_deref(), Some("b1b2"));
    assert!(result.score > WIN - 10, "{}", result.score);
}
