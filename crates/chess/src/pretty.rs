//! The pretty board the player sees, in rules: drawing it, reading it back, and the
//! `board` and `play` programs built on it.
//!
//! # The text
//!
//! ```text
//! 8 ♜ ♞ ♝ ♛ ♚ ♝ ♞ ♜
//! 7 ♟ ♟ ♟ ♟ ♟ ♟ ♟ ♟
//! 6 · · · · · · · ·
//! 5 · · · · · · · ·
//! 4 · · · · ♙ · · ·
//! 3 · · · · · · · ·
//! 2 ♙ ♙ ♙ ♙ · ♙ ♙ ♙
//! 1 ♖ ♘ ♗ ♕ ♔ ♗ ♘ ♖
//!   a b c d e f g h
//! Side to move: black
//! Castling: KQkq
//! En passant: e3
//! Halfmove clock: 0
//! Move number: 1
//! Engine plays: black
//! Moves: 1. e4
//! History: ;rnbqkbnrpppppppp...
//! Illegal move e2e5, try again
//! Engine to move, press Enter:
//! ```
//!
//! The last line is the prompt: `Your move: ` when the player is to move, `Engine to
//! move, press Enter: ` when the engine is, `Game over.` (with a newline) when the game
//! has ended. The line before it is the message: the engine's move in SAN (`Black plays
//! Nc6`, with the end of the game after it), a complaint about the typed line, or
//! [`HELP`]. `Moves:` lists the game's moves in SAN, numbered (`1. e4 e5 2. Nf3`, or `1...
//! e5` when black moved first). The `play` program's input is that text followed by the
//! typed line: a move in SAN or coordinates (see [`super::san`]), `help`, or, when the
//! engine is to move, nothing or `go`. A move followed by `&` is played alone: the answer
//! stops at the engine's prompt instead of searching its reply. The `History:` line is for the rules only (the
//! terminal game does not show it). The history lists the keys ([`super::game_end::position_key`]) of the positions since the
//! last capture or pawn move, the shown one included, for threefold repetition and for the
//! engine's search, which compares its moves with them ([`super::history::from_keys`];
//! "Rules input" in `crates/chess/src/lib.rs`).
//!
//! # How the rules use it
//!
//! The input text stays in the state as a plain-text prefix before the program's thread
//! (it holds no `%`, so no thread rule ever matches inside it, and `[^%]*` never runs
//! into it from a thread, which comes after it). A few global rules read it: the parse
//! (glyphs to letters, then one rule that appends the thread with the six position
//! variables), and the `History:` and `Moves:` lines, which are pulled onto the stack and
//! written back only while one thread is alive, so that the search's thousand threads
//! never copy them. For the same reason the legal moves' entries that name the engine's
//! move wait in the prefix (a `#entries:` line) during the search. The
//! last rules replace the whole state by the new text: lines are joined with `|` inside
//! the value and board cells are written `~x` (`x` a piece letter), and global rules
//! turn those into newlines and glyphs.

use super::board::Position;
use super::stack_rules::on_stack;
use regex_chess_compiler::dsl::{Builder, Value, kind};
use regex_chess_compiler::ir::{Instruction, Type};

/// Piece letters and their glyphs (`.` is an empty square).
pub const GLYPHS: [(char, char); 13] = [
    ('K', '♔'),
    ('Q', '♕'),
    ('R', '♖'),
    ('B', '♗'),
    ('N', '♘'),
    ('P', '♙'),
    ('k', '♚'),
    ('q', '♛'),
    ('r', '♜'),
    ('b', '♝'),
    ('n', '♞'),
    ('p', '♟'),
    ('.', '·'),
];

/// The prompt when the player is to move.
pub const PROMPT_PLAYER: &str = "Your move: ";
/// The prompt when the engine is to move.
pub const PROMPT_ENGINE: &str = "Engine to move, press Enter: ";
/// The last line of a finished game.
pub const GAME_OVER: &str = "Game over.";

pub const HEAD: &str = "(%%\n#stack:\n)";

