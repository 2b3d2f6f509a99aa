//! The GUI's lines as typed commands: [`parse`] turns one line into a [`Command`] or a
//! [`ParseError`], and nothing else in the session reads words.
//!
//! Contract: parsing is pure (no engine, no state): the same line always gives the same
//! value, and no line makes it panic. What a command's words cannot say is kept as a
//! value for the session to report: a refused `position` is an error (the session sets
//! no position), while a `go` with a bad word still searches and carries its [`GoNote`]s.
//! Moves stay text here: whether `e2e4` is legal, or even well formed, is decided where
//! the moves are applied, so that the legal prefix of a `moves` list is kept.
//!
//! Trade-off: the FEN of `position fen` is parsed here (it needs no engine), so a refused
//! FEN and a malformed command are one kind of error for the session.

use super::clock::Clock;
use regex_chess_chess::notation::fen::{Fen, FenError};

/// One GUI line, understood.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Command {
    /// `uci`: identify and list the options.
    Uci,
    /// `isready`.
    IsReady,
    /// `ucinewgame`.
    NewGame,
    /// `setoption name <name> [value <value>]`, the words of each joined by one space.
    SetOption {
        /// The option's name as written.
        name: String,
        /// Its value, when one is given.
        value: Option<String>,
    },
    /// `position startpos|fen <FEN> [moves ...]`.
    Position {
        /// Where the game starts.
        start: Fen,
        /// The moves from there, as written.
        moves: Vec<String>,
    },
    /// `go ...`.
    Go(Go),
    /// `bench`.
    Bench,
    /// `stop`.
    Stop,
    /// `ponderhit`.
    PonderHit,
    /// `quit`.
    Quit,
    /// `debug ...` or `register ...`: accepted, nothing to do.
    Ignored,
}

impl Command {
    /// True for the commands that end a held search (`go infinite`, `go ponder`) before
    /// they are handled, printing its `bestmove` first.
    pub fn ends_held(&self) -> bool {
        matches!(
            self,
            Command::Stop
                | Command::PonderHit
                | Command::Go(_)
                | Command::NewGame
                | Command::Quit
                | Command::Bench
        )
    }
}

/// Whether the GUI line `input` cuts a running search short (see
/// [`super::Session::handle_until`]): `stop`, `go`, `ucinewgame`, `quit` or `bench`, not
/// `ponderhit` (the search goes on when the expected move was played). Only the first
/// word is read: the reader thread asks it of every line while a search runs.
pub fn cuts_a_search(input: &str) -> bool {
    input
        .split_whitespace()
        .next()
        .is_some_and(|command| ["stop", "go", "ucinewgame", "quit", "bench"].contains(&command))
}

impl Command {
    /// The command's word, for messages.
    pub fn word(&self) -> &'static str {
        match self {
            Command::Uci => "uci",
            Command::IsReady => "isready",
            Command::NewGame => "ucinewgame",
            Command::SetOption { .. } => "setoption",
            Command::Position { .. } => "position",
            Command::Go(_) => "go",
            Command::Bench => "bench",
            Command::Stop => "stop",
            Command::PonderHit => "ponderhit",
            Command::Quit => "quit",
            Command::Ignored => "debug",
        }
    }
}

/// What a `go` command asks.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Go {
    /// The time limits.
    pub clock: Clock,
    /// `depth N`.
    pub depth: Option<u64>,
    /// `nodes N` (read, not supported).
    pub nodes: Option<u64>,
    /// `mate N` (read, not supported).
    pub mate: Option<u64>,
    /// `perft N`.
    pub perft: Option<u64>,
    /// `infinite` or `ponder`: the `bestmove` waits for `stop` or `ponderhit`.
    pub hold: bool,
    /// `searchmoves ...`, as written.
    pub searchmoves: Vec<String>,
    /// The words that were not understood, in order.
    pub notes: Vec<GoNote>,
}

/// A word of `go` that was not understood; the rest of the command still counts.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum GoNote {
    /// A limit without a number after it.
    #[error("`{0}` needs a number; ignored")]
    NeedsNumber(String),
    /// A word that is no parameter of `go`.
    #[error("unknown parameter `{0}` ignored")]
    Unknown(String),
}

