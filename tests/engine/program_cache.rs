//! The program cache through the library: a second load is a hit that gives the same
//! program without compiling; another source fingerprint misses; a truncated, corrupt or
//! foreign file is reported, ignored and replaced; a directory that cannot be written
//! still gives the compiled program, with a warning. Next to each program, a file of its
//! parsed patterns is written and read back the same way: damage to it is reported and the
//! file rebuilt, never trusted.

use std::cell::Cell;
use std::path::Path;

use regex_chess_compiler::CompileOptions;
use regex_chess_engine::cache::{Fetched, ProgramCache, Source};
use regex_chess_engine::{self as engine, LoadError};
use regex_chess_machine::exec::ExecutorKind;
use regex_chess_machine::program::{Program, Rule, ValidProgram};

const PROGRAM: &str = "legal-moves";
const KIWIPETE: &str = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1\n";

/// Loads `legal-moves` through `cache`, counting compilations in `compiled`.
fn load(cache: &ProgramCache, compiled: &Cell<usize>) -> Fetched<LoadError> {
    cache.load_or_compile(PROGRAM, &CompileOptions::default(), || {
        compiled.set(compiled.get() + 1);
        engine::compile_valid(PROGRAM, &CompileOptions::default())
    })
}

/// The program's answer on kiwipete with the fast executor.
fn answer(program: ValidProgram) -> String {
    ExecutorKind::Fast.build(program).run(KIWIPETE).unwrap()
}

fn files(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .map(|entries| {
            entries
                .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
                .collect()
        })
        .unwrap_or_default();
    names.sort();
    names
}

#[test]
fn a_second_load_is_a_hit_and_gives_the_same_program() {
    let dir = tempfile::tempdir().unwrap();
    let cache = ProgramCache::new(dir.path(), "f1");
    let compiled = Cell::new(0);
    let first = load(&cache, &compiled);
    assert_eq!((first.source, compiled.get()), (Source::Compiled, 1));
    assert!(first.warnings.is_empty(), "{:?}", first.warnings);
    // The program and the parses of its patterns.
    assert_eq!(files(dir.path()).len(), 2, "{:?}", files(dir.path()));
    let second = load(&cache, &compiled);
    assert_eq!((second.source, compiled.get()), (Source::Cache, 1));
    assert!(second.warnings.is_empty(), "{:?}", second.warnings);
    let (first, second) = (first.program.unwrap(), second.program.unwrap());
    assert_eq!(first.program(), second.program());
    for index in 0..first.rules().len() {
        assert_eq!(
            first.template(index),
            second.template(index),
            "rule {index}"
        );
    }
    let expected = answer(first);
    assert!(expected.contains("e1g1\n"), "{expected}");
    assert_eq!(answer(second), expected);
}

#[test]
fn a_hit_returns_what_was_stored() {
    // A stand-in stored under the real key is what the next load returns: the cache, not
    // a compilation, answered.
    let dir = tempfile::tempdir().unwrap();
    let cache = ProgramCache::new(dir.path(), "f1");
    let options = CompileOptions::default();
    let fake = Program::from_rules(vec![Rule::new("(?s).+", "a1a2\n")])
        .validate()
        .unwrap();
    cache.put(PROGRAM, &options, &fake).unwrap();
    let compiled = Cell::new(0);
    let loaded = load(&cache, &compiled);
    assert_eq!((loaded.source, compiled.get()), (Source::Cache, 0));
    assert_eq!(answer(loaded.program.unwrap()), "a1a2\n");
    // Other compile options are another key.
    let other = CompileOptions {
        peephole: false,
        ..options
    };
    assert_ne!(cache.path(PROGRAM, &other), cache.path(PROGRAM, &options));
}

#[test]
fn another_fingerprint_misses_and_keeps_the_old_file() {
    let dir = tempfile::tempdir().unwrap();
    let compiled = Cell::new(0);
    let old = ProgramCache::new(dir.path(), "f1");
    assert_eq!(load(&old, &compiled).source, Source::Compiled);
    let new = ProgramCache::new(dir.path(), "f2");
    let loaded = load(&new, &compiled);
    assert_eq!((loaded.source, compiled.get()), (Source::Compiled, 2));
    assert!(loaded.warnings.is_empty(), "{:?}", loaded.warnings);
    assert_eq!(files(dir.path()).len(), 4, "{:?}", files(dir.path()));
    assert_eq!(load(&new, &compiled).source, Source::Cache);
    assert_eq!(load(&old, &compiled).source, Source::Cache);
}

