//! UCI sessions from random bytes: command lines a GUI might send, and lines no GUI
//! would (garbage, `%`, invalid UTF-8, long lines), with a judge that follows the
//! session and reads what the engine prints.
//!
//! The judge ([`Judge`]) tracks the position with shakmaty as the protocol defines it
//! (`position startpos|fen ... moves ...`, the legal prefix of the moves kept) and checks:
//! - every `isready` is answered by one `readyok`, in order (one may come before the
//!   `bestmove` of an earlier `go` still searching or held; a `bestmove` never comes
//!   before the `readyok` of an earlier `isready`);
//! - every `go` but `go perft` is answered by one `bestmove`, in order (a `go infinite` or
//!   `go ponder` by the time a later line ends it, or the input ends), and the move is
//!   legal in the position of its `go` (`(none)` exactly when there is no position or no
//!   legal move);
//! - a `position` is refused exactly when shakmaty refuses its FEN, and the engine keeps
//!   as many of its moves as shakmaty finds legal in a row.
//!
//! Commands whose cost is unbounded by design (`go perft` deeper than 2) are not drawn.

use std::collections::VecDeque;

use regex_chess_engine::variants::Search;
use shakmaty::fen::Fen;
use shakmaty::{CastlingMode, Chess, Position};

use super::judge::legal_uci as legal;
use super::{Bytes, FENS, NOISE};

/// The position a UCI move text leads to from `pos`, when it is one of the legal moves
/// as the engine writes them (castling as the king's two-square move, promotions with
/// their letter).
fn apply(pos: &Chess, text: &str) -> Option<Chess> {
    let m = pos
        .legal_moves()
        .into_iter()
        .find(|m| m.to_uci(CastlingMode::Standard).to_string() == text)?;
    let mut next = pos.clone();
    next.play_unchecked(m);
    Some(next)
}

/// The position of a FEN by shakmaty, or `None` when it refuses it.
fn position(text: &str) -> Option<Chess> {
    let fen = text.parse::<Fen>().ok();
    fen.and_then(|fen| fen.into_position(CastlingMode::Standard).ok())
}

/// Words a `go` line may carry: the first [`LIMITS`] take a number.
const GO_WORDS: [&str; 12] = [
    "wtime",
    "btime",
    "winc",
    "binc",
    "movestogo",
    "movetime",
    "depth",
    "nodes",
    "mate",
    "infinite",
    "ponder",
    "searchmoves",
];

/// How many of [`GO_WORDS`] take a number (`perft` does too; it is drawn apart).
const LIMITS: usize = 9;

/// One command line (without its newline), drawn from `bytes`; `pos` is the position the
/// session holds, so that moves are often legal ones.
pub fn line(bytes: &mut Bytes<'_>, pos: Option<&Chess>) -> Vec<u8> {
    let text = match bytes.below(20) {
        0 => "uci".to_string(),
        1 | 2 => "isready".to_string(),
        3 => "ucinewgame".to_string(),
        4..=6 => position_line(bytes, pos),
        7..=10 => go_line(bytes, pos),
        11 => ["stop", "ponderhit", "debug on", "register later"][bytes.below(4)].to_string(),
        12 | 13 => setoption_line(bytes),
        14 if bytes.chance(16) => "bench".to_string(),
        14 => "quit".to_string(),
        15 => {
            let depth = 1 + bytes.below(2);
            format!("go perft {depth}")
        }
        16 => NOISE[bytes.below(NOISE.len())].to_string(),
        17 => {
            // A long line.
            let unit = NOISE[bytes.below(NOISE.len())];
            let times = 1 + bytes.below(20_000);
            format!(
                "{} {}",
                ["go", "position", "setoption", "x"][bytes.below(4)],
                unit.repeat(times)
            )
        }
        _ => return raw_line(bytes),
    };
    text.replace('\n', " ").into_bytes()
}

/// Bytes that are not text at all, or nearly a command: raw bytes without a newline.
fn raw_line(bytes: &mut Bytes<'_>) -> Vec<u8> {
    let mut raw = bytes.raw(64);
    raw.retain(|b| *b != b'\n');
    if bytes.chance(128) {
        let head = ["go ", "position ", "setoption name ", "position fen "][bytes.below(4)];
        let mut out = head.as_bytes().to_vec();
        out.extend(raw);
        return out;
    }
    raw
}

