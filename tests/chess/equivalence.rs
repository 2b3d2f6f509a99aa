//! The two executors on whole chess programs: `legal-moves` on every perft position, and
//! a two-ply tree (two plies of `fork_legal_moves`, then `has_legal_move` and `in_check`
//! on every leaf, recorded here) on bench positions. Final states must be
//! byte-identical; on a few positions every intermediate state is compared too
//! (`trace::first_divergence`).

use std::sync::OnceLock;

use regex_chess_chess::board::{MAX_MOVES, MoveGen};
use regex_chess_chess::fen_rules::parse_fen;
use regex_chess_chess::movegen::{fork_legal_moves, has_legal_move, in_check};
use regex_chess_compiler::dsl::Builder;
use regex_chess_compiler::{self as compiler, CompileOptions};
use regex_chess_engine::bench;
use regex_chess_machine::exec::fast::Fast;
use regex_chess_machine::exec::reference::Reference;
use regex_chess_machine::exec::{Executor, trace};
use regex_chess_machine::program::ValidProgram;

const PERFT: &str = include_str!("../../data/positions/perft.txt");

fn legal_moves() -> &'static ValidProgram {
    static PROGRAM: OnceLock<ValidProgram> = OnceLock::new();
    PROGRAM.get_or_init(|| {
        bench::Workload::new(Some("legal-moves"), &CompileOptions::default())
            .expect("legal-moves builds")
            .program
    })
}

/// The leaves of a two-ply tree, each probed for a legal move and check; one line per
/// leaf out: the shape of a 2-ply search's wide part without the evaluation.
fn two_plies() -> &'static ValidProgram {
    static PROGRAM: OnceLock<ValidProgram> = OnceLock::new();
    PROGRAM.get_or_init(|| {
        let mut b = Builder::new("two-plies", "A FEN and a newline in; a line per leaf out.");
        let pos = parse_fen(&mut b);
        b.grouped(|b| {
            fork_legal_moves(b, &pos, MAX_MOVES, MoveGen::default());
            fork_legal_moves(b, &pos, MAX_MOVES, MoveGen::default());
        });
        let (has, check) = (has_legal_move(&mut b, &pos), in_check(&mut b, &pos));
        let mut reads = pos.vars().to_vec();
        reads.extend([has.var(), check.var()]);
        b.rules(
            "count",
            vec![("%%\n#stack:\n[^%]*".to_string(), "x\n".to_string())],
            &reads,
            &[],
        );
        compiler::compile(b.finish(), &CompileOptions::default())
            .program
            .validate()
            .expect("two-plies builds")
    })
}

fn perft_fens() -> Vec<String> {
    PERFT
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(|l| l.split(';').nth(1).expect("a FEN field").to_string())
        .collect()
}

fn same_final_state(program: &ValidProgram, state: &str) -> String {
    let reference = Reference::new(program.clone()).run(state).unwrap();
    for fast in [
        Fast::new(program.clone()),
        Fast::new(program.clone()).segmented(0),
        Fast::new(program.clone()).parallel(2, 1),
        // The rope on every state, in pieces of about 256 bytes, on one core and on two.
        Fast::new(program.clone()).rope(1, 256),
        Fast::new(program.clone()).rope(1, 256).parallel(2, 1),
        // The index of `%` bytes kept on every state, however small.
        Fast::new(program.clone()).index_starts(0),
        // Both: each piece of the rope keeping its index.
        Fast::new(program.clone()).rope(1, 256).index_starts(0),
    ] {
        let out = fast.run(state).unwrap();
        if out != reference {
            let at = trace::first_difference(&out, &reference);
            panic!(
                "final states differ on {state:?} at byte {at}:\n  fast      {}\n  reference {}",
                trace::context(&out, at, 100),
                trace::context(&reference, at, 100)
            );
        }
    }
    reference
}

fn no_divergence(program: &ValidProgram, state: &str) {
    let reference = Reference::new(program.clone());
    for fast in [
        Fast::new(program.clone()),
        Fast::new(program.clone()).segmented(0),
        Fast::new(program.clone()).parallel(2, 1),
        // The rope on every state, in pieces of about 256 bytes, on one core and on two.
        Fast::new(program.clone()).rope(1, 256),
        Fast::new(program.clone()).rope(1, 256).parallel(2, 1),
        // The index of `%` bytes kept on every state, however small.
        Fast::new(program.clone()).index_starts(0),
        // Both: each piece of the rope keeping its index.
        Fast::new(program.clone()).rope(1, 256).index_starts(0),
    ] {
        if let Some(d) = trace::first_divergence(&reference, &fast, state) {
            panic!("{d}");
        }
    }
}

#[test]
fn legal_moves_agree_on_the_perft_positions() {
    let fens = perft_fens();
    assert!(fens.len() >= 7);
    for fen in &fens {
        let out = same_final_state(legal_moves(), &format!("{fen}\n"));
        assert!(!out.is_empty(), "{fen}: no moves");
    }
}

#[test]
fn legal_moves_agree_after_every_rule() {
    for fen in perft_fens().iter().take(4) {
        no_divergence(legal_moves(), &format!("{fen}\n"));
    }
}

#[test]
fn two_plies_agree_on_an_endgame() {
    // 14 moves, 191 leaves (perft position 3).
    let out = same_final_state(two_plies(), "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1\n");
    assert_eq!(out.lines().count(), 191);
}

#[test]
fn two_plies_agree_after_every_rule() {
    no_divergence(two_plies(), "8/8/4k3/8/2K5/8/3P4/8 w - - 0 1\n");
}
