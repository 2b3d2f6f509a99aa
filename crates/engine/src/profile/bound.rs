//! A run's lower bound in time: the counts of [`regex_chess_machine::bound`] priced on this
//! machine, beside what the run measured, in total and by source origin.
//!
//! Contract: [`Prices::measure`] times four kernels in the calling process (so the bound
//! and the measured run meet the same machine and the same load):
//!
//! - `see`: a dense regex-automata DFA walking bytes it never matches, without acceleration
//!   (a pattern's DFA reads every byte it must see), nanoseconds a byte;
//! - `write`: a copy of a buffer into another, a byte;
//! - `literal`: `memmem` looking for a register's name (`#_99: `) it never finds, a byte:
//!   what keeping a segment's literal facts current costs for every byte written, and
//!   what finding a literal costs where a DFA need not walk;
//! - `match`: what one match costs beyond its bytes: a DFA regex's forward and reverse
//!   searches on a buffer dense with short matches, each replacement written, less the
//!   per-byte prices of the bytes walked and written.
//!
//! Each kernel runs on a 256 KB buffer of state-like text (it stays in the L2 cache) and
//! its price is the fastest of several trials in the CPU time of the calling thread (a
//! loaded machine's wait for a core is not work): the cheapest honest price.
//! [`Prices::bound`] prices a rule as the model has it: `match × matches + see ×
//! must-see bytes + (write + literal) × bytes written`, every byte of a thread holding the
//! rule's literals walked by a DFA. An executor that finds a literal with `memmem` and
//! walks only around it does less, so [`Prices::floor`] prices the must-see bytes at the
//! literal search's rate and only the matched bytes at the DFA's: the least any executor
//! reading those threads can do. Trade-off: no term for the bytes of a wide state that
//! stay unread, nor for memory traffic beyond the cache; the ratios say how much any
//! executor could gain at most, not how.

use std::hint::black_box;

use regex_automata::dfa::{Automaton, dense};
use regex_automata::{Input, dfa};
use regex_chess_machine::bound::RuleCounts;
use regex_chess_machine::program::ValidProgram;

use super::{RuleSample, origin_key};

/// Nanoseconds per unit of each term of the bound.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Prices {
    /// A match found and its replacement's bookkeeping, beyond its bytes.
    pub per_match: f64,
    /// A byte a rule must see, walked by a DFA.
    pub per_byte_seen: f64,
    /// A byte written (copied).
    pub per_byte_written: f64,
    /// A byte scanned for a literal (memmem): each byte written once, and the floor's
    /// bytes to see.
    pub per_byte_literal: f64,
}

/// The bound of a rule or a run split by term, in nanoseconds.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Bound {
    /// Matches.
    pub matches: f64,
    /// Bytes seen.
    pub seen: f64,
    /// Bytes written, copied and scanned for literals.
    pub written: f64,
}

impl Bound {
    /// The sum of the terms, nanoseconds.
    pub fn total(&self) -> f64 {
        self.matches + self.seen + self.written
    }

    fn add(&mut self, other: Bound) {
        self.matches += other.matches;
        self.seen += other.seen;
        self.written += other.written;
    }
}

/// A state-like text of about `len` bytes: threads with a stack, a board and registers.
fn sample_text(len: usize) -> Vec<u8> {
    let thread = "%%\n#stack:\n1011\n#board: rnbqkbnr/pppppppp/......../......../....P.../\
                  ......../PPPP.PPP/RNBQKBNR\n#turn: b\n#_12: 0110101\n#moves: ;e7e5;d7d5\n";
    thread.bytes().cycle().take(len).collect()
}

const SAMPLE: usize = 256 * 1024;
const TRIALS: usize = 7;

/// The calling thread's CPU time in nanoseconds (the clock elsewhere, as in a browser).
#[cfg(not(target_arch = "wasm32"))]
fn now_ns() -> f64 {
    crate::bench::cpu::thread_cpu_ms() * 1e6
}

#[cfg(target_arch = "wasm32")]
fn now_ns() -> f64 {
    use std::time::Instant;
    thread_local!(static START: Instant = Instant::now());
    START.with(|start| start.elapsed().as_nanos() as f64)
}

/// The fastest of [`TRIALS`] runs of `work`, in nanoseconds; `work` is run enough times
/// per trial to last about two milliseconds.
fn fastest(mut work: impl FnMut()) -> f64 {
    let start = now_ns();
    work();
    let once = (now_ns() - start).max(1.0);
    let reps = ((2e6 / once).ceil() as usize).clamp(1, 1000);
    (0..TRIALS)
        .map(|_| {
            let start = now_ns();
            for _ in 0..reps {
                work();
            }
            (now_ns() - start) / reps as f64
        })
        .fold(f64::INFINITY, f64::min)
}

