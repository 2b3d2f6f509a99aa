//! The `board` and `play` rules, judged by shakmaty: scripted games in which a seeded
//! random mover plays against the engine through the pretty board text, with typed
//! mistakes, and every engine move, every position shown and every end-of-game verdict
//! compared with shakmaty's. CI plays a few short games and near-end positions; the full
//! volume (200 games, both colours: openings for 6 moves, endgames for 30) runs with `cargo test --release -- --ignored`.
//! The other search variants' `play` programs play the short games too, and the binary
//! plays each variant's move: a variant of each family in plain `cargo test`
//! ([`volume::searches_per_family`]), the others in `#[ignore]`d volumes that CI runs in
//! release (`scripts/ci-volumes.sh`). A last test drives the `regex-chess play` binary
//! through standard input.

use play_text::{field, message, shown_fen};
use regex_chess_testkit::play_text;

use regex_chess_testkit::binary;
use regex_chess_testkit::oracle;
use regex_chess_testkit::volume;

use oracle::history::{self as oracle_history, Input};
use oracle::variants::{Spec, VARIANT_FENS, best_move as oracle_move};

use std::collections::HashMap;
use std::process::{Command, Output};

use regex_chess_engine as engine;
use regex_chess_engine::Search;
use regex_chess_machine::exec::{Executor, ExecutorKind};
use shakmaty::fen::Fen;
use shakmaty::san::SanPlus;
use shakmaty::uci::UciMove;
use shakmaty::zobrist::Zobrist128;
use shakmaty::{CastlingMode, Chess, Color, EnPassantMode, Position};

const START: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

struct Rules {
    board: Box<dyn Executor>,
    play: Box<dyn Executor>,
    /// The search variant whose `play` program answers.
    search: &'static str,
}

impl Rules {
    fn new() -> Rules {
        Rules::with_search("2ply")
    }
    /// The `play` program of the search variant `name`.
    fn with_search(name: &str) -> Rules {
        let variant = name.parse::<Search>().expect("a variant");
        Rules {
            board: ExecutorKind::Fast.build(engine::program("board").unwrap()),
            play: ExecutorKind::Fast
                .build(engine::program(variant.program(engine::Output::Play)).unwrap()),
            search: variant.name(),
        }
    }
    fn first(&self, fen: &str, engine: Color) -> String {
        let side = if engine == Color::White {
            "white"
        } else {
            "black"
        };
        self.board.run(&format!("engine: {side}\n{fen}\n")).unwrap()
    }
    fn answer(&self, text: &str, typed: &str) -> String {
        self.play.run(&format!("{text}{typed}\n")).unwrap()
    }
}

fn over(text: &str) -> bool {
    text.ends_with("Game over.\n")
}

fn fen_of(pos: &Chess) -> String {
    Fen::from_position(pos, EnPassantMode::Always).to_string()
}

fn position(fen: &str) -> Chess {
    fen.parse::<Fen>()
        .unwrap()
        .into_position(CastlingMode::Standard)
        .unwrap()
}

/// The judge: the game so far and the verdict the rules must give.
struct Judge {
    pos: Chess,
    /// Repetition keys since the last irreversible move, this position included.
    keys: Vec<Zobrist128>,
    /// The positions before this one since the last irreversible move, oldest first (the
    /// board text's `History:` line but its last entry).
    earlier: Vec<Chess>,
}

/// shakmaty's key of a position for repetition, under FIDE's rule: the en-passant
/// square counts only when an en-passant capture is legal.
fn key(pos: &Chess) -> Zobrist128 {
    pos.zobrist_hash(EnPassantMode::Legal)
}

impl Judge {
    fn new(fen: &str) -> Judge {
        let pos = position(fen);
        let keys = vec![key(&pos)];
        Judge {
            pos,
            keys,
            earlier: Vec::new(),
        }
    }

    /// Plays `uci`, which must be legal, and returns the verdict message ("" if the game
    /// goes on), with the rules' precedence: no move, fifty-move, material, repetition.
    fn play(&mut self, uci: &str) -> String {
        let m = uci
            .parse::<UciMove>()
            .unwrap()
            .to_move(&self.pos)
            .unwrap_or_else(|e| panic!("{uci} is not legal in {}: {e}", fen_of(&self.pos)));
        let after = self.pos.clone().play(m).unwrap();
        let before = std::mem::replace(&mut self.pos, after);
        let k = key(&self.pos);
        if self.pos.halfmoves() == 0 {
            self.keys.clear();
            self.earlier.clear();
        } else {
            self.earlier.push(before);
        }
        let seen = self.keys.iter().filter(|x| **x == k).count();
        self.keys.push(k);
        self.verdict(seen >= 2)
    }

