//! The UCI options: their values as named fields ([`Options`]), their `option name ...`
//! lines for `uci`, and `setoption` checked against them.
//!
//! Contract: a value outside an option's range, or of the wrong kind, changes nothing and
//! comes back as an [`OptionError`] for an `info string`; [`Options::set`] says whether
//! the engine must be rebuilt (the executor or its cores changed). Option names are
//! matched without regard to case, as GUIs differ.
//!
//! | option | type | what it does |
//! | --- | --- | --- |
//! | `Executor` | combo `fast`/`reference` | which executor runs the rules |
//! | `Move Overhead` | spin, ms | taken off every time budget, for the GUI's and the pipes' delays |
//! | `Threads` | spin | the cores the fast executor runs local rules on (the engine is rebuilt; moves are the same) |
//! | `Hash` | spin, MB | accepted and unused: the search keeps no hash table |
//! | `MultiPV` | spin, 1 to [`MULTIPV_MAX`] | above 1, `go` runs the variant's ranking program and prints one `info multipv` line per ranked move |
//! | `Ponder` | check | accepted: `go ponder` works whatever its value |
//! | `Search` | combo `auto` or a variant's name | `auto`: the search is chosen per `go` ([`super::clock`]); a name: that variant always plays (`regex-chess uci --search NAME` sets it at start) |

use std::num::NonZeroUsize;

use crate::variants::{MULTIPV_MAX, Search};
use regex_chess_machine::exec::{Choice, ExecutorKind};

/// The default `Move Overhead`, in milliseconds.
pub const DEFAULT_OVERHEAD: u64 = 30;

/// The value of the `Search` option that lets the limits choose the variant.
pub const AUTO_SEARCH: &str = "auto";

/// The spin options, in the order `uci` lists them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Spin {
    /// `Move Overhead`, ms.
    MoveOverhead,
    /// `Threads`.
    Threads,
    /// `Hash`, MB.
    Hash,
    /// `MultiPV`.
    MultiPv,
}

impl Spin {
    /// Every spin option, in the order `uci` lists them.
    pub const ALL: [Spin; 4] = [Spin::MoveOverhead, Spin::Threads, Spin::Hash, Spin::MultiPv];

    /// The option's name.
    pub fn name(self) -> &'static str {
        match self {
            Spin::MoveOverhead => "Move Overhead",
            Spin::Threads => "Threads",
            Spin::Hash => "Hash",
            Spin::MultiPv => "MultiPV",
        }
    }

    /// Default, minimum and maximum.
    fn range(self) -> (u64, u64, u64) {
        match self {
            Spin::MoveOverhead => (DEFAULT_OVERHEAD, 0, 5000),
            Spin::Threads => (1, 1, 1024),
            Spin::Hash => (16, 1, 33_554_432),
            Spin::MultiPv => (1, 1, MULTIPV_MAX as u64),
        }
    }

    /// The spin option named `name` (any case).
    fn named(name: &str) -> Option<Spin> {
        Spin::ALL
            .into_iter()
            .find(|s| s.name().eq_ignore_ascii_case(name))
    }
}

/// Every option's value.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Options {
    /// `Executor`.
    pub executor: ExecutorKind,
    /// `Move Overhead`, ms.
    pub move_overhead: u64,
    /// `Threads`.
    pub threads: u64,
    /// `Hash`, MB (unused).
    pub hash: u64,
    /// `MultiPV`: the ranked lines a `go` prints.
    pub multipv: u64,
    /// `Ponder` (accepted; `go ponder` works whatever it is).
    pub ponder: bool,
    /// `Search`: the variant every `go` plays, or `None` for `auto`.
    pub search: Option<Search>,
}

impl Default for Options {
    fn default() -> Options {
        Options {
            executor: ExecutorKind::Fast,
            move_overhead: Spin::MoveOverhead.range().0,
            threads: Spin::Threads.range().0,
            hash: Spin::Hash.range().0,
            multipv: Spin::MultiPv.range().0,
            ponder: false,
            search: None,
        }
    }
}

