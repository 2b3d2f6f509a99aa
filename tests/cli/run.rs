//! Integration tests of `regex-chess run`, driving the built binary.
//!
//! They prove that `run PROGRAM --state FILE` prints exactly the final state (byte for
//! byte, no added newline) with either executor, that `--state -` reads standard input,
//! that the plain pairs form with Python-style `\1` replacements works, that `--trace`
//! prints the state and reports agreement on standard error, and that every user error
//! (missing or unreadable files, bad JSON, a pattern that does not compile, a replacement
//! naming a missing group, a state that is not UTF-8, an unknown option value) gives one
//! line on standard error and a non-zero exit, never a panic.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

use regex_chess_machine::exec::Executor;
use regex_chess_machine::exec::reference::Reference;
use regex_chess_machine::program::{Program, Rule, json};

/// Runs the binary with `args`, feeding `stdin` (or nothing) to it.
fn regex_chess(args: &[&str], stdin: Option<&[u8]>) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_regex-chess"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary starts");
    {
        let mut pipe = child.stdin.take().unwrap();
        if let Some(bytes) = stdin {
            pipe.write_all(bytes).unwrap();
        }
    }
    child.wait_with_output().unwrap()
}

fn write(dir: &Path, name: &str, bytes: impl AsRef<[u8]>) -> String {
    let path: PathBuf = dir.join(name);
    std::fs::write(&path, bytes).unwrap();
    path.to_str().unwrap().to_string()
}

fn stderr(output: &Output) -> String {
    String::from_utf8_lossy(&output.stderr).into_owned()
}

/// Asserts a clean success and returns standard output.
fn success(output: Output) -> Vec<u8> {
    assert!(
        output.status.success(),
        "exit {:?}, stderr: {}",
        output.status,
        stderr(&output)
    );
    output.stdout
}

/// Asserts a user error: non-zero exit, nothing on standard output, exactly one line on
/// standard error that holds each of `needles`, and no panic.
fn user_error(output: Output, needles: &[&str]) {
    let err = stderr(&output);
    assert!(!output.status.success(), "expected failure, stderr: {err}");
    assert_ne!(output.status.code(), None, "killed by a signal: {err}");
    assert!(!err.contains("panicked"), "{err}");
    assert!(output.stdout.is_empty(), "stdout: {:?}", output.stdout);
    assert!(err.ends_with('\n'), "{err:?}");
    assert_eq!(err.lines().count(), 1, "not one line: {err:?}");
    assert!(err.starts_with("regex-chess: error: "), "{err:?}");
    for needle in needles {
        assert!(err.contains(needle), "{err:?} lacks {needle:?}");
    }
}

/// A small program in the machine's dialect: push, fork, mark, pause one branch.
fn machine_program() -> Program {
    Program::from_rules(vec![
        Rule::new("(%%\n#stack:\n)", "${1}e4\n"),
        Rule::new("%%\n([^%]*)", "%%\n${1}%%\n${1}"),
        Rule::new("(%%\n#stack:\n)([^\n]*)\n", "${1}♟${2}\n"),
        Rule::new("(%%\n[^%]*)(%%\n[^%]*)", "$1%p1\n$2"),
        Rule::new("%%\n#stack:\n♟e4\n#x: (True)", "%%\n#stack:\n#x: $1!"),
    ])
}

const MACHINE_STATE: &str = "%%\n#stack:\nTrue\n#x: True\n%p2\n#stack:\né\n";

#[test]
fn prints_exactly_the_final_state_with_both_executors() {
    let dir = tempfile::tempdir().unwrap();
    let program = machine_program();
    let expected = Reference::new(program.clone().validate().unwrap())
        .run(MACHINE_STATE)
        .unwrap();
    assert!(expected.contains("%p1\n") && expected.ends_with('\n'));
    let program = write(dir.path(), "machine.json", json::to_string(&program));
    let state = write(dir.path(), "state.txt", MACHINE_STATE);
    for executor in ["reference", "fast"] {
        let out = success(regex_chess(
            &["run", &program, "--state", &state, "--executor", executor],
            None,
        ));
        assert_eq!(String::from_utf8(out).unwrap(), expected, "{executor}");
    }
    // The default executor prints the same.
    let out = success(regex_chess(&["run", &program, "--state", &state], None));
    assert_eq!(String::from_utf8(out).unwrap(), expected);
}

