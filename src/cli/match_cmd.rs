//! `regex-chess match`: the engine (the rules) against a fixed opponent, paired games
//! from every opening, adjudicated by shakmaty; see [`regex_chess_core::matchplay`].

use std::io::Write;
use std::path::PathBuf;
use std::sync::Arc;

use clap::Args;

use super::engine_args::EngineArgs;
use super::{CliError, fail};
use regex_chess_core::engine::runner::MovePicker;
use regex_chess_core::engine::{Output, Search};
use regex_chess_core::exec::Choice;
use regex_chess_core::matchplay::players::{
    EnginePlayer, MaterialPlayer, Player, RandomPlayer, UciPlayer, UciSettings, VariantPlayer,
};
use regex_chess_core::matchplay::{self, MatchConfig, Summary};
use regex_chess_core::positions as suites;
use regex_chess_core::uci::{Engine, RulesEngine};

/// Arguments of `match`.
#[derive(Args, Debug)]
pub struct MatchArgs {
    /// The opponent: `random`, `material`, `uci:PATH` for any UCI engine, or
    /// `search:NAME` for a search variant of the rules (see `regex-chess move --help`).
    #[arg(long, default_value = "random")]
    opponent: String,
    /// A UCI opponent's option, `NAME=VALUE` (repeatable).
    #[arg(long = "opponent-option")]
    opponent_options: Vec<String>,
    /// A UCI opponent's search depth (`go depth N`; 1 when neither this nor
    /// `--opponent-movetime` is given).
    #[arg(long)]
    opponent_depth: Option<u32>,
    /// A UCI opponent's time per move in milliseconds (`go movetime MS`).
    #[arg(long)]
    opponent_movetime: Option<u64>,
    /// The openings file: one FEN (optionally `;eval`) a line; default: the built-in 60
    /// balanced openings (`data/positions/openings.txt`).
    #[arg(long)]
    openings_file: Option<PathBuf>,
    /// Use only the first K openings (two games each).
    #[arg(long)]
    openings: Option<usize>,
    /// Play only the first N games of the schedule.
    #[arg(long)]
    games: Option<usize>,
    /// Games played at once.
    #[arg(long, default_value_t = 1)]
    jobs: usize,
    /// The seed of the random and material opponents.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// A game still going after this many plies from its opening is drawn.
    #[arg(long, default_value_t = 300)]
    max_plies: usize,
    /// Write every game to this PGN file.
    #[arg(long)]
    pgn: Option<String>,
    /// The engine's executor, its cores (in each game) and its search, run by its program
    /// directly; without `--search` the engine is the UCI engine's (its time management
    /// unused: the default variant).
    #[command(flatten)]
    engine: EngineArgs,
    /// Print one line per finished game on standard error.
    #[arg(long)]
    verbose: bool,
}

/// The opponent's settings, checked.
enum Opponent {
    Random,
    Material,
    Uci(UciSettings),
    Search(Search),
}

fn opponent(args: &MatchArgs) -> Result<Opponent, CliError> {
    let mut options = Vec::new();
    for option in &args.opponent_options {
        match option.split_once('=') {
            Some((name, value)) if !name.trim().is_empty() => {
                options.push((name.trim().to_string(), value.trim().to_string()));
            }
            _ => return fail(format!("--opponent-option `{option}`: expected NAME=VALUE")),
        }
    }
    let uci_only =
        !options.is_empty() || args.opponent_depth.is_some() || args.opponent_movetime.is_some();
    match args.opponent.as_str() {
        "random" | "material" if uci_only => fail(
            "--opponent-option, --opponent-depth and --opponent-movetime apply to a uci:PATH opponent",
        ),
        "random" => Ok(Opponent::Random),
        "material" => Ok(Opponent::Material),
        other if other.starts_with("search:") && uci_only => fail(
            "--opponent-option, --opponent-depth and --opponent-movetime apply to a uci:PATH opponent",
        ),
        other if other.starts_with("search:") => {
            Ok(Opponent::Search(other["search:".len()..].parse()?))
        }
        other => match other.strip_prefix("uci:") {
            Some(path) if !path.is_empty() => Ok(Opponent::Uci(UciSettings {
                path: path.to_string(),
                options,
                depth: args.opponent_depth,
                movetime: args.opponent_movetime,
                timeout: None,
            })),
            _ => fail(format!(
                "unknown opponent `{other}` (expected random, material, uci:PATH or search:NAME)"
            )),
        },
    }
}

