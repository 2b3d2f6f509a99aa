//! What a program-cache hit pays to trust its file, against what it would pay to validate
//! the program again (see `crates/engine/src/cache.rs`, and docs/perf-history.md,
//! "Program-cache hits").
//!
//! `cache_hit_cost NAME` loads program `NAME` through the cache named by the environment
//! (`REGEX_CHESS_CACHE`, ...; a miss compiles and stores it first), then prints the time of
//! the checksum over its two cache files (the program and its parses, averaged over 100
//! passes) and the time of one `Program::validate` of its rules, the check a hit skips.

use std::time::Instant;

use regex_chess_compiler::CompileOptions;
use regex_chess_engine as engine;
use regex_chess_engine::cache::ProgramCache;
use regex_chess_machine::program::wire::checksum;

fn main() {
    let name = std::env::args().nth(1).unwrap_or_else(|| "move".into());
    let Some(cache) = ProgramCache::from_env() else {
        eprintln!("the program cache is turned off");
        std::process::exit(2);
    };
    let options = CompileOptions::default();
    let loaded = cache.load_or_compile(&name, &options, || {
        engine::compile_valid(&name, &CompileOptions::default())
    });
    let program = match loaded.program {
        Ok(program) => program,
        Err(e) => {
            eprintln!("cannot compile {name}: {e}");
            std::process::exit(1);
        }
    };
    println!(
        "{name}: from {:?}, warnings {:?}",
        loaded.source, loaded.warnings
    );

    let files = [
        cache.path(&name, &options),
        cache.parses_path(&name, &options),
    ];
    let bytes: Vec<Vec<u8>> = files.iter().filter_map(|f| std::fs::read(f).ok()).collect();
    let size: usize = bytes.iter().map(Vec::len).sum();
    const PASSES: u32 = 100;
    let start = Instant::now();
    for _ in 0..PASSES {
        for file in &bytes {
            std::hint::black_box(checksum(std::hint::black_box(file)));
        }
    }
    let per_pass = start.elapsed() / PASSES;
    println!(
        "checksum of {} files, {size} bytes: {per_pass:?} a hit",
        bytes.len()
    );

    let rules = program.rules().len();
    let start = Instant::now();
    let valid = program.into_program().validate();
    let took = start.elapsed();
    match valid {
        Ok(valid) => println!(
            "validate {rules} rules ({} distinct patterns): {took:?}",
            valid.distinct_patterns()
        ),
        Err(e) => println!("validate {rules} rules: {took:?}, rejected: {e}"),
    }
}
