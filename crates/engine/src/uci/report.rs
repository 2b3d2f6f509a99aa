//! The search report a UCI `info` line is made of.
//!
//! The rules write it after the `move` program's contract lines (`score`, `depth`,
//! `nodes`, `pv`; see [`regex_chess_chess`]), and [`crate::reply::parse_move_output`]
//! reads them into the [`MoveReply`]: this module only gathers those fields for the
//! session, so that a stand-in engine in the tests can report without rules. Every field
//! is optional: a search that reports nothing gives an empty report.

use crate::reply::{MoveReply, Reply};
pub use crate::reply::{RankedMove, Score};
use regex_chess_chess::notation::uci::UciMove;

/// What the rules said about their search; every field may be missing.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SearchReport {
    /// The chosen move's score.
    pub score: Option<Score>,
    /// The depth searched, in plies.
    pub depth: Option<u32>,
    /// The positions examined.
    pub nodes: Option<u64>,
    /// The principal variation, the chosen move first (empty when not reported).
    pub pv: Vec<UciMove>,
    /// The best root moves as the rules ranked them, best first (empty when not asked
    /// or not reported).
    pub multipv: Vec<RankedMove>,
}

impl SearchReport {
    /// The report of a reply the rules gave: a move's report lines, or nothing when
    /// there was no move.
    pub fn of(reply: &Reply) -> SearchReport {
        match reply {
            Reply::Move(MoveReply {
                score,
                depth,
                nodes,
                pv,
                multipv,
                ..
            }) => SearchReport {
                score: *score,
                depth: *depth,
                nodes: *nodes,
                pv: pv.clone(),
                multipv: multipv.clone(),
            },
            Reply::NoMove(_) => SearchReport::default(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::reply::parse_move_output;

    const CORE: &str = "move e2e4\nfen rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1\nstatus ongoing\n";

    #[test]
    fn a_reply_without_report_lines_has_an_empty_report() {
        let reply = parse_move_output(CORE).unwrap();
        assert_eq!(SearchReport::of(&reply), SearchReport::default());
        let none = parse_move_output("status checkmate\n").unwrap();
        assert_eq!(SearchReport::of(&none), SearchReport::default());
    }

    #[test]
    fn the_report_lines_reach_the_report() {
        let state = format!("{CORE}score cp -35\ndepth 2\nnodes 12345\npv e2e4 e7e5\n");
        let report = SearchReport::of(&parse_move_output(&state).unwrap());
        assert_eq!(report.score, Some(Score::Cp(-35)));
        assert_eq!(report.score.unwrap().to_string(), "cp -35");
        assert_eq!((report.depth, report.nodes), (Some(2), Some(12345)));
        let pv: Vec<String> = report.pv.iter().map(|m| m.to_string()).collect();
        assert_eq!(pv, ["e2e4", "e7e5"]);
    }
}
