//! The search variants: one registry, [`Search`], from which every place that offers a
//! choice of search is generated (the command line's `--search`, the UCI `Search`
//! option, the page's `variants.json`, `bench`, `match`).
//!
//! Each variant is a search of the chess rules ([`SearchOptions`]) and the programs it
//! compiles to, one per [`Output`]: the engine's move (the `move` contract of
//! `crates/chess/src/lib.rs`, where each variant's search is stated exactly), the same with the
//! root moves ranked (`-mpv`), and the terminal and browser game (`play`). Adding a
//! variant touches [`Search`], its row of `SPECS`, its contract in `crates/chess/src/lib.rs`
//! and its oracle in the tests: nothing else.
//!
//! [`Search::TwoPly`] is the benchmark program, `move` (the 2-ply search the Python
//! original is compared with); the others trade time for strength. [`Search::default_play`]
//! is the strongest variant; its geometric mean time per move on the bench positions
//! (warm, two cores, `regex-chess bench --search NAME --cores 2`) is at most [`BUDGET_MS`]
//! (the figures are in PERF.md and docs/strength.md).

use std::fmt;
use std::str::FromStr;

use regex_chess_chess::programs::{best_move, play};
use regex_chess_chess::search::SearchOptions;
use regex_chess_compiler::ir::IrProgram;

/// A search variant of the engine.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Search {
    /// `2ply`: the benchmark.
    TwoPly,
    /// `2ply-q`: a capture search below the leaves.
    TwoPlyQ,
    /// `2ply-qe`: and an endgame term against a lone king.
    TwoPlyQe,
    /// `3ply-qe`: and a selective third ply after a capturing reply.
    ThreePlyQe,
    /// `2ply-see`: `2ply-qe` with the capture search below every leaf, discounting a
    /// capture the other side can take back, and PeSTO's tapered tables: stronger than
    /// `3ply-qe` (docs/strength.md).
    TwoPlySee,
    /// `3ply-see`: `3ply-qe`'s third ply after a capturing reply, `2ply-see`'s leaf
    /// after any other, and the recapture discount on both sides' captures.
    ThreePlySee,
    /// `3ply-see-check`: `3ply-see` with the check extension (a check is answered by
    /// every evasion instead of standing pat).
    ThreePlySeeCheck,
}

/// What a search's program answers.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Output {
    /// The engine's move for a FEN, with the search's report (the `move` contract).
    Move,
    /// The same, then the best root moves ranked (`multipv` lines).
    Ranked,
    /// The terminal and browser game: the board text and the typed move in, the next
    /// board out.
    Play,
}

impl Output {
    /// Every output, in the order the registry lists their programs.
    pub const ALL: [Output; 3] = [Output::Move, Output::Ranked, Output::Play];
}

/// The time budget of the default playing search, in milliseconds per move (geometric
/// mean over the bench positions, warm, two cores).
pub const BUDGET_MS: u32 = 300;

/// The most root moves the ranking programs rank.
pub use regex_chess_chess::search::MULTIPV_MAX;

