//! `regex-chess match`: the engine (the rules) against a fixed opponent, paired games
//! from every opening, adjudicated by shakmaty; see [`regex_chess_engine::matchplay`].
//!
//! While it plays, a live line (on a terminal) or a plain line every few games says the
//! games done, the score, the Elo with its interval, the games a minute and the time
//! left ([`super::progress`]). `--sprt` stops it when the test decides; `--pgn` writes the
//! games, `--results` appends the result as a JSON line (data for charts and scripts).

use std::io::Write;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::{Instant, SystemTime};

use clap::Args;

use super::engine_args::EngineArgs;
use super::progress::{self, Steps};
use super::{CliError, fail};
use regex_chess_arena::elo;
use regex_chess_arena::sprt::Sprt;
use regex_chess_chess::positions;
use regex_chess_engine::matchplay::pgn::{self, PgnTags};
use regex_chess_engine::matchplay::players::{
    EnginePlayer, Limit, MaterialPlayer, OpponentSettings, Player, RandomPlayer, UciPlayer,
    VariantPlayer, XboardPlayer,
};
use regex_chess_engine::matchplay::results::{MatchInfo, MatchLine, OpponentLimit};
use regex_chess_engine::matchplay::{self, MatchConfig, MatchError, MatchProgress, Summary};
use regex_chess_engine::runner::MovePicker;
use regex_chess_engine::uci::{Engine, RulesEngine};
use regex_chess_engine::{Output, Search};
use regex_chess_machine::exec::Choice;

/// Arguments of `match`.
#[derive(Args, Debug)]
pub struct MatchArgs {
    /// The opponent: `random`, `material`, `uci:PATH` for any UCI engine, `xboard:PATH`
    /// for any xboard (CECP 2) engine, or `search:NAME` for a search variant of the rules
    /// (see `regex-chess move --help`).
    #[arg(long, default_value = "random")]
    opponent: String,
    /// An outside opponent's option, `NAME=VALUE` (repeatable): UCI `setoption`, xboard
    /// `option NAME=VALUE` (only options the engine declares).
    #[arg(long = "opponent-option")]
    opponent_options: Vec<String>,
    /// An argument on an outside opponent's command line (repeatable), e.g.
    /// `--opponent-arg=-l-` for phalanx without learning.
    #[arg(long = "opponent-arg", allow_hyphen_values = true)]
    opponent_args: Vec<String>,
    /// An outside opponent's search depth (UCI `go depth N`, xboard `sd N`); depth 1
    /// when neither this nor `--opponent-movetime` is given.
    #[arg(long, conflicts_with = "opponent_movetime")]
    opponent_depth: Option<u32>,
    /// An outside opponent's time per move in milliseconds (UCI `go movetime MS`, xboard
    /// a one-move time control with MS on the clock).
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
    /// Write every game to this PGN file (tags and `{score/depth time}` move comments as
    /// cutechess and fastchess write them).
    #[arg(long)]
    pgn: Option<String>,
    /// Append the match's result to this file as one JSON line (score, Elo interval, CPU
    /// ms per move).
    #[arg(long)]
    results: Option<PathBuf>,
    /// Stop when a sequential probability ratio test decides: `elo0=A elo1=B`, then
    /// optionally `alpha=X beta=Y` (or the two numbers; 0.05 each by default).
    #[arg(long, num_args = 2..=4, value_name = "elo0=A elo1=B [alpha beta]")]
    sprt: Option<Vec<String>>,
    /// The engine's executor, its cores (in each game) and its search, run by its program
    /// directly; without `--search` the engine is the UCI engine's (its time management
    /// unused: the default variant).
    #[command(flatten)]
    engine: EngineArgs,
    /// Print one line per finished game on standard error.
    #[arg(long)]
    verbose: bool,
}

