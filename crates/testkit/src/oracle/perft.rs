//! The published perft counts in `data/positions/perft.txt`.

use shakmaty::{Chess, Position};

/// One line of perft.txt.
#[derive(Clone, Debug)]
pub struct PerftCase {
    /// Its name, such as `kiwipete`.
    pub name: String,
    /// The position.
    pub fen: String,
    /// perft(1), perft(2), perft(3).
    pub counts: [u64; 3],
}

/// The text of a position suite in the repository's `data/positions/` (read from the
/// file, not from the engine's embedded copy).
pub fn suite(file: &str) -> String {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../data/positions")
        .join(file);
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()))
}

/// The FENs of a suite of `data/positions/`: the first field of each line that is not
/// blank or a `#` comment.
pub fn suite_fens(file: &str) -> Vec<String> {
    suite(file)
        .lines()
        .filter(|line| !line.trim().is_empty() && !line.starts_with('#'))
        .map(|line| line.split(';').next().unwrap_or("").trim().to_string())
        .collect()
}

/// Reads perft.txt: `name;FEN;perft(1);perft(2);perft(3)`, `#` starts a comment.
pub fn cases() -> Vec<PerftCase> {
    let text = suite("perft.txt");
    let cases: Vec<PerftCase> = text
        .lines()
        .filter(|line| !line.trim().is_empty() && !line.starts_with('#'))
        .map(|line| {
            let fields: Vec<&str> = line.split(';').collect();
            assert_eq!(fields.len(), 5, "perft.txt: bad line {line:?}");
            let count = |i: usize| -> u64 {
                fields[i]
                    .trim()
                    .parse()
                    .unwrap_or_else(|e| panic!("perft.txt: bad count in {line:?}: {e}"))
            };
            PerftCase {
                name: fields[0].trim().to_string(),
                fen: fields[1].trim().to_string(),
                counts: [count(2), count(3), count(4)],
            }
        })
        .collect();
    assert!(
        cases.len() >= 3,
        "perft.txt has only {} positions",
        cases.len()
    );
    cases
}

/// The number of leaf nodes at `depth`, counted by shakmaty move by move.
pub fn perft(pos: &Chess, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    pos.legal_moves()
        .into_iter()
        .map(|m| {
            let mut next = pos.clone();
            next.play_unchecked(m);
            perft(&next, depth - 1)
        })
        .sum()
}
