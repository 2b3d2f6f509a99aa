//! The `regex-chess` binary: a thin wrapper over [`regex_chess::cli`].
//!
//! It uses the system allocator. mimalloc (still used by the criterion benches) held
//! about 35 MB more resident memory for the same live heap (a `play` process answering
//! kiwipete's move: 86 MB against 51 MB) for the same instruction count and no
//! measurable difference in time per move (see PERF.md).

fn main() -> std::process::ExitCode {
    regex_chess::cli::main()
}
