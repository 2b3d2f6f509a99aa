//! Running the chess programs: build the input state, run the rules, read the output.
//!
//! This is all the native code there is around a chess decision. [`LegalMoves`] and
//! [`MovePicker`] take a checked [`Fen`], write the input state the contract in
//! [`crate::chess`] defines (the FEN and a newline), run the compiled program with an
//! executor, and parse the output state into typed values. Nothing here generates a move
//! or judges a position: a list of moves, a chosen move, a FEN after it and a status all
//! come out of the rules.
//!
//! An output state that does not follow the contract is an engine bug and is reported as
//! [`RunError::Output`] with the state, never as a panic.

use std::fmt;
use std::str::FromStr;

use super::fen::Fen;
use super::uci::UciMove;
use crate::exec::{Choice, Executor, ExecutorKind};
use crate::program::{Program, ValidProgram};

/// The name of the program that lists the legal moves of a FEN.
pub const LEGAL_MOVES: &str = "legal-moves";
/// The name of the program that chooses and plays the engine's move from a FEN.
pub const MOVE: &str = "move";

/// Compiles the registered program `name` with the default options; `None` when no
/// program of that name is registered.
pub fn compile(name: &str) -> Option<Program> {
    let entry = crate::programs::find(name)?;
    let options = crate::compiler::CompileOptions::default();
    Some(crate::compiler::compile((entry.build)(), &options).program)
}

/// Compiles and validates the registered program `name`.
pub fn compile_valid(name: &str) -> Result<ValidProgram, RunError> {
    let program = compile(name).ok_or_else(|| RunError::NotRegistered(name.to_string()))?;
    program.validate().map_err(|e| RunError::Invalid {
        name: name.to_string(),
        message: e.to_string(),
    })
}

/// The registered program `name`, compiled and validated: read from the program cache
/// when it holds this build's copy ([`crate::programs::cache`]), else compiled by
/// [`compile_valid`] and stored there. Cache problems are warnings on standard error,
/// never errors: the program is compiled instead.
pub fn load(name: &str) -> Result<ValidProgram, RunError> {
    let Some(cache) = crate::programs::cache::ProgramCache::from_env() else {
        return compile_valid(name);
    };
    let options = crate::compiler::CompileOptions::default();
    let loaded = cache.load_or_compile(name, &options, || compile_valid(name));
    for warning in &loaded.warnings {
        eprintln!("regex-chess: warning: {warning}");
    }
    loaded.program
}

/// Why running a chess program gave no result.
#[derive(Debug, thiserror::Error)]
pub enum RunError {
    /// No program of that name is registered.
    #[error(
        "the `{0}` program is not registered in this build (the chess rules have not landed yet)"
    )]
    NotRegistered(String),
    /// The compiled program has a rule the `regex` crate refuses.
    #[error("the `{name}` program does not validate: {message}")]
    Invalid {
        /// The program.
        name: String,
        /// The validation error.
        message: String,
    },
    /// The program's output state breaks its contract: an engine bug. The message shows
    /// the state's first [`SHOWN`] bytes.
    #[error(
        "engine bug: the `{program}` program wrote a malformed output state ({problem}): {}",
        excerpt(state)
    )]
    Output {
        /// The program.
        program: &'static str,
        /// What is wrong.
        problem: String,
        /// The whole output state.
        state: String,
    },
}

/// How much of a malformed output state an error message shows, in bytes.
pub const SHOWN: usize = 600;

