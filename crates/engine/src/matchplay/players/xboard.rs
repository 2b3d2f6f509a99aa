//! An xboard engine (the Chess Engine Communication Protocol, version 2) as a match
//! opponent: Debian's `fairymax` and `phalanx`, say.
//!
//! # The conversation
//!
//! - Start: `xboard`, `protover 2`, then the engine's `feature` lines, each answered
//!   `accepted` (`rejected` for `san`: moves are read in coordinate notation), until
//!   `done=1`. An engine that says `done=0` gets the whole answer timeout; one that says
//!   nothing within two seconds is taken for a protocol 1 engine (no `setboard`, no
//!   `ping`, no options). Options are then set with `option NAME=VALUE`, and an option
//!   the engine did not declare is an error naming those it did.
//! - The limit, sent after every `new` (which clears it): a depth with `sd N`, or with
//!   `depth N` when the engine refuses `sd` (phalanx; found once at start with `ping`);
//!   a time per move as a one-move time control, `level 1 M:SS 0`, with `time` and
//!   `otim` in centiseconds before each `go` (fairymax reads `st` in whole seconds only).
//! - A game: `new`, `force`, the opening by `setboard FEN` when the engine offered
//!   `setboard=1`, else by `edit` (black to move by first playing `a2a3`, as xboard
//!   does), then the moves in coordinate notation (`usermove M` when the engine asked for
//!   `usermove=1`). Each later turn sends `force` and only the moves the engine has not
//!   seen, then (with `ping`) reads until `pong` so that what the engine said after its
//!   last move is not taken for an answer, then `go`, and reads until `move M`. `post` asks for the thinking lines, whose
//!   last score and depth go into the [`PlayedMove`].
//! - What ends a turn without a move is an error in words (the game is then forfeited):
//!   `Illegal move` or `Error` (the engine refused something it was told), `resign`, a
//!   result line such as `1-0 {...}` (the referee, not the engine, ends games), a silent
//!   engine (the timeout) and an engine that ended.
//!
//! The move is read as coordinates (`e2e4`, `e7e8q`) or, failing that, as SAN, which
//! phalanx uses for castling (`O-O`); what is neither is passed on as written and the
//! referee forfeits it as illegal.
//!
//! Trade-off: `edit` cannot say that castling rights are lost while king and rook stand
//! at home, nor that an en passant capture is legal; such an opening is refused with an
//! error rather than played on a board the engine sees differently.

use std::collections::BTreeMap;
use std::time::Duration;

use shakmaty::san::San;
use shakmaty::uci::UciMove;
use shakmaty::{CastlingSide, Chess, Color, EnPassantMode, Position, Role, Square};

use super::process::{EngineProcess, Limit, OpponentSettings};
use super::{PlayedMove, Player, Turn, uci_of};
use crate::matchplay::error::MatchError;
use crate::matchplay::game::parse_position;
use crate::reply::Score;

/// How long an engine that has not said `done=0` may take to send its features.
const FEATURE_WAIT: Duration = Duration::from_secs(2);

/// The standard starting position, which `new` sets without `setboard` or `edit`.
const START: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

/// What the engine said it does, from its `feature` lines.
#[derive(Clone, Debug, Default)]
struct Features {
    name: Option<String>,
    setboard: bool,
    usermove: bool,
    ping: bool,
    /// Declared options: name to kind (`-check`, `-spin`, ...).
    options: BTreeMap<String, String>,
}

/// Splits a `feature` line's pairs: `name=value` or `name="a quoted value"`.
fn feature_pairs(rest: &str) -> Vec<(String, String)> {
    let mut pairs = Vec::new();
    let mut chars = rest.trim().chars().peekable();
    loop {
        while chars.peek().is_some_and(|c| c.is_whitespace()) {
            chars.next();
        }
        let name: String = chars.by_ref().take_while(|c| *c != '=').collect();
        if name.trim().is_empty() {
            return pairs;
        }
        let value: String = if chars.peek() == Some(&'"') {
            chars.next();
            chars.by_ref().take_while(|c| *c != '"').collect()
        } else {
            chars.by_ref().take_while(|c| !c.is_whitespace()).collect()
        };
        pairs.push((name.trim().to_string(), value));
    }
}

