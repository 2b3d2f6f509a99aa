//! The UCI binary over long and loaded sessions (ignored volumes, run by CI's
//! `scripts/ci-volumes.sh` through `scripts/verify-full.sh engine/uci_volumes`):
//!
//! - fast games, one at 2+0 and one at 1+0.01 (minutes and seconds: 120 s and 60 s a
//!   side), against Stockfish at Skill Level 0 through python-chess
//!   (`tests/engine/uci_match.py`, wall-clock clocks) while two busy loops take the
//!   cores: regex-chess loses none on time;
//! - 200 short games through one UCI process with `ucinewgame` between them: the
//!   process's resident memory after the last game is within 10% of that after the tenth.
//!
//! `cargo test --release --test engine -- --ignored uci_volumes::` runs them (a few
//! minutes on two cores: the fast games take what their clocks allow).

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use regex_chess_testkit::oracle;

const STOCKFISH: &str = "/usr/games/stockfish";

/// Threads spinning until dropped: a machine busy with other work.
struct BusyLoops {
    done: Arc<AtomicBool>,
    threads: Vec<std::thread::JoinHandle<()>>,
}

impl BusyLoops {
    fn start(count: usize) -> BusyLoops {
        let done = Arc::new(AtomicBool::new(false));
        let threads = (0..count)
            .map(|_| {
                let done = done.clone();
                std::thread::spawn(move || {
                    let mut x = 0u64;
                    while !done.load(Ordering::Relaxed) {
                        x = std::hint::black_box(x.wrapping_mul(6_364_136_223_846_793_005) + 1);
                    }
                })
            })
            .collect();
        BusyLoops { done, threads }
    }
}

impl Drop for BusyLoops {
    fn drop(&mut self) {
        self.done.store(true, Ordering::Relaxed);
        for t in self.threads.drain(..) {
            let _ = t.join();
        }
    }
}

/// True when python-chess and Stockfish are there (else says so, or fails in CI).
fn tools_present(test: &str) -> bool {
    let importable = Command::new("python3")
        .args(["-c", "import chess, chess.engine"])
        .output()
        .is_ok_and(|o| o.status.success());
    if !importable {
        oracle::engine::require_tool(test, "python-chess (pip install chess)");
        return false;
    }
    if !std::path::Path::new(STOCKFISH).exists() {
        oracle::engine::require_tool(test, STOCKFISH);
        return false;
    }
    true
}

/// Plays `games` games at `base`+`inc` seconds against Stockfish Skill Level 0 with two
/// busy loops beside them; the match script's summary line.
fn loaded_match(games: u32, base: &str, inc: &str) -> String {
    let _busy = BusyLoops::start(2);
    let out = Command::new("python3")
        .arg(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/tests/engine/uci_match.py"
        ))
        .arg(env!("CARGO_BIN_EXE_regex-chess"))
        .arg(STOCKFISH)
        .args([&games.to_string(), base, inc, "--skill", "0", "--openings"])
        .arg(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/data/positions/openings.txt"
        ))
        .output()
        .expect("python3 runs");
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    eprint!("{stdout}");
    assert!(
        out.status.success(),
        "the match failed:\n{stdout}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    stdout
        .lines()
        .find(|l| l.starts_with("RESULT "))
        .expect("a RESULT line")
        .to_string()
}

/// The `timeouts N` of a summary line.
fn timeouts(summary: &str) -> u32 {
    let words: Vec<&str> = summary.split_whitespace().collect();
    let at = words
        .iter()
        .position(|w| *w == "timeouts")
        .expect("timeouts");
    words[at + 1].parse().expect("a number")
}

