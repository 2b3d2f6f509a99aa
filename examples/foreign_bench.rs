//! The `play` program's time per move in other regex engines: CPython's `re` (the JSON
//! pairs, applied with `re.sub` one after another, the loop `docs/exports.md` shows) and
//! Node.js's `RegExp` (the ES module's `run`), on the bench positions, printed as bench
//! results lines (`executor` `cpython` and `node`): the headline chart's middle bars
//! (`regex-chess chart headline`).
//!
//! `cargo run --release --example foreign_bench -- [RUNS] >> data/results/bench.jsonl`
//! (3 runs by default). For each position the input state is built as `bench` builds it;
//! the interpreter runs it once untimed (CPython and V8 compile each pattern on first
//! use), then RUNS times, timed inside the interpreter around the rule loop alone; the
//! line holds the median. Every final state must equal the fast executor's, or the
//! example stops with the position that differs.

use std::path::Path;
use std::process::Command;
use std::time::SystemTime;

use regex_chess_chess::positions::BENCH;
use regex_chess_compiler::CompileOptions;
use regex_chess_engine::bench::results::BenchLine;
use regex_chess_engine::bench::{Workload, measure, median, parse_positions};
use regex_chess_engine::matchplay::pgn::iso_date;
use regex_chess_machine::exec::fast::Fast;
use regex_chess_machine::export::{self, Format};

/// CPython: `argv[1]` the pairs, `argv[2]` the states, `argv[3]` the runs; prints a JSON
/// list of `[final state, [ms, ...]]`.
const PYTHON: &str = r#"
import json, re, sys, time
rules = [(re.compile(p), r) for p, r in json.load(open(sys.argv[1], encoding="utf-8"))]
def run(state):
    for pattern, replacement in rules:
        state = pattern.sub(replacement, state)
    return state
out = []
for state in json.load(open(sys.argv[2], encoding="utf-8")):
    final = run(state)
    times = []
    for _ in range(int(sys.argv[3])):
        start = time.perf_counter()
        run(state)
        times.append((time.perf_counter() - start) * 1000.0)
    out.append([final, times])
sys.stdout.write(json.dumps(out))
"#;

/// Node.js: the same with the ES module's `run`.
const NODE: &str = r#"
import { readFileSync } from "node:fs";
import { pathToFileURL } from "node:url";
import { performance } from "node:perf_hooks";
const { run } = await import(pathToFileURL(process.argv[2]).href);
const out = [];
for (const state of JSON.parse(readFileSync(process.argv[3], "utf8"))) {
  const final = run(state);
  const times = [];
  for (let i = 0; i < Number(process.argv[4]); i++) {
    const start = performance.now();
    run(state);
    times.push(performance.now() - start);
  }
  out.push([final, times]);
}
process.stdout.write(JSON.stringify(out));
"#;

/// Runs `script` (saved with extension `ext`) under `interpreter` with `args`; its
/// standard output parsed.
fn interpret(
    dir: &Path,
    interpreter: &str,
    script: &str,
    ext: &str,
    args: &[&str],
) -> Vec<(String, Vec<f64>)> {
    let path = dir.join(format!("harness.{ext}"));
    std::fs::write(&path, script).expect("write the harness");
    let output = Command::new(interpreter)
        .arg(&path)
        .args(args)
        .output()
        .unwrap_or_else(|e| panic!("cannot start {interpreter}: {e}"));
    assert!(
        output.status.success(),
        "{interpreter} failed: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    serde_json::from_slice(&output.stdout).expect("the harness prints JSON")
}

fn main() {
    let runs: usize = std::env::args()
        .nth(1)
        .map_or(3, |a| a.parse().expect("RUNS is a number"));
    let workload = Workload::new(None, &CompileOptions::default()).expect("compile play");
    let positions = parse_positions(BENCH).expect("the bench suite parses");
    let states: Vec<String> = positions
        .iter()
        .map(|p| workload.input(p).expect("an input state"))
        .collect();
    let fast = Fast::new(workload.program.clone());
    // Each final state and the widest state on the way, from the fast executor.
    let (expected, widest): (Vec<String>, Vec<usize>) = states
        .iter()
        .map(|s| {
            let m = measure(&fast, s, 1).expect("the bench positions stay within the limit");
            (m.output, m.stats.max_state_len)
        })
        .unzip();

    let dir = tempfile::tempdir().expect("a temporary directory");
    let states_path = dir.path().join("states.json");
    std::fs::write(&states_path, serde_json::to_string(&states).unwrap()).unwrap();
    let states_arg = states_path.to_str().unwrap();
    let runs_arg = runs.to_string();
    let date = iso_date(SystemTime::now());
    let engines = [
        (
            "cpython",
            "python3",
            PYTHON,
            "py",
            Format::Json,
            "rules.json",
        ),
        ("node", "node", NODE, "mjs", Format::Js, "rules.mjs"),
    ];
    for (name, interpreter, script, ext, format, file) in engines {
        let rules = dir.path().join(file);
        let text = export::export(&workload.program, format).expect("play exports");
        std::fs::write(&rules, text).unwrap();
        let rules_arg = rules.to_str().unwrap();
        let results = interpret(
            dir.path(),
            interpreter,
            script,
            ext,
            &[rules_arg, states_arg, &runs_arg],
        );
        let checked = positions.iter().zip(&expected).zip(&widest);
        for (((position, want), widest), (got, times)) in checked.zip(results) {
            assert_eq!(&got, want, "{name} differs on {}", position.label);
            let line = BenchLine {
                program: workload.name.clone(),
                search: None,
                executor: name.to_string(),
                cores: 1,
                label: position.label.clone(),
                widest_state: *widest,
                median_ms: median(&times),
                runs,
                date: date.clone(),
                note: Some(format!(
                    "{interpreter}, timed inside the interpreter (examples/foreign_bench.rs)"
                )),
            };
            println!("{}", line.to_json());
        }
    }
}