    fn verdict(&self, repeated: bool) -> String {
        oracle::judge::verdict(&self.pos, repeated)
    }
}

/// The engine's move named in a message such as `Black plays Nf6` in `pos`, in UCI; the
/// name must be shakmaty's SAN of the move.
fn engine_uci(pos: &Chess, message: &str) -> String {
    let words: Vec<&str> = message.split(' ').collect();
    assert!(
        words.len() >= 3 && words[1] == "plays",
        "not an engine move: {message:?}"
    );
    let said = words[2].trim_end_matches('.');
    let m = said
        .parse::<SanPlus>()
        .unwrap_or_else(|e| panic!("{said:?} is not SAN: {e}"))
        .san
        .to_move(pos)
        .unwrap_or_else(|e| panic!("{said} is not legal in {}: {e}", fen_of(pos)));
    assert_eq!(SanPlus::from_move(pos.clone(), m).to_string(), said);
    m.to_uci(CastlingMode::Standard).to_string()
}

/// Plays one game from `fen` with the engine on `engine`'s side and `plies` player moves
/// at most; returns how the game ended ("" if it did not).
fn play_game(rules: &Rules, fen: &str, engine: Color, seed: u64, plies: usize) -> String {
    let mut rng = oracle::playouts::SplitMix64::new(seed);
    let mut judge = Judge::new(fen);
    let mut text = rules.first(fen, engine);
    assert_eq!(shown_fen(&text), fen_of(&judge.pos), "first board of {fen}");
    let end = judge.verdict(false);
    assert_eq!(over(&text), !end.is_empty(), "{fen}: {text}");
    if over(&text) {
        assert_eq!(message(&text), end);
        return end;
    }
    for _ in 0..plies {
        let before = text.clone();
        if judge.pos.turn() == engine {
            text = rules.answer(&text, "");
        } else {
            // Sometimes a mistake first: the same position must come back with a message.
            match rng.below(8) {
                0 => {
                    let again = rules.answer(&text, "e9e4");
                    assert!(message(&again).starts_with("Malformed move"), "{again}");
                    assert_eq!(shown_fen(&again), shown_fen(&before));
                    assert_eq!(field(&again, "History: "), field(&before, "History: "));
                }
                1 => {
                    let legal: Vec<String> = judge
                        .pos
                        .legal_moves()
                        .iter()
                        .map(|m| m.to_uci(CastlingMode::Standard).to_string())
                        .collect();
                    let wrong = ["a1a2", "e2e5", "h7h5", "b1b3", "d8d1", "e1g1", "g8f5"]
                        .into_iter()
                        .find(|m| !legal.iter().any(|l| l.starts_with(m)));
                    if let Some(wrong) = wrong {
                        let again = rules.answer(&text, wrong);
                        assert_eq!(
                            message(&again),
                            format!("Illegal move {wrong}, try again"),
                            "{again}"
                        );
                        assert_eq!(shown_fen(&again), shown_fen(&before));
                    }
                }
                _ => {}
            }
            let moves = judge.pos.legal_moves();
            let m = moves[rng.below(moves.len())];
            let mut uci = m.to_uci(CastlingMode::Standard).to_string();
            // Queen promotions are typed without their letter half of the time.
            if uci.ends_with('q') && rng.below(2) == 0 {
                uci.pop();
            }
            // Half of the moves are typed in SAN, as shakmaty writes them.
            let typed = if rng.below(2) == 0 {
                SanPlus::from_move(judge.pos.clone(), m).to_string()
            } else {
                uci.clone()
            };
            text = rules.answer(&text, &typed);
            let mut full = m.to_uci(CastlingMode::Standard).to_string();
            if full.len() == 4 && uci.len() == 4 {
                full = uci.clone();
            }
            let end = judge.play(&full);
            if !end.is_empty() {
                assert!(over(&text), "after {full}: {text}");
                assert_eq!(message(&text), end, "after {full}");
                assert_eq!(shown_fen(&text), fen_of(&judge.pos));
                return end;
            }
        }
        // The engine's reply: the move the search contract defines, with the game's
        // earlier positions as its rules input.
        let said = message(&text).to_string();
        let reply = engine_uci(&judge.pos, &said);
        let input = Input {
            history: judge.earlier.clone(),
            searchmoves: Vec::new(),
        };
        let best = oracle_history::search(Spec::of(rules.search), &judge.pos, &input)
            .expect("the engine had a move")
            .best;
        assert_eq!(
            reply,
            best,
            "the {} engine's move in {}",
            rules.search,
            fen_of(&judge.pos)
        );
        let end = judge.play(&reply);
        assert_eq!(
            shown_fen(&text),
            fen_of(&judge.pos),
            "after the engine's {reply}"
        );
        assert_eq!(over(&text), !end.is_empty(), "{text}");
        if !end.is_empty() {
            assert!(said.ends_with(&end), "{said} vs {end}");
            return end;
        }
    }
    String::new()
}

