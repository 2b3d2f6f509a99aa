//! Criterion benchmarks: the reference and the fast executor on three of the machine's
//! rules (pop, push, lookup) over a 1,000-thread state of about 137 KB, and on a small
//! mixed program (push, pop, lookup, fork, pause, reactivate) over many threads.
//!
//! Run with `cargo bench --bench executors`; sample counts and times are kept small
//! because the machine is shared. The runs so far are in docs/perf-history.md,
//! "Executors (`benches/executors.rs`)".

use std::hint::black_box;
use std::time::Duration;

use criterion::{Criterion, criterion_group, criterion_main};
use regex_chess_machine::exec::Executor;
use regex_chess_machine::exec::fast::Fast;
use regex_chess_machine::exec::reference::Reference;
use regex_chess_machine::program::{Program, Rule, ValidProgram};

#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

const POP: (&str, &str) = ("(%%\n#stack:\n)[^\n]*\n", "${1}");
const PUSH: (&str, &str) = ("(%%\n#stack:\n)", "${1}False\n");
const LOOKUP: (&str, &str) = (
    "(%%\n#stack:\n)([^%]*\n#score: )([^\n]*)\n",
    "${1}${3}\n${2}${3}\n",
);

/// One active thread of about 137 bytes.
fn thread(i: usize, marker: &str) -> String {
    format!(
        "{marker}\n#stack:\nTrue\nFalse\n#board: rnbqkbnrpppppppp{:08b}\n#turn: w\n#castle: KQkq\n\
         #ep: -\n#moves: e7e5 g1f3\n#best: e2e4\n#depth: 2\n#score: {:04}\n",
        i % 256,
        i % 9973
    )
}

/// `n` active threads.
fn state(n: usize) -> String {
    (0..n).map(|i| thread(i, "%%")).collect()
}

fn program(rules: &[(&str, &str)]) -> ValidProgram {
    Program::from_rules(rules.iter().map(|(p, r)| Rule::new(*p, *r)).collect())
        .validate()
        .unwrap()
}

/// A few hundred rules mixing the machine's instructions; three forks take 125 threads
/// to 1,000 (pausing and reactivating keeps some threads out of some rules).
fn mixed_rules() -> Vec<(String, String)> {
    let mut rules = Vec::new();
    for step in 0..300 {
        let var = ["board", "turn", "castle", "ep", "best", "depth", "score"][step % 7];
        let rule = match step % 10 {
            0 | 5 => (PUSH.0.to_string(), "${1}True\n".to_string()),
            1 | 6 => (POP.0.to_string(), POP.1.to_string()),
            2 | 7 => (
                format!("(%%\n#stack:\n)([^%]*\n#{var}: )([^\n]*)\n"),
                "${1}${3}\n${2}${3}\n".to_string(),
            ),
            3 => ("%%\n(#stack:\nFalse\n)".to_string(), "%p\n${1}".to_string()),
            4 => (POP.0.to_string(), POP.1.to_string()),
            8 => ("%p\n".to_string(), "%%\n".to_string()),
            _ => (POP.0.to_string(), POP.1.to_string()),
        };
        rules.push(rule);
        if step == 60 || step == 150 || step == 240 {
            rules.push(("%%\n([^%]*)".to_string(), "%%\n${1}%%\n${1}".to_string()));
        }
    }
    rules
}