impl Prices {
    /// Times the four kernels now (about a second on a busy 2-core machine).
    pub fn measure() -> Prices {
        let text = sample_text(SAMPLE);
        let bytes = text.len() as f64;
        let finder = memchr::memmem::Finder::new("#_99: ");
        let per_byte_literal = fastest(|| {
            black_box(finder.find(black_box(&text)));
        }) / bytes;
        let mut copy = Vec::with_capacity(text.len());
        let per_byte_written = fastest(|| {
            copy.clear();
            copy.extend_from_slice(black_box(&text));
            black_box(&copy);
        }) / bytes;
        let config = dense::Config::new().accelerate(false);
        let absent = dense::Builder::new()
            .configure(config.clone())
            .build("#zz: [01]+\n")
            .expect("a small pattern builds");
        let per_byte_seen = fastest(|| {
            let found = absent.try_search_fwd(&Input::new(black_box(&text)));
            black_box(found.expect("a dense DFA without quit bytes does not fail"));
        }) / bytes;
        // Dense matches: every thread's `#turn: b` line.
        let regex = dfa::regex::Builder::new()
            .dense(config)
            .build("#turn: [bw]\n")
            .expect("a small pattern builds");
        let matches = regex.find_iter(&text).count().max(1) as f64;
        let replacement = b"#turn: w\n";
        let mut out = Vec::with_capacity(text.len());
        let dense_run = fastest(|| {
            out.clear();
            for found in regex.find_iter(black_box(&text)) {
                black_box(found.end());
                out.extend_from_slice(replacement);
            }
            black_box(&out);
        });
        let per_match = ((dense_run
            - per_byte_seen * bytes
            - per_byte_written * replacement.len() as f64 * matches)
            / matches)
            .max(0.0);
        Prices {
            per_match,
            per_byte_seen,
            per_byte_written,
            per_byte_literal,
        }
    }

    /// What `counts` cost at least, by term.
    pub fn bound(&self, counts: &RuleCounts) -> Bound {
        Bound {
            matches: self.per_match * counts.matches as f64,
            seen: self.per_byte_seen * counts.must_see as f64,
            written: (self.per_byte_written + self.per_byte_literal) * counts.written as f64,
        }
    }

    /// The least any executor reading the must-see segments can do: `counts`' matches
    /// and writes as in [`Prices::bound`], its must-see bytes at the literal search's rate
    /// and only its matched bytes at the DFA's.
    pub fn floor(&self, counts: &RuleCounts) -> Bound {
        Bound {
            seen: self.per_byte_literal * counts.must_see as f64
                + self.per_byte_seen * counts.matched as f64,
            ..self.bound(counts)
        }
    }

    /// One line naming the prices.
    pub fn describe(&self) -> String {
        format!(
            "prices on this machine: {:.1} ns a match, {:.3} ns a byte seen (DFA), \
             {:.3} ns a byte written (copy) + {:.3} (memmem, the literal search)",
            self.per_match, self.per_byte_seen, self.per_byte_written, self.per_byte_literal
        )
    }
}

/// One origin's bound beside its measured time.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct BoundRow {
    /// `file:line` of the DSL call (or the origin's text).
    pub location: String,
    /// The instruction lowered.
    pub instruction: String,
    /// Rules of this origin.
    pub rules: usize,
    /// Measured nanoseconds over its rules.
    pub measured: u64,
    /// The bound over its rules.
    pub bound: Bound,
    /// The counts summed over its rules.
    pub counts: RuleCounts,
}

/// Sums the counts, the bound and the measured samples by origin, the largest gap
/// (measured less bound) first.
pub fn by_origin(
    program: &ValidProgram,
    counts: &[RuleCounts],
    samples: &[RuleSample],
    prices: &Prices,
) -> Vec<BoundRow> {
    let mut index = std::collections::HashMap::new();
    let mut rows: Vec<BoundRow> = Vec::new();
    for ((rule, c), sample) in program.rules().iter().zip(counts).zip(samples) {
        let key = origin_key(&rule.origin);
        let at = *index.entry(key.clone()).or_insert_with(|| {
            rows.push(BoundRow {
                location: key.0,
                instruction: key.1,
                ..BoundRow::default()
            });
            rows.len() - 1
        });
        let row = &mut rows[at];
        row.rules += 1;
        row.measured += sample.nanos;
        row.bound.add(prices.bound(c));
        row.counts = row.counts.plus(*c);
    }
    let gap = |r: &BoundRow| r.measured as f64 - r.bound.total();
    rows.sort_by(|a, b| gap(b).total_cmp(&gap(a)).then(a.location.cmp(&b.location)));
    rows
}

/// The bound of a whole run.
pub fn total(counts: &[RuleCounts], prices: &Prices) -> Bound {
    let mut sum = Bound::default();
    counts.iter().for_each(|c| sum.add(prices.bound(c)));
    sum
}

