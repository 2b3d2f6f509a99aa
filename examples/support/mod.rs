//! What the rule-by-rule measuring examples (`rule_count`, `rule_each`) share: one bench
//! position turned into the input of a warm `play` move.
//!
//! The input is built as the `bench` command's `play` workload builds it: the `board`
//! program draws the position with the engine playing black, and the move white types is
//! appended. The programs come from the program cache (compiled on first use). Errors are
//! printed under the example's name and end the process, since these are command-line
//! tools only. (`play_warm` keeps its own copy: it must build against old commits too.)

use regex_chess_engine as engine;
use regex_chess_engine::bench::parse_positions;
use regex_chess_machine::exec::Executor;
use regex_chess_machine::exec::fast::Fast;

/// Prints `message` under `tool`'s name and exits with status 1.
fn fail(tool: &str, message: impl std::fmt::Display) -> ! {
    eprintln!("{tool}: {message}");
    std::process::exit(1);
}

/// The `play` program on the fast executor, and the input of the position on line `idx`
/// (0-based, comments and blank lines left out) of the bench file at `bench`.
pub fn play_and_input(tool: &str, bench: &str, idx: usize) -> (Fast, String) {
    let text = std::fs::read_to_string(bench)
        .unwrap_or_else(|e| fail(tool, format!("cannot read {bench}: {e}")));
    let positions = parse_positions(&text).unwrap_or_else(|e| fail(tool, format!("{bench}: {e}")));
    let Some(position) = positions.get(idx) else {
        fail(
            tool,
            format!("{bench} has {} positions, not {}", positions.len(), idx + 1),
        )
    };
    let load = |name: &str| engine::program(name).unwrap_or_else(|e| fail(tool, e));
    let board = Fast::new(load("board"));
    let first = board
        .run(&format!("engine: black\n{}\n", position.fen))
        .unwrap_or_else(|e| fail(tool, e));
    (
        Fast::new(load("play")),
        format!("{first}{}\n", position.white_move),
    )
}
