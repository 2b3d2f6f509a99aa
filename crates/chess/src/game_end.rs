//! The end of a game, in rules: checkmate, stalemate, the fifty-move rule, insufficient
//! material and threefold repetition, for the position of every active thread.
//!
//! Repetition needs the history since the last irreversible move: a list of position
//! keys (see [`position_key`]), one per position, fixed-width so that two keys compare
//! with one interleaving rule (no backreference).
//!
//! Two positions are the same under FIDE's rule (article 9.2.3) when the same side is
//! to move, the same pieces stand on the same squares and the same moves are possible:
//! the en-passant square therefore counts only when an en-passant capture is legal, not
//! after every two-square pawn move (shakmaty's `EnPassantMode::Legal`).

use super::board::MAX_MOVES;
use super::board::Position;
use super::movegen::{beside_legal_moves, has_legal_move, in_check};
use super::stack_rules::on_stack;
use regex_chess_compiler::dsl::{Builder, Value, kind};
use regex_chess_compiler::ir::Type;

/// Characters of a key: board, side, castling, en passant, and the padding `-`.
const KEY_CHARS: &str = "PNBRQKpnbrqk.wb-abcdefgh36";
/// Length of a position key.
pub const KEY_LEN: usize = 64 + 1 + 4 + 2;
/// The longest history kept (the fifty-move rule ends a game before).
pub const MAX_HISTORY: usize = 128;

const HEAD: &str = "(%%\n#stack:\n)";

/// The en-passant square when an en-passant capture is legal in `pos`, else `-`.
///
/// The position forks into itself (first) and one child per legal move; a child says
/// whether its move was a pawn's move to the en-passant square (the only such move is
/// the capture), and the answers are gathered back into the first thread, whose
/// variables are the position's own.
#[track_caller]
fn legal_en_passant(b: &mut Builder, pos: &Position) -> Value<kind::Str> {
    let none = b.eq_text(&pos.ep, "-");
    b.if_else(
        &none,
        |b| b.str("-"),
        |b| {
            let empty = b.str("");
            let target = b.concat(&pos.ep, &empty);
            let answers = b.grouped(|b| {
                let capture = beside_legal_moves(
                    b,
                    pos,
                    |b| b.bool(false),
                    |b, uci| {
                        let to = b.slice(uci, 2, 2);
                        let same = equal_fixed(b, &to, &target, 2, "abcdefgh12345678");
                        let piece = piece_name(b, &pos.board, &to);
                        let pawn = b.eq_text(&piece, "pawn");
                        b.and(&same, &pawn)
                    },
                );
                b.gather(&capture, MAX_MOVES + 1)
            });
            let any: Value<kind::Bool> = on_stack(
                b,
                "any_en_passant",
                &[answers.var()],
                vec![
                    (format!("{HEAD}[^\n]*T[^\n]*\n"), "${1}!T\n".into()),
                    (format!("{HEAD}(?:[^!\n][^\n]*)?\n"), "${1}F\n".into()),
                    (format!("{HEAD}!T\n"), "${1}T\n".into()),
                ],
                Type::Bool,
            );
            b.if_else(&any, |_| target.clone(), |b| b.str("-"))
        },
    )
}

/// The position's key: the 64 squares (rank 8 first), the side to move, the castling
/// rights padded to 4 with `-`, the en-passant square padded to 2 (`-` unless an
/// en-passant capture is legal, see the module docs): 71 characters.
#[track_caller]
pub fn position_key(b: &mut Builder, pos: &Position) -> Value<kind::Str> {
    let ep = legal_en_passant(b, pos);
    let ranks: String = (0..8).map(|_| "([^\n/]{8})//").collect();
    let mut squares = String::new();
    for i in 0..8 {
        squares.push_str(&format!("${{{}}}", i + 5));
    }
    let rules = vec![
        // Stack: e, c, t, board (e on top).
        (
            format!("{HEAD}([^\n]*)\n([^\n]*)\n([^\n]*)\n{ranks}\n"),
            format!("${{1}}{squares}${{4}}${{3}}:${{2}}\n"),
        ),
        (
            format!("{HEAD}([^\n]{{65}})([^:\n]):"),
            "${1}${2}${3}---:".into(),
        ),
        (
            format!("{HEAD}([^\n]{{65}})([^:\n]{{2}}):"),
            "${1}${2}${3}--:".into(),
        ),
        (
            format!("{HEAD}([^\n]{{65}})([^:\n]{{3}}):"),
            "${1}${2}${3}-:".into(),
        ),
        (format!("{HEAD}([^\n]{{69}}):-\n"), "${1}${2}--\n".into()),
        (format!("{HEAD}([^\n]{{69}}):"), "${1}${2}".into()),
    ];
    on_stack(
        b,
        "position_key",
        &[
            pos.board.var(),
            pos.turn.var(),
            pos.castling.var(),
            ep.var(),
        ],
        rules,
        Type::Str,
    )
}

