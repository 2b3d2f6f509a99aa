//! What the engine's programs answer, read from their output states: the legal moves of
//! `legal-moves`, and the move, the position after it, its status, the search's report
//! and the ranking of the root moves of the `move` programs (the contracts in
//! `crates/chess/src/lib.rs`).
//!
//! A reader checks everything the contract promises (each line's form, the order of the
//! report's lines, a FEN in normalised form, a principal variation starting with the
//! move) and names the first thing that breaks it in a [`Malformed`]: an output that does
//! not follow its contract is an engine bug, reported, never a panic.

use std::fmt;
use std::str::FromStr;

use regex_chess_chess::notation::fen::Fen;
use regex_chess_chess::notation::uci::UciMove;

/// Why an output state breaks its program's contract: the first thing found wrong.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct Malformed(pub String);

impl From<String> for Malformed {
    fn from(problem: String) -> Malformed {
        Malformed(problem)
    }
}

impl From<&str> for Malformed {
    fn from(problem: &str) -> Malformed {
        Malformed(problem.to_string())
    }
}

/// The state of the game after the engine's move, as the rules judge it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Status {
    /// The game goes on.
    Ongoing,
    /// The side to move is mated.
    Checkmate,
    /// The side to move has no legal move and is not in check.
    Stalemate,
    /// Drawn by the fifty-move rule.
    FiftyMove,
    /// Drawn: neither side can mate.
    InsufficientMaterial,
}

impl FromStr for Status {
    type Err = Malformed;
    fn from_str(s: &str) -> Result<Status, Malformed> {
        [
            Status::Ongoing,
            Status::Checkmate,
            Status::Stalemate,
            Status::FiftyMove,
            Status::InsufficientMaterial,
        ]
        .into_iter()
        .find(|status| status.as_str() == s)
        .ok_or_else(|| Malformed(format!("unknown status `{s}`")))
    }
}

impl fmt::Display for Status {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl Status {
    /// The word the contract uses.
    pub fn as_str(self) -> &'static str {
        match self {
            Status::Ongoing => "ongoing",
            Status::Checkmate => "checkmate",
            Status::Stalemate => "stalemate",
            Status::FiftyMove => "fifty-move",
            Status::InsufficientMaterial => "insufficient-material",
        }
    }
}

/// The search's score of its move, from the engine's view.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Score {
    /// Centipawns.
    Cp(i32),
    /// Mate in this many moves (negative: the engine is mated).
    Mate(i32),
}

impl FromStr for Score {
    type Err = Malformed;
    fn from_str(s: &str) -> Result<Score, Malformed> {
        let number = |text: &str| {
            text.parse::<i32>()
                .map_err(|_| Malformed(format!("the score `{s}` has no integer")))
        };
        match s.split_once(' ') {
            Some(("cp", n)) => Ok(Score::Cp(number(n)?)),
            Some(("mate", n)) if number(n)? != 0 => Ok(Score::Mate(number(n)?)),
            _ => Err(Malformed(format!(
                "the score `{s}` is not `cp <int>` or `mate <int>`"
            ))),
        }
    }
}

impl fmt::Display for Score {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Score::Cp(cp) => write!(f, "cp {cp}"),
            Score::Mate(n) => write!(f, "mate {n}"),
        }
    }
}

/// The engine's move and what it led to.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MoveReply {
    /// The move the rules chose.
    pub mv: UciMove,
    /// The position after it, as the rules wrote it.
    pub fen_after: Fen,
    /// The rules' verdict on that position.
    pub status: Status,
    /// The search's score of the move (`score` line), when reported.
    pub score: Option<Score>,
    /// The plies searched (`depth` line), when reported.
    pub depth: Option<u32>,
    /// The positions the rules evaluated (`nodes` line), when reported.
    pub nodes: Option<u64>,
    /// The principal variation (`pv` line): the move, then the expected reply and
    /// further moves when reported; empty when not reported.
    pub pv: Vec<UciMove>,
    /// The root moves the rules ranked (`multipv` lines of the `-mpv` programs), best
    /// first; empty when not reported.
    pub multipv: Vec<RankedMove>,
}

impl MoveReply {
    /// A reply with no search report.
    pub fn new(mv: UciMove, fen_after: Fen, status: Status) -> MoveReply {
        MoveReply {
            mv,
            fen_after,
            status,
            score: None,
            depth: None,
            nodes: None,
            pv: Vec::new(),
            multipv: Vec::new(),
        }
    }
}

/// A root move in the rules' ranking: its score and its principal variation (the move,
/// then the reply the score assumes, if any).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RankedMove {
    /// The move's score, as the `score` line writes it.
    pub score: Score,
    /// The move, then the expected reply.
    pub pv: Vec<UciMove>,
}

/// What the `move` program answered.
// One reply a move: the size of a move with its report costs nothing worth a box.
#[allow(clippy::large_enum_variant)]
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Reply {
    /// The engine moved.
    Move(MoveReply),
    /// The engine had no legal move: [`Status::Checkmate`] or [`Status::Stalemate`].
    NoMove(Status),
}

/// Splits a state into its lines, which must each end in `\n`.
fn lines(state: &str) -> Result<Vec<&str>, Malformed> {
    let body = state
        .strip_suffix('\n')
        .ok_or_else(|| Malformed::from("the last line does not end in a newline"))?;
    Ok(body.split('\n').collect())
}