/// `position startpos|fen <FEN> [moves ...]`: a known FEN, a damaged one, or neither,
/// then moves that are mostly legal, now and then not.
fn position_line(bytes: &mut Bytes<'_>, current: Option<&Chess>) -> String {
    let (mut text, mut pos) = match bytes.below(6) {
        0 => ("position startpos".to_string(), Some(Chess::default())),
        1 => ("position".to_string(), None),
        2 => {
            // A FEN cut within its board: both parsers refuse it.
            let fen = FENS[bytes.below(FENS.len())];
            let board_end = fen.find(' ').unwrap_or(fen.len());
            let cut = bytes.below(board_end.max(1));
            (format!("position fen {}", &fen[..cut]), None)
        }
        _ => {
            let fen = FENS[bytes.below(FENS.len())];
            (format!("position fen {fen}"), position(fen))
        }
    };
    // Often the game of the current position, extended (as GUIs send it).
    if let (Some(current), true) = (current, bytes.chance(64)) {
        pos = Some(current.clone());
        text = "position fen ".to_string()
            + &shakmaty::fen::Fen::from_position(current, shakmaty::EnPassantMode::Always)
                .to_string();
    }
    let count = bytes.below(12);
    if count > 0 || bytes.chance(32) {
        text.push_str(" moves");
    }
    for _ in 0..count {
        let word = match (&pos, bytes.below(10)) {
            (Some(p), 0..=7) => {
                let moves = legal(p);
                if moves.is_empty() {
                    "e2e4".to_string()
                } else {
                    moves[bytes.below(moves.len())].clone()
                }
            }
            (_, 8) => ["zz", "e2e5", "e7e8", "a1a1", "0000", "E2E4"][bytes.below(6)].to_string(),
            _ => NOISE[bytes.below(NOISE.len())].replace('\n', " "),
        };
        if let Some(p) = &pos {
            pos = apply(p, &word);
        }
        text.push(' ');
        text.push_str(&word);
    }
    text
}

/// `go` with limits that keep a search within seconds.
fn go_line(bytes: &mut Bytes<'_>, pos: Option<&Chess>) -> String {
    let mut text = "go".to_string();
    for _ in 0..bytes.below(4) {
        let word = GO_WORDS[bytes.below(GO_WORDS.len())];
        text.push(' ');
        text.push_str(word);
        match word {
            "infinite" | "ponder" => {}
            "searchmoves" => {
                let moves = pos.map(legal).unwrap_or_default();
                for _ in 0..bytes.below(4) {
                    match moves.is_empty() || bytes.chance(40) {
                        true => text.push_str(" e2e4"),
                        false => {
                            text.push(' ');
                            text.push_str(&moves[bytes.below(moves.len())]);
                        }
                    }
                }
                break;
            }
            "depth" => text.push_str(&format!(" {}", bytes.below(4))),
            _ => {
                let values = ["0", "1", "50", "300", "1000", "-5", "x", "60000"];
                text.push(' ');
                text.push_str(values[bytes.below(values.len())]);
            }
        }
    }
    text
}

/// `setoption`, well formed or not, for every option the engine offers and some it
/// does not.
fn setoption_line(bytes: &mut Bytes<'_>) -> String {
    let names = [
        "Threads",
        "Executor",
        "Hash",
        "Move Overhead",
        "MultiPV",
        "Ponder",
        "Search",
        "Nope",
    ];
    let mut values = vec![
        "1",
        "2",
        "3",
        "0",
        "64",
        "fast",
        "reference",
        "true",
        "false",
        "auto",
        "-1",
        "",
    ];
    // Every search the `Search` option offers.
    values.extend(Search::names());
    let name = names[bytes.below(names.len())];
    let value = values[bytes.below(values.len())];
    match bytes.below(8) {
        0 => format!("setoption name {name}"),
        1 => format!("setoption {name} {value}"),
        _ => format!("setoption name {name} value {value}"),
    }
}