#[test]
fn damaged_files_are_reported_and_replaced() {
    let dir = tempfile::tempdir().unwrap();
    let cache = ProgramCache::new(dir.path(), "f1");
    let compiled = Cell::new(0);
    let expected = answer(load(&cache, &compiled).program.unwrap());
    let path = cache.path(PROGRAM, &CompileOptions::default());
    let good = std::fs::read(&path).unwrap();
    let flip = |at: usize, bit: u8| {
        let mut bytes = good.clone();
        bytes[at] ^= bit;
        bytes
    };
    // The header's lines: magic, key, length, checksum; then the payload.
    let line_start = |n: usize| {
        let mut at = 0;
        for _ in 0..n {
            at += good[at..].iter().position(|&b| b == b'\n').unwrap() + 1;
        }
        at
    };
    let foreign = ProgramCache::new(dir.path(), "f2");
    let foreign_path = foreign.path(PROGRAM, &CompileOptions::default());
    assert_eq!(load(&foreign, &compiled).source, Source::Compiled);
    let damaged: Vec<(&str, Vec<u8>)> = vec![
        ("truncated", good[..good.len() - 100].to_vec()),
        ("truncated", good[..good.len() / 3].to_vec()),
        ("truncated", good[..line_start(4)].to_vec()),
        ("checksum", flip(good.len() / 2, 0x01)),
        ("checksum", flip(good.len() - 1, 0x80)),
        ("checksum", flip(line_start(4), 0x02)),
        // A changed digit in the checksum line itself.
        ("checksum", flip(line_start(4) - 2, 0x01)),
        ("format", flip(3, 0x20)),
        // A changed digit of the key, of the length.
        ("another build", flip(line_start(2) - 2, 0x01)),
        ("truncated", flip(line_start(3) - 2, 0x01)),
        ("format", b"not a cache file at all\n{}".to_vec()),
        ("header", Vec::new()),
        ("another build", std::fs::read(&foreign_path).unwrap()),
    ];
    for (problem, bytes) in damaged {
        std::fs::write(&path, &bytes).unwrap();
        let before = compiled.get();
        let loaded = load(&cache, &compiled);
        assert_eq!(loaded.source, Source::Compiled, "{problem}");
        assert_eq!(compiled.get(), before + 1);
        assert_eq!(loaded.warnings.len(), 1, "{:?}", loaded.warnings);
        let warning = &loaded.warnings[0];
        assert!(
            warning.contains(problem) && warning.contains("compiling it again"),
            "{problem}: {warning}"
        );
        assert!(
            warning.contains(&path.display().to_string()),
            "{problem}: names the file: {warning}"
        );
        assert_eq!(answer(loaded.program.unwrap()), expected, "{problem}");
        assert_eq!(std::fs::read(&path).unwrap(), good, "{problem}: rebuilt");
        // The file was rewritten: the next load is a clean hit.
        let again = load(&cache, &compiled);
        assert_eq!(again.source, Source::Cache, "{problem}");
        assert!(again.warnings.is_empty(), "{:?}", again.warnings);
    }
}

#[test]
fn damaged_parses_are_reported_and_replaced() {
    let dir = tempfile::tempdir().unwrap();
    let cache = ProgramCache::new(dir.path(), "f1");
    let compiled = Cell::new(0);
    let expected = answer(load(&cache, &compiled).program.unwrap());
    let path = cache.parses_path(PROGRAM, &CompileOptions::default());
    let good = std::fs::read(&path).unwrap();
    assert!(good.starts_with(b"regex-chess parsed patterns 5\n"));
    let mut flipped = good.clone();
    let last = flipped.len() - 5;
    flipped[last] ^= 0x40;
    let mut old_version = good.clone();
    old_version[28] = b'0';
    // The format before the compiled patterns' forms were kept: stale, never read.
    let mut stale = good.clone();
    stale[28] = b'3';
    // The format before the stored NFAs were merged and the `lines` parts kept as NFAs.
    let mut unmerged = good.clone();
    unmerged[28] = b'4';
    let foreign = ProgramCache::new(dir.path(), "f2");
    assert_eq!(load(&foreign, &compiled).source, Source::Compiled);
    let foreign_path = foreign.parses_path(PROGRAM, &CompileOptions::default());
    let damaged: Vec<(&str, Vec<u8>)> = vec![
        ("truncated", good[..good.len() - 1].to_vec()),
        ("truncated", good[..good.len() / 2].to_vec()),
        ("checksum", flipped),
        ("format", old_version),
        ("format", stale),
        ("format", unmerged),
        ("header", Vec::new()),
        ("another build", std::fs::read(&foreign_path).unwrap()),
    ];
    for (problem, bytes) in damaged {
        std::fs::write(&path, &bytes).unwrap();
        let loaded = load(&cache, &compiled);
        assert_eq!(
            loaded.source,
            Source::Cache,
            "{problem}: the program itself is whole"
        );
        assert_eq!(loaded.warnings.len(), 1, "{problem}: {:?}", loaded.warnings);
        let warning = &loaded.warnings[0];
        assert!(
            warning.contains(problem) && warning.contains("parsing the patterns again"),
            "{problem}: {warning}"
        );
        assert!(
            warning.contains(&path.display().to_string()),
            "{problem}: names the file: {warning}"
        );
        assert_eq!(answer(loaded.program.unwrap()), expected, "{problem}");
        assert_eq!(std::fs::read(&path).unwrap(), good, "{problem}: rebuilt");
        let again = load(&cache, &compiled);
        assert!(again.warnings.is_empty(), "{:?}", again.warnings);
    }
    // A missing file is rebuilt without a warning.
    std::fs::remove_file(&path).unwrap();
    let loaded = load(&cache, &compiled);
    assert!(loaded.warnings.is_empty(), "{:?}", loaded.warnings);
    assert_eq!(std::fs::read(&path).unwrap(), good);
}