/// An xboard engine as a match opponent.
pub struct XboardPlayer {
    settings: OpponentSettings,
    features: Features,
    process: EngineProcess,
    /// `sd` or `depth`: what the engine takes a depth limit with.
    depth_command: &'static str,
    /// The opening and the moves the engine's board holds, when it holds this game's.
    known: Option<(String, Vec<String>)>,
    pings: u32,
}

impl XboardPlayer {
    /// Starts the engine, reads its features, sets its options and finds how it takes
    /// a depth limit.
    pub fn start(settings: OpponentSettings) -> Result<XboardPlayer, MatchError> {
        let process = EngineProcess::start(&settings)?;
        let mut player = XboardPlayer {
            settings,
            features: Features::default(),
            process,
            depth_command: "sd",
            known: None,
            pings: 0,
        };
        player.process.send("xboard")?;
        player.process.send("protover 2")?;
        player.read_features()?;
        for (name, value) in player.settings.options.clone() {
            if !player.features.options.contains_key(&name) {
                let declared: Vec<&str> =
                    player.features.options.keys().map(String::as_str).collect();
                return Err(player.refused(format!(
                    "declares no option `{name}` (its options: {})",
                    if declared.is_empty() {
                        "none".to_string()
                    } else {
                        declared.join(", ")
                    }
                )));
            }
            player.process.send(&format!("option {name}={value}"))?;
        }
        if let Limit::Depth(depth) = player.settings.limit() {
            player.find_depth_command(depth)?;
        }
        Ok(player)
    }

    fn refused(&self, message: String) -> MatchError {
        MatchError::Protocol {
            path: self.process.path().to_string(),
            message,
        }
    }

    /// Reads `feature` lines until `done=1` (see the module's contract).
    fn read_features(&mut self) -> Result<(), MatchError> {
        let mut patient = false;
        loop {
            let wait = if patient { None } else { Some(FEATURE_WAIT) };
            let line = match self.process.line_within(wait, "feature done=1") {
                Ok(line) => line,
                Err(MatchError::Timeout { .. }) if !patient => return Ok(()),
                Err(e) => return Err(e),
            };
            let Some(rest) = line.strip_prefix("feature ") else {
                continue;
            };
            for (name, value) in feature_pairs(rest) {
                let on = value == "1";
                match name.as_str() {
                    "done" => {
                        patient = !on;
                        if on {
                            return Ok(());
                        }
                        continue;
                    }
                    "san" if on => {
                        self.process.send("rejected san")?;
                        continue;
                    }
                    "myname" => self.features.name = Some(value.clone()),
                    "setboard" => self.features.setboard = on,
                    "usermove" => self.features.usermove = on,
                    "ping" => self.features.ping = on,
                    "option" => {
                        if let Some((name, kind)) = value.split_once(" -") {
                            let kind = kind.split_whitespace().next().unwrap_or("");
                            self.features
                                .options
                                .insert(name.trim().to_string(), kind.to_string());
                        }
                    }
                    _ => {}
                }
                self.process.send(&format!("accepted {name}"))?;
            }
        }
    }

    /// Sends `ping`, reads until its `pong`, and returns the lines that refused a
    /// command (`Error ...`, `Illegal move ...`).
    fn refusals_until_pong(&mut self) -> Result<Vec<String>, MatchError> {
        self.pings += 1;
        let n = self.pings;
        self.process.send(&format!("ping {n}"))?;
        let pong = format!("pong {n}");
        let mut refusals = Vec::new();
        loop {
            let line = self.process.line(&pong)?;
            if line.trim() == pong {
                return Ok(refusals);
            }
            if is_refusal(&line) {
                refusals.push(line);
            }
        }
    }

    /// Tries `sd N`, then `depth N`, keeping the first the engine does not refuse;
    /// without `ping` there is no telling, and `sd` is kept.
    fn find_depth_command(&mut self, depth: u32) -> Result<(), MatchError> {
        if !self.features.ping {
            return Ok(());
        }
        let mut refused = Vec::new();
        for command in ["sd", "depth"] {
            self.process.send(&format!("{command} {depth}"))?;
            let refusals = self.refusals_until_pong()?;
            if refusals.is_empty() {
                self.depth_command = command;
                return Ok(());
            }
            refused.extend(refusals);
        }
        Err(self.refused(format!(
            "refuses a depth limit by `sd` and by `depth`: {}",
            refused.join(" / ")
        )))
    }

