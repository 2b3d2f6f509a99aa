//! Milliseconds per move on the built-in bench suite (`data/positions/bench.txt`), both
//! executors: the default workload of `regex-chess bench` (the `play` program answering
//! the move white types), with criterion's smallest sample size. The reference takes
//! 80-500 ms a move, so the whole suite takes a few minutes.
//!
//! `cargo bench --bench seconds_per_move [-- FILTER]`

use std::time::Duration;

use criterion::{BenchmarkId, Criterion, criterion_group, criterion_main};
use regex_chess_compiler::CompileOptions;
use regex_chess_engine::bench::{self, Workload};
use regex_chess_machine::exec::ExecutorKind;

#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn seconds_per_move(c: &mut Criterion) {
    let workload =
        Workload::new(Some("play"), &CompileOptions::default()).expect("the workload builds");
    let text = regex_chess_chess::positions::BENCH;
    let positions = bench::parse_positions(text).expect("bench positions");
    let mut group = c.benchmark_group(format!("seconds_per_move/{}", workload.name));
    group
        .sample_size(10)
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(3));
    for kind in [ExecutorKind::Fast, ExecutorKind::Reference] {
        let exec = kind.build(workload.program.clone());
        for position in &positions {
            let input = workload.input(position).expect("an input state");
            group.bench_with_input(
                BenchmarkId::new(exec.name(), &position.label),
                &input,
                |b, input| b.iter(|| exec.run(input)),
            );
        }
    }
    group.finish();
}

criterion_group!(benches, seconds_per_move);
criterion_main!(benches);
