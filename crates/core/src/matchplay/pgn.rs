//! Games as PGN: the seven-tag roster, `SetUp`/`FEN` for the opening, the moves in SAN,
//! and the reason the game ended as a comment before the result.

use std::fmt::Write;

use shakmaty::Position;
use shakmaty::san::SanPlus;

use super::game::{GameRecord, parse_position};
use super::outcome::Termination;

/// A tag value with `\` and `"` escaped.
fn escape(value: &str) -> String {
    value.replace('\\', "\\\\").replace('"', "\\\"")
}

/// A comment with the braces that would end it removed.
fn comment(text: &str) -> String {
    text.replace(['{', '}'], "")
}

/// One game in PGN, ending with a blank line.
pub fn game_pgn(game: &GameRecord, event: &str) -> String {
    let mut out = String::new();
    let tags = [
        ("Event", event.to_string()),
        ("Site", "regex-chess match".to_string()),
        ("Date", "????.??.??".to_string()),
        ("Round", (game.number + 1).to_string()),
        ("White", game.white.clone()),
        ("Black", game.black.clone()),
        ("Result", game.outcome.pgn().to_string()),
        ("SetUp", "1".to_string()),
        ("FEN", game.start_fen.clone()),
        ("Opening", format!("openings.txt line {}", game.opening + 1)),
        (
            "Termination",
            match game.termination {
                Termination::Forfeit(_) => "rules infraction",
                Termination::Checkmate | Termination::Stalemate => "normal",
                _ => "adjudication",
            }
            .to_string(),
        ),
        ("PlyCount", game.moves.len().to_string()),
    ];
    for (name, value) in tags {
        let _ = writeln!(out, "[{name} \"{}\"]", escape(&value));
    }
    out.push('\n');
    let mut pos = parse_position(&game.start_fen).expect("the game's own start FEN");
    let mut words: Vec<String> = Vec::new();
    for (i, m) in game.moves.iter().enumerate() {
        let number = pos.fullmoves().get();
        if pos.turn().is_white() {
            words.push(format!("{number}."));
        } else if i == 0 {
            words.push(format!("{number}..."));
        }
        words.push(SanPlus::from_move_and_play_unchecked(&mut pos, *m).to_string());
    }
    words.push(format!("{{{}}}", comment(&game.termination.describe())));
    words.push(game.outcome.pgn().to_string());
    // Lines of at most 79 characters (a long comment may stand alone on a longer one).
    let mut line = String::new();
    for word in words {
        if !line.is_empty() && line.len() + 1 + word.len() > 79 {
            out.push_str(&line);
            out.push('\n');
            line.clear();
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str(&word);
    }
    out.push_str(&line);
    out.push_str("\n\n");
    out
}
