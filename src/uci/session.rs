//! The protocol state machine: one GUI line in, the lines to print out.

use std::time::Instant;

use super::{Engine, Thought};
use crate::chess::fen::Fen;
use crate::chess::runner::Reply;
use crate::chess::uci::UciMove;
use crate::exec::ExecutorKind;

/// The name the engine gives on `uci`.
pub const ENGINE_NAME: &str = "regex-chess";
/// The author the engine gives on `uci`.
pub const ENGINE_AUTHOR: &str = "the regex-chess developers";
/// The depth of the rules' search, in plies (reported in `info depth`).
pub const SEARCH_DEPTH: u32 = 2;

/// Builds the engine for an executor kind (called again when the option changes).
type MakeEngine = Box<dyn Fn(ExecutorKind) -> Box<dyn Engine>>;

/// The position the GUI set: where it started, the moves from there and where they led.
#[derive(Clone, Debug)]
struct Line {
    start: Fen,
    moves: Vec<UciMove>,
    current: Fen,
}

impl Line {
    fn start() -> Line {
        Line {
            start: Fen::start(),
            moves: Vec::new(),
            current: Fen::start(),
        }
    }
}

/// `go` parameters that take a value; the rest are flags (`infinite`, `ponder`) or
/// `searchmoves`, which takes the moves after it.
const GO_VALUES: &[&str] = &[
    "wtime",
    "btime",
    "winc",
    "binc",
    "movestogo",
    "depth",
    "nodes",
    "mate",
    "movetime",
];

/// One UCI conversation.
pub struct Session {
    make: MakeEngine,
    engine: Box<dyn Engine>,
    executor: ExecutorKind,
    line: Line,
    /// The `bestmove` line of a `go infinite` or `go ponder`, printed on `stop`.
    held: Option<String>,
    quit: bool,
}

impl Session {
    /// A session whose engine `make` builds for the chosen executor (fast at first).
    pub fn new(make: impl Fn(ExecutorKind) -> Box<dyn Engine> + 'static) -> Session {
        let executor = ExecutorKind::Fast;
        Session {
            engine: make(executor),
            make: Box::new(make),
            executor,
            line: Line::start(),
            held: None,
            quit: false,
        }
    }

    /// True once `quit` has been read.
    pub fn is_done(&self) -> bool {
        self.quit
    }

    /// The executor the engine runs on.
    pub fn executor(&self) -> ExecutorKind {
        self.executor
    }

    /// The current position, as the rules computed it.
    pub fn position(&self) -> &Fen {
        &self.line.current
    }