/// What a variant is: its names, its search and its programs.
struct Spec {
    /// The name `--search` takes.
    name: &'static str,
    /// One line about it.
    summary: &'static str,
    /// The plies searched before the capture search.
    depth: u32,
    /// The chess rules' search (without a report or a ranking).
    options: SearchOptions,
    /// Whether UCI's time management may choose it by its measured cost (`Search` set to
    /// `auto`); see [`Search::by_clock`].
    by_clock: bool,
    /// The programs' names, in the order of [`Output::ALL`].
    programs: [&'static str; 3],
    /// One line about the move program, and its description in the program itself.
    move_summary: &'static str,
    move_description: &'static str,
    /// One line about the `play` program, and its description in the program itself.
    play_summary: &'static str,
    play_description: &'static str,
}

/// The variants, in the order of [`Search::ALL`].
const SPECS: [Spec; 7] = [
    Spec {
        name: "2ply",
        summary: "2-ply minimax over legal moves, material and piece-square tables (the benchmark)",
        depth: 2,
        options: SearchOptions::PLAIN,
        by_clock: true,
        programs: ["move", "move-mpv", "play"],
        move_summary: "a FEN in; the engine's move (2-ply minimax), the FEN after it, its status and the \
             search's score, depth, nodes and pv out",
        move_description: "A FEN and a newline in; `move <uci>\\nfen <fen>\\nstatus <status>\\n` and the \
             search's `score`, `depth`, `nodes` and `pv` lines out (or `status \
             checkmate|stalemate\\n` when the side to move has no move): the 2-ply minimax over \
             legal moves with material and piece-square tables.",
        play_summary: "the pretty board and the typed move in; the next board with the engine's reply out",
        play_description: "The pretty board text of the `board`/`play` programs followed by the typed line; \
             the next pretty board.",
    },
    Spec {
        name: "2ply-q",
        summary: "2-ply minimax; below each leaf the side to move's best capture or promotion, \
                  or standing pat",
        depth: 2,
        options: SearchOptions {
            quiescence: true,
            ..SearchOptions::PLAIN
        },
        by_clock: true,
        programs: ["move-q", "move-q-mpv", "play-q"],
        move_summary: "a FEN in; the engine's move (2-ply minimax, a capture search below each \
             leaf), the FEN after it and its status out",
        move_description: "The `move` program's contract; the 2-ply minimax with a capture search (captures \
             and promotions of the side to move, or standing pat) below each leaf.",
        play_summary: "`play` with the 2ply-q search (a capture search below each leaf) choosing the reply",
        play_description: "The `play` program's contract; the engine's reply is the 2-ply minimax with a \
             capture search below each leaf (the `2ply-q` variant).",
    },
    Spec {
        name: "2ply-qe",
        summary: "2ply-q, and against a lone king a term driving it to the edge and the own \
                  king close",
        depth: 2,
        options: SearchOptions {
            quiescence: true,
            endgame: true,
            ..SearchOptions::PLAIN
        },
        by_clock: true,
        programs: ["move-qe", "move-qe-mpv", "play-qe"],
        move_summary: "a FEN in; the engine's move (2-ply minimax, a capture search below each \
             leaf, against a lone king a term driving it to the edge), the FEN after it and its status out",
        move_description: "The `move` program's contract; the 2-ply minimax with a capture search below each \
             leaf and, against a lone king, a term driving it to the edge and the own king \
             close.",
        play_summary: "`play` with the 2ply-qe search (capture search, lone-king endgame term) choosing the reply",
        play_description: "The `play` program's contract; the engine's reply is the 2-ply minimax with a \
             capture search below each leaf and the endgame term against a lone king (the \
             `2ply-qe` variant).",
    },
    Spec {
        name: "3ply-qe",
        summary: "2ply-qe's two plies; after a capturing reply, a third: the better of \
                  standing pat and the engine's captures and promotions, each answered by \
                  the opponent's best capture or standing pat; mates on every ply, the \
                  shorter scoring higher; PeSTO's tapered tables at the root's phase",
        depth: 3,
        options: SearchOptions {
            quiescence: true,
            endgame: true,
            third_ply: true,
            tapered: true,
            ..SearchOptions::PLAIN
        },
        by_clock: false,
        programs: ["move-3qe", "move-3qe-mpv", "play-3qe"],
        move_summary: "a FEN in; the engine's move (2-ply minimax; after a capturing reply, a \
             third ply of the engine's captures and promotions answered by the opponent's; the \
             endgame term), the FEN after it, \
             its status and the search's score, depth, nodes and pv out",
        move_description: "The `move` program's contract; the 2-ply minimax, then, after a capturing reply, \
             a third ply of the engine's captures and promotions (or standing pat), each \
             answered by the opponent's best capture (or standing pat), with the endgame term \
             at the leaves, scored by PeSTO's tapered tables blended at the root's phase.",
        play_summary: "`play` with the 3ply-qe search (a selective third ply after a capturing reply) choosing the reply",
        play_description: "The `play` program's contract; the engine's reply is the `3ply-qe` search: the \
             2-ply minimax, a selective third ply after a capturing reply, the capture search \
             and the endgame term.",
    },
    Spec {
        name: "2ply-see",
        summary: "2-ply minimax; below every leaf the engine's best capture or promotion, \
                  less the arriving piece where the opponent can take it back, or standing \
                  pat; the lone-king term; PeSTO's tapered tables at the root's phase",
        depth: 2,
        options: SearchOptions {
            quiescence: true,
            endgame: true,
            tapered: true,
            everywhere: true,
            see: true,
            ..SearchOptions::PLAIN
        },
        by_clock: true,
        programs: ["move-see", "move-see-mpv", "play-see"],
        move_summary: "a FEN in; the engine's move (2-ply minimax, a capture search with the \
             recapture discount below every leaf, the endgame term, tapered tables), the FEN \
             after it, its status and the search's score, depth, nodes and pv out",
        move_description: "The `move` program's contract; the 2-ply minimax with, below every leaf, the \
             engine's best capture or promotion (less the arriving piece's worth where the \
             opponent attacks its square) or standing pat, the endgame term against a lone \
             king, scored by PeSTO's tapered tables blended at the root's phase.",
        play_summary: "`play` with the 2ply-see search (a capture search with the recapture \
             discount below every leaf) choosing the reply",
        play_description: "The `play` program's contract; the engine's reply is the `2ply-see` search: \
             the 2-ply minimax, a capture search with the recapture discount below every leaf, \
             the endgame term and PeSTO's tapered tables.",
    },
    Spec {
        name: "3ply-see",
        summary: "3ply-qe's third ply after a capturing reply and 2ply-see's capture \
                  search after any other, both sides' captures less the arriving piece \
                  where the other side can take it back; mates on every ply, the shorter \
                  scoring higher; PeSTO's tapered tables at the root's phase",
        depth: 3,
        options: SearchOptions {
            quiescence: true,
            endgame: true,
            third_ply: true,
            tapered: true,
            everywhere: true,
            see: true,
            ..SearchOptions::PLAIN
        },
        by_clock: false,
        programs: ["move-3see", "move-3see-mpv", "play-3see"],
        move_summary: "a FEN in; the engine's move (2-ply minimax; after a capturing reply a \
             third ply of the engine's captures answered by the opponent's, after any other \
             the engine's captures; the recapture discount; the endgame term), the FEN after \
             it, its status and the search's score, depth, nodes and pv out",
        move_description: "The `move` program's contract; the 2-ply minimax, then, after a capturing reply, \
             a third ply of the engine's captures and promotions (or standing pat), each \
             answered by the opponent's best capture (or standing pat), and after any other \
             reply the engine's best capture (or standing pat), every capture less the \
             arriving piece's worth where the other side attacks its square, with the \
             endgame term at the leaves, scored by PeSTO's tapered tables blended at the \
             root's phase.",
        play_summary: "`play` with the 3ply-see search (3ply-qe's third ply, 2ply-see's \
             capture search and recapture discount) choosing the reply",
        play_description: "The `play` program's contract; the engine's reply is the `3ply-see` search: \
             the 2-ply minimax, a selective third ply after a capturing reply, a capture \
             search below every other leaf, the recapture discount, the endgame term and \
             PeSTO's tapered tables.",
    },
    Spec {
        name: "3ply-see-check",
        summary: "3ply-see, and the check extension: after a checking reply every evasion \
                  of the engine, after a checking third-ply move every evasion of the \
                  opponent, instead of standing pat",
        depth: 3,
        options: SearchOptions {
            quiescence: true,
            endgame: true,
            third_ply: true,
            tapered: true,
            everywhere: true,
            see: true,
            check: true,
            ..SearchOptions::PLAIN
        },
        by_clock: true,
        programs: ["move-3seec", "move-3seec-mpv", "play-3seec"],
        move_summary: "a FEN in; the engine's move (2-ply minimax; after a capturing reply a \
             third ply of the engine's captures answered by the opponent's, after any other \
             the engine's captures; the recapture discount; the check extension; the endgame term), \
             the FEN after it, its status and the search's score, depth, nodes and pv out",
        move_description: "The `move` program's contract; the 2-ply minimax, then, after a capturing reply, \
             a third ply of the engine's captures and promotions (or standing pat), each \
             answered by the opponent's best capture (or standing pat), and after any other \
             reply the engine's best capture (or standing pat), every capture less the \
             arriving piece's worth where the other side attacks its square, with the \
             endgame term at the leaves, scored by PeSTO's tapered tables blended at the \
             root's phase; a check (by the reply or by the third-ply move) is answered by \
             every evasion instead of standing pat.",
        play_summary: "`play` with the 3ply-see-check search (3ply-qe's third ply, 2ply-see's \
             capture search and recapture discount, the check extension) choosing the reply",
        play_description: "The `play` program's contract; the engine's reply is the `3ply-see-check` search: \
             the 2-ply minimax, a selective third ply after a capturing reply, a capture \
             search below every other leaf, the recapture discount, the check extension, the \
             endgame term and PeSTO's tapered tables.",
    },
];

/// One line about every ranking program.
const RANKED_SUMMARY: &str = "a FEN in; the search without `-mpv`'s output, then its best root moves \
     ranked as `multipv <rank> score <score> pv <moves>` lines";

impl Search {
    /// Every variant, weakest first (as measured against Stockfish: docs/strength.md);
    /// the first is the benchmark.
    pub const ALL: [Search; 7] = [
        Search::TwoPly,
        Search::TwoPlyQ,
        Search::TwoPlyQe,
        Search::ThreePlyQe,
        Search::TwoPlySee,
        Search::ThreePlySee,
        Search::ThreePlySeeCheck,
    ];

