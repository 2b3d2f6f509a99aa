//! `regex-chess banqi play | uci | match | bench | perft`: the Banqi engine
//! ([`regex_chess_banqi`]) on the command line. Thin: it parses arguments, builds the
//! players and prints; the games, the protocol and the search are the library's.

use std::io::Write;
use std::path::PathBuf;
use std::time::Duration;

use clap::{Args, Subcommand};

use super::progress::{self, Mode};
use super::{CliError, fail};
use regex_chess_arena::elo::{score_of_elo, show};
use regex_chess_banqi::eval::EvalConfig;
use regex_chess_banqi::external::External;
use regex_chess_banqi::matches::{self, MatchSpec, Record, Summary};
use regex_chess_banqi::opponents::{Greedy, Mcts, RandomMover};
use regex_chess_banqi::play::{PlayOptions, play};
use regex_chess_banqi::player::{EnginePlayer, Player};
use regex_chess_banqi::search::{Limits, SearchConfig};
use regex_chess_banqi::uci::Session;
use regex_chess_banqi::{DrawRules, Position, perft};

/// The table's size: 2^20 entries of 16 bytes.
const TT_BITS: u32 = 20;

/// Arguments of `banqi`.
#[derive(Args, Debug)]
pub struct BanqiArgs {
    #[command(subcommand)]
    command: BanqiCommand,
}

#[derive(Subcommand, Debug)]
enum BanqiCommand {
    /// Play a game against the engine in the terminal.
    Play(PlayArgs),
    /// Speak the UCI subset of Banqi drivers on standard input and output.
    Uci(EngineArgs),
    /// Play the engine against a fixed opponent from seeded deals, each twice with the
    /// seats swapped.
    Match(MatchArgs),
    /// Nodes and nodes a second on the fixed bench positions.
    Bench(BenchArgs),
    /// Count move sequences (a flip once per kind it can reveal), per first move.
    Perft(PerftArgs),
}

/// What every engine takes: the draw rule and switches.
#[derive(Args, Debug, Clone)]
struct EngineArgs {
    /// Plies without a flip or capture that draw (40 Mistboard, 60 course arena, 180
    /// Olympiad).
    #[arg(long, default_value_t = 40, value_parser = clap::value_parser!(u16).range(1..))]
    no_progress: u16,
    /// Switch an evaluation term or a search feature off (repeatable): corrected-values,
    /// covered-material, mobility, domination, general-safety, chase, star1, tt,
    /// quiescence, pvs, killers-history, root-guard, contempt.
    #[arg(long)]
    without: Vec<String>,
}

impl EngineArgs {
    fn configs(&self) -> Result<(EvalConfig, SearchConfig), CliError> {
        let mut eval = EvalConfig::default();
        let mut search = SearchConfig {
            no_progress: self.no_progress,
            ..SearchConfig::default()
        };
        for name in &self.without {
            if let Some(e) = eval.without(name) {
                eval = e;
            } else if let Some(s) = search.without(name) {
                search = s;
            } else {
                let names = [&EvalConfig::NAMES[..], &SearchConfig::NAMES[..]].concat();
                return fail(format!(
                    "--without {name}: no such term or feature (one of {})",
                    names.join(", ")
                ));
            }
        }
        Ok((eval, search))
    }
}

/// The engine's budget a move.
#[derive(Args, Debug, Clone)]
struct BudgetArgs {
    /// Milliseconds a move.
    #[arg(long)]
    movetime: Option<u64>,
    /// Nodes a move (deterministic: strength does not depend on the machine).
    #[arg(long)]
    nodes: Option<u64>,
}

impl BudgetArgs {
    fn limits(&self, default_ms: u64) -> Limits {
        let mut limits = Limits {
            nodes: self.nodes,
            time: self.movetime.map(Duration::from_millis),
            depth: None,
        };
        if limits.nodes.is_none() && limits.time.is_none() {
            limits.time = Some(Duration::from_millis(default_ms));
        }
        limits
    }
}

/// Arguments of `banqi play`.
#[derive(Args, Debug)]
struct PlayArgs {
    /// The deal's seed (default: from the clock).
    #[arg(long)]
    seed: Option<u64>,
    /// Let the engine move first.
    #[arg(long)]
    second: bool,
    #[command(flatten)]
    budget: BudgetArgs,
    #[command(flatten)]
    engine: EngineArgs,
}

/// Arguments of `banqi match`.
#[derive(Args, Debug)]
struct MatchArgs {
    /// The opponent: random, greedy, mcts (Monte-Carlo tree search, `--playouts`), or
    /// uci:PATH (an external engine over the UCI subset, at `--opponent-movetime`;
    /// arguments may follow the path, as in `uci:regex-chess banqi uci`).
    #[arg(long, default_value = "greedy")]
    opponent: String,
    /// Deals; each is played twice, seats swapped.
    #[arg(long, default_value_t = 200)]
    deals: usize,
    /// The first deal's seed (deal i uses seed + i).
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Games played at once.
    #[arg(long, default_value_t = 2)]
    jobs: usize,
    #[command(flatten)]
    budget: BudgetArgs,
    /// The opponent's milliseconds a move (the Monte-Carlo player's and an external
    /// engine's; the others answer at once).
    #[arg(long, default_value_t = 100)]
    opponent_movetime: u64,
    /// The Monte-Carlo player's playouts a move (at most; the time limit may stop it
    /// first).
    #[arg(long, default_value_t = 1_000_000)]
    playouts: u32,
    /// Append one JSON line per game to this file.
    #[arg(long)]
    results: Option<PathBuf>,
    #[command(flatten)]
    engine: EngineArgs,
}

