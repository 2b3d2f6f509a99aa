//! The protocol state machine: one GUI line in, the lines to print out.
//!
//! # Options
//!
//! | option | type | what it does |
//! | --- | --- | --- |
//! | `Executor` | combo `fast`/`reference` | which executor runs the rules |
//! | `Move Overhead` | spin, ms | taken off every time budget, for the GUI's and the pipes' delays |
//! | `Threads` | spin | the cores the fast executor runs local rules on (the engine is rebuilt; moves are the same) |
//! | `Hash` | spin, MB | accepted and unused: the search keeps no hash table |
//! | `MultiPV` | spin, 1 to [`MULTIPV_MAX`] | above 1, `go` runs the variant's ranking program and prints one `info multipv` line per ranked move |
//! | `Ponder` | check | accepted: `go ponder` works whatever its value |
//! | `Search` | combo `auto` or a variant's name | `auto`: the search is chosen per `go` (below); a name: that variant always plays (`regex-chess uci --search NAME` sets it at start) |
//!
//! # `go`
//!
//! The search is chosen before it starts. With `Search` set to a variant, that variant
//! plays whatever the limits. With `auto` ([`super::clock`]): `depth N` takes the deepest
//! variant within N plies; `movetime` or the clocks take the strongest variant the clock
//! may choose whose measured cost fits the budget, and when the budget is ample
//! ([`clock::CostBook::deeper`]) a deeper variant runs after it, cut at the end of the
//! budget or by the GUI's `stop`; with neither limit (`go`, `go infinite`, `go nodes N`,
//! `go mate N`) the default variant plays. `nodes` and `mate` are read and said
//! unsupported in an `info string`. `searchmoves` and the positions of the `position ...
//! moves ...` line go to the rules (see "Rules input" in `src/chess/mod.rs`): the search
//! sees repetitions and searches only the listed moves (all of them when none of the
//! listed moves is legal). A held search (`go infinite`, `go ponder`) first runs the
//! cheapest variant to the end, then the chosen one, which [`Session::handle_until`]'s
//! question may cut short. A cut search answers with the variant run first (an `info
//! string` says so); the searches that run one variant only are never cut.

use std::any::Any;
use std::num::NonZeroUsize;
use std::panic::{self, AssertUnwindSafe};
use std::time::{Duration, Instant};

use super::clock::{self, Clock, CostBook};
use super::perft;
use super::{Engine, EngineError, Score, Thought};
use crate::reply::{Reply, Status};
use crate::runner::RulesInput;
use crate::search::MULTIPV_MAX;
use crate::search::Search;
use regex_chess_chess::notation::fen::Fen;
use regex_chess_chess::notation::uci::UciMove;
use regex_chess_machine::exec::{Choice, ExecutorKind};

/// The name the engine gives on `uci`.
pub const ENGINE_NAME: &str = "regex-chess";
/// The author the engine gives on `uci`.
pub const ENGINE_AUTHOR: &str = "the regex-chess developers";

/// The default `Move Overhead`, in milliseconds.
pub const DEFAULT_OVERHEAD: u64 = 30;

/// The positions of the `bench` command: the start, the Italian game, kiwipete and an
/// endgame.
pub const BENCH_FENS: [&str; 4] = [
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "r1bqk1nr/pppp1ppp/2n5/2b1p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4",
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
];

/// The commands that end a held search (`go infinite`, `go ponder`) before printing its
/// `bestmove`; all but `ponderhit` also cut its rules' run short.
const ENDS_HELD: [&str; 6] = ["stop", "ponderhit", "go", "ucinewgame", "quit", "bench"];

/// Whether the GUI line `input` cuts a running held search short ([`Session::handle_until`]):
/// `stop`, `go`, `ucinewgame`, `quit` or `bench`, not `ponderhit` (the search goes on
/// when the expected move was played).
pub fn cuts_a_search(input: &str) -> bool {
    input
        .split_whitespace()
        .next()
        .is_some_and(|command| command != "ponderhit" && ENDS_HELD.contains(&command))
}

/// Builds the engine for an executor kind and its cores (called again when `Executor` or
/// `Threads` changes).
type MakeEngine = Box<dyn Fn(Choice) -> Box<dyn Engine>>;

/// The position the GUI set: where it started, the moves from there and where they led.
#[derive(Clone, Debug)]
struct Line {
    start: Fen,
    moves: Vec<UciMove>,
    /// The positions before `current`, oldest first: the search's history.
    earlier: Vec<Fen>,
    current: Fen,
}

impl Line {
    fn at(start: Fen) -> Line {
        Line {
            current: start.clone(),
            start,
            moves: Vec::new(),
            earlier: Vec::new(),
        }
    }
}

/// The value of the `Search` option that lets the limits choose the variant.
pub const AUTO_SEARCH: &str = "auto";
/// The name of the option that sets the executor's cores.
const THREADS: &str = "Threads";

/// The spin options: name, default, minimum, maximum.
const SPINS: [(&str, u64, u64, u64); 4] = [
    ("Move Overhead", DEFAULT_OVERHEAD, 0, 5000),
    (THREADS, 1, 1, 1024),
    ("Hash", 16, 1, 33_554_432),
    ("MultiPV", 1, 1, MULTIPV_MAX as u64),
];

/// What a `go` command asks.
#[derive(Debug, Default)]
struct Go {
    clock: Clock,
    depth: Option<u64>,
    nodes: Option<u64>,
    mate: Option<u64>,
    perft: Option<u64>,
    hold: bool,
    searchmoves: Vec<String>,
}

/// How a `go` searches: `variant` answers, unless a `first` variant runs to the end
/// before it and `variant` is cut (by the GUI, or at the `deadline`), when `first` answers.
struct Plan {
    first: Option<Search>,
    variant: Search,
    deadline: Option<Instant>,
}

impl Plan {
    /// `variant` alone (a held search still runs the cheapest variant first).
    fn outright(variant: Search) -> Plan {
        Plan {
            first: None,
            variant,
            deadline: None,
        }
    }
}