    /// A move as the engine wants it: `usermove e2e4` or `e2e4`.
    fn move_line(&self, uci: &str) -> String {
        if self.features.usermove {
            format!("usermove {uci}")
        } else {
            uci.to_string()
        }
    }

    /// Sends the limit (after `new`, which clears it).
    fn send_limit(&mut self) -> Result<(), MatchError> {
        match self.settings.limit() {
            Limit::Depth(depth) => {
                let line = format!("{} {depth}", self.depth_command);
                self.process.send(&line)
            }
            Limit::Movetime(ms) => {
                let seconds = ms.div_ceil(1000).max(1);
                let line = format!("level 1 {}:{:02} 0", seconds / 60, seconds % 60);
                self.process.send(&line)
            }
        }
    }

    /// Sets up the turn's opening on the engine's board, in force mode.
    fn set_opening(&mut self, start_fen: &str) -> Result<(), MatchError> {
        self.process.send("new")?;
        self.process.send("force")?;
        self.send_limit()?;
        self.process.send("post")?;
        if start_fen == START {
            return Ok(());
        }
        if self.features.setboard {
            return self.process.send(&format!("setboard {start_fen}"));
        }
        let pos = parse_position(start_fen)?;
        let lines = edit_lines(&pos).map_err(|why| {
            self.refused(format!(
                "has no `setboard`, and `edit` cannot set up {start_fen}: {why}"
            ))
        })?;
        if pos.turn() == Color::Black {
            let line = self.move_line("a2a3");
            self.process.send(&line)?;
        }
        for line in lines {
            self.process.send(&line)?;
        }
        Ok(())
    }
}

/// True for a line by which the engine refuses what it was told.
fn is_refusal(line: &str) -> bool {
    line.starts_with("Error") || line.starts_with("Illegal move")
}

/// The `edit` commands that set up `pos`'s pieces, or why `edit` cannot say it (its
/// castling rights or en passant differ from what `edit` assumes).
fn edit_lines(pos: &Chess) -> Result<Vec<String>, String> {
    let board = pos.board();
    for color in Color::ALL {
        let rank = if color == Color::White { 0 } else { 7 };
        let at = |file: u32, role: Role| {
            board.piece_at(Square::new(rank * 8 + file)) == Some(role.of(color))
        };
        for (side, rook_file) in [(CastlingSide::KingSide, 7), (CastlingSide::QueenSide, 0)] {
            let assumed = at(4, Role::King) && at(rook_file, Role::Rook);
            if assumed != pos.castles().has(color, side) {
                return Err(format!(
                    "its castling rights differ from those `edit` assumes ({color:?} {side:?})"
                ));
            }
        }
    }
    if pos.ep_square(EnPassantMode::Legal).is_some() {
        return Err("an en passant capture is legal there".to_string());
    }
    let mut lines = vec!["edit".to_string(), "#".to_string()];
    for color in Color::ALL {
        if color == Color::Black {
            lines.push("c".to_string());
        }
        for square in board.by_color(color) {
            let role = board.role_at(square).expect("an occupied square");
            lines.push(format!("{}{square}", role.upper_char()));
        }
    }
    lines.push(".".to_string());
    Ok(lines)
}

/// The engine's move as UCI: coordinates, else SAN (phalanx castles as `O-O`), else
/// the text as written (the referee then finds it illegal).
fn read_move(pos: &Chess, text: &str) -> String {
    let coordinates = text
        .parse::<UciMove>()
        .ok()
        .and_then(|u| u.to_move(pos).ok());
    let san = || text.parse::<San>().ok().and_then(|s| s.to_move(pos).ok());
    match coordinates.or_else(san) {
        Some(m) => uci_of(&m),
        None => text.to_string(),
    }
}

/// A thinking line's depth and score (`9 30 26 175104 Nf3-g5 ...`: ply, centipawns from
/// the engine's side, time, nodes, line), when it is one.
fn thinking(line: &str) -> Option<(u32, i32)> {
    let mut words = line.split_whitespace();
    let depth = words.next()?.trim_end_matches(['.', '&']).parse().ok()?;
    let score = words.next()?.parse().ok()?;
    Some((depth, score))
}

impl Player for XboardPlayer {
    fn name(&self) -> String {
        let base = self.features.name.clone();
        self.settings
            .name_with(base.unwrap_or_else(|| self.settings.path.clone()))
    }