/// The floor of a whole run ([`Prices::floor`]).
pub fn floor(counts: &[RuleCounts], prices: &Prices) -> Bound {
    let mut sum = Bound::default();
    counts.iter().for_each(|c| sum.add(prices.floor(c)));
    sum
}

/// The `top` rows as a table (milliseconds), with the run's totals last.
pub fn render(rows: &[BoundRow], top: usize) -> String {
    let ms = |ns: f64| ns / 1e6;
    let mut out = format!(
        "{:>9} {:>9} {:>7} {:>9} {:>12} {:>10}  {}\n",
        "ms", "bound ms", "ratio", "matches", "must see B", "written B", "origin"
    );
    let line = |out: &mut String, measured: f64, bound: f64, c: &RuleCounts, name: &str| {
        out.push_str(&format!(
            "{:>9.3} {:>9.3} {:>7} {:>9} {:>12} {:>10}  {name}\n",
            ms(measured),
            ms(bound),
            ratio(measured, bound),
            c.matches,
            c.must_see,
            c.written,
        ));
    };
    for row in rows.iter().take(top) {
        let name = format!("{} {}", row.location, row.instruction);
        line(
            &mut out,
            row.measured as f64,
            row.bound.total(),
            &row.counts,
            name.trim_end(),
        );
    }
    let measured: f64 = rows.iter().map(|r| r.measured as f64).sum();
    let bound: f64 = rows.iter().map(|r| r.bound.total()).sum();
    let counts = rows
        .iter()
        .fold(RuleCounts::default(), |a, r| a.plus(r.counts));
    line(&mut out, measured, bound, &counts, "total");
    out
}

/// `measured / bound` as text (`-` when the bound is 0).
pub fn ratio(measured: f64, bound: f64) -> String {
    if bound > 0.0 {
        format!("{:.1}x", measured / bound)
    } else {
        "-".to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use regex_chess_machine::bound;
    use regex_chess_machine::program::{Origin, Program, Rule};

    #[test]
    fn prices_are_positive_and_a_rule_is_priced_by_its_counts() {
        let prices = Prices::measure();
        assert!(prices.per_byte_seen > 0.0 && prices.per_byte_written > 0.0);
        assert!(prices.per_byte_literal > 0.0 && prices.per_match >= 0.0);
        let fixed = Prices {
            per_match: 10.0,
            per_byte_seen: 1.0,
            per_byte_written: 0.5,
            per_byte_literal: 0.25,
        };
        let counts = RuleCounts {
            state: 1000,
            matches: 2,
            must_see: 100,
            written: 8,
            matched: 4,
        };
        let b = fixed.bound(&counts);
        assert_eq!((b.matches, b.seen, b.written), (20.0, 100.0, 6.0));
        assert_eq!(b.total(), 126.0);
        // The floor: 100 bytes at the literal search's 0.25, 4 matched at the DFA's 1.
        let f = fixed.floor(&counts);
        assert_eq!((f.matches, f.seen, f.written), (20.0, 25.0 + 4.0, 6.0));
    }

    #[test]
    fn origins_sum_their_rules_bounds() {
        let at = |line| Origin::Emitted {
            instruction: "set".into(),
            file: "src/y.rs".into(),
            line,
            column: 1,
        };
        let program = Program::from_rules(vec![
            Rule::new("q", "bb").with_origin(at(1)),
            Rule::new("z", "c").with_origin(at(2)),
            Rule::new("#x: ", "#x: ").with_origin(at(2)),
        ])
        .validate()
        .unwrap();
        let state = "%%\n#stack:\n#x: q\n%%\n#stack:\n#x: z\n";
        let counted = bound::count(&program, state);
        let prices = Prices {
            per_match: 100.0,
            per_byte_seen: 1.0,
            per_byte_written: 1.0,
            per_byte_literal: 0.0,
        };
        let samples = vec![
            RuleSample {
                nanos: 1000,
                ..RuleSample::default()
            };
            3
        ];
        let rows = by_origin(&program, &counted.rules, &samples, &prices);
        let second = rows.iter().find(|r| r.location == "src/y.rs:2").unwrap();
        // `z`: one match, one 17-byte thread, one byte written; `#x: `: two matches,
        // both threads (the first grew to 18 bytes with `bb`), eight bytes written.
        assert_eq!(second.rules, 2);
        assert_eq!(
            second.bound.total(),
            100.0 + 17.0 + 1.0 + 200.0 + 35.0 + 8.0
        );
        assert_eq!(second.measured, 2000);
        let first = rows.iter().find(|r| r.location == "src/y.rs:1").unwrap();
        assert_eq!(first.bound.total(), 100.0 + 17.0 + 2.0);
        let table = render(&rows, 5);
        assert!(table.contains("src/y.rs:2 set") && table.contains("total"));
        assert_eq!(
            total(&counted.rules, &prices).total(),
            rows.iter().map(|r| r.bound.total()).sum::<f64>()
        );
    }
}
