//! What the search reports besides its move, in rules: the number of positions it
//! visited, counted in unary through the tournaments, and the score and count written in
//! decimal for the output text (see the `move` contract in `crates/chess/src/lib.rs`).
//!
//! # Counting
//!
//! A count is a string of [`TALLY`] characters, one per position: adding two counts is a
//! concatenation. [`keep_best_counting`] is the compiler's tournament (the same pairs,
//! the same rule for ties: the earlier thread stays) with one more line under the key: in
//! each pair both threads get the two counts joined, so the thread left holds the sum of
//! the run's counts. The counts cost a few bytes a thread and no rule of their own.
//!
//! # Decimal
//!
//! [`decimal`] turns a count into decimal digits with a fixed list of rules (tens,
//! hundreds, ... as letters, then each run of letters becomes its digit), and
//! [`score_text`] a score (units of 5 cp) into `cp <int>` or `mate <int>`. Both run on
//! the single thread left at the end of a program: [`decimal`]'s first rules are not
//! anchored at a thread's head, so no other [`TALLY`] may be in the state then.

use super::evaluate::{self, SCORE_BITS};
use super::stack_rules::on_stack;
use super::weights;
use regex_chess_compiler::dsl::{Builder, Value, kind};
use regex_chess_compiler::ir::{Instruction, Type};

/// The character a count is written with, one per position.
pub const TALLY: char = '|';

/// The head of an active thread, captured as group 1.
const HEAD: &str = "(%%\n#stack:\n)";

/// The number of tournament rounds for runs of up to `n` threads.
fn rounds_for(n: usize) -> usize {
    let mut rounds = 0;
    while (1usize << rounds) < n {
        rounds += 1;
    }
    rounds
}

/// A count of one position.
#[track_caller]
pub fn one(b: &mut Builder) -> Value<kind::Str> {
    b.str(&TALLY.to_string())
}

/// Keeps, in each run of adjacent active threads (at most `max_threads`), the thread with
/// the largest `key` (ties: the earliest thread), exactly as
/// [`Builder::keep_best`] with [`regex_chess_compiler::ir::Best::Max`] does; returns, in the
/// thread left, the sum of the run's `count`s.
#[track_caller]
pub fn keep_best_counting(
    b: &mut Builder,
    key: &Value<kind::Int>,
    count: &Value<kind::Str>,
    max_threads: usize,
) -> Value<kind::Str> {
    let mut joined = keep_best_joining(b, key, &[count], max_threads);
    joined.remove(0)
}

/// [`keep_best_counting`] for several strings at once: returns, in the thread left, each
/// of `texts` joined over the run, in thread order (a count of [`TALLY`]s joined is a
/// sum; texts starting with `;` joined are a list). No text may hold a newline or `%`.
#[track_caller]
pub fn keep_best_joining(
    b: &mut Builder,
    key: &Value<kind::Int>,
    texts: &[&Value<kind::Str>],
    max_threads: usize,
) -> Vec<Value<kind::Str>> {
    let n = key.bits() as usize;
    let m = texts.len();
    assert!(m > 0, "at least one text to join");
    let digits = "([01])".repeat(n);
    let lines = "([^\n]*)\n".repeat(m);
    // Groups: 1 head, 2..=n+1 A's digits, then A's m texts, A's rest and B's head, B's
    // n digits, B's m texts.
    let pair = format!("{HEAD}{digits}\n{lines}([^%]*%%\n#stack:\n){digits}\n{lines}");
    let (a, t_a) = (2, n + 2);
    let mid = t_a + m;
    let (bd, t_b) = (mid + 1, mid + 1 + n);
    let mut replacement = String::from("${1}!");
    for i in 0..n {
        replacement.push_str(&format!("${{{}}}${{{}}}", a + i, bd + i));
    }
    replacement.push('\n');
    let sums: String = (0..m)
        .map(|j| format!("${{{}}}${{{}}}\n", t_a + j, t_b + j))
        .collect();
    for i in 0..n {
        replacement.push_str(&format!("${{{}}}", a + i));
    }
    replacement.push_str(&format!("\n{sums}${{{mid}}}"));
    for i in 0..n {
        replacement.push_str(&format!("${{{}}}", bd + i));
    }
    replacement.push_str(&format!("\n{sums}"));
    let mut rules = Vec::new();
    for _ in 0..rounds_for(max_threads) {
        rules.push((pair.clone(), replacement.clone()));
        // B strictly better (the first differing pair is `01`): A goes.
        rules.push((
            "%%\n#stack:\n!(?:00|11)*01[01]*\n[^%]*(%%\n)".to_string(),
            "${1}".to_string(),
        ));
        // Otherwise B goes, and the scratch line.
        rules.push((
            format!("{HEAD}![01]*\n([^%]*)%%\n[^%]*"),
            "${1}${2}".to_string(),
        ));
    }
    // The key goes; the texts are left, the first on top.
    rules.push((format!("{HEAD}[^\n]*\n"), "${1}".to_string()));
    let mut inputs: Vec<&regex_chess_compiler::ir::Var> =
        texts.iter().rev().map(|t| t.var()).collect();
    inputs.push(key.var());
    let first = on_stack(b, "keep_best_counting", &inputs, rules, Type::Str);
    let mut joined = vec![first];
    // The other texts wait below it, in order: each becomes a value in turn.
    for _ in 1..m {
        let next: Value<kind::Str> = b.fresh(Type::Str);
        b.emit(Instruction::Define(next.var().clone()));
        joined.push(next);
    }
    joined
}

