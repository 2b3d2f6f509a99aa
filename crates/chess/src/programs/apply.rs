//! `apply-move`: a FEN and a move in, the FEN after the move out, or `illegal`.
//!
//! Input state `<FEN>\n<uci>\n`; output state `fen <FEN after the move>\n`, or
//! `illegal\n` when the move is not among the position's legal moves. The UCI session
//! uses it for the moves of `position ... moves ...`, so that the position the engine
//! searches is computed by the rules, like its moves.
//!
//! How: the move line is first tagged so that the FEN parser leaves it alone (a `_`
//! before each rank digit: the parser expands a digit that follows a piece letter, and
//! `b7` would read as a bishop and seven empty squares), then becomes the variable
//! `#want` of the position's thread. The position forks into one thread per legal move
//! (each keeps `#want`); a thread survives when its move's UCI text equals `#want`,
//! compared character by character (both with a `.` appended, so that `e7e8` and
//! `e7e8q` differ at their fifth character); the survivor prints its FEN. When no thread
//! survives, the empty state becomes `illegal\n`.

use crate::fen_rules::{parse_fen, to_fen};
use crate::fragments::{HEAD, thread_values};
use crate::movegen::fork_legal_uci;
use regex_chess_compiler::dsl::{Builder, Value, kind};
use regex_chess_compiler::ir::{IrProgram, Type};

/// The characters of a UCI move, each matched with itself (and the `.` end mark).
const SAME_PAIRS: &str = "aa|bb|cc|dd|ee|ff|gg|hh|11|22|33|44|55|66|77|88|nn|rr|qq|\\.\\.";

/// One line about the program, for the registry.
pub const SUMMARY: &str =
    "A FEN and a UCI move in, each on a line; `fen <FEN after>` or `illegal` out.";

/// Records the `apply-move` program.
pub fn apply_move() -> IrProgram {
    let mut b = Builder::new(
        "apply-move",
        "Input: a FEN and a newline, a move in UCI and a newline. Output: `fen <FEN after \
         the move>` and a newline, or `illegal` and a newline.",
    );
    // Keep the move line out of the FEN parser's way.
    b.rules(
        "tag_move",
        vec![(
            "\n([a-h])([1-8])([a-h])([1-8])([nbrq]?)\n$".to_string(),
            "\n!${1}_${2}${3}_${4}${5}\n".to_string(),
        )],
        &[],
        &[],
    );
    let pos = parse_fen(&mut b);
    let want: Value<kind::Str> = b.fresh(Type::Str);
    let w = want.var().name().to_string();
    b.rules(
        "want",
        vec![(
            format!("({HEAD}[^%]*)!([a-h])_([1-8])([a-h])_([1-8])([nbrq]?)\n"),
            format!("${{1}}#{w}: ${{2}}${{3}}${{4}}${{5}}${{6}}\n"),
        )],
        &[],
        &[want.var()],
    );
    let uci = fork_legal_uci(&mut b, &pos);
    let dot = b.str(".");
    let played = b.concat(&uci, &dot);
    let wanted = b.concat(&want, &dot);
    let mut same = b.bool(true);
    for k in 0..5 {
        let x = b.slice(&played, k, 1);
        let y = b.slice(&wanted, k, 1);
        let pair = b.concat(&x, &y);
        let equal = b.matches(&pair, SAME_PAIRS);
        same = b.and(&same, &equal);
    }
    let differs = b.not(&same);
    b.when(&differs, |b| b.destroy());
    let fen = to_fen(&mut b, &pos);
    b.rules(
        "print",
        vec![
            (thread_values(&[fen.var().name()]), "fen ${1}\n".to_string()),
            ("^$".to_string(), "illegal\n".to_string()),
        ],
        &[fen.var()],
        &[],
    );
    b.finish()
}