/// The README's hand-written example (`examples/threads-demo.json` on
/// `examples/threads-demo.state`) runs as the reference executor says, on both executors:
/// its two active threads become three (one forked) with `T` assigned, the paused one
/// becomes active and keeps its `F`.
#[test]
fn the_hand_written_example_runs() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("examples");
    let program = root.join("threads-demo.json");
    let state = root.join("threads-demo.state");
    let text = std::fs::read_to_string(&program).unwrap();
    let parsed = json::from_str(&text, json::Syntax::Auto).expect("the example parses");
    let input = std::fs::read_to_string(&state).unwrap();
    let expected = Reference::new(parsed.validate().unwrap())
        .run(&input)
        .unwrap();
    assert!(!expected.contains("%p"), "{expected}");
    assert_eq!(expected.matches("#x: T\n").count(), 2, "{expected}");
    assert_eq!(expected.matches("#x: F\n").count(), 1, "{expected}");
    let (program, state) = (program.to_str().unwrap(), state.to_str().unwrap());
    for executor in ["reference", "fast"] {
        let out = success(regex_chess(
            &["run", program, "--state", state, "--executor", executor],
            None,
        ));
        assert_eq!(String::from_utf8(out).unwrap(), expected, "{executor}");
    }
}

#[test]
fn adds_no_newline_and_keeps_every_byte() {
    let dir = tempfile::tempdir().unwrap();
    let program = write(
        dir.path(),
        "p.json",
        r#"[["\n$", ""], ["x", "♔\r\n"], ["^$", "empty"]]"#,
    );
    let cases: &[(&str, &str)] = &[
        ("abc\n", "abc"),
        ("x", "♔\r\n"),
        ("", "empty"),
        ("a\tx\u{0}y", "a\t♔\r\n\u{0}y"),
    ];
    for (input, expected) in cases {
        let state = write(dir.path(), "s.txt", input);
        for executor in ["reference", "fast"] {
            let out = success(regex_chess(
                &["run", &program, "--state", &state, "--executor", executor],
                None,
            ));
            assert_eq!(out, expected.as_bytes(), "{input:?} with {executor}");
        }
    }
}

#[test]
fn reads_the_state_from_standard_input() {
    let dir = tempfile::tempdir().unwrap();
    let program = write(dir.path(), "p.json", json::to_string(&machine_program()));
    let expected = Reference::new(machine_program().validate().unwrap())
        .run(MACHINE_STATE)
        .unwrap();
    for executor in ["reference", "fast"] {
        let out = success(regex_chess(
            &["run", &program, "--state", "-", "--executor", executor],
            Some(MACHINE_STATE.as_bytes()),
        ));
        assert_eq!(String::from_utf8(out).unwrap(), expected);
    }
    // An empty standard input is an empty state.
    let out = success(regex_chess(&["run", &program, "--state", "-"], Some(b"")));
    assert!(out.is_empty());
}

