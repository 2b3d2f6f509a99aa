//! The program cache through the binary: `legal` and `play` write it on the first run and
//! read it on the next (a stand-in stored under the real key is what the binary answers
//! with); a corrupt or truncated file is a warning on standard error and the right
//! answer; a cache directory that cannot be written still works; `--no-cache` and
//! `REGEX_CHESS_NO_CACHE=1` neither read nor write it; processes filling one empty cache
//! at once each answer right and leave the files one process alone writes.

use regex_chess_testkit::binary;

use std::path::Path;
use std::process::{Command, Output};

use regex_chess_compiler::CompileOptions;
use regex_chess_engine::cache::{ENV_DIR, ENV_OFF, ProgramCache, SOURCE_FINGERPRINT};
use regex_chess_machine::program::{Program, Rule};

const KIWIPETE: &str = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";

/// Runs the binary with the cache in `cache` (or turned off by `env`), feeding `stdin`.
fn regex_chess(args: &[&str], cache: &Path, env: &[(&str, &str)], stdin: &str) -> Output {
    let configure = |command: &mut Command| {
        command
            .env(ENV_DIR, cache)
            .env_remove(ENV_OFF)
            .envs(env.iter().copied());
    };
    binary::run(args, configure, stdin.as_bytes())
}

/// Asserts success and returns (stdout, stderr).
/// Standard error without the progress lines of a first start's compilations
/// (`regex-chess: compiling the ...`, `regex-chess: compiled the ...`), which show when a
/// compilation lasts over a second: what is left are warnings and errors.
fn without_progress(stderr: &str) -> String {
    stderr
        .lines()
        .filter(|l| {
            !l.starts_with("regex-chess: compiling the `")
                && !l.starts_with("regex-chess: compiled the `")
        })
        .map(|l| format!("{l}\n"))
        .collect()
}

fn success(output: Output) -> (String, String) {
    let stderr = without_progress(&String::from_utf8_lossy(&output.stderr));
    assert!(
        output.status.success(),
        "exit {:?}: {stderr}",
        output.status
    );
    assert!(!stderr.contains("panicked"), "{stderr}");
    (String::from_utf8(output.stdout).unwrap(), stderr)
}

fn legal(cache: &Path, env: &[(&str, &str)]) -> (String, String) {
    success(regex_chess(&["legal", "--fen", KIWIPETE], cache, env, ""))
}

fn file_count(dir: &Path) -> usize {
    std::fs::read_dir(dir).map_or(0, |entries| entries.count())
}

fn legal_moves_file(dir: &Path) -> std::path::PathBuf {
    ProgramCache::new(dir, SOURCE_FINGERPRINT).path("legal-moves", &CompileOptions::default())
}

#[test]
fn legal_writes_then_reads_the_cache() {
    let dir = tempfile::tempdir().unwrap();
    let (cold, stderr) = legal(dir.path(), &[]);
    assert!(stderr.is_empty(), "{stderr}");
    assert_eq!(cold.lines().count(), 48, "{cold}");
    assert!(legal_moves_file(dir.path()).exists());
    let (warm, stderr) = legal(dir.path(), &[]);
    assert_eq!((warm.as_str(), stderr.as_str()), (cold.as_str(), ""));
    // Replace the cached program by a stand-in under the same key: the binary answers
    // with the stand-in's moves, so it read the cache rather than compiling.
    let fake = Program::from_rules(vec![Rule::new("(?s).+", "a1a2\n")])
        .validate()
        .unwrap();
    ProgramCache::new(dir.path(), SOURCE_FINGERPRINT)
        .put("legal-moves", &CompileOptions::default(), &fake)
        .unwrap();
    assert_eq!(legal(dir.path(), &[]).0, "a1a2\n");
    // ...and --no-cache does not.
    let (fresh, stderr) = success(regex_chess(
        &["--no-cache", "legal", "--fen", KIWIPETE],
        dir.path(),
        &[],
        "",
    ));
    assert_eq!((fresh.as_str(), stderr.as_str()), (cold.as_str(), ""));
}