/// Why a line is no command.
#[derive(Debug, PartialEq, Eq, thiserror::Error)]
pub enum ParseError {
    /// Nothing but white space: no answer at all.
    #[error("empty line")]
    Empty,
    /// The first word is no command.
    #[error("unknown command ignored: {0}")]
    Unknown(String),
    /// `setoption` without `name`.
    #[error("malformed setoption ignored (expected `setoption name <name> value <value>`)")]
    SetOption,
    /// A `position` command that sets no position.
    #[error(transparent)]
    Position(#[from] BadPosition),
}

/// Why a `position` command set no position.
#[derive(Debug, PartialEq, Eq, thiserror::Error)]
pub enum BadPosition {
    /// Neither `startpos` nor `fen <FEN>`.
    #[error("expected `position startpos [moves ...]` or `position fen <FEN> [moves ...]`")]
    Form,
    /// The FEN is refused.
    #[error(transparent)]
    Fen(FenError),
}

/// Reads one GUI line.
pub fn parse(line: &str) -> Result<Command, ParseError> {
    let words: Vec<&str> = line.split_whitespace().collect();
    let Some((&command, args)) = words.split_first() else {
        return Err(ParseError::Empty);
    };
    Ok(match command {
        "uci" => Command::Uci,
        "isready" => Command::IsReady,
        "ucinewgame" => Command::NewGame,
        "setoption" => set_option(args)?,
        "position" => position(args)?,
        "go" => Command::Go(go(args)),
        "bench" => Command::Bench,
        "stop" => Command::Stop,
        "ponderhit" => Command::PonderHit,
        "quit" => Command::Quit,
        "debug" | "register" => Command::Ignored,
        _ => return Err(ParseError::Unknown(line.trim().to_string())),
    })
}

/// `setoption name <name words> [value <value words>]`.
fn set_option(args: &[&str]) -> Result<Command, ParseError> {
    let Some((&"name", rest)) = args.split_first() else {
        return Err(ParseError::SetOption);
    };
    let (name, value) = match rest.iter().position(|w| *w == "value") {
        Some(i) => (rest[..i].join(" "), Some(rest[i + 1..].join(" "))),
        None => (rest.join(" "), None),
    };
    Ok(Command::SetOption { name, value })
}

/// `position startpos|fen <FEN> [moves ...]`.
fn position(args: &[&str]) -> Result<Command, BadPosition> {
    let (setup, moves) = match args.iter().position(|w| *w == "moves") {
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
    let moves = moves.iter().map(|m| m.to_string()).collect();
    Ok(Command::Position { start, moves })
}

/// The words of `go`: limits with their numbers, `infinite`/`ponder`, and `searchmoves`
/// with every word after it.
fn go(args: &[&str]) -> Go {
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
                _ => go.notes.push(GoNote::NeedsNumber(word.to_string())),
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
            other => go.notes.push(GoNote::Unknown(other.to_string())),
        }
        i += 1;
    }
    go
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn commands_and_their_arguments() {
        assert_eq!(parse("  uci "), Ok(Command::Uci));
        assert_eq!(parse(""), Err(ParseError::Empty));
        assert_eq!(
            parse("setoption name Move Overhead value 100"),
            Ok(Command::SetOption {
                name: "Move Overhead".into(),
                value: Some("100".into())
            })
        );
        assert_eq!(parse("setoption value 3"), Err(ParseError::SetOption));
        assert_eq!(
            parse("position startpos moves e2e4 e7e5"),
            Ok(Command::Position {
                start: Fen::start(),
                moves: vec!["e2e4".into(), "e7e5".into()]
            })
        );
        assert_eq!(
            parse("position sideways"),
            Err(ParseError::Position(BadPosition::Form))
        );
        assert!(matches!(
            parse("position fen 8/8/8/8 w - - 0 1"),
            Err(ParseError::Position(BadPosition::Fen(_)))
        ));
        assert_eq!(
            parse("hello there"),
            Err(ParseError::Unknown("hello there".into()))
        );
    }

    #[test]
    fn go_keeps_what_it_understands_and_notes_the_rest() {
        let Ok(Command::Go(go)) =
            parse("go wtime -5 btime 900 depth x ponder bogus searchmoves e2e4 zz")
        else {
            panic!("a go");
        };
        assert_eq!(go.clock.time, [Some(0), Some(900)]);
        assert!(go.hold);
        assert_eq!(go.depth, None);
        assert_eq!(go.searchmoves, ["e2e4", "zz"]);
        assert_eq!(
            go.notes,
            [
                GoNote::NeedsNumber("depth".into()),
                GoNote::Unknown("bogus".into())
            ]
        );
    }
}
