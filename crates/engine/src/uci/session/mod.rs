//! The protocol state machine: one GUI line in, the lines to print out.
//!
//! Contract: [`Session::handle_until`] reads a line with [`command::parse`], and answers
//! it from the session's state (the position, the options of [`Options`], a held
//! `bestmove`, the measured costs of [`CostBook`]) and the [`Engine`]'s answers; the
//! search of a `go` is planned by [`clock::plan`] and its lines are made by [`format`].
//! Every command is guarded ([`guard`]): a panic anywhere in its path (parsing,
//! `position`, `setoption`, `go`, a search asking whether to stop, `quit`...) ends that
//! command with `info string error: ...` (and `bestmove (none)` when a `go` was still
//! owed its answer) and the session goes on. Exactly one `bestmove` answers each `go`
//! (but `go perft`).
//!
//! # `go`
//!
//! With `Search` set to a variant, that variant plays whatever the limits. With `auto`
//! ([`clock::plan`]): `depth N` takes the deepest variant within N plies; `movetime` or
//! the clocks take the strongest variant the clock may choose whose measured cost fits
//! the budget, cut at the clock's hard limit (then the cheapest variant answers), and
//! when the budget is ample a deeper variant runs after it, cut at the end of the budget
//! or by the GUI's `stop`; with neither limit (`go`, `go infinite`, `go nodes N`, `go
//! mate N`) the default variant plays. `nodes` and `mate` are read and said unsupported.
//! `searchmoves` and the positions of the `position ... moves ...` line go to the rules
//! (see "Rules input" in `regex_chess_chess`). A held search (`go infinite`, `go
//! ponder`) first runs the cheapest variant to the end, then the chosen one, which
//! [`Session::handle_until`]'s question may cut short; a cut search answers with the
//! variant run first (an `info string` says so).

use std::time::Instant;

use super::clock::{self, CostBook, Plan};
use super::command::{self, BadPosition, Command, Go, ParseError};
use super::format::{self, NO_MOVE};
use super::guard::{self, Point};
#[cfg(test)]
use super::options::DEFAULT_OVERHEAD;
use super::options::Options;
use super::{Engine, EngineError, Thought, perft};
use crate::bench;
use crate::runner::RulesInput;
use crate::variants::Search;
use regex_chess_chess::notation::fen::Fen;
use regex_chess_chess::notation::uci::UciMove;
use regex_chess_chess::positions;
use regex_chess_machine::exec::{Choice, ExecutorKind};

pub use super::command::cuts_a_search;

/// The name the engine gives on `uci`.
pub const ENGINE_NAME: &str = "regex-chess";
/// The author the engine gives on `uci`.
pub const ENGINE_AUTHOR: &str = "the regex-chess developers";

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

/// One UCI conversation.
pub struct Session {
    make: MakeEngine,
    engine: Box<dyn Engine>,
    options: Options,
    /// The last position set; the GUI's next `position` usually extends it.
    line: Line,
    /// Why the last `position` command set no position, if it did not.
    refused: Option<String>,
    /// The `bestmove` line of a `go infinite` or `go ponder`, printed on `stop`.
    held: Option<String>,
    /// True from the start of a `go` until its `bestmove` is printed or held: a panic in
    /// between answers `bestmove (none)`.
    owed: bool,
    costs: CostBook,
    quit: bool,
}

impl Session {
    /// A session whose engine `make` builds for the chosen executor and cores (fast on
    /// one core at first).
    pub fn new(make: impl Fn(Choice) -> Box<dyn Engine> + 'static) -> Session {
        let options = Options::default();
        Session {
            engine: make(options.choice()),
            make: Box::new(make),
            options,
            line: Line::at(Fen::start()),
            refused: None,
            held: None,
            owed: false,
            costs: CostBook::new(),
            quit: false,
        }
    }

    /// The session with `variant` playing every `go` (the `Search` option's value and
    /// default); `None` lets the limits choose.
    pub fn with_search(mut self, variant: Option<Search>) -> Session {
        self.options.search = variant;
        self
    }

    /// The session with its engine on the executor and cores of `choice` (the values the
    /// `Executor` and `Threads` options start from).
    pub fn with_choice(mut self, choice: Choice) -> Session {
        self.options.set_choice(choice);
        self.rebuild();
        self
    }

    /// The variant the `Search` option fixes, or `None` for `auto`.
    pub fn fixed_search(&self) -> Option<Search> {
        self.options.search
    }

    /// True once `quit` has been read.
    pub fn is_done(&self) -> bool {
        self.quit
    }

    /// The executor the engine runs on.
    pub fn executor(&self) -> ExecutorKind {
        self.options.executor
    }

    /// The executor and cores the engine runs on.
    pub fn choice(&self) -> Choice {
        self.options.choice()
    }

    /// Every option's value.
    pub fn options(&self) -> &Options {
        &self.options
    }

