//! A small program written with the tracing DSL, compiled and run.
//!
//! Each thread is a candidate move: the moving `piece` (an enumeration) and the material
//! `gain` (an 8-bit integer). The program scores each move (a king move costs 2, a pawn
//! capture earns 1 more), keeps the best thread, and writes a line of text about it.
//!
//! Run it with `cargo run --example tiny`.

use regex_chess_compiler::dsl::{Builder, Value, kind};
use regex_chess_compiler::encode::{self, Thread};
use regex_chess_compiler::ir::{Best, EnumDef};
use regex_chess_compiler::{self as compiler, CompileOptions, report::RuleStats};
use regex_chess_machine::exec::{Executor, reference::Reference};

static PIECE: EnumDef = EnumDef {
    name: "piece",
    variants: &["P", "N", "B", "R", "Q", "K"],
};

const BITS: u8 = 8;

/// A DSL function: plain Rust that records instructions. Calling it twice records twice.
fn adjust(b: &mut Builder, score: &Value<kind::Int>, by: i64) -> Value<kind::Int> {
    let delta = b.int(BITS, by);
    b.add(score, &delta)
}

fn main() {
    let mut b = Builder::new("tiny", "score candidate moves and keep the best");
    let piece = b.input_enum("piece", &PIECE);
    let gain = b.input_int("gain", BITS);

    let king = b.variant(&PIECE, "K");
    let is_king = b.eq(&piece, &king);
    // Both branches are recorded; each thread follows the one its condition picks.
    let score = b.if_else(&is_king, |b| adjust(b, &gain, -2), |_| gain.clone());
    // Comparing with a constant's text needs no constant on the stack.
    let is_pawn = b.eq_text(&piece, "P");
    let zero = b.int(BITS, 0);
    let captures = b.gt(&gain, &zero);
    let pawn_capture = b.and(&is_pawn, &captures);
    let score = b.if_else(&pawn_capture, |b| adjust(b, &score, 1), |_| score.clone());

    // Keep the best thread (ties: the earliest), then describe it.
    b.keep_best(&score, 8, Best::Max);
    // Any value's text can be used as a string: here the piece's name and the score's
    // binary digits, mapped through a character table.
    let prefix = b.str("best move: ");
    let name = b.text_of(&piece);
    let text = b.concat(&prefix, &name);
    let digits = b.text_of(&score);
    let digits = b.map_chars(&digits, &[('0', "o"), ('1', "i")], BITS as usize);
    let spaced = b.str(" scoring ");
    let text = b.concat(&text, &spaced);
    let text = b.concat(&text, &digits);
    b.output("score", &score);
    b.output("text", &text);

    let compiled = compiler::compile(b.finish(), &CompileOptions::default());
    print!("{}", compiled.report);
    print!("{}", RuleStats::of(&compiled.program));

    let moves = [("N", 3), ("K", 3), ("P", 3), ("Q", -1)];
    let threads: Vec<Thread> = moves
        .iter()
        .map(|(piece, gain)| {
            let gain = encode::int(BITS, *gain);
            Thread::active(&[], &[("piece", piece), ("gain", &gain)])
        })
        .collect();
    let program = compiled
        .program
        .validate()
        .expect("the compiler emits valid rules");
    let out = Reference::new(program)
        .run(&encode::render(&threads))
        .unwrap();
    println!("final state:\n{out}");
    let winner = &encode::threads(&out)[0];
    let score = encode::decode_int(winner.var("score").unwrap()).unwrap();
    println!("score {score}: {}", winner.var("text").unwrap());
}
