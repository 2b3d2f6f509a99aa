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
mod tests {
    use super::*;

    fn texts(moves: &[UciMove]) -> Vec<String> {
        moves.iter().map(|m| m.to_string()).collect()
    }

    #[test]
    fn reads_legal_moves() {
        assert_eq!(parse_legal_output(""), Ok(vec![]));
        let moves = parse_legal_output("e2e4\na7a8q\nb1c3\n").unwrap();
        assert_eq!(texts(&moves), ["a7a8q", "b1c3", "e2e4"]);
    }

    #[test]
    fn refuses_malformed_legal_moves() {
        for (state, problem) in [
            ("e2e4", "newline"),
            ("e2e4\n\n", "``"),
            ("e2e4\ne2e5x\n", "e2e5x"),
            ("e2e4\nb1c3\ne2e4\n", "e2e4 is listed twice"),
            ("\n", "``"),
            ("4k3/8/8/8/8/8/8/4K3 w - - 0 1\n", "not a move"),
        ] {
            let error = parse_legal_output(state).unwrap_err().0;
            assert!(error.contains(problem), "{state:?}: {error}");
        }
    }

    #[test]
    fn reads_a_move() {
        let reply = parse_move_output(
            "move e2e4\nfen rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1\nstatus ongoing\n",
        )
        .unwrap();
        let Reply::Move(reply) = reply else {
            panic!("expected a move, got {reply:?}")
        };
        assert_eq!(reply.mv.to_string(), "e2e4");
        assert_eq!(
            reply.fen_after.to_string(),
            "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1"
        );
        assert_eq!(reply.status, Status::Ongoing);
        assert_eq!(
            parse_move_output("status checkmate\n"),
            Ok(Reply::NoMove(Status::Checkmate))
        );
        assert_eq!(
            parse_move_output("status stalemate\n"),
            Ok(Reply::NoMove(Status::Stalemate))
        );
        for status in [
            "checkmate",
            "stalemate",
            "fifty-move",
            "insufficient-material",
        ] {
            let state = format!("move a1a2\nfen 4k3/8/8/8/8/8/K7/8 b - - 1 1\nstatus {status}\n");
            let Ok(Reply::Move(reply)) = parse_move_output(&state) else {
                panic!("{state:?}")
            };
            assert_eq!(reply.status.as_str(), status);
        }
    }

    #[test]
    fn reads_a_search_report() {
        let head = "move e2e4\nfen rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1\nstatus ongoing\n";
        let state = format!("{head}score cp -35\ndepth 2\nnodes 420\npv e2e4 e7e5\n");
        let Ok(Reply::Move(reply)) = parse_move_output(&state) else {
            panic!("{state:?}")
        };
        assert_eq!(reply.score, Some(Score::Cp(-35)));
        assert_eq!(reply.depth, Some(2));
        assert_eq!(reply.nodes, Some(420));
        assert_eq!(texts(&reply.pv), ["e2e4", "e7e5"]);
        for (lines, score) in [
            ("score mate 1\n", Score::Mate(1)),
            ("score mate -2\n", Score::Mate(-2)),
        ] {
            let Ok(Reply::Move(reply)) = parse_move_output(&format!("{head}{lines}")) else {
                panic!("{lines:?}")
            };
            assert_eq!(
                (reply.score, reply.depth, reply.pv.len()),
                (Some(score), None, 0)
            );
            assert_eq!(score.to_string(), lines["score ".len()..].trim_end());
        }
        let Ok(Reply::Move(reply)) = parse_move_output(&format!("{head}pv e2e4\n")) else {
            panic!("a lone pv")
        };
        assert_eq!(
            (reply.score, texts(&reply.pv)),
            (None, vec!["e2e4".to_string()])
        );
    }

