//! The `legal-moves` rules against shakmaty: the move list of every perft.txt position
//! and of seeded playout positions, and perft counts by running the rules at every node.
//!
//! CI runs a share; the full volume (every one of the ≥1,000 playout positions, perft(3)
//! of every perft.txt position) runs with `cargo test --release -- --ignored`
//! (`scripts/verify-full.sh`). A test fails when the program is not registered.

use regex_chess_testkit::oracle;

use oracle::{engine, judge, parallel, perft, playouts};
use regex_chess_chess::notation::fen::Fen;
use regex_chess_engine::runner::{LEGAL_MOVES, LegalMoves};
use regex_chess_machine::exec::ExecutorKind;
use shakmaty::{Chess, Position};

/// Runs the rules on `pos` and compares with shakmaty; returns the number of moves or a
/// description of the difference.
fn check(legal: &LegalMoves, pos: &Chess) -> Result<usize, String> {
    let fen_text = judge::fen(pos);
    let fen: Fen = fen_text
        .parse()
        .map_err(|e| format!("{fen_text}: the native parser refuses it: {e}"))?;
    let got: Vec<String> = legal
        .run(&fen)
        .map_err(|e| format!("{fen_text}: {e}"))?
        .iter()
        .map(|m| m.to_string())
        .collect();
    let want = judge::legal_uci(pos);
    if got == want {
        return Ok(got.len());
    }
    let missing: Vec<&String> = want.iter().filter(|m| !got.contains(m)).collect();
    let extra: Vec<&String> = got.iter().filter(|m| !want.contains(m)).collect();
    Err(format!(
        "{fen_text}: the rules list {} moves, shakmaty {}; missing {missing:?}, extra {extra:?}",
        got.len(),
        want.len()
    ))
}

/// Nodes checked and the differences found.
#[derive(Default)]
struct Tally {
    nodes: usize,
    failures: Vec<String>,
}

/// perft(`depth`) of `pos`, listing moves with the rules at every interior node (and
/// comparing each list with shakmaty's); children are made by shakmaty.
fn rules_perft(legal: &LegalMoves, pos: &Chess, depth: u32, tally: &mut Tally) -> u64 {
    tally.nodes += 1;
    let count = match check(legal, pos) {
        Ok(n) => n as u64,
        Err(e) => {
            tally.failures.push(e);
            return 0;
        }
    };
    if depth == 1 {
        return count;
    }
    pos.legal_moves()
        .iter()
        .map(|m| rules_perft(legal, &judge::play_move(pos, m), depth - 1, tally))
        .sum()
}

#[test]
fn the_comparison_catches_a_wrong_list() {
    // A stand-in program, not the chess rules: it answers the start position with its
    // legal moves, one left out and one illegal added. The harness must notice both.
    let mut answer: Vec<String> = judge::legal_uci(&Chess::default());
    answer.retain(|m| m != "g1f3");
    answer.push("e2e5".to_string());
    let rule = regex_chess_machine::program::Rule::new(
        "^rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1\\n$",
        answer.iter().map(|m| format!("{m}\n")).collect::<String>(),
    );
    let program = regex_chess_machine::program::Program::from_rules(vec![rule])
        .validate()
        .unwrap();
    let stand_in = LegalMoves::with_executor(ExecutorKind::Fast.build(program));
    let error = check(&stand_in, &Chess::default()).unwrap_err();
    assert!(
        error.contains("missing [\"g1f3\"], extra [\"e2e5\"]"),
        "{error}"
    );
    let mut tally = Tally::default();
    rules_perft(&stand_in, &Chess::default(), 2, &mut tally);
    assert_eq!(tally.nodes, 1);
    assert_eq!(tally.failures.len(), 1);
}