/// Reads `--sprt`'s words: `elo0=A elo1=B`, then `alpha=X beta=Y` or two numbers.
fn parse_sprt(words: &[String]) -> Result<Sprt, CliError> {
    let (mut elo0, mut elo1) = (None, None);
    let (mut alpha, mut beta) = (Sprt::ALPHA, Sprt::ALPHA);
    for (i, word) in words.iter().enumerate() {
        let (name, value) = match word.split_once('=') {
            Some((name, value)) => (name, value),
            None if i == 2 => ("alpha", word.as_str()),
            None if i == 3 => ("beta", word.as_str()),
            None => return fail(format!("--sprt: `{word}`: expected elo0=A or elo1=B")),
        };
        let number: f64 = value
            .parse()
            .map_err(|_| CliError(format!("--sprt: `{word}`: {value} is not a number")))?;
        match name {
            "elo0" => elo0 = Some(number),
            "elo1" => elo1 = Some(number),
            "alpha" => alpha = number,
            "beta" => beta = number,
            _ => {
                return fail(format!(
                    "--sprt: unknown `{name}` (elo0, elo1, alpha, beta)"
                ));
            }
        }
    }
    match (elo0, elo1) {
        (Some(elo0), Some(elo1)) => Ok(Sprt::new(elo0, elo1, alpha, beta)?),
        _ => fail("--sprt needs elo0=A and elo1=B"),
    }
}

/// A duration in words for the live line: `45 s`, `12 min`, `1 h 05 min`.
fn span(seconds: f64) -> String {
    let s = seconds.max(0.0).round() as u64;
    match s {
        0..60 => format!("{s} s"),
        60..3600 => format!("{} min", s / 60),
        _ => format!("{} h {:02} min", s / 3600, s / 60 % 60),
    }
}

/// The progress line after a game: `games, +3 =4 -5 (41.7%), Elo -58 (-180 to +52), 2.1
/// games/min, about 51 min left`, with the test's LLR when there is one.
fn progress_line(p: &MatchProgress<'_>, elapsed_s: f64) -> String {
    let t = p.tally;
    let mut line = format!("games, +{} ={} -{}", t.wins, t.draws, t.losses);
    if let Some(e) = t.elo() {
        line.push_str(&format!(
            " ({:.1}%), Elo {} ({} to {})",
            e.score * 100.0,
            elo::show(e.elo),
            elo::show(e.low),
            elo::show(e.high)
        ));
    }
    let per_minute = p.done as f64 / (elapsed_s / 60.0).max(1e-9);
    line.push_str(&format!(", {per_minute:.1} games/min"));
    if p.done < p.total && p.verdict.is_none() {
        let left = (p.total - p.done) as f64 / per_minute * 60.0;
        line.push_str(&format!(", about {} left", span(left)));
    }
    if let Some(llr) = p.llr {
        line.push_str(&format!(", LLR {llr:.2}"));
    }
    if let Some(verdict) = p.verdict {
        line.push_str(&format!(", SPRT: {verdict:?} accepted"));
    }
    line
}

/// The protocol an outside opponent speaks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Protocol {
    Uci,
    Xboard,
}

impl Protocol {
    fn name(self) -> &'static str {
        match self {
            Protocol::Uci => "uci",
            Protocol::Xboard => "xboard",
        }
    }
}

/// The opponent's settings, checked.
enum Opponent {
    Random,
    Material,
    Outside(Protocol, OpponentSettings),
    Search(Search),
}

