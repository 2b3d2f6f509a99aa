//! The engine the binary uses: every answer comes from the compiled rule programs.

use std::num::NonZeroUsize;
use std::sync::{Mutex, OnceLock, PoisonError};

use super::{Engine, EngineError, SearchReport, Thought};
use crate::reply::{Malformed, parse_move_output};
use crate::runner::{self, MovePicker, Prepared, RulesInput, RunError};
use crate::variants::{Output, Search};
use regex_chess_chess::notation::fen::Fen;
use regex_chess_chess::notation::uci::UciMove;
use regex_chess_machine::exec::{self, Choice, Executor, ExecutorKind};

/// The name of the program that lists each legal move with the position after it: input
/// state `<FEN>\n`, output one line `<uci> <FEN after>\n` per legal move.
pub const CHILDREN: &str = "chess-children";

/// Reads the output of `chess-children`: each line a UCI move, a space and a valid FEN.
pub fn parse_children_output(state: &str) -> Result<Vec<(UciMove, Fen)>, Malformed> {
    if !state.is_empty() && !state.ends_with('\n') {
        return Err("the last line does not end in a newline".into());
    }
    state
        .lines()
        .map(|line| {
            let (mv, fen) = line
                .split_once(' ')
                .ok_or_else(|| Malformed(format!("expected `<uci> <FEN>`, found {line:?}")))?;
            let mv: UciMove = mv.parse().map_err(|e| Malformed(format!("{e}")))?;
            let fen: Fen = fen.parse().map_err(|e| Malformed(format!("{e}")))?;
            Ok((mv, fen))
        })
        .collect()
}

/// The name of the program that plays a given move: input state `<FEN>\n<uci>\n`,
/// output state `fen <FEN after the move>\n`, or `illegal\n` when the move is not legal
/// in that position.
pub const APPLY_MOVE: &str = "apply-move";

/// Reads the output of `apply-move`: `Some(fen)` for `fen <FEN>\n` (the FEN valid and in
/// normalised form), `None` for `illegal\n`.
pub fn parse_apply_output(state: &str) -> Result<Option<Fen>, Malformed> {
    if state == "illegal\n" {
        return Ok(None);
    }
    let text = state
        .strip_prefix("fen ")
        .and_then(|rest| rest.strip_suffix('\n'))
        .filter(|text| !text.contains('\n'))
        .ok_or_else(|| Malformed::from("expected `fen <FEN>\\n` or `illegal\\n`"))?;
    let fen: Fen = text.parse().map_err(|e| Malformed(format!("{e}")))?;
    if fen.to_string() != text {
        return Err(Malformed(format!(
            "the FEN {text:?} is not in normalised six-field form ({fen})"
        )));
    }
    Ok(Some(fen))
}

/// The `apply-move` program, ready to run.
pub struct ApplyMove {
    exec: Box<dyn Executor>,
}

impl ApplyMove {
    /// Loads the registered program and builds an executor of `kind` for it (the
    /// program cache's warnings are dropped).
    pub fn new(kind: ExecutorKind) -> Result<ApplyMove, RunError> {
        Ok(ApplyMove::with_executor(
            runner::prepare(APPLY_MOVE, kind)?.exec,
        ))
    }

    /// Uses an executor already built for the program.
    pub fn with_executor(exec: Box<dyn Executor>) -> ApplyMove {
        ApplyMove { exec }
    }

    /// The position after `mv` in `fen` as the rules play it, or `None` when the rules
    /// find it illegal.
    pub fn run(&self, fen: &Fen, mv: UciMove) -> Result<Option<Fen>, RunError> {
        let state = self.exec.run(&format!("{fen}\n{mv}\n"));
        parse_apply_output(&state).map_err(|e| RunError::output(APPLY_MOVE, state, e))
    }
}

/// A program compiled on first use, or why it could not be.
type Lazy<T> = OnceLock<Result<T, EngineError>>;

/// The rules-backed engine: `apply-move` for [`Engine::apply`], each variant's program
/// ([`Search::ALL`]) for [`Engine::think_with`], `chess-children` for
/// [`Engine::children`]. Each program is compiled the first time it is needed (every
/// variant's and `apply-move` on [`Engine::prepare`]); a program that is not
/// registered or does not validate is an [`EngineError`] on every call, never a panic.
pub struct RulesEngine {
    choice: Choice,
    /// Set in tests only: every program is loaded under this name instead (what a
    /// renamed or dropped program looks like).
    renamed: Option<&'static str>,
    apply: Lazy<ApplyMove>,
    pickers: Vec<Lazy<MovePicker>>,
    /// The variants' ranking programs ([`Output::Ranked`]), built on first use.
    ranked: Vec<Lazy<MovePicker>>,
    children: Lazy<Box<dyn Executor>>,
    /// The program cache's warnings while the programs were loaded, not yet taken.
    warnings: Mutex<Vec<String>>,
}