/// One UCI conversation.
pub struct Session {
    make: MakeEngine,
    engine: Box<dyn Engine>,
    executor: ExecutorKind,
    /// The last position set; the GUI's next `position` usually extends it.
    line: Line,
    /// Why the last `position` command set no position, if it did not.
    refused: Option<String>,
    /// The `bestmove` line of a `go infinite` or `go ponder`, printed on `stop`.
    held: Option<String>,
    /// `Move Overhead`, `Threads`, `Hash` and `MultiPV`, in [`SPINS`] order.
    spins: [u64; 4],
    /// The `Search` option: the variant every `go` plays, or `None` for `auto`.
    search: Option<Search>,
    costs: CostBook,
    quit: bool,
}

/// Why a `position` command set no position.
#[derive(Debug, thiserror::Error)]
enum BadPosition {
    /// Neither `startpos` nor `fen <FEN>`.
    #[error("expected `position startpos [moves ...]` or `position fen <FEN> [moves ...]`")]
    Form,
    /// The FEN is refused.
    #[error(transparent)]
    Fen(regex_chess_chess::notation::fen::FenError),
}

impl Session {
    /// A session whose engine `make` builds for the chosen executor and cores (fast on
    /// one core at first).
    pub fn new(make: impl Fn(Choice) -> Box<dyn Engine> + 'static) -> Session {
        let executor = ExecutorKind::Fast;
        Session {
            engine: make(Choice::from(executor)),
            make: Box::new(make),
            executor,
            line: Line::at(Fen::start()),
            refused: None,
            held: None,
            spins: SPINS.map(|(_, default, ..)| default),
            search: None,
            costs: CostBook::new(),
            quit: false,
        }
    }

    /// The session with `variant` playing every `go` (the `Search` option's value and
    /// default); `None` lets the limits choose.
    pub fn with_search(mut self, variant: Option<Search>) -> Session {
        self.search = variant;
        self
    }

    /// The session with its engine on the executor and cores of `choice` (the values the
    /// `Executor` and `Threads` options start from).
    pub fn with_choice(mut self, choice: Choice) -> Session {
        self.executor = choice.kind;
        if let Some(index) = SPINS.iter().position(|s| s.0 == THREADS) {
            self.spins[index] = u64::try_from(choice.cores.get()).unwrap_or(u64::MAX);
        }
        self.rebuild();
        self
    }

    /// The variant the `Search` option fixes, or `None` for `auto`.
    pub fn fixed_search(&self) -> Option<Search> {
        self.search
    }

    /// True once `quit` has been read.
    pub fn is_done(&self) -> bool {
        self.quit
    }

    /// The executor the engine runs on.
    pub fn executor(&self) -> ExecutorKind {
        self.executor
    }

    /// The current position, as the rules computed it; `None` after a refused `position`.
    pub fn position(&self) -> Option<&Fen> {
        self.refused.is_none().then_some(&self.line.current)
    }

    /// The value of a spin option (`Move Overhead`, `Threads`, `Hash`, `MultiPV`).
    pub fn spin(&self, name: &str) -> Option<u64> {
        let index = SPINS.iter().position(|s| s.0.eq_ignore_ascii_case(name))?;
        Some(self.spins[index])
    }

    /// The lines to print when the input ends: a held `bestmove`, if any.
    pub fn finish(&mut self) -> Vec<String> {
        self.held.take().into_iter().collect()
    }

    /// Handles one line from the GUI and returns the lines to print, in order.
    pub fn handle(&mut self, input: &str) -> Vec<String> {
        self.handle_until(input, &|| false)
    }

    /// [`Session::handle`], for a GUI that may cut a search short: the second variant of
    /// a search that runs two (a `go infinite` or `go ponder`, or a deeper one tried
    /// within a clock's budget) asks `stop` between rules, and when it answers true (the
    /// GUI has sent a line after this one that [`cuts_a_search`]), the search ends with
    /// the answer of the variant run to the end first.
    pub fn handle_until(&mut self, input: &str, stop: &dyn Fn() -> bool) -> Vec<String> {
        let mut out = Vec::new();
        let words: Vec<&str> = input.split_whitespace().collect();
        let Some((&command, args)) = words.split_first() else {
            return out;
        };
        // A held `bestmove` answers the `go` that held it: these end that search first.
        if ENDS_HELD.contains(&command) {
            out.extend(self.held.take());
        }
        match command {
            "uci" => {
                out.push(format!("id name {ENGINE_NAME}"));
                out.push(format!("id author {ENGINE_AUTHOR}"));
                out.push(
                    "option name Executor type combo default fast var fast var reference"
                        .to_string(),
                );
                for (name, default, min, max) in SPINS {
                    out.push(format!(
                        "option name {name} type spin default {default} min {min} max {max}"
                    ));
                }
                out.push("option name Ponder type check default false".to_string());
                let default = self.search.map_or(AUTO_SEARCH, |v| v.name());
                let mut search =
                    format!("option name Search type combo default {default} var {AUTO_SEARCH}");
                for name in Search::names() {
                    search.push_str(&format!(" var {name}"));
                }
                out.push(search);
                out.push("uciok".to_string());
            }
            "isready" => {
                if let Err(e) = self.engine.prepare() {
                    out.push(format!("info string error: {e}"));
                }
                out.push("readyok".to_string());
            }
            "ucinewgame" => {
                self.line = Line::at(Fen::start());
                self.refused = None;
            }
            "setoption" => self.set_option(args, &mut out),
            "position" => self.position_command(args, &mut out),
            "go" => self.go(args, stop, &mut out),
            "bench" => self.bench(&mut out),
            "stop" | "ponderhit" => {}
            "quit" => self.quit = true,
            "debug" | "register" => {}
            _ => out.push(format!(
                "info string unknown command ignored: {}",
                clip(input)
            )),
        }
        out
    }

