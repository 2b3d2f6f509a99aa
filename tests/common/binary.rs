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
    child
        .stdin
        .take()
        .expect("standard input is piped")
        .write_all(input)
        .expect("the input is written");
    child.wait_with_output().expect("the binary ends")
}
