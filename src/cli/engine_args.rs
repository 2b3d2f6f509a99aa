//! The engine's arguments, declared once: which executor runs the rules, on how many
//! cores and with which state limit ([`ExecArgs`]), and, for the commands that search,
//! which variant ([`EngineArgs`]).
//! Every subcommand that runs rules flattens one of them, so each flag is spelled,
//! explained and checked in one place.
//!
//! The search variants offered are [`Search::ALL`], with their summaries as the help of
//! each value: a variant added to the registry appears here by itself.

use std::num::NonZeroUsize;

use clap::Args;
use clap::builder::{PossibleValue, TypedValueParser};
use regex_chess_engine::Search;
use regex_chess_machine::exec::{Choice, DEFAULT_MAX_STATE, ExecutorKind};

/// Which executor runs the rules, on how many cores, with which state limit.
#[derive(Args, Clone, Copy, Debug)]
pub struct ExecArgs {
    /// Which executor runs the rules.
    #[arg(long, value_parser = executor_parser(), default_value = "fast")]
    pub executor: ExecutorKind,
    /// Cores for the fast executor: local rules on large states run on pieces of the
    /// state, one share per core (the result is the same).
    #[arg(long, value_parser = parse_cores, default_value = "1")]
    pub cores: NonZeroUsize,
    #[command(flatten)]
    pub max_state: MaxStateArg,
}

impl ExecArgs {
    /// The executor to build.
    pub fn choice(&self) -> Choice {
        Choice::new(self.executor, self.cores).with_max_state(self.max_state.bytes)
    }
}

/// The state limit: a rule that would grow the state past it ends the run with an
/// error naming the rule (see `regex_chess_machine::exec::limit`).
#[derive(Args, Clone, Copy, Debug)]
pub struct MaxStateArg {
    /// The largest state a rule may write, in bytes or with a K, M or G suffix (binary:
    /// 1G = 1024M); a rule that would grow the state past it stops the run with an
    /// error naming the rule. The default, 1G, is far above any shipped program's.
    #[arg(long = "max-state", value_name = "SIZE", value_parser = parse_size, default_value = "1G")]
    pub bytes: usize,
}

impl Default for MaxStateArg {
    fn default() -> MaxStateArg {
        MaxStateArg {
            bytes: DEFAULT_MAX_STATE,
        }
    }
}

/// A size that is not a whole number of bytes with an optional K, M or G.
#[derive(Debug, thiserror::Error)]
#[error("`{0}` is not a size (a whole number of bytes, or with a K, M or G suffix: 512M)")]
pub struct NotASize(String);

/// Parses a size: a whole number of bytes, or of KiB, MiB or GiB with a `K`, `M` or `G`
/// suffix (an optional `iB` or `B` after it).
pub fn parse_size(text: &str) -> Result<usize, NotASize> {
    let bad = || NotASize(text.to_string());
    let trimmed = text.trim();
    let unit_at = trimmed
        .find(|c: char| !c.is_ascii_digit())
        .unwrap_or(trimmed.len());
    let (digits, unit) = trimmed.split_at(unit_at);
    let number: usize = digits.parse().map_err(|_| bad())?;
    let shift = match unit.trim_end_matches("iB").trim_end_matches('B') {
        "" => 0,
        "K" | "k" => 10,
        "M" | "m" => 20,
        "G" | "g" => 30,
        _ => return Err(bad()),
    };
    number.checked_mul(1 << shift).ok_or_else(bad)
}

/// [`ExecArgs`] and the search variant.
#[derive(Args, Clone, Copy, Debug)]
pub struct EngineArgs {
    #[command(flatten)]
    pub exec: ExecArgs,
    /// The search variant (contracts in `crates/chess/src/lib.rs`); without it, the
    /// command's own default (see its help).
    #[arg(long, value_parser = search_parser())]
    pub search: Option<Search>,
}

impl EngineArgs {
    /// The variant asked for, else `default`.
    pub fn search_or(&self, default: Search) -> Search {
        self.search.unwrap_or(default)
    }

    /// The executor to build.
    pub fn choice(&self) -> Choice {
        self.exec.choice()
    }
}

/// Parses `--search NAME`, offering every registered variant with its summary; an
/// unknown name is refused with the registry's own message.
pub fn search_parser() -> NamedParser<Search> {
    NamedParser::new(Search::ALL.map(|s| (s.name(), s.summary())).to_vec())
}

/// Parses `--executor NAME`; an unknown name is refused with the library's message.
fn executor_parser() -> NamedParser<ExecutorKind> {
    NamedParser::new(vec![
        ("fast", "regex-automata DFAs, literal prefilters, the rope"),
        ("reference", "the regex crate's replace_all, rule by rule"),
    ])
}

