//! The memory of `regex-chess bench --runs 5` (the `play` program on the bench suite, both
//! executors in one process, then the node count): its peak resident set size, as the
//! kernel reports it for the child (`wait4`'s `ru_maxrss`, what `/usr/bin/time -v`
//! prints), must stay under [`PEAK_MB`].
//!
//! Why this bound: the reference executor once held one search cache per rule (1.42-1.62
//! GB in all); it holds one per distinct pattern now (about 600 MB in all, PERF.md "Peak
//! RSS"). The bound sits above that with room for the allocator's moods and below any
//! return of per-rule caches. It is not the 400 MB: three of `play`'s patterns
//! need 453 MB of PikeVM tables in `regex` (PERF.md says why).
//!
//! Volume (about a minute, release): `cargo test --release --test cli -- --ignored
//! bench_memory::`.

use std::io::Read;
use std::process::{Command, Stdio};

/// The most the bench process may hold at its peak, in MB.
const PEAK_MB: u64 = 720;

#[test]
#[ignore = "volume (a minute, 0.6 GB): cargo test --release --test cli -- --ignored bench_memory::"]
// The child is waited for by `wait4` (for its rusage), which clippy does not see.
#[allow(clippy::zombie_processes)]
fn bench_with_both_executors_stays_under_the_bound() {
    let dir = tempfile::tempdir().unwrap();
    let mut child = Command::new(env!("CARGO_BIN_EXE_regex-chess"))
        .args(["--quiet", "bench", "--runs", "5"])
        .env("REGEX_CHESS_CACHE", dir.path().join("cache"))
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("the binary runs");
    let mut out = String::new();
    child
        .stdout
        .take()
        .unwrap()
        .read_to_string(&mut out)
        .unwrap();
    let (status, peak_kb) = wait_with_peak(child.id());
    assert_eq!(status, 0, "bench failed:\n{out}");
    assert!(out.contains("Nodes searched:"), "bench ended early:\n{out}");
    let peak_mb = peak_kb / 1024;
    println!("peak RSS of `bench --runs 5`: {peak_mb} MB");
    assert!(
        peak_mb <= PEAK_MB,
        "bench peaked at {peak_mb} MB, over {PEAK_MB} MB:\n{out}"
    );
}

/// Waits for process `pid`: its exit code and its peak RSS in KB.
fn wait_with_peak(pid: u32) -> (i32, u64) {
    let mut status = 0;
    // SAFETY: an all-zero rusage is a valid value of the plain C struct.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    // SAFETY: `pid` is our own unwaited child; both pointers are to live locals.
    let waited = unsafe { libc::wait4(pid as libc::pid_t, &mut status, 0, &mut usage) };
    assert_eq!(waited, pid as libc::pid_t, "wait4 failed");
    assert!(libc::WIFEXITED(status), "bench did not exit normally");
    (libc::WEXITSTATUS(status), usage.ru_maxrss as u64)
}