fn bench(c: &mut Criterion) {
    let big = state(1000);
    let mut group = c.benchmark_group("rule_1000_threads");
    group
        .sample_size(20)
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(2));
    for (name, rule) in [("pop", POP), ("push", PUSH), ("lookup", LOOKUP)] {
        let reference = Reference::new(program(&[rule]));
        let fast = Fast::new(program(&[rule]));
        assert_eq!(reference.run(&big), fast.run(&big));
        group.bench_function(format!("{name}/reference"), |b| {
            b.iter(|| reference.run(black_box(&big)))
        });
        group.bench_function(format!("{name}/fast"), |b| {
            b.iter(|| fast.run(black_box(&big)))
        });
    }
    group.finish();

    let rules = mixed_rules();
    let borrowed: Vec<(&str, &str)> = rules
        .iter()
        .map(|(p, r)| (p.as_str(), r.as_str()))
        .collect();
    let start = state(125);
    let reference = Reference::new(program(&borrowed));
    let fast = Fast::new(program(&borrowed));
    assert_eq!(reference.run(&start), fast.run(&start));
    let mut group = c.benchmark_group(format!("program_{}_rules_125_to_1000_threads", rules.len()));
    group
        .sample_size(10)
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(4));
    let segmented = Fast::new(program(&borrowed)).segmented(4096);
    assert_eq!(reference.run(&start), segmented.run(&start));
    group.bench_function("reference", |b| b.iter(|| reference.run(black_box(&start))));
    group.bench_function("fast", |b| b.iter(|| fast.run(black_box(&start))));
    group.bench_function("fast_segmented", |b| {
        b.iter(|| segmented.run(black_box(&start)))
    });
    group.finish();
}

/// The mixed program over 1,000 threads of which only 10 are active (the rest paused):
/// the case the segmented state is for.
fn sparse(c: &mut Criterion) {
    let rules = mixed_rules();
    // No forks here: they would double the active threads.
    let rules: Vec<(&str, &str)> = rules
        .iter()
        .filter(|(p, _)| !p.starts_with("%%\n(["))
        .map(|(p, r)| (p.as_str(), r.as_str()))
        .collect();
    let start: String = (0..1000)
        .map(|i| thread(i, if i % 100 == 0 { "%%" } else { "%z" }))
        .collect();
    let reference = Reference::new(program(&rules));
    let fast = Fast::new(program(&rules));
    let segmented = Fast::new(program(&rules)).segmented(4096);
    assert_eq!(reference.run(&start), fast.run(&start));
    assert_eq!(reference.run(&start), segmented.run(&start));
    let mut group = c.benchmark_group(format!("sparse_{}_rules_10_of_1000_threads", rules.len()));
    group
        .sample_size(10)
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(3));
    group.bench_function("reference", |b| b.iter(|| reference.run(black_box(&start))));
    group.bench_function("fast", |b| b.iter(|| fast.run(black_box(&start))));
    group.bench_function("fast_segmented", |b| {
        b.iter(|| segmented.run(black_box(&start)))
    });
    group.finish();
}

/// 2,000 distinct machine-like patterns, each compiled on its first use: what the first
/// run of a big program pays before its rules run at full speed.
fn startup(c: &mut Criterion) {
    let rules: Vec<(String, String)> = (0..2000)
        .map(|i| match i % 4 {
            0 => (
                format!("(%%\n#stack:\n)([^%]*\n#v{i}: )([^\n]*)\n"),
                "${1}${3}\n${2}${3}\n".to_string(),
            ),
            1 => (format!("(%%\n#stack:\n)v{i}\n"), "${1}".to_string()),
            2 => (
                format!("%%\n(#stack:\n[^\n]*\n#w{i}: )(True|False)"),
                "%p{i}\n${1}${2}".to_string(),
            ),
            _ => (format!("%p{i}\n"), "%%\n".to_string()),
        })
        .collect();
    let borrowed: Vec<(&str, &str)> = rules
        .iter()
        .map(|(p, r)| (p.as_str(), r.as_str()))
        .collect();
    let program = program(&borrowed);
    let tiny = state(2);
    let mut group = c.benchmark_group("startup_2000_patterns");
    group
        .sample_size(10)
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(5));
    group.bench_function("fast_new_and_first_run", |b| {
        b.iter(|| Fast::new(program.clone()).run(black_box(&tiny)))
    });
    group.bench_function("reference_new_and_first_run", |b| {
        b.iter(|| Reference::new(program.clone()).run(black_box(&tiny)))
    });
    group.finish();
}

criterion_group!(benches, bench, sparse, startup);
criterion_main!(benches);