    #[test]
    fn refuses_malformed_reports() {
        let head = "move e2e4\nfen rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1\nstatus ongoing\n";
        for (report, problem) in [
            ("score 12\n", "not `cp <int>`"),
            ("score cp x\n", "no integer"),
            ("score mate 0\n", "not `cp <int>`"),
            ("depth -1\n", "not a non-negative integer"),
            ("nodes many\n", "node count"),
            ("pv e7e5 e2e4\n", "does not start with the move"),
            ("pv e2e4 e7e9\n", "e7e9"),
            ("depth 2\nscore cp 1\n", "unexpected line"),
            ("depth 2\ndepth 2\n", "unexpected line"),
            ("eval 3\n", "unexpected line"),
            ("nodes\n", "<key> <value>"),
        ] {
            let error = parse_move_output(&format!("{head}{report}")).unwrap_err().0;
            assert!(error.contains(problem), "{report:?}: {error}");
        }
        let long = format!("{head}score cp 1\ndepth 2\nnodes 3\npv e2e4\npv e2e4\n");
        assert!(
            parse_move_output(&long)
                .unwrap_err()
                .0
                .contains("unexpected line")
        );
        for (ranking, problem) in [
            ("multipv 2 score cp 1 pv e2e4\n", "expected `multipv 1"),
            ("multipv 1 score cp 1\n", "expected `multipv 1"),
            ("multipv 1 score cp x pv e2e4\n", "no integer"),
            ("multipv 1 score cp 1 pv e2e9\n", "e2e9"),
            ("multipv 1 score cp 1 pv e2e4\nscore cp 1\n", "`multipv 2"),
        ] {
            let error = parse_move_output(&format!("{head}pv e2e4\n{ranking}"))
                .unwrap_err()
                .0;
            assert!(error.contains(problem), "{ranking:?}: {error}");
        }
    }

    #[test]
    fn reads_the_ranking_lines() {
        let head = "move e2e4\nfen rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1\nstatus ongoing\n";
        let state = format!(
            "{head}score cp 5\npv e2e4 e7e5\nmultipv 1 score cp 5 pv e2e4 e7e5\nmultipv 2 score mate -1 pv g2g4\n"
        );
        let Ok(Reply::Move(reply)) = parse_move_output(&state) else {
            panic!("a ranking")
        };
        assert_eq!(reply.score, Some(Score::Cp(5)));
        let ranked: Vec<(Score, Vec<String>)> = reply
            .multipv
            .iter()
            .map(|r| (r.score, texts(&r.pv)))
            .collect();
        assert_eq!(
            ranked,
            [
                (Score::Cp(5), vec!["e2e4".to_string(), "e7e5".to_string()]),
                (Score::Mate(-1), vec!["g2g4".to_string()])
            ]
        );
    }

    #[test]
    fn refuses_malformed_moves() {
        let fen = "fen 4k3/8/8/8/8/8/K7/8 b - - 1 1";
        for (state, problem) in [
            (String::new(), "newline"),
            (
                "status ongoing\n".to_string(),
                "no move, but the status is `ongoing`",
            ),
            ("status draw\n".to_string(), "unknown status `draw`"),
            ("move a1a2\n".to_string(), "expected a line `status ...`"),
            (
                format!("move a1a2\n{fen}\n"),
                "expected 1 or at least 3 lines, found 2",
            ),
            (format!("move a1a2\n{fen}\nstatus ongoing"), "newline"),
            (format!("move a1a9\n{fen}\nstatus ongoing\n"), "a1a9"),
            (format!("mv a1a2\n{fen}\nstatus ongoing\n"), "`move ...`"),
            (
                format!("move a1a2\n{fen}\nstatus  ongoing\n"),
                "unknown status ` ongoing`",
            ),
            (
                "move a1a2\nfen 4k3/8/8/8/8/8/K7/8 b - -\nstatus ongoing\n".to_string(),
                "normalised",
            ),
            (
                "move a1a2\nfen 4k3/8/8/8/8/8/8/8 b - - 1 1\nstatus ongoing\n".to_string(),
                "white has 0 kings",
            ),
            (format!("status ongoing\n{fen}\nmove a1a2\n"), "`move ...`"),
        ] {
            let error = parse_move_output(&state).unwrap_err().0;
            assert!(error.contains(problem), "{state:?}: {error}");
        }
    }
}