/// Arguments of `banqi bench`.
#[derive(Args, Debug)]
struct BenchArgs {
    /// Nodes per position.
    #[arg(long, default_value_t = 1_000_000)]
    nodes: u64,
}

/// Arguments of `banqi perft`.
#[derive(Args, Debug)]
struct PerftArgs {
    /// Plies.
    #[arg(long, default_value_t = 2)]
    depth: u32,
    /// The position string (default: the start).
    #[arg(long, allow_hyphen_values = true)]
    fen: Option<String>,
}

impl BanqiArgs {
    /// Whether this is `banqi uci`.
    pub fn is_uci(&self) -> bool {
        matches!(self.command, BanqiCommand::Uci(_))
    }
}

/// Runs `banqi`.
pub fn run(args: BanqiArgs) -> Result<(), CliError> {
    match args.command {
        BanqiCommand::Play(args) => run_play(args),
        BanqiCommand::Uci(args) => {
            let (eval, search) = args.configs()?;
            let mut session = Session::new(eval, search, TT_BITS);
            session.run(std::io::stdin().lock(), &mut std::io::stdout().lock())?;
            Ok(())
        }
        BanqiCommand::Match(args) => run_match(args),
        BanqiCommand::Bench(args) => {
            regex_chess_banqi::bench::run(args.nodes, &mut std::io::stdout().lock())?;
            Ok(())
        }
        BanqiCommand::Perft(args) => run_perft(args),
    }
}

fn run_play(args: PlayArgs) -> Result<(), CliError> {
    let (eval, search) = args.engine.configs()?;
    let seed = args.seed.unwrap_or_else(|| {
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos() as u64)
    });
    let options = PlayOptions {
        seed,
        human_first: !args.second,
        limits: args.budget.limits(1000),
        rules: DrawRules {
            no_progress: args.engine.no_progress,
        },
    };
    let mut engine = EnginePlayer::new(eval, search, TT_BITS);
    let mut stdout = std::io::stdout().lock();
    writeln!(stdout, "deal seed {seed}")?;
    play(std::io::stdin().lock(), &mut stdout, &mut engine, options)?;
    Ok(())
}

fn run_perft(args: PerftArgs) -> Result<(), CliError> {
    let position: Position = match &args.fen {
        Some(fen) => fen.parse()?,
        None => Position::start(),
    };
    let mut list = regex_chess_banqi::movegen::MoveList::new();
    position.legal_moves(&mut list);
    let mut stdout = std::io::stdout().lock();
    let mut total = 0;
    for &mv in list.as_slice() {
        let outcomes: Vec<_> = if mv.is_flip() {
            position.pool().outcomes().map(|(p, _)| Some(p)).collect()
        } else {
            vec![None]
        };
        let mut count = 0;
        for revealed in outcomes {
            let mut next = position;
            next.play_unchecked(mv, revealed);
            count += perft::perft(&next, args.depth.saturating_sub(1));
        }
        writeln!(stdout, "{mv}: {count}")?;
        total += count;
    }
    if args.depth == 0 {
        total = 1;
    }
    writeln!(stdout, "\nperft({}) = {total}", args.depth)?;
    Ok(())
}

/// Makes an opponent from a game's seed.
type OpponentMaker = dyn Fn(u64) -> Box<dyn Player> + Sync;

fn opponent_maker(name: &str, playouts: u32) -> Result<Box<OpponentMaker>, CliError> {
    if let Some(path) = name.strip_prefix("uci:") {
        // Started once here to report a bad path clearly, then once per game.
        External::spawn(path).map_err(|e| CliError(format!("--opponent {name}: {e}")))?;
        let path = path.to_string();
        return Ok(Box::new(move |_| match External::spawn(&path) {
            Ok(engine) => Box::new(engine) as Box<dyn Player>,
            Err(_) => Box::new(Silent),
        }));
    }
    Ok(match name {
        "random" => Box::new(|seed| Box::new(RandomMover::new(seed)) as Box<dyn Player>),
        "greedy" => Box::new(|seed| Box::new(Greedy::new(seed)) as Box<dyn Player>),
        "mcts" => Box::new(move |seed| Box::new(Mcts::new(playouts, seed)) as Box<dyn Player>),
        other => {
            return fail(format!(
                "--opponent {other}: expected random, greedy, mcts or uci:PATH"
            ));
        }
    })
}

/// An external engine that failed to start: it never answers (each game counts a crash).
struct Silent;