    fn set_option(&mut self, args: &[&str], out: &mut Vec<String>) {
        // setoption name <name words> [value <value words>]
        let (name, value) = match args.split_first() {
            Some((&"name", rest)) => match rest.iter().position(|w| *w == "value") {
                Some(i) => (rest[..i].join(" "), Some(rest[i + 1..].join(" "))),
                None => (rest.join(" "), None),
            },
            _ => {
                out.push("info string malformed setoption ignored (expected `setoption name <name> value <value>`)".to_string());
                return;
            }
        };
        if name.eq_ignore_ascii_case("executor") {
            match value.as_deref().map(str::parse::<ExecutorKind>) {
                Some(Ok(kind)) => {
                    if kind != self.executor {
                        self.executor = kind;
                        self.rebuild();
                    }
                }
                Some(Err(e)) => out.push(format!("info string option Executor unchanged: {e}")),
                None => out.push("info string option Executor unchanged: no value".to_string()),
            }
            return;
        }
        if name.eq_ignore_ascii_case("search") {
            let value = value.as_deref();
            match (value, value.map(str::parse::<Search>)) {
                (Some(v), _) if v.eq_ignore_ascii_case(AUTO_SEARCH) => self.search = None,
                (_, Some(Ok(search))) => self.search = Some(search),
                _ => out.push(clip(&format!(
                    "info string option Search unchanged: expected {AUTO_SEARCH} or one of {}",
                    Search::names().join(", ")
                ))),
            }
            return;
        }
        if name.eq_ignore_ascii_case("ponder") {
            if !matches!(value.as_deref(), Some("true" | "false")) {
                out.push("info string option Ponder: expected `true` or `false`".to_string());
            }
            return;
        }
        let Some(index) = SPINS.iter().position(|s| s.0.eq_ignore_ascii_case(&name)) else {
            out.push(format!(
                "info string unknown option ignored: {}",
                clip(&name)
            ));
            return;
        };
        let (name, _, min, max) = SPINS[index];
        match value.as_deref().map(str::parse::<u64>) {
            Some(Ok(v)) if (min..=max).contains(&v) => {
                let old = std::mem::replace(&mut self.spins[index], v);
                if name == THREADS && old != v {
                    self.rebuild();
                }
            }
            _ => out.push(format!(
                "info string option {name} unchanged: expected a number from {min} to {max}"
            )),
        }
    }

    /// Builds the engine again for the current `Executor` and `Threads`.
    fn rebuild(&mut self) {
        self.engine = (self.make)(self.choice());
    }

    /// The executor and cores the engine runs on (`Threads`, at least 1, saturated to
    /// `usize`).
    pub fn choice(&self) -> Choice {
        let threads = self.spin(THREADS).unwrap_or(1);
        let cores = usize::try_from(threads).unwrap_or(usize::MAX);
        Choice::new(
            self.executor,
            NonZeroUsize::new(cores).unwrap_or(NonZeroUsize::MIN),
        )
    }

    fn position_command(&mut self, args: &[&str], out: &mut Vec<String>) {
        match self.parse_position(args) {
            Ok((line, note)) => {
                self.line = line;
                self.refused = None;
                out.extend(note);
            }
            Err(why) => {
                out.push(format!(
                    "info string position refused, no position is set (`go` answers `bestmove (none)` until the next `position`): {why}"
                ));
                self.refused = Some(why.to_string());
            }
        }
    }

    /// The position a `position` command sets, the moves applied by the engine up to the
    /// first that is malformed or illegal; with it, the `info string` saying where the
    /// moves were cut.
    fn parse_position(&self, args: &[&str]) -> Result<(Line, Option<String>), BadPosition> {
        let moves_at = args.iter().position(|w| *w == "moves");
        let (setup, moves) = match moves_at {
            Some(i) => (&args[..i], &args[i + 1..]),
            None => (args, &[][..]),
        };
        let start = match setup {
            ["startpos"] => Fen::start(),
            ["fen", fields @ ..] if !fields.is_empty() => {
                fields.join(" ").parse::<Fen>().map_err(BadPosition::Fen)?
            }
            _ => return Err(BadPosition::Form),
        };
        // A GUI sends the whole game each time: when it extends the current one, only
        // the new moves need the rules.
        let known = self.line.moves.iter().map(|m| m.to_string());
        let extends = start == self.line.start
            && moves.len() >= self.line.moves.len()
            && known.zip(moves.iter()).all(|(a, b)| a == *b);
        let mut line = if extends {
            self.line.clone()
        } else {
            Line::at(start)
        };
        for (i, text) in moves.iter().enumerate().skip(line.moves.len()) {
            let problem = match text.parse::<UciMove>() {
                Err(e) => e.to_string(),
                Ok(mv) => match self.engine.apply(&line.current, mv) {
                    Ok(Some(next)) => {
                        line.earlier
                            .push(std::mem::replace(&mut line.current, next));
                        line.moves.push(mv);
                        continue;
                    }
                    Ok(None) => format!("the move {mv} is illegal in {}", line.current),
                    Err(e) => format!("error applying {mv}: {e}"),
                },
            };
            let note = format!(
                "info string position: kept the first {i} of {} moves: {}",
                moves.len(),
                clip(&problem)
            );
            return Ok((line, Some(note)));
        }
        Ok((line, None))
    }

