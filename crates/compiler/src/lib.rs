//! The tracing compiler: Rust code in, a list of regex rules out.
//!
//! It is built like a small macro assembler:
//!
//! 1. [`dsl::Builder`] *records* what a program does. Values are handles on variables;
//!    each operation appends instructions ([`ir::Instruction`]) to a flat list, with the
//!    source location of the DSL call.
//! 2. Passes ([`passes`]) rewrite the list: constant inlining, dead-variable elimination,
//!    peephole clean-ups, joins. Each can be switched off in [`CompileOptions`] (and on
//!    the command line: `--no-const-inline`, `--no-dead-var-elim`, `--no-peephole`,
//!    `--no-joins`); the
//!    [`report::PassReport`] shows instructions, rules and peak variables after each.
//! 3. Lowering ([`lower`]) turns each instruction into a few `(pattern, replacement)`
//!    rules. No pattern has a backreference or a look-around; every one compiles with the
//!    `regex` crate.
//!
//! # The state
//!
//! ```text
//! %%            an active thread
//! #stack:
//! 1000          the top of the stack
//! T             the value below it
//! #x: e4        a variable, one a line
//! %e3           a thread paused by the else-tag of conditional 3
//! #stack:
//! %/1           a group boundary (see gather, tournament and keep-top)
//! ```
//!
//! - `%` only starts a thread (`%%` active, `%<tag>` paused, tags made of letters, digits
//!   and `_`) or a group boundary `%/<level>`. Values never contain `%` or a newline and
//!   never start with `#` (or `!`, which marks an instruction's scratch lines).
//! - Every instruction's patterns start with `%%\n#stack:\n`: they only touch active
//!   threads. Only fork, destroy, groups, gather, tournament and keep-top reach across
//!   threads.
//!   One rule advances every active thread at once: that is the machine's SIMD.
//! - Encodings are in [`encode`]: `T`/`F`, enum variant names, integers in `n`-digit
//!   offset binary (signed order = string order; arithmetic wraps), lists as
//!   `;e1;e2` (empty list = empty text).
//!
//! # The instruction set
//!
//! | family | instructions | file |
//! | --- | --- | --- |
//! | stack | push, pop, dup, swap | [`lower::stack`] |
//! | variables | lookup, assign, define, delete, take | [`lower::vars`] |
//! | values | not, and, or, compare (bool, enum, int), eq_text (any type), add, sub, neg | [`lower::values`] |
//! | control | cond, cond_not, pause, reactivate | [`lower::control`] |
//! | threads | fork, fork_bool, fork_list, destroy, mark/unmark groups, gather, tournament; keep_top | [`lower::threads`]; [`lower::keep_top`] |
//! | text | list_push, concat, slice, map_chars, split, join, matches | [`lower::strings`] |
//!
//! Each lowering file's documentation gives its rules, their cost and what happens on an
//! empty stack or a missing variable (in short: the rule does not match, so the thread is
//! left as it was).
//!
//! # Threads
//!
//! A program runs on every active thread at once. `if_else` pauses the threads that take
//! the other branch, so a branch body never touches them. Forks multiply threads (a copy,
//! a true/false pair, one per list element); `gather` and `keep_best` reduce each *run* of
//! adjacent active threads to one, in `O(log n)` rules for a compile-time bound `n`
//! (`keep_top` to its best `k`, in `O(k log n)` rules). A
//! paused thread or a group boundary ends a run: `grouped(|b| ...)` puts a boundary
//! before every active thread, so that after forking, a reduction stays within each
//! original thread's descendants (a min over replies per move, then a max over moves).
//!
//! # Writing a program
//!
//! ```
//! use regex_chess_compiler::{self as compiler, CompileOptions, dsl::Builder, encode, ir::Best};
//! use regex_chess_machine::exec::{Executor, reference::Reference};
//!
//! // max(x - y, 0) for each thread, then keep the thread with the highest result.
//! let mut b = Builder::new("example", "clamp then pick the best thread");
//! let x = b.input_int("x", 8);
//! let y = b.input_int("y", 8);
//! let d = b.sub(&x, &y);
//! let zero = b.int(8, 0);
//! let negative = b.lt(&d, &zero);
//! let r = b.if_else(&negative, |_| zero.clone(), |_| d.clone());
//! b.keep_best(&r, 4, Best::Max);
//! b.output("r", &r);
//! let compiled = compiler::compile(b.finish(), &CompileOptions::default());
//!
//! let state: String = [(5, 9), (7, 3), (1, 1)]
//!     .iter()
//!     .map(|&(x, y)| {
//!         let (x, y) = (encode::int(8, x), encode::int(8, y));
//!         encode::Thread::active(&[], &[("x", &x), ("y", &y)])
//!     })
//!     .map(|t| encode::render(&[t]))
//!     .collect();
//! let exec = Reference::new(compiled.program.validate().unwrap());
//! let out = encode::threads(&exec.run(&state).unwrap());
//! assert_eq!(out.len(), 1);
//! assert_eq!(encode::decode_int(out[0].var("r").unwrap()), Some(4));
//! ```
//!
//! See `examples/tiny.rs` for a runnable program (`cargo run --example tiny`) and
//! `programs` of `regex-chess-chess` for the registered ones (`regex-chess compile --program NAME
//! --stats --ir` shows what a program became).

