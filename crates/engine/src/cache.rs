//! The cache of compiled, validated programs, so that a start-up pays for compiling the
//! `board`, `play`, `move` and `apply-move` programs only once per build.
//!
//! # Contract
//!
//! [`ProgramCache::load_or_compile`] returns either the program its `compile` closure
//! gives, or a program that an earlier call with the same key got from its closure and
//! stored: never anything else. The key is the hash of
//! - the build's source fingerprint ([`SOURCE_FINGERPRINT`]: `build.rs` hashes every file
//!   under `src/` and `.cargo/`, `Cargo.lock`, `Cargo.toml` and `build.rs` itself, so any
//!   change to the compiler, the chess code, the build settings or the `regex` version
//!   changes it),
//! - the program's name, the [`CompileOptions`] and the cache [`FORMAT`] version.
//!
//! A file is `<name>-<key>.program` in the cache directory ([`ProgramCache::from_env`]:
//! `$REGEX_CHESS_CACHE`, else `$XDG_CACHE_HOME/regex-chess`, else `~/.cache/regex-chess`;
//! `REGEX_CHESS_NO_CACHE=1` or [`disable`] turns the cache off). It holds a header (magic
//! line, the key, the payload's length and checksum) and a binary payload: the rules and
//! the templates validation resolved for them, as length-prefixed strings and tagged
//! pieces (the layout is in `payload.rs`; format 2; format 1 was JSON, whose decode was
//! 114 M of the 139 M instructions of loading `move`, against 22 M now). A hit
//! therefore skips recording, compiling and validating; the header proves the file was
//! written by this build for this program, and the checksum that it arrived whole. The
//! payload's reader checks every length and tag against the bytes it has, so even bytes
//! that passed the checksum by accident give an error, never a panic.
//!
//! Next to it, `<name>-<key>.parses` holds the parse of each distinct pattern of the
//! program in the fast executor's binary form, the literals its matches need and the
//! plain data of the compiled pattern (the same header, with its own magic line and
//! format version, then the table of [`regex_chess_machine::exec::fast::parse_table`]). Loading a program hands that table to the fast
//! executor ([`regex_chess_machine::exec::fast::remember_parses`]), so that a fresh process reads its
//! patterns' parses back instead of parsing them, compiles them from their plain data,
//! and skips rules whose state lacks a needed literal without compiling their patterns (see PERF.md, "Cold start"); a missing
//! file is written, a damaged or foreign one reported as a warning and rebuilt.
//!
//! A file that is truncated, corrupt, or written for another key is reported as a
//! warning, ignored and replaced by a fresh compilation. A directory that cannot be
//! created or written is reported as a warning too; the program is compiled and used.
//! Files are written to a temporary name in the same directory and renamed into place,
//! so a concurrent reader sees either no file or a whole one.
//!
//! Trade-offs: the checksum detects accidents, not forgery (a file crafted to carry this
//! build's key and a matching checksum is trusted, as anything in the user's own cache
//! directory is). It is what a hit checks instead of validating the program again: for
//! `move`, 2.7 ms against 1.8 s (PERF.md, "Program-cache hits"). Files of older builds are left in place: several builds (worktrees,
//! branches) may share one directory, and deleting each other's files would make them
//! recompile at every start.

use std::fs;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};

use regex_chess_compiler::CompileOptions;
use regex_chess_machine::program::ValidProgram;
use regex_chess_machine::program::wire::{self, Damaged, FORMAT, checksum};

/// The fingerprint of the sources this binary was built from (see the module docs).
pub const SOURCE_FINGERPRINT: &str = env!("REGEX_CHESS_SOURCE_HASH");
/// The environment variable naming the cache directory.
pub const ENV_DIR: &str = "REGEX_CHESS_CACHE";
/// The environment variable that turns the cache off when set to anything but `0` or
/// the empty string.
pub const ENV_OFF: &str = "REGEX_CHESS_NO_CACHE";
static DISABLED: AtomicBool = AtomicBool::new(false);

/// Turns the cache off for the rest of the process (the command line's `--no-cache`).
pub fn disable() {
    DISABLED.store(true, Ordering::Relaxed);
}

/// Where a program came from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Source {
    /// Read from the cache.
    Cache,
    /// Compiled by the closure (and stored, unless a warning says otherwise).
    Compiled,
}

/// What [`ProgramCache::load_or_compile`] did.
#[derive(Debug)]
pub struct Fetched<E> {
    /// The program, or the closure's error.
    pub program: Result<ValidProgram, E>,
    /// Where it came from.
    pub source: Source,
    /// Problems with the cache (a corrupt file, a directory that cannot be written), one
    /// sentence each; none of them stops the program from being used.
    pub warnings: Vec<String>,
}

