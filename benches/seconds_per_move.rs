//! Milliseconds per move on `positions/bench.txt`, both executors: the workload of
//! `regex-chess bench` (the `play` program when registered, else the `two-plies` proxy),
//! with criterion's smallest sample size. The reference takes seconds per position on
//! the proxy, so the whole file takes several minutes.
//!
//! `cargo bench --bench seconds_per_move [-- FILTER]`

use std::time::Duration;

use criterion::{BenchmarkId, Criterion, criterion_group, criterion_main};
use regex_chess_core::bench::{self, Workload};
use regex_chess_core::compiler::CompileOptions;
use regex_chess_core::exec::ExecutorKind;

#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn seconds_per_move(c: &mut Criterion) {
    let workload = Workload::new(None, &CompileOptions::default()).expect("the workload builds");
    if let Some(note) = &workload.note {
        eprintln!("{note}");
    }
    let text = regex_chess_core::positions::BENCH;
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
