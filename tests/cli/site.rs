//! The `export`, `site` and `serve` commands, end to end through the binary.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::process::{Command, Stdio};

fn bin() -> Command {
    Command::new(env!("CARGO_BIN_EXE_regex-chess"))
}

fn write_program(dir: &std::path::Path, pairs: &str) -> std::path::PathBuf {
    let path = dir.join("program.json");
    std::fs::write(&path, pairs).unwrap();
    path
}

#[test]
fn export_writes_each_format() {
    let dir = tempfile::tempdir().unwrap();
    for (format, needle) in [
        ("json", "[\n  ["),
        ("python", "def run(state"),
        ("js", "export function run(state, onProgress)"),
    ] {
        let out = dir.path().join(format!("rules.{format}"));
        let status = bin()
            .args([
                "export",
                "--format",
                format,
                "--program",
                "demo-arith",
                "-o",
            ])
            .arg(&out)
            .status()
            .unwrap();
        assert!(status.success(), "{format}");
        let text = std::fs::read_to_string(&out).unwrap();
        assert!(text.contains(needle), "{format}: {}", &text[..200]);
    }
}

#[test]
fn export_refusals_name_the_rule() {
    let dir = tempfile::tempdir().unwrap();
    let program = write_program(dir.path(), r#"[["a", "b"], ["x*", "-"]]"#);
    let output = bin()
        .args(["export", "--format", "json", "--file"])
        .arg(&program)
        .arg("-o")
        .arg(dir.path().join("out.json"))
        .output()
        .unwrap();
    assert!(!output.status.success());
    let stderr = String::from_utf8(output.stderr).unwrap();
    assert!(
        stderr.starts_with("regex-chess: error: rule 1 (unknown origin), pattern \"x*\""),
        "{stderr}"
    );
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    // The Python module runs such a rule exactly, so it is accepted there.
    let status = bin()
        .args(["export", "--format", "python", "--file"])
        .arg(&program)
        .arg("-o")
        .arg(dir.path().join("out.py"))
        .status()
        .unwrap();
    assert!(status.success());
}

#[test]
fn export_needs_exactly_one_source() {
    let output = bin()
        .args(["export", "--format", "js", "-o", "/dev/null"])
        .output()
        .unwrap();
    assert!(!output.status.success());
    let output = bin()
        .args([
            "export",
            "--format",
            "js",
            "--program",
            "nope",
            "-o",
            "/dev/null",
        ])
        .output()
        .unwrap();
    let stderr = String::from_utf8(output.stderr).unwrap();
    assert!(stderr.contains("unknown program `nope`"), "{stderr}");
}

/// A GET (or other method) on the server; the status line, headers and body.
fn request(port: u16, method: &str, path: &str) -> (String, String, Vec<u8>) {
    let mut stream = TcpStream::connect(("127.0.0.1", port)).unwrap();
    write!(
        stream,
        "{method} {path} HTTP/1.1\r\nHost: localhost\r\n\r\n"
    )
    .unwrap();
    let mut response = Vec::new();
    stream.read_to_end(&mut response).unwrap();
    let split = response.windows(4).position(|w| w == b"\r\n\r\n").unwrap();
    let head = String::from_utf8(response[..split].to_vec()).unwrap();
    let (status, headers) = head.split_once("\r\n").unwrap();
    (
        status.to_string(),
        headers.to_string(),
        response[split + 4..].to_vec(),
    )
}

#[test]
fn site_and_serve() {
    let dir = tempfile::tempdir().unwrap();
    let program = write_program(dir.path(), r#"[["(?m)^x$", "y"]]"#);
    let start = dir.path().join("start.state");
    std::fs::write(&start, "x\nYour move: ").unwrap();
    let site = dir.path().join("site");
    let status = bin()
        .args(["site", "--file"])
        .arg(&program)
        .arg("--start")
        .arg(&start)
        .arg("-o")
        .arg(&site)
        .stdout(Stdio::null())
        .status()
        .unwrap();
    assert!(status.success());
    for file in ["index.html", "app.js", "worker.js", "style.css", "rules.js"] {
        assert!(site.join(file).is_file(), "{file}");
    }
    assert_eq!(
        std::fs::read_to_string(site.join("start.txt")).unwrap(),
        "x\nYour move: "
    );
    assert!(!site.join("start-white.txt").exists(), "no board drew it");

    let mut server = bin()
        .args(["serve", "--port", "0", "--dir"])
        .arg(&site)
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let mut line = String::new();
    BufReader::new(server.stdout.take().unwrap())
        .read_line(&mut line)
        .unwrap();
    let port: u16 = line
        .trim()
        .rsplit(':')
        .next()
        .unwrap()
        .trim_end_matches('/')
        .parse()
        .unwrap_or_else(|_| panic!("no port in {line:?}"));
    let checks = || {
        let (status, headers, body) = request(port, "GET", "/");
        assert_eq!(status, "HTTP/1.1 200 OK");
        assert!(headers.contains("Content-Type: text/html; charset=utf-8"));
        assert!(String::from_utf8(body).unwrap().contains("app.js"));
        let (status, headers, body) = request(port, "GET", "/rules.js?v=2");
        assert_eq!(status, "HTTP/1.1 200 OK");
        assert!(
            headers.contains("Content-Type: text/javascript"),
            "{headers}"
        );
        assert!(
            String::from_utf8(body)
                .unwrap()
                .contains("export const RULES")
        );
        let (status, _, _) = request(port, "GET", "/../program.json");
        assert_eq!(status, "HTTP/1.1 404 Not Found");
        let (status, _, _) = request(port, "POST", "/index.html");
        assert_eq!(status, "HTTP/1.1 405 Method Not Allowed");
        let (status, _, body) = request(port, "HEAD", "/style.css");
        assert_eq!(status, "HTTP/1.1 200 OK");
        assert!(body.is_empty());
    };
    let result = std::panic::catch_unwind(checks);
    server.kill().unwrap();
    server.wait().unwrap();
    result.unwrap();
}

/// `site` shows its steps on standard error (the rules, the starting state, the files):
/// not on a terminal, a plain line a step and never an escape code; `--quiet` shows none.
#[test]
fn site_shows_its_steps_unless_quiet() {
    let dir = tempfile::tempdir().unwrap();
    let program = write_program(dir.path(), r#"[["(?m)^x$", "y"]]"#);
    let start = dir.path().join("start.state");
    std::fs::write(&start, "x\nYour move: ").unwrap();
    let site = |quiet: bool| {
        let mut command = bin();
        command
            .args(["site", "--file"])
            .arg(&program)
            .arg("--start")
            .arg(&start)
            .arg("-o")
            .arg(dir.path().join("site"));
        if quiet {
            command.arg("--quiet");
        }
        let output = command.output().unwrap();
        assert!(output.status.success(), "{output:?}");
        String::from_utf8(output.stderr).unwrap()
    };
    let stderr = site(false);
    let steps: Vec<&str> = stderr.lines().collect();
    assert_eq!(
        steps,
        [
            "regex-chess: site: 1/3 the program: 1 rule".to_string(),
            format!(
                "regex-chess: site: 2/3 read the starting state {}",
                start.display()
            ),
            format!(
                "regex-chess: site: 3/3 wrote 7 files to {}",
                dir.path().join("site").display()
            ),
        ],
        "{stderr}"
    );
    assert!(!stderr.contains('\x1b'), "{stderr:?}");
    assert_eq!(site(true), "");
}

#[test]
fn site_without_board_needs_a_start() {
    let dir = tempfile::tempdir().unwrap();
    let program = write_program(dir.path(), r#"[["a", "b"]]"#);
    let output = bin()
        .args(["site", "--file"])
        .arg(&program)
        .arg("-o")
        .arg(dir.path().join("site"))
        .output()
        .unwrap();
    if regex_chess_engine::registry::find("board").is_none() {
        assert!(!output.status.success());
        let stderr = String::from_utf8(output.stderr).unwrap();
        assert!(stderr.contains("--start"), "{stderr}");
    } else {
        assert!(output.status.success());
        // The `board` program also draws the start with the engine as white, for the
        // page's "New game" as black: the engine is to move.
        let site = dir.path().join("site");
        let black = std::fs::read_to_string(site.join("start.txt")).unwrap();
        let white = std::fs::read_to_string(site.join("start-white.txt")).unwrap();
        assert!(black.contains("Engine plays: black\n"), "{black}");
        assert!(black.ends_with("Your move: "), "{black}");
        assert!(white.contains("Engine plays: white\n"), "{white}");
        assert!(white.ends_with("Engine to move, press Enter: "), "{white}");
    }
}

/// `site --fen` checks the FEN before drawing it: a bad one is a one-line error, and no
/// file is written.
#[test]
fn site_refuses_a_bad_fen() {
    let dir = tempfile::tempdir().unwrap();
    let program = write_program(dir.path(), r#"[["a", "b"]]"#);
    let site = dir.path().join("site");
    for fen in [
        "not a fen",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR x KQkq - 0 1",
        "8/8/8/8/8/8/8/8/8 w - - 0 1",
    ] {
        let output = bin()
            .args(["site", "--file"])
            .arg(&program)
            .args(["--fen", fen, "-o"])
            .arg(&site)
            .output()
            .unwrap();
        assert!(!output.status.success(), "{fen}");
        let stderr = String::from_utf8(output.stderr).unwrap();
        assert_eq!(stderr.lines().count(), 1, "{fen}: {stderr}");
        assert!(
            stderr.starts_with("regex-chess: error: "),
            "{fen}: {stderr}"
        );
        assert!(!site.exists(), "{fen}: files were written");
    }
}

/// The default site: every search variant's `play` program, the default's in `rules.js`,
/// listed in `variants.json`; `--search` picks the default; a bad name is a one-line
/// error naming the known ones, and writes nothing.
#[test]
fn site_offers_every_search_variant() {
    use regex_chess_engine::variants::{Output, Search};
    let dir = tempfile::tempdir().unwrap();
    let count = |text: &str| text.matches("\n  [/").count();
    for (search, default) in [
        (None, Search::default_page().name()),
        (Some("2ply"), "2ply"),
    ] {
        let site = dir.path().join(default);
        let mut command = bin();
        command.args(["site", "-o"]).arg(&site);
        if let Some(name) = search {
            command.args(["--search", name]);
        }
        let output = command.output().unwrap();
        assert!(output.status.success(), "{output:?}");
        let listed: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(site.join("variants.json")).unwrap())
                .unwrap();
        assert_eq!(listed["default"], default);
        let entries = listed["variants"].as_array().unwrap();
        assert_eq!(entries.len(), Search::ALL.len());
        for (entry, v) in entries.iter().zip(Search::ALL) {
            assert_eq!(entry["name"], v.name());
            assert_eq!(entry["program"], v.program(Output::Play));
            let file = if v.name() == default {
                "rules.js".to_string()
            } else {
                format!("rules-{}.js", v.name())
            };
            assert_eq!(entry["file"], file.as_str());
            // The module holds the variant's program: its rules, counted.
            let text = std::fs::read_to_string(site.join(&file)).unwrap();
            let rules = regex_chess_engine::program(v.program(Output::Play)).unwrap();
            assert_eq!(count(&text), rules.rules().len(), "{file}");
        }
    }
    let output = bin()
        .args(["site", "--search", "3ply"])
        .arg("-o")
        .arg(dir.path().join("bad"))
        .output()
        .unwrap();
    assert!(!output.status.success());
    assert_eq!(
        String::from_utf8(output.stderr).unwrap(),
        format!(
            "regex-chess: error: unknown search `3ply`; known: {}\n",
            regex_chess_engine::Search::names().join(", ")
        )
    );
    assert!(!dir.path().join("bad").exists());
}

/// `site --wasm`: the module beside the page, named in `variants.json`, and each
/// program's two cache files beside its rules, which read back as the program (as the
/// module reads them); a file that is not a module is a one-line error, and writes
/// nothing.
#[test]
fn site_with_the_module_holds_the_programs_files() {
    use regex_chess_compiler::CompileOptions;
    use regex_chess_engine::cache::{ProgramCache, SOURCE_FINGERPRINT};
    let dir = tempfile::tempdir().unwrap();
    let program = write_program(dir.path(), r#"[["(?m)^x$", "y"], ["a+", "b"]]"#);
    let start = dir.path().join("start.state");
    std::fs::write(&start, "x\nYour move: ").unwrap();
    // Only the header is checked: the page, not the command, runs the module.
    let module = dir.path().join("module.wasm");
    std::fs::write(&module, b"\0asm\x01\0\0\0").unwrap();
    // `site --file PROGRAM --start START --wasm MODULE -o OUT`.
    let site_with = |module: &std::path::Path, out: &std::path::Path| {
        bin()
            .args(["site", "--file"])
            .arg(&program)
            .arg("--start")
            .arg(&start)
            .arg("--wasm")
            .arg(module)
            .arg("-o")
            .arg(out)
            .output()
            .unwrap()
    };
    let site = dir.path().join("site");
    let output = site_with(&module, &site);
    assert!(output.status.success(), "{output:?}");
    assert_eq!(
        std::fs::read(site.join("regex-chess.wasm")).unwrap(),
        b"\0asm\x01\0\0\0"
    );
    let listed: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(site.join("variants.json")).unwrap())
            .unwrap();
    assert_eq!(listed["wasm"], "regex-chess.wasm");
    let read = |name: &str| std::fs::read(site.join(name)).unwrap();
    let loaded = ProgramCache::new("", SOURCE_FINGERPRINT)
        .read_files(
            "",
            &CompileOptions::default(),
            &read("rules.program"),
            &read("rules.parses"),
        )
        .unwrap();
    let pairs: Vec<(&str, &str)> = loaded
        .rules()
        .iter()
        .map(|r| (r.pattern.as_str(), r.replacement.as_str()))
        .collect();
    assert_eq!(pairs, [("(?m)^x$", "y"), ("a+", "b")]);

    let other = dir.path().join("other");
    let output = site_with(&start, &other);
    assert!(!output.status.success());
    let stderr = String::from_utf8(output.stderr).unwrap();
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert!(stderr.contains("is not a WebAssembly module"), "{stderr}");
    assert!(!other.exists(), "files were written");
}