#[test]
fn a_damaged_file_is_a_warning_and_is_replaced() {
    let dir = tempfile::tempdir().unwrap();
    let (expected, _) = legal(dir.path(), &[]);
    let path = legal_moves_file(dir.path());
    let good = std::fs::read(&path).unwrap();
    let mut flipped = good.clone();
    let at = good.len() - 1000;
    flipped[at] ^= 0x04;
    for (problem, bytes) in [
        ("checksum", flipped),
        ("truncated", good[..good.len() / 2].to_vec()),
    ] {
        std::fs::write(&path, bytes).unwrap();
        let (answer, stderr) = legal(dir.path(), &[]);
        assert_eq!(answer, expected, "{problem}");
        assert_eq!(stderr.lines().count(), 1, "{stderr}");
        assert!(
            stderr.starts_with("regex-chess: warning: ") && stderr.contains(problem),
            "{problem}: {stderr}"
        );
        assert!(
            stderr.contains(&path.display().to_string()),
            "{problem}: names the file: {stderr}"
        );
        assert_eq!(std::fs::read(&path).unwrap(), good, "{problem}: rebuilt");
        let (answer, stderr) = legal(dir.path(), &[]);
        assert_eq!((answer.as_str(), stderr.as_str()), (expected.as_str(), ""));
    }
}

#[test]
fn an_unwritable_cache_still_answers() {
    let dir = tempfile::tempdir().unwrap();
    let (expected, _) = legal(dir.path(), &[("REGEX_CHESS_NO_CACHE", "1")]);
    assert_eq!(
        file_count(dir.path()),
        0,
        "REGEX_CHESS_NO_CACHE=1 wrote the cache"
    );
    let blocker = dir.path().join("file");
    std::fs::write(&blocker, "x").unwrap();
    let (answer, stderr) = legal(&blocker, &[]);
    assert_eq!(answer, expected);
    assert!(
        stderr.contains("warning: cannot write the program cache"),
        "{stderr}"
    );
}

#[test]
fn play_draws_the_same_boards_cold_and_cached() {
    let dir = tempfile::tempdir().unwrap();
    let args = ["play", "--search", "2ply-see", "--fen", KIWIPETE];
    let (cold, stderr) = success(regex_chess(&args, dir.path(), &[], "e1g1\nquit\n"));
    assert!(stderr.is_empty(), "{stderr}");
    assert_eq!(
        file_count(dir.path()),
        4,
        "the board and play programs and their parsed patterns"
    );
    let (warm, stderr) = success(regex_chess(&args, dir.path(), &[], "e1g1\nquit\n"));
    assert_eq!((warm.as_str(), stderr.as_str()), (cold.as_str(), ""));
    let (off, _) = success(regex_chess(
        &[
            "--no-cache",
            "play",
            "--search",
            "2ply-see",
            "--fen",
            KIWIPETE,
        ],
        dir.path(),
        &[],
        "e1g1\nquit\n",
    ));
    assert_eq!(off, cold);
    assert!(cold.matches("8 ").count() >= 2, "{cold}");
}

#[test]
fn bench_reports_start_up_and_the_peak_of_a_play_process() {
    let dir = tempfile::tempdir().unwrap();
    let positions = dir.path().join("positions.txt");
    std::fs::write(
        &positions,
        "8/8/4k3/8/2K5/8/3P4/8 w - - 0 1;d2d4;king and pawn\n",
    )
    .unwrap();
    let args = [
        "bench",
        "--executor",
        "fast",
        "--runs",
        "1",
        "--positions",
        positions.to_str().unwrap(),
        "--child-processes",
    ];
    let (out, stderr) = success(regex_chess(&args, dir.path(), &[], ""));
    let line = |prefix: &str| -> String {
        out.lines()
            .find(|l| l.starts_with(prefix))
            .unwrap_or_else(|| panic!("no `{prefix}` line in {out}\n{stderr}"))
            .to_string()
    };
    let startup = line("start-up: `play` to its first prompt ");
    assert!(
        startup.contains(" ms cold, ") && startup.contains(" ms cached; `uci` to readyok "),
        "{startup}"
    );
    let peak = line("peak RSS of one `play --executor fast` process");
    let mb: f64 = peak
        .rsplit("king and pawn ")
        .next()
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("{peak}"));
    assert!(mb > 1.0, "{peak}");
    assert!(line("peak RSS of this bench process").contains("the fast executor"));
    // The children used a cache of their own, not the one the environment names: beside
    // the positions file there is only the bench process's own `move` program, the search
    // whose nodes it counts, cached as every command caches its programs.
    let program =
        ProgramCache::new(dir.path(), SOURCE_FINGERPRINT).path("move", &CompileOptions::default());
    let stem = program.file_stem().unwrap().to_str().unwrap().to_string();
    let mut names: Vec<String> = std::fs::read_dir(dir.path())
        .unwrap()
        .map(|entry| entry.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    assert_eq!(
        names,
        [
            format!("{stem}.parses"),
            format!("{stem}.program"),
            "positions.txt".to_string()
        ],
        "{names:?}"
    );
}