    /// Reads the words of a `go` command; notes about bad words go to `out`.
    fn parse_go(args: &[&str], out: &mut Vec<String>) -> Go {
        let mut go = Go::default();
        let mut i = 0;
        while i < args.len() {
            let word = args[i];
            let slot = match word {
                "wtime" => Some(&mut go.clock.time[0]),
                "btime" => Some(&mut go.clock.time[1]),
                "winc" => Some(&mut go.clock.inc[0]),
                "binc" => Some(&mut go.clock.inc[1]),
                "movestogo" => Some(&mut go.clock.movestogo),
                "movetime" => Some(&mut go.clock.movetime),
                "depth" => Some(&mut go.depth),
                "nodes" => Some(&mut go.nodes),
                "mate" => Some(&mut go.mate),
                "perft" => Some(&mut go.perft),
                _ => None,
            };
            if let Some(slot) = slot {
                // Clocks may run below zero in some GUIs: that is no time left.
                match args.get(i + 1).map(|v| v.parse::<i64>()) {
                    Some(Ok(v)) => *slot = Some(v.max(0) as u64),
                    _ => out.push(format!("info string go: `{word}` needs a number; ignored")),
                }
                i += 2;
                continue;
            }
            match word {
                "infinite" | "ponder" => go.hold = true,
                "searchmoves" => {
                    go.searchmoves = args[i + 1..].iter().map(|m| m.to_string()).collect();
                    break;
                }
                other => out.push(format!(
                    "info string go: unknown parameter `{}` ignored",
                    clip(other)
                )),
            }
            i += 1;
        }
        go
    }

    /// How to search for `go`, and an `info string` saying why.
    fn plan(&self, go: &Go, fen: &Fen) -> (Plan, String) {
        if let Some(variant) = self.search {
            return (
                Plan::outright(variant),
                format!("info string option Search: variant {}", variant.name()),
            );
        }
        let overhead = self.spins[0];
        if let Some(depth) = go.depth {
            let variant = clock::for_depth(depth.min(u32::MAX as u64) as u32);
            return (
                Plan::outright(variant),
                format!("info string depth {depth}: variant {}", variant.name()),
            );
        }
        let Some(budget) = clock::budget(&go.clock, fen.turn(), overhead) else {
            let variant = Search::default_play();
            return (
                Plan::outright(variant),
                format!("info string no time limit: variant {}", variant.name()),
            );
        };
        let variant = self.costs.choose(budget);
        let expected = self.costs.expected(variant).map_or_else(
            || "not yet measured".to_string(),
            |ms| format!("{ms:.0} ms"),
        );
        let why = format!(
            "info string budget {budget} ms: variant {} (expected {expected})",
            variant.name()
        );
        match self.costs.deeper(variant, budget) {
            Some(deeper) => (
                Plan {
                    first: Some(variant),
                    variant: deeper,
                    deadline: Some(Instant::now() + Duration::from_millis(budget)),
                },
                format!("{why}, then {} until the budget ends", deeper.name()),
            ),
            None => (Plan::outright(variant), why),
        }
    }

    fn go(&mut self, args: &[&str], stop: &dyn Fn() -> bool, out: &mut Vec<String>) {
        let go = Session::parse_go(args, out);
        if let Some(why) = &self.refused {
            out.push(format!(
                "info string no position to search (the last position was refused: {})",
                clip(why)
            ));
            // `go perft` answers no `bestmove`.
            if go.perft.is_none() {
                self.finish_go(&go, "bestmove (none)".to_string(), out);
            }
            return;
        }
        let fen = self.line.current.clone();
        if let Some(depth) = go.perft {
            return self.perft(&fen, depth, out);
        }
        let mut unsupported = Vec::new();
        if let Some(nodes) = go.nodes {
            unsupported.push(format!("nodes {nodes}"));
        }
        if let Some(mate) = go.mate {
            unsupported.push(format!("mate {mate}"));
        }
        if !unsupported.is_empty() {
            out.push(clip(&format!(
                "info string not supported, ignored (the search is chosen by depth or time only): {}",
                unsupported.join(" ")
            )));
        }
        let mut input = RulesInput {
            history: self.line.earlier.clone(),
            searchmoves: Vec::new(),
        };
        for text in &go.searchmoves {
            match text.parse::<UciMove>() {
                Ok(mv) => input.searchmoves.push(mv),
                Err(e) => out.push(clip(&format!("info string searchmoves: {e}; ignored"))),
            }
        }
        let (mut plan, why) = self.plan(&go, &fen);
        out.push(why);
        let cheapest = clock::strength_order()[0];
        if go.hold && plan.first.is_none() && plan.variant.name() != cheapest.name() {
            plan.first = Some(cheapest);
        }
        let lines = self.spin("MultiPV").unwrap_or(1) as usize;
        let cut = || stop() || plan.deadline.is_some_and(|end| Instant::now() >= end);
        let searched = unpanicked(|| self.search(&fen, &input, &plan, lines > 1, &cut, out));
        let best = match searched {
            Ok((thought, millis, variant)) => search_output(&thought, variant, millis, lines, out),
            Err(e) => {
                out.push(format!("info string error: {e}"));
                "bestmove (none)".to_string()
            }
        };
        self.finish_go(&go, best, out);
    }

    /// The answer of the search `plan`, its time in milliseconds and the variant that
    /// gave it. With a first variant, that one runs to the end first, then the plan's
    /// variant asks `stop` between rules, and when cut the first one's answer is given
    /// (an `info string` says so); without, the plan's variant runs to the end.
    fn search(
        &mut self,
        fen: &Fen,
        input: &RulesInput,
        plan: &Plan,
        ranked: bool,
        stop: &dyn Fn() -> bool,
        out: &mut Vec<String>,
    ) -> Result<(Thought, u64, Search), EngineError> {
        let never = || false;
        let Some(first) = plan.first else {
            let (thought, ms) = self
                .think(fen, input, plan.variant, ranked, &never)?
                .expect("a run nothing stops ends");
            return Ok((thought, ms, plan.variant));
        };
        let (first_thought, first_ms) = self
            .think(fen, input, first, ranked, &never)?
            .expect("a run nothing stops ends");
        match self.think(fen, input, plan.variant, ranked, stop)? {
            Some((thought, ms)) => Ok((thought, first_ms + ms, plan.variant)),
            None => {
                out.push(format!(
                    "info string search stopped: variant {} answers, {} was cut",
                    first.name(),
                    plan.variant.name()
                ));
                Ok((first_thought, first_ms, first))
            }
        }
    }

