//! Runs the `regex-chess` binary under test with bytes on its standard input.
//!
//! Contract: [`path`] is the binary cargo built beside the running test executable (a
//! test binary lives in `target/<profile>/deps/`, the command one directory up), so it
//! is the binary of the same build; a missing binary is a panic that names the path.

use std::io::Write;
use std::process::{Command, Output, Stdio};

/// The `regex-chess` binary of the build the running test belongs to.
pub fn path() -> std::path::PathBuf {
    let exe = std::env::current_exe().expect("the test executable has a path");
    let deps = exe.parent().expect("the test executable is in a directory");
    let dir = if deps.ends_with("deps") {
        deps.parent().unwrap_or(deps)
    } else {
        deps
    };
    let binary = dir.join(format!("regex-chess{}", std::env::consts::EXE_SUFFIX));
    assert!(
        binary.is_file(),
        "the binary under test is missing: {} (cargo builds it for the root's tests)",
        binary.display()
    );
    binary
}

/// Runs the binary with `args`, after `configure` has set up its environment, feeds it
/// `input` and waits for it to end.
pub fn run(args: &[&str], configure: impl FnOnce(&mut Command), input: &[u8]) -> Output {
    let mut command = Command::new(path());
    command
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    configure(&mut command);
    let mut child = command.spawn().expect("the binary starts");
    // A binary that refuses its arguments may end before it reads: a closed pipe is
    // not the test's failure, the exit status and the output say what happened.
    let written = child
        .stdin
        .take()
        .expect("standard input is piped")
        .write_all(input);
    if let Err(e) = written {
        assert_eq!(
            e.kind(),
            std::io::ErrorKind::BrokenPipe,
            "the input is written: {e}"
        );
    }
    child.wait_with_output().expect("the binary ends")
}
