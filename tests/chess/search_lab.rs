//! The search lab (issue 41): a design of `crates/testkit/src/oracle/lab.rs` plays Stockfish
//! and is costed in state, so that its strength and what the rules would pay for it sit
//! on one line of a table (docs/strength.md, "The search lab").
//!
//! ```sh
//! LAB="full;lmp=4;sel,xchg" [LAB_GAMES=400] [LAB_ROUNDS=1] [LAB_JOBS=2] [LAB_COST_ONLY=1] \
//!   [LAB_POSITIONS=1] \
//!   cargo test --release --test chess -- search_lab::lab_table --ignored --nocapture
//! ```
//!
//! Each design (`;`-separated, written as [`Design::parse`] reads them) plays
//! `LAB_GAMES` games against Stockfish 15.1 (`/usr/games/stockfish`, or
//! `LAB_STOCKFISH`) at `Skill Level=0`, depth 1 (or the options of `LAB_OPTIONS`,
//! `NAME=VALUE` separated by `;`, and `LAB_MOVETIME` ms a move instead of depth 1), from
//! `data/positions/lab-openings.txt`
//! (opening `k` with the engine white, then black: 400 games are its first 200
//! openings; `LAB_ROUNDS=N` plays them `N` times, Stockfish's weakened choices making
//! other games), and one Markdown row comes out: games, +/=/-, score, Elo and 95%
//! interval, then the predicted threads and bytes of [`lab_cost`] at the widest point on
//! the bench positions (the widest, and the geometric mean of the bytes; `LAB_POSITIONS`
//! writes each position's on standard error).
//!
//! In the default `cargo test`: [`the_cost_count_tracks_the_rules`] runs the compiled
//! `2ply-qe`, `3ply-qe` and `3ply-see` rules on bench positions and holds the lab's
//! predicted threads and bytes to what their states really held, and
//! [`the_lab_plays_the_rules_oracle`] holds the lab's `3ply-qe` and `3ply-qe,disc,q2`
//! designs to the rules' oracles of `3ply-qe` and `3ply-see`, move and score;
//! [`the_cut_offs_keep_the_minimax`] holds every kind of setting, searched with cut-offs,
//! to the plain minimax; [`the_static_exchange_counts_the_recapture`] checks `see`.
//! `lab_calibrate` (ignored) prints the measurements the model's constants come from;
//! `lab_openings::lab_openings` (ignored, Stockfish) wrote the openings file.

use regex_chess_testkit::oracle;

use std::ops::ControlFlow;
use std::sync::Arc;

use oracle::history;
use oracle::lab::{self, Design};
use oracle::{judge, lab_cost, perft, playouts, variants};
use regex_chess_arena::elo::{self, EloEstimate};
use regex_chess_engine as engine;
use regex_chess_engine::matchplay::players::{
    OpponentSettings, PlayedMove, Player, Turn, UciPlayer,
};
use regex_chess_engine::matchplay::{
    MatchConfig, MatchError, MatchProgress, Pairing, Summary, read_openings, run_match, schedule,
};
use regex_chess_machine::exec::{ExecutorKind, Observer, RuleReport};
use shakmaty::Position;

/// What the rules' state held at its widest on one position.
#[derive(Clone, Copy, Debug)]
struct Widest {
    bytes: usize,
    threads: usize,
}

/// Keeps the largest state's length and its thread count.
#[derive(Default)]
struct Largest {
    best: usize,
    threads: usize,
}

impl Observer for Largest {
    fn after_rule(
        &mut self,
        _: usize,
        report: &RuleReport,
        state: &dyn Fn() -> String,
    ) -> ControlFlow<()> {
        if report.state_len > self.best {
            self.best = report.state_len;
            self.threads = state().matches("\n#stack:").count();
        }
        ControlFlow::Continue(())
    }

    fn wants_match_counts(&self) -> bool {
        false
    }
}

/// The widest state of the rules program `program` (fast executor) on `fen`.
fn widest(program: &str, fen: &str) -> Widest {
    let exec = ExecutorKind::Fast.build(engine::program(program).expect("a registered program"));
    let mut largest = Largest::default();
    exec.run_observed(&format!("{fen}\n"), &mut largest)
        .unwrap();
    Widest {
        bytes: largest.best,
        threads: largest.threads,
    }
}

/// The rules program of a lab design that the rules already run, and its design.
const MEASURED: [(&str, &str); 4] = [
    ("move-qe", "2ply"),
    ("move-3qe", "3ply-qe"),
    ("move-3see", "3ply-qe,disc,q2"),
    ("move-3seec", "3ply-qe,disc,check,q2"),
];

