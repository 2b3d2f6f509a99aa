//! The ranking of the root moves written by the `-mpv` programs (see "The ranking of the
//! root moves" in `crates/chess/src/lib.rs`).

use super::*;
use crate::board::MAX_MOVES;
use crate::evaluate::SCORE_BITS;
use crate::report;
use crate::stack_rules::on_stack;
use regex_chess_compiler::dsl::{Builder, Value, kind};
use regex_chess_compiler::ir::{Best, Type};

/// The most root moves the `-mpv` programs rank.
pub const MULTIPV_MAX: usize = 5;

/// A root move's element of [`Chosen::entries`]: `;`, its key's digits, its UCI text and,
/// when there is a reply, a space and the reply.
#[track_caller]
pub(super) fn root_entry(
    b: &mut Builder,
    key: &Value<kind::Int>,
    uci: &Value<kind::Str>,
    reply: &Value<kind::Str>,
) -> Value<kind::Str> {
    let no_reply = b.eq_text(reply, "");
    let tail = b.if_else(
        &no_reply,
        |b| b.str(""),
        |b| {
            let space = b.str(" ");
            b.concat(&space, reply)
        },
    );
    let mut entry = b.str(";");
    for part in [b.text_of(key), uci.clone(), tail] {
        entry = b.concat(&entry, &part);
    }
    entry
}

/// One line of the ranking: whether there is a move of that rank, and the line's text
/// (`multipv <rank> score <score> pv <uci> [<reply>]`, meaningful when there is).
pub struct Ranked {
    /// Whether the position has at least this many legal moves.
    pub found: Value<kind::Bool>,
    /// The line, without its newline.
    pub line: Value<kind::Str>,
}

/// Ranks the root moves of [`Chosen::entries`] (on the single thread left after the
/// search, with no [`report::TALLY`] in the state: after [`report::decimal`]): `k`
/// rounds, each a fork over the entries and a tournament on their keys, the keys of
/// the moves already ranked (no smaller than the last winner's) lowered below every
/// other. The order is the search's: by score, ties to the smallest UCI text. With
/// `flagged`, each key starts with `move_key`'s `searchmoves` digit: the moves it
/// excludes rank below every other and are never found.
#[track_caller]
pub fn rank(
    b: &mut Builder,
    entries: &Value<kind::Str>,
    k: usize,
    mate_plies: u32,
    flagged: bool,
) -> Vec<Ranked> {
    let head = HEAD;
    let flag = usize::from(flagged);
    let digits = KEY_DIGITS + flag;
    let bits = SCORE_BITS + UCI_KEY_BITS + u8::from(flagged);
    let list: Value<kind::List<kind::Str>> = on_stack(
        b,
        "as_list",
        &[entries.var()],
        Vec::new(),
        Type::List(regex_chess_compiler::ir::Scalar::Str),
    );
    let lowest = b.int(bits, -(1 << (digits - 1)));
    let zero = b.int(bits, 0);
    let mut last: Option<Value<kind::Int>> = None;
    let mut ranked = Vec::new();
    for i in 1..=k {
        let (entry, key, found) = b.grouped(|b| {
            let entry = b.fork_list(&list, MAX_MOVES);
            let key: Value<kind::Int> = on_stack(
                b,
                "entry_key",
                &[entry.var()],
                vec![(
                    format!("{head}([01]{{{digits}}})[^\n]*\n"),
                    "${1}${2}\n".to_string(),
                )],
                Type::Int { bits },
            );
            let (key, found) = match &last {
                None => (key, b.bool(true)),
                Some(last) => {
                    let fresh = b.lt(&key, last);
                    let key = b.if_else(&fresh, |_| key.clone(), |_| lowest.clone());
                    (key, fresh)
                }
            };
            // An excluded move's flag digit is 0: its key is below zero.
            let found = match flagged {
                true => {
                    let allowed = b.ge(&key, &zero);
                    b.and(&found, &allowed)
                }
                false => found,
            };
            b.keep_best(&key, MAX_MOVES, Best::Max);
            (entry, key, found)
        });
        let score: Value<kind::Int> = on_stack(
            b,
            "entry_score",
            &[entry.var()],
            vec![(
                format!("{head}[01]{{{flag}}}([01]{{{SCORE_BITS}}})[^\n]*\n"),
                "${1}${2}\n".to_string(),
            )],
            Type::Int { bits: SCORE_BITS },
        );
        let pv: Value<kind::Str> = on_stack(
            b,
            "entry_pv",
            &[entry.var()],
            vec![(
                format!("{head}[01]{{{digits}}}([^\n]*)\n"),
                "${1}${2}\n".to_string(),
            )],
            Type::Str,
        );
        let score = report::score_text(b, &score, mate_plies);
        let mut line = b.str(&format!("multipv {i} score "));
        for part in [score, b.str(" pv "), pv] {
            line = b.concat(&line, &part);
        }
        ranked.push(Ranked { found, line });
        last = Some(key);
    }
    ranked
}
