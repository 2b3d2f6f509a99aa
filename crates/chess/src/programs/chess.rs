//! The chess programs built from the chess core ([`crate`]).

use crate::fen_rules::{parse_fen, to_fen};
use crate::fragments::print_threads;
use crate::movegen::{fork_legal_uci, has_legal_move, in_check};
use regex_chess_compiler::dsl::Builder;
use regex_chess_compiler::ir::IrProgram;

/// `legal-moves`: a FEN and `\n` in, the legal moves in UCI out, one per line (see the
/// contract in [`crate`]). Several FEN lines give the moves of each, one after
/// the other.
pub fn legal_moves() -> IrProgram {
    let mut b = Builder::new(
        "legal-moves",
        "Input: a FEN and a newline. Output: the legal moves in UCI notation, one per line.",
    );
    let pos = parse_fen(&mut b);
    let uci = fork_legal_uci(&mut b, &pos);
    print_threads(&mut b, "print_moves", &[uci.var()], "${1}\n");
    b.finish()
}

/// `chess-children`: a FEN and `\n` in; for every legal move a line `<uci> <FEN after>`
/// out. A tool for checking move making (clocks, rights, en passant) against other
/// engines.
pub fn children() -> IrProgram {
    let mut b = Builder::new(
        "chess-children",
        "Input: a FEN and a newline. Output: one line `<uci> <FEN after the move>` per legal move.",
    );
    let pos = parse_fen(&mut b);
    let uci = fork_legal_uci(&mut b, &pos);
    let fen = to_fen(&mut b, &pos);
    print_threads(
        &mut b,
        "print_children",
        &[uci.var(), fen.var()],
        "${1} ${2}\n",
    );
    b.finish()
}

/// `chess-probe`: a FEN and `\n` in; `<in check T/F> <has a legal move T/F> <FEN>\n` out,
/// the FEN as the rules print it back.
pub fn probe() -> IrProgram {
    let mut b = Builder::new(
        "chess-probe",
        "Input: a FEN and a newline. Output: `<in check> <has a legal move> <FEN>` (T/F).",
    );
    let pos = parse_fen(&mut b);
    let fen = to_fen(&mut b, &pos);
    let check = in_check(&mut b, &pos);
    let has = has_legal_move(&mut b, &pos);
    let vars = [fen.var(), check.var(), has.var()];
    print_threads(&mut b, "print_probe", &vars, "${2} ${3} ${1}\n");
    b.finish()
}
