//! Checking many positions on the machine's two cores.

/// Runs `check` on every item over two threads and gathers the failures, in item order.
pub fn failures<T: Sync>(items: &[T], check: impl Fn(&T) -> Option<String> + Sync) -> Vec<String> {
    let half = items.len().div_ceil(2).max(1);
    std::thread::scope(|scope| {
        let workers: Vec<_> = items
            .chunks(half)
            .map(|chunk| {
                let check = &check;
                scope.spawn(move || chunk.iter().filter_map(check).collect::<Vec<_>>())
            })
            .collect();
        workers
            .into_iter()
            .flat_map(|w| w.join().expect("a worker panicked"))
            .collect()
    })
}

/// Fails with up to ten of `failures`, or notes on standard error that all agreed.
pub fn assert_none(what: &str, checked: usize, failures: &[String]) {
    assert!(
        failures.is_empty(),
        "{what}: {} of {checked} positions differ from the oracle:\n{}",
        failures.len(),
        failures
            .iter()
            .take(10)
            .cloned()
            .collect::<Vec<_>>()
            .join("\n")
    );
    eprintln!("{what}: {checked} positions agree with the oracle");
}