/// The board rows, `~x` cells, `|` between lines.
fn rows_rules() -> Vec<(String, String)> {
    let rank = "(.)(.)(.)(.)(.)(.)(.)(.)//";
    let mut replacement = String::from("${1}");
    for row in 0..8 {
        replacement.push_str(&format!("{}", 8 - row));
        for file in 0..8 {
            replacement.push_str(&format!(" ~${{{}}}", 2 + row * 8 + file));
        }
        replacement.push('|');
    }
    replacement.push_str("  a b c d e f g h\n");
    vec![(format!("{HEAD}{}\n", rank.repeat(8)), replacement)]
}

/// `white` or `black` for a side letter value (`w`/`b`).
#[track_caller]
pub fn side_name(b: &mut Builder, side: &Value<kind::Str>) -> Value<kind::Str> {
    on_stack(
        b,
        "side_name",
        &[side.var()],
        vec![
            (format!("{HEAD}w\n"), "${1}white\n".into()),
            (format!("{HEAD}b\n"), "${1}black\n".into()),
        ],
        Type::Str,
    )
}

/// Concatenates values.
#[track_caller]
pub fn join(b: &mut Builder, parts: &[Value<kind::Str>]) -> Value<kind::Str> {
    let mut text = parts[0].clone();
    for part in &parts[1..] {
        text = b.concat(&text, part);
    }
    text
}

/// The pretty text (lines joined by `|`, cells as `~x`) of the position in every active
/// thread, with the engine's side (`w`/`b`), the history list, a message line and
/// whether the game is over.
#[track_caller]
pub fn render(
    b: &mut Builder,
    pos: &Position,
    engine: &Value<kind::Str>,
    moves: &Value<kind::Str>,
    history: &Value<kind::Str>,
    message: &Value<kind::Str>,
    over: &Value<kind::Bool>,
) -> Value<kind::Str> {
    let rows: Value<kind::Str> = on_stack(b, "rows", &[pos.board.var()], rows_rules(), Type::Str);
    let side = side_name(b, &pos.turn);
    let engine_name = side_name(b, engine);
    let both = b.concat(&pos.turn, engine);
    let engine_turn = on_stack(
        b,
        "same_side",
        &[both.var()],
        vec![
            (format!("{HEAD}(?:ww|bb)\n"), "${1}T\n".into()),
            (format!("{HEAD}(?:wb|bw)\n"), "${1}F\n".into()),
        ],
        Type::Bool,
    );
    let prompt = b.if_else(
        over,
        |b| b.str(GAME_OVER),
        |b| {
            b.if_else(
                &engine_turn,
                |b| b.str(PROMPT_ENGINE.trim_end()),
                |b| b.str(PROMPT_PLAYER.trim_end()),
            )
        },
    );
    let parts = [
        rows,
        b.str("|Side to move: "),
        side,
        b.str("|Castling: "),
        pos.castling.clone(),
        b.str("|En passant: "),
        pos.ep.clone(),
        b.str("|Halfmove clock: "),
        pos.halfmove.clone(),
        b.str("|Move number: "),
        pos.fullmove.clone(),
        b.str("|Engine plays: "),
        engine_name,
        b.str("|Moves:"),
        moves.clone(),
        b.str("|History: "),
        history.clone(),
        b.str("|"),
        message.clone(),
        b.str("|"),
        prompt,
    ];
    join(b, &parts)
}

/// The last rules: the state becomes the text on top of the single thread's stack, with
/// `|` as newlines and `~x` as glyphs; a prompt gets its trailing space back, a final
/// `Game over.` a newline.
#[track_caller]
pub fn emit_pretty(b: &mut Builder, text: &Value<kind::Str>) {
    b.emit(Instruction::Lookup(text.var().clone()));
    let mut rules = vec![
        (
            "\\A[^%]*%%\n#stack:\n([^\n]*)\n(?s:.*)".to_string(),
            "${1}".to_string(),
        ),
        ("\\|".to_string(), "\n".to_string()),
        (
            format!(
                "({}|{})\\z",
                regex::escape(PROMPT_PLAYER.trim_end()),
                regex::escape(PROMPT_ENGINE.trim_end())
            ),
            "${1} ".to_string(),
        ),
        (
            format!("({})\\z", regex::escape(GAME_OVER)),
            "${1}\n".to_string(),
        ),
    ];
    for (letter, glyph) in GLYPHS {
        rules.push((regex::escape(&format!("~{letter}")), glyph.to_string()));
    }
    b.rules("pretty_text", rules, &[], &[]);
}

