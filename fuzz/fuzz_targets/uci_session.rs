//! Fuzz target: a UCI session on random command lines (`crates/testkit/src/random_input/uci.rs`
//! draws them from the input: GUI commands, garbage, `%`, invalid UTF-8, long lines),
//! with the rules as its engine (`RulesEngine`, as `regex-chess uci` runs it). The
//! session must never panic, must answer every `isready` with `readyok`, and every
//! `bestmove` must be legal in the position of its `go` as shakmaty tracks it (see the
//! judge there). The engines are shared between inputs (one per executor and number of
//! cores), so that an input pays for its searches, not for loading the programs.

#![no_main]

use std::collections::HashMap;
use std::sync::{Arc, Mutex, OnceLock};

use libfuzzer_sys::fuzz_target;
use regex_chess_chess::notation::fen::Fen;
use regex_chess_chess::notation::uci::UciMove;
use regex_chess_engine::Search;
use regex_chess_engine::runner::RulesInput;
use regex_chess_engine::uci::{Engine, EngineError, RulesEngine, Session, Thought};
use regex_chess_machine::exec::Choice;

use regex_chess_testkit::random_input;

/// The most lines of one input.
const MAX_LINES: usize = 40;

/// A rules engine shared by every session of the process.
struct Shared(Arc<RulesEngine>);

impl Engine for Shared {
    fn prepare(&self) -> Result<(), EngineError> {
        self.0.prepare()
    }
    fn apply(&self, fen: &Fen, mv: UciMove) -> Result<Option<Fen>, EngineError> {
        self.0.apply(fen, mv)
    }
    fn think_with(&self, fen: &Fen, variant: Search) -> Result<Thought, EngineError> {
        self.0.think_with(fen, variant)
    }
    fn think_given(
        &self,
        fen: &Fen,
        input: &RulesInput,
        variant: Search,
    ) -> Result<Thought, EngineError> {
        self.0.think_given(fen, input, variant)
    }
    fn think_until(
        &self,
        fen: &Fen,
        input: &RulesInput,
        variant: Search,
        ranked: bool,
        stop: &dyn Fn() -> bool,
    ) -> Result<Option<Thought>, EngineError> {
        self.0.think_until(fen, input, variant, ranked, stop)
    }
    fn children(&self, fen: &Fen) -> Result<Vec<(UciMove, Fen)>, EngineError> {
        self.0.children(fen)
    }
}

/// The engine of `choice`, built once.
fn engine(choice: Choice) -> Box<dyn Engine> {
    static ENGINES: OnceLock<Mutex<HashMap<String, Arc<RulesEngine>>>> = OnceLock::new();
    let engines = ENGINES.get_or_init(Default::default);
    let mut engines = engines.lock().unwrap_or_else(|e| e.into_inner());
    let key = format!("{:?}", choice);
    let shared = engines
        .entry(key)
        .or_insert_with(|| Arc::new(RulesEngine::new(choice)))
        .clone();
    Box::new(Shared(shared))
}

fuzz_target!(|data: &[u8]| {
    let mut bytes = random_input::Bytes::new(data);
    let mut session = Session::new(engine);
    let mut judge = random_input::uci::Judge::new();
    let fail = |judge: &random_input::uci::Judge, e: String| -> ! {
        panic!("{e}\nafter: {}", judge.recent())
    };
    for _ in 0..MAX_LINES {
        if bytes.is_empty() || session.is_done() {
            break;
        }
        let line = random_input::uci::line(&mut bytes, judge.position());
        judge.sent(&line);
        let out = session.handle(&String::from_utf8_lossy(&line));
        for printed in &out {
            if let Err(e) = judge.received(printed) {
                fail(&judge, e);
            }
        }
        if let Err(e) = judge.line_done(&out) {
            fail(&judge, e);
        }
    }
    for printed in session.finish() {
        if let Err(e) = judge.received(&printed) {
            fail(&judge, e);
        }
    }
    if let Err(e) = judge.finish() {
        fail(&judge, e);
    }
});
