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
//! format version, then the table of [`crate::exec::fast::parse_table`]). Loading a program hands that table to the fast
//! executor ([`crate::exec::fast::remember_parses`]), so that a fresh process reads its
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

use crate::compiler::CompileOptions;
use crate::program::{Program, ValidProgram};

mod payload;

/// What is wrong with a cache file: why it is ignored (and replaced), said in a warning.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct Damaged(String);

impl From<&str> for Damaged {
    fn from(problem: &str) -> Damaged {
        Damaged(problem.to_string())
    }
}

/// The fingerprint of the sources this binary was built from (see the module docs).
pub const SOURCE_FINGERPRINT: &str = env!("REGEX_CHESS_SOURCE_HASH");
/// The version of the file layout; part of every key.
pub const FORMAT: u32 = 2;
/// The environment variable naming the cache directory.
pub const ENV_DIR: &str = "REGEX_CHESS_CACHE";
/// The environment variable that turns the cache off when set to anything but `0` or
/// the empty string.
pub const ENV_OFF: &str = "REGEX_CHESS_NO_CACHE";
/// The first line of every cache file.
const MAGIC: &str = "regex-chess program cache";
/// The first line of every file of parsed patterns, with its format version.
const PARSES_MAGIC: &str = "regex-chess parsed patterns 5";

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
pub struct Loaded<E> {
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
    ) -> Loaded<E> {
        let path = self.path(name, options);
        let key = self.key(name, options);
        let mut warnings = Vec::new();
        let again = "compiling it again";
        if let Some(bytes) = read_cached(&path, "program", again, &mut warnings) {
            match decode(&bytes, &key, name) {
                Ok(program) => {
                    self.load_parses(name, options, &program, &mut warnings, true);
                    return Loaded {
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
        Loaded {
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
        (encode(program, &key, name), parses_file(program, &key))
    }

    /// Reads back the bytes [`ProgramCache::files`] gave for `name` and `options`: the
    /// program, once the fast executor has been handed its parses
    /// ([`crate::exec::fast::remember_parses`]). Bytes written by another build or for
    /// another program, or damaged, are an error that says so.
    pub fn read_files(
        &self,
        name: &str,
        options: &CompileOptions,
        program: &[u8],
        parses: &[u8],
    ) -> Result<ValidProgram, Damaged> {
        let key = self.key(name, options);
        let in_parses = |e: &dyn std::fmt::Display| Damaged(format!("the parses: {e}"));
        let table = unframe(parses, PARSES_MAGIC, &key).map_err(|e| in_parses(&e))?;
        let program =
            decode(program, &key, name).map_err(|e| Damaged(format!("the program: {e}")))?;
        crate::exec::fast::remember_parses(table).map_err(|e| in_parses(&e))?;
        Ok(program)
    }

    /// Has the fast executor read the parses of `program`'s patterns from their file
    /// instead of parsing them ([`crate::exec::fast::remember_parses`]). A missing file is
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
            let read = unframe(&bytes, PARSES_MAGIC, &key).and_then(|table| {
                crate::exec::fast::remember_parses(table).map_err(|e| Damaged(e.to_string()))
            });
            match read {
                Ok(_) => return,
                Err(problem) => warnings.push(format!(
                    "ignoring the cached parses {}: {problem}; {again}",
                    path.display()
                )),
            }
        }
        let patterns = program.rules().iter().map(|rule| rule.pattern.as_str());
        let table = crate::exec::fast::parse_table(patterns);
        let remembered = crate::exec::fast::remember_parses(&table);
        debug_assert!(remembered.is_ok(), "a fresh table reads back");
        if let Err(e) = self.write(&path, &frame(PARSES_MAGIC, &key, &table))
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
        self.write(path, &encode(program, key, name))
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

/// The file's bytes for `program` cached as `name`: the header lines, then the payload.
fn encode(program: &ValidProgram, key: &str, name: &str) -> Vec<u8> {
    let inner = program.program();
    let payload = payload::write(
        name,
        &inner.name,
        &inner.description,
        &inner.rules,
        program.templates(),
    );
    frame(&format!("{MAGIC} {FORMAT}"), key, &payload)
}

/// The parses file's bytes for `program` under `key`: the header lines, then the fast
/// executor's table of its patterns ([`crate::exec::fast::parse_table`]).
fn parses_file(program: &ValidProgram, key: &str) -> Vec<u8> {
    let patterns = program.rules().iter().map(|rule| rule.pattern.as_str());
    frame(PARSES_MAGIC, key, &crate::exec::fast::parse_table(patterns))
}

/// Reads a file written by [`encode`] for `key` and program `name`; the error says what
/// is wrong with it.
fn decode(bytes: &[u8], key: &str, name: &str) -> Result<ValidProgram, Damaged> {
    let rest = unframe(bytes, &format!("{MAGIC} {FORMAT}"), key)?;
    let payload = payload::read(rest).map_err(|e| Damaged(format!("unreadable payload: {e}")))?;
    if payload.cached_as != name {
        return Err(Damaged(format!(
            "holds the program `{}`",
            payload.cached_as
        )));
    }
    let program = Program {
        name: payload.name,
        description: payload.description,
        rules: payload.rules,
    };
    ValidProgram::from_validated_parts(program, payload.templates)
        .ok_or_else(|| "the rule and template counts differ".into())
}

/// `payload` behind the header lines: `first` (the magic line and format version), the
/// key, the payload's length and its checksum.
fn frame(first: &str, key: &str, payload: &[u8]) -> Vec<u8> {
    let mut out = format!(
        "{first}\nkey {key}\nlength {}\nchecksum {:016x}\n",
        payload.len(),
        checksum(payload)
    )
    .into_bytes();
    out.extend_from_slice(payload);
    out
}

/// The payload of bytes written by [`frame`] with `first` and `key`, once the header
/// proves it whole; the error says what is wrong.
fn unframe<'a>(bytes: &'a [u8], first: &str, key: &str) -> Result<&'a [u8], Damaged> {
    let mut rest = bytes;
    let mut line = |what: &str| -> Result<&str, Damaged> {
        let end = memchr::memchr(b'\n', rest).ok_or_else(|| Damaged(format!("no {what} line")))?;
        let text =
            std::str::from_utf8(&rest[..end]).map_err(|_| Damaged(format!("bad {what} line")))?;
        rest = &rest[end + 1..];
        Ok(text)
    };
    if line("header")? != first {
        return Err("not a program cache file of this format".into());
    }
    if line("key")?.strip_prefix("key ") != Some(key) {
        return Err("written for another build or program".into());
    }
    let length: usize = line("length")?
        .strip_prefix("length ")
        .and_then(|n| n.parse().ok())
        .ok_or("bad length line")?;
    let sum = line("checksum")?
        .strip_prefix("checksum ")
        .and_then(|n| u64::from_str_radix(n, 16).ok())
        .ok_or("bad checksum line")?;
    if rest.len() != length {
        return Err(Damaged(format!(
            "truncated or padded ({} payload bytes, {length} expected)",
            rest.len()
        )));
    }
    if checksum(rest) != sum {
        return Err("corrupt (checksum mismatch)".into());
    }
    Ok(rest)
}

/// A 64-bit checksum (FNV-1a over 8-byte words, then the tail bytes): fast, and any
/// accidental change to the bytes alters it with overwhelming likelihood.
pub fn checksum(bytes: &[u8]) -> u64 {
    const PRIME: u64 = 0x0100_0000_01b3;
    let mut hash = 0xcbf2_9ce4_8422_2325_u64 ^ bytes.len() as u64;
    let mut words = bytes.chunks_exact(8);
    for word in &mut words {
        let word = u64::from_le_bytes(word.try_into().expect("chunks of 8"));
        hash = (hash ^ word).wrapping_mul(PRIME).rotate_left(29);
    }
    for &b in words.remainder() {
        hash = (hash ^ u64::from(b)).wrapping_mul(PRIME);
    }
    hash
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
    use crate::program::Rule;

    fn program() -> ValidProgram {
        Program::from_rules(vec![
            Rule::new("(a)(?P<x>b)", "${x}$1$$"),
            Rule::new("c", "d"),
        ])
        .validate()
        .unwrap()
    }

    #[test]
    fn a_file_round_trips_and_its_damage_is_named() {
        let valid = program();
        let bytes = encode(&valid, "k1", "");
        let back = decode(&bytes, "k1", "").unwrap();
        assert_eq!(back.program(), valid.program());
        assert_eq!(back.templates(), valid.templates());
        assert!(
            decode(&bytes, "k2", "")
                .unwrap_err()
                .to_string()
                .contains("another build")
        );
        assert!(
            decode(&bytes, "k1", "x")
                .unwrap_err()
                .to_string()
                .contains("holds")
        );
        let cut = &bytes[..bytes.len() - 1];
        assert!(
            decode(cut, "k1", "")
                .unwrap_err()
                .to_string()
                .contains("truncated")
        );
        let mut flipped = bytes.clone();
        let last = flipped.len() - 3;
        flipped[last] ^= 1;
        assert!(
            decode(&flipped, "k1", "")
                .unwrap_err()
                .to_string()
                .contains("checksum")
        );
        assert!(
            decode(b"", "k1", "")
                .unwrap_err()
                .to_string()
                .contains("header")
        );
        assert!(
            decode(b"{}\n", "k1", "")
                .unwrap_err()
                .to_string()
                .contains("format")
        );
    }

    #[test]
    fn checksums_see_every_byte() {
        let text = b"0123456789abcdefghij";
        let base = checksum(text);
        for i in 0..text.len() {
            let mut changed = *text;
            changed[i] ^= 0x20;
            assert_ne!(checksum(&changed), base, "byte {i}");
        }
        assert_ne!(checksum(&text[..19]), base);
    }

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