/// The first rules of `play`: the pretty text and the typed line become a thread after
/// the text, holding the position (`b t c e h n`), `eng` (`w`/`b`) and `in` (the typed
/// line, trimmed). Text that is not a board the `board`/`play` programs wrote is left
/// as it is.
#[track_caller]
pub fn parse_pretty(b: &mut Builder) -> (Position, Value<kind::Str>, Value<kind::Str>) {
    let mut rules = vec![("[%|~#!\x01]".to_string(), "?".to_string())];
    for (letter, glyph) in GLYPHS {
        rules.push((glyph.to_string(), letter.to_string()));
    }
    let mut pattern = String::from("\\A(");
    for row in 0..8 {
        pattern.push_str(&format!("{}", 8 - row));
        pattern.push_str(&" ([PNBRQKpnbrqk.])".repeat(8));
        pattern.push('\n');
    }
    pattern.push_str(
        "  a b c d e f g h\nSide to move: (white|black)\nCastling: (K?Q?k?q?|-)\n\
         En passant: ([a-h][36]|-)\nHalfmove clock: ([0-9]{1,4})\nMove number: ([0-9]{1,5})\n\
         Engine plays: (white|black)\nMoves:[^\n]*\nHistory: [^\n]*\n[^\n]*\n",
    );
    pattern.push_str(&format!(
        "(?:{}|{})[ \\t]*([^\n]*?)[ \\t\\r]*\n?)\\z",
        regex::escape(PROMPT_PLAYER.trim_end()),
        regex::escape(PROMPT_ENGINE.trim_end())
    ));
    let mut replacement = String::from("${1}%%\n#stack:\n#b: ");
    for row in 0..8 {
        for file in 0..8 {
            replacement.push_str(&format!("${{{}}}", 2 + row * 8 + file));
        }
        replacement.push_str("//");
    }
    replacement.push_str(
        "\n#t: ${66}\n#c: ${67}\n#e: ${68}\n#h: ${69}\n#n: ${70}\n#eng: ${71}\n#in: ${72}\n",
    );
    rules.push((pattern, replacement));
    for (name, side) in [("white", "w"), ("black", "b")] {
        rules.push((
            format!("(%%\n#stack:\n#b: [^\n]*\n#t: ){name}\n"),
            format!("${{1}}{side}\n"),
        ));
        rules.push((format!("(\n#eng: ){name}\n"), format!("${{1}}{side}\n")));
    }
    let pos = Position::handles(b);
    let engine: Value<kind::Str> = b.named("eng", Type::Str);
    let typed: Value<kind::Str> = b.named("in", Type::Str);
    let mut writes: Vec<&regex_chess_compiler::ir::Var> = pos.vars().to_vec();
    writes.push(engine.var());
    writes.push(typed.var());
    b.rules("parse_pretty", rules, &[], &writes);
    (pos.clone(), engine.clone(), typed.clone())
}

/// Pushes the value of the text prefix's line `label:` (what follows `label:` and then
/// `skip`) onto the single thread.
#[track_caller]
pub fn pull_line(b: &mut Builder, label: &str, skip: &str) -> Value<kind::Str> {
    b.rules_value(
        "pull_line",
        vec![(
            format!("\\A([^%]*\n{label}:{skip}([^\n]*)\n[^%]*)(%%\n#stack:\n)"),
            "${1}${3}${2}\n".to_string(),
        )],
        &[],
        Type::Str,
    )
}

/// Writes `value` after `label:` on the text prefix's line `label:`.
#[track_caller]
pub fn push_line(b: &mut Builder, label: &str, value: &Value<kind::Str>) {
    b.emit(Instruction::Lookup(value.var().clone()));
    b.rules(
        "push_line",
        vec![(
            format!("\\A([^%]*\n{label}:)[^\n]*(\n[^%]*%%\n#stack:\n)([^\n]*)\n"),
            "${1}${3}${2}".to_string(),
        )],
        &[],
        &[],
    );
}

