//! Panics turned into answers: a bug anywhere in a command's path ends that command with
//! an `info string error: ...` line, never the session.
//!
//! Contract: [`catch`] runs a body and returns its value, or the panic's message as a
//! [`Panicked`]. The session guards two levels with it: each engine call (so that `go`
//! knows its search failed and answers `bestmove (none)`), and each whole command (so
//! that parsing, `position`, `setoption`, `stop`, `quit`... cannot end the process). The
//! engine stays usable after a panic: the executors keep nothing half-done between runs,
//! and the session's own state is replaced whole, never left half-changed.
//!
//! [`plant`] marks the points of each command's path where the tests plant a panic. It
//! is a no-op outside this crate's unit tests (`cfg(test)`): a release build has no hook
//! and reads nothing from the environment. The default panic hook still prints the
//! panic on standard error, which a GUI shows in its engine log.

use std::any::Any;
use std::panic::{self, AssertUnwindSafe};

/// A panic caught by [`catch`]: its message.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct Panicked(pub String);

/// Runs `body`; a panic in it becomes its message.
pub fn catch<T>(body: impl FnOnce() -> T) -> Result<T, Panicked> {
    panic::catch_unwind(AssertUnwindSafe(body))
        .map_err(|payload| Panicked(panic_message(payload.as_ref()).to_string()))
}

/// The message of a panic's payload (a `String` or a `&str`, as `panic!` makes them).
fn panic_message(payload: &(dyn Any + Send)) -> &str {
    payload
        .downcast_ref::<String>()
        .map(String::as_str)
        .or_else(|| payload.downcast_ref::<&str>().copied())
        .unwrap_or("(a payload that is not text)")
}

/// The points of the session where tests plant a panic.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Point {
    /// Reading the line into a command.
    Parse,
    /// The `uci` answer.
    Uci,
    /// `isready`.
    IsReady,
    /// `ucinewgame`.
    NewGame,
    /// `setoption`.
    SetOption,
    /// `position`, while its moves are applied.
    Position,
    /// `go`, before its search.
    Go,
    /// A running search asking whether to stop (a `stop` or `quit` arriving mid-search).
    Cut,
    /// `bench`.
    Bench,
    /// `stop` and `ponderhit`.
    Stop,
    /// `quit`.
    Quit,
}

#[cfg(test)]
thread_local! {
    static PLANTED: std::cell::Cell<Option<Point>> = const { std::cell::Cell::new(None) };
}

/// Plants a panic at `point` for the calling thread's next passes there (`None` clears).
#[cfg(test)]
pub fn set_planted(point: Option<Point>) {
    PLANTED.with(|p| p.set(point));
}

/// Panics when a test planted a panic at `point`; nothing in any other build.
#[cfg(test)]
pub fn plant(point: Point) {
    if PLANTED.with(|p| p.get()) == Some(point) {
        panic!("planted at {point:?}");
    }
}

/// Panics when a test planted a panic at `point`; nothing in any other build.
#[cfg(not(test))]
#[inline(always)]
pub fn plant(_point: Point) {}
