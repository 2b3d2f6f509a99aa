//! The two executors on whole chess programs: `legal-moves` on every perft position, and
//! the `two-plies` workload of `regex-chess bench` (two plies of `fork_legal_moves`, then
//! `has_legal_move` and `in_check` on every leaf) on bench positions. Final states must be
//! byte-identical; on a few positions every intermediate state is compared too
//! (`trace::first_divergence`).

use std::sync::OnceLock;

use regex_chess_core::bench;
use regex_chess_core::compiler::CompileOptions;
use regex_chess_core::exec::fast::Fast;
use regex_chess_core::exec::reference::Reference;
use regex_chess_core::exec::{Executor, trace};
use regex_chess_core::program::ValidProgram;

const PERFT: &str = include_str!("../data/positions/perft.txt");

fn legal_moves() -> &'static ValidProgram {
    static PROGRAM: OnceLock<ValidProgram> = OnceLock::new();
    PROGRAM.get_or_init(|| {
        bench::Workload::new(Some("legal-moves"), &CompileOptions::default())
            .expect("legal-moves builds")
            .program
    })
}

fn two_plies() -> &'static ValidProgram {
    static PROGRAM: OnceLock<ValidProgram> = OnceLock::new();
    PROGRAM.get_or_init(|| {
        bench::Workload::new(Some(bench::TWO_PLIES), &CompileOptions::default())
            .expect("two-plies builds")
            .program
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
    let reference = Reference::new(program.clone()).run(state);
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
        let out = fast.run(state);
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