    /// The engine's search with `variant`, cut when `stop` says so, and its time in
    /// milliseconds; a search that ends has its cost recorded.
    fn think(
        &mut self,
        fen: &Fen,
        input: &RulesInput,
        variant: Search,
        ranked: bool,
        stop: &dyn Fn() -> bool,
    ) -> Result<Option<(Thought, u64)>, EngineError> {
        let started = Instant::now();
        let thought = self.engine.think_until(fen, input, variant, ranked, stop)?;
        let elapsed = started.elapsed();
        if thought.is_some() {
            self.costs.record(variant, elapsed.as_secs_f64() * 1000.0);
        }
        Ok(thought.map(|t| (t, elapsed.as_millis() as u64)))
    }

    /// Prints the `bestmove` line, or holds it until `stop` when the GUI asked so.
    fn finish_go(&mut self, go: &Go, best: String, out: &mut Vec<String>) {
        if go.hold {
            self.held = Some(best);
        } else {
            out.push(best);
        }
    }

    fn perft(&mut self, fen: &Fen, depth: u64, out: &mut Vec<String>) {
        let started = Instant::now();
        let depth = depth.clamp(1, 16) as u32;
        match unpanicked(|| perft::divide(self.engine.as_ref(), fen, depth)) {
            Ok(counts) => {
                let total: u64 = counts.iter().map(|(_, n)| n).sum();
                out.extend(counts.iter().map(|(mv, n)| format!("{mv}: {n}")));
                out.push(String::new());
                out.push(format!("Nodes searched: {total}"));
                let ms = started.elapsed().as_millis().max(1) as u64;
                out.push(format!(
                    "info string perft {depth} by the rules' move generation in {ms} ms"
                ));
            }
            Err(e) => out.push(format!("info string perft: error: {e}")),
        }
    }

    /// Stockfish's `bench`: the `Search` option's variant (the default one with `auto`)
    /// on [`BENCH_FENS`], then the totals.
    fn bench(&mut self, out: &mut Vec<String>) {
        let variant = self.search.unwrap_or_else(Search::default_play);
        let (mut nodes, mut missing) = (0u64, 0);
        let started = Instant::now();
        for (i, text) in BENCH_FENS.iter().enumerate() {
            let fen: Fen = text.parse().expect("the bench positions are valid FENs");
            out.push(format!("Position: {}/{}", i + 1, BENCH_FENS.len()));
            match unpanicked(|| self.engine.think_with(&fen, variant)) {
                Ok(thought) => match thought.report.nodes {
                    Some(n) => nodes += n,
                    None => missing += 1,
                },
                Err(e) => {
                    out.push(format!("info string bench: error: {e}"));
                    return;
                }
            }
        }
        let ms = started.elapsed().as_millis().max(1) as u64;
        if missing > 0 {
            out.push(format!(
                "info string the rules reported no node count for {missing} positions (counted as 0)"
            ));
        }
        out.push(String::new());
        out.push("===========================".to_string());
        out.push(format!("Total time (ms) : {ms}"));
        out.push(format!("Nodes searched  : {nodes}"));
        out.push(format!("Nodes/second    : {}", nodes * 1000 / ms));
    }
}

/// Runs `body`, an engine call, and turns a panic in it into an [`EngineError`] naming
/// the panic's message: a bug in the rules' run (or a helper core's panic, which the
/// fast executor raises again on the calling thread) then ends the command with an
/// `info string error` (and `go` with `bestmove (none)`), and the session goes on
/// answering instead of ending the process. The engine stays usable: the executors
/// keep nothing half-done between runs.
fn unpanicked<T>(body: impl FnOnce() -> Result<T, EngineError>) -> Result<T, EngineError> {
    panic::catch_unwind(AssertUnwindSafe(body)).unwrap_or_else(|payload| {
        Err(EngineError(format!(
            "the engine panicked: {}",
            panic_message(payload.as_ref())
        )))
    })
}

/// The message of a panic's payload (a `String` or a `&str`, as `panic!` makes them).
fn panic_message(payload: &(dyn Any + Send)) -> &str {
    payload
        .downcast_ref::<String>()
        .map(String::as_str)
        .or_else(|| payload.downcast_ref::<&str>().copied())
        .unwrap_or("(a payload that is not text)")
}

/// The `info` lines of a search and its `bestmove` line. Missing report fields are left
/// out, but for the depth (the variant's) and the pv (the move alone). With `lines`
/// above 1 and a ranking in the report, one `info multipv <rank> ...` line for each of
/// the best `lines` moves instead of the single `info` line.
fn search_output(
    thought: &Thought,
    variant: Search,
    millis: u64,
    lines: usize,
    out: &mut Vec<String>,
) -> String {
    let reply = match &thought.reply {
        Reply::Move(reply) => reply,
        Reply::NoMove(status) => {
            let score = match status {
                Status::Checkmate => Score::Mate(0),
                _ => Score::Cp(0),
            };
            out.push(format!("info depth 0 score {score}"));
            out.push(format!("info string no legal move: {status}"));
            return "bestmove (none)".to_string();
        }
    };
    let report = &thought.report;
    let info = |rank: Option<usize>, score: Option<Score>, pv: &[UciMove]| {
        let mut info = "info".to_string();
        if let Some(rank) = rank {
            info.push_str(&format!(" multipv {rank}"));
        }
        info.push_str(&format!(
            " depth {}",
            report.depth.unwrap_or(variant.depth())
        ));
        if let Some(score) = score {
            info.push_str(&format!(" score {score}"));
        }
        if let Some(nodes) = report.nodes {
            info.push_str(&format!(
                " nodes {nodes} nps {}",
                nodes * 1000 / millis.max(1)
            ));
        }
        let pv_text: Vec<String> = pv.iter().map(|m| m.to_string()).collect();
        info.push_str(&format!(" time {millis} pv {}", pv_text.join(" ")));
        info
    };
    // The pv must start with the move played; a report that disagrees is not shown.
    let pv = if report.pv.first() == Some(&reply.mv) {
        report.pv.clone()
    } else {
        vec![reply.mv]
    };
    // A ranking is shown when asked and when its first line is the move played.
    let ranked = &report.multipv;
    if lines > 1
        && ranked
            .first()
            .is_some_and(|r| r.pv.first() == Some(&reply.mv))
    {
        for (rank, line) in ranked.iter().take(lines).enumerate() {
            out.push(info(Some(rank + 1), Some(line.score), &line.pv));
        }
    } else {
        out.push(info(None, report.score, &pv));
    }
    match pv.get(1) {
        Some(ponder) => format!("bestmove {} ponder {ponder}", reply.mv),
        None => format!("bestmove {}", reply.mv),
    }
}

