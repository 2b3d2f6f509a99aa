//! A panic on a helper core never hangs a command: with the test hook
//! `REGEX_CHESS_TEST_HELPER_PANIC` set ([`PLANT_HELPER_PANIC`]), every hand-off of the
//! fast executor on two cores has a helper thread panic in its last piece. Then
//! `regex-chess run` and `regex-chess move` end at once, non-zero, with the panic's
//! message on standard error, and a UCI session answers the `go` with an `info string`
//! naming the panic and `bestmove (none)`, and goes on answering (`isready`,
//! `readyok`).
//!
//! Every wait has a deadline: a process still running at its deadline is killed and the
//! test fails saying where it hung, instead of holding the suite up. The deadlines
//! leave room for a debug build and a cold program cache (the first start compiles
//! the chess programs); a hang is a wait without end, far past any of them.

use std::io::{BufRead, BufReader, Read, Write};
use std::process::{Child, ChildStdin, Command, ExitStatus, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::time::{Duration, Instant};

use regex_chess_machine::exec::PLANT_HELPER_PANIC;

const KIWIPETE: &str = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";

/// The message of the planted panic.
const PLANTED: &str = "planted helper panic for tests/cli/helper_panic.rs";

/// How long a command may take once started: room for a cold program cache in a debug
/// build; a hang is far past it.
const DEADLINE: Duration = Duration::from_secs(120);

/// The binary with `args`, the planted panic in its environment, pipes on every stream.
fn start(args: &[&str]) -> Child {
    Command::new(env!("CARGO_BIN_EXE_regex-chess"))
        .args(args)
        .env(PLANT_HELPER_PANIC, PLANTED)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary starts")
}

/// Reads `stream` to its end on a thread of its own (so that a full pipe never blocks
/// the process under test); the text arrives on the receiver.
fn drain(mut stream: impl Read + Send + 'static) -> Receiver<String> {
    let (send, receive) = mpsc::channel();
    std::thread::spawn(move || {
        let mut bytes = Vec::new();
        let _ = stream.read_to_end(&mut bytes);
        let _ = send.send(String::from_utf8_lossy(&bytes).into_owned());
    });
    receive
}

/// Waits for `child` until `deadline`; a child still running then is killed and the
/// test fails with `what`.
fn wait_until(child: &mut Child, deadline: Instant, what: &str) -> ExitStatus {
    loop {
        if let Some(status) = child.try_wait().expect("the child's status") {
            return status;
        }
        if Instant::now() >= deadline {
            let _ = child.kill();
            let _ = child.wait();
            panic!("{what}: still running after {DEADLINE:?}, killed (a hang)");
        }
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// Runs the binary with `args` and `input` on standard input, the panic planted, within
/// [`DEADLINE`]: its exit status, standard output and standard error.
fn run(args: &[&str], input: &[u8]) -> (ExitStatus, String, String) {
    let started = Instant::now();
    let mut child = start(args);
    let stdout = drain(child.stdout.take().expect("piped"));
    let stderr = drain(child.stderr.take().expect("piped"));
    let mut stdin = child.stdin.take().expect("piped");
    let input = input.to_vec();
    // Written on a thread of its own: a process that hangs without reading its input
    // must not hang the test in a write.
    std::thread::spawn(move || {
        let _ = stdin.write_all(&input);
    });
    let status = wait_until(&mut child, started + DEADLINE, &args.join(" "));
    let text = |r: Receiver<String>| r.recv_timeout(DEADLINE).unwrap_or_default();
    (status, text(stdout), text(stderr))
}

/// Asserts that a command ended with the planted panic: non-zero, its message on
/// standard error.
fn assert_ended_with_the_panic(what: &str, (status, stdout, stderr): (ExitStatus, String, String)) {
    assert!(
        !status.success(),
        "{what}: exit {status} although a helper panicked; standard output:\n{}",
        &stdout[..stdout.len().min(2000)]
    );
    assert!(
        stderr.contains(PLANTED),
        "{what}: exit {status}, standard error does not name the panic:\n{stderr}"
    );
}

/// A program of one local rule (no look-around, no empty match, no `\n%` in a match)
/// and a state of thousands of threads, past the size from which two cores cut the state
/// (`exec::fast::DEFAULT_SPLIT_MIN`, 64 KB): the rule runs as a rope whose pieces are
/// shared with the helper, which panics in its piece.
#[test]
fn run_on_two_cores_ends_with_a_helpers_panic() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let program = dir.path().join("count.json");
    std::fs::write(&program, r##"[["(%%\n#x: )([01]+)\n", "${1}${2}1\n"]]"##)
        .expect("the program is written");
    let state = "%%\n#x: 0\n".repeat(20_000);
    assert!(state.len() > regex_chess_machine::exec::fast::DEFAULT_SPLIT_MIN);
    let program = program.to_str().expect("a UTF-8 path");
    let args = ["run", program, "--state", "-", "--cores", "2"];
    assert_ended_with_the_panic("run --cores 2", run(&args, state.as_bytes()));
    // The same run on one core has no helper: it answers.
    let (status, stdout, stderr) = run(&args[..4], state.as_bytes());
    assert!(status.success(), "run on one core: exit {status}: {stderr}");
    assert_eq!(stdout, "%%\n#x: 01\n".repeat(20_000));
}

/// Kiwipete's two-ply search reaches states of hundreds of kilobytes, which two cores
/// cut.
#[test]
fn move_on_two_cores_ends_with_a_helpers_panic() {
    let args = [
        "move", "--fen", KIWIPETE, "--search", "2ply", "--cores", "2",
    ];
    assert_ended_with_the_panic("move --cores 2", run(&args, b""));
}

/// A UCI session under test: its standard input, and its standard output's lines as
/// they come.
struct Session {
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<String>,
    stderr: Receiver<String>,
    seen: Vec<String>,
}

impl Session {
    fn start() -> Session {
        let mut child = start(&["uci"]);
        let stdin = child.stdin.take().expect("piped");
        let stdout = child.stdout.take().expect("piped");
        let stderr = drain(child.stderr.take().expect("piped"));
        let (send, lines) = mpsc::channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { return };
                if send.send(line).is_err() {
                    return;
                }
            }
        });
        Session {
            child,
            stdin,
            lines,
            stderr,
            seen: Vec::new(),
        }
    }

    fn send(&mut self, line: &str) {
        writeln!(self.stdin, "{line}").expect("the session reads its input");
        self.stdin.flush().expect("the session reads its input");
    }

    /// Reads lines until one satisfies `done` (returned), within `within`; a session
    /// that says nothing more by then is killed and the test fails.
    fn until(&mut self, within: Duration, done: impl Fn(&str) -> bool) -> String {
        let deadline = Instant::now() + within;
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.lines.recv_timeout(left) {
                Ok(line) => {
                    self.seen.push(line.clone());
                    if done(&line) {
                        return line;
                    }
                }
                Err(e) => {
                    let _ = self.child.kill();
                    let _ = self.child.wait();
                    let stderr = self.stderr.recv_timeout(DEADLINE).unwrap_or_default();
                    let why = match e {
                        RecvTimeoutError::Timeout => {
                            format!("no answer within {within:?}, killed (a hang)")
                        }
                        RecvTimeoutError::Disconnected => "the session ended".to_string(),
                    };
                    panic!(
                        "{why}; lines so far:\n{}\nstandard error:\n{stderr}",
                        self.seen.join("\n")
                    );
                }
            }
        }
    }
}