/// The lab's predicted threads may differ from the rules' by this factor either way (on
/// the bench positions they agree within 3%: the count follows the rules' forks).
const THREAD_TOLERANCE: f64 = 1.10;

/// The predicted bytes may differ by this factor either way: one constant per fork level
/// stands for threads whose variables differ (within 32% on the bench positions, see
/// `lab_calibrate`'s table in docs/strength.md).
const BYTE_TOLERANCE: f64 = 1.35;

#[test]
fn the_cost_count_tracks_the_rules() {
    // An opening and a middlegame of the bench, where both programs' widest points are
    // forks of the second and third levels (`lab_calibrate` runs all eight positions);
    // the four runs at once.
    let fens = perft::suite_fens("bench.txt");
    let cases: Vec<(&str, &str, &String)> = MEASURED
        .iter()
        .flat_map(|&(program, name)| [&fens[1], &fens[2]].map(|f| (program, name, f)))
        .collect();
    let failures: Vec<String> = std::thread::scope(|scope| {
        let runs: Vec<_> = cases
            .iter()
            .map(|&(program, name, fen)| scope.spawn(move || drift(program, name, fen)))
            .collect();
        runs.into_iter()
            .flat_map(|r| r.join().expect("a run"))
            .collect()
    });
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// What is wrong with the lab's prediction of `name`'s cost on `fen` against the widest
/// state of the rules program `program`: nothing, or a sentence per figure.
fn drift(program: &str, name: &str, fen: &str) -> Vec<String> {
    let d = Design::parse(name).expect("a design");
    let real = widest(program, fen);
    let predicted = lab_cost::cost(&d, &judge::position(fen));
    let mut wrong = Vec::new();
    for (what, p, r, tolerance) in [
        (
            "threads",
            predicted.threads as f64,
            real.threads as f64,
            THREAD_TOLERANCE,
        ),
        ("bytes", predicted.bytes, real.bytes as f64, BYTE_TOLERANCE),
    ] {
        let ratio = p / r;
        if !(1.0 / tolerance..=tolerance).contains(&ratio) {
            wrong.push(format!(
                "{program} on {fen}: the lab predicts {p:.0} {what}, the rules held {r:.0} \
                 (ratio {ratio:.2}, allowed {:.2} to {tolerance})",
                1.0 / tolerance
            ));
        }
    }
    wrong
}

#[test]
#[ignore = "prints the rules' widest states against the lab's count: cargo test --release --test chess -- search_lab::lab_calibrate --ignored --nocapture"]
fn lab_calibrate() {
    println!(
        "| program | position | rules threads | rules bytes | bytes/thread | lab threads | level | lab bytes |"
    );
    println!("| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: |");
    let lines = perft::suite("bench.txt");
    let bench: Vec<(&str, &str)> = lines
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(|l| {
            let mut f = l.split(';');
            let fen = f.next().expect("a FEN");
            (fen, f.nth(1).unwrap_or(""))
        })
        .collect();
    for (program, name) in MEASURED {
        let d = Design::parse(name).expect("a design");
        for (fen, label) in &bench {
            let real = widest(program, fen);
            let c = lab_cost::cost(&d, &judge::position(fen));
            println!(
                "| `{program}` | {label} | {} | {} | {:.0} | {} | {} | {:.0} |",
                real.threads,
                real.bytes,
                real.bytes as f64 / real.threads as f64,
                c.threads,
                c.level,
                c.bytes
            );
        }
    }
}

/// Lab designs and the registered variant whose oracle they play.
const PLAYED: [(&str, &str); 3] = [
    ("3ply-qe", "3ply-qe"),
    ("3ply-qe,disc,q2", "3ply-see"),
    ("3ply-qe,disc,check,q2", "3ply-see-check"),
];

#[test]
fn the_lab_plays_the_rules_oracle() {
    // The lab's `3ply-qe` and `3ply-qe,disc,q2` designs, with their cut-offs, choose the
    // move and score of the rules' oracles (the full minimax) on the bench, the variant
    // positions and playouts.
    let mut fens = perft::suite_fens("bench.txt");
    fens.extend(variants::VARIANT_FENS.iter().map(|f| f.to_string()));
    fens.extend(
        playouts::positions(playouts::SEED, 40)
            .into_iter()
            .map(|s| s.fen),
    );
    for (design, variant) in PLAYED {
        let d = Design::parse(design).expect("a design");
        for fen in &fens {
            let pos = judge::position(fen);
            let want = variants::search(variants::Spec::of(variant), &pos);
            let got = lab::search(&d, &pos);
            assert_eq!(
                want.map(|s| (s.best, s.score)),
                got.map(|s| (s.best, s.score)),
                "{design} against {variant}'s oracle on {fen}"
            );
        }
    }
}

#[test]
fn the_cut_offs_keep_the_minimax() {
    // Every kind of setting, searched with and without cut-offs: the same move and score.
    let designs = [
        "2ply",
        "full",
        "lmp=3",
        "full,root=3",
        "lmp=2,see",
        "sel,xchg",
        "sel,check",
        "sel,disc,q2",
        "sel,disc,check,q2",
        "lmp=3,check",
        "full,mob",
        "sel,passed,shelter,pair,open",
    ];
    let mut fens = perft::suite_fens("bench.txt");
    fens.retain(|f| !f.starts_with("r3k2r")); // kiwipete and position 4: seconds unpruned
    fens.extend(variants::VARIANT_FENS.iter().map(|f| f.to_string()));
    fens.extend(
        playouts::positions(playouts::SEED ^ 41, 6)
            .into_iter()
            .map(|s| s.fen),
    );
    for name in designs {
        let d = Design::parse(name).expect("a design");
        for fen in &fens {
            let pos = judge::position(fen);
            let cut = lab::search_pruned(&d, &pos, true).map(|s| (s.best, s.score));
            let all = lab::search_pruned(&d, &pos, false).map(|s| (s.best, s.score));
            assert_eq!(cut, all, "{name} on {fen}");
        }
    }
}

#[test]
fn the_static_exchange_counts_the_recapture() {
    // Black (the opponent) takes the pawn on d4 with its queen: defended by the pawn on
    // e3, the engine's recapture makes it a loss for black, which `see` scores above
    // standing pat (so the leaf's minimum drops it); undefended, it is the pawn's loss.
    let d = Design::parse("3ply-qe,see").expect("a design");
    let root = judge::position("3qk3/8/8/8/3P4/4P3/8/4K3 w - - 0 1");
    let lab = lab::Lab::new(&d, &root);
    for (fen, defended) in [
        ("3qk3/8/8/8/3P4/4P3/8/4K3 b - - 0 1", true),
        ("3qk3/8/8/8/3P4/8/8/4K3 b - - 0 1", false),
    ] {
        let last = judge::position(fen);
        let take = last
            .legal_moves()
            .into_iter()
            .find(|m| judge::uci(m) == "d8d4")
            .expect("Qxd4");
        let after = judge::play_move(&last, &take);
        let (stand, see) = (lab.material(&last), lab.see(&last, &take));
        if defended {
            assert!(see > stand + 500, "{fen}: {see} against {stand}");
        } else {
            assert_eq!(see, lab.material(&after), "{fen}");
            assert!(see < stand, "{fen}");
        }
    }
}

/// A lab design as a match player, with the game's history as the rules input.
struct LabPlayer {
    design: Arc<Design>,
}

impl Player for LabPlayer {
    fn name(&self) -> String {
        format!("regex-chess-lab {}", self.design.name)
    }

    fn choose(&mut self, turn: &Turn<'_>) -> Result<PlayedMove, MatchError> {
        history::played_move(turn, |pos, input| {
            history::with_root_moves(pos, input, |moves, near| {
                lab::search_moves(&self.design, pos, moves, near)
            })
            .map(|best| best.best)
        })
    }
}

fn env(name: &str) -> Option<String> {
    std::env::var(name).ok().filter(|v| !v.is_empty())
}

/// The path of Stockfish, or `None` (and a note) when it is missing.
pub(crate) fn stockfish(test: &str) -> Option<String> {
    let path = env("LAB_STOCKFISH").unwrap_or_else(|| "/usr/games/stockfish".to_string());
    if std::path::Path::new(&path).exists() {
        Some(path)
    } else {
        oracle::engine::require_tool(test, "stockfish");
        None
    }
}

/// The lab's cost columns of `d` on the bench positions: widest threads, widest bytes,
/// geometric mean of the bytes.
fn cost_columns(d: &Design) -> String {
    let fens = perft::suite_fens("bench.txt");
    let costs: Vec<lab_cost::Cost> = fens
        .iter()
        .map(|f| lab_cost::cost(d, &judge::position(f)))
        .collect();
    if env("LAB_POSITIONS").is_some() {
        for (fen, c) in fens.iter().zip(&costs) {
            eprintln!(
                "{}: {} threads at level {}, {:.2} MB: {fen}",
                d.name,
                c.threads,
                c.level,
                c.bytes / 1e6
            );
        }
    }
    let threads = costs.iter().map(|c| c.threads).max().unwrap_or(0);
    let bytes = costs.iter().map(|c| c.bytes).fold(0.0, f64::max);
    let mean = (costs.iter().map(|c| c.bytes.ln()).sum::<f64>() / costs.len() as f64).exp();
    format!("{} | {:.1} MB | {:.2} MB", threads, bytes / 1e6, mean / 1e6)
}

/// Plays `d` over `games` games of the lab's openings; the result columns.
fn play(d: &Arc<Design>, games: usize, rounds: usize, jobs: usize, path: &str) -> String {
    let openings = read_openings(&perft::suite("lab-openings.txt")).expect("the lab's openings");
    let one = schedule(openings.len(), None, None);
    assert!(
        games <= one.len(),
        "{games} games: the lab's openings give {} distinct ones",
        one.len()
    );
    // Each round plays the same games again (Stockfish's weakened choices vary).
    let pairings: Vec<Pairing> = (0..rounds)
        .flat_map(|r| {
            one.iter().take(games).map(move |p| Pairing {
                number: r * games + p.number,
                ..*p
            })
        })
        .collect();
    let movetime: Option<u64> = env("LAB_MOVETIME").map(|m| m.parse().expect("ms"));
    let settings = OpponentSettings {
        path: path.to_string(),
        args: Vec::new(),
        options: env("LAB_OPTIONS")
            .unwrap_or_else(|| "Skill Level=0".to_string())
            .split(';')
            .filter(|o| !o.is_empty())
            .map(|o| {
                let (k, v) = o.split_once('=').expect("NAME=VALUE");
                (k.to_string(), v.to_string())
            })
            .collect(),
        depth: movetime.is_none().then_some(1),
        movetime,
        timeout: None,
    };
    let config = MatchConfig {
        pairings,
        openings,
        max_plies: 300,
        jobs,
        sprt: None,
    };
    let engine =
        || -> Result<Box<dyn Player>, MatchError> { Ok(Box::new(LabPlayer { design: d.clone() })) };
    let opponent = || -> Result<Box<dyn Player>, MatchError> {
        Ok(Box::new(UciPlayer::start(settings.clone())?))
    };
    let progress = |p: &MatchProgress<'_>| {
        if env("LAB_VERBOSE").is_some() {
            eprintln!("game {}: {:?}", p.game.number + 1, p.game.outcome);
        }
    };
    let started = std::time::Instant::now();
    let records = run_match(&config, &engine, &opponent, &progress)
        .expect("the match")
        .games;
    let s = Summary::of(&records);
    let plies: usize = records.iter().map(|g| g.moves.len()).sum();
    eprintln!(
        "{}: {} games in {:.0} s, {} plies, endings {:?}, forfeits {:?}",
        d.name,
        records.len(),
        started.elapsed().as_secs_f64(),
        plies,
        s.terminations,
        s.engine_forfeits
    );
    let n = s.wins + s.draws + s.losses;
    let e = EloEstimate::from_results(s.wins, s.draws, s.losses).expect("games");
    format!(
        "{n} | {}/{}/{} | {:.1}% | {} ({} to {})",
        s.wins,
        s.draws,
        s.losses,
        e.score * 100.0,
        elo::show(e.elo),
        elo::show(e.low),
        elo::show(e.high)
    )
}