/// A directory of cached programs for one source fingerprint.
#[derive(Clone, Debug)]
pub struct ProgramCache {
    dir: PathBuf,
    fingerprint: String,
}

impl ProgramCache {
    /// A cache in `dir` for programs built from sources with `fingerprint`.
    pub fn new(dir: impl Into<PathBuf>, fingerprint: impl Into<String>) -> ProgramCache {
        ProgramCache {
            dir: dir.into(),
            fingerprint: fingerprint.into(),
        }
    }

    /// The cache of this build in the directory the environment names (see the module
    /// docs), or `None` when the cache is turned off or no directory can be named.
    pub fn from_env() -> Option<ProgramCache> {
        let var = |name: &str| std::env::var_os(name).filter(|v| !v.is_empty());
        if DISABLED.load(Ordering::Relaxed) || var(ENV_OFF).is_some_and(|v| v != "0") {
            return None;
        }
        let dir = var(ENV_DIR).map(PathBuf::from).or_else(|| {
            var("XDG_CACHE_HOME")
                .map(PathBuf::from)
                .filter(|p| p.is_absolute())
                .or_else(|| var("HOME").map(|home| Path::new(&home).join(".cache")))
                .map(|base| base.join("regex-chess"))
        })?;
        Some(ProgramCache::new(dir, SOURCE_FINGERPRINT))
    }

    /// The directory.
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// The key of program `name` compiled with `options`, as 16 hex digits.
    pub fn key(&self, name: &str, options: &CompileOptions) -> String {
        let text = format!("{}\n{name}\n{options:?}\n{FORMAT}", self.fingerprint);
        format!("{:016x}", checksum(text.as_bytes()))
    }

    /// The file that holds program `name` compiled with `options`.
    pub fn path(&self, name: &str, options: &CompileOptions) -> PathBuf {
        let safe: String = name
            .chars()
            .map(|c| match c {
                'a'..='z' | 'A'..='Z' | '0'..='9' | '-' | '_' => c,
                _ => '_',
            })
            .collect();
        self.dir
            .join(format!("{safe}-{}.program", self.key(name, options)))
    }

    /// The file that holds the parsed patterns of program `name` compiled with `options`
    /// (see [`ProgramCache::load_or_compile`]).
    pub fn parses_path(&self, name: &str, options: &CompileOptions) -> PathBuf {
        self.path(name, options).with_extension("parses")
    }

    /// The cached program `name`, if its file is there and whole; otherwise `compile()`,
    /// stored for the next call when it succeeds.
    pub fn load_or_compile<E>(
        &self,
        name: &str,
        options: &CompileOptions,
        compile: impl FnOnce() -> Result<ValidProgram, E>,
    ) -> Fetched<E> {
        let path = self.path(name, options);
        let key = self.key(name, options);
        let mut warnings = Vec::new();
        let again = "compiling it again";
        if let Some(bytes) = read_cached(&path, "program", again, &mut warnings) {
            match wire::read_program(&bytes, &key, name) {
                Ok(program) => {
                    self.load_parses(name, options, &program, &mut warnings, true);
                    return Fetched {
                        program: Ok(program),
                        source: Source::Cache,
                        warnings,
                    };
                }
                Err(problem) => warnings.push(format!(
                    "ignoring the cached program {}: {problem}; {again}",
                    path.display()
                )),
            }
        }
        let program = compile();
        if let Ok(valid) = &program {
            let stored = self.store(&path, &key, name, valid);
            if let Err(e) = &stored {
                warnings.push(format!(
                    "cannot write the program cache in {}: {e}; the program is compiled at \
                     every start (--no-cache or {ENV_OFF}=1 turns the cache off)",
                    self.dir.display()
                ));
            }
            self.load_parses(name, options, valid, &mut warnings, stored.is_ok());
        }
        Fetched {
            program,
            source: Source::Compiled,
            warnings,
        }
    }

    /// Stores `program` as program `name` compiled with `options`, replacing any file
    /// there. The caller vouches that it is what compiling `name` gives.
    pub fn put(
        &self,
        name: &str,
        options: &CompileOptions,
        program: &ValidProgram,
    ) -> std::io::Result<()> {
        let (path, key) = (self.path(name, options), self.key(name, options));
        self.store(&path, &key, name, program)
    }

    /// The bytes of the two files that hold program `name` compiled with `options`
    /// (those of [`ProgramCache::path`] and [`ProgramCache::parses_path`]), for a copy
    /// of the cache kept elsewhere: `regex-chess site` puts them beside the page, whose
    /// WebAssembly build of the fast executor reads them back with
    /// [`ProgramCache::read_files`] instead of validating the program again.
    pub fn files(
        &self,
        name: &str,
        options: &CompileOptions,
        program: &ValidProgram,
    ) -> (Vec<u8>, Vec<u8>) {
        let key = self.key(name, options);
        (
            wire::program_file(program, &key, name),
            wire::parses_file(program, &key),
        )
    }