/// Rules turning the top value, a count in [`TALLY`]s, into its decimal digits (`0` for
/// none). The first five are not anchored (see the module doc).
fn decimal_rules() -> Vec<(String, String)> {
    let t = regex::escape(&TALLY.to_string());
    let letters = ['X', 'C', 'M', 'D', 'E'];
    let mut rules = vec![(format!("{t}{{10}}"), "X".to_string())];
    for w in letters.windows(2) {
        rules.push((format!("{}{{10}}", w[0]), w[1].to_string()));
    }
    // Runs, largest first, between `=` and `:`s: `=E*:D*:M*:C*:X*:|*:`.
    rules.push((
        format!("{HEAD}(E*)(D*)(M*)(C*)(X*)((?:{t})*)\n"),
        "${1}=${2}:${3}:${4}:${5}:${6}:${7}:\n".to_string(),
    ));
    let runs = ['E', 'D', 'M', 'C', 'X', TALLY];
    for (i, letter) in runs.iter().enumerate() {
        let l = regex::escape(&letter.to_string());
        for k in (1..=9).rev() {
            rules.push((
                format!("({HEAD}=(?:[^:\n]*:){{{i}}}){l}{{{k}}}:"),
                format!("${{1}}{k}:"),
            ));
        }
        rules.push((
            format!("({HEAD}=(?:[^:\n]*:){{{i}}}):"),
            "${1}0:".to_string(),
        ));
    }
    rules.push((format!("{HEAD}=(?:0:)*"), "${1}".to_string()));
    for _ in 0..runs.len() {
        rules.push((format!("({HEAD}[0-9]*):"), "${1}".to_string()));
    }
    rules.push((format!("{HEAD}\n"), "${1}0\n".to_string()));
    rules
}

/// The decimal text of a count. Takes the count's variable (it is gone afterwards).
#[track_caller]
pub fn decimal(b: &mut Builder, count: &Value<kind::Str>) -> Value<kind::Str> {
    b.emit(Instruction::Take(count.var().clone()));
    b.rules_value("decimal", decimal_rules(), &[], Type::Str)
}

/// The text of `score` (units of 5 cp, from the engine's view) for the `score` line:
/// `mate <n>` when it is [`weights::MATE`] less `plies` for some `plies` in `0..mate_plies`
/// (a mate given `plies + 1` plies from the root: `n = (plies + 2) / 2` moves), `mate
/// -<n>` for its negation (mated), else `cp <centipawns>`.
#[track_caller]
pub fn score_text(b: &mut Builder, score: &Value<kind::Int>, mate_plies: u32) -> Value<kind::Str> {
    mate_from(b, score, 0, mate_plies as i64)
}

/// [`score_text`] for the mates `plies..mate_plies` plies from the root, else
/// centipawns.
#[track_caller]
fn mate_from(
    b: &mut Builder,
    score: &Value<kind::Int>,
    plies: i64,
    mate_plies: i64,
) -> Value<kind::Str> {
    if plies >= mate_plies {
        return centipawns(b, score);
    }
    let mate = evaluate::units(weights::MATE);
    let moves = (plies + 2) / 2;
    let win = b.int(SCORE_BITS, mate - plies);
    let is_win = b.eq(score, &win);
    b.if_else(
        &is_win,
        |b| b.str(&format!("mate {moves}")),
        |b| {
            let loss = b.int(SCORE_BITS, plies - mate);
            let is_loss = b.eq(score, &loss);
            b.if_else(
                &is_loss,
                |b| b.str(&format!("mate -{moves}")),
                |b| mate_from(b, score, plies + 1, mate_plies),
            )
        },
    )
}