/// Why a `setoption` changed nothing.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum OptionError {
    /// No option has this name.
    #[error("unknown option ignored: {0}")]
    Unknown(String),
    /// `Executor` without a value, or with an unknown one.
    #[error("option Executor unchanged: {0}")]
    Executor(String),
    /// `Search` with a value that is no variant.
    #[error("option Search unchanged: expected {AUTO_SEARCH} or one of {}", Search::names().join(", "))]
    Search,
    /// `Ponder` with a value other than `true` or `false`.
    #[error("option Ponder: expected `true` or `false`")]
    Ponder,
    /// A spin option's value out of its range or no number.
    #[error("option {name} unchanged: expected a number from {min} to {max}")]
    Spin {
        /// The option.
        name: &'static str,
        /// Its minimum.
        min: u64,
        /// Its maximum.
        max: u64,
    },
}

impl Options {
    /// The value of a spin option.
    pub fn spin(&self, spin: Spin) -> u64 {
        match spin {
            Spin::MoveOverhead => self.move_overhead,
            Spin::Threads => self.threads,
            Spin::Hash => self.hash,
            Spin::MultiPv => self.multipv,
        }
    }

    /// The value of the spin option named `name` (any case).
    pub fn spin_named(&self, name: &str) -> Option<u64> {
        Spin::named(name).map(|s| self.spin(s))
    }

    fn spin_mut(&mut self, spin: Spin) -> &mut u64 {
        match spin {
            Spin::MoveOverhead => &mut self.move_overhead,
            Spin::Threads => &mut self.threads,
            Spin::Hash => &mut self.hash,
            Spin::MultiPv => &mut self.multipv,
        }
    }

    /// The executor and cores the engine runs on (`Threads`, saturated to `usize`).
    pub fn choice(&self) -> Choice {
        let cores = usize::try_from(self.threads).unwrap_or(usize::MAX);
        Choice::new(
            self.executor,
            NonZeroUsize::new(cores).unwrap_or(NonZeroUsize::MIN),
        )
    }

    /// Takes the executor and cores of `choice` (the values `Executor` and `Threads`
    /// start from).
    pub fn set_choice(&mut self, choice: Choice) {
        self.executor = choice.kind;
        self.threads = u64::try_from(choice.cores.get()).unwrap_or(u64::MAX);
    }

    /// The `option name ...` lines of the `uci` answer.
    pub fn uci_lines(&self) -> Vec<String> {
        let mut out =
            vec!["option name Executor type combo default fast var fast var reference".to_string()];
        for spin in Spin::ALL {
            let (default, min, max) = spin.range();
            out.push(format!(
                "option name {} type spin default {default} min {min} max {max}",
                spin.name()
            ));
        }
        out.push("option name Ponder type check default false".to_string());
        let default = self.search.map_or(AUTO_SEARCH, |v| v.name());
        let mut search =
            format!("option name Search type combo default {default} var {AUTO_SEARCH}");
        for name in Search::names() {
            search.push_str(&format!(" var {name}"));
        }
        out.push(search);
        out
    }

    /// `setoption name <name> [value <value>]`: true when the engine must be rebuilt
    /// (the executor or the number of cores changed).
    pub fn set(&mut self, name: &str, value: Option<&str>) -> Result<bool, OptionError> {
        if name.eq_ignore_ascii_case("executor") {
            let kind = match value.map(str::parse::<ExecutorKind>) {
                Some(Ok(kind)) => kind,
                Some(Err(e)) => return Err(OptionError::Executor(e.to_string())),
                None => return Err(OptionError::Executor("no value".to_string())),
            };
            return Ok(std::mem::replace(&mut self.executor, kind) != kind);
        }
        if name.eq_ignore_ascii_case("search") {
            self.search = match (value, value.map(str::parse::<Search>)) {
                (Some(v), _) if v.eq_ignore_ascii_case(AUTO_SEARCH) => None,
                (_, Some(Ok(search))) => Some(search),
                _ => return Err(OptionError::Search),
            };
            return Ok(false);
        }
        if name.eq_ignore_ascii_case("ponder") {
            self.ponder = match value {
                Some("true") => true,
                Some("false") => false,
                _ => return Err(OptionError::Ponder),
            };
            return Ok(false);
        }
        let Some(spin) = Spin::named(name) else {
            return Err(OptionError::Unknown(name.to_string()));
        };
        let (_, min, max) = spin.range();
        match value.map(str::parse::<u64>) {
            Some(Ok(v)) if (min..=max).contains(&v) => {
                let old = std::mem::replace(self.spin_mut(spin), v);
                Ok(spin == Spin::Threads && old != v)
            }
            _ => Err(OptionError::Spin {
                name: spin.name(),
                min,
                max,
            }),
        }
    }
}