impl Player for Silent {
    fn name(&self) -> String {
        "an engine that failed to start".into()
    }
    fn choose(
        &mut self,
        _: &regex_chess_banqi::Game,
        _: Limits,
    ) -> Option<regex_chess_banqi::Move> {
        None
    }
}

fn describe(r: &Record) -> String {
    let result = match r.points {
        p if p > 0.75 => "won",
        p if p < 0.25 => "lost",
        _ => "drew",
    };
    let how = match (&r.fault, r.outcome) {
        (Some((by_engine, fault)), _) => format!(
            "{fault:?} by the {}",
            if *by_engine { "engine" } else { "opponent" }
        ),
        (None, Some(outcome)) => outcome.to_string(),
        (None, None) => "ply limit".into(),
    };
    let seat = if r.engine_first { "first" } else { "second" };
    format!(
        "deal {} (engine {seat}): {result} in {} plies ({how})",
        r.deal, r.plies
    )
}

fn json_line(r: &Record) -> String {
    serde_json::json!({
        "game": "banqi",
        "deal": r.deal,
        "engine_first": r.engine_first,
        "points": r.points,
        "outcome": r.outcome.map(|o| o.to_string()),
        "fault": r.fault.as_ref().map(|(e, f)| format!("{f:?} by {}", if *e { "engine" } else { "opponent" })),
        "plies": r.plies,
        "general_lost": r.general_lost,
        "won_drawn": r.won_drawn,
        "shed_before_draw": r.shed_before_draw,
        "moves": r.moves,
    })
    .to_string()
}

fn run_match(args: MatchArgs) -> Result<(), CliError> {
    let (eval, search) = args.engine.configs()?;
    let opponent = opponent_maker(&args.opponent, args.playouts)?;
    if args.deals == 0 || args.jobs == 0 {
        return fail("--deals and --jobs must be at least 1");
    }
    let engine = move || Box::new(EnginePlayer::new(eval, search, TT_BITS)) as Box<dyn Player>;
    let engine_limits = args.budget.limits(100);
    let spec = MatchSpec {
        deals: args.deals,
        seed: args.seed,
        jobs: args.jobs,
        rules: DrawRules {
            no_progress: args.engine.no_progress,
        },
        engine_limits,
        opponent_limits: Limits {
            time: Some(Duration::from_millis(args.opponent_movetime)),
            ..Limits::default()
        },
        engine: &engine,
        opponent: opponent.as_ref(),
    };
    let total = args.deals * 2;
    let live = progress::mode() != Mode::Off;
    let records = matches::run(&spec, &|r, done| {
        if live {
            progress::println(&format!("banqi match: {done}/{total} {}", describe(r)));
        }
    });
    let mut summary = Summary::default();
    records.iter().for_each(|r| summary.add(r));
    if let Some(path) = &args.results {
        let lines: Vec<String> = records.iter().map(json_line).collect();
        super::append_lines(path, &lines)?;
    }
    let t = summary.tally;
    let budget = match (engine_limits.nodes, engine_limits.time) {
        (Some(n), _) => format!("{n} nodes a move"),
        (None, Some(d)) => format!("{} ms a move", d.as_millis()),
        _ => String::new(),
    };
    let without = if args.engine.without.is_empty() {
        String::new()
    } else {
        format!(" without {}", args.engine.without.join(", "))
    };
    let opponent_budget = match args.opponent.as_str() {
        "mcts" => format!(
            " ({} playouts, {} ms a move at most)",
            args.playouts, args.opponent_movetime
        ),
        name if name.starts_with("uci:") => format!(" ({} ms a move)", args.opponent_movetime),
        _ => String::new(),
    };
    let mut out = std::io::stdout().lock();
    writeln!(
        out,
        "engine{without} ({budget}) against {}{opponent_budget}: {} games",
        args.opponent,
        t.games()
    )?;
    if let Some(e) = t.estimate() {
        let (low, high) = (score_of_elo(e.low), score_of_elo(e.high));
        writeln!(
            out,
            "+{} ={} -{}: score {:.1}% [{:.1}%, {:.1}%], Elo {} [{}, {}] (95%)",
            t.wins,
            t.draws,
            t.losses,
            100.0 * e.score,
            100.0 * low,
            100.0 * high,
            show(e.elo),
            show(e.low),
            show(e.high)
        )?;
    }
    writeln!(
        out,
        "illegal moves: engine {}, opponent {}; crashes: engine {}, opponent {}",
        summary.illegal[0], summary.illegal[1], summary.crashes[0], summary.crashes[1]
    )?;
    writeln!(
        out,
        "disasters: own general lost {}, drawn while clearly ahead {}, material shed before a draw {}",
        summary.general_lost, summary.won_drawn, summary.shed_before_draw
    )?;
    writeln!(
        out,
        "draws by repetition {}, by no progress {}; {:.0} plies a game",
        summary.draws_by[0],
        summary.draws_by[1],
        summary.plies as f64 / f64::from(t.games().max(1))
    )?;
    Ok(())
}