#[test]
fn near_end_positions_end_as_shakmaty_says() {
    let rules = Rules::new();
    // (FEN, engine side, the player's move, the verdict)
    let cases = [
        (
            "6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1",
            Color::Black,
            "a1a8",
            "Checkmate: white wins",
        ),
        (
            "k7/8/1K6/8/8/8/8/2Q5 w - - 0 1",
            Color::Black,
            "c1c7",
            "Draw by stalemate",
        ),
        (
            "8/8/4k3/8/8/3K4/8/7R w - - 99 80",
            Color::Black,
            "h1h2",
            "Draw by the fifty-move rule",
        ),
        (
            "8/8/4k3/8/8/3K4/3r4/8 w - - 0 1",
            Color::Black,
            "d3d2",
            "Draw by insufficient material",
        ),
    ];
    for (fen, engine, typed, want) in cases {
        let text = rules.first(fen, engine);
        let next = rules.answer(&text, typed);
        assert!(over(&next), "{fen} {typed}: {next}");
        assert_eq!(message(&next), want, "{fen} {typed}");
        let mut judge = Judge::new(fen);
        assert_eq!(judge.play(typed), want);
    }
    // The engine mates when it can, and says so.
    let text = rules.first("6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1", Color::White);
    let next = rules.answer(&text, "go");
    assert_eq!(message(&next), "White plays Ra8#. Checkmate: white wins");
    assert!(over(&next));
    // A promotion typed without its letter is a queen's.
    let text = rules.first("8/P7/8/8/8/8/k7/7K w - - 0 1", Color::Black);
    let next = rules.answer(&text, "a7a8");
    assert!(next.starts_with("8 ♕"), "{next}");
}

#[test]
fn a_third_repetition_is_a_draw() {
    let rules = Rules::new();
    let fen = "8/8/4k3/8/8/3K4/8/7R w - - 4 40";
    let text = rules.first(fen, Color::Black);
    // The position after h1h2, entered twice in the history already.
    let mut judge = Judge::new(fen);
    judge.play("h1h2");
    let after = rules.first(&fen_of(&judge.pos), Color::Black);
    let key = field(&after, "History: ").to_string();
    let history = field(&text, "History: ").to_string();
    let doctored = text.replace(
        &format!("History: {history}"),
        &format!("History: {history}{key}{key}"),
    );
    let next = rules.answer(&doctored, "h1h2");
    assert_eq!(message(&next), "Draw by threefold repetition", "{next}");
    assert!(over(&next));
    // Once only: the game goes on.
    let once = text.replace(
        &format!("History: {history}"),
        &format!("History: {history}{key}"),
    );
    let next = rules.answer(&once, "h1h2");
    assert!(!over(&next), "{next}");
}

/// The text with the player on the side to move (the `Engine plays:` line flipped).
fn player_to_move(text: &str) -> String {
    let side = field(text, "Side to move: ");
    let engine = if side == "white" { "black" } else { "white" };
    let current = field(text, "Engine plays: ");
    text.replace(
        &format!("Engine plays: {current}\n"),
        &format!("Engine plays: {engine}\n"),
    )
}

