//! The `regex-chess` binary: a thin wrapper over [`regex_chess::cli`].

use mimalloc::MiMalloc;

#[global_allocator]
static GLOBAL: MiMalloc = MiMalloc;

fn main() -> std::process::ExitCode {
    regex_chess::cli::main()
}
