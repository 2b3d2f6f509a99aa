//! Start-up time and peak memory, measured on child processes of the `regex-chess`
//! executable, for `regex-chess bench`.
//!
//! Contract: every figure is of a separate process that does only the thing measured, so
//! none of them includes the benchmark's own compilations, its reference executor or
//! the states of other positions.
//!
//! - [`startup`]: wall-clock time from spawning `play` (standard input closed: it draws
//!   the first board and prompt, reads the end of input and exits) and from spawning
//!   `uci` to its `readyok` (after `uci` and `isready`, which loads both of its
//!   programs), each once with an empty program cache ("cold") and once with the cache
//!   the first runs wrote ("cached"). The cache is a fresh temporary directory, removed
//!   afterwards, so the user's cache is neither read nor written.
//! - [`play_move_peak_kb`]: the peak resident set size (`VmHWM` in `/proc/PID/status`)
//!   of one `play --executor fast` process that has drawn a position and answered one
//!   typed move, read while it waits for the next: the program load, the fast executor
//!   and the states of that one move.
//!
//! Trade-offs: wall-clock times include process creation and are as noisy as the
//! machine. Peak memory is read from `/proc` (Linux) while the child is alive: the
//! `ru_maxrss` that `wait4` reports would be no use, as Linux carries the parent's
//! high-water mark into a child started with `vfork`, as `std::process` does.

use std::io::{BufRead, BufReader, Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::Instant;

use super::BenchError;
use crate::cache::{ENV_DIR, ENV_OFF};
use regex_chess_chess::pretty::{GAME_OVER, PROMPT_ENGINE, PROMPT_PLAYER};

/// A fresh cache directory for the children, removed when dropped.
pub struct TempCache {
    dir: PathBuf,
}

impl TempCache {
    /// Creates an empty directory under the system's temporary directory.
    pub fn new() -> Result<TempCache, BenchError> {
        let nanos = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.subsec_nanos());
        let dir =
            std::env::temp_dir().join(format!("regex-chess-bench-{}-{nanos}", std::process::id()));
        std::fs::create_dir_all(&dir)
            .map_err(|e| BenchError::io(format!("cannot create {}", dir.display()), e))?;
        Ok(TempCache { dir })
    }

    /// The directory.
    pub fn dir(&self) -> &Path {
        &self.dir
    }
}

