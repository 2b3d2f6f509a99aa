//! `scripts/verify-full.sh` with a stand-in `cargo` first on the `PATH`, so that it runs
//! in a moment: a plain progress line on standard error as each test file starts and ends
//! (never an escape code), the summary table on standard output, a failing file's status
//! in both and in the exit code; `--quiet` leaves the progress lines out.

#![cfg(unix)]

use std::os::unix::fs::PermissionsExt;
use std::path::Path;
use std::process::{Command, Output};

/// The stand-in: `--no-run` builds nothing (and fails unless it is asked for the test
/// binary `machine` alone); a run of the module `broken` of the binary `machine` fails,
/// any other passes, each with cargo's result line.
const FAKE_CARGO: &str = r#"#!/bin/sh
case " $* " in *" --no-run "*)
  case " $* " in *" --test machine "*) exit 0 ;; esac
  echo "not the binary machine: $*"; exit 1 ;;
esac
binary=
module=
while [ $# -gt 0 ]; do
  if [ "$1" = --test ]; then binary=$2; fi
  case "$1" in *::) module=$1 ;; esac
  shift
done
if [ "$binary" = machine ] && [ "$module" = "broken::" ]; then
  echo "thread 'volume' panicked at tests/broken.rs:1:1"
  echo "test result: FAILED. 0 passed; 1 failed; 0 ignored; 0 measured; 0 filtered out"
  exit 101
fi
echo "test result: ok. 2 passed; 0 failed; 0 ignored; 0 measured; 0 filtered out"
"#;

/// Runs the script with `args`, the stand-in `cargo` in `bin` first on the `PATH`.
fn verify_full(bin: &Path, args: &[&str]) -> Output {
    let path = std::env::var_os("PATH").unwrap_or_default();
    let mut dirs = vec![bin.to_path_buf()];
    dirs.extend(std::env::split_paths(&path));
    Command::new(Path::new(env!("CARGO_MANIFEST_DIR")).join("scripts/verify-full.sh"))
        .args(args)
        .env("PATH", std::env::join_paths(dirs).unwrap())
        .output()
        .expect("bash runs the script")
}

#[test]
fn verify_full_shows_each_file_as_it_runs_unless_quiet() {
    let bin = tempfile::tempdir().unwrap();
    let cargo = bin.path().join("cargo");
    std::fs::write(&cargo, FAKE_CARGO).unwrap();
    std::fs::set_permissions(&cargo, std::fs::Permissions::from_mode(0o755)).unwrap();

    let out = verify_full(bin.path(), &["machine/alpha", "machine/broken"]);
    let stdout = String::from_utf8(out.stdout).unwrap();
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert_eq!(out.status.code(), Some(1), "{stdout}{stderr}");
    let lines: Vec<&str> = stderr.lines().collect();
    assert_eq!(lines.len(), 6, "{stderr}");
    assert_eq!(
        lines[0],
        "verify-full: building 2 test files in release mode ..."
    );
    assert!(lines[1].starts_with("verify-full: built in "), "{stderr}");
    assert_eq!(lines[2], "verify-full: [1/2] machine/alpha ...");
    assert!(
        lines[3].starts_with("verify-full: [1/2] machine/alpha ok in ")
            && lines[3].contains(" s (ok. 2 passed; 0 failed;")
            && lines[3].ends_with(" s in all"),
        "{stderr}"
    );
    assert_eq!(lines[4], "verify-full: [2/2] machine/broken ...");
    assert!(
        lines[5].starts_with("verify-full: [2/2] machine/broken FAILED in ")
            && lines[5].contains(" s (FAILED. 0 passed; 1 failed;"),
        "{stderr}"
    );
    assert!(!stderr.contains('\x1b'), "{stderr:?}");
    // Standard output: the summary, with the failure's panic.
    assert!(stdout.starts_with("verify-full: commit "), "{stdout}");
    assert!(stdout.contains("| machine/alpha | ok | "), "{stdout}");
    assert!(stdout.contains("| machine/broken | FAILED | "), "{stdout}");
    assert!(stdout.contains("panicked at tests/broken.rs"), "{stdout}");

    let quiet = verify_full(bin.path(), &["--quiet", "machine/alpha"]);
    assert!(quiet.status.success(), "{quiet:?}");
    assert_eq!(String::from_utf8(quiet.stderr).unwrap(), "");
    let stdout = String::from_utf8(quiet.stdout).unwrap();
    assert!(stdout.contains("| machine/alpha | ok | "), "{stdout}");
}