/// A value named by one of a few words: offered (with a line of help each) in `--help`,
/// read with the type's own `FromStr`, whose error message is the one the user sees.
#[derive(Clone, Debug)]
pub struct NamedParser<T> {
    values: Vec<(&'static str, &'static str)>,
    parsed: std::marker::PhantomData<fn() -> T>,
}

impl<T> NamedParser<T> {
    fn new(values: Vec<(&'static str, &'static str)>) -> NamedParser<T> {
        NamedParser {
            values,
            parsed: std::marker::PhantomData,
        }
    }
}

impl<T> TypedValueParser for NamedParser<T>
where
    T: std::str::FromStr + Clone + Send + Sync + 'static,
    T::Err: std::fmt::Display,
{
    type Value = T;

    fn parse_ref(
        &self,
        _: &clap::Command,
        _: Option<&clap::Arg>,
        value: &std::ffi::OsStr,
    ) -> Result<T, clap::Error> {
        let text = value.to_string_lossy();
        text.parse::<T>()
            .map_err(|e| clap::Error::raw(clap::error::ErrorKind::InvalidValue, format!("{e}\n")))
    }

    fn possible_values(&self) -> Option<Box<dyn Iterator<Item = PossibleValue> + '_>> {
        let values = self.values.iter();
        Some(Box::new(
            values.map(|(name, help)| PossibleValue::new(*name).help(*help)),
        ))
    }
}

/// A number of cores that is not a whole number of at least 1.
#[derive(Debug, thiserror::Error)]
#[error("`{0}` is not a whole number of at least 1")]
pub struct NotCores(String);

/// Parses a number of cores: a whole number of at least 1.
pub fn parse_cores(text: &str) -> Result<NonZeroUsize, NotCores> {
    text.parse::<usize>()
        .ok()
        .and_then(NonZeroUsize::new)
        .ok_or_else(|| NotCores(text.to_string()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::Parser;

    #[derive(Parser, Debug)]
    struct Probe {
        #[command(flatten)]
        engine: EngineArgs,
    }

    #[test]
    fn every_variant_is_offered_and_cores_are_at_least_one() {
        for search in Search::ALL {
            let probe = Probe::try_parse_from(["x", "--search", search.name()]).unwrap();
            assert_eq!(probe.engine.search, Some(search));
        }
        let probe = Probe::try_parse_from(["x"]).unwrap();
        assert_eq!(
            probe.engine.search_or(Search::benchmark()),
            Search::benchmark()
        );
        assert_eq!(probe.engine.choice(), Choice::from(ExecutorKind::Fast));
        for bad in ["0", "-1", "two", ""] {
            let flag = format!("--cores={bad}");
            let error = Probe::try_parse_from(["x", flag.as_str()]).unwrap_err();
            assert!(
                error
                    .to_string()
                    .contains("is not a whole number of at least 1"),
                "{bad}: {error}"
            );
        }
        let error = Probe::try_parse_from(["x", "--search", "9ply"]).unwrap_err();
        let known = Search::names().join(", ");
        assert_eq!(
            error.to_string(),
            format!("error: unknown search `9ply`; known: {known}\n")
        );
        let probe =
            Probe::try_parse_from(["x", "--executor", "reference", "--cores", "2"]).unwrap();
        assert_eq!(
            probe.engine.choice(),
            Choice::new(ExecutorKind::Reference, NonZeroUsize::new(2).unwrap())
        );
    }

    #[test]
    fn the_state_limit_reads_sizes_and_refuses_the_rest() {
        let probe = Probe::try_parse_from(["x"]).unwrap();
        assert_eq!(probe.engine.choice().max_state, DEFAULT_MAX_STATE);
        for (text, bytes) in [
            ("1000", 1000),
            ("64K", 64 << 10),
            ("3M", 3 << 20),
            ("2GiB", 2 << 30),
            ("1MB", 1 << 20),
            ("0", 0),
        ] {
            let probe = Probe::try_parse_from(["x", "--max-state", text]).unwrap();
            assert_eq!(probe.engine.choice().max_state, bytes, "{text}");
        }
        for bad in ["", "M", "1T", "-1", "1.5G", "99999999999999999999G"] {
            let flag = format!("--max-state={bad}");
            let error = Probe::try_parse_from(["x", flag.as_str()]).unwrap_err();
            assert!(
                error.to_string().contains("is not a size"),
                "{bad}: {error}"
            );
        }
    }
}