impl RulesEngine {
    /// An engine whose programs run on the executors `choice` (a kind, or a kind and its
    /// cores) builds.
    pub fn new(choice: impl Into<Choice>) -> RulesEngine {
        RulesEngine {
            choice: choice.into(),
            renamed: None,
            apply: OnceLock::new(),
            pickers: Search::ALL.into_iter().map(|_| OnceLock::new()).collect(),
            ranked: Search::ALL.into_iter().map(|_| OnceLock::new()).collect(),
            children: OnceLock::new(),
            warnings: Mutex::new(Vec::new()),
        }
    }

    /// The program cache's warnings while the programs loaded so far were loaded (a
    /// damaged entry, a directory that cannot be written), each once.
    pub fn take_warnings(&self) -> Vec<String> {
        std::mem::take(&mut self.warnings.lock().unwrap_or_else(PoisonError::into_inner))
    }

    /// Loads the registered program `name` (in tests, the renamed one) and builds an
    /// executor for it, keeping the cache's warnings.
    fn load_exec(&self, name: &str) -> Result<Box<dyn Executor>, RunError> {
        let Prepared { exec, warnings } =
            runner::prepare(self.renamed.unwrap_or(name), self.choice)?;
        self.warnings
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .extend(warnings);
        Ok(exec)
    }

    /// The executor kind.
    pub fn kind(&self) -> ExecutorKind {
        self.choice.kind
    }

    /// The cores the fast executor may use.
    pub fn cores(&self) -> NonZeroUsize {
        self.choice.cores
    }

    /// Builds the default variant's program only (all a match needs).
    pub fn prepare_move(&self) -> Result<(), EngineError> {
        self.picker(Search::default_play()).map(|_| ())
    }

    fn applier(&self) -> Result<&ApplyMove, EngineError> {
        self.apply
            .get_or_init(|| {
                self.load_exec(APPLY_MOVE)
                    .map(ApplyMove::with_executor)
                    .map_err(EngineError::from)
            })
            .as_ref()
            .map_err(Clone::clone)
    }

    fn picker(&self, variant: Search) -> Result<&MovePicker, EngineError> {
        self.picker_of(variant, Output::Move)
    }

    /// The picker running `variant`'s program for `output` (its move or ranking
    /// program).
    fn picker_of(&self, variant: Search, output: Output) -> Result<&MovePicker, EngineError> {
        let slots = match output {
            Output::Ranked => &self.ranked,
            _ => &self.pickers,
        };
        let name = variant.program(output);
        slots[variant as usize]
            .get_or_init(|| Ok(MovePicker::running(self.load_exec(name)?, name)))
            .as_ref()
            .map_err(Clone::clone)
    }

    /// Runs `variant`'s program for `output` on `fen` and the game's `input`, asking
    /// `stop` after every rule: `Ok(None)` when it cut the run.
    fn search(
        &self,
        fen: &Fen,
        input: &RulesInput,
        variant: Search,
        output: Output,
        stop: &dyn Fn() -> bool,
    ) -> Result<Option<Thought>, EngineError> {
        let picker = self.picker_of(variant, output)?;
        let state = runner::search_input_state(fen, input);
        let Some(state) = exec::run_unless(picker.executor(), &state, stop) else {
            return Ok(None);
        };
        let reply =
            parse_move_output(&state).map_err(|e| RunError::output(picker.program(), state, e))?;
        let report = SearchReport::of(&reply);
        Ok(Some(Thought { reply, report }))
    }
}

impl Engine for RulesEngine {
    fn prepare(&self) -> Result<(), EngineError> {
        let apply = self.applier().map(|_| ());
        // Every variant is built now, so that the time management never pays for a
        // program's compilation or cache read in the middle of a game.
        let picker = Search::ALL
            .into_iter()
            .try_for_each(|v| self.picker(v).map(|_| ()));
        match (apply, picker) {
            (Ok(()), Ok(())) => Ok(()),
            (Err(a), Err(b)) => Err(EngineError(format!("{a}; {b}"))),
            (Err(e), _) | (_, Err(e)) => Err(e),
        }
    }

    fn apply(&self, fen: &Fen, mv: UciMove) -> Result<Option<Fen>, EngineError> {
        Ok(self.applier()?.run(fen, mv)?)
    }

    fn think_with(&self, fen: &Fen, variant: Search) -> Result<Thought, EngineError> {
        self.think_given(fen, &RulesInput::default(), variant)
    }

