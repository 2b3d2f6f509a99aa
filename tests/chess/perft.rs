//! perft to depth 4 with the rules making every child: the move tree walked through the
//! `chess-children` program (what `go perft` runs), each node's children (every legal
//! move and the FEN after it) compared with shakmaty's, and the next ply generated from
//! the rules' own child FENs, so that a wrong castling right, en-passant square or clock
//! in a child shows in the child's FEN or in its children. The leaf counts are the
//! published perft(4) counts and shakmaty's.
//!
//! `cargo test` runs position 3 of `data/positions/perft.txt` (43,238 leaves, about 3,000
//! runs of the program); the volume (`cargo test --release --test chess -- perft::
//! --ignored`, `scripts/verify-full.sh`) runs every position of perft.txt.

use regex_chess_testkit::oracle;

use std::sync::atomic::{AtomicU64, Ordering};

use oracle::{judge, parallel, perft};
use regex_chess_chess::notation::fen::Fen;
use regex_chess_chess::notation::uci::UciMove;
use regex_chess_engine::Search;
use regex_chess_engine::uci::{Engine, EngineError, RulesEngine, Thought};
use regex_chess_machine::exec::ExecutorKind;
use shakmaty::{Chess, Position};

/// The published perft(4) counts of the positions of perft.txt (chessprogramming.org's
/// "Perft Results"), by name.
const PERFT_4: [(&str, u64); 7] = [
    ("startpos", 197_281),
    ("kiwipete", 4_085_603),
    ("position3", 43_238),
    ("position4", 422_333),
    ("position4-mirrored", 422_333),
    ("position5", 2_103_487),
    ("position6", 3_894_594),
];

/// What a walk found: the nodes whose children were generated, and the differences.
#[derive(Default)]
struct Walk {
    nodes: u64,
    failures: Vec<String>,
}

/// The children of `fen` (the position `pos`) by the rules, against shakmaty's: the
/// rules' children when they are the same, sorted by move, else the difference.
fn children(engine: &dyn Engine, fen: &Fen, pos: &Chess) -> Result<Vec<(String, Fen)>, String> {
    let mut got: Vec<(String, Fen)> = engine
        .children(fen)
        .map_err(|e| format!("{fen}: {e}"))?
        .into_iter()
        .map(|(mv, child)| (mv.to_string(), child))
        .collect();
    got.sort_by(|a, b| a.0.cmp(&b.0));
    let mut want: Vec<(String, String)> = pos
        .legal_moves()
        .iter()
        .map(|m| (judge::uci(m), judge::fen(&judge::play_move(pos, m))))
        .collect();
    want.sort();
    let texts: Vec<(String, String)> = got
        .iter()
        .map(|(mv, child)| (mv.clone(), child.to_string()))
        .collect();
    if texts == want {
        return Ok(got);
    }
    let missing: Vec<_> = want.iter().filter(|c| !texts.contains(c)).collect();
    let extra: Vec<_> = texts.iter().filter(|c| !want.contains(c)).collect();
    Err(format!(
        "{fen}: children differ from shakmaty's; missing {missing:?}, extra {extra:?}"
    ))
}

/// The leaves `depth` plies below `fen`, every ply's children made by the rules and
/// checked; a node whose children differ counts no leaves and is not walked further.
fn walk(engine: &dyn Engine, fen: &Fen, depth: u32, found: &mut Walk) -> u64 {
    found.nodes += 1;
    let pos = judge::position(&fen.to_string());
    let kids = match children(engine, fen, &pos) {
        Ok(kids) => kids,
        Err(e) => {
            found.failures.push(e);
            return 0;
        }
    };
    if depth == 1 {
        return kids.len() as u64;
    }
    kids.iter()
        .map(|(_, child)| walk(engine, child, depth - 1, found))
        .sum()
}

