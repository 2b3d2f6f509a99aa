//! Inputs for the unit tests of the fast executor's modules (tests only): random patterns
//! for the property tests (literal characters and fixed atoms, nested in concatenations,
//! alternations and the caller's wrappers, templates with `{}` for the inner pattern), a
//! small deterministic random generator, and the patterns of the chess programs (from a fixture).
//!
//! Contract: [`Rng`] gives the same numbers for the same seed on every machine, so a
//! randomized test's failure reproduces; [`patterns`] may give patterns that `regex`
//! refuses (callers skip them); [`program_patterns`] reads the chess programs' patterns
//! from [`CHESS_PATTERNS`], kept current by a test of the workspace's root.
//!
//! Trade-offs: a xorshift generator instead of a crate: spread enough for tests, no
//! statistical quality claimed.

use proptest::prelude::*;
use proptest::sample::select;

/// Patterns built from one escaped character of `chars` (a proptest string regex) or an
/// atom of `atoms`, nested up to four deep in concatenations, alternations and
/// `wrappers` (each a template such as `"(?:{})*"`). Not every pattern compiles: callers
/// skip those the `regex` crate refuses.
pub fn patterns(
    chars: &'static str,
    atoms: &'static [&'static str],
    wrappers: &'static [&'static str],
) -> BoxedStrategy<String> {
    let leaf = prop_oneof![
        chars.prop_map(|s| regex_syntax::escape(&s)),
        select(atoms).prop_map(str::to_string),
    ];
    leaf.prop_recursive(4, 24, 4, move |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 1..4).prop_map(|v| v.concat()),
            prop::collection::vec(inner.clone(), 2..4).prop_map(|v| v.join("|")),
            (inner, select(wrappers)).prop_map(|(s, w)| w.replace("{}", &s)),
        ]
    })
    .boxed()
}

/// A tiny deterministic generator (xorshift), so randomized tests need no extra crate and
/// their failures reproduce. Shared by the unit tests of the
/// executor's modules.
pub struct Rng(pub u64);

impl Rng {
    pub fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    /// A number below `n` (which is not 0).
    pub fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }

    pub fn pick<'a>(&mut self, items: &[&'a str]) -> &'a str {
        items[self.below(items.len())]
    }
}

/// The file of the chess programs' patterns: a JSON object from a program's name to each
/// distinct pattern of it, compiled with the default options, in rule order. The machine
/// knows no game, so its unit tests read the chess patterns from this copy; the root's
/// test `chess_patterns_fixture_is_current` fails when it differs from what the chess
/// programs compile to, and rewrites it with `REGEX_CHESS_BLESS=1`.
pub const CHESS_PATTERNS: &str = include_str!("testdata/chess_patterns.json");

/// Each distinct pattern of the chess programs `names` (of [`CHESS_PATTERNS`]), once, in
/// rule order: what the tests that walk every pattern the chess programs use read.
pub fn program_patterns(names: &[&str]) -> Vec<String> {
    let table: std::collections::BTreeMap<String, Vec<String>> =
        serde_json::from_str(CHESS_PATTERNS).expect("the fixture is JSON");
    let mut seen = std::collections::HashSet::new();
    let mut patterns = Vec::new();
    for name in names {
        for pattern in table.get(*name).expect("a program of the fixture") {
            if seen.insert(pattern.clone()) {
                patterns.push(pattern.clone());
            }
        }
    }
    patterns
}
