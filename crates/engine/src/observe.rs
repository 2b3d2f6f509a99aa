//! Who is told when [`super::load()`] compiles a program: the first start of a command
//! compiles its programs for seconds before they are cached, and the command line shows
//! that as progress. The library prints nothing; it calls the observer set here.
//!
//! The observer is one for the process ([`observe_compiles`], set once, by the binary at
//! start-up): programs are loaded deep inside the engine, the UCI session and the match
//! tool, and threading a callback through every one of them would put a display concern
//! in every signature. Without an observer nothing is called.

use std::sync::OnceLock;
use std::time::Duration;

/// A step of compiling a program that the cache did not hold.
#[derive(Clone, Copy, Debug)]
pub enum CompileEvent<'a> {
    /// The program `name` starts compiling; `cached` says whether the result will be
    /// stored in the program cache (a first start) or not (the cache is off).
    Started {
        /// The program.
        name: &'a str,
        /// Whether later starts will read it from the cache.
        cached: bool,
    },
    /// The program `name` is compiled and validated (or failed to be).
    Finished {
        /// The program.
        name: &'a str,
        /// How long it took.
        elapsed: Duration,
    },
}

/// The process's observer of compilations.
type Observer = Box<dyn Fn(CompileEvent<'_>) + Send + Sync>;

static OBSERVER: OnceLock<Observer> = OnceLock::new();

/// Sets the process's observer of compilations; false (and `observer` dropped) when one
/// is set already.
pub fn observe_compiles(observer: impl Fn(CompileEvent<'_>) + Send + Sync + 'static) -> bool {
    OBSERVER.set(Box::new(observer)).is_ok()
}

/// Tells the observer, if there is one.
pub(crate) fn notify(event: CompileEvent<'_>) {
    if let Some(observer) = OBSERVER.get() {
        observer(event);
    }
}