/// perft(4) of the perft.txt position `name`, walked on two threads (the root's
/// children shared between them): the leaves against the published count and
/// shakmaty's, every node's children against shakmaty's.
fn perft_4(name: &str) {
    let case = perft::cases()
        .into_iter()
        .find(|c| c.name == name)
        .unwrap_or_else(|| panic!("perft.txt has no position {name}"));
    let published = PERFT_4
        .iter()
        .find(|(n, _)| *n == name)
        .map(|(_, count)| *count)
        .unwrap_or_else(|| panic!("no published perft(4) for {name}"));
    let pos = judge::position(&case.fen);
    assert_eq!(oracle::perft::perft(&pos, 4), published, "shakmaty, {name}");
    let engine = RulesEngine::new(ExecutorKind::Fast);
    let root: Fen = case.fen.parse().expect("a perft.txt FEN");
    let kids = children(&engine, &root, &pos).unwrap_or_else(|e| panic!("{name}: {e}"));
    let leaves = AtomicU64::new(0);
    let nodes = AtomicU64::new(1);
    let failures = parallel::failures(&kids, |(mv, child)| {
        let mut found = Walk::default();
        let count = walk(&engine, child, 3, &mut found);
        leaves.fetch_add(count, Ordering::Relaxed);
        nodes.fetch_add(found.nodes, Ordering::Relaxed);
        (!found.failures.is_empty()).then(|| {
            format!(
                "{name} after {mv}: {} nodes differ, the first: {}",
                found.failures.len(),
                found.failures[0]
            )
        })
    });
    let nodes = nodes.into_inner();
    parallel::assert_none(
        &format!("{name} perft(4), by root move"),
        kids.len(),
        &failures,
    );
    assert_eq!(leaves.into_inner(), published, "{name} perft(4)");
    eprintln!("{name}: perft(4) = {published}, the children of {nodes} nodes made by the rules");
}

#[test]
fn perft_4_of_position_3_with_the_rules_making_every_child() {
    perft_4("position3");
}

#[test]
#[ignore = "volume: cargo test --release --test chess -- perft:: --ignored"]
fn perft_4_of_every_perft_position_with_the_rules_making_every_child() {
    let names: Vec<String> = perft::cases().into_iter().map(|c| c.name).collect();
    assert_eq!(names.len(), PERFT_4.len(), "{names:?}");
    for name in names {
        perft_4(&name);
    }
}

/// The walk is not idle: a stand-in engine whose children are the rules' but for one
/// FEN (the en-passant square of 1.e4 left out) is caught, and the node is named.
#[test]
fn a_wrong_child_is_caught() {
    struct Off(RulesEngine);
    impl Engine for Off {
        fn apply(&self, fen: &Fen, mv: UciMove) -> Result<Option<Fen>, EngineError> {
            self.0.apply(fen, mv)
        }
        fn think_with(&self, fen: &Fen, variant: Search) -> Result<Thought, EngineError> {
            self.0.think_with(fen, variant)
        }
        fn children(&self, fen: &Fen) -> Result<Vec<(UciMove, Fen)>, EngineError> {
            let mut kids = self.0.children(fen)?;
            for (_, child) in &mut kids {
                let text = child.to_string();
                if let Some(wrong) = text.strip_suffix(" e3 0 1").map(|t| format!("{t} - 0 1")) {
                    *child = wrong.parse().expect("a FEN");
                }
            }
            Ok(kids)
        }
    }
    let engine = Off(RulesEngine::new(ExecutorKind::Fast));
    let start = Fen::start();
    let mut found = Walk::default();
    walk(&engine, &start, 2, &mut found);
    // The root's children differ: it is the one node reported, and nothing is walked
    // below it.
    assert_eq!(
        (found.nodes, found.failures.len()),
        (1, 1),
        "{:?}",
        found.failures
    );
    assert!(
        found.failures[0].contains("missing [(\"e2e4\""),
        "{:?}",
        found.failures
    );
}