#[test]
fn perft_positions_list_the_legal_moves() {
    let Some(legal) = engine::legal_moves() else {
        return engine::skip("perft_positions_list_the_legal_moves", LEGAL_MOVES);
    };
    let cases = perft::cases();
    let mut failures = Vec::new();
    for case in &cases {
        match check(legal, &judge::position(&case.fen)) {
            Ok(n) => assert_eq!(n as u64, case.counts[0], "{} perft(1)", case.name),
            Err(e) => failures.push(format!("{}: {e}", case.name)),
        }
    }
    parallel::assert_none("perft.txt roots", cases.len(), &failures);
}

#[test]
fn perft_2_by_running_the_rules_on_every_child() {
    let Some(legal) = engine::legal_moves() else {
        return engine::skip("perft_2_by_running_the_rules_on_every_child", LEGAL_MOVES);
    };
    let mut tally = Tally::default();
    for case in perft::cases() {
        let count = rules_perft(legal, &judge::position(&case.fen), 2, &mut tally);
        if tally.failures.is_empty() {
            assert_eq!(count, case.counts[1], "{} perft(2)", case.name);
        }
    }
    parallel::assert_none("perft(2) nodes", tally.nodes, &tally.failures);
}

#[test]
fn playout_positions_ci_share() {
    let Some(legal) = engine::legal_moves() else {
        return engine::skip("playout_positions_ci_share", LEGAL_MOVES);
    };
    let samples = playouts::positions(playouts::SEED, 1000);
    let fens: Vec<String> = playouts::share(&samples, 150)
        .into_iter()
        .map(|s| s.fen)
        .collect();
    let failures = parallel::failures(&fens, |f| check(legal, &judge::position(f)).err());
    parallel::assert_none("playout share", fens.len(), &failures);
}

#[test]
fn the_reference_executor_lists_the_same_moves() {
    let Some(legal) = engine::legal_moves_on(ExecutorKind::Reference) else {
        return engine::skip("the_reference_executor_lists_the_same_moves", LEGAL_MOVES);
    };
    let mut failures = Vec::new();
    let cases = perft::cases();
    for case in cases.iter().take(2) {
        if let Err(e) = check(&legal, &judge::position(&case.fen)) {
            failures.push(e);
        }
    }
    parallel::assert_none("reference executor", 2, &failures);
}

#[test]
#[ignore = "full volume: cargo test --release -- --ignored"]
fn playout_positions_full() {
    let Some(legal) = engine::legal_moves() else {
        return engine::skip("playout_positions_full", LEGAL_MOVES);
    };
    let fens: Vec<String> = playouts::positions(playouts::SEED, 1000)
        .into_iter()
        .map(|s| s.fen)
        .collect();
    assert!(fens.len() >= 1000);
    let failures = parallel::failures(&fens, |f| check(legal, &judge::position(f)).err());
    parallel::assert_none("all playout positions", fens.len(), &failures);
}

#[test]
#[ignore = "full volume: cargo test --release -- --ignored"]
fn perft_3_by_running_the_rules_on_every_node() {
    let Some(legal) = engine::legal_moves() else {
        return engine::skip("perft_3_by_running_the_rules_on_every_node", LEGAL_MOVES);
    };
    let cases = perft::cases();
    // Every perft.txt position (at least three), one position per worker, two workers.
    let next = std::sync::atomic::AtomicUsize::new(0);
    let results: Vec<(String, u64, u64, Tally)> = std::thread::scope(|scope| {
        let workers: Vec<_> = (0..2)
            .map(|_| {
                scope.spawn(|| {
                    let mut done = Vec::new();
                    loop {
                        let i = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                        let Some(case) = cases.get(i) else { break done };
                        let mut tally = Tally::default();
                        let pos = judge::position(&case.fen);
                        let count = rules_perft(legal, &pos, 3, &mut tally);
                        done.push((case.name.clone(), count, case.counts[2], tally));
                    }
                })
            })
            .collect();
        workers
            .into_iter()
            .flat_map(|w| w.join().expect("a worker panicked"))
            .collect()
    });
    assert!(results.len() >= 3);
    for (name, count, want, tally) in results {
        parallel::assert_none(&format!("perft(3) of {name}"), tally.nodes, &tally.failures);
        assert_eq!(count, want, "{name} perft(3)");
    }
}