/// A repetition whose first occurrence follows a two-square pawn move that no pawn can
/// capture en passant: under FIDE's rule (judged by shakmaty's keys) it is the same
/// position as the later ones, so the third occurrence comes on white's fifth move, not
/// one ply later. The engine's king has one legal move at every turn (h8 and h7 in turn),
/// so the whole game is fixed.
#[test]
fn repetition_counts_a_position_after_a_double_push_under_fides_rule() {
    let rules = Rules::new();
    let fen = "5B1k/4N3/8/8/8/8/3P4/K7 w - - 0 1";
    let mut judge = Judge::new(fen);
    let mut text = rules.first(fen, Color::Black);
    let mut ended = String::new();
    for typed in ["d2d4", "a1b1", "b1a1", "a1b1", "b1a1"] {
        text = rules.answer(&player_to_move(&text), typed);
        let end = judge.play(typed);
        if !end.is_empty() {
            assert_eq!(message(&text), end, "after {typed}: {text}");
            assert!(over(&text), "after {typed}: {text}");
            ended = end;
            break;
        }
        let said = message(&text).to_string();
        let reply = engine_uci(&judge.pos, &said);
        let end = judge.play(&reply);
        assert_eq!(shown_fen(&text), fen_of(&judge.pos), "after {reply}");
        assert_eq!(over(&text), !end.is_empty(), "after {reply}: {text}");
        if !end.is_empty() {
            assert!(said.ends_with(&end), "{said} vs {end}");
            ended = end;
            break;
        }
    }
    assert_eq!(ended, "Draw by threefold repetition");
    assert_eq!(
        judge.pos.turn(),
        Color::Black,
        "the draw comes on white's move"
    );
}

/// The starts of the CI games.
const CI_STARTS: [(&str, Color); 4] = [
    (START, Color::Black),
    ("8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1", Color::White),
    ("8/8/4k3/8/2K5/8/3P4/8 w - - 0 1", Color::Black),
    ("8/P7/8/8/8/5k2/8/4K3 w - - 0 1", Color::Black),
];

#[test]
fn random_games_ci_share() {
    let rules = Rules::new();
    for (i, (fen, engine)) in CI_STARTS.iter().enumerate() {
        play_game(&rules, fen, *engine, 7 + i as u64, 3);
    }
}

/// The same games with `variants`' `play` programs (but `2ply`'s, which the games above
/// play), judged by their oracles.
fn random_games_of(variants: Vec<Search>) {
    for variant in variants.into_iter().filter(|v| *v != Search::TwoPly) {
        let rules = Rules::with_search(variant.name());
        for (i, (fen, engine)) in CI_STARTS.iter().enumerate() {
            play_game(&rules, fen, *engine, 17 + i as u64, 3);
        }
        // A lone-king ending, where `2ply-qe`'s endgame term decides.
        play_game(&rules, "8/8/8/4k3/8/8/8/R3K3 w - - 0 1", Color::White, 5, 4);
    }
}

/// The games with a variant of each family ([`volume::searches_per_family`]).
#[test]
fn random_games_of_a_search_of_each_family_ci_share() {
    random_games_of(volume::searches_per_family());
}

/// The games with the other variants: with the share above, every variant.
#[test]
#[ignore = "volume: cargo test --release --test chess -- play:: --ignored"]
fn random_games_of_the_other_searches() {
    random_games_of(volume::other_searches());
}

#[test]
#[ignore = "full volume: cargo test --release -- --ignored"]
fn random_games_full() {
    let rules = Rules::new();
    let openings = include_str!("../../data/positions/openings.txt");
    let fens: Vec<String> = openings
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(|l| l.split(';').next().unwrap().trim().to_string())
        .collect();
    // Endgames play long enough to reach the ends; openings check the middle game.
    let endgames = [
        "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
        "8/8/4k3/8/2K5/8/3P4/8 w - - 0 1",
        "8/P7/8/8/8/5k2/8/4K3 w - - 0 1",
        "4k3/8/8/8/8/8/8/R3K2R w KQ - 0 1",
        "6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1",
        "8/8/8/3k4/8/8/2B5/4K1N1 w - - 0 1",
    ];
    let mut ends: HashMap<String, usize> = HashMap::new();
    for game in 0..200u64 {
        let engine = if game % 4 < 2 {
            Color::White
        } else {
            Color::Black
        };
        let (fen, plies) = if game % 2 == 0 {
            (fens[(game / 2) as usize % fens.len()].clone(), 6)
        } else {
            (
                endgames[(game / 2) as usize % endgames.len()].to_string(),
                30,
            )
        };
        let end = play_game(&rules, &fen, engine, 1000 + game, plies);
        eprintln!("game {game}: {fen} engine {engine:?}: {end:?}");
        *ends.entry(end).or_default() += 1;
    }
    eprintln!("endings: {ends:?}");
}

