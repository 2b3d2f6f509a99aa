//! Instructions of each rule of a range of the warm `play` program, within one whole
//! warm run: an observer calls `mark` after every rule of the range (and after the rule
//! before it), and callgrind dumps its counts at each call, so dump `k` holds what rule
//! `A + k - 1` cost (plus the observer's few instructions).
//!
//! ```sh
//! valgrind --tool=callgrind --callgrind-out-file=/tmp/each.out --toggle-collect='*warm_run*' \
//!   --dump-before='rule_each::mark' ./target/release/examples/rule_each data/positions/bench.txt 3 4876-4983
//! grep -H '^summary\|^totals' /tmp/each.out.*
//! ```
//!
//! Arguments: the bench file, the position's index (0-based, file order), one inclusive
//! range `A-B`. One warm-up run, then the counted run with the observer (which reads no
//! state and no match counts, so that the executor works as without one).

use std::ops::ControlFlow;

use regex_chess_machine::exec::fast::Fast;
use regex_chess_machine::exec::{Executor, Observer, RuleReport};

mod support;

/// Marks the end of a rule for callgrind's `--dump-before` (kept out of line).
#[inline(never)]
fn mark(index: usize) {
    std::hint::black_box(index);
}

/// Calls [`mark`] after the rules `first - 1 ..= last`.
struct Marks {
    first: usize,
    last: usize,
    states: Vec<usize>,
}

impl Observer for Marks {
    fn after_rule(
        &mut self,
        index: usize,
        report: &RuleReport,
        _state: &dyn Fn() -> String,
    ) -> ControlFlow<()> {
        if index + 1 >= self.first && index <= self.last {
            mark(index);
            self.states.push(report.state_len);
        }
        ControlFlow::Continue(())
    }

    fn wants_match_counts(&self) -> bool {
        false
    }

    fn reads_states(&self) -> bool {
        false
    }
}

/// The counted run (kept out of line so that callgrind can count exactly it).
#[inline(never)]
fn warm_run(play: &Fast, input: &str, marks: &mut Marks) {
    std::hint::black_box(play.run_observed(input, marks).unwrap());
}

fn usage() -> ! {
    eprintln!("usage: rule_each BENCH IDX FIRST-LAST");
    std::process::exit(2);
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let [_, bench, idx, range] = &args[..] else {
        usage()
    };
    let Ok(idx) = idx.parse::<usize>() else {
        usage()
    };
    let Some((first, last)) = range.split_once('-') else {
        usage()
    };
    let (Ok(first), Ok(last)) = (first.parse::<usize>(), last.parse::<usize>()) else {
        usage()
    };
    let (play, input) = support::play_and_input("rule_each", bench, idx);
    play.run(&input).unwrap();
    let mut marks = Marks {
        first,
        last,
        states: Vec::new(),
    };
    warm_run(&play, &input, &mut marks);
    for (k, len) in marks.states.iter().enumerate().skip(1) {
        eprintln!("rule {}: state {len} B after", first + k - 1);
    }
}
