//! Running the chess programs: build the input state, run the rules, read the output.
//!
//! This is all the native code there is around a chess decision. [`LegalMoves`] and
//! [`MovePicker`] take a checked [`Fen`], write the input state the contract in
//! [`regex_chess_chess`] defines (the FEN and a newline, then the rules input), run the
//! compiled program with an executor, and read the output state ([`super::reply`]).
//! Nothing here generates a move or judges a position: a list of moves, a chosen move, a
//! FEN after it and a status all come out of the rules.
//!
//! An output state that does not follow the contract is an engine bug and is reported as
//! [`RunError::Output`] with the state, never as a panic.

use super::reply::{Malformed, Reply, parse_legal_output, parse_move_output};
use super::variants::{Output, Search};
use super::{LoadError, LoadOptions, load};
use regex_chess_chess::notation::fen::Fen;
use regex_chess_chess::notation::uci::UciMove;
use regex_chess_machine::exec::{Choice, Executor, ExecutorKind};

/// The name of the program that lists the legal moves of a FEN.
pub const LEGAL_MOVES: &str = "legal-moves";

/// The name of the program that chooses and plays the engine's move from a FEN.
pub const MOVE: &str = "move";

/// Why running a chess program gave no result.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum RunError {
    /// The program could not be loaded.
    #[error(transparent)]
    Load(#[from] LoadError),
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

impl RunError {
    /// The error of `program`'s output `state`, which `reading` found malformed.
    pub fn output(program: &'static str, state: String, reading: Malformed) -> RunError {
        RunError::Output {
            program,
            problem: reading.0,
            state,
        }
    }
}

/// A program loaded with the default options and an executor `choice` builds for it,
/// with the program cache's warnings.
pub fn prepare(program: &str, choice: impl Into<Choice>) -> Result<Prepared, RunError> {
    let loaded = load(program, &LoadOptions::default())?;
    Ok(Prepared {
        exec: choice.into().build(loaded.program),
        warnings: loaded.warnings,
    })
}

/// What [`prepare`] gives: an executor for a program, and the program cache's warnings
/// while it was loaded (see [`super::Loaded`]).
pub struct Prepared {
    /// The executor, holding the program.
    pub exec: Box<dyn Executor>,
    /// The cache's problems, one sentence each.
    pub warnings: Vec<String>,
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

/// The input state of `legal-moves` and `move`: the FEN (normalised) and a newline.
pub fn input_state(fen: &Fen) -> String {
    format!("{fen}\n")
}

/// What the search programs read after the FEN (see "Rules input" in
/// `crates/chess/src/lib.rs`): the game's earlier positions and a root-move restriction.
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

/// The `legal-moves` program, ready to run.
pub struct LegalMoves {
    exec: Box<dyn Executor>,
    warnings: Vec<String>,
}

impl LegalMoves {
    /// Loads the registered program and builds the executor `choice` (a kind, or a kind
    /// and its cores) for it.
    pub fn new(choice: impl Into<Choice>) -> Result<LegalMoves, RunError> {
        let Prepared { exec, warnings } = prepare(LEGAL_MOVES, choice)?;
        Ok(LegalMoves { exec, warnings })
    }

    /// Uses an executor already built for the program.
    pub fn with_executor(exec: Box<dyn Executor>) -> LegalMoves {
        LegalMoves {
            exec,
            warnings: Vec::new(),
        }
    }

    /// The program cache's warnings while the program was loaded.
    pub fn warnings(&self) -> &[String] {
        &self.warnings
    }

    /// The executor.
    pub fn executor(&self) -> &dyn Executor {
        self.exec.as_ref()
    }

    /// The legal moves the rules generate for `fen`, sorted by their text.
    pub fn run(&self, fen: &Fen) -> Result<Vec<UciMove>, RunError> {
        let state = self.exec.run(&input_state(fen));
        parse_legal_output(&state).map_err(|e| RunError::output(LEGAL_MOVES, state, e))
    }
}

/// The `move` program, or another program with its contract (a [`Search`] variant's move
/// or ranking program), ready to run.
pub struct MovePicker {
    exec: Box<dyn Executor>,
    program: &'static str,
    warnings: Vec<String>,
}

impl MovePicker {
    /// Loads the benchmark `move` program and builds an executor of `kind` for it.
    pub fn new(kind: ExecutorKind) -> Result<MovePicker, RunError> {
        MovePicker::named(MOVE, kind)
    }

    /// Loads `search`'s program for `output` ([`Output::Move`] or [`Output::Ranked`],
    /// which keep the `move` contract) and builds the executor `choice` (a kind, or a
    /// kind and its cores) for it.
    pub fn of(
        search: Search,
        output: Output,
        choice: impl Into<Choice>,
    ) -> Result<MovePicker, RunError> {
        MovePicker::named(search.program(output), choice)
    }

    /// Loads the registered program `program`, which keeps the `move` contract, and
    /// builds the executor `choice` for it.
    pub fn named(program: &'static str, choice: impl Into<Choice>) -> Result<MovePicker, RunError> {
        let Prepared { exec, warnings } = prepare(program, choice)?;
        Ok(MovePicker {
            exec,
            program,
            warnings,
        })
    }

    /// Uses an executor already built for the `move` program.
    pub fn with_executor(exec: Box<dyn Executor>) -> MovePicker {
        MovePicker::running(exec, MOVE)
    }

    /// Uses an executor already built for the registered program `program`, which keeps
    /// the `move` contract.
    pub fn running(exec: Box<dyn Executor>, program: &'static str) -> MovePicker {
        MovePicker {
            exec,
            program,
            warnings: Vec::new(),
        }
    }

    /// The program cache's warnings while the program was loaded.
    pub fn warnings(&self) -> &[String] {
        &self.warnings
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
        parse_move_output(&state).map_err(|e| RunError::output(self.program, state, e))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use regex_chess_machine::program::{Program, Rule};

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