/// Runs `regex-chess ARGS` with `input` on its standard input, to the end.
fn run_binary(args: &[&str], input: &[u8]) -> Output {
    binary::run(args, |_| {}, input)
}

#[test]
fn the_binary_plays_through_stdin() {
    let out = run_binary(
        &["play", "--search", "2ply-see", "--engine-color", "black"],
        b"e2e5\ne2e4\n",
    );
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains("Illegal move e2e5, try again"), "{text}");
    let said = text
        .lines()
        .find(|l| l.starts_with("Black plays"))
        .expect("a reply");
    let mut judge = Judge::new(START);
    judge.play("e2e4");
    let reply = engine_uci(&judge.pos, said);
    judge.play(&reply);
    assert!(
        !text.contains("History:"),
        "the player does not see the history: {text}"
    );
    assert!(text.starts_with("8 "), "{text}");
    assert!(text.contains("quit leaves the game"), "{text}");
    assert!(text.contains("Type a move in SAN"), "{text}");

    let bad = Command::new(env!("CARGO_BIN_EXE_regex-chess"))
        .args(["play", "--fen", "not a fen"])
        .output()
        .unwrap();
    assert!(!bad.status.success());
    let err = String::from_utf8(bad.stderr).unwrap();
    assert_eq!(err.lines().count(), 1, "{err}");
}

#[test]
fn a_line_that_is_not_utf8_is_a_message() {
    let out = run_binary(&["play", "--search", "2ply-see"], b"\xff\xfe\ne4\n");
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains("not UTF-8"), "{text}");
    assert!(text.contains("Moves: 1. e4 "), "{text}");
}

#[test]
fn quit_ends_the_game_at_once() {
    // Nothing after `quit` may be played.
    let out = run_binary(&["play", "--search", "2ply-see"], b"quit\ne2e4\n");
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    assert_eq!(text.matches("Your move: ").count(), 1, "{text}");
    assert!(!text.contains("Black plays"), "{text}");
}

/// `play --search NAME` for each of `variants` on the positions that tell the variants
/// apart: the reply is the one NAME's oracle plays.
fn the_binary_plays_as_the_oracle(variants: Vec<Search>) {
    let names: Vec<&str> = variants.iter().map(|v| v.name()).collect();
    for name in &names {
        for fen in VARIANT_FENS {
            let pos = position(fen);
            let side = if pos.turn() == Color::White {
                "white"
            } else {
                "black"
            };
            let out = run_binary(
                &[
                    "play",
                    "--search",
                    name,
                    "--fen",
                    fen,
                    "--engine-color",
                    side,
                ],
                b"\n",
            );
            let text = String::from_utf8_lossy(&out.stdout);
            assert!(out.status.success(), "{name} {fen}: {out:?}");
            let said = text
                .lines()
                .find(|l| l.contains(" plays "))
                .unwrap_or_else(|| panic!("{name} {fen}: no reply in {text}"));
            assert_eq!(
                engine_uci(&pos, said),
                oracle_move(name, fen),
                "play --search {name} in {fen}"
            );
        }
    }
}

#[test]
fn the_binary_plays_a_search_of_each_family_as_its_oracle() {
    // The positions tell every registered variant apart (so that each of them, here or
    // in the volume, is judged on a move of its own).
    let names: Vec<&str> = Search::ALL.iter().map(|v| v.name()).collect();
    oracle::variants::assert_they_tell_variants_apart(&names);
    the_binary_plays_as_the_oracle(volume::searches_per_family());
}

#[test]
#[ignore = "volume: cargo test --release --test chess -- play:: --ignored"]
fn the_binary_plays_the_other_searches_as_their_oracles() {
    the_binary_plays_as_the_oracle(volume::other_searches());
}

#[test]
fn an_unknown_search_is_an_error_naming_the_known_ones() {
    let out = run_binary(&["play", "--search", "9ply"], b"e4\n");
    assert!(!out.status.success());
    assert!(out.stdout.is_empty(), "no board: {out:?}");
    let err = String::from_utf8(out.stderr).unwrap();
    assert_eq!(
        err,
        format!(
            "regex-chess: error: unknown search `9ply`; known: {}\n",
            regex_chess_engine::Search::names().join(", ")
        )
    );
}
