//! Progress of long work, on standard error: what a command is doing and how far along it
//! is. The library reports (callbacks, values); this module draws.
//!
//! Three modes, chosen once at start-up ([`init`]):
//!
//! - **live**: standard input and standard error are terminals (a person is watching):
//!   lines redrawn in place by `indicatif`, all through one [`MultiProgress`] so that
//!   several (a compilation under a command's own bar) share the screen;
//! - **plain**: anything else (CI, a pipe, a GUI that started the engine): a plain line
//!   every few steps, never an escape code;
//! - **off**: `--quiet`.
//!
//! [`Steps`] is a task of counted steps, [`Delayed`] something that shows only if it
//! lasts (a first start's compilation, over about a second); [`observe_compiles`]
//! turns the library's compilation events into [`Delayed`]s.

use std::borrow::Cow;
use std::collections::HashMap;
use std::io::IsTerminal;
use std::sync::{Arc, Condvar, Mutex, OnceLock};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use indicatif::{MultiProgress, ProgressBar, ProgressStyle};
use regex_chess_engine::observe::CompileEvent;

/// How progress is shown.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    /// Redrawn in place on a terminal.
    Live,
    /// A plain line every few steps.
    Plain,
    /// Not at all.
    Off,
}

static MODE: OnceLock<Mode> = OnceLock::new();

/// How long something runs before [`Delayed`] shows it.
pub const DELAY: Duration = Duration::from_secs(1);

/// Chooses the mode for the process: off with `quiet`, live when standard input and
/// standard error are terminals (and `TERM` is not `dumb`), plain otherwise.
pub fn init(quiet: bool) {
    let dumb = std::env::var_os("TERM").is_some_and(|t| t == "dumb");
    let mode = if quiet {
        Mode::Off
    } else if std::io::stdin().is_terminal() && std::io::stderr().is_terminal() && !dumb {
        Mode::Live
    } else {
        Mode::Plain
    };
    let _ = MODE.set(mode);
}

/// The process's mode (plain before [`init`]).
pub fn mode() -> Mode {
    *MODE.get().unwrap_or(&Mode::Plain)
}

/// The live bars' shared screen.
fn screen() -> &'static MultiProgress {
    static SCREEN: OnceLock<MultiProgress> = OnceLock::new();
    SCREEN.get_or_init(MultiProgress::new)
}

/// Prints `line` on standard error, above the live bars when there are some.
pub fn println(line: &str) {
    if mode() == Mode::Live {
        let _ = screen().println(line);
    } else {
        eprintln!("{line}");
    }
}

/// A line of plain progress: `regex-chess: WHAT: TEXT`.
fn plain(what: &str, text: &str) {
    eprintln!("regex-chess: {what}: {text}");
}

/// A live bar with `template` (`indicatif`'s syntax), on the shared screen.
fn bar(template: &str, total: Option<u64>) -> ProgressBar {
    let bar = match total {
        Some(total) => ProgressBar::new(total),
        None => ProgressBar::new_spinner(),
    };
    let style = ProgressStyle::with_template(template).expect("a valid progress template");
    bar.set_style(style.progress_chars("=> "));
    let bar = screen().add(bar);
    bar.enable_steady_tick(Duration::from_millis(250));
    bar
}

/// A task of counted steps: a live bar `WHAT [====>   ] 3/8 MESSAGE 12s`, or a plain
/// line every `every` steps (and at the last).
pub struct Steps {
    what: String,
    total: u64,
    done: u64,
    every: u64,
    bar: Option<ProgressBar>,
}

impl Steps {
    /// A task called `what` of `total` steps, with a plain line every `every` steps.
    pub fn new(what: &str, total: u64, every: u64) -> Steps {
        let bar = (mode() == Mode::Live).then(|| {
            let bar = bar(
                "{prefix} [{bar:24}] {pos}/{len} {msg} {elapsed}",
                Some(total),
            );
            bar.set_prefix(what.to_string());
            bar
        });
        Steps {
            what: what.to_string(),
            total,
            done: 0,
            every: every.max(1),
            bar,
        }
    }

    /// A task whose plain lines come about twenty times in all, and at least every
    /// `at_most` steps (every step when there are few).
    pub fn spread(what: &str, total: u64, at_most: u64) -> Steps {
        Steps::new(what, total, total.div_ceil(20).clamp(1, at_most.max(1)))
    }