/// Pushes the history list of the text prefix (`History: ...`) onto the single thread.
#[track_caller]
pub fn pull_history(b: &mut Builder) -> Value<kind::Str> {
    pull_line(b, "History", " ")
}

/// Writes `history` over the history line of the text prefix.
#[track_caller]
pub fn push_history(b: &mut Builder, history: &Value<kind::Str>) {
    let spaced = b.str(" ");
    let line = b.concat(&spaced, history);
    push_line(b, "History", &line);
}

/// Moves `value` off the single thread into a line `#label: value` at the end of the
/// text prefix, where the search's forks do not copy it (the prefix holds no `#`: the
/// parse turned the typed ones into `?`).
#[track_caller]
pub fn park(b: &mut Builder, label: &str, value: &Value<kind::Str>) {
    b.emit(Instruction::Lookup(value.var().clone()));
    b.rules(
        "park",
        vec![(
            "\\A([^%]*)(%%\n#stack:\n)([^\n]*)\n".to_string(),
            format!("${{1}}#{label}: ${{3}}\n${{2}}"),
        )],
        &[],
        &[],
    );
}

/// Takes back onto the single thread the value [`park`] left under `label`.
#[track_caller]
pub fn unpark<K: regex_chess_compiler::dsl::Kind>(
    b: &mut Builder,
    label: &str,
    ty: Type,
) -> Value<K> {
    b.rules_value(
        "unpark",
        vec![(
            format!("\\A([^%]*)#{label}: ([^\n]*)\n([^%]*%%\n#stack:\n)"),
            "${1}${3}${2}\n".to_string(),
        )],
        &[],
        ty,
    )
}

/// The move list after the move `san` by `side` (`w`/`b`) in move `number`: each move
/// after a space, white's with its number (`1. e4`), black's first with `1...`.
#[track_caller]
pub fn append_move(
    b: &mut Builder,
    moves: &Value<kind::Str>,
    san: &Value<kind::Str>,
    side: &Value<kind::Str>,
    number: &Value<kind::Str>,
) -> Value<kind::Str> {
    let white = b.eq_text(side, "w");
    let space = b.str(" ");
    b.if_else(
        &white,
        |b| {
            let dot = b.str(". ");
            join(
                b,
                &[
                    moves.clone(),
                    space.clone(),
                    number.clone(),
                    dot,
                    san.clone(),
                ],
            )
        },
        |b| {
            let first = b.eq_text(moves, "");
            b.if_else(
                &first,
                |b| {
                    let dots = b.str("... ");
                    join(b, &[space.clone(), number.clone(), dots, san.clone()])
                },
                |b| join(b, &[moves.clone(), space.clone(), san.clone()]),
            )
        },
    )
}

/// A copy of a value (to keep what a move is about to change).
#[track_caller]
pub fn copy(b: &mut Builder, value: &Value<kind::Str>) -> Value<kind::Str> {
    on_stack(b, "copy", &[value.var()], Vec::new(), Type::Str)
}

/// The message of the first board and of `help`.
pub const HELP: &str = "Type a move in SAN (e4, Nf3, exd5, O-O, e8=Q) or as squares (e2e4, e7e8q)";

/// The history after a move to the position with `key`: restarted after a capture or a
/// pawn move (half-move clock 0), else extended. Also returns the list to check
/// repetition against (the positions before, since the last irreversible move).
#[track_caller]
pub fn extend_history(
    b: &mut Builder,
    pos: &Position,
    key: &Value<kind::Str>,
    history: &Value<kind::Str>,
) -> (Value<kind::Str>, Value<kind::Str>) {
    let reset = b.eq_text(&pos.halfmove, "0");
    let before = b.if_else(&reset, |b| b.str(""), |_| history.clone());
    let sep = b.str(";");
    let entry = b.concat(&sep, key);
    let after = b.concat(&before, &entry);
    (before, after)
}
