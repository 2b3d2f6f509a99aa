//! The unit tests of `endgame`.

use super::*;
use crate::evaluate::tests::board_line;
use regex_chess_compiler::encode::Thread;
use regex_chess_compiler::{self as compiler, CompileOptions};
use regex_chess_machine::exec::{Executor, reference::Reference};

#[test]
fn the_rules_compute_the_stated_term() {
    let mut b = Builder::new("t", "t");
    let board = b.input_str("b");
    let t = term_white_with(&mut b, &board, Tables::Simplified);
    b.output("t", &t);
    let program = compiler::compile(b.finish(), &CompileOptions::default())
        .program
        .validate()
        .unwrap();
    let exec = Reference::new(program);
    // (placement, term in cp from white's view), worked out by hand.
    let cases = [
        // Black king a8 (centre distance 6), white king c6 (table -40): 2 files, 2
        // ranks apart.
        ("k7/8/2K5/8/8/8/8/7Q", 25 * 6 + 10 * 5 + 10 * 5 + 70),
        // White king e4 (0), black king e5 next to it, black rook a1: the box has
        // 7 files (b..h) and 7 ranks (2..8) on the lone king's side; the king's
        // table gives e5 -40 for black.
        ("8/8/8/4k3/4K3/8/8/r7", -(10 * 7 + 10 * 6 + 10 + 10 + 70)),
        // Black king a8 (6), white king c6 (table -40), rook b1: a file and 7
        // ranks boxed.
        (
            "k7/8/2K5/8/8/8/8/1R6",
            25 * 6 + 10 * 5 + 10 * 5 + 70 + 10 + 70,
        ),
        // Black king b8 (5) on the rook's file: no files boxed; kings 3 files
        // apart; the king's table gives e1 0.
        ("1k6/8/8/8/8/8/8/1R2K3", 25 * 5 + 10 * 4 + 10 + 30),
        // Black rook h3, lone white king d2 (2), black king f4 (table -40 for
        // black): 7 files (a..g) and 2 ranks (1, 2) on the lone king's side.
        (
            "8/8/8/8/5k2/7r/3K4/8",
            -(25 * 2 + 10 * 5 + 10 * 5 + 10 + 60 + 70),
        ),
        // Black king a8 (6), white king a6 (table -30) in opposition across rank 8,
        // rook b1: a file and 7 ranks boxed.
        (
            "k7/8/K7/8/8/8/8/1R6",
            25 * 6 + 10 * 7 + 10 * 5 + 60 + 70 + 10 + 60,
        ),
        // The same kings with two rooks: no box, no opposition.
        ("k7/8/K7/8/8/8/1R6/1R6", 25 * 6 + 10 * 7 + 10 * 5 + 60),
        // Black king a7 (5) on file a, white king a5 (table -30): two ranks apart on
        // the file, not across the king's edge.
        (
            "8/k7/8/K7/8/8/8/1R6",
            25 * 5 + 10 * 7 + 10 * 5 + 60 + 70 + 10,
        ),
        // Black king e1 (3), white king e3 (table -20) across rank 1; rook h8.
        (
            "7R/8/8/8/8/4K3/8/4k3",
            25 * 3 + 10 * 7 + 10 * 5 + 50 + 10 + 10 + 60,
        ),
        // Black king a3 (4), white king c3 (table -20) across file a; rook h1.
        (
            "8/8/8/8/8/k1K5/8/7R",
            25 * 4 + 10 * 5 + 10 * 7 + 50 + 10 + 10 + 60,
        ),
        // A lone white king h4 (3), black king f4 (table -40 for black) across file
        // h; black rook a1.
        (
            "8/8/8/8/5k1K/8/8/r7",
            -(25 * 3 + 10 * 5 + 10 * 7 + 70 + 10 + 10 + 60),
        ),
        // Black king a8 (6), white king b6 (table -40) a knight's move from the
        // opposition across rank 8; rook h2: 7 files and 6 ranks on the king's side.
        (
            "k7/8/1K6/8/8/8/7R/8",
            25 * 6 + 10 * 6 + 10 * 5 + 70 + 10 + 20 + 30,
        ),
        // Black king a8, white king c7 (table -40): the same across file a.
        (
            "k7/2K5/8/8/8/8/7R/8",
            25 * 6 + 10 * 5 + 10 * 6 + 70 + 10 + 20 + 30,
        ),
        // Black king h5 (3), white king f6 or f4 (table -40, -30): across file h;
        // rook a1.
        (
            "8/8/5K2/7k/8/8/8/R7",
            25 * 3 + 10 * 5 + 10 * 6 + 70 + 10 + 10 + 30,
        ),
        (
            "8/8/8/7k/5K2/8/8/R7",
            25 * 3 + 10 * 5 + 10 * 6 + 60 + 10 + 10 + 30,
        ),
        // A lone white king d1 (3), black king c3 (table -40 for black) a knight's
        // move from the opposition across rank 1; black rook e8: 4 files (a..d) and
        // 7 ranks on the king's side.
        (
            "4r3/8/8/8/8/2k5/8/3K4",
            -(25 * 3 + 10 * 6 + 10 * 5 + 70 + 40 + 10 + 30),
        ),
        // The kings three files apart across rank 8: no share.
        (
            "k7/8/3K4/8/8/8/7R/8",
            25 * 6 + 10 * 4 + 10 * 5 + 80 + 10 + 20,
        ),
        // A rook and a knight: the rook's box as with the rook alone (issue 41).
        (
            "k7/8/2K5/8/8/8/8/1R5N",
            25 * 6 + 10 * 5 + 10 * 5 + 70 + 10 + 70,
        ),
        // Black king h1 (6), white king a8 (table -30): 7 and 7 apart; two rooks.
        ("K7/8/8/8/8/8/1R6/1R5k", 25 * 6 + 60),
        // Pawns beside the attacker's pieces change nothing (issue 41): the first case
        // with a pawn, the third with two.
        ("k7/8/2K5/8/8/8/P7/7Q", 25 * 6 + 10 * 5 + 10 * 5 + 70),
        (
            "k7/8/2K5/8/8/8/P6P/1R6",
            25 * 6 + 10 * 5 + 10 * 5 + 70 + 10 + 70,
        ),
        // A lone white king h1 (6) against a black rook b2, a pawn a7 and the king c6
        // (table -20 for black): 5 files and 5 ranks apart; 6 files (c..h) and 1 rank
        // (1) on the lone king's side.
        (
            "8/p7/2k5/8/8/8/1r6/7K",
            -(25 * 6 + 10 * 2 + 10 * 2 + 50 + 20 + 70),
        ),
        // Only pawns for the attacker, a piece or a pawn for the defender, bare kings:
        // no term.
        ("k7/8/2K5/8/8/8/P7/8", 0),
        ("k7/p7/2K5/8/8/8/8/7Q", 0),
        ("k7/8/2K5/8/8/8/n7/7Q", 0),
        ("k7/8/2K5/8/8/8/8/8", 0),
        // A lone white king a1 (6), black king c3 (table -40 for black) and queen.
        ("8/8/8/8/8/2k5/8/K6q", -(25 * 6 + 10 * 5 + 10 * 5 + 70)),
    ];
    let threads: Vec<String> = cases.iter().map(|(p, _)| board_line(p)).collect();
    let state = encode::render(
        &threads
            .iter()
            .map(|line| Thread::active(&[], &[("b", line)]))
            .collect::<Vec<_>>(),
    );
    let out = encode::threads(&exec.run(&state).unwrap());
    for (t, (placement, cp)) in out.iter().zip(cases) {
        let got = encode::decode_int(t.var("t").unwrap()).unwrap();
        assert_eq!(got * 5, cp as i64, "{placement}");
    }
}
