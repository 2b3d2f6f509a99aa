//! The UCI subset MistyBanqi's drivers speak, as a session over any reader and writer:
//! `uci`, `isready`, `ucinewgame`, `position fen F [moves ...]` (also `position startpos`),
//! `go [movetime MS] [nodes N] [depth D]`, `setoption name NoProgress|Contempt value V`,
//! `quit`; answers `id`, `uciok`, `readyok`, `info depth .. score cp|mate .. nodes .. nps
//! .. time .. pv ..` after each iteration, and `bestmove M` (`0000` without a legal move).
//!
//! The driver owns the deal: a flip's result reaches the engine through the next
//! `position`, whose FEN is the position at the last flip or capture and whose moves are
//! the quiet plies since (a flip among the moves is refused: its piece is unknown), so the
//! engine sees repetitions. A line it cannot use gets an `info string` naming what is
//! wrong, and the session goes on with what it had; nothing a driver sends makes it panic.

use std::io::{self, BufRead, Write};
use std::time::Duration;

use crate::eval::EvalConfig;
use crate::movegen::MoveList;
use crate::moves::Move;
use crate::position::Position;
use crate::search::{Engine, Limits, MAX_PLY, Report, SearchConfig, WIN};

/// Without `movetime` or `nodes`, `go` thinks this long.
pub const DEFAULT_MOVETIME: Duration = Duration::from_secs(1);

/// A UCI session: the engine, the position and its history.
pub struct Session {
    engine: Engine,
    position: Position,
    history: Vec<u64>,
}

impl Session {
    /// A session with these switches.
    pub fn new(eval: EvalConfig, config: SearchConfig, tt_bits: u32) -> Session {
        Session {
            engine: Engine::new(eval, config, tt_bits),
            position: Position::start(),
            history: Vec::new(),
        }
    }

    /// Reads commands until `quit` or the end of input, answering on `out`.
    pub fn run(&mut self, input: impl BufRead, out: &mut impl Write) -> io::Result<()> {
        for line in input.lines() {
            let line = match line {
                Ok(line) => line,
                Err(e) if e.kind() == io::ErrorKind::InvalidData => {
                    writeln!(out, "info string error: a line that is not UTF-8")?;
                    continue;
                }
                Err(e) => return Err(e),
            };
            if !self.command(&line, out)? {
                break;
            }
            out.flush()?;
        }
        out.flush()
    }

    /// Answers one line; false after `quit`.
    pub fn command(&mut self, line: &str, out: &mut impl Write) -> io::Result<bool> {
        let words: Vec<&str> = line.split_whitespace().collect();
        match words.first().copied() {
            None => {}
            Some("uci") => {
                writeln!(
                    out,
                    "id name regex-chess-banqi {}",
                    env!("CARGO_PKG_VERSION")
                )?;
                writeln!(out, "id author the regex-chess project")?;
                writeln!(
                    out,
                    "option name NoProgress type spin default 40 min 1 max 1000"
                )?;
                writeln!(
                    out,
                    "option name Contempt type spin default {} min 0 max 100",
                    SearchConfig::default().contempt
                )?;
                writeln!(out, "uciok")?;
            }
            Some("isready") => writeln!(out, "readyok")?,
            Some("ucinewgame") => {
                self.engine.new_game();
                self.position = Position::start();
                self.history.clear();
            }
            Some("position") => {
                if let Err(why) = self.set_position(&words[1..]) {
                    writeln!(out, "info string error: {why}")?;
                }
            }
            Some("go") => self.go(&words[1..], out)?,
            Some("setoption") => {
                if let Err(why) = self.set_option(&words[1..]) {
                    writeln!(out, "info string error: {why}")?;
                }
            }
            Some("quit") => return Ok(false),
            Some("stop") => {}
            Some(other) => writeln!(out, "info string error: unknown command `{other}`")?,
        }
        Ok(true)
    }