/// Whether a `go` with `args` is a `go perft` and whether it holds its `bestmove`
/// (`infinite`, `ponder`), read as the protocol's parser reads them: a limit's word
/// takes the next word as its number (a bad number is ignored, and so is the limit),
/// `searchmoves` takes the rest.
fn read_go(args: &[&str]) -> (bool, bool) {
    let (mut perft, mut hold) = (false, false);
    let mut i = 0;
    while i < args.len() {
        let word = args[i];
        if GO_WORDS[..LIMITS].contains(&word) || word == "perft" {
            let number = args.get(i + 1).is_some_and(|v| v.parse::<i64>().is_ok());
            perft |= word == "perft" && number;
            i += 2;
            continue;
        }
        match word {
            "infinite" | "ponder" => hold = true,
            "searchmoves" => break,
            _ => {}
        }
        i += 1;
    }
    (perft, hold)
}

/// What the judge waits for.
#[derive(Debug)]
enum Wait {
    /// A `readyok`.
    Ready,
    /// A `bestmove` legal in this position (`None`: `(none)` is the answer).
    Best(Option<Chess>),
}

/// Follows a session line by line; see the module doc.
#[derive(Default)]
pub struct Judge {
    /// The position as the protocol defines it; `None` after a refused `position`.
    pos: Option<Chess>,
    refused: bool,
    /// What the engine owes, in order.
    owed: VecDeque<Wait>,
    /// Whether a `go` without a move yet is held (`go infinite`, `go ponder`).
    held: bool,
    /// Set once `quit` was sent: later lines are never read.
    quit: bool,
    /// The moves of the last `position` the engine should keep, and how many it was
    /// given, to check its note.
    kept: Option<(usize, usize)>,
    /// The lines sent, for messages.
    sent: Vec<String>,
}

impl Judge {
    /// A judge of a fresh session (the start position set).
    pub fn new() -> Judge {
        Judge {
            pos: Some(Chess::default()),
            ..Judge::default()
        }
    }

    /// The position the session holds, as the judge tracks it.
    pub fn position(&self) -> Option<&Chess> {
        self.pos.as_ref()
    }

    /// True once `quit` was sent.
    pub fn quit(&self) -> bool {
        self.quit
    }

    /// Notes that `line` was sent; the session reads it as lossy UTF-8, word by word.
    pub fn sent(&mut self, line: &[u8]) {
        if self.quit {
            return;
        }
        let text = String::from_utf8_lossy(line).into_owned();
        self.sent.push(text.chars().take(120).collect());
        let words: Vec<&str> = text.split_whitespace().collect();
        let Some((&command, args)) = words.split_first() else {
            return;
        };
        if ["stop", "ponderhit", "go", "ucinewgame", "quit", "bench"].contains(&command) {
            self.held = false;
        }
        self.kept = None;
        match command {
            "isready" => self.owed.push_back(Wait::Ready),
            "ucinewgame" => {
                self.pos = Some(Chess::default());
                self.refused = false;
            }
            "position" => self.position_command(args),
            "go" => {
                let (perft, hold) = read_go(args);
                if perft {
                    // `go perft` answers counts, no `bestmove`.
                    return;
                }
                let none =
                    self.refused || self.pos.as_ref().is_none_or(|p| p.legal_moves().is_empty());
                let pos = if none { None } else { self.pos.clone() };
                self.owed.push_back(Wait::Best(pos));
                self.held = hold;
            }
            "quit" => self.quit = true,
            _ => {}
        }
    }

    /// The protocol's `position`: the start, then the longest legal prefix of the moves.
    fn position_command(&mut self, args: &[&str]) {
        let moves_at = args.iter().position(|w| *w == "moves");
        let (setup, moves) = match moves_at {
            Some(i) => (&args[..i], &args[i + 1..]),
            None => (args, &[][..]),
        };
        let start = match setup {
            ["startpos"] => Some(Chess::default()),
            ["fen", fields @ ..] if !fields.is_empty() => position(&fields.join(" ")),
            _ => None,
        };
        let Some(mut pos) = start else {
            self.pos = None;
            self.refused = true;
            return;
        };
        self.refused = false;
        let mut kept = 0;
        for word in moves {
            match apply(&pos, word) {
                Some(next) => {
                    pos = next;
                    kept += 1;
                }
                None => break,
            }
        }
        self.kept = Some((kept, moves.len()));
        self.pos = Some(pos);
    }

