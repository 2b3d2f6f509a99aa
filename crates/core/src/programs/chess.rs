//! The chess programs built from the chess core ([`crate::chess`]).

use crate::chess::fen_rules::{parse_fen, to_fen};
use crate::chess::movegen::{fork_legal_uci, has_legal_move, in_check};
use crate::chess::rx::thread_values;
use crate::compiler::dsl::Builder;
use crate::compiler::ir::IrProgram;

/// `legal-moves`: a FEN and `\n` in, the legal moves in UCI out, one per line (see the
/// contract in [`crate::chess`]). Several FEN lines give the moves of each, one after
/// the other.
pub fn legal_moves() -> IrProgram {
    let mut b = Builder::new(
        "legal-moves",
        "Input: a FEN and a newline. Output: the legal moves in UCI notation, one per line.",
    );
    let pos = parse_fen(&mut b);
    let uci = fork_legal_uci(&mut b, &pos);
    b.rules(
        "print_moves",
        vec![(thread_values(&[uci.var().name()]), "${1}\n".to_string())],
        &[uci.var()],
        &[],
    );
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
    let names = [uci.var().name(), fen.var().name()];
    b.rules(
        "print_children",
        vec![(thread_values(&names), "${1} ${2}\n".to_string())],
        &[uci.var(), fen.var()],
        &[],
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
    let names = [fen.var().name(), check.var().name(), has.var().name()];
    b.rules(
        "print_probe",
        vec![(thread_values(&names), "${2} ${3} ${1}\n".to_string())],
        &[fen.var(), check.var(), has.var()],
        &[],
    );
    b.finish()
}

// ----- the search and the game (branch chess-search) -----

pub use crate::chess::pretty::{
    board_program, play_3qe_program, play_program, play_q_program, play_qe_program,
};
pub use crate::chess::search::{
    move_3qe_mpv_program, move_3qe_program, move_mpv_program, move_program, move_q_mpv_program,
    move_q_program, move_qe_mpv_program, move_qe_program,
};

/// One line about `move`.
pub const MOVE_SUMMARY: &str = "a FEN in; the engine's move (2-ply minimax), the FEN after it, its status and the \
     search's score, depth, nodes and pv out";
/// One line about `move-q`.
pub const MOVE_Q_SUMMARY: &str = "a FEN in; the engine's move (2-ply minimax, a capture search below each \
     leaf), the FEN after it and its status out";
/// One line about `move-qe`.
pub const MOVE_QE_SUMMARY: &str = "a FEN in; the engine's move (2-ply minimax, a capture search below each \
     leaf, against a lone king a term driving it to the edge), the FEN after it and its status out";
/// One line about `move-mpv`, `move-q-mpv` and `move-qe-mpv`.
pub const MOVE_MPV_SUMMARY: &str = "a FEN in; the search without `-mpv`'s output, then its best root moves \
     ranked as `multipv <rank> score <score> pv <moves>` lines";
/// One line about `move-3qe`.
pub const MOVE_3QE_SUMMARY: &str = "a FEN in; the engine's move (2-ply minimax; after a capturing reply, a \
     third ply of the engine's captures and promotions answered by the opponent's; the \
     endgame term), the FEN after it, \
     its status and the search's score, depth, nodes and pv out";
/// One line about `board`.
pub const BOARD_SUMMARY: &str =
    "`engine: white|black` and a FEN in; the first pretty board of a game out";
/// One line about `play`.
pub const PLAY_SUMMARY: &str =
    "the pretty board and the typed move in; the next board with the engine's reply out";
/// One line about `play-q`.
pub const PLAY_Q_SUMMARY: &str =
    "`play` with the 2ply-q search (a capture search below each leaf) choosing the reply";
/// One line about `play-qe`.
pub const PLAY_QE_SUMMARY: &str =
    "`play` with the 2ply-qe search (capture search, lone-king endgame term) choosing the reply";
/// One line about `play-3qe`.
pub const PLAY_3QE_SUMMARY: &str = "`play` with the 3ply-qe search (a selective third ply after a capturing reply) choosing the reply";
