//! Every line the session prints that carries numbers or moves: the `info` lines of a
//! search, its `bestmove`, the `info string` notes, `bench`'s and `go perft`'s totals.
//!
//! Contract: formatting only; the values come from the session. An `info string` never
//! carries more than [`CLIP`] bytes of what the GUI sent, so a huge line cannot make a
//! huge answer. Missing report fields are left out of `info`, but for the depth (the
//! variant's) and the pv (the move alone); a pv or ranking that does not start with the
//! move played is not shown.

use super::{Score, Thought};
use crate::reply::{Reply, Status};
use crate::variants::Search;
use regex_chess_chess::notation::uci::UciMove;

/// The most bytes of the GUI's text an `info string` repeats.
pub const CLIP: usize = 200;

/// `info string <text>`, the text cut to [`CLIP`] bytes.
pub fn note(text: impl AsRef<str>) -> String {
    format!("info string {}", clip(text.as_ref()))
}

/// `info string error: <text>`: what the session says when a command failed (a rules
/// error or a panic), before going on.
pub fn error(text: impl std::fmt::Display) -> String {
    note(format!("error: {text}"))
}

/// The `bestmove` of a `go` that has no move to give.
pub const NO_MOVE: &str = "bestmove (none)";

/// A line or word cut to [`CLIP`] bytes (at a character boundary).
pub fn clip(text: &str) -> String {
    let text = text.trim();
    if text.len() <= CLIP {
        return text.to_string();
    }
    let cut = (0..=CLIP)
        .rev()
        .find(|&i| text.is_char_boundary(i))
        .unwrap_or(0);
    format!("{}...", &text[..cut])
}

/// The `info` lines of a search (pushed to `out`) and its `bestmove` line. With `lines`
/// above 1 and a ranking in the report, one `info multipv <rank> ...` line for each of
/// the best `lines` moves instead of the single `info` line.
pub fn search_output(
    thought: &Thought,
    variant: Search,
    millis: u64,
    lines: usize,
    out: &mut Vec<String>,
) -> String {
    let reply = match &thought.reply {
        Reply::Move(reply) => reply,
        Reply::NoMove(status) => {
            let score = match status {
                Status::Checkmate => Score::Mate(0),
                _ => Score::Cp(0),
            };
            out.push(format!("info depth 0 score {score}"));
            out.push(format!("info string no legal move: {status}"));
            return NO_MOVE.to_string();
        }
    };
    let report = &thought.report;
    let info = |rank: Option<usize>, score: Option<Score>, pv: &[UciMove]| {
        let mut info = "info".to_string();
        if let Some(rank) = rank {
            info.push_str(&format!(" multipv {rank}"));
        }
        info.push_str(&format!(
            " depth {}",
            report.depth.unwrap_or(variant.depth())
        ));
        if let Some(score) = score {
            info.push_str(&format!(" score {score}"));
        }
        if let Some(nodes) = report.nodes {
            info.push_str(&format!(
                " nodes {nodes} nps {}",
                nodes * 1000 / millis.max(1)
            ));
        }
        let pv_text: Vec<String> = pv.iter().map(|m| m.to_string()).collect();
        info.push_str(&format!(" time {millis} pv {}", pv_text.join(" ")));
        info
    };
    let pv = if report.pv.first() == Some(&reply.mv) {
        report.pv.clone()
    } else {
        vec![reply.mv]
    };
    let ranked = &report.multipv;
    if lines > 1
        && ranked
            .first()
            .is_some_and(|r| r.pv.first() == Some(&reply.mv))
    {
        for (rank, line) in ranked.iter().take(lines).enumerate() {
            out.push(info(Some(rank + 1), Some(line.score), &line.pv));
        }
    } else {
        out.push(info(None, report.score, &pv));
    }
    bestmove(reply.mv, pv.get(1).copied())
}

/// `bestmove <mv> [ponder <reply>]`.
pub fn bestmove(mv: UciMove, ponder: Option<UciMove>) -> String {
    match ponder {
        Some(ponder) => format!("bestmove {mv} ponder {ponder}"),
        None => format!("bestmove {mv}"),
    }
}

/// `go perft`'s lines: each move with its count, a blank line, the total, and a note of
/// the depth and time.
pub fn perft_lines(counts: &[(UciMove, u64)], depth: u32, millis: u64) -> Vec<String> {
    let total: u64 = counts.iter().map(|(_, n)| n).sum();
    let mut out: Vec<String> = counts.iter().map(|(mv, n)| format!("{mv}: {n}")).collect();
    out.push(String::new());
    out.push(format!("Nodes searched: {total}"));
    out.push(format!(
        "info string perft {depth} by the rules' move generation in {millis} ms"
    ));
    out
}

/// `bench`'s totals as Stockfish prints them; `missing` positions reported no nodes.
pub fn bench_totals(nodes: u64, missing: usize, millis: u64) -> Vec<String> {
    let mut out = Vec::new();
    if missing > 0 {
        out.push(format!(
            "info string the rules reported no node count for {missing} positions (counted as 0)"
        ));
    }
    out.push(String::new());
    out.push("===========================".to_string());
    out.push(format!("Total time (ms) : {millis}"));
    out.push(format!("Nodes searched  : {nodes}"));
    out.push(format!(
        "Nodes/second    : {}",
        nodes * 1000 / millis.max(1)
    ));
    out
}