    fn think_given(
        &self,
        fen: &Fen,
        input: &RulesInput,
        variant: Search,
    ) -> Result<Thought, EngineError> {
        let thought = self.search(fen, input, variant, Output::Move, &|| false)?;
        Ok(thought.expect("a run nothing stops ends"))
    }

    fn think_until(
        &self,
        fen: &Fen,
        input: &RulesInput,
        variant: Search,
        ranked: bool,
        stop: &dyn Fn() -> bool,
    ) -> Result<Option<Thought>, EngineError> {
        let output = if ranked { Output::Ranked } else { Output::Move };
        self.search(fen, input, variant, output, stop)
    }

    fn children(&self, fen: &Fen) -> Result<Vec<(UciMove, Fen)>, EngineError> {
        let exec = self
            .children
            .get_or_init(|| Ok(self.load_exec(CHILDREN)?))
            .as_ref()
            .map_err(Clone::clone)?;
        let state = exec.run(&runner::input_state(fen));
        parse_children_output(&state)
            .map_err(|e| EngineError::from(RunError::output(CHILDREN, state, e)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use regex_chess_machine::program::{Program, Rule};

    #[test]
    fn reads_the_apply_output() {
        assert_eq!(parse_apply_output("illegal\n"), Ok(None));
        let fen =
            parse_apply_output("fen rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1\n")
                .unwrap()
                .unwrap();
        assert_eq!(
            fen.to_string(),
            "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1"
        );
        for (state, problem) in [
            ("", "expected"),
            ("illegal", "expected"),
            ("fen 4k3/8/8/8/8/8/8/4K3 w - - 0 1", "expected"),
            ("fen 4k3/8/8/8/8/8/8/4K3 w - - 0 1\nillegal\n", "expected"),
            ("fen 4k3/8/8/8/8/8/8/4K3 w - -\n", "normalised"),
            ("fen 4k3/8/8/8/8/8/8/8 w - - 0 1\n", "white has 0 kings"),
        ] {
            let error = parse_apply_output(state).unwrap_err().0;
            assert!(error.contains(problem), "{state:?}: {error}");
        }
    }

    #[test]
    fn the_apply_input_state_is_the_fen_and_the_move() {
        // A stand-in program (not chess) that answers one exact input state.
        let program = Program::from_rules(vec![
            Rule::new(
                r"^4k3/8/8/8/8/8/8/4K3 w - - 0 1\ne1e2\n$",
                "fen 4k3/8/8/8/8/8/4K3/8 b - - 1 1\n",
            ),
            Rule::new(r"^4k3/8/8/8/8/8/8/4K3 w - - 0 1\ne1e3\n$", "illegal\n"),
        ])
        .validate()
        .unwrap();
        let apply = ApplyMove::with_executor(ExecutorKind::Fast.build(program));
        let fen: Fen = "4k3/8/8/8/8/8/8/4K3 w - - 0 1".parse().unwrap();
        let after = apply.run(&fen, "e1e2".parse().unwrap()).unwrap().unwrap();
        assert_eq!(after.to_string(), "4k3/8/8/8/8/8/4K3/8 b - - 1 1");
        assert_eq!(apply.run(&fen, "e1e3".parse().unwrap()).unwrap(), None);
        assert!(matches!(
            apply.run(&fen, "e1d1".parse().unwrap()),
            Err(RunError::Output { .. })
        ));
    }

    #[test]
    fn reads_the_children_output() {
        assert_eq!(parse_children_output(""), Ok(vec![]));
        let children = parse_children_output(
            "e1d1 4k3/8/8/8/8/8/8/3K4 b - - 1 1\ne1f1 4k3/8/8/8/8/8/8/5K2 b - - 1 1\n",
        )
        .unwrap();
        assert_eq!(children.len(), 2);
        assert_eq!(children[1].0.to_string(), "e1f1");
        for state in [
            "e1d1\n",
            "e1d1 8/8 w - - 0 1\n",
            "e1d1 4k3/8/8/8/8/8/8/3K4 b - - 1 1",
        ] {
            assert!(parse_children_output(state).is_err(), "{state:?}");
        }
    }

    #[test]
    fn a_missing_program_is_an_error_on_every_call() {
        // Names no program has: what a renamed or dropped program looks like.
        let engine = RulesEngine {
            renamed: Some("no-such-program"),
            ..RulesEngine::new(ExecutorKind::Fast)
        };
        let fen = Fen::start();
        assert!(engine.prepare().is_err());
        for _ in 0..2 {
            let error = match (
                engine.apply(&fen, "e2e4".parse().unwrap()),
                engine.think(&fen),
            ) {
                (Err(e), _) | (_, Err(e)) => e,
                _ => panic!("expected an error"),
            };
            assert!(error.0.contains("no-such-program"), "{error}");
        }
    }
}
