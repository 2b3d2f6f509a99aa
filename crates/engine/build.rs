//! Build script: fingerprints the sources that build the rule programs.
//!
//! It hashes every file under the `src/` of the crates a program is built from (the
//! machine, the compiler, the chess program) and of this one, and the workspace's
//! `.cargo/` (paths and contents, in sorted order) together with the workspace's
//! `Cargo.lock` (the `regex` version decides which patterns validate), their `Cargo.toml`
//! files (features, profiles, lints) and this script itself, and exports the hash
//! as `REGEX_CHESS_SOURCE_HASH`. The program cache (`src/engine/cache.rs`) keys its
//! files by it, so any change to the compiler, the chess code or a dependency makes the
//! cached programs miss. Hashing all of `src/` is deliberately coarse: a change that
//! cannot affect a program still invalidates the cache, which costs one recompilation.

use std::path::{Path, PathBuf};

/// FNV-1a, 64 bits: enough to tell source trees apart.
fn fnv(hash: &mut u64, bytes: &[u8]) {
    for &b in bytes {
        *hash ^= u64::from(b);
        *hash = hash.wrapping_mul(0x0100_0000_01b3);
    }
}

fn files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        if path.is_dir() {
            files(&path, out);
        } else {
            out.push(path);
        }
    }
}

/// The source folders the programs depend on, relative to this crate
/// (`crates/engine` in the workspace).
const DIRS: [&str; 5] = [
    "src",
    "../machine/src",
    "../compiler/src",
    "../chess/src",
    "../../.cargo",
];

/// The single files the programs depend on besides [`DIRS`].
const INPUTS: [&str; 7] = [
    "../../Cargo.lock",
    "../../Cargo.toml",
    "Cargo.toml",
    "../machine/Cargo.toml",
    "../compiler/Cargo.toml",
    "../chess/Cargo.toml",
    "build.rs",
];

fn main() {
    let mut paths = Vec::new();
    for dir in DIRS {
        files(Path::new(dir), &mut paths);
    }
    for file in INPUTS {
        paths.push(PathBuf::from(file));
    }
    paths.sort();
    let mut hash = 0xcbf2_9ce4_8422_2325_u64;
    for path in &paths {
        fnv(&mut hash, path.to_string_lossy().as_bytes());
        fnv(&mut hash, &[0]);
        fnv(&mut hash, &std::fs::read(path).unwrap_or_default());
        fnv(&mut hash, &[0]);
    }
    for dir in DIRS {
        println!("cargo:rerun-if-changed={dir}");
    }
    for file in INPUTS {
        println!("cargo:rerun-if-changed={file}");
    }
    println!("cargo:rustc-env=REGEX_CHESS_SOURCE_HASH={hash:016x}");
}
