//! Instructions of single rules, or of ranges of rules, of the warm `play` program, on
//! the state they meet in a bench position's run: for finding which rule groups a
//! change should shrink, with callgrind's exact counts rather than noisy timings.
//!
//! ```sh
//! valgrind --tool=callgrind --callgrind-out-file=/dev/null --toggle-collect='*measured*' \
//!   ./target/release/examples/rule_count data/positions/bench.txt 3 6744-6851
//! ```
//!
//! Arguments: the bench file (`FEN;white move;label` lines), the position's index (0-based,
//! file order, as `play_warm` counts them), then rules `R` or inclusive ranges `A-B` in
//! increasing order. The run goes up to each range with the fast executor; the range runs
//! once unmeasured (compiling its patterns and filling the lazy-DFA caches, as a warm
//! move would have them), then once inside `measured`, which callgrind counts. Several
//! ranges give their total; run once per range for each one's count. The rule indices
//! of a group come from `regex-chess profile --slowest N` or the program's listing.
//!
//! One range on the state the earlier rules left is not exactly a warm run's share (a
//! run reuses the caches of the whole program, and the rope may cut large states): use
//! it to compare versions of a rule group, and `play_warm` for the totals.

use std::ops::Range;

use regex_chess_machine::exec::fast::Fast;
use regex_chess_machine::exec::{Executor, NoObserver};

mod support;

/// The counted run of `rules` (kept out of line so that callgrind can count exactly it).
#[inline(never)]
fn measured(play: &Fast, state: &str, rules: Range<usize>) -> String {
    play.run_range(state, rules, &mut NoObserver).unwrap()
}

fn usage() -> ! {
    eprintln!("usage: rule_count BENCH IDX (RULE | FIRST-LAST)...");
    std::process::exit(2);
}

/// A rule `R` or an inclusive range `A-B` as a range of rule indices.
fn parse_range(arg: &str) -> Option<Range<usize>> {
    let (first, last) = arg.split_once('-').unwrap_or((arg, arg));
    let (first, last): (usize, usize) = (first.parse().ok()?, last.parse().ok()?);
    (first <= last).then_some(first..last + 1)
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let [_, bench, idx, ranges @ ..] = &args[..] else {
        usage()
    };
    let Ok(idx) = idx.parse::<usize>() else {
        usage()
    };
    let Some(ranges) = ranges
        .iter()
        .map(|a| parse_range(a))
        .collect::<Option<Vec<_>>>()
    else {
        usage()
    };
    let (play, input) = support::play_and_input("rule_count", bench, idx);
    let count = play.program().rules().len();
    // A whole run first, as `play_warm` warms up.
    play.run(&input).unwrap();
    let (mut state, mut at) = (input, 0);
    for rules in ranges {
        if rules.start < at || rules.end > count {
            usage()
        }
        state = play
            .run_range(&state, at..rules.start, &mut NoObserver)
            .unwrap();
        let warm = play
            .run_range(&state, rules.clone(), &mut NoObserver)
            .unwrap();
        let out = measured(&play, &state, rules.clone());
        assert_eq!(warm, out, "the same rules gave two states");
        eprintln!(
            "rules {}-{}: state {} B before, {} B after",
            rules.start,
            rules.end - 1,
            state.len(),
            out.len()
        );
        (state, at) = (out, rules.end);
    }
}