    /// Reads one line the engine printed.
    pub fn received(&mut self, line: &str) -> Result<(), String> {
        if let Some(rest) = line.strip_prefix("info string position refused") {
            if !self.refused {
                return Err(format!(
                    "the engine refused a position shakmaty accepts{rest}"
                ));
            }
            return Ok(());
        }
        if let Some(rest) = line.strip_prefix("info string position: kept the first ") {
            let kept: usize = rest
                .split(' ')
                .next()
                .and_then(|n| n.parse().ok())
                .ok_or_else(|| format!("unreadable note {line:?}"))?;
            return match self.kept {
                Some((want, of)) if want == kept && want < of => Ok(()),
                other => Err(format!(
                    "{line:?}: shakmaty keeps (moves kept, given) {other:?}"
                )),
            };
        }
        if line == "readyok" {
            // It may overtake a `bestmove` still owed (a held or running search), never
            // an earlier `isready`.
            let first = self.owed.iter().position(|w| matches!(w, Wait::Ready));
            return match first {
                Some(at) => {
                    self.owed.remove(at);
                    Ok(())
                }
                None => Err(format!("readyok while owing {:?}", self.owed)),
            };
        }
        let Some(rest) = line.strip_prefix("bestmove ") else {
            return Ok(());
        };
        let mv = rest.split(' ').next().unwrap_or("");
        match self.owed.pop_front() {
            Some(Wait::Best(None)) if mv == "(none)" => Ok(()),
            Some(Wait::Best(Some(pos))) if legal(&pos).iter().any(|m| m == mv) => Ok(()),
            Some(Wait::Best(pos)) => Err(format!(
                "bestmove {mv} is not legal in {:?} (legal: {:?})",
                pos.as_ref()
                    .map(|p| Fen::from_position(p, shakmaty::EnPassantMode::Always).to_string()),
                pos.as_ref().map(legal)
            )),
            other => Err(format!("bestmove {mv} while owing {other:?}")),
        }
    }

    /// Checks that the engine said every `position` note the judge expects: called after
    /// the output of one line (in-process, where outputs come line by line).
    pub fn line_done(&mut self, printed: &[String]) -> Result<(), String> {
        if let Some((kept, of)) = self.kept
            && kept < of
            && !printed
                .iter()
                .any(|l| l.starts_with("info string position: kept the first "))
        {
            return Err(format!(
                "no note that only {kept} of {of} moves were kept: {printed:?}"
            ));
        }
        // A `readyok` or a `bestmove` the line owed comes with the line, unless held.
        let due = self
            .owed
            .iter()
            .filter(|w| matches!(w, Wait::Ready))
            .count();
        if due > 0 {
            return Err(format!("isready unanswered: {printed:?}"));
        }
        if self.owed.len() > usize::from(self.held) {
            return Err(format!(
                "go unanswered: owing {:?}, printed {printed:?}",
                self.owed
            ));
        }
        Ok(())
    }

    /// At the end of the input: nothing is owed any more.
    pub fn finish(&self) -> Result<(), String> {
        match self.owed.front() {
            None => Ok(()),
            Some(wait) => Err(format!("the session ended owing {wait:?}")),
        }
    }

    /// The last lines sent, for a message.
    pub fn recent(&self) -> String {
        let from = self.sent.len().saturating_sub(6);
        self.sent[from..].join(" | ")
    }
}

/// A session of up to `lines` lines from `bytes`: the script the binary reads (each
/// line ended by a newline).
pub fn script(bytes: &mut Bytes<'_>, lines: usize) -> Vec<u8> {
    let mut judge = Judge::new();
    let mut out = Vec::new();
    for _ in 0..lines {
        if bytes.is_empty() {
            break;
        }
        let line = line(bytes, judge.position());
        judge.sent(&line);
        out.extend(line);
        out.push(b'\n');
    }
    out
}
