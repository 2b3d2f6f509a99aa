//! The registry of programs the compiler can build, by name.
//!
//! A [`Registered`] program is either one of the fixed programs of [`FIXED`] or the
//! program of a [`Search`] variant for one of its [`Output`]s, so that the search
//! programs are listed once, in [`Search`]. Every caller finds a program here and loads
//! it with [`super::load()`].
//!
//! To add a program that is not a search: write a `fn() -> IrProgram` that records it with
//! the DSL ([`regex_chess_compiler::dsl`]; document the input state it expects and the
//! variables it leaves), add a [`Fixed`] to [`FIXED`], and test it against a native
//! computation on both executors (see `tests/compiler/programs.rs`). Then `regex-chess compile
//! --program NAME -o NAME.json` builds it and `regex-chess run NAME.json --state FILE`
//! runs it.

use super::variants::{Output, Search};
use regex_chess_chess::programs::{apply, chess, demo, next, play};
use regex_chess_compiler::ir::IrProgram;

/// A program that is not a search variant's.
#[derive(Debug)]
pub struct Fixed {
    /// The name used on the command line.
    pub name: &'static str,
    /// One line about what it computes.
    pub summary: &'static str,
    /// Records the program.
    pub build: fn() -> IrProgram,
}

/// The programs that are not a search variant's, in the order [`all`] lists them
/// (the search programs come after `chess-probe`).
pub const FIXED: &[Fixed] = &[
    Fixed {
        name: "demo-arith",
        summary: "integer arithmetic, comparisons and a conditional on 16-bit inputs a, b, c",
        build: demo::arith,
    },
    Fixed {
        name: "demo-max",
        summary: "fork over a list of up to 16 scores, adjust each, keep the best thread",
        build: demo::max,
    },
    Fixed {
        name: "legal-moves",
        summary: "a FEN in, its legal moves in UCI out (one per line)",
        build: chess::legal_moves,
    },
    Fixed {
        name: "chess-children",
        summary: "a FEN in, one line `<uci> <FEN after>` per legal move out",
        build: chess::children,
    },
    Fixed {
        name: "chess-probe",
        summary: "a FEN in, `<in check> <has a legal move> <FEN>` out",
        build: chess::probe,
    },
    Fixed {
        name: "board",
        summary: "`engine: white|black` and a FEN in; the first pretty board of a game out",
        build: play::board_program,
    },
    Fixed {
        name: "next-positions",
        summary: next::SUMMARY,
        build: next::next_positions,
    },
    Fixed {
        name: "next-positions-full",
        summary: next::FULL_SUMMARY,
        build: next::next_positions_full,
    },
    Fixed {
        name: "apply-move",
        summary: apply::SUMMARY,
        build: apply::apply_move,
    },
];

/// How many of [`FIXED`] come before the search programs in [`all`].
const BEFORE_SEARCHES: usize = 5;

/// A registered program.
#[derive(Clone, Copy, Debug)]
pub enum Registered {
    /// One of [`FIXED`].
    Fixed(&'static Fixed),
    /// A search variant's program for one output.
    Search(Search, Output),
}

impl Registered {
    /// The name used on the command line.
    pub fn name(self) -> &'static str {
        match self {
            Registered::Fixed(fixed) => fixed.name,
            Registered::Search(search, output) => search.program(output),
        }
    }

    /// One line about what it computes.
    pub fn summary(self) -> &'static str {
        match self {
            Registered::Fixed(fixed) => fixed.summary,
            Registered::Search(search, output) => search.program_summary(output),
        }
    }

    /// Records the program with the DSL.
    pub fn build(self) -> IrProgram {
        match self {
            Registered::Fixed(fixed) => (fixed.build)(),
            Registered::Search(search, output) => search.build(output),
        }
    }
}

/// Every registered program: the first fixed ones, the search variants' (each variant's
/// move, ranking and game programs), then the other fixed ones.
pub fn all() -> impl Iterator<Item = Registered> {
    let searches = Search::ALL.into_iter().flat_map(|search| {
        Output::ALL
            .into_iter()
            .map(move |output| Registered::Search(search, output))
    });
    FIXED[..BEFORE_SEARCHES]
        .iter()
        .map(Registered::Fixed)
        .chain(searches)
        .chain(FIXED[BEFORE_SEARCHES..].iter().map(Registered::Fixed))
}

/// The program called `name`.
pub fn find(name: &str) -> Option<Registered> {
    all().find(|program| program.name() == name)
}

/// The registered names, in order.
pub fn names() -> Vec<&'static str> {
    all().map(Registered::name).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_name_is_registered_once_and_found() {
        let names = names();
        for (i, name) in names.iter().enumerate() {
            assert!(!names[..i].contains(name), "{name} twice");
            assert_eq!(find(name).map(Registered::name), Some(*name));
        }
        assert!(find("nope").is_none());
        for search in Search::ALL {
            for output in Output::ALL {
                assert!(names.contains(&search.program(output)));
            }
        }
    }
}