/// `search`'s move program on the executor `choice`, its cache warnings printed.
fn picker(search: Search, choice: Choice) -> Result<MovePicker, CliError> {
    let picker = MovePicker::of(search, Output::Move, choice)?;
    super::warn(picker.warnings());
    Ok(picker)
}

/// Runs `match`.
pub fn run(args: MatchArgs) -> Result<(), CliError> {
    let opponent = opponent(&args)?;
    if args.jobs == 0 {
        return fail("--jobs must be at least 1");
    }
    let path = args.openings_file.as_deref();
    let text = suites::read_or_builtin(path, suites::OPENINGS)?;
    let openings = matchplay::read_openings(&text)
        .map_err(|e| CliError(format!("{}: {e}", suites::describe(path, "openings"))))?;
    let pairings = matchplay::schedule(openings.len(), args.openings, args.games);
    if pairings.is_empty() {
        return fail("no games to play");
    }
    let searched = args.engine.search;
    let choice = args.engine.choice();
    let version = format!(
        "regex-chess {} (rules{}, {:?} executor)",
        env!("CARGO_PKG_VERSION"),
        searched.map_or(String::new(), |v| format!(", search {}", v.name())),
        args.engine.exec.executor
    )
    .to_lowercase();
    let engine: Result<Arc<dyn Engine>, Arc<MovePicker>> = match searched {
        None => {
            let engine = Arc::new(RulesEngine::new(choice));
            engine.prepare_move()?;
            super::warn(&engine.take_warnings());
            Ok(engine)
        }
        Some(v) => Err(Arc::new(picker(v, choice)?)),
    };
    let make_engine = || -> Result<Box<dyn Player>, String> {
        Ok(match &engine {
            Ok(engine) => Box::new(EnginePlayer::new(version.clone(), engine.clone())),
            Err(picker) => Box::new(VariantPlayer::new(version.clone(), picker.clone())),
        })
    };
    let opponent_picker = match &opponent {
        Opponent::Search(v) => Some(Arc::new(picker(*v, choice)?)),
        _ => None,
    };
    let make_opponent = || -> Result<Box<dyn Player>, String> {
        Ok(match (&opponent, &opponent_picker) {
            (Opponent::Random, _) => Box::new(RandomPlayer::new(args.seed)),
            (Opponent::Material, _) => Box::new(MaterialPlayer::new(args.seed)),
            (Opponent::Uci(settings), _) => Box::new(UciPlayer::start(settings.clone())?),
            (Opponent::Search(v), Some(picker)) => Box::new(VariantPlayer::new(
                format!("regex-chess search {}", v.name()),
                picker.clone(),
            )),
            (Opponent::Search(_), None) => unreachable!("built above"),
        })
    };
    let opponent_name = make_opponent().map_err(CliError)?.name();
    let config = MatchConfig {
        openings,
        pairings,
        max_plies: args.max_plies,
        jobs: args.jobs,
    };
    let verbose = args.verbose;
    let progress = |g: &matchplay::game::GameRecord| {
        if verbose {
            eprintln!(
                "game {}: {} - {} {} ({}, {} plies)",
                g.number + 1,
                g.white,
                g.black,
                g.outcome.pgn(),
                g.termination.describe(),
                g.moves.len()
            );
        }
    };
    let games =
        matchplay::run_match(&config, &make_engine, &make_opponent, &progress).map_err(CliError)?;
    if let Some(path) = &args.pgn {
        let event = format!("{version} vs {opponent_name}");
        let text: String = games
            .iter()
            .map(|g| matchplay::pgn::game_pgn(g, &event))
            .collect();
        std::fs::write(path, text).map_err(|e| CliError(format!("cannot write {path}: {e}")))?;
    }
    let mut stdout = std::io::stdout().lock();
    write!(
        stdout,
        "{}",
        Summary::of(&games).report(&version, &opponent_name)
    )?;
    stdout.flush()?;
    Ok(())
}
