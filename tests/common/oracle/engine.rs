//! The compiled chess programs, built once per test binary on the fast executor.
//!
//! Until the chess rules are registered (`regex_chess::chess::runner::compile` returns
//! `None`), the accessors return `None` and the tests that need them print a clear
//! `SKIPPED` line and check nothing. A program that is registered but does not validate
//! fails the test.

use std::sync::OnceLock;

use regex_chess::chess::runner::{self, LegalMoves, MovePicker, RunError};
use regex_chess::exec::ExecutorKind;

fn built<T>(result: Result<T, RunError>) -> Option<T> {
    match result {
        Ok(program) => Some(program),
        Err(RunError::NotRegistered(_)) => None,
        Err(e) => panic!("{e}"),
    }
}

/// The `legal-moves` program on the fast executor, or `None` when it is not registered.
pub fn legal_moves() -> Option<&'static LegalMoves> {
    static CELL: OnceLock<Option<LegalMoves>> = OnceLock::new();
    CELL.get_or_init(|| built(LegalMoves::new(ExecutorKind::Fast)))
        .as_ref()
}

/// The `move` program on the fast executor, or `None` when it is not registered.
pub fn move_picker() -> Option<&'static MovePicker> {
    static CELL: OnceLock<Option<MovePicker>> = OnceLock::new();
    CELL.get_or_init(|| built(MovePicker::new(ExecutorKind::Fast)))
        .as_ref()
}

/// The `legal-moves` program on an executor of `kind`, built afresh, or `None` when it
/// is not registered.
pub fn legal_moves_on(kind: ExecutorKind) -> Option<LegalMoves> {
    built(LegalMoves::new(kind))
}

/// Says on standard error that `test` checked nothing because `program` is missing.
pub fn skip(test: &str, program: &str) {
    eprintln!(
        "SKIPPED {test}: the `{program}` rules program is not registered in this build \
         (regex_chess::chess::runner::compile returned None); nothing was checked"
    );
}

/// True when `program` is registered.
pub fn registered(program: &str) -> bool {
    runner::compile(program).is_some()
}