#[test]
#[ignore = "volume: cargo test --release --test engine -- --ignored uci_volumes::"]
fn fast_games_under_load_lose_none_on_time() {
    let test = "fast_games_under_load_lose_none_on_time";
    if !tools_present(test) {
        return;
    }
    // The program cache warmed first, without load (`isready` builds every variant's
    // program), as docs/uci.md asks of a GUI user: a cold cache compiles the programs on
    // the first `go` (80 s under this load on the project machine, a lost game), and no
    // clock can cut that.
    let warm = regex_chess_testkit::binary::run(&["uci"], |_| {}, b"isready\nquit\n");
    assert!(warm.status.success(), "the warm-up session failed");
    for (games, base, inc) in [(1, "120", "0"), (1, "60", "0.01")] {
        let summary = loaded_match(games, base, inc);
        eprintln!("{base}+{inc} under load: {summary}");
        assert_eq!(timeouts(&summary), 0, "{base}+{inc}: {summary}");
    }
}

/// One UCI process, talked to line by line.
struct Uci {
    child: Child,
    input: ChildStdin,
    output: BufReader<ChildStdout>,
}

impl Uci {
    fn start() -> Uci {
        let mut child = Command::new(env!("CARGO_BIN_EXE_regex-chess"))
            .arg("uci")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("the binary starts");
        let input = child.stdin.take().unwrap();
        let output = BufReader::new(child.stdout.take().unwrap());
        Uci {
            child,
            input,
            output,
        }
    }

    fn send(&mut self, line: &str) {
        writeln!(self.input, "{line}").expect("the engine reads");
    }

    /// Reads lines until one starts with `prefix`; that line.
    fn until(&mut self, prefix: &str) -> String {
        let mut line = String::new();
        loop {
            line.clear();
            let n = self.output.read_line(&mut line).expect("the engine writes");
            assert!(n > 0, "the engine ended before `{prefix}`");
            if line.starts_with(prefix) {
                return line.trim().to_string();
            }
        }
    }

    /// The process's resident set, in kB (`VmRSS` of /proc).
    fn rss_kb(&self) -> u64 {
        let status = std::fs::read_to_string(format!("/proc/{}/status", self.child.id()))
            .expect("/proc is readable");
        let line = status
            .lines()
            .find(|l| l.starts_with("VmRSS:"))
            .expect("a VmRSS line");
        line.split_whitespace().nth(1).unwrap().parse().unwrap()
    }
}

impl Drop for Uci {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// The openings' FENs.
fn openings() -> Vec<String> {
    regex_chess_chess::positions::OPENINGS
        .lines()
        .map(|l| l.split(';').next().unwrap_or("").trim().to_string())
        .filter(|f| !f.is_empty() && !f.starts_with('#'))
        .collect()
}

#[test]
#[ignore = "volume: cargo test --release --test engine -- --ignored uci_volumes::"]
fn two_hundred_games_in_one_process_hold_their_memory() {
    const GAMES: usize = 200;
    const PLIES: usize = 8;
    let openings = openings();
    let mut uci = Uci::start();
    uci.send("uci");
    uci.until("uciok");
    uci.send("isready");
    uci.until("readyok");
    let mut rss = Vec::new();
    for game in 0..GAMES {
        uci.send("ucinewgame");
        let fen = &openings[game % openings.len()];
        let mut moves: Vec<String> = Vec::new();
        for _ in 0..PLIES {
            uci.send(&format!("position fen {fen} moves {}", moves.join(" ")));
            // A budget of nothing: the cheapest variant answers every move.
            uci.send("go movetime 1");
            let best = uci.until("bestmove ");
            match best.split_whitespace().nth(1) {
                Some(mv) if mv != "(none)" => moves.push(mv.to_string()),
                _ => break,
            }
        }
        uci.send("isready");
        uci.until("readyok");
        rss.push(uci.rss_kb());
    }
    uci.send("quit");
    eprintln!(
        "RSS (kB) after games 1, 10, 50, 100, 150, 200: {} {} {} {} {} {}",
        rss[0],
        rss[9],
        rss[49],
        rss[99],
        rss[149],
        rss[GAMES - 1]
    );
    let (tenth, last) = (rss[9] as f64, rss[GAMES - 1] as f64);
    assert!(
        last <= tenth * 1.10,
        "RSS grew from {tenth} kB after game 10 to {last} kB after game {GAMES}: {rss:?}"
    );
}
