//! `next-positions` and `next-positions-full`: a bare FEN in, the FEN of every legal next
//! position out, as the public "regex-chess" task (Terminal-Bench 2.0) asks.
//!
//! The task runs a list of pairs as `for p, r in pairs: fen = re.sub(p, r, fen)` on a FEN
//! with no newline at its end, and splits the result at `\n`: it must be the FENs of the
//! positions after every legal move, joined by single newlines, with none at the end.
//! So the rules take exactly that state and leave exactly that text:
//!
//! - input: one FEN (six fields), with or without a final `\n` (a first rule adds it when
//!   it is missing: the FEN parser reads `<FEN>\n` lines);
//! - output: the FENs of the children, `\n`-joined, no final newline; the empty string
//!   when there is no child.
//!
//! In between it is the engine's own code: [`parse_fen`], the legal move generation of
//! [`fork_children`] (the rules of [`crate::movegen`]) and the FEN writing of
//! [`crate::fen_rules`], in its form for a last step ([`print_fens`]: 9 rules,
//! each rewriting every line at once, rather than `to_fen`'s 113). The FENs
//! are the standard six-field form: castling rights tracked, the en-passant square after
//! every double push (python-chess's `en_passant="fen"`), the half-move clock reset on a
//! capture or a pawn move, the full-move number counted after black's moves.
//!
//! `next-positions` follows the task's terms ([`Scope::TASK`]): white to move, queen
//! promotions only; a FEN with black to move gives the empty string. Its rules for
//! black's moves and for under-promotions are never recorded, which keeps the list short.
//! `next-positions-full` ([`Scope::ALL`]) takes either side to move and promotes to every
//! piece.

use crate::fen_rules::{parse_fen, print_fens};
use crate::movegen::{Scope, fork_children};
use regex_chess_compiler::dsl::Builder;
use regex_chess_compiler::ir::IrProgram;

/// One line about `next-positions`, for the registry.
pub const SUMMARY: &str = "a bare FEN in (white to move); the `\\n`-joined FENs after every \
                           legal move out (queen promotions only), no final newline";

/// One line about `next-positions-full`, for the registry.
pub const FULL_SUMMARY: &str = "a bare FEN in (either side to move); the `\\n`-joined FENs \
                                after every legal move out (every promotion), no final newline";

/// Records `next-positions`: the task's terms.
pub fn next_positions() -> IrProgram {
    build(
        "next-positions",
        "Input: a FEN with white to move (a final newline is optional). Output: the FENs \
         after every legal move (queen promotions only), joined by newlines, no final newline.",
        Scope::TASK,
    )
}

/// Records `next-positions-full`: either side to move, every promotion.
pub fn next_positions_full() -> IrProgram {
    build(
        "next-positions-full",
        "Input: a FEN (a final newline is optional). Output: the FENs after every legal move, \
         joined by newlines, no final newline.",
        Scope::ALL,
    )
}

fn build(name: &str, description: &str, scope: Scope) -> IrProgram {
    let mut b = Builder::new(name, description);
    // The harness passes the bare FEN; the parser reads `<FEN>\n`. (The pattern cannot
    // match the empty string, so it means the same under `re.sub`.)
    b.rules(
        "frame",
        vec![("([^\n])\\z".to_string(), "${1}\n".to_string())],
        &[],
        &[],
    );
    let pos = parse_fen(&mut b);
    fork_children(&mut b, &pos, scope);
    print_fens(&mut b, &pos);
    // Every thread is now its FEN line; the last newline goes.
    b.rules(
        "unframe",
        vec![("\n\\z".to_string(), String::new())],
        &[],
        &[],
    );
    b.finish()
}