/// A line or word cut to 200 bytes for an `info string` (at a character boundary).
fn clip(text: &str) -> String {
    let text = text.trim();
    if text.len() <= 200 {
        return text.to_string();
    }
    let cut = (0..=200)
        .rev()
        .find(|&i| text.is_char_boundary(i))
        .unwrap_or(0);
    format!("{}...", &text[..cut])
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::uci::EngineError;

    /// The engine of a build without the chess rules: every question is an error.
    struct Missing;

    impl Engine for Missing {
        fn prepare(&self) -> Result<(), EngineError> {
            Err(EngineError("the rules are not registered".to_string()))
        }
        fn apply(&self, _: &Fen, _: UciMove) -> Result<Option<Fen>, EngineError> {
            self.prepare().map(|()| None)
        }
        fn think_with(&self, _: &Fen, _: Search) -> Result<Thought, EngineError> {
            Err(self.prepare().unwrap_err())
        }
    }

    fn session() -> Session {
        Session::new(|_| Box::new(Missing))
    }

    /// An engine whose searches and move generation panic (what a helper core's panic,
    /// raised again on the session's thread, looks like).
    struct Panics;

    impl Engine for Panics {
        fn apply(&self, _: &Fen, _: UciMove) -> Result<Option<Fen>, EngineError> {
            Ok(None)
        }
        fn think_with(&self, _: &Fen, _: Search) -> Result<Thought, EngineError> {
            panic!("planted in the search");
        }
        fn children(&self, _: &Fen) -> Result<Vec<(UciMove, Fen)>, EngineError> {
            panic!("planted in perft");
        }
    }

    #[test]
    fn a_panic_in_the_engine_is_an_error_line_and_the_session_goes_on() {
        let mut session = Session::new(|_| Box::new(Panics));
        session.handle("position startpos");
        let out = session.handle("go depth 1");
        assert!(
            out.contains(&"info string error: the engine panicked: planted in the search".into()),
            "{out:?}"
        );
        assert_eq!(out.last().map(String::as_str), Some("bestmove (none)"));
        // A held search answers when stopped.
        assert!(
            !session
                .handle("go infinite")
                .contains(&"bestmove (none)".into())
        );
        assert_eq!(session.handle("stop"), ["bestmove (none)"]);
        let out = session.handle("go perft 1");
        assert_eq!(
            out,
            ["info string perft: error: the engine panicked: planted in perft"]
        );
        let out = session.handle("bench");
        assert!(
            out.contains(
                &"info string bench: error: the engine panicked: planted in the search".into()
            ),
            "{out:?}"
        );
        assert_eq!(session.handle("isready"), ["readyok"]);
    }

    /// The `Search` option's values after `auto`, as the `uci` answer lists them.
    fn vars() -> String {
        Search::names()
            .iter()
            .map(|n| format!(" var {n}"))
            .collect()
    }

    #[test]
    fn identifies_itself_with_its_options() {
        let out = session().handle("uci");
        assert_eq!(
            out,
            [
                "id name regex-chess",
                "id author the regex-chess developers",
                "option name Executor type combo default fast var fast var reference",
                "option name Move Overhead type spin default 30 min 0 max 5000",
                "option name Threads type spin default 1 min 1 max 1024",
                "option name Hash type spin default 16 min 1 max 33554432",
                "option name MultiPV type spin default 1 min 1 max 5",
                "option name Ponder type check default false",
                &format!(
                    "option name Search type combo default auto var auto{}",
                    vars()
                ),
                "uciok"
            ]
        );
    }

    #[test]
    fn the_search_option_fixes_the_variant_or_lets_the_limits_choose() {
        let mut s = session();
        assert_eq!(s.fixed_search(), None);
        assert!(s.handle("setoption name Search value 2ply-q").is_empty());
        assert_eq!(s.fixed_search().map(|v| v.name()), Some("2ply-q"));
        let out = s.handle("go depth 1");
        assert_eq!(out[0], "info string option Search: variant 2ply-q");
        for bad in ["setoption name Search value 9ply", "setoption name Search"] {
            let out = s.handle(bad);
            assert_eq!(
                out,
                [format!(
                    "info string option Search unchanged: expected auto or one of {}",
                    Search::names().join(", ")
                )]
            );
            assert_eq!(s.fixed_search().map(|v| v.name()), Some("2ply-q"));
        }
        assert!(s.handle("setoption name search value AUTO").is_empty());
        assert_eq!(s.fixed_search(), None);
        let out = s.handle("go depth 1");
        assert!(
            out[0].starts_with("info string depth 1: variant "),
            "{out:?}"
        );
        // Set at start (`uci --search`): the option's default says so.
        let out = session()
            .with_search("2ply".parse::<Search>().ok())
            .handle("uci");
        assert!(
            out.contains(&format!(
                "option name Search type combo default 2ply var auto{}",
                vars()
            )),
            "{out:?}"
        );
    }

    #[test]
    fn spin_options_are_stored_and_checked() {
        let mut s = session();
        assert!(s.handle("setoption name Threads value 2").is_empty());
        assert!(s.handle("setoption name hash value 256").is_empty());
        assert!(
            s.handle("setoption name Move Overhead value 100")
                .is_empty()
        );
        assert!(s.handle("setoption name Ponder value true").is_empty());
        assert_eq!(
            (s.spin("threads"), s.spin("Hash"), s.spin("Move Overhead")),
            (Some(2), Some(256), Some(100))
        );
        for line in [
            "setoption name Threads value 0",
            "setoption name Hash value lots",
            "setoption name Move Overhead",
            "setoption name Ponder value maybe",
        ] {
            let out = s.handle(line);
            assert_eq!(out.len(), 1, "{line}: {out:?}");
            assert!(out[0].starts_with("info string option "), "{out:?}");
        }
        assert_eq!(s.spin("Threads"), Some(2));
    }

    #[test]
    fn errors_of_a_missing_engine_are_info_strings() {
        let mut s = session();
        assert_eq!(
            s.handle("isready"),
            ["info string error: the rules are not registered", "readyok"]
        );
        let out = s.handle("go wtime 1000 btime 1000");
        assert_eq!(out.last().unwrap(), "bestmove (none)");
        assert!(out.iter().any(|l| l.contains("not registered")));
        // The start position needs no rules; a move does, and fails: the prefix (no
        // move) is kept.
        assert!(s.handle("position startpos").is_empty());
        let out = s.handle("position startpos moves e2e4");
        assert_eq!(out.len(), 1);
        assert!(
            out[0].starts_with("info string position: kept the first 0 of 1 moves"),
            "{out:?}"
        );
        assert!(out[0].contains("error applying e2e4"), "{out:?}");
        assert_eq!(s.position(), Some(&Fen::start()));
    }

    #[test]
    fn malformed_lines_are_ignored_with_a_note() {
        let mut s = session();
        for line in [
            "hello",
            "position",
            "position sideways",
            "position fen",
            "position fen 8/8/8/8 w - - 0 1",
            "position startpos moves e2e9",
            "position startpos extra moves e2e4",
            "setoption",
            "setoption name Colour value 16",
            "setoption name Executor value quick",
            "setoption name Executor",
            "\u{0}\u{7f}é",
        ] {
            let out = s.handle(line);
            assert_eq!(out.len(), 1, "{line:?}: {out:?}");
            assert!(out[0].starts_with("info string "), "{line:?}: {out:?}");
        }
        assert_eq!(s.executor(), ExecutorKind::Fast);
        assert!(s.handle("").is_empty());
        assert!(s.handle("   ").is_empty());
        assert!(s.handle("debug on").is_empty());
        assert!(!s.is_done());
        let long = "x".repeat(10_000);
        assert!(s.handle(&long)[0].len() < 300);
    }

    #[test]
    fn a_refused_position_leaves_none_until_the_next() {
        let mut s = session();
        let out = s.handle("position fen 8/8/8/8 w - - 0 1");
        assert!(out[0].contains("no position is set"), "{out:?}");
        assert_eq!(s.position(), None);
        let out = s.handle("go movetime 10");
        assert!(
            out[0].starts_with("info string no position to search"),
            "{out:?}"
        );
        assert_eq!(out.last().unwrap(), "bestmove (none)");
        assert!(s.handle("position startpos").is_empty());
        assert_eq!(s.position(), Some(&Fen::start()));
        s.handle("position sideways");
        s.handle("ucinewgame");
        assert_eq!(s.position(), Some(&Fen::start()));
    }

    #[test]
    fn the_executor_option_rebuilds_the_engine() {
        use std::sync::{Arc, Mutex};
        let built = Arc::new(Mutex::new(Vec::new()));
        let log = built.clone();
        let mut s = Session::new(move |choice| {
            log.lock().unwrap().push(choice);
            Box::new(Missing)
        });
        assert!(
            s.handle("setoption name Executor value reference")
                .is_empty()
        );
        assert_eq!(s.executor(), ExecutorKind::Reference);
        assert!(
            s.handle("setoption name executor value reference")
                .is_empty()
        );
        assert!(s.handle("setoption name Executor value fast").is_empty());
        // `Threads` rebuilds it on that many cores; the same value again does not.
        assert!(s.handle("setoption name Threads value 2").is_empty());
        assert!(s.handle("setoption name threads value 2").is_empty());
        assert_eq!(
            s.choice(),
            Choice::new(ExecutorKind::Fast, NonZeroUsize::new(2).unwrap())
        );
        assert!(s.handle("setoption name Threads value 0").len() == 1);
        assert_eq!(
            *built.lock().unwrap(),
            [
                Choice::from(ExecutorKind::Fast),
                Choice::from(ExecutorKind::Reference),
                Choice::from(ExecutorKind::Fast),
                Choice::new(ExecutorKind::Fast, NonZeroUsize::new(2).unwrap()),
            ]
        );
    }

    #[test]
    fn a_held_bestmove_is_printed_exactly_once() {
        let mut s = session();
        let out = s.handle("go infinite");
        assert!(out.iter().all(|l| !l.starts_with("bestmove")), "{out:?}");
        assert!(s.handle("isready").ends_with(&["readyok".to_string()]));
        assert!(s.handle("position startpos").is_empty());
        assert_eq!(s.handle("stop"), ["bestmove (none)"]);
        assert!(s.handle("stop").is_empty());
        s.handle("go ponder wtime 5");
        assert_eq!(s.handle("ponderhit"), ["bestmove (none)"]);
        for ender in ["ucinewgame", "quit"] {
            s.handle("go infinite");
            assert_eq!(s.handle(ender), ["bestmove (none)"], "{ender}");
            assert!(s.handle("stop").is_empty());
        }
        // Another `go`: the held answer comes first, then the new one's.
        s.handle("go infinite");
        let out = s.handle("go movetime 5");
        let best: Vec<&String> = out.iter().filter(|l| l.starts_with("bestmove")).collect();
        assert_eq!(best.len(), 2, "{out:?}");
        assert_eq!(out[0], "bestmove (none)");
        // The end of the input.
        s.handle("go infinite");
        assert_eq!(s.finish(), ["bestmove (none)"]);
        assert!(s.finish().is_empty());
    }

    #[test]
    fn go_reads_every_parameter_and_notes_the_bad_ones() {
        let mut s = session();
        let out = s.handle(
            "go wtime 300000 btime 300000 winc 0 binc 0 movestogo 40 depth 5 nodes 9 mate 2 movetime 100 searchmoves e2e4 d2d4 e2e9",
        );
        assert_eq!(
            out[0],
            "info string not supported, ignored (the search is chosen by depth or time only): nodes 9 mate 2"
        );
        assert!(out[1].starts_with("info string searchmoves: "), "{out:?}");
        assert!(out[1].ends_with("; ignored"), "{out:?}");
        assert!(
            out[2].starts_with("info string depth 5: variant "),
            "{out:?}"
        );
        assert_eq!(out.last().unwrap(), "bestmove (none)");
        let out = s.handle("go depth x bogus");
        assert!(out[0].contains("`depth` needs a number"), "{out:?}");
        assert!(out[1].contains("unknown parameter `bogus`"), "{out:?}");
        assert_eq!(out.last().unwrap(), "bestmove (none)");
        let out = s.handle("go wtime -50 btime 100");
        assert!(out[0].starts_with("info string budget 0 ms"), "{out:?}");
    }

    /// An engine whose search is cut whenever asked: `a2a3` from the cheapest variant,
    /// `g2g4` from the strongest, `h2h3` from the others.
    struct Cuttable;

    impl Engine for Cuttable {
        fn apply(&self, _: &Fen, _: UciMove) -> Result<Option<Fen>, EngineError> {
            Ok(None)
        }
        fn think_with(&self, _: &Fen, variant: Search) -> Result<Thought, EngineError> {
            let order = clock::strength_order();
            let mv = if variant == order[0] {
                "a2a3"
            } else if variant == order[order.len() - 1] {
                "g2g4"
            } else {
                "h2h3"
            };
            let reply =
                crate::reply::MoveReply::new(mv.parse().unwrap(), Fen::start(), Status::Ongoing);
            Ok(Thought {
                reply: Reply::Move(reply),
                report: Default::default(),
            })
        }
        fn think_until(
            &self,
            fen: &Fen,
            _: &RulesInput,
            variant: Search,
            _: bool,
            stop: &dyn Fn() -> bool,
        ) -> Result<Option<Thought>, EngineError> {
            match stop() {
                true => Ok(None),
                false => self.think_with(fen, variant).map(Some),
            }
        }
    }

    #[test]
    fn a_cut_held_search_answers_with_the_cheapest_variant() {
        let mut s = Session::new(|_| Box::new(Cuttable));
        let cut = || true;
        let out = s.handle_until("go infinite", &cut);
        assert!(
            out.iter()
                .any(|l| l.starts_with("info string search stopped: variant 2ply answers")),
            "{out:?}"
        );
        assert!(out.iter().all(|l| !l.starts_with("bestmove")), "{out:?}");
        assert_eq!(s.handle("stop"), ["bestmove a2a3"]);
        // Not cut: the chosen variant answers.
        let out = s.handle_until("go infinite", &|| false);
        assert!(out.iter().all(|l| !l.contains("stopped")), "{out:?}");
        assert_eq!(s.handle("stop"), ["bestmove h2h3"]);
        // A search that is not held is never cut.
        let out = s.handle_until("go depth 2", &cut);
        assert_eq!(out.last().unwrap(), "bestmove h2h3", "{out:?}");
        assert!(out.iter().all(|l| !l.contains("stopped")), "{out:?}");
    }

    #[test]
    fn an_ample_clock_tries_a_deeper_variant_and_cuts_it_at_need() {
        let mut s = Session::new(|_| Box::new(Cuttable));
        let cut = || true;
        // Nothing measured yet: the cheapest variant alone, never cut.
        let out = s.handle_until("go movetime 60000", &cut);
        assert!(out.iter().all(|l| !l.contains("then")), "{out:?}");
        assert_eq!(out.last().unwrap(), "bestmove a2a3", "{out:?}");
        // Measured (the fake engine takes no time): the strongest variant the clock may
        // choose, then the deeper one, cut here by the GUI.
        let chosen = s.costs.choose(60_000 - DEFAULT_OVERHEAD);
        let deeper = s.costs.deeper(chosen, 60_000 - DEFAULT_OVERHEAD).unwrap();
        let out = s.handle_until("go movetime 60000", &cut);
        let said = format!(", then {} until the budget ends", deeper.name());
        assert!(out[0].ends_with(&said), "{out:?}");
        let stopped = format!(
            "info string search stopped: variant {} answers, {} was cut",
            chosen.name(),
            deeper.name()
        );
        assert!(out.contains(&stopped), "{out:?}");
        assert_eq!(out.last().unwrap(), "bestmove h2h3", "{out:?}");
        // Not cut: the deeper variant answers.
        let out = s.handle_until("go wtime 60000 btime 60000", &|| false);
        assert!(out[0].ends_with(&said), "{out:?}");
        assert_eq!(out.last().unwrap(), "bestmove g2g4", "{out:?}");
        // A budget of nothing: no deeper variant.
        let out = s.handle_until("go movetime 0", &cut);
        assert!(out.iter().all(|l| !l.contains("then")), "{out:?}");
    }

    #[test]
    fn the_lines_that_cut_a_search() {
        for line in ["stop", "go infinite", "ucinewgame", "quit\n", "bench"] {
            assert!(cuts_a_search(line), "{line}");
        }
        for line in ["ponderhit", "isready", "position startpos", "", "stopp"] {
            assert!(!cuts_a_search(line), "{line}");
        }
    }

    #[test]
    fn quit_ends_the_session() {
        let mut s = session();
        assert!(s.handle("quit").is_empty());
        assert!(s.is_done());
    }
}
