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
//! "Rules input" in `src/chess/mod.rs`).
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
use super::fen_rules::parse_fen;
use super::game_end::{position_key, verdict};
use super::history;
use super::movegen::beside_legal_moves;
use super::san;
use super::search::{MAX_MOVES, SearchOptions, search_with};
use super::stack_rules::on_stack;
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
    let mut writes: Vec<&crate::compiler::ir::Var> = pos.vars().to_vec();
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
fn park(b: &mut Builder, label: &str, value: &Value<kind::Str>) {
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
fn unpark<K: crate::compiler::dsl::Kind>(b: &mut Builder, label: &str, ty: Type) -> Value<K> {
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
fn append_move(
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
fn copy(b: &mut Builder, value: &Value<kind::Str>) -> Value<kind::Str> {
    on_stack(b, "copy", &[value.var()], Vec::new(), Type::Str)
}

/// The message of the first board and of `help`.
pub const HELP: &str = "Type a move in SAN (e4, Nf3, exd5, O-O, e8=Q) or as squares (e2e4, e7e8q)";

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
    let message = b.if_else(
        &ongoing,
        |b| b.str(&format!("New game. {HELP}")),
        |_| end.clone(),
    );
    let moves = b.str("");
    let text = render(
        &mut b,
        &pos,
        &engine_line,
        &moves,
        &history,
        &message,
        &over,
    );
    emit_pretty(&mut b, &text);
    b.finish()
}

/// The `play` program: the pretty board and the typed line in, the next board out (the
/// player's move read and played, the end of the game checked, the engine's reply
/// searched and played, the end checked again). Moves are read and named in SAN by the
/// rules of [`super::san`], and added to the `Moves:` line. The engine's reply is the
/// 2-ply search's (the `2ply` variant, as the `move` program's), with the `History:`
/// line's earlier positions as its rules input.
pub fn play_program() -> IrProgram {
    play_program_with(
        "play",
        "The pretty board text of the `board`/`play` programs followed by the typed line; \
         the next pretty board.",
        SearchOptions::default(),
    )
}

/// The `play-q` program: [`play_program`] with the `2ply-q` search (the `move-q`
/// program's) choosing the engine's reply.
pub fn play_q_program() -> IrProgram {
    play_program_with(
        "play-q",
        "The `play` program's contract; the engine's reply is the 2-ply minimax with a \
         capture search below each leaf (the `2ply-q` variant).",
        SearchOptions {
            quiescence: true,
            ..SearchOptions::default()
        },
    )
}

/// The `play-qe` program: [`play_program`] with the `2ply-qe` search (the `move-qe`
/// program's) choosing the engine's reply.
pub fn play_qe_program() -> IrProgram {
    play_program_with(
        "play-qe",
        "The `play` program's contract; the engine's reply is the 2-ply minimax with a \
         capture search below each leaf and the endgame term against a lone king (the \
         `2ply-qe` variant).",
        SearchOptions {
            quiescence: true,
            endgame: true,
            ..SearchOptions::default()
        },
    )
}

/// The `play-3qe` program: [`play_program`] with the `3ply-qe` search (the `move-3qe`
/// program's) choosing the engine's reply.
pub fn play_3qe_program() -> IrProgram {
    play_program_with(
        "play-3qe",
        "The `play` program's contract; the engine's reply is the `3ply-qe` search: the \
         2-ply minimax, a selective third ply after a capturing reply, the capture search \
         and the endgame term.",
        SearchOptions {
            quiescence: true,
            endgame: true,
            third_ply: true,
            ..SearchOptions::default()
        },
    )
}

/// A program with the `play` contract whose engine searches with `options` (without
/// the report: the board text has no place for it).
fn play_program_with(name: &str, description: &str, options: SearchOptions) -> IrProgram {
    let mut b = Builder::new(name, description);
    let (pos, engine, typed) = parse_pretty(&mut b);
    // A typed line ending in `&` asks for the player's move alone: the answer stops at
    // the engine's prompt (the page shows the player's move at once this way).
    let pause: Value<kind::Bool> = on_stack(
        &mut b,
        "pause",
        &[typed.var()],
        vec![
            (format!("{HEAD}[^\n]*&\n"), "${1}!T\n".into()),
            (format!("{HEAD}(?:[^!\n][^\n]*)?\n"), "${1}F\n".into()),
            (format!("{HEAD}!T\n"), "${1}T\n".into()),
        ],
        Type::Bool,
    );
    let typed: Value<kind::Str> = on_stack(
        &mut b,
        "unpause",
        &[typed.var()],
        vec![(format!("{HEAD}([^\n]*?) *&\n"), "${1}${2}\n".into())],
        Type::Str,
    );
    let both = b.concat(&pos.turn, &engine);
    let player_turn = b.eq_text(&both, "wb");
    let player_turn_black = b.eq_text(&both, "bw");
    let player_turn = b.or(&player_turn, &player_turn_black);
    let (accepted, (message, over)) = b.if_else(
        &player_turn,
        |b| {
            let help = b.eq_text(&typed, "help");
            b.if_else(
                &help,
                |b| {
                    let f = b.bool(false);
                    (f.clone(), (b.str(HELP), f))
                },
                |b| player_move(b, &pos, &typed),
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
    let go_on = b.not(&pause);
    let engine_plays = b.and(&engine_plays, &go_on);
    let (message, over) = b.if_else(
        &engine_plays,
        |b| engine_move(b, &pos, &engine, options),
        |_| (message.clone(), over.clone()),
    );
    let moves = pull_line(&mut b, "Moves", "");
    let history = pull_history(&mut b);
    let text = render(&mut b, &pos, &engine, &moves, &history, &message, &over);
    emit_pretty(&mut b, &text);
    b.finish()
}

/// The player's typed move, read against the legal moves: played when exactly one
/// matches (then the end of the game is checked), else a message. Returns whether it was
/// played, the message and whether the game is over.
#[track_caller]
fn player_move(
    b: &mut Builder,
    pos: &Position,
    typed: &Value<kind::Str>,
) -> (Value<kind::Bool>, (Value<kind::Str>, Value<kind::Bool>)) {
    let entries = san::legal_entries(b, pos);
    let query = san::query(b, typed);
    let hits = san::matching(b, &query, &entries);
    let count = san::hit_count(b, &hits);
    let one = b.eq_text(&count, "1");
    b.if_else(
        &one,
        |b| {
            let entry = san::single(b, &hits);
            let name = san::san_of(b, &entry, &entries);
            let uci = san::uci_of(b, &entry);
            let side = copy(b, &pos.turn);
            let number = copy(b, &pos.fullmove);
            play_uci(b, pos, &uci);
            let name = san::with_check_suffix(b, pos, &name);
            let moves = pull_line(b, "Moves", "");
            let moves = append_move(b, &moves, &name, &side, &number);
            push_line(b, "Moves", &moves);
            let history = pull_history(b);
            let key = position_key(b, pos);
            let (before, after) = extend_history(b, pos, &key, &history);
            let end = verdict(b, pos, &key, &before);
            push_history(b, &after);
            let ongoing = b.eq_text(&end, "");
            let over = b.not(&ongoing);
            let t = b.bool(true);
            (t, (end, over))
        },
        |b| {
            let f = b.bool(false);
            let many = b.eq_text(&count, "2");
            let text = b.if_else(
                &many,
                |b| {
                    let names = san::candidates(b, &hits, &entries);
                    let a = b.str("Ambiguous move ");
                    let c = b.str(": it could be ");
                    join(b, &[a, typed.clone(), c, names])
                },
                |b| {
                    let malformed = b.eq_text(&query, "X");
                    b.if_else(
                        &malformed,
                        |b| {
                            let a = b.str("Malformed move '");
                            let c = b.str(&format!("'. {HELP}"));
                            join(b, &[a, typed.clone(), c])
                        },
                        |b| {
                            let a = b.str("Illegal move ");
                            let c = b.str(", try again");
                            join(b, &[a, typed.clone(), c])
                        },
                    )
                },
            );
            (f.clone(), (text, f))
        },
    )
}

/// Plays the legal move `uci` in the single thread's position.
#[track_caller]
fn play_uci(b: &mut Builder, pos: &Position, uci: &Value<kind::Str>) {
    b.grouped(|b| {
        let hit = beside_legal_moves(
            b,
            pos,
            |b| b.bool(false),
            |b, child| same_move(b, child, uci),
        );
        let one = b.int(2, 1);
        let zero = b.int(2, 0);
        let score = b.if_else(&hit, |_| one.clone(), |_| zero.clone());
        b.keep_best(&score, MAX_MOVES + 1, Best::Max);
    });
}

/// The engine's move: searched (the game's earlier positions, from the `History:` line,
/// are the search's rules input), played, named in SAN (`Black plays Nc6`) and added to
/// the move list; then the end of the game is checked. The legal moves' entries, needed
/// for the name, wait in the text prefix during the search.
#[track_caller]
fn engine_move(
    b: &mut Builder,
    pos: &Position,
    engine: &Value<kind::Str>,
    options: SearchOptions,
) -> (Value<kind::Str>, Value<kind::Bool>) {
    let entries = san::legal_entries(b, pos);
    let listed = b.text_of(&entries);
    park(b, "entries", &listed);
    let number = copy(b, &pos.fullmove);
    park(b, "number", &number);
    // The game's earlier positions reach the search as the `move` program's rules input.
    let keys = pull_history(b);
    let extras = history::from_keys(b, &keys);
    let chosen = search_with(b, pos, options, Some(&extras));
    let number: Value<kind::Str> = unpark(b, "number", Type::Str);
    let entries: Value<kind::List<kind::Str>> =
        unpark(b, "entries", Type::List(crate::compiler::ir::Scalar::Str));
    b.if_else(
        &chosen.moved,
        |b| {
            let colour = side_name(b, engine);
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
            let entry = san::entry_for_uci(b, &chosen.uci, &entries);
            let name = san::san_of(b, &entry, &entries);
            let name = san::with_check_suffix(b, pos, &name);
            let moves = pull_line(b, "Moves", "");
            let moves = append_move(b, &moves, &name, engine, &number);
            push_line(b, "Moves", &moves);
            let plays = b.str(" plays ");
            let words = join(b, &[colour, plays, name]);
            let history = pull_history(b);
            let key = position_key(b, pos);
            let (before, after) = extend_history(b, pos, &key, &history);
            let end = verdict(b, pos, &key, &before);
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
            let key = position_key(b, pos);
            let end = verdict(b, pos, &key, &history);
            let t = b.bool(true);
            (end, t)
        },
    )
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
