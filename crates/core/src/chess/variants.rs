//! The registry of search variants: each is a registered program keeping the `move`
//! contract (see `src/chess/mod.rs`, where each variant's search is stated exactly), with
//! the name `--search NAME` selects it by.
//!
//! The first entry is the benchmark program, `move` (the 2-ply search); the others trade
//! time for strength. [`default_play`] is the strongest variant whose median time per move
//! on the bench positions (warm, one core, `regex-chess bench --search NAME`) is at most
//! [`BUDGET_MS`] (the figures are in PERF.md and docs/strength.md).

/// A search variant.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Variant {
    /// The name `--search` takes.
    pub name: &'static str,
    /// The registered program that runs it (see [`crate::programs`]).
    pub program: &'static str,
    /// The registered program that runs it and also ranks the best root moves (the
    /// `multipv` lines of `src/chess/mod.rs`).
    pub ranked: &'static str,
    /// The registered `play` program (the terminal game and the page) whose engine
    /// searches with it.
    pub play: &'static str,
    /// The plies searched before the capture search (`3ply-qe`'s third is selective:
    /// captures and promotions after a capturing reply).
    pub depth: u32,
    /// Whether a capture search runs below the full-width plies.
    pub quiescence: bool,
    /// Whether UCI's time management may choose it by its measured cost (`Search` set to
    /// `auto`). `3ply-qe` may not: its cost varies sevenfold across the bench positions,
    /// so the clock runs it only after a variant it chose, cut at the end of the budget
    /// (`crate::uci::clock::CostBook::deeper`); the `Search` option and `go depth 3`
    /// choose it outright.
    pub by_clock: bool,
    /// One line about it.
    pub summary: &'static str,
}

/// The time budget of the default playing search, in milliseconds per move (median over
/// the bench positions, warm, one core).
pub const BUDGET_MS: u32 = 300;

/// Every variant, weakest first.
pub const VARIANTS: &[Variant] = &[
    Variant {
        name: "2ply",
        program: "move",
        ranked: "move-mpv",
        play: "play",
        depth: 2,
        quiescence: false,
        by_clock: true,
        summary: "2-ply minimax over legal moves, material and piece-square tables (the benchmark)",
    },
    Variant {
        name: "2ply-q",
        program: "move-q",
        ranked: "move-q-mpv",
        play: "play-q",
        depth: 2,
        quiescence: true,
        by_clock: true,
        summary: "2-ply minimax; below each leaf the side to move's best capture or promotion, \
                  or standing pat",
    },
    Variant {
        name: "2ply-qe",
        program: "move-qe",
        ranked: "move-qe-mpv",
        play: "play-qe",
        depth: 2,
        quiescence: true,
        by_clock: true,
        summary: "2ply-q, and against a lone king a term driving it to the edge and the own \
                  king close",
    },
    Variant {
        name: "3ply-qe",
        program: "move-3qe",
        ranked: "move-3qe-mpv",
        play: "play-3qe",
        depth: 3,
        quiescence: true,
        by_clock: false,
        summary: "2ply-qe's two plies; after a capturing reply, a third: the better of \
                  standing pat and the engine's captures and promotions, each answered by \
                  the opponent's best capture or standing pat; mates on every ply, the \
                  shorter scoring higher",
    },
];

/// The variant called `name`.
pub fn find(name: &str) -> Option<&'static Variant> {
    VARIANTS.iter().find(|v| v.name == name)
}

/// The variant whose `play` program is called `program`.
pub fn by_play(program: &str) -> Option<&'static Variant> {
    VARIANTS.iter().find(|v| v.play == program)
}

/// The names, in registry order.
pub fn names() -> Vec<&'static str> {
    VARIANTS.iter().map(|v| v.name).collect()
}

/// The strongest variant meeting [`BUDGET_MS`] (measured: docs/strength.md): `2ply-qe`.
pub fn default_play() -> &'static Variant {
    find("2ply-qe").expect("registered")
}

/// The page's default (`regex-chess site`): the strongest variant whose `play` program's
/// median reply over the bench positions is within about 1 s in headless Chromium with
/// the fast executor in WebAssembly (`E2E_BENCH=3 e2e/run.sh`; docs/exports.md):
/// `3ply-qe`.
pub fn default_page() -> &'static Variant {
    find("3ply-qe").expect("registered")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_variant_is_a_registered_program_with_a_unique_name() {
        assert_eq!(
            (
                VARIANTS[0].name,
                VARIANTS[0].program,
                VARIANTS[0].play,
                VARIANTS[0].depth
            ),
            ("2ply", "move", "play", 2)
        );
        assert!(!VARIANTS[0].quiescence);
        for (i, v) in VARIANTS.iter().enumerate() {
            for program in [v.program, v.ranked, v.play] {
                assert!(
                    crate::programs::find(program).is_some(),
                    "{}: no program {program}",
                    v.name,
                );
            }
            assert_eq!(v.ranked, format!("{}-mpv", v.program));
            assert_eq!(find(v.name), Some(v));
            assert_eq!(by_play(v.play), Some(v));
            assert!(VARIANTS[..i].iter().all(|w| w.name != v.name));
        }
        assert_eq!(find("nope"), None);
        assert_eq!(by_play("move"), None);
        assert!(VARIANTS.contains(default_play()));
        assert!(VARIANTS.contains(default_page()));
    }
}
