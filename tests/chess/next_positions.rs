//! `next-positions` and `next-positions-full` (the public "regex-chess" task, see
//! `src/programs/next.rs`) against shakmaty, on both executors, and the exported pair list
//! under CPython with `scripts/check_next_positions.py` (python-chess as the oracle).
//!
//! Positions: the published example, the famous games of `data/next_positions/games.txt`,
//! the hand-made positions of `data/next_positions/crafted.txt` and seeded random playouts
//! weighted towards checks, promotions, en passant and castling. The input is the bare
//! FEN, as the task's harness passes it; the output must be exactly the FENs of the
//! children (shakmaty's, en passant after every double push, clocks included), joined by
//! `\n` with none at the end, in any order.
//!
//! The CI share runs a slice of each kind on both executors; `--ignored` runs every game
//! position and 600 random positions. Without `python3` or python-chess the CPython test
//! prints `SKIPPED`; with `REGEX_CHESS_REQUIRE_ENGINES=1` it fails instead.

use regex_chess_testkit::oracle;

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;

use regex_chess_compiler::{self as compiler, CompileOptions};
use regex_chess_machine::exec::ExecutorKind;
use regex_chess_machine::export::{self, Format};
use regex_chess_machine::program::ValidProgram;
use shakmaty::fen::Fen;
use shakmaty::san::SanPlus;
use shakmaty::{CastlingMode, Chess, Color, EnPassantMode, Move, Position, Role};

const EXAMPLE: &str = "rnb1k1nr/p2p1ppp/3B4/1p1NPN1P/6P1/3P1Q2/P1P5/q4Kb1 w kq - 0 1";

/// Which program: the task's terms or the full variant.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Search {
    Task,
    Full,
}

impl Search {
    fn name(self) -> &'static str {
        match self {
            Search::Task => "next-positions",
            Search::Full => "next-positions-full",
        }
    }

    /// The compiled program, built once per test binary.
    fn program(self) -> &'static ValidProgram {
        static TASK: OnceLock<ValidProgram> = OnceLock::new();
        static FULL: OnceLock<ValidProgram> = OnceLock::new();
        let cell = match self {
            Search::Task => &TASK,
            Search::Full => &FULL,
        };
        cell.get_or_init(|| {
            let entry = regex_chess_engine::registry::find(self.name()).expect("registered");
            compiler::compile(entry.build(), &CompileOptions::default())
                .program
                .validate()
                .expect("the compiler emits valid rules")
        })
    }

    /// True when the program answers for `pos` (the task's program: white to move).
    fn covers(self, pos: &Chess) -> bool {
        self == Search::Full || pos.turn() == Color::White
    }
}

fn position(fen: &str) -> Chess {
    let parsed: Fen = fen.parse().unwrap_or_else(|e| panic!("{fen}: {e}"));
    parsed
        .into_position(CastlingMode::Standard)
        .unwrap_or_else(|e| panic!("{fen}: {e}"))
}

fn fen_of(pos: &Chess) -> String {
    Fen::from_position(pos, EnPassantMode::Always).to_string()
}

/// The children's FENs by shakmaty, sorted.
fn oracle(pos: &Chess, variant: Search) -> Vec<String> {
    let mut out: Vec<String> = pos
        .legal_moves()
        .iter()
        .filter(|m| variant == Search::Full || m.promotion().is_none_or(|r| r == Role::Queen))
        .map(|m| {
            let mut child = pos.clone();
            child.play_unchecked(*m);
            fen_of(&child)
        })
        .collect();
    out.sort();
    out
}

/// Runs `variant` on `fen` with the executor `kind`; None when it agrees with shakmaty,
/// else what differs.
fn check(variant: Search, kind: ExecutorKind, fen: &str) -> Option<String> {
    let exec = executor(variant, kind);
    let out = exec.run(fen).unwrap();
    let mut got: Vec<String> = if out.is_empty() {
        Vec::new()
    } else {
        out.split('\n').map(str::to_string).collect()
    };
    got.sort();
    let want = oracle(&position(fen), variant);
    if got == want {
        return None;
    }
    let missing: Vec<&String> = want.iter().filter(|f| !got.contains(f)).collect();
    let extra: Vec<&String> = got.iter().filter(|f| !want.contains(f)).collect();
    Some(format!(
        "{} on {kind:?}, {fen}: {} lines, shakmaty {}; missing {missing:?}, extra {extra:?}",
        variant.name(),
        got.len(),
        want.len()
    ))
}