    /// Says what the current step is doing (shown live; plain lines show it with the
    /// next count).
    pub fn doing(&self, message: impl Into<Cow<'static, str>>) {
        if let Some(bar) = &self.bar {
            bar.set_message(message);
        }
    }

    /// One step done; `message` says what it was (plain lines) or what comes next
    /// (live).
    pub fn step(&mut self, message: &str) {
        self.done += 1;
        match mode() {
            Mode::Live => {
                if let Some(bar) = &self.bar {
                    bar.set_position(self.done);
                    bar.set_message(message.to_string());
                }
            }
            Mode::Plain if self.done.is_multiple_of(self.every) || self.done == self.total => {
                plain(
                    &self.what,
                    &format!("{}/{} {message}", self.done, self.total),
                );
            }
            _ => {}
        }
    }

    /// Ends the task, clearing its live bar.
    pub fn finish(self) {
        if let Some(bar) = self.bar {
            bar.finish_and_clear();
            screen().remove(&bar);
        }
    }
}

/// What a [`Delayed`]'s thread shares with it.
#[derive(Default)]
struct DelayedState {
    done: bool,
    shown: Option<Option<ProgressBar>>,
}

/// Something that shows only if it lasts longer than [`DELAY`]: then a live spinner
/// `MESSAGE 3s`, or one plain line `regex-chess: MESSAGE...`; on [`Delayed::finish`] the
/// spinner goes and, if a plain line was printed, a second one says it is done.
pub struct Delayed {
    shared: Arc<(Mutex<DelayedState>, Condvar)>,
    thread: Option<JoinHandle<()>>,
    started: Instant,
}

impl Delayed {
    /// Starts waiting to show `message`.
    pub fn start(message: String) -> Delayed {
        let shared = Arc::new((Mutex::new(DelayedState::default()), Condvar::new()));
        let thread = (mode() != Mode::Off).then(|| {
            let shared = shared.clone();
            std::thread::spawn(move || {
                let (lock, wake) = &*shared;
                let state = lock.lock().unwrap();
                let (mut state, _) = wake.wait_timeout_while(state, DELAY, |s| !s.done).unwrap();
                if state.done {
                    return;
                }
                state.shown = Some(match mode() {
                    Mode::Live => {
                        let spinner = bar("{spinner} {msg} {elapsed}", None);
                        spinner.set_message(message);
                        Some(spinner)
                    }
                    _ => {
                        eprintln!("regex-chess: {message}...");
                        None
                    }
                });
            })
        });
        Delayed {
            shared,
            thread,
            started: Instant::now(),
        }
    }

    /// Ends it; `done` is the plain mode's closing words (`compiled`), followed by the
    /// time it took.
    pub fn finish(mut self, done: &str) {
        let (lock, wake) = &*self.shared;
        lock.lock().unwrap().done = true;
        wake.notify_all();
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
        match lock.lock().unwrap().shown.take() {
            Some(Some(spinner)) => {
                spinner.finish_and_clear();
                screen().remove(&spinner);
            }
            Some(None) => eprintln!(
                "regex-chess: {done} in {:.1} s",
                self.started.elapsed().as_secs_f64()
            ),
            None => {}
        }
    }
}

/// Shows the library's compilations (a first start's, or any with the cache off) as
/// [`Delayed`] progress: `compiling the `play` program (first start; later starts read
/// the program cache)`.
pub fn observe_compiles() {
    if mode() == Mode::Off {
        return;
    }
    let running: Mutex<HashMap<String, Delayed>> = Mutex::new(HashMap::new());
    regex_chess_engine::observe::observe_compiles(move |event| match event {
        CompileEvent::Started { name, cached } => {
            let why = if cached {
                " (first start; later starts read the program cache)"
            } else {
                " (the program cache is off)"
            };
            let shown = Delayed::start(format!("compiling the `{name}` program{why}"));
            running.lock().unwrap().insert(name.to_string(), shown);
        }
        CompileEvent::Finished { name, .. } => {
            if let Some(shown) = running.lock().unwrap().remove(name) {
                shown.finish(&format!("compiled the `{name}` program"));
            }
        }
    });
}
