//! The compiled chess programs, built once per test binary on the fast executor.
//!
//! A test that needs a program fails when the program is not registered (a renamed or
//! dropped program must not pass as a skip), and when it does not validate. The
//! accessors keep their `Option` results for their callers, but never return `None`.
//! Tests that need an outside tool (Stockfish, python-chess, Node) call
//! [`require_tool`] when it is missing: it fails under `REGEX_CHESS_REQUIRE_ENGINES`
//! (which CI sets), else says the test checked nothing.

use std::sync::OnceLock;

use regex_chess_engine::runner::{LegalMoves, MovePicker, RunError};
use regex_chess_engine::{LoadError, registry};
use regex_chess_machine::exec::ExecutorKind;

fn built<T>(result: Result<T, RunError>) -> Option<T> {
    match result {
        Ok(program) => Some(program),
        Err(e @ RunError::Load(LoadError::Unknown { .. })) => {
            panic!("{e}: the chess tests need every chess program registered")
        }
        Err(e) => panic!("{e}"),
    }
}

/// The `legal-moves` program on the fast executor; fails when it is not registered.
pub fn legal_moves() -> Option<&'static LegalMoves> {
    static CELL: OnceLock<Option<LegalMoves>> = OnceLock::new();
    CELL.get_or_init(|| built(LegalMoves::new(ExecutorKind::Fast)))
        .as_ref()
}

/// The `move` program on the fast executor; fails when it is not registered.
pub fn move_picker() -> Option<&'static MovePicker> {
    static CELL: OnceLock<Option<MovePicker>> = OnceLock::new();
    CELL.get_or_init(|| built(MovePicker::new(ExecutorKind::Fast)))
        .as_ref()
}

/// The `legal-moves` program on an executor of `kind`, built afresh; fails when it is
/// not registered.
pub fn legal_moves_on(kind: ExecutorKind) -> Option<LegalMoves> {
    built(LegalMoves::new(kind))
}

/// Fails `test` because `program` is missing (the name is kept from when such tests
/// skipped; a missing program is a failure now).
pub fn skip(test: &str, program: &str) {
    panic!(
        "{test}: the `{program}` rules program is not registered in this build \
         (regex_chess_engine::registry::find returned None)"
    );
}

/// Called by a test whose outside `tool` is missing: fails when the environment sets
/// `REGEX_CHESS_REQUIRE_ENGINES` (CI does), else says on standard error that `test`
/// checked nothing.
pub fn require_tool(test: &str, tool: &str) {
    assert!(
        std::env::var_os("REGEX_CHESS_REQUIRE_ENGINES").is_none(),
        "{test}: {tool} is required (REGEX_CHESS_REQUIRE_ENGINES is set) but missing"
    );
    eprintln!("SKIPPED {test}: {tool} is missing; nothing was checked");
}

/// True when `program` is registered.
pub fn registered(program: &str) -> bool {
    registry::find(program).is_some()
}