/// `Threads 2`, then a search on kiwipete: the helper's panic is an `info string` error
/// and `bestmove (none)`, and the session still answers `isready` and searches again.
#[test]
fn a_uci_session_on_two_cores_reports_a_helpers_panic_and_goes_on() {
    let mut session = Session::start();
    session.send("uci");
    session.until(DEADLINE, |l| l == "uciok");
    session.send("setoption name Threads value 2");
    session.send("setoption name Search value 2ply");
    // Loads (or compiles, on a cold cache) every program before any search.
    session.send("isready");
    session.until(DEADLINE, |l| l == "readyok");
    for _ in 0..2 {
        session.send(&format!("position fen {KIWIPETE}"));
        session.send("go depth 2");
        let best = session.until(DEADLINE, |l| l.starts_with("bestmove"));
        assert_eq!(best, "bestmove (none)", "{:?}", session.seen);
        let error = format!("info string error: the engine panicked: {PLANTED}");
        assert!(session.seen.contains(&error), "{:?}", session.seen);
        session.seen.clear();
        session.send("isready");
        session.until(DEADLINE, |l| l == "readyok");
    }
    session.send("quit");
    let status = wait_until(&mut session.child, Instant::now() + DEADLINE, "quit");
    assert!(status.success(), "the session ends on quit: exit {status}");
}
