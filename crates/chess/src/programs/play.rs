//! The game programs of the terminal and the page: `board` (the first pretty board of a
//! game) and the `play` programs (the pretty board and the typed line in, the next board
//! out: the player's move read and played, the end of the game checked, the engine's
//! reply searched and played, the end checked again). The board text is
//! [`crate::pretty`]'s.

use crate::board::{MAX_MOVES, Position};
use crate::fen_rules::parse_fen;
use crate::game_end::{position_key, verdict};
use crate::history;
use crate::movegen::beside_legal_moves;
use crate::pretty::{
    HEAD, HELP, append_move, copy, emit_pretty, extend_history, join, park, parse_pretty,
    pull_history, pull_line, push_history, push_line, render, side_name, unpark,
};
use crate::san;
use crate::search::{SearchOptions, search_with};
use crate::stack_rules::on_stack;
use regex_chess_compiler::dsl::{Builder, Value, kind};
use regex_chess_compiler::ir::{Best, IrProgram, Type};

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

/// A program with the `play` contract, called `name`, whose engine searches with
/// `options` (without the report: the board text has no place for it). The player's move
/// is read and named in SAN by the rules of [`crate::san`] and added to the
/// `Moves:` line; the engine's search gets the `History:` line's earlier positions as
/// its rules input.
pub fn play_program(name: &str, description: &str, options: SearchOptions) -> IrProgram {
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
    let entries: Value<kind::List<kind::Str>> = unpark(
        b,
        "entries",
        Type::List(regex_chess_compiler::ir::Scalar::Str),
    );
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