    fn spec(self) -> &'static Spec {
        &SPECS[self as usize]
    }

    /// The name `--search` and the UCI `Search` option take.
    pub fn name(self) -> &'static str {
        self.spec().name
    }

    /// One line about it.
    pub fn summary(self) -> &'static str {
        self.spec().summary
    }

    /// The plies searched before the capture search (`3ply-qe`'s third is selective:
    /// captures and promotions after a capturing reply).
    pub fn depth(self) -> u32 {
        self.spec().depth
    }

    /// Whether a capture search runs below the full-width plies.
    pub fn quiescence(self) -> bool {
        self.spec().options.quiescence
    }

    /// Whether UCI's time management may choose it by its measured cost (`Search` set to
    /// `auto`). `3ply-qe` may not: its cost varies sevenfold across the bench positions,
    /// so the clock runs it only after a variant it chose, cut at the end of the budget
    /// (`crate::uci::clock::CostBook::deeper`); the `Search` option and `go depth 3`
    /// choose it outright.
    pub fn by_clock(self) -> bool {
        self.spec().by_clock
    }

    /// The chess rules' search, without a report or a ranking.
    pub fn options(self) -> SearchOptions {
        self.spec().options
    }

    /// The registered name of its program for `output`.
    pub fn program(self, output: Output) -> &'static str {
        let index = Output::ALL.iter().position(|&o| o == output);
        self.spec().programs[index.expect("every output is listed")]
    }

    /// One line about its program for `output`.
    pub fn program_summary(self, output: Output) -> &'static str {
        match output {
            Output::Move => self.spec().move_summary,
            Output::Ranked => RANKED_SUMMARY,
            Output::Play => self.spec().play_summary,
        }
    }

    /// Records its program for `output` with the DSL.
    pub fn build(self, output: Output) -> IrProgram {
        let spec = self.spec();
        let name = self.program(output);
        match output {
            Output::Move => best_move::move_program(name, spec.move_description, self.reporting(0)),
            Output::Ranked => best_move::move_program(
                name,
                &format!(
                    "The `{}` program's contract and its best {MULTIPV_MAX} root moves, \
                     ranked, as `multipv <rank> score <score> pv <uci> [<reply>]` lines.",
                    self.program(Output::Move)
                ),
                self.reporting(MULTIPV_MAX),
            ),
            Output::Play => play::play_program(name, spec.play_description, self.options()),
        }
    }

    /// Its search with the report, ranking `multipv` root moves.
    fn reporting(self, multipv: usize) -> SearchOptions {
        SearchOptions {
            report: true,
            multipv,
            ..self.options()
        }
    }

    /// The variant and output whose program is called `program`.
    pub fn by_program(program: &str) -> Option<(Search, Output)> {
        Search::ALL.into_iter().find_map(|search| {
            Output::ALL
                .into_iter()
                .find(|&output| search.program(output) == program)
                .map(|output| (search, output))
        })
    }

    /// The names, in registry order.
    pub fn names() -> Vec<&'static str> {
        Search::ALL.iter().map(|s| s.name()).collect()
    }

    /// The benchmark program's search, `2ply`: the one compared with the Python original,
    /// and `move`'s when no variant is named.
    pub fn benchmark() -> Search {
        Search::TwoPly
    }

    /// The strongest variant, `3ply-see-check`: the terminal game's default, and the UCI
    /// engine's when nothing else decides. It meets [`BUDGET_MS`] on the geometric mean of
    /// the bench positions (PERF.md, docs/strength.md); the clock may choose it by itself
    /// ([`Search::by_clock`]), and chooses a cheaper variant where it would not fit.
    pub fn default_play() -> Search {
        Search::ThreePlySeeCheck
    }

    /// The page's default (`regex-chess site`): the strongest variant whose `play`
    /// program's median reply over the bench positions is within about 1 s in headless
    /// Chromium with the fast executor in WebAssembly (`E2E_BENCH=3 e2e/run.sh`;
    /// docs/exports.md): the terminal's default, `3ply-see-check`.
    pub fn default_page() -> Search {
        Search::default_play()
    }
}

