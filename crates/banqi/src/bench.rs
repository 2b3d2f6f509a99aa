//! The bench: a fixed set of positions, each searched to a fixed node budget from a fresh
//! engine, then the total nodes and nodes a second in the lines engine testers read
//! (`Nodes searched: N`, `Nodes/second: N`). The budget makes the node count the same on
//! every machine; only the time differs.

use std::io::{self, Write};
use std::time::Instant;

use crate::eval::EvalConfig;
use crate::position::Position;
use crate::search::{Engine, Limits, SearchConfig};

/// The bench positions: the start, openings, middle games and endings.
pub const POSITIONS: [&str; 8] = [
    "XXXXXXXX/XXXXXXXX/XXXXXXXX/XXXXXXXX - G1A2E2R2H2C2S5g1a2e2r2h2c2s5 0 1",
    "XXXXXXXX/XXhXXXXX/XXXXXCXX/XXXXXXXX b G1A2E2R2H2C1S5g1a2e2r2h1c2s5 0 2",
    "XXXXsXXX/XXhXXXXX/XXXXXCXX/XXXXXXXX r G1A2E2R2H2C1S5g1a2e2r2h1c2s4 0 3",
    "XcX1XgX1/1C1hX1sX/X2RX1aX/XsX1GX1X r A1E2R1H2C1a1e2r2s1 3 9",
    "XXaX1X1X/X1C1Xe1s/1XXGXh1X/XrXXXX1X b A2E2R2H2C1S3a1e1r1c1s1 1 12",
    "4c3/1G2s3/2C3r1/s3S2a b - 12 40",
    "1a2h3/2R3e1/S1g2A2/3c3H r - 6 55",
    "X6X/2G1g3/1S4s1/X6X b R1H1r1c1 5 30",
];

/// Searches every bench position to `nodes` nodes and writes one line per position, then
/// the totals. Returns (nodes, nodes a second).
pub fn run(nodes: u64, out: &mut dyn Write) -> io::Result<(u64, u64)> {
    let started = Instant::now();
    let mut total = 0;
    for text in POSITIONS {
        let position: Position = text
            .parse()
            .unwrap_or_else(|e| unreachable!("bench position {text}: {e}"));
        let mut engine = Engine::new(EvalConfig::default(), SearchConfig::default(), 20);
        let limits = Limits {
            nodes: Some(nodes),
            ..Limits::default()
        };
        let result = engine.search(&position, &[], limits, &mut |_| {});
        total += result.nodes;
        let best = result.best.map_or("(none)".to_string(), |m| m.to_string());
        writeln!(
            out,
            "{text}: depth {} best {best} nodes {}",
            result.depth, result.nodes
        )?;
    }
    let seconds = started.elapsed().as_secs_f64().max(1e-9);
    let nps = (total as f64 / seconds) as u64;
    writeln!(out, "Nodes searched: {total}")?;
    writeln!(out, "Nodes/second: {nps}")?;
    Ok((total, nps))
}
