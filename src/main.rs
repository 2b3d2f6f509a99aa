//! `regex-chess`: the command line over the libraries of `crates/` (the machine, the
//! compiler, the chess program, the arena, the engine, Banqi).
//!
//! It parses arguments, builds input states, runs programs and prints what they answer;
//! nothing here decides a chess move (see [`cli`]).
//!
//! It uses the system allocator. mimalloc (still used by the criterion benches) held
//! about 35 MB more resident memory for the same live heap (a `play` process answering
//! kiwipete's move: 86 MB against 51 MB) for the same instruction count and no
//! measurable difference in time per move (see PERF.md).

mod cli;

fn main() -> std::process::ExitCode {
    cli::main()
}
