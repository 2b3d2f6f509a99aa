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
//! History: ;rnbqkbnrpppppppp...
//! White plays pawn e2e4
//! Engine to move, press Enter:
//! ```
//!
//! The last line is the prompt: `Your move: ` when the player is to move, `Engine to
//! move, press Enter: ` when the engine is, `Game over.` (with a newline) when the game
//! has ended. The `play` program's input is that text followed by the typed line. The
//! history lists the keys ([`super::game_end::position_key`]) of the positions since the
//! last capture or pawn move, the shown one included, for threefold repetition.
//!
//! # How the rules use it
//!
//! The input text stays in the state as a plain-text prefix before the program's thread
//! (it holds no `%`, so no thread rule ever matches inside it, and `[^%]*` never runs
//! into it from a thread, which comes after it). A few global rules read it: the parse
//! (glyphs to letters, then one rule that appends the thread with the six position
//! variables), and the history, which is pulled onto the stack and written back only
//! while one thread is alive, so that the search's thousand threads never copy it. The
//! last rules replace the whole state by the new text: lines are joined with `|` inside
//! the value and board cells are written `~x` (`x` a piece letter), and global rules
//! turn those into newlines and glyphs.

use super::board::Position;
use super::fen_rules::parse_fen;
use super::game_end::{position_key, verdict};
use super::movegen::fork_legal_moves;
use super::search::{MAX_MOVES, search};
use super::stack_rules::on_stack;
use crate::chess::board::MoveGen;
use crate::compiler::dsl::{Builder, Value, kind};
use crate::compiler::ir::{Best, Instruction, IrProgram, Type};

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

