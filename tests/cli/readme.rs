//! The README tells the truth about the command line: its two opening commands are the
//! ones CI runs, and its usage lines name every option of every subcommand.
//!
//! The options are read from the binary's own `--help`, so a new flag without a README
//! line fails here.

use std::process::Command;

fn readme() -> String {
    std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/README.md")).unwrap()
}

fn help(args: &[&str]) -> String {
    let out = Command::new(env!("CARGO_BIN_EXE_regex-chess"))
        .args(args)
        .output()
        .expect("the binary runs");
    assert!(out.status.success(), "{args:?} --help failed");
    String::from_utf8(out.stdout).unwrap()
}

/// The subcommands listed by `regex-chess --help`, without `help`.
fn subcommands() -> Vec<String> {
    let top = help(&["--help"]);
    let list = top
        .split("Commands:")
        .nth(1)
        .expect("a command list")
        .split("Options:")
        .next()
        .unwrap();
    list.lines()
        .filter_map(|line| line.split_whitespace().next())
        .filter(|name| *name != "help")
        .map(str::to_string)
        .collect()
}

/// The long options of a subcommand's `--help` (the first word of each option line, or
/// the second after a short form such as `-o,`), without `--help` and the global ones.
fn long_options(sub: &str) -> Vec<String> {
    help(&[sub, "--help"])
        .split("Options:")
        .nth(1)
        .unwrap_or("")
        .lines()
        .filter_map(|line| {
            let mut words = line.split_whitespace();
            let first = words.next()?;
            let option = if first.starts_with("--") {
                first
            } else if first.starts_with('-') && first.ends_with(',') {
                words.next()?
            } else {
                return None;
            };
            option.starts_with("--").then(|| option.to_string())
        })
        .filter(|option| {
            !["--help", "--no-cache", "--quiet", "--version"].contains(&option.as_str())
        })
        .collect()
}

/// The README's usage lines for `sub`: every line of a code block from one that starts
/// with `regex-chess SUB` up to the next line that starts a command.
fn usage_lines(readme: &str, sub: &str) -> String {
    let mut inside = false;
    let mut out = String::new();
    let head = format!("regex-chess {sub}");
    for line in readme.lines() {
        let trimmed = line.trim_start();
        if trimmed.starts_with("regex-chess ") || trimmed.starts_with("```") {
            inside = trimmed.starts_with(&head) && trimmed[head.len()..].starts_with([' ', '\t'])
                || trimmed == head;
        }
        if inside {
            out.push_str(line);
            out.push('\n');
        }
    }
    out
}

#[test]
fn the_readme_opens_with_the_two_commands() {
    let readme = readme();
    let first_block: String = readme
        .split("```sh\n")
        .nth(1)
        .and_then(|rest| rest.split("```").next())
        .expect("a first sh block")
        .to_string();
    assert!(
        first_block.contains("cargo run --release -- play"),
        "{first_block}"
    );
    assert!(first_block.contains("cargo test"), "{first_block}");
    let ci = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/.ci/run")).unwrap();
    assert!(
        ci.lines().any(|line| line.trim() == "cargo test"),
        "CI does not run the README's test command"
    );
}

#[test]
fn the_usage_lines_name_every_option() {
    let readme = readme();
    let subs = subcommands();
    assert!(subs.len() >= 10, "{subs:?}");
    let mut missing = Vec::new();
    for sub in &subs {
        let usage = usage_lines(&readme, sub);
        if usage.is_empty() {
            missing.push(format!("no usage line for `regex-chess {sub}`"));
            continue;
        }
        for option in long_options(sub) {
            if !usage.contains(&option) {
                missing.push(format!("`regex-chess {sub}` lacks {option}"));
            }
        }
    }
    assert!(
        missing.is_empty(),
        "README usage lines:\n{}",
        missing.join("\n")
    );
}
