//! Fuzz target: the program cache on damaged, truncated and concurrent files
//! (`crates/testkit/src/random_input/cache.rs` draws the damage). Each input starts from a cache
//! directory holding the `legal-moves` program and its parsed patterns, damages one or
//! both files (or puts another program's file in their place), then has one to three
//! threads load the program at once. Every load must give the program the compiler
//! gives (its rules and resolved templates), and the fast executor with the parses the
//! load remembered must answer as the reference does; afterwards both files must be
//! whole again (the next load a hit without warnings, the bytes those of a fresh
//! cache) and no temporary file may be left.

#![no_main]

use std::path::{Path, PathBuf};
use std::sync::OnceLock;
use std::sync::atomic::{AtomicUsize, Ordering};

use libfuzzer_sys::fuzz_target;
use regex_chess_compiler::CompileOptions;
use regex_chess_engine::cache::{ProgramCache, Source};
use regex_chess_engine::{self as engine, LoadError};
use regex_chess_machine::exec::Executor;
use regex_chess_machine::exec::fast::{self, Fast};
use regex_chess_machine::exec::reference::Reference;
use regex_chess_machine::program::ValidProgram;

use regex_chess_testkit::random_input;

const PROGRAM: &str = "legal-moves";
const OTHER: &str = "apply-move";
const STATE: &str = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1\n";

/// What every input starts from.
struct Setup {
    program: ValidProgram,
    answer: String,
    /// The files of a fresh cache: the program's and its parses', and another program's.
    good: Vec<u8>,
    good_parses: Vec<u8>,
    other: Vec<u8>,
    other_parses: Vec<u8>,
}

/// A directory of its own for each input.
fn fresh_dir() -> PathBuf {
    static COUNT: AtomicUsize = AtomicUsize::new(0);
    let n = COUNT.fetch_add(1, Ordering::Relaxed);
    std::env::temp_dir().join(format!("regex-chess-fuzz-cache-{}-{n}", std::process::id()))
}

fn options() -> CompileOptions {
    CompileOptions::default()
}

fn setup() -> &'static Setup {
    static SETUP: OnceLock<Setup> = OnceLock::new();
    SETUP.get_or_init(|| {
        let program = engine::compile_valid(PROGRAM, &options()).expect("legal-moves compiles");
        let other = engine::compile_valid(OTHER, &options()).expect("apply-move compiles");
        let answer = Reference::new(program.clone())
            .run(STATE)
            .expect("a registered program stays under the state limit");
        let dir = fresh_dir();
        let cache = ProgramCache::new(&dir, "fuzz");
        let read = |path: &Path| std::fs::read(path).expect("a fresh cache file");
        let _ = cache.load_or_compile(PROGRAM, &options(), || Ok::<_, LoadError>(program.clone()));
        let _ = cache.load_or_compile(OTHER, &options(), || Ok::<_, LoadError>(other.clone()));
        let setup = Setup {
            good: read(&cache.path(PROGRAM, &options())),
            good_parses: read(&cache.parses_path(PROGRAM, &options())),
            other: read(&cache.path(OTHER, &options())),
            other_parses: read(&cache.parses_path(OTHER, &options())),
            program,
            answer,
        };
        let _ = std::fs::remove_dir_all(&dir);
        fast::forget_parses();
        setup
    })
}

/// Loads the program through `cache` and checks it; the problem, if any.
fn load_and_check(cache: &ProgramCache, setup: &Setup) -> Result<(), String> {
    let loaded = cache.load_or_compile(PROGRAM, &options(), || {
        Ok::<_, LoadError>(setup.program.clone())
    });
    let program = loaded.program.map_err(|e| format!("no program: {e}"))?;
    if program.program() != setup.program.program() {
        return Err(format!("another program was loaded ({:?})", loaded.source));
    }
    for index in 0..program.rules().len() {
        if program.template(index) != setup.program.template(index) {
            return Err(format!("the template of rule {index} differs"));
        }
    }
    let answer = Fast::new(program)
        .run(STATE)
        .map_err(|e| format!("with the remembered parses the run stops: {e}"))?;
    if answer != setup.answer {
        return Err(format!(
            "with the remembered parses the answer differs: {answer:?}"
        ));
    }
    Ok(())
}

fuzz_target!(|data: &[u8]| {
    let setup = setup();
    let mut bytes = random_input::Bytes::new(data);
    let dir = fresh_dir();
    std::fs::create_dir_all(&dir).expect("a temporary directory");
    let cache = ProgramCache::new(&dir, "fuzz");
    let (path, parses) = (
        cache.path(PROGRAM, &options()),
        cache.parses_path(PROGRAM, &options()),
    );
    let program_damage = random_input::cache::damages(&mut bytes);
    let parses_damage = random_input::cache::damages(&mut bytes);
    std::fs::write(
        &path,
        random_input::cache::apply(&setup.good, &setup.other, &program_damage),
    )
    .expect("write");
    let swapped = if bytes.chance(128) {
        &setup.other_parses
    } else {
        &setup.other
    };
    std::fs::write(
        &parses,
        random_input::cache::apply(&setup.good_parses, swapped, &parses_damage),
    )
    .expect("write");
    if bytes.chance(8) {
        // A directory where the program's file should be: it cannot be read nor
        // replaced, and the program must still come.
        let _ = std::fs::remove_file(&path);
        std::fs::create_dir_all(path.join("x")).expect("a directory");
    }
    let blocked = path.is_dir();
    let threads = 1 + bytes.below(3);
    let results: Vec<Result<(), String>> = std::thread::scope(|scope| {
        let handles: Vec<_> = (0..threads)
            .map(|_| scope.spawn(|| load_and_check(&cache, setup)))
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().expect("a loader"))
            .collect()
    });
    for result in results {
        if let Err(e) = result {
            panic!("{e}\nprogram damage {program_damage:?}\nparses damage {parses_damage:?}");
        }
    }
    // Rebuilt: the next load is a hit without warnings, the files are a fresh cache's.
    if !blocked {
        let again = cache.load_or_compile(PROGRAM, &options(), || {
            Ok::<_, LoadError>(setup.program.clone())
        });
        assert_eq!(again.source, Source::Cache, "{:?}", again.warnings);
        assert!(again.warnings.is_empty(), "{:?}", again.warnings);
        assert!(
            std::fs::read(&path).ok() == Some(setup.good.clone()),
            "the program file"
        );
        assert!(
            std::fs::read(&parses).ok() == Some(setup.good_parses.clone()),
            "the parses"
        );
        let files = random_input::cache::files(&dir);
        assert_eq!(
            files.len(),
            2,
            "{:?}",
            files.iter().map(|f| &f.0).collect::<Vec<_>>()
        );
    }
    fast::forget_parses();
    let _ = std::fs::remove_dir_all(&dir);
});