    /// Handles one line from the GUI and returns the lines to print, in order.
    pub fn handle(&mut self, input: &str) -> Vec<String> {
        let mut out = Vec::new();
        let words: Vec<&str> = input.split_whitespace().collect();
        let Some((&command, args)) = words.split_first() else {
            return out;
        };
        match command {
            "uci" => {
                out.push(format!("id name {ENGINE_NAME}"));
                out.push(format!("id author {ENGINE_AUTHOR}"));
                out.push(
                    "option name Executor type combo default fast var fast var reference"
                        .to_string(),
                );
                out.push("uciok".to_string());
            }
            "isready" => {
                if let Err(e) = self.engine.prepare() {
                    out.push(format!("info string error: {e}"));
                }
                out.push("readyok".to_string());
            }
            "ucinewgame" => {
                self.line = Line::start();
                self.held = None;
            }
            "setoption" => self.set_option(args, &mut out),
            "position" => self.position_command(args, &mut out),
            "go" => self.go(args, &mut out),
            "stop" | "ponderhit" => out.extend(self.held.take()),
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
        if !name.eq_ignore_ascii_case("executor") {
            out.push(format!(
                "info string unknown option ignored: {}",
                clip(&name)
            ));
            return;
        }
        match value.as_deref().map(str::parse::<ExecutorKind>) {
            Some(Ok(kind)) => {
                if kind != self.executor {
                    self.executor = kind;
                    self.engine = (self.make)(kind);
                }
            }
            Some(Err(e)) => out.push(format!("info string option Executor unchanged: {e}")),
            None => out.push("info string option Executor unchanged: no value".to_string()),
        }
    }

    fn position_command(&mut self, args: &[&str], out: &mut Vec<String>) {
        match self.parse_position(args) {
            Ok(line) => self.line = line,
            Err(why) => out.push(format!("info string position unchanged: {why}")),
        }
    }

    /// The position a `position` command sets, the moves applied by the engine.
    fn parse_position(&self, args: &[&str]) -> Result<Line, String> {
        let moves_at = args.iter().position(|w| *w == "moves");
        let (setup, moves) = match moves_at {
            Some(i) => (&args[..i], &args[i + 1..]),
            None => (args, &[][..]),
        };
        let start = match setup {
            ["startpos"] => Fen::start(),
            ["fen", fields @ ..] if !fields.is_empty() => {
                fields.join(" ").parse::<Fen>().map_err(|e| e.to_string())?
            }
            _ => {
                return Err(
                    "expected `position startpos [moves ...]` or `position fen <FEN> [moves ...]`"
                        .to_string(),
                );
            }
        };
        let moves = moves
            .iter()
            .map(|m| m.parse::<UciMove>().map_err(|e| e.to_string()))
            .collect::<Result<Vec<_>, _>>()?;
        // A GUI sends the whole game each time: when it extends the current one, only
        // the new moves need the rules.
        let mut line = if start == self.line.start && moves.starts_with(&self.line.moves) {
            self.line.clone()
        } else {
            Line {
                current: start.clone(),
                start,
                moves: Vec::new(),
            }
        };
        for &mv in &moves[line.moves.len()..] {
            match self.engine.apply(&line.current, mv) {
                Ok(Some(next)) => {
                    line.current = next;
                    line.moves.push(mv);
                }
                Ok(None) => {
                    return Err(format!("the move {mv} is illegal in {}", line.current));
                }
                Err(e) => return Err(format!("error applying {mv}: {e}")),
            }
        }
        Ok(line)
    }

    fn go(&mut self, args: &[&str], out: &mut Vec<String>) {
        let mut hold = false;
        let mut ignored = Vec::new();
        let mut i = 0;
        while i < args.len() {
            let word = args[i];
            if GO_VALUES.contains(&word) {
                match args.get(i + 1).map(|v| v.parse::<i64>()) {
                    Some(Ok(_)) => ignored.push(format!("{word} {}", args[i + 1])),
                    _ => out.push(format!("info string go: `{word}` needs a number; ignored")),
                }
                i += 2;
                continue;
            }
            match word {
                "infinite" | "ponder" => {
                    hold = true;
                    ignored.push(word.to_string());
                }
                "searchmoves" => {
                    ignored.push(args[i..].join(" "));
                    i = args.len();
                    continue;
                }
                other => out.push(format!(
                    "info string go: unknown parameter `{}` ignored",
                    clip(other)
                )),
            }
            i += 1;
        }
        if !ignored.is_empty() {
            out.push(format!(
                "info string fixed {SEARCH_DEPTH}-ply search; not used: {}",
                ignored.join(" ")
            ));
        }
        let started = Instant::now();
        let answer = self.engine.think(&self.line.current);
        let millis = started.elapsed().as_millis();
        let best = match answer {
            Ok(Thought {
                reply: Reply::Move(reply),
                nodes,
                score_cp,
            }) => {
                let mut info = format!("info depth {SEARCH_DEPTH}");
                if let Some(nodes) = nodes {
                    info.push_str(&format!(" nodes {nodes}"));
                }
                info.push_str(&format!(" time {millis}"));
                if let Some(score) = score_cp {
                    info.push_str(&format!(" score cp {score}"));
                }
                out.push(info);
                if nodes.is_none() || score_cp.is_none() {
                    out.push(
                        "info string the move program reports no node count or score; time is the wall-clock time of the rules run in ms".to_string(),
                    );
                }
                reply.mv.to_string()
            }
            Ok(Thought {
                reply: Reply::NoMove(status),
                ..
            }) => {
                out.push(format!("info string no legal move: {status}"));
                "0000".to_string()
            }
            Err(e) => {
                out.push(format!("info string error: {e}"));
                "0000".to_string()
            }
        };
        let line = format!("bestmove {best}");
        if hold {
            self.held = Some(line);
        } else {
            out.push(line);
        }
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
        fn think(&self, _: &Fen) -> Result<Thought, EngineError> {
            Err(self.prepare().unwrap_err())
        }
    }

    fn session() -> Session {
        Session::new(|_| Box::new(Missing))
    }

    #[test]
    fn identifies_itself() {
        let out = session().handle("uci");
        assert_eq!(
            out,
            [
                "id name regex-chess",
                "id author the regex-chess developers",
                "option name Executor type combo default fast var fast var reference",
                "uciok"
            ]
        );
    }

    #[test]
    fn errors_of_a_missing_engine_are_info_strings() {
        let mut s = session();
        assert_eq!(
            s.handle("isready"),
            ["info string error: the rules are not registered", "readyok"]
        );
        let out = s.handle("go wtime 1000 btime 1000");
        assert_eq!(out.last().unwrap(), "bestmove 0000");
        assert!(out.iter().any(|l| l.contains("not registered")));
        // The start position needs no rules; a move does, and fails.
        assert!(s.handle("position startpos").is_empty());
        let out = s.handle("position startpos moves e2e4");
        assert_eq!(out.len(), 1);
        assert!(out[0].starts_with("info string position unchanged: error applying e2e4"));
        assert_eq!(s.position(), &Fen::start());
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
            "setoption name Hash value 16",
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
    fn the_executor_option_rebuilds_the_engine() {
        use std::sync::{Arc, Mutex};
        let built = Arc::new(Mutex::new(Vec::new()));
        let log = built.clone();
        let mut s = Session::new(move |kind| {
            log.lock().unwrap().push(kind);
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
        assert_eq!(
            *built.lock().unwrap(),
            [
                ExecutorKind::Fast,
                ExecutorKind::Reference,
                ExecutorKind::Fast
            ]
        );
    }

    #[test]
    fn infinite_holds_the_bestmove_until_stop() {
        let mut s = session();
        let out = s.handle("go infinite");
        assert!(out.iter().all(|l| !l.starts_with("bestmove")), "{out:?}");
        assert_eq!(s.handle("stop"), ["bestmove 0000"]);
        assert!(s.handle("stop").is_empty());
        s.handle("go ponder wtime 5");
        assert_eq!(s.handle("ponderhit"), ["bestmove 0000"]);
        s.handle("go infinite");
        s.handle("ucinewgame");
        assert!(s.handle("stop").is_empty());
    }

    #[test]
    fn go_reads_every_parameter_and_notes_the_bad_ones() {
        let mut s = session();
        let out = s.handle(
            "go wtime 300000 btime 300000 winc 0 binc 0 movestogo 40 depth 5 nodes 9 mate 2 movetime 100 searchmoves e2e4 d2d4",
        );
        assert!(out[0].starts_with("info string fixed 2-ply search; not used: wtime 300000"));
        assert!(out[0].ends_with("searchmoves e2e4 d2d4"), "{out:?}");
        assert_eq!(out.last().unwrap(), "bestmove 0000");
        let out = s.handle("go depth x bogus");
        assert!(out[0].contains("`depth` needs a number"), "{out:?}");
        assert!(out[1].contains("unknown parameter `bogus`"), "{out:?}");
        assert_eq!(out.last().unwrap(), "bestmove 0000");
    }

    #[test]
    fn quit_ends_the_session() {
        let mut s = session();
        assert!(s.handle("quit").is_empty());
        assert!(s.is_done());
    }
}