/// Whether two texts of exactly `len` characters from `alphabet` are equal (one rule
/// interleaves them, one tests the pairs).
#[track_caller]
pub fn equal_fixed(
    b: &mut Builder,
    x: &Value<kind::Str>,
    y: &Value<kind::Str>,
    len: usize,
    alphabet: &str,
) -> Value<kind::Bool> {
    let one = "([^\n])".repeat(len);
    let mut interleaved = String::from("${1}!");
    for i in 0..len {
        interleaved.push_str(&format!("${{{}}}${{{}}}", 2 + len + i, 2 + i));
    }
    interleaved.push('\n');
    let pairs: Vec<String> = alphabet
        .chars()
        .map(|c| regex::escape(&format!("{c}{c}")))
        .collect();
    let rules = vec![
        (format!("{HEAD}{one}\n{one}\n"), interleaved),
        (
            format!("{HEAD}!(?:{}){{{len}}}\n", pairs.join("|")),
            "${1}T\n".to_string(),
        ),
        (format!("{HEAD}![^\n]*\n"), "${1}F\n".to_string()),
    ];
    on_stack(b, "equal_fixed", &[x.var(), y.var()], rules, Type::Bool)
}

/// Whether `key` occurs at least twice in `history` (a list of keys): with the position
/// itself, a threefold repetition.
#[track_caller]
pub fn repeated(
    b: &mut Builder,
    key: &Value<kind::Str>,
    history: &Value<kind::Str>,
) -> Value<kind::Bool> {
    // A list never forks to nothing: a dummy entry that no key equals ends it.
    let dummy = b.str(&format!(";{}", "x".repeat(KEY_LEN)));
    let list = b.concat(history, &dummy);
    let entries = on_stack::<kind::List<kind::Str>>(
        b,
        "as_list",
        &[list.var()],
        Vec::new(),
        Type::List(regex_chess_compiler::ir::Scalar::Str),
    );
    let seen = b.grouped(|b| {
        let entry = b.fork_list(&entries, MAX_HISTORY);
        let same = equal_fixed(b, &entry, key, KEY_LEN, KEY_CHARS);
        b.gather(&same, MAX_HISTORY)
    });
    on_stack(
        b,
        "twice",
        &[seen.var()],
        vec![
            (format!("{HEAD}[^\n]*T[^\n]*T[^\n]*\n"), "${1}!T\n".into()),
            (format!("{HEAD}(?:[^!\n][^\n]*)?\n"), "${1}F\n".into()),
            (format!("{HEAD}!T\n"), "${1}T\n".into()),
        ],
        Type::Bool,
    )
}

/// The end of the game in the position of every active thread, as a message (`""` when
/// the game goes on): `Checkmate: white wins`, `Draw by stalemate`, `Draw by the
/// fifty-move rule`, `Draw by insufficient material`, `Draw by threefold repetition`.
/// `history` is the list of keys before this position.
#[track_caller]
pub fn verdict(
    b: &mut Builder,
    pos: &Position,
    key: &Value<kind::Str>,
    history: &Value<kind::Str>,
) -> Value<kind::Str> {
    let can_move = has_legal_move(b, pos);
    let no_move = b.not(&can_move);
    let st = status(b, pos, &no_move);
    let mate = b.eq_text(&st, "checkmate");
    b.if_else(
        &mate,
        |b| {
            let white_to_move = b.eq_text(&pos.turn, "w");
            b.if_else(
                &white_to_move,
                |b| b.str("Checkmate: black wins"),
                |b| b.str("Checkmate: white wins"),
            )
        },
        |b| {
            let ongoing = b.eq_text(&st, "ongoing");
            b.if_else(
                &ongoing,
                |b| {
                    let three = repeated(b, key, history);
                    b.if_else(
                        &three,
                        |b| b.str("Draw by threefold repetition"),
                        |b| b.str(""),
                    )
                },
                |b| {
                    let text: Value<kind::Str> = on_stack(
                        b,
                        "draw_text",
                        &[st.var()],
                        vec![
                            (
                                format!("{HEAD}stalemate\n"),
                                "${1}Draw by stalemate\n".into(),
                            ),
                            (
                                format!("{HEAD}fifty-move\n"),
                                "${1}Draw by the fifty-move rule\n".into(),
                            ),
                            (
                                format!("{HEAD}insufficient-material\n"),
                                "${1}Draw by insufficient material\n".into(),
                            ),
                        ],
                        Type::Str,
                    );
                    text
                },
            )
        },
    )
}

