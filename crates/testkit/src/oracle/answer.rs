//! The judge of a search variant's answer: the engine's reply to a FEN against the
//! oracle of [`super::variants`]: the move, the FEN after it, the status, the reported
//! score, depth and node count, and the principal variation (the move, then a legal reply
//! whose score is the move's score, and for the 3-ply search a third move whose score is
//! the reply's).
//!
//! Nothing here passes silently: a FEN the engine refuses, a run that fails and an answer
//! that breaks the contract are each a difference, with the FEN in its message.

use regex_chess_chess::notation::fen::Fen;
use regex_chess_chess::weights;
use regex_chess_engine::reply::{Reply, Score};
use regex_chess_engine::runner::{MovePicker, RunError};
use regex_chess_engine::variants::Search;
use shakmaty::Position;

use super::judge;
use super::variants::{self as oracle_variants, Spec};

/// The score line the contract asks for, for an oracle score: a mate on ply 1, 2 or 3
/// (the 3-ply search scores them `MATE - 5 (ply - 1)`) is a mate in 1, 1 or 2 moves.
pub fn expected_score(cp: i32) -> Score {
    match cp {
        weights::MATE => Score::Mate(1),
        v if v == -weights::MATE || v == -oracle_variants::mate_on_ply(2) => Score::Mate(-1),
        v if v == oracle_variants::mate_on_ply(3) => Score::Mate(2),
        v => Score::Cp(v),
    }
}

/// The FEN the engine reads, or the difference when its parser refuses a position the
/// oracle accepts (a refusal is never agreement).
pub fn engine_fen(fen_text: &str) -> Result<Fen, String> {
    fen_text
        .parse()
        .map_err(|e| format!("{fen_text}: the engine refuses the FEN: {e}"))
}

/// Runs `picker` (the move program of `variant`) on `fen_text` and judges the answer;
/// `None` when everything agrees, else what differs.
pub fn check(variant: Search, picker: &MovePicker, fen_text: &str) -> Option<String> {
    let fen = match engine_fen(fen_text) {
        Ok(fen) => fen,
        Err(e) => return Some(format!("{}: {e}", variant.name())),
    };
    check_reply(variant, fen_text, picker.run(&fen))
}

/// Judges `reply`, the answer of `variant`'s move program to `fen_text`; `None` when
/// everything agrees with the oracle, else what differs.
pub fn check_reply(
    variant: Search,
    fen_text: &str,
    reply: Result<Reply, RunError>,
) -> Option<String> {
    let name = variant.name();
    let pos = judge::position(fen_text);
    let spec = Spec::of(name).at(&pos);
    let reply = match reply {
        Ok(reply) => reply,
        Err(e) => return Some(format!("{name} {fen_text}: {e}")),
    };
    let searched = oracle_variants::search(spec, &pos);
    let (searched, reply) = match (searched, reply) {
        (None, Reply::NoMove(status)) => {
            let want = judge::allowed_statuses(&pos);
            return (!want.contains(&status.as_str()))
                .then(|| format!("{name} {fen_text}: no move and status {status}"));
        }
        (None, Reply::Move(r)) => return Some(format!("{name} {fen_text}: plays {}", r.mv)),
        (Some(s), Reply::NoMove(_)) => {
            return Some(format!(
                "{name} {fen_text}: no move; the oracle plays {}",
                s.best
            ));
        }
        (Some(s), Reply::Move(r)) => (s, r),
    };
    let played = reply.mv.to_string();
    if played != searched.best {
        let theirs = searched
            .scored
            .iter()
            .find(|(m, _)| *m == played)
            .map_or("illegal".to_string(), |(_, v)| v.to_string());
        return Some(format!(
            "{name} {fen_text}: the rules play {played} (oracle score {theirs}); the oracle \
             plays {} ({})",
            searched.best, searched.score
        ));
    }
    let after = judge::play(&pos, &played);
    if reply.fen_after.to_string() != judge::fen(&after) {
        return Some(format!("{name} {fen_text}: wrong FEN after {played}"));
    }
    if !judge::allowed_statuses(&after).contains(&reply.status.as_str()) {
        return Some(format!("{name} {fen_text}: wrong status {}", reply.status));
    }
    let want = (
        Some(expected_score(searched.score)),
        Some(variant.depth()),
        Some(searched.nodes),
    );
    let got = (reply.score, reply.depth, reply.nodes);
    if got != want {
        return Some(format!(
            "{name} {fen_text}: (score, depth, nodes) {got:?}, the oracle {want:?}"
        ));
    }
    let pv: Vec<String> = reply.pv.iter().map(|m| m.to_string()).collect();
    let engine = pos.turn();
    let find = |pos: &shakmaty::Chess, uci: &str| {
        pos.legal_moves().into_iter().find(|m| judge::uci(m) == uci)
    };
    match pv.as_slice() {
        [m] if *m == played && after.legal_moves().is_empty() => None,
        [m, r, rest @ ..] if *m == played && rest.len() + 2 <= variant.depth() as usize => {
            let Some(reply) = find(&after, r) else {
                return Some(format!("{name} {fen_text}: pv reply {r} is not legal"));
            };
            let (value, _) = oracle_variants::reply_value(spec, &after, &reply, engine);
            if value != searched.score {
                return Some(format!(
                    "{name} {fen_text}: the pv reply {r} scores {value}, the move {}",
                    searched.score
                ));
            }
            let next = judge::play_move(&after, &reply);
            let stands = || oracle_variants::stand_pat(spec, &next, engine) == value;
            // `3ply-see`: after a reply that captured nothing, the leaf's capture search
            // names no third move.
            let quiet = spec.everywhere && (!reply.is_capture() || reply.is_en_passant());
            match (variant.depth(), rest) {
                (2, []) => None,
                (3, []) if next.legal_moves().is_empty() || quiet || stands() => None,
                (3, [t]) => {
                    let Some(third) = find(&next, t) else {
                        return Some(format!("{name} {fen_text}: pv third move {t} is not legal"));
                    };
                    let (v3, _) = oracle_variants::after_third(spec, &next, &third, engine);
                    (v3 != value).then(|| {
                        format!("{name} {fen_text}: the pv third move {t} scores {v3}, the reply {value}")
                    })
                }
                _ => Some(format!("{name} {fen_text}: pv {pv:?}")),
            }
        }
        _ => Some(format!("{name} {fen_text}: pv {pv:?}")),
    }
}