pub mod dsl;
pub mod encode;
pub mod ir;
pub mod lower;
pub mod passes;
pub mod report;
pub mod types;
pub mod verify;

use ir::IrProgram;
use regex_chess_machine::program::Program;
use report::{PassReport, Stage};

/// Which passes run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CompileOptions {
    /// Push single-assignment constants where they are used instead of storing them.
    pub const_inline: bool,
    /// Delete variables after their last use.
    pub dead_var_elim: bool,
    /// Remove do-nothing instruction sequences.
    pub peephole: bool,
    /// Fewer control rules where the branches of an `if` meet ([`passes::joins`]).
    pub joins: bool,
}

impl Default for CompileOptions {
    fn default() -> Self {
        CompileOptions {
            const_inline: true,
            dead_var_elim: true,
            peephole: true,
            joins: true,
        }
    }
}

impl CompileOptions {
    /// No pass at all: the rules of the instructions as recorded.
    pub fn none() -> CompileOptions {
        CompileOptions {
            const_inline: false,
            dead_var_elim: false,
            peephole: false,
            joins: false,
        }
    }
}

/// The result of a compilation.
#[derive(Clone, Debug)]
pub struct Compilation {
    /// The instruction list after the passes.
    pub ir: IrProgram,
    /// The rules.
    pub program: Program,
    /// What each pass did.
    pub report: PassReport,
}

/// Runs the enabled passes on `ir` and lowers the result.
pub fn compile(ir: IrProgram, options: &CompileOptions) -> Compilation {
    let mut report = PassReport::default();
    // Debug builds and tests check the IR as recorded and after every pass.
    let check = |ir: &IrProgram, stage: &str| {
        if cfg!(debug_assertions) {
            verify::assert_valid(ir, stage);
        }
    };
    check(&ir, "as recorded");
    report.stages.push(Stage::measure("recorded", &ir));
    let mut ir = ir;
    if options.const_inline {
        ir = passes::constants::run(&ir);
        check(&ir, "after const-inline");
        report.stages.push(Stage::measure("const-inline", &ir));
    }
    if options.dead_var_elim {
        ir = passes::dead_vars::run(&ir);
        check(&ir, "after dead-var-elim");
        report.stages.push(Stage::measure("dead-var-elim", &ir));
    }
    if options.peephole {
        ir = passes::peephole::run(&ir);
        check(&ir, "after peephole");
        report.stages.push(Stage::measure("peephole", &ir));
    }
    if options.joins {
        ir = passes::peephole::run(&passes::joins::run(&ir));
        check(&ir, "after joins");
        report.stages.push(Stage::measure("joins", &ir));
    }
    // Acts only on groups that promise to end with one thread (see the pass); last, so
    // that no pass moves instructions around the lines it keeps in the boundaries.
    ir = passes::group_stash::run(&ir);
    check(&ir, "after group-stash");
    let program = lower::lower(&ir);
    Compilation {
        ir,
        program,
        report,
    }
}