/// The piece name (`pawn`...`king`) of the piece on `square` of `board`.
#[track_caller]
fn piece_name(
    b: &mut Builder,
    board: &Value<kind::Str>,
    square: &Value<kind::Str>,
) -> Value<kind::Str> {
    let mut alternatives = Vec::new();
    let mut groups = String::new();
    for index in 0..64 {
        let name = super::evaluate::square_name(index);
        let offset = super::evaluate::board_offset(index);
        alternatives.push(format!("{name}\n.{{{offset}}}(.)"));
        groups.push_str(&format!("${{{}}}", 2 + index));
    }
    let mut rules = vec![(
        format!("{HEAD}(?:{})[^\n]*\n", alternatives.join("|")),
        format!("${{1}}{groups}\n"),
    )];
    for (letters, name) in [
        ("Pp", "pawn"),
        ("Nn", "knight"),
        ("Bb", "bishop"),
        ("Rr", "rook"),
        ("Qq", "queen"),
        ("Kk", "king"),
    ] {
        rules.push((format!("{HEAD}[{letters}]\n"), format!("${{1}}{name}\n")));
    }
    on_stack(
        b,
        "piece_name",
        &[board.var(), square.var()],
        rules,
        Type::Str,
    )
}

/// Whether a decimal clock is at least 100.
#[track_caller]
pub fn clock_at_least_100(b: &mut Builder, clock: &Value<kind::Str>) -> Value<kind::Bool> {
    on_stack(
        b,
        "fifty_moves",
        &[clock.var()],
        vec![
            (format!("{HEAD}[1-9][0-9]{{2,}}\n"), "${1}T\n".to_string()),
            (
                format!("{HEAD}(?:[^T\n][^\n]*|T[^\n]+)?\n"),
                "${1}F\n".to_string(),
            ),
        ],
        Type::Bool,
    )
}

/// Whether neither side can ever mate on `board` (shakmaty's rule): no pawn, rook or
/// queen, and either a lone knight besides the kings, or no knight and every bishop on
/// squares of one colour.
#[track_caller]
pub fn insufficient_material(b: &mut Builder, board: &Value<kind::Str>) -> Value<kind::Bool> {
    // A square of the board line is light when file + rank is odd.
    let only = |light: &str, dark: &str| -> String {
        let mut p = String::new();
        for row in 0..8 {
            let rank = 7 - row;
            for file in 0..8 {
                p.push_str(if (file + rank) % 2 == 1 { light } else { dark });
            }
            p.push_str("//");
        }
        p
    };
    let no_heavy = "[^PRQprqNn]";
    let no_heavy_nor_bishop = "[^PRQprqNnBb]";
    let rules = vec![
        (
            format!("{HEAD}[^PRQprqBbNn\n]*[Nn][^PRQprqBbNn\n]*\n"),
            "${1}!T\n".to_string(),
        ),
        (
            format!("{HEAD}{}\n", only(no_heavy_nor_bishop, no_heavy)),
            "${1}!T\n".to_string(),
        ),
        (
            format!("{HEAD}{}\n", only(no_heavy, no_heavy_nor_bishop)),
            "${1}!T\n".to_string(),
        ),
        (format!("{HEAD}(?:[^!\n][^\n]*)?\n"), "${1}F\n".to_string()),
        (format!("{HEAD}!T\n"), "${1}T\n".to_string()),
    ];
    on_stack(
        b,
        "insufficient_material",
        &[board.var()],
        rules,
        Type::Bool,
    )
}

/// The status of the position in the thread: `checkmate`, `stalemate`, `fifty-move`,
/// `insufficient-material` or `ongoing`. `no_move` says the side to move has no legal
/// move (known from the search).
#[track_caller]
pub fn status(b: &mut Builder, pos: &Position, no_move: &Value<kind::Bool>) -> Value<kind::Str> {
    b.if_else(
        no_move,
        |b| {
            let check = in_check(b, pos);
            let mate = b.str("checkmate");
            let stale = b.str("stalemate");
            b.if_else(&check, |_| mate.clone(), |_| stale.clone())
        },
        |b| {
            let fifty = clock_at_least_100(b, &pos.halfmove);
            b.if_else(
                &fifty,
                |b| b.str("fifty-move"),
                |b| {
                    let dead = insufficient_material(b, &pos.board);
                    b.if_else(
                        &dead,
                        |b| b.str("insufficient-material"),
                        |b| b.str("ongoing"),
                    )
                },
            )
        },
    )
}