#[test]
fn an_unwritable_directory_still_gives_the_program() {
    let dir = tempfile::tempdir().unwrap();
    // A regular file where the directory should be: nothing can be created under it
    // (unlike permissions, this holds for root too).
    let blocker = dir.path().join("not-a-dir");
    std::fs::write(&blocker, "x").unwrap();
    let cache = ProgramCache::new(&blocker, "f1");
    let compiled = Cell::new(0);
    for round in 1..=2 {
        let loaded = load(&cache, &compiled);
        assert_eq!((loaded.source, compiled.get()), (Source::Compiled, round));
        assert_eq!(loaded.warnings.len(), 1, "{:?}", loaded.warnings);
        assert!(loaded.warnings[0].contains("cannot write the program cache"));
        assert!(answer(loaded.program.unwrap()).contains("e1g1\n"));
    }
    assert_eq!(std::fs::read(&blocker).unwrap(), b"x");
}

#[test]
fn a_failed_compilation_is_returned_and_not_stored() {
    let dir = tempfile::tempdir().unwrap();
    let cache = ProgramCache::new(dir.path(), "f1");
    let loaded = cache.load_or_compile("nothing", &CompileOptions::default(), || {
        Err::<ValidProgram, _>("no such program")
    });
    assert_eq!(loaded.program.unwrap_err(), "no such program");
    assert!(loaded.warnings.is_empty());
    assert!(files(dir.path()).is_empty());
}

/// The build's source fingerprint, the heart of every cache key, covers everything the
/// programs depend on: every file under the `src/` of the machine, the compiler, the chess
/// program and the engine crates and the workspace's `.cargo/`, the workspace's
/// `Cargo.lock` and `Cargo.toml`, those crates' `Cargo.toml` and the engine's `build.rs`. Recomputed here over exactly that list (FNV-1a over each path, a zero byte,
/// its contents, a zero byte, in sorted path order, as `build.rs` documents): a file left
/// out of the hash, or one more, makes the two differ.
#[test]
fn the_source_fingerprint_covers_src_cargo_config_and_the_build_files() {
    // Paths relative to the engine crate's directory, as its build script sees them.
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("crates/engine");
    fn walk(root: &Path, dir: &Path, out: &mut Vec<std::path::PathBuf>) {
        for entry in std::fs::read_dir(root.join(dir))
            .into_iter()
            .flatten()
            .flatten()
        {
            let path = dir.join(entry.file_name());
            if root.join(&path).is_dir() {
                walk(root, &path, out);
            } else {
                out.push(path);
            }
        }
    }
    let mut paths = Vec::new();
    for dir in ["src", "../machine/src", "../compiler/src", "../chess/src"] {
        walk(&root, Path::new(dir), &mut paths);
    }
    walk(&root, Path::new("../../.cargo"), &mut paths);
    assert!(
        paths.iter().any(|p| p.starts_with("../../.cargo")),
        "the workspace has a .cargo/ directory"
    );
    for file in [
        "../../Cargo.lock",
        "../../Cargo.toml",
        "Cargo.toml",
        "../machine/Cargo.toml",
        "../compiler/Cargo.toml",
        "../chess/Cargo.toml",
        "build.rs",
    ] {
        paths.push(file.into());
    }
    paths.sort();
    let mut hash = 0xcbf2_9ce4_8422_2325_u64;
    let mut add = |bytes: &[u8]| {
        for &b in bytes {
            hash ^= u64::from(b);
            hash = hash.wrapping_mul(0x0100_0000_01b3);
        }
    };
    for path in &paths {
        add(path.to_string_lossy().as_bytes());
        add(&[0]);
        add(&std::fs::read(root.join(path)).unwrap());
        add(&[0]);
    }
    assert_eq!(
        format!("{hash:016x}"),
        regex_chess_engine::cache::SOURCE_FINGERPRINT,
        "the fingerprint does not cover exactly the program crates' src/, the workspace's \
         .cargo/, their Cargo.toml, Cargo.lock and build.rs (or a file changed since this test was built)"
    );
}