    fn set_option(&mut self, words: &[&str]) -> Result<(), String> {
        let (Some(&"name"), Some(name), Some(&"value"), Some(value)) =
            (words.first(), words.get(1), words.get(2), words.get(3))
        else {
            return Err("setoption name NAME value V".into());
        };
        let number: u16 = value
            .parse()
            .map_err(|_| format!("`{value}` is not a number"))?;
        match name.to_ascii_lowercase().as_str() {
            "noprogress" if number > 0 => self.engine.config.no_progress = number,
            "contempt" => self.engine.config.contempt = i32::from(number.min(100)),
            _ => return Err(format!("no option `{name}` taking {number}")),
        }
        Ok(())
    }

    fn set_position(&mut self, words: &[&str]) -> Result<(), String> {
        let (mut position, rest) = match words.first() {
            Some(&"startpos") => (Position::start(), &words[1..]),
            Some(&"fen") => {
                let end = words
                    .iter()
                    .position(|&w| w == "moves")
                    .unwrap_or(words.len());
                let fen = words[1..end].join(" ");
                (
                    fen.parse::<Position>()
                        .map_err(|e| format!("fen `{fen}`: {e}"))?,
                    &words[end..],
                )
            }
            _ => return Err("position fen F [moves ...] or position startpos [moves ...]".into()),
        };
        let mut history = Vec::new();
        match rest.first() {
            None => {}
            Some(&"moves") => {
                for text in &rest[1..] {
                    let mv: Move = text.parse().map_err(|e| format!("{e}"))?;
                    let mut list = MoveList::new();
                    position.legal_moves(&mut list);
                    if !list.as_slice().contains(&mv) {
                        return Err(format!("`{mv}` is not legal in {position}"));
                    }
                    if mv.is_flip() {
                        return Err(format!(
                            "the flip `{mv}` among the moves: send the position after it"
                        ));
                    }
                    if position.is_capture(mv) {
                        history.clear();
                    } else {
                        history.push(position.hash());
                    }
                    position.play_unchecked(mv, None);
                }
            }
            Some(other) => return Err(format!("`{other}` after the position: expected `moves`")),
        }
        self.position = position;
        self.history = history;
        Ok(())
    }

    fn go(&mut self, words: &[&str], out: &mut impl Write) -> io::Result<()> {
        let mut limits = Limits::default();
        let mut i = 0;
        while i < words.len() {
            let value = words.get(i + 1).and_then(|v| v.parse::<u64>().ok());
            match (words[i], value) {
                ("movetime", Some(ms)) => limits.time = Some(Duration::from_millis(ms)),
                ("nodes", Some(n)) => limits.nodes = Some(n.max(1)),
                ("depth", Some(d)) => limits.depth = Some(d.clamp(1, MAX_PLY as u64) as u32),
                (word, _) => {
                    writeln!(out, "info string ignored `{word}` in go")?;
                    i += 1;
                    continue;
                }
            }
            i += 2;
        }
        if limits == Limits::default() {
            limits.time = Some(DEFAULT_MOVETIME);
        }
        let mut failed = None;
        let result =
            self.engine
                .search(&self.position, &self.history, limits, &mut |r: &Report| {
                    if let Err(e) = writeln!(out, "{}", info_line(r)).and_then(|()| out.flush()) {
                        failed.get_or_insert(e);
                    }
                });
        if let Some(e) = failed {
            return Err(e);
        }
        let best = result.best.map_or("0000".to_string(), |m| m.to_string());
        writeln!(out, "bestmove {best}")
    }
}

fn info_line(r: &Report) -> String {
    let score = if r.score.abs() > WIN - MAX_PLY as i32 {
        let plies = WIN - r.score.abs();
        let moves = (plies + 1) / 2;
        format!("mate {}", if r.score > 0 { moves } else { -moves })
    } else {
        format!("cp {}", r.score)
    };
    let ms = r.elapsed.as_millis().max(1) as u64;
    let nps = r.nodes * 1000 / ms;
    let pv: Vec<String> = r.pv.iter().map(Move::to_string).collect();
    format!(
        "info depth {} score {score} nodes {} nps {nps} time {ms} pv {}",
        r.depth,
        r.nodes,
        pv.join(" ")
    )
}