/// The executor of `kind` for `variant`, built once.
fn executor(
    variant: Search,
    kind: ExecutorKind,
) -> &'static dyn regex_chess_machine::exec::Executor {
    type Cell = OnceLock<Box<dyn regex_chess_machine::exec::Executor>>;
    static CELLS: [Cell; 4] = [
        OnceLock::new(),
        OnceLock::new(),
        OnceLock::new(),
        OnceLock::new(),
    ];
    let i = match (variant, kind) {
        (Search::Task, ExecutorKind::Reference) => 0,
        (Search::Task, _) => 1,
        (Search::Full, ExecutorKind::Reference) => 2,
        (Search::Full, _) => 3,
    };
    CELLS[i]
        .get_or_init(|| kind.build(variant.program().clone()))
        .as_ref()
}

fn data(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("data/next_positions")
        .join(name)
}

fn data_lines(name: &str) -> Vec<String> {
    let path = data(name);
    std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()))
        .lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
        .map(str::to_string)
        .collect()
}

/// Every position of the famous games before a move (either side to move).
fn game_positions() -> Vec<String> {
    let mut out = Vec::new();
    for line in data_lines("games.txt") {
        let (name, text) = line.split_once(';').expect("`name; moves`");
        let mut pos = Chess::default();
        for token in text.split_whitespace() {
            if ["1-0", "0-1", "1/2-1/2", "*"].contains(&token) {
                continue;
            }
            // `12.Nf3` or `12...Nf3`: the move follows the last dot.
            let token = token.rsplit('.').next().unwrap_or(token);
            if token.is_empty() {
                continue;
            }
            out.push(fen_of(&pos));
            let san: SanPlus = token
                .parse()
                .unwrap_or_else(|e| panic!("{name}: `{token}`: {e}"));
            let m = san
                .san
                .to_move(&pos)
                .unwrap_or_else(|e| panic!("{name}: `{token}` in {}: {e}", fen_of(&pos)));
            pos.play_unchecked(m);
        }
    }
    out
}

fn crafted_positions() -> Vec<String> {
    data_lines("crafted.txt")
        .iter()
        .map(|l| l.split(';').next().expect("a FEN").trim().to_string())
        .collect()
}

/// True when `pos` has something the task's positions are weighted towards: a check
/// (double checks included), a pinned piece's move refused, a promotion, en passant
/// (legal or refused), castling (legal or refused by an attacked square).
fn special(pos: &Chess) -> bool {
    let moves = pos.legal_moves();
    pos.is_check()
        || moves
            .iter()
            .any(|m| m.is_promotion() || m.is_en_passant() || m.is_castle())
        || pos.ep_square(EnPassantMode::Always).is_some()
        || !pos.castles().castling_rights().is_empty() && moves.len() < 30
}

/// `count` distinct positions (covered by `variant`, with a move) from playouts seeded
/// with `seed` starting at the start position and the crafted positions; moves weighted
/// towards promotions, en passant, castling, double pushes and checks. Special positions
/// (see [`special`]) are always taken, others one time in six.
fn random_positions(seed: u64, count: usize, variant: Search) -> Vec<String> {
    let mut starts = vec![Chess::default()];
    starts.extend(crafted_positions().iter().map(|f| position(f)));
    let mut rng = oracle::playouts::SplitMix64::new(seed);
    let mut seen = std::collections::HashSet::new();
    let mut out = Vec::new();
    while out.len() < count {
        let mut pos = starts[rng.below(starts.len())].clone();
        for _ in 0..100 {
            let moves = pos.legal_moves();
            if moves.is_empty() || pos.is_insufficient_material() {
                break;
            }
            if variant.covers(&pos) && (special(&pos) || rng.below(6) == 0) {
                let fen = fen_of(&pos);
                if seen.insert(fen.clone()) {
                    out.push(fen);
                    if out.len() == count {
                        break;
                    }
                }
            }
            let pick = |rng: &mut oracle::playouts::SplitMix64, keep: &dyn Fn(&Move) -> bool| {
                let kept: Vec<&Move> = moves.iter().filter(|m| keep(m)).collect();
                (!kept.is_empty() && rng.below(3) < 2).then(|| *kept[rng.below(kept.len())])
            };
            let m = pick(&mut rng, &|m| {
                m.is_promotion() || m.is_en_passant() || m.is_castle()
            })
            .or_else(|| {
                pick(&mut rng, &|m| {
                    m.role() == Role::Pawn
                        && m.from()
                            .is_some_and(|f| f.rank().distance(m.to().rank()) == 2)
                })
            })
            .or_else(|| {
                pick(&mut rng, &|m| {
                    let mut next = pos.clone();
                    next.play_unchecked(*m);
                    next.is_check()
                })
            })
            .unwrap_or_else(|| moves[rng.below(moves.len())]);
            pos.play_unchecked(m);
        }
    }
    out
}