#[test]
fn plain_pairs_with_python_replacements() {
    let dir = tempfile::tempdir().unwrap();
    let program = write(
        dir.path(),
        "pairs.json",
        r#"[["(a)(n)", "\\2\\1"], ["(?P<first>b)", "<\\g<first>$>"], ["(n)(a)", "\\g<2>\\1\\n"]]"#,
    );
    let state = write(dir.path(), "s.txt", "banana");
    // banana -> bnanaa -> <b$>nanaa -> <b$>an\nan\na
    let expected = "<b$>an\nan\na";
    assert_eq!(
        Reference::new(
            Program::from_rules(vec![
                Rule::new("(a)(n)", "$2$1"),
                Rule::new("(?P<first>b)", "<${first}$$>"),
                Rule::new("(n)(a)", "${2}${1}\n"),
            ])
            .validate()
            .unwrap()
        )
        .run("banana")
        .unwrap(),
        expected
    );
    for executor in ["reference", "fast"] {
        let out = success(regex_chess(
            &["run", &program, "--state", &state, "--executor", executor],
            None,
        ));
        assert_eq!(String::from_utf8(out).unwrap(), expected, "{executor}");
    }
    // Forcing Rust syntax keeps `\1` and `\g<first>` literal.
    let out = success(regex_chess(
        &["run", &program, "--state", &state, "--syntax", "rust"],
        None,
    ));
    assert_eq!(String::from_utf8(out).unwrap(), r"<\g<first>$>\2\1\2\1a");
}

#[test]
fn trace_prints_the_state_and_a_note() {
    let dir = tempfile::tempdir().unwrap();
    let program = write(
        dir.path(),
        "machine.json",
        json::to_string(&machine_program()),
    );
    let state = write(dir.path(), "state.txt", MACHINE_STATE);
    let expected = Reference::new(machine_program().validate().unwrap())
        .run(MACHINE_STATE)
        .unwrap();
    for executor in ["reference", "fast"] {
        let output = regex_chess(
            &[
                "run",
                &program,
                "--state",
                &state,
                "--trace",
                "--executor",
                executor,
            ],
            None,
        );
        let err = stderr(&output);
        assert_eq!(String::from_utf8(success(output)).unwrap(), expected);
        assert_eq!(
            err, "trace: both executors agree after each of the 5 rules\n",
            "{executor}"
        );
    }
}

#[test]
fn missing_program_file() {
    let dir = tempfile::tempdir().unwrap();
    let state = write(dir.path(), "s.txt", "x");
    let missing = dir.path().join("nowhere.json");
    let missing = missing.to_str().unwrap();
    user_error(
        regex_chess(&["run", missing, "--state", &state], None),
        &["cannot read program", "nowhere.json"],
    );
    // A directory is not a program either.
    let here = dir.path().to_str().unwrap();
    user_error(
        regex_chess(&["run", here, "--state", &state], None),
        &["cannot read program"],
    );
}

