//! The state limit: how large a run lets its state grow, and the error that ends a run
//! whose next rule would grow it past that size.
//!
//! Contract: both executors stop at the first rule whose output would be longer than
//! the limit, before writing that output in full, and return the same [`StateTooLarge`]:
//! the rule's index and origin, the exact length its output would have had, and the
//! limit. A rule whose output is exactly the limit runs. Up to that rule a run is the
//! run without a limit, byte for byte.
//!
//! How an executor knows in time: [`Bounds`] gives, for each rule, a bound on its
//! output from the length of its input, its template (the bytes of literal text and the
//! number of group references) and, when that is not enough, the shortest match its
//! pattern can have. A rule whose bound is within the limit runs as usual; only a rule
//! whose bound is not takes the careful path (the reference counts the exact output
//! first; the fast executor writes on one flat text and stops writing at the limit,
//! then only counts). The bound is
//! `len + k * literal + (groups - 1) * len` for a template with group references, and
//! `len + k * (literal - min_match)` without, where `k`, the number of matches, is at
//! most `len / min_match`, or `len + 1` when the pattern can match the empty string.
//!
//! The default, [`DEFAULT_MAX_STATE`], is 1 GiB. The widest state any shipped program
//! reaches on the bench positions is 27.6 MB (`3ply-qe` on kiwipete, PERF.md); deeper
//! searches may reach a few hundred MB at most, and the default leaves room for them
//! with a factor of several; a state at the limit costs the fast executor about twice
//! its size (the text and its spare buffer), well under the memory of the machines the
//! engine runs on. A program that doubles its state each rule reaches it in thirty
//! rules and stops there with the error instead of asking for gigabytes.
//!
//! Why no limit on the matches of one rule: a rule has at most `len + 1` matches on a
//! text of `len` bytes (they do not overlap, and an empty match takes a position of its
//! own), and it writes each; its time is linear in the state and its output, both of
//! which the limit bounds. An empty pattern on a state at the limit costs one pass over
//! it, like any rule; a run's total time is the caller's to bound (a deadline, a stop
//! flag, see [`super::run_unless`]).
//!
//! Trade-offs: the bound is cheap (a few multiplications per rule, the pattern parsed
//! once for its shortest match only when the template alone does not keep the bound
//! within the limit) and loose: a rule whose bound exceeds the limit but whose output
//! does not pays the careful path (an extra pass in the reference; the flat path in the
//! fast executor). On shipped programs the template-only bound holds for states of a
//! few MB; the shortest match keeps it within the limit beyond.

use std::sync::OnceLock;

use crate::program::{Origin, Piece, Template, ValidProgram};

/// The default state limit in bytes (1 GiB; see the module doc).
pub const DEFAULT_MAX_STATE: usize = 1 << 30;

/// A run stopped because a rule would have grown the state past the limit.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error(
    "rule {rule} ({origin}) would grow the state to {size} bytes, past the state limit of \
     {limit} bytes"
)]
pub struct StateTooLarge {
    /// The rule's index in the program.
    pub rule: usize,
    /// Who emitted the rule.
    pub origin: Origin,
    /// The length the state would have had after the rule.
    pub size: usize,
    /// The limit.
    pub limit: usize,
}

impl StateTooLarge {
    /// The error for rule `rule` of `program`.
    pub fn new(program: &ValidProgram, rule: usize, size: usize, limit: usize) -> StateTooLarge {
        StateTooLarge {
            rule,
            origin: program.rules()[rule].origin.clone(),
            size,
            limit,
        }
    }
}

/// What a rule's template can write per match: its literal bytes and its group
/// references (the whole match counts as one).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Growth {
    literal: usize,
    groups: usize,
}

impl Growth {
    fn of(template: &Template) -> Growth {
        let mut growth = Growth {
            literal: 0,
            groups: 0,
        };
        for piece in template.pieces() {
            match piece {
                Piece::Literal(text) => growth.literal += text.len(),
                Piece::Group(_) => growth.groups += 1,
            }
        }
        growth
    }