impl Drop for TempCache {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

/// Start-up times in milliseconds.
#[derive(Clone, Copy, Debug)]
pub struct Startup {
    /// `play` to its first prompt with an empty cache.
    pub play_cold: f64,
    /// The same with the cache written by the first run.
    pub play_cached: f64,
    /// `uci` to `readyok` with an empty cache.
    pub uci_cold: f64,
    /// The same with the cache written by the first run.
    pub uci_cached: f64,
}

/// The command `exe args...` using the program cache in `cache`.
fn command(exe: &Path, cache: &Path, args: &[&str]) -> Command {
    let mut command = Command::new(exe);
    command.args(args).env(ENV_DIR, cache).env_remove(ENV_OFF);
    command
}

/// Milliseconds from spawning `play` to its exit after the first board.
fn play_ms(exe: &Path, cache: &Path) -> Result<f64, BenchError> {
    let start = Instant::now();
    let output = command(exe, cache, &["play"])
        .stdin(Stdio::null())
        .output()
        .map_err(|e| BenchError::io(format!("cannot run {}", exe.display()), e))?;
    let ms = start.elapsed().as_secs_f64() * 1e3;
    if !output.status.success() || !output.stdout.starts_with(b"8 ") {
        return Err(BenchError::Child(format!(
            "`play` failed: {}",
            String::from_utf8_lossy(&output.stderr).trim()
        )));
    }
    Ok(ms)
}

/// Milliseconds from spawning `uci` to its `readyok`.
fn uci_ms(exe: &Path, cache: &Path) -> Result<f64, BenchError> {
    let start = Instant::now();
    let mut child = command(exe, cache, &["uci"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .map_err(|e| BenchError::io(format!("cannot run {}", exe.display()), e))?;
    let mut stdin = child
        .stdin
        .take()
        .ok_or_else(|| BenchError::Child("no standard input".into()))?;
    let stdout = child
        .stdout
        .take()
        .ok_or_else(|| BenchError::Child("no standard output".into()))?;
    stdin
        .write_all(b"uci\nisready\n")
        .and_then(|()| stdin.flush())
        .map_err(|e| BenchError::io("cannot talk to `uci`", e))?;
    let mut ready = None;
    for line in BufReader::new(stdout).lines() {
        let line = line.map_err(|e| BenchError::io("cannot read `uci`", e))?;
        if line == "readyok" {
            ready = Some(start.elapsed().as_secs_f64() * 1e3);
            break;
        }
    }
    let _ = stdin.write_all(b"quit\n");
    drop(stdin);
    let _ = child.wait();
    ready.ok_or_else(|| BenchError::Child("`uci` never answered `readyok`".into()))
}

/// Runs `play` once so that `cache` holds the programs it loads.
pub fn fill_cache(exe: &Path, cache: &Path) -> Result<(), BenchError> {
    play_ms(exe, cache).map(|_| ())
}

/// Measures [`Startup`] with `exe`, the cache in a fresh directory.
pub fn startup(exe: &Path) -> Result<Startup, BenchError> {
    let (play_cache, uci_cache) = (TempCache::new()?, TempCache::new()?);
    Ok(Startup {
        play_cold: play_ms(exe, play_cache.dir())?,
        play_cached: play_ms(exe, play_cache.dir())?,
        uci_cold: uci_ms(exe, uci_cache.dir())?,
        uci_cached: uci_ms(exe, uci_cache.dir())?,
    })
}

/// The peak resident set size in kB of `exe play --executor fast --fen FEN` once it has
/// answered `typed`, with the program cache in `cache`.
pub fn play_move_peak_kb(
    exe: &Path,
    cache: &Path,
    fen: &str,
    typed: &str,
) -> Result<u64, BenchError> {
    let mut child = command(exe, cache, &["play", "--executor", "fast", "--fen", fen])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .map_err(|e| BenchError::io(format!("cannot run {}", exe.display()), e))?;
    let peak = answer_and_measure(&mut child, typed);
    drop(child.stdin.take());
    let _ = child.kill();
    let _ = child.wait();
    peak
}

/// Types `typed` into a `play` child once it shows its first prompt, waits for the
/// prompt after the answer, and reads the child's peak RSS.
fn answer_and_measure(child: &mut std::process::Child, typed: &str) -> Result<u64, BenchError> {
    let mut stdin = child
        .stdin
        .take()
        .ok_or_else(|| BenchError::Child("no standard input".into()))?;
    let mut stdout = child
        .stdout
        .take()
        .ok_or_else(|| BenchError::Child("no standard output".into()))?;
    let failed =
        |what: &str| BenchError::Child(format!("`play` {what} (is the FEN valid for the rules?)"));
    wait_for_prompts(&mut stdout, 1).map_err(|_| failed("drew no board"))?;
    stdin
        .write_all(format!("{typed}\n").as_bytes())
        .and_then(|()| stdin.flush())
        .map_err(|e| BenchError::io("cannot type into `play`", e))?;
    wait_for_prompts(&mut stdout, 1).map_err(|_| failed("did not answer"))?;
    let status = std::fs::read_to_string(format!("/proc/{}/status", child.id()))
        .map_err(|e| BenchError::io("cannot read the child's /proc status", e))?;
    let _ = stdin.write_all(b"quit\n");
    status
        .lines()
        .find_map(|line| line.strip_prefix("VmHWM:"))
        .and_then(|rest| rest.split_whitespace().next()?.parse().ok())
        .ok_or_else(|| BenchError::Child("no VmHWM in the child's /proc status".into()))
}

/// Reads `out` until `count` more prompts (`Your move: `, `Engine to move` or
/// `Game over.`) have ended a write; `Err` at the end of the output.
fn wait_for_prompts(out: &mut impl Read, count: usize) -> Result<(), ()> {
    let mut seen = 0;
    let mut text = Vec::new();
    let mut buf = [0u8; 1 << 16];
    while seen < count {
        let n = out.read(&mut buf).map_err(|_| ())?;
        if n == 0 {
            return Err(());
        }
        text.extend_from_slice(&buf[..n]);
        let tail = String::from_utf8_lossy(&text);
        if [PROMPT_PLAYER, PROMPT_ENGINE, GAME_OVER]
            .iter()
            .any(|p| tail.trim_end().ends_with(p.trim_end()))
        {
            seen += 1;
            text.clear();
        }
    }
    Ok(())
}