/// The state quoted, cut after about [`SHOWN`] bytes (at a character boundary).
fn excerpt(state: &str) -> String {
    if state.len() <= SHOWN {
        return format!("{state:?}");
    }
    let cut = (0..=SHOWN)
        .rev()
        .find(|&i| state.is_char_boundary(i))
        .unwrap_or(0);
    format!("{:?}... ({} bytes in all)", &state[..cut], state.len())
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

impl fmt::Display for Status {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl FromStr for Status {
    type Err = String;
    fn from_str(s: &str) -> Result<Status, String> {
        [
            Status::Ongoing,
            Status::Checkmate,
            Status::Stalemate,
            Status::FiftyMove,
            Status::InsufficientMaterial,
        ]
        .into_iter()
        .find(|status| status.as_str() == s)
        .ok_or_else(|| format!("unknown status `{s}`"))
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

impl fmt::Display for Score {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Score::Cp(cp) => write!(f, "cp {cp}"),
            Score::Mate(n) => write!(f, "mate {n}"),
        }
    }
}

impl FromStr for Score {
    type Err = String;
    fn from_str(s: &str) -> Result<Score, String> {
        let number = |text: &str| {
            text.parse::<i32>()
                .map_err(|_| format!("the score `{s}` has no integer"))
        };
        match s.split_once(' ') {
            Some(("cp", n)) => Ok(Score::Cp(number(n)?)),
            Some(("mate", n)) if number(n)? != 0 => Ok(Score::Mate(number(n)?)),
            _ => Err(format!("the score `{s}` is not `cp <int>` or `mate <int>`")),
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

/// A root move in the rules' ranking: its score and its principal variation (the move,
/// then the reply the score assumes, if any).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RankedMove {
    /// The move's score, as the `score` line writes it.
    pub score: Score,
    /// The move, then the expected reply.
    pub pv: Vec<UciMove>,
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

/// The input state of `legal-moves` and `move`: the FEN (normalised) and a newline.
pub fn input_state(fen: &Fen) -> String {
    format!("{fen}\n")
}

/// What the search programs read after the FEN (see "Rules input" in
/// `src/chess/mod.rs`): the game's earlier positions and a root-move restriction.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct RulesInput {
    /// The positions before the one searched, oldest first (as the rules computed them).
    pub history: Vec<Fen>,
    /// The moves the search may choose among; empty: every legal move.
    pub searchmoves: Vec<UciMove>,
}

/// The most `history` lines a search program's input holds (the fifty-move rule's
/// window).
pub const MAX_HISTORY: usize = 100;

/// The input state of a search program: the FEN, a `history` line (the first four FEN
/// fields) for each of the last `fen`'s half-move clock positions of `input.history`
/// (at most [`MAX_HISTORY`]), most recent first, and a `searchmoves` line when
/// `input.searchmoves` is not empty.
pub fn search_input_state(fen: &Fen, input: &RulesInput) -> String {
    let mut state = input_state(fen);
    let keep = (fen.halfmoves() as usize).min(MAX_HISTORY);
    for earlier in input.history.iter().rev().take(keep) {
        let text = earlier.to_string();
        let fields: Vec<&str> = text.split(' ').take(4).collect();
        state.push_str(&format!("history {}\n", fields.join(" ")));
    }
    if !input.searchmoves.is_empty() {
        let moves: Vec<String> = input.searchmoves.iter().map(|m| m.to_string()).collect();
        state.push_str(&format!("searchmoves {}\n", moves.join(" ")));
    }
    state
}

/// Splits a state into its lines, which must each end in `\n`.
fn lines(state: &str) -> Result<Vec<&str>, String> {
    let body = state
        .strip_suffix('\n')
        .ok_or_else(|| "the last line does not end in a newline".to_string())?;
    Ok(body.split('\n').collect())
}

/// Reads the output of `legal-moves`: one UCI move a line, each ending in `\n`, in any
/// order, none repeated. Returns them sorted by their text.
pub fn parse_legal_output(state: &str) -> Result<Vec<UciMove>, String> {
    if state.is_empty() {
        return Ok(Vec::new());
    }
    let mut moves = lines(state)?
        .into_iter()
        .map(|line| line.parse::<UciMove>().map_err(|e| e.to_string()))
        .collect::<Result<Vec<_>, _>>()?;
    moves.sort();
    if let Some(pair) = moves.windows(2).find(|pair| pair[0] == pair[1]) {
        return Err(format!("the move {} is listed twice", pair[0]));
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
pub fn parse_move_output(state: &str) -> Result<Reply, String> {
    let lines = lines(state)?;
    let field = |line: &str, key: &str| -> Result<String, String> {
        line.strip_prefix(key)
            .and_then(|rest| rest.strip_prefix(' '))
            .map(str::to_string)
            .ok_or_else(|| format!("expected a line `{key} ...`, found {line:?}"))
    };
    match lines.as_slice() {
        [status] => match field(status, "status")?.parse::<Status>()? {
            status @ (Status::Checkmate | Status::Stalemate) => Ok(Reply::NoMove(status)),
            other => Err(format!("no move, but the status is `{other}`")),
        },
        [mv, fen, status, report @ ..] => {
            let mv: UciMove = field(mv, "move")?.parse().map_err(|e| format!("{e}"))?;
            let fen_text = field(fen, "fen")?;
            let fen_after: Fen = fen_text.parse().map_err(|e| format!("{e}"))?;
            if fen_after.to_string() != fen_text {
                return Err(format!(
                    "the FEN {fen_text:?} is not in normalised six-field form ({fen_after})"
                ));
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
        other => Err(format!(
            "expected 1 or at least 3 lines, found {}",
            other.len()
        )),
    }
}

/// Reads the ranking's line of rank `rank`: `multipv <rank> score <score> pv <uci> ...`.
fn read_ranked(line: &str, rank: usize) -> Result<RankedMove, String> {
    let bad = || format!("expected `multipv {rank} score <score> pv <moves>`, found {line:?}");
    let rest = line
        .strip_prefix(&format!("multipv {rank} score "))
        .ok_or_else(bad)?;
    let (score, pv) = rest.split_once(" pv ").ok_or_else(bad)?;
    let pv = pv
        .split(' ')
        .map(|m| {
            m.parse::<UciMove>()
                .map_err(|e| format!("multipv {rank}: {e}"))
        })
        .collect::<Result<Vec<_>, _>>()?;
    Ok(RankedMove {
        score: score.parse()?,
        pv,
    })
}

/// Reads the search's lines after `status` into `reply`.
fn read_report(reply: &mut MoveReply, lines: &[&str]) -> Result<(), String> {
    const KEYS: [&str; 4] = ["score", "depth", "nodes", "pv"];
    let mut next = 0;
    for line in lines {
        let (key, value) = line
            .split_once(' ')
            .ok_or_else(|| format!("expected a line `<key> <value>`, found {line:?}"))?;
        let at = KEYS[next..]
            .iter()
            .position(|k| *k == key)
            .ok_or_else(|| format!("unexpected line {line:?} (keys: {KEYS:?}, in order)"))?;
        next += at + 1;
        let int = |what: &str| {
            value
                .parse::<u64>()
                .map_err(|_| format!("the {what} `{value}` is not a non-negative integer"))
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
                    .map(|m| m.parse::<UciMove>().map_err(|e| format!("pv: {e}")))
                    .collect::<Result<_, _>>()?;
                if reply.pv.first() != Some(&reply.mv) {
                    return Err(format!(
                        "the pv `{value}` does not start with the move {}",
                        reply.mv
                    ));
                }
            }
        }
    }
    Ok(())
}

/// The `legal-moves` program, ready to run.
pub struct LegalMoves {
    exec: Box<dyn Executor>,
}

impl LegalMoves {
    /// Compiles the registered program and builds an executor of `kind` for it.
    pub fn new(kind: ExecutorKind) -> Result<LegalMoves, RunError> {
        Ok(LegalMoves::with_executor(kind.build(load(LEGAL_MOVES)?)))
    }

    /// Uses an executor already built for the program.
    pub fn with_executor(exec: Box<dyn Executor>) -> LegalMoves {
        LegalMoves { exec }
    }

    /// The executor.
    pub fn executor(&self) -> &dyn Executor {
        self.exec.as_ref()
    }

    /// The legal moves the rules generate for `fen`, sorted by their text.
    pub fn run(&self, fen: &Fen) -> Result<Vec<UciMove>, RunError> {
        let state = self.exec.run(&input_state(fen));
        parse_legal_output(&state).map_err(|problem| RunError::Output {
            program: LEGAL_MOVES,
            problem,
            state,
        })
    }
}

/// The `move` program, or a variant with its contract (see
/// [`crate::chess::variants`]), ready to run.
pub struct MovePicker {
    exec: Box<dyn Executor>,
    program: &'static str,
}

impl MovePicker {
    /// Compiles the registered `move` program and builds an executor of `kind` for it.
    pub fn new(kind: ExecutorKind) -> Result<MovePicker, RunError> {
        MovePicker::named(MOVE, kind)
    }

    /// Compiles the registered program `program`, which keeps the `move` contract, and
    /// builds the executor `choice` (a kind, or a kind and its cores) for it.
    pub fn named(program: &'static str, choice: impl Into<Choice>) -> Result<MovePicker, RunError> {
        Ok(MovePicker {
            exec: choice.into().build(load(program)?),
            program,
        })
    }

    /// Uses an executor already built for the program.
    pub fn with_executor(exec: Box<dyn Executor>) -> MovePicker {
        MovePicker {
            exec,
            program: MOVE,
        }
    }

    /// The executor.
    pub fn executor(&self) -> &dyn Executor {
        self.exec.as_ref()
    }

    /// The program's name.
    pub fn program(&self) -> &'static str {
        self.program
    }

    /// The engine's reply to `fen`.
    pub fn run(&self, fen: &Fen) -> Result<Reply, RunError> {
        self.run_with(fen, &RulesInput::default())
    }

    /// The engine's reply to `fen` in a game whose earlier positions and root-move
    /// restriction `input` gives.
    pub fn run_with(&self, fen: &Fen, input: &RulesInput) -> Result<Reply, RunError> {
        let state = self.exec.run(&search_input_state(fen, input));
        parse_move_output(&state).map_err(|problem| RunError::Output {
            program: self.program,
            problem,
            state,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::program::Rule;

    fn texts(moves: &[UciMove]) -> Vec<String> {
        moves.iter().map(|m| m.to_string()).collect()
    }

    #[test]
    fn input_state_is_the_normalised_fen_and_a_newline() {
        let fen: Fen = "4k3/8/8/8/8/8/8/4K3 w - -".parse().unwrap();
        assert_eq!(input_state(&fen), "4k3/8/8/8/8/8/8/4K3 w - - 0 1\n");
    }

    #[test]
    fn the_search_input_holds_the_clock_s_window_most_recent_first() {
        let fens: Vec<Fen> = [
            "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1",
            "4k3/8/8/8/4P3/8/8/4K3 b - e3 0 1",
            "3k4/8/8/8/4P3/8/8/4K3 w - - 1 2",
        ]
        .iter()
        .map(|f| f.parse().unwrap())
        .collect();
        let root: Fen = "3k4/8/8/8/4P3/8/8/3K4 b - - 2 2".parse().unwrap();
        let input = RulesInput {
            history: fens,
            searchmoves: vec!["d8e8".parse().unwrap(), "d8c7".parse().unwrap()],
        };
        // The clock is 2: the position before the pawn move is left out.
        assert_eq!(
            search_input_state(&root, &input),
            "3k4/8/8/8/4P3/8/8/3K4 b - - 2 2\n\
             history 3k4/8/8/8/4P3/8/8/4K3 w - -\n\
             history 4k3/8/8/8/4P3/8/8/4K3 b - e3\n\
             searchmoves d8e8 d8c7\n"
        );
        assert_eq!(
            search_input_state(&root, &RulesInput::default()),
            input_state(&root)
        );
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
            let error = parse_legal_output(state).unwrap_err();
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
            let error = parse_move_output(&format!("{head}{report}")).unwrap_err();
            assert!(error.contains(problem), "{report:?}: {error}");
        }
        let long = format!("{head}score cp 1\ndepth 2\nnodes 3\npv e2e4\npv e2e4\n");
        assert!(
            parse_move_output(&long)
                .unwrap_err()
                .contains("unexpected line")
        );
        for (ranking, problem) in [
            ("multipv 2 score cp 1 pv e2e4\n", "expected `multipv 1"),
            ("multipv 1 score cp 1\n", "expected `multipv 1"),
            ("multipv 1 score cp x pv e2e4\n", "no integer"),
            ("multipv 1 score cp 1 pv e2e9\n", "e2e9"),
            ("multipv 1 score cp 1 pv e2e4\nscore cp 1\n", "`multipv 2"),
        ] {
            let error = parse_move_output(&format!("{head}pv e2e4\n{ranking}")).unwrap_err();
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
            let error = parse_move_output(&state).unwrap_err();
            assert!(error.contains(problem), "{state:?}: {error}");
        }
    }

    #[test]
    fn a_program_breaking_the_contract_is_an_error_not_a_panic() {
        // A stand-in program that answers every FEN with a board instead of moves.
        let program = Program::from_rules(vec![Rule::new(r"^.*\n", "not a move\n")])
            .validate()
            .unwrap();
        let fen = Fen::start();
        let legal = LegalMoves::with_executor(ExecutorKind::Reference.build(program.clone()));
        match legal.run(&fen) {
            Err(RunError::Output { program, state, .. }) => {
                assert_eq!((program, state.as_str()), (LEGAL_MOVES, "not a move\n"));
            }
            other => panic!("expected an output error, got {other:?}"),
        }
        let picker = MovePicker::with_executor(ExecutorKind::Fast.build(program));
        assert!(matches!(picker.run(&fen), Err(RunError::Output { .. })));
    }

    #[test]
    fn a_long_malformed_state_is_cut_in_the_message() {
        let error = RunError::Output {
            program: MOVE,
            problem: "expected 1 or 3 lines, found 5000".to_string(),
            state: "%%\n".repeat(5000),
        };
        let message = error.to_string();
        assert!(message.len() < SHOWN * 2, "{} bytes", message.len());
        assert!(message.ends_with("... (15000 bytes in all)"), "{message}");
        assert!(message.contains("found 5000"));
        let short = RunError::Output {
            program: MOVE,
            problem: "p".to_string(),
            state: "ok\n".to_string(),
        };
        assert!(short.to_string().ends_with(r#"(p): "ok\n""#));
    }

    #[test]
    fn a_program_keeping_the_contract_is_read() {
        // A stand-in program (not chess: it answers the same whatever the FEN) that shows
        // the input state reaches the rules and the output state is read.
        let program = Program::from_rules(vec![Rule::new(
            r"^rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1\n$",
            "g1f3\nb1c3\n",
        )])
        .validate()
        .unwrap();
        let legal = LegalMoves::with_executor(ExecutorKind::Fast.build(program));
        assert_eq!(texts(&legal.run(&Fen::start()).unwrap()), ["b1c3", "g1f3"]);
        let other: Fen = "4k3/8/8/8/8/8/8/4K3 w - - 0 1".parse().unwrap();
        assert!(matches!(legal.run(&other), Err(RunError::Output { .. })));
    }
}