/// What an outside opponent is limited by, as the results line records it (built-in
/// opponents have no limit).
fn recorded_limit(opponent: &Opponent) -> OpponentLimit {
    match opponent {
        Opponent::Outside(protocol, settings) => {
            let (depth, movetime_ms) = match settings.limit() {
                Limit::Depth(d) => (Some(d), None),
                Limit::Movetime(ms) => (None, Some(ms)),
            };
            OpponentLimit {
                protocol: Some(protocol.name().to_string()),
                depth,
                movetime_ms,
            }
        }
        _ => OpponentLimit::default(),
    }
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
    let uci_only = !options.is_empty()
        || !args.opponent_args.is_empty()
        || args.opponent_depth.is_some()
        || args.opponent_movetime.is_some();
    const OUTSIDE_ONLY: &str = "--opponent-option, --opponent-arg, --opponent-depth and \
                                --opponent-movetime apply to a uci:PATH or xboard:PATH opponent";
    match args.opponent.as_str() {
        "random" | "material" if uci_only => fail(OUTSIDE_ONLY),
        "random" => Ok(Opponent::Random),
        "material" => Ok(Opponent::Material),
        other if other.starts_with("search:") && uci_only => fail(OUTSIDE_ONLY),
        other if other.starts_with("search:") => {
            Ok(Opponent::Search(other["search:".len()..].parse()?))
        }
        other => {
            let outside = [("uci:", Protocol::Uci), ("xboard:", Protocol::Xboard)]
                .into_iter()
                .find_map(|(prefix, p)| other.strip_prefix(prefix).map(|path| (p, path)));
            match outside {
                Some((protocol, path)) if !path.is_empty() => Ok(Opponent::Outside(
                    protocol,
                    OpponentSettings {
                        path: path.to_string(),
                        args: args.opponent_args.clone(),
                        options,
                        depth: args.opponent_depth,
                        movetime: args.opponent_movetime,
                        timeout: None,
                    },
                )),
                _ => fail(format!(
                    "unknown opponent `{other}` (expected random, material, uci:PATH, \
                     xboard:PATH or search:NAME)"
                )),
            }
        }
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
    let text = positions::read_or_builtin(path, positions::OPENINGS)?;
    let openings = matchplay::read_openings(&text)
        .map_err(|e| CliError(format!("{}: {e}", positions::describe(path, "openings"))))?;
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
    let make_engine = || -> Result<Box<dyn Player>, MatchError> {
        Ok(match &engine {
            Ok(engine) => Box::new(EnginePlayer::new(version.clone(), engine.clone())),
            Err(picker) => Box::new(VariantPlayer::new(version.clone(), picker.clone())),
        })
    };
    let opponent_picker = match &opponent {
        Opponent::Search(v) => Some(Arc::new(picker(*v, choice)?)),
        _ => None,
    };
    let make_opponent = || -> Result<Box<dyn Player>, MatchError> {
        Ok(match (&opponent, &opponent_picker) {
            (Opponent::Random, _) => Box::new(RandomPlayer::new(args.seed)),
            (Opponent::Material, _) => Box::new(MaterialPlayer::new(args.seed)),
            (Opponent::Outside(Protocol::Uci, settings), _) => {
                Box::new(UciPlayer::start(settings.clone())?)
            }
            (Opponent::Outside(Protocol::Xboard, settings), _) => {
                Box::new(XboardPlayer::start(settings.clone())?)
            }
            (Opponent::Search(v), Some(picker)) => Box::new(VariantPlayer::new(
                format!("regex-chess search {}", v.name()),
                picker.clone(),
            )),
            (Opponent::Search(_), None) => unreachable!("built above"),
        })
    };
    let opponent_name = make_opponent()?.name();
    let config = MatchConfig {
        openings,
        pairings,
        max_plies: args.max_plies,
        jobs: args.jobs,
        sprt: args.sprt.as_deref().map(parse_sprt).transpose()?,
    };
    let verbose = args.verbose;
    let total = config.pairings.len() as u64;
    let bar = std::sync::Mutex::new(Steps::spread("match", total, 10));
    bar.lock().unwrap().doing("games, the first under way");
    let started = Instant::now();
    let on_game = |p: &MatchProgress<'_>| {
        let g = p.game;
        if verbose {
            progress::println(&format!(
                "game {}: {} - {} {} ({}, {} plies)",
                g.number + 1,
                g.white,
                g.black,
                g.outcome.pgn(),
                g.termination.describe(),
                g.moves.len()
            ));
        }
        let line = progress_line(p, started.elapsed().as_secs_f64());
        bar.lock().unwrap().step(&line);
    };
    let result = matchplay::run_match(&config, &make_engine, &make_opponent, &on_game);
    bar.into_inner().unwrap().finish();
    let result = result?;
    let now = SystemTime::now();
    if let Some(path) = &args.pgn {
        let tags = PgnTags {
            date: pgn::pgn_date(now),
            ..PgnTags::new(format!("{version} vs {opponent_name}"))
        };
        let text: String = result
            .games
            .iter()
            .map(|g| pgn::game_pgn_with(g, &tags))
            .collect();
        std::fs::write(path, text).map_err(|e| CliError(format!("cannot write {path}: {e}")))?;
    }
    if let Some(path) = &args.results {
        let info = MatchInfo {
            engine: version.clone(),
            search: searched
                .unwrap_or_else(Search::default_play)
                .name()
                .to_string(),
            executor: format!("{:?}", args.engine.exec.executor).to_lowercase(),
            cores: args.engine.exec.cores.get(),
            opponent: opponent_name.clone(),
            opponent_limit: recorded_limit(&opponent),
            max_plies: args.max_plies,
            date: pgn::iso_date(now),
        };
        super::append_lines(path, &[MatchLine::of(&result, &info).to_json()])?;
    }
    let mut stdout = std::io::stdout().lock();
    write!(
        stdout,
        "{}",
        Summary::of(&result.games).report(&version, &opponent_name)
    )?;
    if let Some(sprt) = &result.sprt {
        writeln!(stdout, "{}", sprt.describe())?;
    }
    stdout.flush()?;
    Ok(())
}
