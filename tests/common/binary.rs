//! Runs the `regex-chess` binary under test with bytes on its standard input.

use std::io::Write;
use std::process::{Command, Output, Stdio};

/// Runs the binary with `args`, after `configure` has set up its environment, feeds it
/// `input` and waits for it to end.
pub fn run(args: &[&str], configure: impl FnOnce(&mut Command), input: &[u8]) -> Output {
    let mut command = Command::new(env!("CARGO_BIN_EXE_regex-chess"));
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