    /// The current position, as the rules computed it; `None` after a refused `position`.
    pub fn position(&self) -> Option<&Fen> {
        self.refused.is_none().then_some(&self.line.current)
    }

    /// The value of a spin option (`Move Overhead`, `Threads`, `Hash`, `MultiPV`).
    pub fn spin(&self, name: &str) -> Option<u64> {
        self.options.spin_named(name)
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
        let parsed = guard::catch(|| {
            guard::plant(Point::Parse);
            command::parse(input)
        });
        let command = match parsed {
            Ok(Ok(command)) => command,
            Ok(Err(ParseError::Empty)) => return out,
            Ok(Err(ParseError::Position(why))) => {
                self.refuse(&why, &mut out);
                return out;
            }
            Ok(Err(e)) => {
                out.push(format::note(e.to_string()));
                return out;
            }
            Err(panic) => {
                out.push(format::error(format!("reading the line panicked: {panic}")));
                return out;
            }
        };
        // A held `bestmove` answers the `go` that held it: these end that search first.
        if command.ends_held() {
            out.extend(self.held.take());
        }
        // `quit` ends the session even when its path fails.
        self.quit |= command == Command::Quit;
        let word = command.word();
        if let Err(panic) = guard::catch(|| self.dispatch(command, stop, &mut out)) {
            out.push(format::error(format!("`{word}` panicked: {panic}")));
            if std::mem::take(&mut self.owed) {
                out.push(NO_MOVE.to_string());
            }
        }
        out
    }

    fn dispatch(&mut self, command: Command, stop: &dyn Fn() -> bool, out: &mut Vec<String>) {
        match command {
            Command::Uci => {
                guard::plant(Point::Uci);
                out.push(format!("id name {ENGINE_NAME}"));
                out.push(format!("id author {ENGINE_AUTHOR}"));
                out.extend(self.options.uci_lines());
                out.push("uciok".to_string());
            }
            Command::IsReady => {
                guard::plant(Point::IsReady);
                if let Err(e) = self.engine.prepare() {
                    out.push(format::error(e));
                }
                out.push("readyok".to_string());
            }
            Command::NewGame => {
                guard::plant(Point::NewGame);
                self.line = Line::at(Fen::start());
                self.refused = None;
            }
            Command::SetOption { name, value } => {
                guard::plant(Point::SetOption);
                match self.options.set(&name, value.as_deref()) {
                    Ok(true) => self.rebuild(),
                    Ok(false) => {}
                    Err(e) => out.push(format::note(e.to_string())),
                }
            }
            Command::Position { start, moves } => self.set_position(start, &moves, out),
            Command::Go(go) => self.go(&go, stop, out),
            Command::Bench => self.bench(out),
            Command::Stop | Command::PonderHit => guard::plant(Point::Stop),
            Command::Quit => guard::plant(Point::Quit),
            Command::Ignored => {}
        }
    }

    /// Builds the engine again for the current `Executor` and `Threads`.
    fn rebuild(&mut self) {
        self.engine = (self.make)(self.options.choice());
    }

    /// A `position` command that sets no position: every `go` until the next says so.
    fn refuse(&mut self, why: &BadPosition, out: &mut Vec<String>) {
        out.push(format!(
            "info string position refused, no position is set (`go` answers `bestmove (none)` until the next `position`): {why}"
        ));
        self.refused = Some(why.to_string());
    }