/// Checks `fens` (those `variant` covers) on both executors; fails with the differences.
fn check_all(what: &str, variant: Search, fens: &[String]) {
    let fens: Vec<&String> = fens
        .iter()
        .filter(|f| variant.covers(&position(f)))
        .collect();
    let mut failures = Vec::new();
    for kind in [ExecutorKind::Fast, ExecutorKind::Reference] {
        failures.extend(fens.iter().filter_map(|f| check(variant, kind, f)));
    }
    assert!(
        failures.is_empty(),
        "{what}: {} of {} runs differ from shakmaty:\n{}",
        failures.len(),
        2 * fens.len(),
        failures[..failures.len().min(10)].join("\n")
    );
    eprintln!(
        "{what}: {} positions, both executors agree with shakmaty",
        fens.len()
    );
}

/// Every `step`-th item of `items`.
fn every(items: Vec<String>, step: usize) -> Vec<String> {
    items.into_iter().step_by(step).collect()
}

#[test]
fn the_published_example_gives_exactly_its_three_fens() {
    for kind in [ExecutorKind::Fast, ExecutorKind::Reference] {
        let out = executor(Search::Task, kind).run(EXAMPLE).unwrap();
        let mut lines: Vec<&str> = out.split('\n').collect();
        lines.sort();
        assert_eq!(
            lines,
            [
                "rnb1k1nr/p2p1ppp/3B4/1p1NPN1P/6P1/3P1Q2/P1P1K3/q5b1 b kq - 1 1",
                "rnb1k1nr/p2p1ppp/3B4/1p1NPN1P/6P1/3P1Q2/P1P3K1/q5b1 b kq - 1 1",
                "rnb1k1nr/p2p1ppp/3B4/1p1NPN1P/6P1/3P4/P1P5/q2Q1Kb1 b kq - 1 1",
            ],
            "{kind:?}: {out:?}"
        );
    }
}

#[test]
fn a_final_newline_is_optional_and_black_to_move_gives_nothing_under_the_task_terms() {
    let exec = executor(Search::Task, ExecutorKind::Fast);
    assert_eq!(exec.run(&format!("{EXAMPLE}\n")), exec.run(EXAMPLE));
    let black = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1";
    assert_eq!(exec.run(black).unwrap(), "");
    // The full variant answers for black, with the full-move number counted.
    let full = executor(Search::Full, ExecutorKind::Fast)
        .run(black)
        .unwrap();
    assert_eq!(full.lines().count(), 20);
    assert!(full.contains("rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq e6 0 2"));
}

#[test]
fn the_task_terms_leave_out_the_under_promotions() {
    let fen = "r3k3/1P6/8/8/8/8/8/4K3 w q - 0 1";
    let task = executor(Search::Task, ExecutorKind::Fast).run(fen).unwrap();
    let full = executor(Search::Full, ExecutorKind::Fast).run(fen).unwrap();
    assert_eq!(task.lines().count(), 5 + 2);
    assert_eq!(full.lines().count(), 5 + 8);
    // bxa8=Q takes the rook and with it black's last right.
    assert!(task.contains("Q3k3/8/8/8/8/8/8/4K3 b - - 0 1"), "{task}");
}

#[test]
fn crafted_positions_agree_with_shakmaty() {
    let fens = crafted_positions();
    check_all("crafted (task)", Search::Task, &fens);
    check_all("crafted (full)", Search::Full, &fens);
}

#[test]
fn famous_games_agree_with_shakmaty_ci_share() {
    let fens = every(game_positions(), 7);
    check_all("games, every 7th (task)", Search::Task, &fens);
    check_all("games, every 7th (full)", Search::Full, &fens);
}

#[test]
fn random_positions_agree_with_shakmaty_ci_share() {
    check_all(
        "random (task)",
        Search::Task,
        &random_positions(0x4E58_7001, 40, Search::Task),
    );
    check_all(
        "random (full)",
        Search::Full,
        &random_positions(0x4E58_7002, 40, Search::Full),
    );
}