    /// A bound on the output's length for a text of `len` bytes, when every match is at
    /// least `min_match` bytes long (`None`: the pattern never matches).
    fn bound(self, len: usize, min_match: Option<usize>) -> u128 {
        let Some(min_match) = min_match else {
            return len as u128;
        };
        let len = len as u128;
        let (literal, groups, min) = (self.literal as u128, self.groups as u128, min_match as u128);
        let matches = len.checked_div(min).unwrap_or(len + 1);
        if groups == 0 {
            len + matches * literal.saturating_sub(min)
        } else {
            len + matches * literal + (groups - 1) * len
        }
    }
}

/// Each rule's output bound (see the module doc), the patterns parsed for their
/// shortest match on first need.
#[derive(Debug)]
pub struct Bounds {
    growth: Vec<Growth>,
    min_match: Vec<OnceLock<Option<usize>>>,
}

impl Bounds {
    /// The bounds of `program`'s rules; no pattern is parsed yet.
    pub fn new(program: &ValidProgram) -> Bounds {
        let rules = program.rules().len();
        Bounds {
            growth: (0..rules)
                .map(|i| Growth::of(program.template(i)))
                .collect(),
            min_match: (0..rules).map(|_| OnceLock::new()).collect(),
        }
    }

    /// A bound on the length of rule `index`'s output on a text of `len` bytes, at
    /// most `usize::MAX`. Parses the rule's pattern (of `program`, the program the
    /// bounds were made for) only when the template alone gives a bound over `limit`.
    pub fn after(&self, program: &ValidProgram, index: usize, len: usize, limit: usize) -> usize {
        let growth = self.growth[index];
        let rough = growth.bound(len, Some(0));
        let bound = if rough <= limit as u128 {
            rough
        } else {
            let min_match = self.min_match[index]
                .get_or_init(|| min_match_len(&program.rules()[index].pattern));
            growth.bound(len, *min_match)
        };
        usize::try_from(bound).unwrap_or(usize::MAX)
    }

    /// Whether rule `index` on a text of `len` bytes surely writes at most `limit` bytes.
    pub fn within(&self, program: &ValidProgram, index: usize, len: usize, limit: usize) -> bool {
        self.after(program, index, len, limit) <= limit
    }
}

/// The length in bytes of the shortest match of `pattern` (`None` when it cannot
/// match), parsed as `regex` parses it; 0 when it does not parse (a validated pattern
/// always does), the safe answer.
pub fn min_match_len(pattern: &str) -> Option<usize> {
    match regex_syntax::Parser::new().parse(pattern) {
        Ok(hir) => hir.properties().minimum_len(),
        Err(_) => Some(0),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::program::{Program, Rule};

    /// The exact output length of each rule on `hay`, by `replace_all`.
    fn exact(pattern: &str, replacement: &str, hay: &str) -> usize {
        regex::Regex::new(pattern)
            .unwrap()
            .replace_all(hay, replacement)
            .len()
    }

    #[test]
    fn bounds_hold_and_are_tight_where_they_can_be() {
        let cases = [
            ("(.+)", "$1$1", "ab"),
            ("", "xyz", "abcd"),
            ("", "", "abcd"),
            ("a", "bcd", "aaaa"),
            ("a+", "", "aaaa"),
            ("(a)(b)?", "$2$1$1$2-", "abababa"),
            ("q", "long replacement", "aaaa"),
            ("[a-z]{3}", "${0}!", "abcdefghij"),
        ];
        for (pattern, replacement, hay) in cases {
            let program = Program::from_rules(vec![Rule::new(pattern, replacement)])
                .validate()
                .unwrap();
            let bounds = Bounds::new(&program);
            let got = exact(pattern, replacement, hay);
            // With a limit of 0 the bound takes the pattern's shortest match into account.
            let bound = bounds.after(&program, 0, hay.len(), 0);
            assert!(
                got <= bound,
                "{pattern} -> {replacement} on {hay}: {got} > {bound}"
            );
        }
        // `(.+)` -> `$1$1` doubles its text: the bound is exactly twice.
        let program = Program::from_rules(vec![Rule::new("(.+)", "$1$1")])
            .validate()
            .unwrap();
        assert_eq!(Bounds::new(&program).after(&program, 0, 10, 0), 20);
        // A pattern that cannot match leaves the text's length.
        let program = Program::from_rules(vec![Rule::new("[^\\s\\S]", "abc")])
            .validate()
            .unwrap();
        assert_eq!(Bounds::new(&program).after(&program, 0, 10, 0), 10);
    }
}