const HEAD: &str = "(%%\n#stack:\n)";

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
fn side_name(b: &mut Builder, side: &Value<kind::Str>) -> Value<kind::Str> {
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
fn join(b: &mut Builder, parts: &[Value<kind::Str>]) -> Value<kind::Str> {
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
         Engine plays: (white|black)\nHistory: [^\n]*\n[^\n]*\n",
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
    let mut writes: Vec<&crate::compiler::ir::Var> = pos.vars().to_vec();
    writes.push(engine.var());
    writes.push(typed.var());
    b.rules("parse_pretty", rules, &[], &writes);
    (pos.clone(), engine.clone(), typed.clone())
}

/// Pushes the history list of the text prefix (`History: ...`) onto the single thread.
#[track_caller]
pub fn pull_history(b: &mut Builder) -> Value<kind::Str> {
    b.rules_value(
        "pull_history",
        vec![(
            "\\A([^%]*\nHistory: ([^\n]*)\n[^%]*)(%%\n#stack:\n)".to_string(),
            "${1}${3}${2}\n".to_string(),
        )],
        &[],
        Type::Str,
    )
}

/// Writes `history` over the history line of the text prefix.
#[track_caller]
pub fn push_history(b: &mut Builder, history: &Value<kind::Str>) {
    b.emit(Instruction::Lookup(history.var().clone()));
    b.rules(
        "push_history",
        vec![(
            "\\A([^%]*\nHistory: )[^\n]*(\n[^%]*%%\n#stack:\n)([^\n]*)\n".to_string(),
            "${1}${3}${2}".to_string(),
        )],
        &[],
        &[],
    );
}

/// The history after a move to the position with `key`: restarted after a capture or a
/// pawn move (half-move clock 0), else extended. Also returns the list to check
/// repetition against (the positions before, since the last irreversible move).
#[track_caller]
fn extend_history(
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

/// The piece name (`pawn`...`king`) of the piece on `square` of `board`.
#[track_caller]
pub(super) fn piece_name(
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

/// The `board` program: `engine: white|black\n<FEN>\n` in, the first pretty board out.
pub fn board_program() -> IrProgram {
    let mut b = Builder::new(
        "board",
        "`engine: white|black` and a FEN line in; the pretty board of the `play` program out.",
    );
    let engine_line: Value<kind::Str> = b.named("eng", Type::Str);
    let pos = parse_fen(&mut b);
    b.rules(
        "engine_side",
        vec![
            (
                "\\Aengine: (w)hite\n([^%]*%%\n#stack:\n(?:[^%\n]*\n)*)".to_string(),
                "${2}#eng: ${1}\n".to_string(),
            ),
            (
                "\\Aengine: (b)lack\n([^%]*%%\n#stack:\n(?:[^%\n]*\n)*)".to_string(),
                "${2}#eng: ${1}\n".to_string(),
            ),
        ],
        &[],
        &[engine_line.var()],
    );
    let key = position_key(&mut b, &pos);
    let none = b.str("");
    let end = verdict(&mut b, &pos, &key, &none);
    let sep = b.str(";");
    let history = b.concat(&sep, &key);
    let ongoing = b.eq_text(&end, "");
    let over = b.not(&ongoing);
    let message = b.if_else(&ongoing, |b| b.str("New game"), |_| end.clone());
    let text = render(&mut b, &pos, &engine_line, &history, &message, &over);
    emit_pretty(&mut b, &text);
    b.finish()
}

/// The `play` program: the pretty board and the typed line in, the next board out (the
/// player's move checked and played, the end of the game checked, the engine's reply
/// searched and played, the end checked again).
pub fn play_program() -> IrProgram {
    let mut b = Builder::new(
        "play",
        "The pretty board text of the `board`/`play` programs followed by the typed line; \
         the next pretty board.",
    );
    let (pos, engine, typed) = parse_pretty(&mut b);
    let both = b.concat(&pos.turn, &engine);
    let player_turn = b.eq_text(&both, "wb");
    let player_turn_black = b.eq_text(&both, "bw");
    let player_turn = b.or(&player_turn, &player_turn_black);
    let (accepted, (message, over)) = b.if_else(
        &player_turn,
        |b| {
            let looks: Value<kind::Bool> = on_stack(
                b,
                "looks_like_move",
                &[typed.var()],
                vec![
                    (
                        format!("{HEAD}[a-h][1-8][a-h][1-8][qrbn]?\n"),
                        "${1}!T\n".into(),
                    ),
                    (format!("{HEAD}(?:[^!\n][^\n]*)?\n"), "${1}F\n".into()),
                    (format!("{HEAD}!T\n"), "${1}T\n".into()),
                ],
                Type::Bool,
            );
            let hit = b.grouped(|b| {
                let original = b.fork_bool();
                let hit = b.if_else(
                    &original,
                    |b| b.bool(false),
                    |b| {
                        let children = fork_legal_moves(
                            b,
                            &pos,
                            MAX_MOVES,
                            MoveGen {
                                uci: true,
                                keep_stuck: false,
                            },
                        );
                        let uci = children.uci.expect("asked for uci");
                        same_move(b, &uci, &typed)
                    },
                );
                let one = b.int(2, 1);
                let zero = b.int(2, 0);
                let score = b.if_else(&hit, |_| one.clone(), |_| zero.clone());
                b.keep_best(&score, MAX_MOVES + 1, Best::Max);
                hit
            });
            b.if_else(
                &hit,
                |b| {
                    let history = pull_history(b);
                    let key = position_key(b, &pos);
                    let (before, after) = extend_history(b, &pos, &key, &history);
                    let end = verdict(b, &pos, &key, &before);
                    push_history(b, &after);
                    let ongoing = b.eq_text(&end, "");
                    let over = b.not(&ongoing);
                    let t = b.bool(true);
                    (t, (end, over))
                },
                |b| {
                    let f = b.bool(false);
                    let text = b.if_else(
                        &looks,
                        |b| {
                            let a = b.str("Illegal move ");
                            let c = b.str(", try again");
                            join(b, &[a, typed.clone(), c])
                        },
                        |b| {
                            let a = b.str("Malformed move '");
                            let c = b.str("': type a move such as e2e4 or e7e8q");
                            join(b, &[a, typed.clone(), c])
                        },
                    );
                    (f.clone(), (text, f))
                },
            )
        },
        |b| {
            let empty = b.eq_text(&typed, "");
            let go = b.eq_text(&typed, "go");
            let go = b.or(&empty, &go);
            let text = b.if_else(
                &go,
                |b| b.str(""),
                |b| b.str("It is the engine's move: press Enter or type go"),
            );
            let f = b.bool(false);
            (go, (text, f))
        },
    );
    let still = b.not(&over);
    let engine_plays = b.and(&accepted, &still);
    let (message, over) = b.if_else(
        &engine_plays,
        |b| {
            let chosen = search(b, &pos);
            b.if_else(
                &chosen.moved,
                |b| {
                    let colour = side_name(b, &engine);
                    let colour: Value<kind::Str> = on_stack(
                        b,
                        "capitalise",
                        &[colour.var()],
                        vec![
                            (format!("{HEAD}white\n"), "${1}White\n".into()),
                            (format!("{HEAD}black\n"), "${1}Black\n".into()),
                        ],
                        Type::Str,
                    );
                    let to = b.slice(&chosen.uci, 2, 2);
                    let piece = piece_name(b, &pos.board, &to);
                    let plays = b.str(" plays ");
                    let space = b.str(" ");
                    let words = join(b, &[colour, plays, piece, space, chosen.uci.clone()]);
                    let history = pull_history(b);
                    let key = position_key(b, &pos);
                    let (before, after) = extend_history(b, &pos, &key, &history);
                    let end = verdict(b, &pos, &key, &before);
                    push_history(b, &after);
                    let ongoing = b.eq_text(&end, "");
                    let over = b.not(&ongoing);
                    let message = b.if_else(
                        &ongoing,
                        |_| words.clone(),
                        |b| {
                            let dot = b.str(". ");
                            join(b, &[words.clone(), dot, end.clone()])
                        },
                    );
                    (message, over)
                },
                |b| {
                    let history = pull_history(b);
                    let key = position_key(b, &pos);
                    let end = verdict(b, &pos, &key, &history);
                    let t = b.bool(true);
                    (end, t)
                },
            )
        },
        |_| (message.clone(), over.clone()),
    );
    let history = pull_history(&mut b);
    let text = render(&mut b, &pos, &engine, &history, &message, &over);
    emit_pretty(&mut b, &text);
    b.finish()
}

/// Whether the legal move `uci` is the typed text: the same text, or a queen promotion
/// typed without its letter.
#[track_caller]
fn same_move(
    b: &mut Builder,
    uci: &Value<kind::Str>,
    typed: &Value<kind::Str>,
) -> Value<kind::Bool> {
    let sq = "([a-h])([1-8])([a-h])([1-8])([qrbn-])";
    let mut pairs = Vec::new();
    for c in "abcdefgh12345678".chars() {
        pairs.push(format!("{c}{c}"));
    }
    let last = ["qq", "rr", "bb", "nn", "--", "q-"].join("|");
    let rules = vec![
        // Stack: typed on top of uci; pad both to five characters.
        (
            format!("{HEAD}([a-h][1-8][a-h][1-8])\n"),
            "${1}${2}-\n".to_string(),
        ),
        (
            format!("{HEAD}([^\n]*\n)([a-h][1-8][a-h][1-8])\n"),
            "${1}${2}${3}-\n".to_string(),
        ),
        (
            format!("{HEAD}{sq}\n{sq}\n"),
            "${1}!${7}${2}${8}${3}${9}${4}${10}${5}${11}${6}\n".to_string(),
        ),
        (
            format!("{HEAD}(?:[^!\n][^\n]*)?\n[a-h][1-8][a-h][1-8][qrbn-]\n"),
            "${1}F\n".to_string(),
        ),
        (
            format!("{HEAD}!(?:{}){{4}}(?:{last})\n", pairs.join("|")),
            "${1}T\n".to_string(),
        ),
        (format!("{HEAD}![^\n]*\n"), "${1}F\n".to_string()),
    ];
    on_stack(b, "same_move", &[uci.var(), typed.var()], rules, Type::Bool)
}