impl fmt::Display for Search {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A search name that names no variant.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("unknown search `{name}`; known: {}", Search::names().join(", "))]
pub struct UnknownSearch {
    /// The name given.
    pub name: String,
}

impl FromStr for Search {
    type Err = UnknownSearch;

    fn from_str(name: &str) -> Result<Search, UnknownSearch> {
        Search::ALL
            .into_iter()
            .find(|s| s.name() == name)
            .ok_or_else(|| UnknownSearch {
                name: name.to_string(),
            })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_variant_has_its_own_names_and_programs() {
        assert_eq!(Search::ALL.len(), SPECS.len());
        for (i, search) in Search::ALL.into_iter().enumerate() {
            assert_eq!(search as usize, i);
            assert_eq!(search.name().parse(), Ok(search));
            assert_eq!(search.to_string(), search.name());
            for output in Output::ALL {
                let program = search.program(output);
                assert_eq!(Search::by_program(program), Some((search, output)));
                assert_eq!(search.build(output).name, program);
            }
            assert_eq!(
                search.program(Output::Ranked),
                format!("{}-mpv", search.program(Output::Move))
            );
        }
        let first = Search::ALL[0];
        assert_eq!(first, Search::benchmark());
        assert_eq!(
            (first.name(), first.program(Output::Move)),
            ("2ply", "move")
        );
        assert_eq!(first.program(Output::Play), "play");
        assert!(!first.quiescence());
        let error = "nope".parse::<Search>().unwrap_err();
        assert_eq!(
            error.to_string(),
            format!(
                "unknown search `nope`; known: {}",
                Search::names().join(", ")
            )
        );
        assert_eq!(Search::by_program("board"), None);
    }

    #[test]
    fn variants_grow_stronger_down_the_registry() {
        // Weakest first as measured against Stockfish (docs/strength.md), not by depth:
        // the capture search, once there, stays.
        for pair in Search::ALL.windows(2) {
            let (a, b) = (pair[0], pair[1]);
            assert!(a.quiescence() <= b.quiescence());
        }
        // The default is the strongest variant, and the clock may choose it by itself.
        assert_eq!(Search::ALL.last(), Some(&Search::default_play()));
        assert!(Search::default_play().by_clock());
    }
}
