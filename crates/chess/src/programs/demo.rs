//! Small demonstration programs: each exercises a part of the instruction set and has a
//! documented input state, so it can be run with `regex-chess run`.

use regex_chess_compiler::dsl::Builder;
use regex_chess_compiler::ir::{Best, IrProgram, Scalar};

/// Integer width of the demos.
pub const BITS: u8 = 16;

/// `demo-arith`. Input: one or more threads with 16-bit variables `a`, `b`, `c`.
/// Output variables: `sum = a + b - c`, `max = max(a, b)`, `diff = |a - c|`,
/// `big = sum > c`.
pub fn arith() -> IrProgram {
    let mut b = Builder::new(
        "demo-arith",
        "Threads hold 16-bit a, b, c (offset binary). Sets sum = a + b - c, \
         max = max(a, b), diff = |a - c|, big = sum > c.",
    );
    let x = b.input_int("a", BITS);
    let y = b.input_int("b", BITS);
    let z = b.input_int("c", BITS);
    let ab = b.add(&x, &y);
    let sum = b.sub(&ab, &z);
    let x_wins = b.gt(&x, &y);
    let max = b.if_else(&x_wins, |_| x.clone(), |_| y.clone());
    let d = b.sub(&x, &z);
    let zero = b.int(BITS, 0);
    let below = b.lt(&d, &zero);
    let diff = b.if_else(&below, |b| b.neg(&d), |_| d.clone());
    let big = b.gt(&sum, &z);
    b.output("sum", &sum);
    b.output("max", &max);
    b.output("diff", &diff);
    b.output("big", &big);
    b.finish()
}

/// `demo-max`. Input: one thread with `xs`, a list of up to 16 16-bit scores, and a
/// 16-bit `bonus`. Each element becomes a thread and gets the bonus if it is positive;
/// the adjusted scores are gathered into `all`, forked over again, and the thread with
/// the highest one survives (ties: the earliest element) with `best` set to it.
pub fn max() -> IrProgram {
    let mut b = Builder::new(
        "demo-max",
        "One thread holding xs (a list of up to 16 16-bit scores) and bonus. Adds bonus \
         to each positive score, sets all = the adjusted list and keeps the thread with \
         the best score as best.",
    );
    let xs = b.input_list("xs", Scalar::Int { bits: BITS });
    let bonus = b.input_int("bonus", BITS);
    let x = b.fork_list(&xs, 16);
    let zero = b.int(BITS, 0);
    let positive = b.gt(&x, &zero);
    let adjusted = b.if_else(&positive, |b| b.add(&x, &bonus), |_| x.clone());
    let all = b.gather(&adjusted, 16);
    let mine = b.fork_list(&all, 16);
    b.keep_best(&mine, 16, Best::Max);
    b.output("all", &all);
    b.output("best", &mine);
    b.finish()
}