/// Reads the output of `legal-moves`: one UCI move a line, each ending in `\n`, in any
/// order, none repeated. Returns them sorted by their text.
pub fn parse_legal_output(state: &str) -> Result<Vec<UciMove>, Malformed> {
    if state.is_empty() {
        return Ok(Vec::new());
    }
    let mut moves = lines(state)?
        .into_iter()
        .map(|line| {
            line.parse::<UciMove>()
                .map_err(|e| Malformed(e.to_string()))
        })
        .collect::<Result<Vec<_>, _>>()?;
    moves.sort();
    if let Some(pair) = moves.windows(2).find(|pair| pair[0] == pair[1]) {
        return Err(Malformed(format!("the move {} is listed twice", pair[0])));
    }
    Ok(moves)
}

/// Reads the output of `move`: `move <uci>\nfen <FEN>\nstatus <status>\n`, then
/// optionally the search's lines `score cp|mate <int>`, `depth <int>`, `nodes <int>`,
/// `pv <uci> ...` (each at most once, in that order), then the ranking's lines
/// `multipv <rank> score cp|mate <int> pv <uci> ...` (ranks 1, 2, ... in order); or
/// `status checkmate\n` /
/// `status stalemate\n` alone. The FEN must be valid and written in normalised form; the
/// principal variation must start with the move.
pub fn parse_move_output(state: &str) -> Result<Reply, Malformed> {
    let lines = lines(state)?;
    let field = |line: &str, key: &str| -> Result<String, Malformed> {
        line.strip_prefix(key)
            .and_then(|rest| rest.strip_prefix(' '))
            .map(str::to_string)
            .ok_or_else(|| Malformed(format!("expected a line `{key} ...`, found {line:?}")))
    };
    match lines.as_slice() {
        [status] => match field(status, "status")?.parse::<Status>()? {
            status @ (Status::Checkmate | Status::Stalemate) => Ok(Reply::NoMove(status)),
            other => Err(Malformed(format!("no move, but the status is `{other}`"))),
        },
        [mv, fen, status, report @ ..] => {
            let mv: UciMove = field(mv, "move")?
                .parse()
                .map_err(|e| Malformed(format!("{e}")))?;
            let fen_text = field(fen, "fen")?;
            let fen_after: Fen = fen_text.parse().map_err(|e| Malformed(format!("{e}")))?;
            if fen_after.to_string() != fen_text {
                return Err(Malformed(format!(
                    "the FEN {fen_text:?} is not in normalised six-field form ({fen_after})"
                )));
            }
            let status = field(status, "status")?.parse::<Status>()?;
            let mut reply = MoveReply::new(mv, fen_after, status);
            let ranked_from = report
                .iter()
                .position(|line| line.starts_with("multipv "))
                .unwrap_or(report.len());
            read_report(&mut reply, &report[..ranked_from])?;
            for (i, line) in report[ranked_from..].iter().enumerate() {
                reply.multipv.push(read_ranked(line, i + 1)?);
            }
            Ok(Reply::Move(reply))
        }
        other => Err(Malformed(format!(
            "expected 1 or at least 3 lines, found {}",
            other.len()
        ))),
    }
}

/// Reads the ranking's line of rank `rank`: `multipv <rank> score <score> pv <uci> ...`.
fn read_ranked(line: &str, rank: usize) -> Result<RankedMove, Malformed> {
    let bad = || {
        Malformed(format!(
            "expected `multipv {rank} score <score> pv <moves>`, found {line:?}"
        ))
    };
    let rest = line
        .strip_prefix(&format!("multipv {rank} score "))
        .ok_or_else(bad)?;
    let (score, pv) = rest.split_once(" pv ").ok_or_else(bad)?;
    let pv = pv
        .split(' ')
        .map(|m| {
            m.parse::<UciMove>()
                .map_err(|e| Malformed(format!("multipv {rank}: {e}")))
        })
        .collect::<Result<Vec<_>, _>>()?;
    Ok(RankedMove {
        score: score.parse()?,
        pv,
    })
}

/// Reads the search's lines after `status` into `reply`.
fn read_report(reply: &mut MoveReply, lines: &[&str]) -> Result<(), Malformed> {
    const KEYS: [&str; 4] = ["score", "depth", "nodes", "pv"];
    let mut next = 0;
    for line in lines {
        let (key, value) = line
            .split_once(' ')
            .ok_or_else(|| Malformed(format!("expected a line `<key> <value>`, found {line:?}")))?;
        let at = KEYS[next..].iter().position(|k| *k == key).ok_or_else(|| {
            Malformed(format!(
                "unexpected line {line:?} (keys: {KEYS:?}, in order)"
            ))
        })?;
        next += at + 1;
        let int = |what: &str| {
            value.parse::<u64>().map_err(|_| {
                Malformed(format!(
                    "the {what} `{value}` is not a non-negative integer"
                ))
            })
        };
        match key {
            "score" => reply.score = Some(value.parse()?),
            "depth" => {
                let depth = int("depth")?;
                reply.depth = Some(u32::try_from(depth).map_err(|_| "depth too large")?);
            }
            "nodes" => reply.nodes = Some(int("node count")?),
            _ => {
                reply.pv = value
                    .split(' ')
                    .map(|m| {
                        m.parse::<UciMove>()
                            .map_err(|e| Malformed(format!("pv: {e}")))
                    })
                    .collect::<Result<_, _>>()?;
                if reply.pv.first() != Some(&reply.mv) {
                    return Err(Malformed(format!(
                        "the pv `{value}` does not start with the move {}",
                        reply.mv
                    )));
                }
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests;