/// `cp <centipawns>` of a score in units of 5 cp.
#[track_caller]
fn centipawns(b: &mut Builder, score: &Value<kind::Int>) -> Value<kind::Str> {
    let zero = b.int(SCORE_BITS, 0);
    let negative = b.lt(score, &zero);
    let magnitude = b.if_else(&negative, |b| b.neg(score), |_| score.clone());
    let binary = b.text_of(&magnitude);
    // Offset binary of a non-negative value: a leading 1, then the value's digits.
    let t = TALLY.to_string().repeat(5);
    let mut rules = vec![(format!("{HEAD}1([01]*)\n"), "${1}${2}:\n".to_string())];
    for _ in 1..SCORE_BITS {
        rules.push((
            format!("{HEAD}0([01]*):([^\n]*)\n"),
            "${1}${2}:${3}${3}\n".to_string(),
        ));
        rules.push((
            format!("{HEAD}1([01]*):([^\n]*)\n"),
            format!("${{1}}${{2}}:${{3}}${{3}}{t}\n"),
        ));
    }
    rules.push((format!("{HEAD}:"), "${1}".to_string()));
    rules.extend(decimal_rules());
    let digits: Value<kind::Str> = on_stack(b, "centipawns", &[binary.var()], rules, Type::Str);
    let sign = b.if_else(&negative, |b| b.str("cp -"), |b| b.str("cp "));
    b.concat(&sign, &digits)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Applies `rules` one after the other, as the reference executor does.
    fn apply(rules: &[(String, String)], state: &str) -> String {
        rules.iter().fold(state.to_string(), |s, (p, r)| {
            let re = regex::Regex::new(p).expect("a valid pattern");
            re.replace_all(&s, r.as_str()).into_owned()
        })
    }

    #[test]
    fn counts_are_written_in_decimal() {
        let rules = decimal_rules();
        for n in [
            0usize, 1, 9, 10, 11, 99, 100, 101, 420, 1000, 1010, 9999, 10000, 10001, 123456,
        ] {
            let tally = TALLY.to_string().repeat(n);
            let state = format!("%%\n#stack:\n{tally}\n#v: 1\n");
            assert_eq!(
                apply(&rules, &state),
                format!("%%\n#stack:\n{n}\n#v: 1\n"),
                "{n}"
            );
        }
    }

    #[test]
    fn tournaments_with_counts_sum_them_and_keep_the_earliest_best() {
        let mut b = Builder::new("t", "t");
        let key = b.input_int("k", 4);
        let count = b.input_str("c");
        let id = b.input_str("i");
        let sum = keep_best_counting(&mut b, &key, &count, 8);
        b.output("s", &sum);
        b.output("i", &id);
        let program = regex_chess_compiler::compile(b.finish(), &Default::default())
            .program
            .validate()
            .unwrap();
        let exec = regex_chess_machine::exec::reference::Reference::new(program);
        use regex_chess_compiler::encode::{self, Thread};
        use regex_chess_machine::exec::Executor;
        // Keys 3, 7, 7, -2, 5 with counts 1, 2, 3, 0, 4: the first 7 stays, with 10.
        let threads: Vec<Thread> = [(3, 1), (7, 2), (7, 3), (-2, 0), (5, 4)]
            .iter()
            .enumerate()
            .map(|(i, &(k, c))| {
                let key = encode::int(4, k);
                let tally = TALLY.to_string().repeat(c);
                let id = i.to_string();
                Thread::active(
                    &[],
                    &[
                        ("k", key.as_str()),
                        ("c", tally.as_str()),
                        ("i", id.as_str()),
                    ],
                )
            })
            .collect();
        let out = encode::threads(&exec.run(&encode::render(&threads)));
        assert_eq!(out.len(), 1);
        assert_eq!(out[0].var("s"), Some(TALLY.to_string().repeat(10).as_str()));
        assert_eq!(out[0].var("i"), Some("1"));
    }
}