#[test]
#[ignore = "the lab: LAB=\"design;...\" cargo test --release --test chess -- search_lab::lab_table --ignored --nocapture"]
fn lab_table() {
    let designs: Vec<Arc<Design>> = env("LAB")
        .unwrap_or_else(|| "3ply-qe".to_string())
        .split(';')
        .map(|n| Arc::new(Design::parse(n).unwrap_or_else(|| panic!("no design {n:?}"))))
        .collect();
    let games: usize = env("LAB_GAMES").map_or(400, |g| g.parse().expect("games"));
    let rounds: usize = env("LAB_ROUNDS").map_or(1, |r| r.parse().expect("rounds"));
    let jobs: usize = env("LAB_JOBS").map_or(2, |j| j.parse().expect("jobs"));
    let cost_only = env("LAB_COST_ONLY").is_some();
    let path = if cost_only {
        None
    } else {
        match stockfish("lab_table") {
            Some(p) => Some(p),
            None => return,
        }
    };
    println!(
        "| design | games | +/=/- | score | Elo (95%) | widest threads | widest bytes | bytes, geometric mean |"
    );
    println!("| --- | ---: | --- | ---: | --- | ---: | ---: | ---: |");
    for d in &designs {
        let costs = cost_columns(d);
        let result = match &path {
            Some(p) => play(d, games, rounds, jobs, p),
            None => "- | - | - | -".to_string(),
        };
        println!("| `{}` | {result} | {costs} |", d.name);
    }
}