#[test]
fn missing_state_file() {
    let dir = tempfile::tempdir().unwrap();
    let program = write(dir.path(), "p.json", r#"[["a", "b"]]"#);
    let missing = dir.path().join("no-state.txt");
    user_error(
        regex_chess(
            &["run", &program, "--state", missing.to_str().unwrap()],
            None,
        ),
        &["cannot read state", "no-state.txt"],
    );
}

#[test]
fn bad_json() {
    let dir = tempfile::tempdir().unwrap();
    let state = write(dir.path(), "s.txt", "x");
    let cases: &[(&str, &[&str])] = &[
        (r#"[["a", "b"]"#, &["bad.json", "not valid JSON"]),
        ("", &["not valid JSON"]),
        (r#"{"rules": 3}"#, &["expected an object"]),
        (r#"[["a"]]"#, &["not valid JSON"]),
        (
            r#"{"format": "regex-chess-program", "version": 7, "rules": []}"#,
            &["version 7"],
        ),
        (
            r#"{"format": "something-else", "version": 1, "rules": []}"#,
            &["\"format\""],
        ),
    ];
    for (text, needles) in cases {
        let program = write(dir.path(), "bad.json", text);
        user_error(
            regex_chess(&["run", &program, "--state", &state], None),
            needles,
        );
    }
}

#[test]
fn pattern_that_does_not_compile_names_the_rule() {
    let dir = tempfile::tempdir().unwrap();
    let state = write(dir.path(), "s.txt", "aa");
    let program = write(
        dir.path(),
        "p.json",
        r#"[["a", "b"], ["x", "y"], ["(a)\\1", "z"]]"#,
    );
    user_error(
        regex_chess(&["run", &program, "--state", &state], None),
        &["rule 2", "backreferences are not supported"],
    );
    let program = write(
        dir.path(),
        "q.json",
        r#"{"format": "regex-chess-program", "version": 1,
            "rules": [{"pattern": "a(?=b)", "replacement": "", "origin": "look-ahead by hand"}]}"#,
    );
    user_error(
        regex_chess(&["run", &program, "--state", &state], None),
        &["rule 0", "look-ahead by hand", "does not compile"],
    );
    let program = write(dir.path(), "r.json", r#"[["ok", ""], ["(", ""]]"#);
    user_error(
        regex_chess(&["run", &program, "--state", &state], None),
        &["rule 1", "unclosed group"],
    );
}

#[test]
fn replacement_naming_a_missing_group() {
    let dir = tempfile::tempdir().unwrap();
    let state = write(dir.path(), "s.txt", "aa");
    let cases: &[(&str, &[&str])] = &[
        (r#"[["(a)", "$2"]]"#, &["rule 0", "group `2`"]),
        (r#"[["a", "b"], ["(a)", "$1x"]]"#, &["rule 1", "group `1x`"]),
        (r#"[["(?P<n>a)", "${m}"]]"#, &["rule 0", "group `m`"]),
        (r#"[["(a)", "\\2"]]"#, &["rule 0", "group `2`"]),
    ];
    for (text, needles) in cases {
        let program = write(dir.path(), "p.json", text);
        user_error(
            regex_chess(&["run", &program, "--state", &state], None),
            needles,
        );
    }
}

#[test]
fn state_that_is_not_utf8() {
    let dir = tempfile::tempdir().unwrap();
    let program = write(dir.path(), "p.json", r#"[["a", "b"]]"#);
    let bytes: &[u8] = b"%%\n#stack:\n\xff\xfe\n";
    let state = write(dir.path(), "bin.txt", bytes);
    user_error(
        regex_chess(&["run", &program, "--state", &state], None),
        &["not UTF-8", "bin.txt", "offset 11"],
    );
    user_error(
        regex_chess(&["run", &program, "--state", "-"], Some(bytes)),
        &["not UTF-8", "standard input"],
    );
}

#[test]
fn unknown_option_values_and_missing_arguments() {
    let dir = tempfile::tempdir().unwrap();
    let program = write(dir.path(), "p.json", r#"[["a", "b"]]"#);
    let state = write(dir.path(), "s.txt", "a");
    user_error(
        regex_chess(
            &["run", &program, "--state", &state, "--executor", "turbo"],
            None,
        ),
        &["unknown executor `turbo`", "reference or fast"],
    );
    user_error(
        regex_chess(
            &["run", &program, "--state", &state, "--syntax", "perl"],
            None,
        ),
        &["unknown syntax `perl`"],
    );
    user_error(regex_chess(&["run", &program], None), &["--state"]);
    user_error(regex_chess(&["walk"], None), &["walk"]);
}

/// `profile` on the `legal-moves` program: the summary line names the program and the
/// rule count, the table has the asked number of origins, and the folded stacks and the
/// plot are written; a bad FEN is a one-line error.
#[test]
fn profile_reports_the_run_and_writes_its_files() {
    let dir = tempfile::tempdir().unwrap();
    let (folded, svg) = (dir.path().join("stacks.txt"), dir.path().join("plot.svg"));
    let output = Command::new(env!("CARGO_BIN_EXE_regex-chess"))
        .args(["profile", "--program", "legal-moves", "--top", "3", "--fen"])
        .arg("4k3/8/8/8/8/8/4P3/4K3 w - - 0 1")
        .arg("--folded")
        .arg(&folded)
        .arg("--svg")
        .arg(&svg)
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(output.status.success(), "{stderr}");
    let stdout = String::from_utf8(output.stdout).unwrap();
    assert!(
        stdout.contains("legal-moves on the fast executor: ") && stdout.contains(" rules ("),
        "{stdout}"
    );
    let stacks = std::fs::read_to_string(&folded).unwrap();
    assert!(!stacks.is_empty());
    for line in stacks.lines() {
        let (stack, micros) = line.rsplit_once(' ').expect("`stack microseconds`");
        assert!(!stack.is_empty(), "{line}");
        micros.parse::<f64>().unwrap_or_else(|_| panic!("{line}"));
    }
    let plot = std::fs::read_to_string(&svg).unwrap();
    assert!(
        plot.starts_with("<svg") || plot.starts_with("<?xml"),
        "{}",
        &plot[..80.min(plot.len())]
    );

    let bad = Command::new(env!("CARGO_BIN_EXE_regex-chess"))
        .args(["profile", "--program", "legal-moves", "--fen", "not a fen"])
        .output()
        .unwrap();
    assert!(!bad.status.success());
    let err = String::from_utf8(bad.stderr).unwrap();
    assert_eq!(err.lines().count(), 1, "{err}");
}

/// The program that doubles its state forty times (`(.+)` -> `$1$1`): from two bytes it
/// would reach a terabyte.
fn doubling(dir: &Path) -> String {
    let pairs = vec![r#"["(.+)", "$1$1"]"#; 40].join(",\n");
    write(dir, "doubling.json", format!("[\n{pairs}\n]\n"))
}

#[test]
fn a_program_that_grows_past_the_state_limit_stops_with_an_error_naming_the_rule() {
    let dir = tempfile::tempdir().unwrap();
    let program = doubling(dir.path());
    let state = write(dir.path(), "s.txt", "ab");
    // Rule i leaves 2^(i + 2) bytes: rule 19 would write 2 MiB, past 1 MiB.
    for executor in ["reference", "fast"] {
        for trace in [&[][..], &["--trace"][..]] {
            let mut args = vec![
                "run",
                &program,
                "--state",
                &state,
                "--executor",
                executor,
                "--max-state",
                "1M",
            ];
            args.extend(trace);
            let mut output = regex_chess(&args, None);
            if !trace.is_empty() {
                // The trace's line first, then the error's.
                let err = stderr(&output);
                let (first, rest) = err.split_once('\n').unwrap();
                assert!(
                    first.contains("before rule 19, and both stop there"),
                    "{err}"
                );
                output.stderr = rest.as_bytes().to_vec();
            }
            user_error(
                output,
                &[
                    "rule 19 (unknown origin) would grow the state to 2097152 bytes",
                    "past the state limit of 1048576 bytes",
                    "--max-state",
                ],
            );
        }
    }
    // Under the limit the same program's first rules run.
    let short = write(
        dir.path(),
        "short.json",
        r#"[["(.+)", "$1$1"], ["(.+)", "$1$1"]]"#,
    );
    let out = success(regex_chess(
        &["run", &short, "--state", &state, "--max-state", "8"],
        None,
    ));
    assert_eq!(out, b"abababab");
    user_error(
        regex_chess(
            &["run", &short, "--state", &state, "--max-state", "2x"],
            None,
        ),
        &["is not a size"],
    );
}

#[test]
#[ignore = "volume (about 3 GB of memory): cargo test --release --test cli -- run:: --ignored"]
fn the_default_state_limit_stops_the_doubling_program_on_both_executors() {
    let dir = tempfile::tempdir().unwrap();
    let program = doubling(dir.path());
    let state = write(dir.path(), "s.txt", "ab");
    // 1 GiB is allowed (after rule 28); rule 29 would write 2 GiB.
    for executor in ["reference", "fast"] {
        user_error(
            regex_chess(
                &["run", &program, "--state", &state, "--executor", executor],
                None,
            ),
            &["rule 29", "2147483648 bytes", "limit of 1073741824 bytes"],
        );
    }
}