    /// The position after `moves` from `start`, each applied by the engine up to the
    /// first that is malformed or illegal (an `info string` says where the moves were
    /// cut). A GUI sends the whole game each time: when it extends the current one, only
    /// the new moves need the rules.
    fn set_position(&mut self, start: Fen, moves: &[String], out: &mut Vec<String>) {
        guard::plant(Point::Position);
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
            out.push(format!(
                "info string position: kept the first {i} of {} moves: {}",
                moves.len(),
                format::clip(&problem)
            ));
            break;
        }
        self.line = line;
        self.refused = None;
    }

    fn go(&mut self, go: &Go, stop: &dyn Fn() -> bool, out: &mut Vec<String>) {
        for note in &go.notes {
            out.push(format::note(format!("go: {note}")));
        }
        // `go perft` answers no `bestmove`.
        self.owed = go.perft.is_none();
        guard::plant(Point::Go);
        if let Some(why) = &self.refused {
            out.push(format::note(format!(
                "no position to search (the last position was refused: {why})"
            )));
            if go.perft.is_none() {
                self.finish_go(go, NO_MOVE.to_string(), out);
            }
            return;
        }
        let fen = self.line.current.clone();
        if let Some(depth) = go.perft {
            return self.perft(&fen, depth, out);
        }
        let unsupported: Vec<String> = [("nodes", go.nodes), ("mate", go.mate)]
            .into_iter()
            .filter_map(|(word, n)| n.map(|n| format!("{word} {n}")))
            .collect();
        if !unsupported.is_empty() {
            out.push(format::note(format!(
                "not supported, ignored (the search is chosen by depth or time only): {}",
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
                Err(e) => out.push(format::note(format!("searchmoves: {e}; ignored"))),
            }
        }
        let overhead = self.options.move_overhead;
        let fixed = self.options.search;
        let plan = clock::plan(go, fixed, fen.turn(), overhead, &self.costs, Instant::now());
        out.push(plan.why.clone());
        let lines = self.options.multipv as usize;
        let searched = guard::catch(|| self.search(&fen, &input, &plan, lines > 1, stop, out));
        let best = match searched {
            Ok(Ok((thought, millis, variant))) => {
                format::search_output(&thought, variant, millis, lines, out)
            }
            Ok(Err(e)) => {
                out.push(format::error(e));
                NO_MOVE.to_string()
            }
            Err(panic) => {
                out.push(format::error(format!("the engine panicked: {panic}")));
                NO_MOVE.to_string()
            }
        };
        self.finish_go(go, best, out);
    }

    /// The answer of the search `plan`, its time in milliseconds and the variant that
    /// gave it. The plan's lead (its first variant, or its only one) runs to the end,
    /// unless it is not the cheapest variant and the plan's hard deadline passes: then
    /// the cheapest variant answers (an `info string` says so). With a first variant,
    /// the plan's variant then runs, asking `stop` (and the deadlines) between rules, and
    /// when cut the first one's answer is given (an `info string` says so).
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
        let past = |deadline: Option<Instant>| deadline.is_some_and(|end| Instant::now() >= end);
        let hard = || {
            guard::plant(Point::Cut);
            past(plan.hard)
        };
        let lead = plan.first.unwrap_or(plan.variant);
        let cheapest = clock::cheapest();
        let lead_cut: &dyn Fn() -> bool = if lead == cheapest { &never } else { &hard };
        let started = Instant::now();
        let Some((thought, millis)) = self.think(fen, input, lead, ranked, lead_cut)? else {
            // The clock's hard limit: what it ran is a cost too (the load shows in it).
            let spent = started.elapsed().as_millis() as u64;
            self.costs.record(lead, spent as f64);
            out.push(format::note(format!(
                "clock: variant {} cut at the hard limit after {spent} ms, {} answers",
                lead.name(),
                cheapest.name()
            )));
            let (thought, millis) = self
                .think(fen, input, cheapest, ranked, &never)?
                .expect("a run nothing stops ends");
            return Ok((thought, spent + millis, cheapest));
        };
        let Some(first) = plan.first else {
            return Ok((thought, millis, lead));
        };
        let cut = || hard() || stop() || past(plan.soft);
        match self.think(fen, input, plan.variant, ranked, &cut)? {
            Some((deeper, more)) => Ok((deeper, millis + more, plan.variant)),
            None => {
                out.push(format!(
                    "info string search stopped: variant {} answers, {} was cut",
                    first.name(),
                    plan.variant.name()
                ));
                Ok((thought, millis, first))
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
        self.owed = false;
        if go.hold {
            self.held = Some(best);
        } else {
            out.push(best);
        }
    }

    fn perft(&mut self, fen: &Fen, depth: u64, out: &mut Vec<String>) {
        let started = Instant::now();
        let depth = depth.clamp(1, 16) as u32;
        match guard::catch(|| perft::divide(self.engine.as_ref(), fen, depth)) {
            Ok(Ok(counts)) => {
                let millis = started.elapsed().as_millis().max(1) as u64;
                out.extend(format::perft_lines(&counts, depth, millis));
            }
            Ok(Err(e)) => out.push(format!("info string perft: error: {e}")),
            Err(panic) => out.push(format!(
                "info string perft: error: the engine panicked: {panic}"
            )),
        }
    }

    /// Stockfish's `bench`: the `Search` option's variant (the default one with `auto`)
    /// on the built-in bench suite ([`positions::BENCH`]), then the totals.
    fn bench(&mut self, out: &mut Vec<String>) {
        guard::plant(Point::Bench);
        let variant = self.options.search.unwrap_or_else(Search::default_play);
        let suite = bench::parse_positions(positions::BENCH).expect("the built-in suite parses");
        let (mut nodes, mut missing) = (0u64, 0);
        let started = Instant::now();
        for (i, position) in suite.iter().enumerate() {
            out.push(format!("Position: {}/{}", i + 1, suite.len()));
            let thought = position
                .fen
                .parse::<Fen>()
                .map_err(|e| EngineError(e.to_string()))
                .and_then(
                    |fen| match guard::catch(|| self.engine.think_with(&fen, variant)) {
                        Ok(thought) => thought,
                        Err(panic) => Err(EngineError(format!("the engine panicked: {panic}"))),
                    },
                );
            match thought {
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
        let millis = started.elapsed().as_millis().max(1) as u64;
        out.extend(format::bench_totals(nodes, missing, millis));
    }
}

#[cfg(test)]
mod tests;