    fn new_game(&mut self, _game: usize) -> Result<(), MatchError> {
        self.known = None;
        self.process.send("new")?;
        self.process.send("easy")?;
        self.process.send("force")
    }

    fn choose(&mut self, turn: &Turn<'_>) -> Result<PlayedMove, MatchError> {
        let seen = match &self.known {
            Some((fen, moves)) if fen == turn.start_fen && turn.moves.starts_with(moves) => {
                moves.len()
            }
            _ => {
                self.set_opening(turn.start_fen)?;
                0
            }
        };
        self.process.send("force")?;
        for uci in &turn.moves[seen..] {
            let line = self.move_line(uci);
            self.process.send(&line)?;
        }
        // What the engine said since its last move (a result after its mating move, say)
        // is read here, so that only what it says after `go` answers this turn.
        if self.features.ping {
            let refusals = self.refusals_until_pong()?;
            if let Some(line) = refusals.first() {
                return Err(self.refused(format!("refused the game's moves: {line}")));
            }
        }
        if let Limit::Movetime(ms) = self.settings.limit() {
            let centis = ms.div_ceil(10);
            self.process.send(&format!("time {centis}"))?;
            self.process.send(&format!("otim {centis}"))?;
        }
        self.process.send("go")?;
        let mut last = None;
        let text = loop {
            let line = self.process.line("move")?;
            let mut words = line.split_whitespace();
            match words.next() {
                Some("move") => match words.next() {
                    Some(m) => break m.to_string(),
                    None => return Err(self.refused("`move` without a move".to_string())),
                },
                Some("resign") => return Err(MatchError::player("the engine resigns")),
                Some("1-0" | "0-1" | "1/2-1/2" | "*") => {
                    return Err(self.refused(format!("claims `{line}` instead of moving")));
                }
                Some("tellusererror") => return Err(self.refused(line.clone())),
                _ if is_refusal(&line) => {
                    return Err(self.refused(format!("refused the game's moves: {line}")));
                }
                _ => {
                    if let Some(found) = thinking(&line) {
                        last = Some(found);
                    }
                }
            }
        };
        let uci = read_move(turn.pos, &text);
        let mut moves = turn.moves.to_vec();
        moves.push(uci.clone());
        self.known = Some((turn.start_fen.to_string(), moves));
        Ok(PlayedMove {
            depth: last.map(|(d, _)| d),
            score: last.map(|(_, s)| Score::Cp(s)),
            ..PlayedMove::of(uci)
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_feature_pairs_with_quotes() {
        let pairs =
            feature_pairs("myname=\"Fairy-Max 5.0b\" setboard=0 option=\"Resign -check 0\" done=1");
        let names: Vec<&str> = pairs.iter().map(|(n, _)| n.as_str()).collect();
        assert_eq!(names, ["myname", "setboard", "option", "done"]);
        assert_eq!(pairs[0].1, "Fairy-Max 5.0b");
        assert_eq!(pairs[2].1, "Resign -check 0");
    }

    #[test]
    fn edit_sets_pieces_and_refuses_what_it_cannot_say() {
        let pos = parse_position("4k3/8/8/8/8/8/4P3/4K2R w K - 0 1").unwrap();
        assert_eq!(
            edit_lines(&pos).unwrap(),
            ["edit", "#", "Ke1", "Rh1", "Pe2", "c", "Ke8", "."]
        );
        let lost = parse_position("4k3/8/8/8/8/8/4P3/4K2R w - - 0 1").unwrap();
        assert!(edit_lines(&lost).unwrap_err().contains("castling"));
        let ep = parse_position("4k3/8/8/8/3pP3/8/8/4K3 b - e3 0 1").unwrap();
        assert!(edit_lines(&ep).unwrap_err().contains("en passant"));
    }

    #[test]
    fn reads_coordinates_and_san_castling() {
        let pos =
            parse_position("r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4")
                .unwrap();
        assert_eq!(read_move(&pos, "e1g1"), "e1g1");
        assert_eq!(read_move(&pos, "O-O"), "e1g1");
        assert_eq!(read_move(&pos, "Ng5"), "f3g5");
        assert_eq!(read_move(&pos, "zz"), "zz");
        assert_eq!(thinking(" 9     30    26   175104  Nf3-g5"), Some((9, 30)));
        assert_eq!(thinking("# times"), None);
    }
}
