//! The node count `bench` ends with, for engine testers: `Nodes searched: N` and
//! `Nodes/second: M`, the lines OpenBench's client reads (after turning punctuation into
//! spaces, it looks for `nodes searched N` and `nodes second M` from the last line up).
//!
//! N is the sum of the `nodes` lines (the positions the rules evaluated) that the
//! workload's search reports on the bench positions: the search's own `move` program
//! ([`node_program`]), whatever program the table timed. It depends on the rules and the
//! positions only, so it is the same on every run and on both executors; M is N over
//! the fast executor's median seconds for those runs.

use super::BenchError;
use crate::reply::{Reply, parse_move_output};
use crate::{Output, Search};

/// The program whose node counts `bench` sums for the workload `program`: the `move`
/// program of the search it belongs to, or `None` for a program that is no search's.
pub fn node_program(program: &str) -> Option<&'static str> {
    Search::by_program(program).map(|(search, _)| search.program(Output::Move))
}

/// The nodes a `move` program's output state reports (0 when it reports none, or has no
/// move).
pub fn nodes_in(output: &str) -> Result<u64, BenchError> {
    match parse_move_output(output).map_err(|e| BenchError::Child(e.0))? {
        Reply::Move(reply) => Ok(reply.nodes.unwrap_or(0)),
        Reply::NoMove(_) => Ok(0),
    }
}

/// The nodes searched over the bench positions and the seconds they took.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct NodeCount {
    /// The sum of the reported nodes.
    pub nodes: u64,
    /// The sum of the median seconds of the runs that searched them.
    pub seconds: f64,
}

impl NodeCount {
    /// Nodes a second, rounded down (the nodes when no time was measured).
    pub fn per_second(&self) -> u64 {
        if self.seconds > 0.0 {
            (self.nodes as f64 / self.seconds) as u64
        } else {
            self.nodes
        }
    }

    /// The two closing lines.
    pub fn lines(&self) -> String {
        format!(
            "Nodes searched: {}\nNodes/second: {}\n",
            self.nodes,
            self.per_second()
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_programs_and_the_lines() {
        assert_eq!(node_program("play"), Some("move"));
        assert_eq!(node_program("move-qe"), Some("move-qe"));
        assert_eq!(node_program("legal-moves"), None);
        let count = NodeCount {
            nodes: 3000,
            seconds: 1.5,
        };
        assert_eq!(count.lines(), "Nodes searched: 3000\nNodes/second: 2000\n");
        let state = "move e2e4\nfen rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1\nstatus ongoing\nscore cp 30\ndepth 2\nnodes 420\npv e2e4 e7e5\n";
        assert_eq!(nodes_in(state).unwrap(), 420);
        assert!(nodes_in("nonsense").is_err());
    }
}