#[test]
#[ignore = "volume: every game position and 600 random positions, both executors"]
fn every_game_position_and_many_random_positions_agree_with_shakmaty() {
    let games = game_positions();
    check_all("games (task)", Search::Task, &games);
    check_all("games (full)", Search::Full, &games);
    check_all(
        "random (task)",
        Search::Task,
        &random_positions(0x4E58_7101, 600, Search::Task),
    );
    check_all(
        "random (full)",
        Search::Full,
        &random_positions(0x4E58_7102, 600, Search::Full),
    );
}

/// True when `python3` can import python-chess; a missing one fails the test when
/// `REGEX_CHESS_REQUIRE_ENGINES` is set.
fn python_chess() -> bool {
    let found = Command::new("python3")
        .args(["-c", "import chess"])
        .output()
        .map(|o| o.status.success())
        .unwrap_or(false);
    if !found {
        assert!(
            std::env::var_os("REGEX_CHESS_REQUIRE_ENGINES").is_none(),
            "python3 with python-chess is required (REGEX_CHESS_REQUIRE_ENGINES is set) but \
             not found (pip install chess)"
        );
        println!("SKIPPED: python3 with python-chess not found; the CPython check ran nothing");
    }
    found
}

/// Runs the checker on the pair list `pairs` with `args`: its exit code and output.
fn checker(pairs: &[(String, String)], args: &[&str]) -> (Option<i32>, String) {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("re.json");
    std::fs::write(&path, serde_json::to_string(pairs).unwrap()).unwrap();
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("scripts/check_next_positions.py");
    let output = Command::new("python3")
        .arg(&script)
        .arg(&path)
        .args(args)
        .output()
        .expect("python3 runs");
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    );
    (output.status.code(), text)
}

/// The exported pair list of `variant`.
fn pairs(variant: Search) -> Vec<(String, String)> {
    let text = export::export(variant.program(), Format::Json).expect("exportable");
    serde_json::from_str(&text).expect("a pair list")
}

/// Exports `variant` as a pair list and runs the checker on it with `args`: it must pass.
fn run_checker(variant: Search, args: &[&str]) {
    let (code, text) = checker(&pairs(variant), args);
    eprintln!("{text}");
    assert_eq!(
        code,
        Some(0),
        "{}: the checker failed:\n{text}",
        variant.name()
    );
    assert!(text.contains("OK: all"), "{text}");
}

#[test]
fn the_exported_pair_list_passes_the_python_checker() {
    if !python_chess() {
        return;
    }
    run_checker(
        Search::Task,
        &["--random", "40", "--game-step", "3", "--quiet"],
    );
}

#[test]
fn the_python_checker_fails_a_broken_pair_list() {
    if !python_chess() {
        return;
    }
    let good = pairs(Search::Task);
    // Without the last pair every answer ends in a newline; without a move rule (a
    // knight's jump) moves go missing; with the full variant's list under-promotions
    // are extra.
    let mut unframed = good.clone();
    unframed.pop();
    let knight = good
        .iter()
        .position(|(p, _)| p.starts_with("%mn"))
        .expect("a knight rule");
    let mut no_jump = good.clone();
    no_jump.remove(knight);
    for (what, broken) in [
        ("no final rule", unframed),
        ("a knight jump missing", no_jump),
        ("under-promotions", pairs(Search::Full)),
    ] {
        let (code, text) = checker(&broken, &["--random", "0", "--game-step", "5", "--quiet"]);
        assert_eq!(code, Some(1), "{what}: the checker should fail:\n{text}");
        assert!(text.contains("FAILED"), "{what}: {text}");
    }
}

#[test]
#[ignore = "volume: the CPython checker with 300 random positions, both programs"]
fn the_exported_pair_lists_pass_the_python_checker_in_volume() {
    if !python_chess() {
        return;
    }
    run_checker(Search::Task, &["--random", "300", "--quiet"]);
    run_checker(Search::Full, &["--full", "--random", "300", "--quiet"]);
}

#[test]
fn the_export_is_under_the_task_limits() {
    let text = export::export(Search::Task.program(), Format::Json).expect("exportable");
    let pairs = pairs(Search::Task);
    let chars: usize = pairs
        .iter()
        .map(|(p, r)| p.chars().count() + r.chars().count())
        .sum();
    assert!(pairs.len() < 100_000, "{} pairs", pairs.len());
    assert!(chars < 10_000_000, "{chars} characters");
    assert!(text.len() < 10_000_000, "{} bytes", text.len());
}
