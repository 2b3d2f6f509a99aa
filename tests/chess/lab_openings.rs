//! The search lab's openings (`data/positions/lab-openings.txt`), written by Stockfish:
//! an ignored test, run once (docs/strength.md, "The search lab"):
//!
//! ```sh
//! cargo test --release --test chess -- lab_openings::lab_openings --ignored
//! ```

use std::io::{BufRead, BufReader, Write};
use std::process::{Command, Stdio};

use regex_chess_engine::matchplay::read_openings;
use regex_chess_testkit::oracle::{judge, perft};
use shakmaty::Position;

use crate::search_lab::stockfish;

/// Stockfish's best `lines` moves of `fen` at `depth` with their scores (centipawns for
/// the side to move), each with its principal variation.
fn multipv(sf: &mut Stockfish, fen: &str, depth: u32, lines: usize) -> Vec<(i32, Vec<String>)> {
    sf.send(&format!("setoption name MultiPV value {lines}"));
    sf.send(&format!("position fen {fen}"));
    sf.send(&format!("go depth {depth}"));
    let mut found: Vec<Option<(i32, Vec<String>)>> = vec![None; lines];
    loop {
        let line = sf.line();
        if line.starts_with("bestmove") {
            break;
        }
        let words: Vec<&str> = line.split_whitespace().collect();
        let at = |key: &str| words.iter().position(|w| *w == key);
        let (Some(d), Some(k), Some(s), Some(pv)) =
            (at("depth"), at("multipv"), at("score"), at("pv"))
        else {
            continue;
        };
        if words[d + 1] != depth.to_string() || words[s + 1] != "cp" {
            continue;
        }
        let k: usize = words[k + 1].parse().expect("a rank");
        let cp: i32 = words[s + 2].parse().expect("centipawns");
        found[k - 1] = Some((cp, words[pv + 1..].iter().map(|w| w.to_string()).collect()));
    }
    found.into_iter().flatten().collect()
}

/// A Stockfish process spoken to line by line.
struct Stockfish {
    child: std::process::Child,
    out: BufReader<std::process::ChildStdout>,
}

impl Stockfish {
    fn start(path: &str) -> Stockfish {
        let mut child = Command::new(path)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .expect("Stockfish starts");
        let out = BufReader::new(child.stdout.take().expect("its output"));
        let mut sf = Stockfish { child, out };
        sf.send("uci");
        while sf.line() != "uciok" {}
        sf
    }

    fn send(&mut self, line: &str) {
        let input = self.child.stdin.as_mut().expect("its input");
        writeln!(input, "{line}").expect("Stockfish reads");
    }

    fn line(&mut self) -> String {
        let mut line = String::new();
        self.out.read_line(&mut line).expect("Stockfish writes");
        assert!(!line.is_empty(), "Stockfish ended");
        line.trim_end().to_string()
    }
}

impl Drop for Stockfish {
    fn drop(&mut self) {
        self.send("quit");
        let _ = self.child.wait();
    }
}

#[test]
#[ignore = "writes data/positions/lab-openings.txt with Stockfish: cargo test --release --test chess -- lab_openings::lab_openings --ignored"]
fn lab_openings() {
    // Each of the 60 openings, then each of Stockfish's best 4 moves at depth 12 and its
    // best answer (the move's principal variation): 4 balanced openings two plies on
    // from each, listed rank by rank (every opening's best line first), repeated
    // positions and lines worse than 60 cp for either side left out.
    let Some(path) = stockfish("lab_openings") else {
        return;
    };
    let mut sf = Stockfish::start(&path);
    let mut ranks: Vec<Vec<String>> = vec![Vec::new(); 4];
    for fen in perft::suite_fens("openings.txt") {
        let pos = judge::position(&fen);
        for (rank, (cp, pv)) in multipv(&mut sf, &fen, 12, 4).into_iter().enumerate() {
            if cp.abs() > 60 || pv.len() < 2 {
                continue;
            }
            let after = judge::play(&judge::play(&pos, &pv[0]), &pv[1]);
            let white = if pos.turn() == shakmaty::Color::White {
                cp
            } else {
                -cp
            };
            ranks[rank].push(format!("{};{white}", judge::fen(&after)));
        }
    }
    let mut seen = std::collections::HashSet::new();
    let mut text = String::from(
        "# FEN;eval in centipawns (white's view, Stockfish 15.1 depth 12 before the two plies) \
         -- the search lab's openings: each of openings.txt's, then one of Stockfish's best \
         4 moves and its answer, rank by rank (tests/chess/lab_openings.rs)\n",
    );
    for line in ranks.concat() {
        let board: String = line.split(' ').take(4).collect::<Vec<_>>().join(" ");
        if seen.insert(board) {
            text.push_str(&line);
            text.push('\n');
        }
    }
    let out =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("data/positions/lab-openings.txt");
    std::fs::write(&out, text).expect("the openings file");
    let n = read_openings(&std::fs::read_to_string(&out).expect("written"))
        .expect("valid")
        .len();
    println!("{n} openings, {} games", 2 * n);
}
