//! The child's position kept in its group boundary while its replies are searched, and
//! brought back onto the one thread left after the tournament.

use super::*;
use crate::board::Position;
use crate::evaluate::BOARD_CHAR;
use crate::stack_rules::{self};
use regex_chess_compiler::dsl::{Builder, Value, kind};
use regex_chess_compiler::ir::Instruction;

/// Moves the child's compact board `saved` (the replies' gains read the letters of
/// their generation's `taken` instead, so no reply carries it), the turn, castling rights, en-passant square, clocks (from the position) and `uci` of
/// every active thread into the group boundary just before it (`%/<level> <saved> <t>
/// <c> <e> <h> <n> <uci>`), where the thread's descendants do not copy them: the first
/// instruction inside a [`Builder::grouped`] body. The replies' generation skips the
/// clocks it does not find; nothing before [`unstash`] reads the rest.
#[track_caller]
pub(super) fn stash(
    b: &mut Builder,
    pos: &Position,
    saved: &Value<kind::Str>,
    uci: &Value<kind::Str>,
) {
    b.emit(Instruction::Take(saved.var().clone()));
    for v in [&pos.turn, &pos.castling, &pos.ep] {
        b.emit(Instruction::Lookup(v.var().clone()));
    }
    for v in [&pos.halfmove, &pos.fullmove, uci] {
        b.emit(Instruction::Take(v.var().clone()));
    }
    let line = "([^\n]*)\n".repeat(7);
    b.emit(stack_rules::instruction(
        "stash",
        vec![(
            format!("(%/[0-9]+)\n{HEAD}{line}"),
            "${1} ${9} ${8} ${7} ${6} ${5} ${4} ${3}\n%%\n#stack:\n".to_string(),
        )],
    ));
}

/// Brings the line of [`stash`] back from each group boundary onto the stack of the one
/// thread left after it (the last instruction inside the `grouped` body, after the
/// tournament).
#[track_caller]
pub(super) fn unstash(b: &mut Builder) {
    b.emit(stack_rules::instruction(
        "unstash",
        vec![(
            format!("(%/[0-9]+) ([^\n]*)\n{HEAD}"),
            "${1}\n%%\n#stack:\n${2}\n".to_string(),
        )],
    ));
}

/// Replaces the position's variables (the clocks already gone) by the child's: its
/// compact board and the rest of the line [`unstash`] left on the stack; `uci` too.
#[track_caller]
pub(super) fn restore(b: &mut Builder, pos: &Position, uci: &Value<kind::Str>) {
    for v in &pos.vars()[..4] {
        b.emit(Instruction::Delete((*v).clone()));
    }
    let ranks = format!("({BOARD_CHAR}{{8}})").repeat(8);
    let fields = ["([^ \n]*)"; 6].join(" ");
    let pattern = format!("{HEAD}{ranks} {fields}\n");
    let board: String = (2..10).map(|g| format!("${{{g}}}//")).collect();
    let rest: String = (10..16).map(|g| format!("${{{g}}}\n")).collect();
    b.emit(stack_rules::instruction(
        "restore",
        vec![(pattern, format!("${{1}}{board}\n{rest}"))],
    ));
    for v in pos.vars() {
        b.emit(Instruction::Define(v.clone()));
    }
    b.emit(Instruction::Define(uci.var().clone()));
}