/// The header's four lines over `payload`, with its true length and checksum: damage the
/// header's checks cannot see, which the payload's reader must catch by itself.
fn reframed(good: &[u8], payload: &[u8]) -> Vec<u8> {
    let mut at = 0;
    for _ in 0..2 {
        at += good[at..].iter().position(|&b| b == b'\n').unwrap() + 1;
    }
    let mut out = good[..at].to_vec();
    out.extend_from_slice(
        format!(
            "length {}\nchecksum {:016x}\n",
            payload.len(),
            regex_chess_machine::program::wire::checksum(payload)
        )
        .as_bytes(),
    );
    out.extend_from_slice(payload);
    out
}

#[test]
fn a_damaged_payload_under_a_whole_header_is_reported_never_a_panic() {
    let dir = tempfile::tempdir().unwrap();
    let cache = ProgramCache::new(dir.path(), "f1");
    let compiled = Cell::new(0);
    let expected = answer(load(&cache, &compiled).program.unwrap());
    let path = cache.path(PROGRAM, &CompileOptions::default());
    let good = std::fs::read(&path).unwrap();
    let mut at = 0;
    for _ in 0..4 {
        at += good[at..].iter().position(|&b| b == b'\n').unwrap() + 1;
    }
    let payload = good[at..].to_vec();
    assert_eq!(reframed(&good, &payload), good);
    // Cuts (every truncation is an error: `payload.rs` tries them all on a small
    // payload): at every byte of the start (the names, the first rules), then spread over
    // the rest, and one byte short.
    let mut cuts: Vec<usize> = (0..48).collect();
    cuts.extend((1..16).map(|i| payload.len() * i / 16));
    cuts.push(payload.len() - 1);
    for cut in cuts {
        std::fs::write(&path, reframed(&good, &payload[..cut])).unwrap();
        let loaded = load(&cache, &compiled);
        assert_eq!(loaded.source, Source::Compiled, "cut at {cut}");
        assert_eq!(loaded.warnings.len(), 1, "{:?}", loaded.warnings);
        assert!(
            loaded.warnings[0].contains("unreadable payload"),
            "cut at {cut}: {}",
            loaded.warnings[0]
        );
        assert_eq!(std::fs::read(&path).unwrap(), good, "cut at {cut}: rebuilt");
    }
    // A byte too many.
    let mut longer = payload.clone();
    longer.push(0);
    std::fs::write(&path, reframed(&good, &longer)).unwrap();
    let loaded = load(&cache, &compiled);
    assert_eq!(loaded.source, Source::Compiled);
    assert!(loaded.warnings[0].contains("after the payload's end"));
    // Changed bytes (lengths, counts, tags, letters): never a panic; what is not an
    // error is a payload that reads (a changed letter of a pattern), and an error is
    // reported and the file rebuilt.
    let mut errors = 0;
    for i in 0..40 {
        let at = (i * 7919) % payload.len();
        for value in [0x00, 0x05, 0xff] {
            let mut changed = payload.clone();
            if changed[at] == value {
                continue;
            }
            changed[at] = value;
            std::fs::write(&path, reframed(&good, &changed)).unwrap();
            let loaded = load(&cache, &compiled);
            if loaded.source == Source::Compiled {
                errors += 1;
                assert!(
                    loaded.warnings[0].contains("unreadable payload")
                        || loaded.warnings[0].contains("holds the program"),
                    "{}",
                    loaded.warnings[0]
                );
                assert_eq!(std::fs::read(&path).unwrap(), good);
            }
        }
    }
    assert!(errors > 0, "some changed bytes are errors");
    std::fs::write(&path, &good).unwrap();
    assert_eq!(answer(load(&cache, &compiled).program.unwrap()), expected);
}
