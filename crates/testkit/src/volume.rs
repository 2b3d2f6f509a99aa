//! How many cases an equivalence property runs and from which seed, for
//! `tests/machine/equivalence.rs` and `tests/machine/equivalence_wide.rs` alike.
//!
//! - **Count**: a quarter of a property's full count in plain `cargo test` (the README's
//!   quick suite), half of it with `REGEX_CHESS_VOLUME=half` (twice the quick suite's),
//!   all of it with `full`, twice as many with `double`;
//!   `PROPTEST_CASES` overrides.
//! - **Seed**: fixed per file and count, so that plain `cargo test` is the same run every
//!   time; `REGEX_CHESS_SEED=<number>` runs (and replays) another, `clock` picks a new
//!   one, and each property then prints it with the command that replays the run (CI's
//!   rotating seed, docs/fuzzing.md); `PROPTEST_RNG_SEED` is proptest's own override.
//!
//! Every property prints its count of cases (seen with `--nocapture`), which is how the
//! documents count them instead of writing numbers that drift.
//!
//! - **Search variants**: a test that judges the registered search variants one by one
//!   judges [`searches_per_family`] in plain `cargo test` (the strongest of each family,
//!   so that the suite's time does not grow with each variant registered) and the
//!   others, [`other_searches`], in an `#[ignore]`d volume of the same size that CI runs
//!   in release (`scripts/ci-volumes.sh`): every variant is judged once in CI. A volume
//!   with more positions than its share judges every variant.

use std::sync::OnceLock;
use std::time::{SystemTime, UNIX_EPOCH};

use proptest::test_runner::{Config, FileFailurePersistence, RngSeed};
use regex_chess_engine::Search;

/// The variable that sets the run's seed: a number replays a run, `clock` picks a new
/// seed from the clock.
pub const SEED_VAR: &str = "REGEX_CHESS_SEED";

/// How many of a property's `full` count of cases run (see the module's doc).
pub fn share(full: u32) -> u32 {
    match std::env::var("REGEX_CHESS_VOLUME").as_deref() {
        Ok("half") => full.div_ceil(2),
        Ok("full") => full,
        Ok("double") => full * 2,
        _ => full.div_ceil(4),
    }
}

/// The run's seed, when [`SEED_VAR`] sets one (read once: every property of the run
/// derives its seed from the same one).
pub fn run_seed() -> Option<u64> {
    static SEED: OnceLock<Option<u64>> = OnceLock::new();
    *SEED.get_or_init(|| {
        let Ok(value) = std::env::var(SEED_VAR) else {
            return None;
        };
        let seed = match value.trim() {
            "clock" => SystemTime::now()
                .duration_since(UNIX_EPOCH)
                .map_or(0, |since| since.as_nanos() as u64),
            number => number.parse().unwrap_or_else(|_| {
                panic!("{SEED_VAR}={value:?}: expected a whole number or `clock`")
            }),
        };
        Some(seed)
    })
}

/// `cases` cases (scaled by [`share`]) of the test file `file` (`equivalence`, say),
/// from the file's fixed seed `fixed_base` plus the count, unless the environment asks
/// for something else; failures are kept in the file's `proptest-regressions`.
pub fn config(file: &str, fixed_base: u64, cases: u32) -> Config {
    let base = Config::default();
    let cases = if std::env::var_os("PROPTEST_CASES").is_some() {
        base.cases
    } else {
        share(cases)
    };
    let rng_seed = match (run_seed(), base.rng_seed) {
        (Some(seed), _) => {
            // The cases' number is part of each property's seed: the replay runs as many.
            let volume: String = ["REGEX_CHESS_VOLUME", "PROPTEST_CASES"]
                .iter()
                .filter_map(|name| std::env::var(name).ok().map(|v| format!(" {name}={v}")))
                .collect();
            eprintln!(
                "{file}: run seed {seed}; replay:{volume} {SEED_VAR}={seed} cargo test --release --test machine {file}::"
            );
            RngSeed::Fixed(seed.wrapping_add(u64::from(cases)))
        }
        (None, RngSeed::Random) => RngSeed::Fixed(fixed_base + u64::from(cases)),
        (None, fixed) => fixed,
    };
    eprintln!("{file}: a property of {cases} cases");
    Config {
        cases,
        rng_seed,
        failure_persistence: Some(Box::new(FileFailurePersistence::WithSource(
            "proptest-regressions",
        ))),
        ..base
    }
}

/// The search variants a share of `cargo test` judges: of each family (the plies
/// searched full width or selectively, and whether a capture search runs below them:
/// `2ply`; the 2-ply ones with a capture search; the 3-ply ones) the strongest, the last
/// of [`Search::ALL`] (weakest first) in it. A variant registered later joins its
/// family's share when it is the strongest there; the volumes judge every variant.
pub fn searches_per_family() -> Vec<Search> {
    let family = |v: &Search| (v.depth(), v.quiescence());
    let mut chosen: Vec<Search> = Vec::new();
    for variant in Search::ALL {
        match chosen.iter_mut().find(|c| family(c) == family(&variant)) {
            Some(strongest) => *strongest = variant,
            None => chosen.push(variant),
        }
    }
    chosen
}

/// The search variants [`searches_per_family`] leaves out, weakest first: what a
/// volume of the same size as its share judges, so that the two together judge every
/// variant once.
pub fn other_searches() -> Vec<Search> {
    let share = searches_per_family();
    Search::ALL
        .into_iter()
        .filter(|v| !share.contains(v))
        .collect()
}
