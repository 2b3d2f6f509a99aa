//! The registry of programs the compiler can build, by name.
//!
//! Each [`Entry`] records a program with the DSL ([`crate::compiler::dsl`]); the
//! `compile` command looks names up here. The chess programs will be registered here too.

pub mod demo;
pub mod engine;

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
        name: "move",
        summary: engine::MOVE_SUMMARY,
        build: engine::move_program,
    },
    Entry {
        name: "board",
        summary: engine::BOARD_SUMMARY,
        build: engine::board_program,
    },
    Entry {
        name: "play",
        summary: engine::PLAY_SUMMARY,
        build: engine::play_program,
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