    /// Reads back the bytes [`ProgramCache::files`] gave for `name` and `options`: the
    /// program, once the fast executor has been handed its parses
    /// ([`regex_chess_machine::exec::fast::remember_parses`]). Bytes written by another build or for
    /// another program, or damaged, are an error that says so.
    pub fn read_files(
        &self,
        name: &str,
        options: &CompileOptions,
        program: &[u8],
        parses: &[u8],
    ) -> Result<ValidProgram, Damaged> {
        let key = self.key(name, options);
        if wire::key_of(program).ok().as_deref() != Some(key.as_str()) {
            return Err(Damaged(
                "the program: written for another build or program".into(),
            ));
        }
        wire::read_pair(name, program, parses)
    }

    /// Has the fast executor read the parses of `program`'s patterns from their file
    /// instead of parsing them ([`regex_chess_machine::exec::fast::remember_parses`]). A missing file is
    /// written; a damaged or foreign one is reported in `warnings`, ignored and replaced
    /// (a failure to write is reported only when `report_write` is set: the program's own
    /// store has not already reported it).
    fn load_parses(
        &self,
        name: &str,
        options: &CompileOptions,
        program: &ValidProgram,
        warnings: &mut Vec<String>,
        report_write: bool,
    ) {
        let path = self.parses_path(name, options);
        let key = self.key(name, options);
        let again = "parsing the patterns again";
        if let Some(bytes) = read_cached(&path, "parses", again, warnings) {
            let read = wire::read_parses(&bytes, &key);
            match read {
                Ok(_) => return,
                Err(problem) => warnings.push(format!(
                    "ignoring the cached parses {}: {problem}; {again}",
                    path.display()
                )),
            }
        }
        let file = wire::parses_file(program, &key);
        let remembered = wire::read_parses(&file, &key);
        debug_assert!(remembered.is_ok(), "a fresh table reads back");
        if let Err(e) = self.write(&path, &file)
            && report_write
        {
            warnings.push(format!(
                "cannot write the cached parses in {}: {e}",
                self.dir.display()
            ));
        }
    }

    /// Writes `program` to `path` through a temporary file and a rename.
    fn store(
        &self,
        path: &Path,
        key: &str,
        name: &str,
        program: &ValidProgram,
    ) -> std::io::Result<()> {
        self.write(path, &wire::program_file(program, key, name))
    }

    /// Writes `bytes` to `path` through a temporary file and a rename.
    fn write(&self, path: &Path, bytes: &[u8]) -> std::io::Result<()> {
        fs::create_dir_all(&self.dir)?;
        let nanos = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.subsec_nanos());
        let file_name = path
            .file_name()
            .map_or_else(|| "program".into(), |n| n.to_string_lossy().into_owned());
        let temp = self
            .dir
            .join(format!(".{file_name}.{}.{nanos}.tmp", std::process::id()));
        let written = fs::File::create(&temp)
            .and_then(|mut file| file.write_all(bytes))
            .and_then(|()| fs::rename(&temp, path));
        if written.is_err() {
            let _ = fs::remove_file(&temp);
        }
        written
    }
}

/// The bytes of the cache file at `path`, or `None`: silently when there is no such file
/// (the usual first start), with a warning naming the file (`the cached WHAT`) and what
/// happens instead (`again`) when it cannot be read.
fn read_cached(
    path: &Path,
    what: &str,
    again: &str,
    warnings: &mut Vec<String>,
) -> Option<Vec<u8>> {
    match fs::read(path) {
        Ok(bytes) => Some(bytes),
        Err(e)
            if matches!(
                e.kind(),
                std::io::ErrorKind::NotFound | std::io::ErrorKind::NotADirectory
            ) =>
        {
            None
        }
        Err(e) => {
            warnings.push(format!(
                "cannot read the cached {what} {}: {e}; {again}",
                path.display()
            ));
            None
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_differ_by_fingerprint_name_and_options() {
        let a = ProgramCache::new("/x", "f1");
        let b = ProgramCache::new("/x", "f2");
        let options = CompileOptions::default();
        let none = CompileOptions {
            peephole: false,
            ..options
        };
        assert_ne!(a.key("play", &options), b.key("play", &options));
        assert_ne!(a.key("play", &options), a.key("board", &options));
        assert_ne!(a.key("play", &options), a.key("play", &none));
        assert_eq!(a.key("play", &options), a.key("play", &options));
        let path = a.path("a/../b", &options);
        assert_eq!(path.parent(), Some(Path::new("/x")));
    }
}