/// Runs `legal` with no `REGEX_CHESS_CACHE`, the other variables as given.
fn legal_with_env(env: &[(&str, &Path)], unset: &[&str]) {
    let configure = |command: &mut Command| {
        command.env_remove(ENV_DIR).env_remove(ENV_OFF);
        for name in unset {
            command.env_remove(name);
        }
        for (name, value) in env {
            command.env(name, value);
        }
    };
    success(binary::run(&["legal", "--fen", KIWIPETE], configure, b""));
}

/// Without `REGEX_CHESS_CACHE` the cache goes to `$XDG_CACHE_HOME/regex-chess`, or
/// to `$HOME/.cache/regex-chess` when `XDG_CACHE_HOME` is unset, empty or relative.
#[test]
fn the_cache_goes_under_xdg_cache_home_else_home() {
    let dir = tempfile::tempdir().unwrap();
    let (xdg, home) = (dir.path().join("xdg"), dir.path().join("home"));
    legal_with_env(&[("XDG_CACHE_HOME", &xdg), ("HOME", &home)], &[]);
    assert!(legal_moves_file(&xdg.join("regex-chess")).exists());
    assert!(
        !home.exists(),
        "nothing under HOME when XDG_CACHE_HOME is set"
    );

    legal_with_env(&[("HOME", &home)], &["XDG_CACHE_HOME"]);
    assert!(legal_moves_file(&home.join(".cache/regex-chess")).exists());

    let other = dir.path().join("other");
    legal_with_env(
        &[
            ("XDG_CACHE_HOME", Path::new("relative/dir")),
            ("HOME", &other),
        ],
        &[],
    );
    assert!(legal_moves_file(&other.join(".cache/regex-chess")).exists());
    assert!(
        !Path::new("relative").exists(),
        "a relative XDG_CACHE_HOME is ignored"
    );
}

/// Several processes on one empty cache at once: each answers kiwipete's legal moves as
/// shakmaty lists them, and afterwards the cache holds exactly the files one process
/// alone writes, byte for byte (no temporary file left, nothing torn), which the next
/// run reads without a warning.
#[test]
fn processes_filling_one_empty_cache_at_once_all_answer_and_leave_it_whole() {
    use shakmaty::{CastlingMode, Chess, Position, fen::Fen, uci::UciMove};
    let pos: Chess = KIWIPETE
        .parse::<Fen>()
        .unwrap()
        .into_position(CastlingMode::Standard)
        .unwrap();
    let mut want: Vec<String> = pos
        .legal_moves()
        .iter()
        .map(|m| UciMove::from_standard(*m).to_string())
        .collect();
    want.sort();
    let alone = tempfile::tempdir().unwrap();
    legal(alone.path(), &[]);
    let shared = tempfile::tempdir().unwrap();
    let dir = shared.path();
    let children: Vec<std::process::Child> = (0..4)
        .map(|_| {
            Command::new(env!("CARGO_BIN_EXE_regex-chess"))
                .args(["legal", "--fen", KIWIPETE])
                .env(ENV_DIR, dir)
                .env_remove(ENV_OFF)
                .stdout(std::process::Stdio::piped())
                .stderr(std::process::Stdio::piped())
                .spawn()
                .unwrap()
        })
        .collect();
    for child in children {
        let (stdout, _) = success(child.wait_with_output().unwrap());
        let mut got: Vec<String> = stdout.lines().map(str::to_string).collect();
        got.sort();
        assert_eq!(got, want);
    }
    let read = |dir: &Path| {
        let mut files: Vec<(std::ffi::OsString, Vec<u8>)> = std::fs::read_dir(dir)
            .unwrap()
            .map(|e| {
                let e = e.unwrap();
                (e.file_name(), std::fs::read(e.path()).unwrap())
            })
            .collect();
        files.sort();
        files
    };
    let (filled, one) = (read(dir), read(alone.path()));
    assert!(!one.is_empty());
    let names = |files: &[(std::ffi::OsString, Vec<u8>)]| {
        files.iter().map(|f| f.0.clone()).collect::<Vec<_>>()
    };
    assert_eq!(names(&filled), names(&one));
    assert!(filled == one, "the files differ from one process's");
    let (again, stderr) = legal(dir, &[]);
    assert_eq!((again.lines().count(), stderr.as_str()), (want.len(), ""));
}
