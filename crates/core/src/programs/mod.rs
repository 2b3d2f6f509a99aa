//! The registry of programs the compiler can build, by name.
//!
//! Each [`Entry`] records a program with the DSL ([`crate::compiler::dsl`]); the
//! `compile` command looks names up here. The chess programs live in [`chess`].
//!
//! To add a program: write a `fn() -> IrProgram` that records it (document the input
//! state it expects and the variables it leaves), add an [`Entry`] to [`ALL`], and test
//! it against a native computation on both executors (see `tests/programs.rs`). Then
//! `regex-chess compile --program NAME -o NAME.json` builds it and `regex-chess run
//! NAME.json --state FILE` runs it.

pub mod apply;
pub mod cache;
pub mod chess;
pub mod demo;
pub mod next;

use crate::compiler::ir::IrProgram;

/// A program the compiler can build.
#[derive(Debug)]
pub struct Entry {
    /// The name used on the command line.
    pub name: &'static str,
    /// One line about what it computes.
    pub summary: &'static str,
    /// Records the program.
    pub build: fn() -> IrProgram,
}

/// Every registered program.
pub const ALL: &[Entry] = &[
    Entry {
        name: "demo-arith",
        summary: "integer arithmetic, comparisons and a conditional on 16-bit inputs a, b, c",
        build: demo::arith,
    },
    Entry {
        name: "demo-max",
        summary: "fork over a list of up to 16 scores, adjust each, keep the best thread",
        build: demo::max,
    },
    Entry {
        name: "legal-moves",
        summary: "a FEN in, its legal moves in UCI out (one per line)",
        build: chess::legal_moves,
    },
    Entry {
        name: "chess-children",
        summary: "a FEN in, one line `<uci> <FEN after>` per legal move out",
        build: chess::children,
    },
    Entry {
        name: "chess-probe",
        summary: "a FEN in, `<in check> <has a legal move> <FEN>` out",
        build: chess::probe,
    },
    Entry {
        name: "move",
        summary: chess::MOVE_SUMMARY,
        build: chess::move_program,
    },
    Entry {
        name: "move-q",
        summary: chess::MOVE_Q_SUMMARY,
        build: chess::move_q_program,
    },
    Entry {
        name: "move-qe",
        summary: chess::MOVE_QE_SUMMARY,
        build: chess::move_qe_program,
    },
    Entry {
        name: "move-mpv",
        summary: chess::MOVE_MPV_SUMMARY,
        build: chess::move_mpv_program,
    },
    Entry {
        name: "move-q-mpv",
        summary: chess::MOVE_MPV_SUMMARY,
        build: chess::move_q_mpv_program,
    },
    Entry {
        name: "move-qe-mpv",
        summary: chess::MOVE_MPV_SUMMARY,
        build: chess::move_qe_mpv_program,
    },
    Entry {
        name: "move-3qe",
        summary: chess::MOVE_3QE_SUMMARY,
        build: chess::move_3qe_program,
    },
    Entry {
        name: "move-3qe-mpv",
        summary: chess::MOVE_MPV_SUMMARY,
        build: chess::move_3qe_mpv_program,
    },
    Entry {
        name: "board",
        summary: chess::BOARD_SUMMARY,
        build: chess::board_program,
    },
    Entry {
        name: "play",
        summary: chess::PLAY_SUMMARY,
        build: chess::play_program,
    },
    Entry {
        name: "play-q",
        summary: chess::PLAY_Q_SUMMARY,
        build: chess::play_q_program,
    },
    Entry {
        name: "play-qe",
        summary: chess::PLAY_QE_SUMMARY,
        build: chess::play_qe_program,
    },
    Entry {
        name: "play-3qe",
        summary: chess::PLAY_3QE_SUMMARY,
        build: chess::play_3qe_program,
    },
    Entry {
        name: "next-positions",
        summary: next::SUMMARY,
        build: next::next_positions,
    },
    Entry {
        name: "next-positions-full",
        summary: next::FULL_SUMMARY,
        build: next::next_positions_full,
    },
    Entry {
        name: "apply-move",
        summary: apply::SUMMARY,
        build: apply::apply_move,
    },
];

/// The program called `name`.
pub fn find(name: &str) -> Option<&'static Entry> {
    ALL.iter().find(|e| e.name == name)
}

/// The registered names, in order.
pub fn names() -> Vec<&'static str> {
    ALL.iter().map(|e| e.name).collect()
}
