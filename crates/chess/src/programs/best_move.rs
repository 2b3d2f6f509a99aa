//! The search programs: the `move` contract of `crates/chess/src/lib.rs` around the search of
//! [`crate::search`]. The FEN and the rules input are read, the search chosen by
//! [`SearchOptions`] runs, and the move, the position after it, its status, the search's
//! report and (with [`SearchOptions::multipv`]) the ranking of the root moves are written
//! as text. `Search` in `regex-chess-engine` names the variants and the options of each.

use crate::fen_rules::{parse_fen, to_fen};
use crate::game_end::status;
use crate::history;
use crate::report;
use crate::search::{Ranked, SearchOptions, rank, search_with};
use regex_chess_compiler::dsl::{Builder, Value, kind};
use regex_chess_compiler::ir::{Instruction, IrProgram};

/// A program with the `move` contract (see `crates/chess/src/lib.rs`) running
/// [`search_with`] with `options` (which must report), called `name`.
pub fn move_program(name: &str, description: &str, options: SearchOptions) -> IrProgram {
    let depth = if options.third_ply { 3 } else { 2 };
    let mut b = Builder::new(name, description);
    history::protect(&mut b);
    let pos = parse_fen(&mut b);
    let extras = history::parse(&mut b);
    let chosen = search_with(&mut b, &pos, options, Some(&extras));
    let text = b.if_else(
        &chosen.moved,
        |b| {
            let fen = to_fen(b, &pos);
            let st = status(b, &pos, &chosen.no_reply);
            let nodes = chosen.nodes.as_ref().expect("a reporting search");
            let nodes = report::decimal(b, nodes);
            // The 3-ply searches score a mate MATE less the plies before the mating one
            // (see `report::score_text`); the 2-ply searches score every mate at MATE.
            let mate_plies = if options.third_ply { 3 } else { 1 };
            let ranked = match &chosen.entries {
                // The search programs read `searchmoves`: their keys carry its digit.
                Some(entries) => rank(b, entries, options.multipv, mate_plies, true),
                None => Vec::new(),
            };
            let score = report::score_text(b, &chosen.score, mate_plies);
            let reply = chosen.reply.as_ref().expect("a reporting search");
            let pv_tail = pv_word(b, reply);
            let pv_tail = match &chosen.third {
                Some(third) => {
                    let tail = pv_word(b, third);
                    b.concat(&pv_tail, &tail)
                }
                None => pv_tail,
            };
            let mut text = b.str("move ");
            for part in [
                chosen.uci.clone(),
                b.str(";fen "),
                fen,
                b.str(";status "),
                st,
                b.str(";score "),
                score,
                b.str(&format!(";depth {depth};nodes ")),
                nodes,
                b.str(";pv "),
                chosen.uci.clone(),
                pv_tail,
                b.str(";"),
            ] {
                text = b.concat(&text, &part);
            }
            for Ranked { found, line } in &ranked {
                let part = b.if_else(
                    found,
                    |b| {
                        let end = b.str(";");
                        b.concat(line, &end)
                    },
                    |b| b.str(""),
                );
                text = b.concat(&text, &part);
            }
            text
        },
        |b| {
            let t = b.bool(true);
            let st = status(b, &pos, &t);
            let prefix = b.str("status ");
            let text = b.concat(&prefix, &st);
            let end = b.str(";");
            b.concat(&text, &end)
        },
    );
    emit_text(&mut b, &text);
    b.finish()
}

/// ` <uci>`, or nothing when `uci` is empty: a word of the `pv` line.
#[track_caller]
fn pv_word(b: &mut Builder, uci: &Value<kind::Str>) -> Value<kind::Str> {
    let none = b.eq_text(uci, "");
    b.if_else(
        &none,
        |b| b.str(""),
        |b| {
            let space = b.str(" ");
            b.concat(&space, uci)
        },
    )
}

/// Replaces the whole state by `text` (on top of the single thread's stack), with each
/// `;` turned into a newline: the last rules of a program whose output is plain text.
#[track_caller]
pub fn emit_text(b: &mut Builder, text: &Value<kind::Str>) {
    b.emit(Instruction::Lookup(text.var().clone()));
    b.rules(
        "output_text",
        vec![
            (
                "%%\n#stack:\n([^\n]*)\n[^%]*".to_string(),
                "${1}".to_string(),
            ),
            (";".to_string(), "\n".to_string()),
        ],
        &[],
        &[],
    );
}
