//! Games as PGN, as fastchess and cutechess-cli write them: the Seven Tag Roster (`Event`,
//! `Site`, `Date`, `Round`, `White`, `Black`, `Result`), then `SetUp`/`FEN` for the
//! opening, `TimeControl`, `Termination`, `PlyCount` and the opening's line; the moves in
//! SAN, each move whose player said something followed by a `{score/depth time}` comment
//! (`{+0.31/2 0.042s}`, `{-M3/2 0.050s}`, the score in pawns from the mover's side; the
//! engine's moves always carry one), and the reason the game ended in the last comment.
//!
//! `TimeControl` is `-` (PGN's "no time control"): the engine searches its variant's
//! depth and the opponents their depth or time per move, with no clock.

use std::fmt::Write;

use shakmaty::Position;
use shakmaty::san::SanPlus;

use super::game::{GameRecord, MoveNote, parse_position};
use super::outcome::Termination;
use crate::reply::Score;

/// The tags that are the match's rather than the game's.
#[derive(Clone, Debug)]
pub struct PgnTags {
    /// `Event`.
    pub event: String,
    /// `Site`.
    pub site: String,
    /// `Date`, `YYYY.MM.DD` (`????.??.??` when unknown).
    pub date: String,
}

impl PgnTags {
    /// The tags of an event of this name, at the site `regex-chess match`, date unknown.
    pub fn new(event: impl Into<String>) -> PgnTags {
        PgnTags {
            event: event.into(),
            site: "regex-chess match".to_string(),
            date: "????.??.??".to_string(),
        }
    }
}

/// A tag value with `\` and `"` escaped.
fn escape(value: &str) -> String {
    value.replace('\\', "\\\\").replace('"', "\\\"")
}

/// A comment with the braces that would end it removed.
fn comment(text: &str) -> String {
    text.replace(['{', '}'], "")
}

/// A score as PGN comments write it: pawns with a sign (`+0.31`), or `+M3` / `-M3`.
pub fn score_text(score: Score) -> String {
    match score {
        Score::Cp(cp) => format!("{:+.2}", f64::from(cp) / 100.0),
        Score::Mate(n) if n > 0 => format!("+M{n}"),
        Score::Mate(n) => format!("-M{}", n.unsigned_abs()),
    }
}

/// A move's comment, `score/depth time` (the parts its player did not report left
/// out), or `None` for a move whose player says nothing (not the engine, no score).
fn note_text(note: &MoveNote) -> Option<String> {
    if !note.by_engine && note.score.is_none() && note.depth.is_none() {
        return None;
    }
    let mut text = note.score.map_or_else(String::new, score_text);
    if let Some(depth) = note.depth {
        let _ = write!(text, "/{depth}");
    }
    if !text.is_empty() {
        text.push(' ');
    }
    let _ = write!(text, "{:.3}s", note.wall_ms / 1e3);
    Some(text)
}

/// The `Termination` tag: `normal` for a game the rules of chess ended, `rules
/// infraction` for a forfeit, `adjudication` for the referee's draws.
fn termination_tag(termination: &Termination) -> &'static str {
    match termination {
        Termination::Forfeit(_) => "rules infraction",
        Termination::Checkmate | Termination::Stalemate => "normal",
        _ => "adjudication",
    }
}

/// One game in PGN with the tags of an event named `event`, ending with a blank line.
pub fn game_pgn(game: &GameRecord, event: &str) -> String {
    game_pgn_with(game, &PgnTags::new(event))
}

/// One game in PGN with the match's `tags`, ending with a blank line.
pub fn game_pgn_with(game: &GameRecord, tags: &PgnTags) -> String {
    let mut out = String::new();
    let all = [
        ("Event", tags.event.clone()),
        ("Site", tags.site.clone()),
        ("Date", tags.date.clone()),
        ("Round", (game.number + 1).to_string()),
        ("White", game.white.clone()),
        ("Black", game.black.clone()),
        ("Result", game.outcome.pgn().to_string()),
        ("SetUp", "1".to_string()),
        ("FEN", game.start_fen.clone()),
        ("TimeControl", "-".to_string()),
        (
            "Termination",
            termination_tag(&game.termination).to_string(),
        ),
        ("PlyCount", game.moves.len().to_string()),
        ("Opening", format!("openings.txt line {}", game.opening + 1)),
    ];
    for (name, value) in all {
        let _ = writeln!(out, "[{name} \"{}\"]", escape(&value));
    }
    out.push('\n');
    let mut pos = parse_position(&game.start_fen).expect("the game's own start FEN");
    let mut words: Vec<String> = Vec::new();
    let last = game.moves.len().checked_sub(1);
    let reason = comment(&game.termination.describe());
    for (i, m) in game.moves.iter().enumerate() {
        let number = pos.fullmoves().get();
        if pos.turn().is_white() {
            words.push(format!("{number}."));
        } else if i == 0 {
            words.push(format!("{number}..."));
        }
        words.push(SanPlus::from_move_and_play_unchecked(&mut pos, *m).to_string());
        let note = game.notes.get(i).and_then(note_text).map(|t| comment(&t));
        match (note, Some(i) == last) {
            (Some(note), true) => words.push(format!("{{{note}, {reason}}}")),
            (Some(note), false) => words.push(format!("{{{note}}}")),
            (None, true) => words.push(format!("{{{reason}}}")),
            (None, false) => {}
        }
    }
    if last.is_none() {
        words.push(format!("{{{reason}}}"));
    }
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

/// The date of a time as PGN writes it, `YYYY.MM.DD` (UTC).
pub fn pgn_date(time: std::time::SystemTime) -> String {
    let (y, m, d) = civil_date(time);
    format!("{y:04}.{m:02}.{d:02}")
}

/// The date of a time as results files write it, `YYYY-MM-DD` (UTC).
pub fn iso_date(time: std::time::SystemTime) -> String {
    let (y, m, d) = civil_date(time);
    format!("{y:04}-{m:02}-{d:02}")
}

/// The UTC calendar date (year, month, day) of a time (the epoch for a time before it).
pub fn civil_date(time: std::time::SystemTime) -> (i64, u32, u32) {
    let secs = time
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    date_of_day((secs / 86_400) as i64)
}

/// The proleptic Gregorian date of the day `days` after 1970-01-01: days are counted in
/// eras of 400 years (146,097 days), each starting on a March 1st, so that the leap day
/// falls at the end of a year.
fn date_of_day(days: i64) -> (i64, u32, u32) {
    let z = days + 719_468; // days from 0000-03-01
    let era = z.div_euclid(146_097);
    let day_of_era = z.rem_euclid(146_097);
    let year_of_era =
        (day_of_era - day_of_era / 1_460 + day_of_era / 36_524 - day_of_era / 146_096) / 365;
    let day_of_year = day_of_era - (365 * year_of_era + year_of_era / 4 - year_of_era / 100);
    let month_from_march = (5 * day_of_year + 2) / 153;
    let day = (day_of_year - (153 * month_from_march + 2) / 5 + 1) as u32;
    let month = if month_from_march < 10 {
        month_from_march + 3
    } else {
        month_from_march - 9
    } as u32;
    let year = year_of_era + era * 400 + i64::from(month <= 2);
    (year, month, day)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dates_of_days() {
        assert_eq!(date_of_day(0), (1970, 1, 1));
        assert_eq!(date_of_day(59), (1970, 3, 1));
        assert_eq!(date_of_day(11_016), (2000, 2, 29));
        assert_eq!(date_of_day(11_017), (2000, 3, 1));
        assert_eq!(date_of_day(19_722), (2023, 12, 31));
        assert_eq!(date_of_day(-1), (1969, 12, 31));
    }

    #[test]
    fn comments() {
        let note = MoveNote {
            score: Some(Score::Cp(31)),
            depth: Some(2),
            wall_ms: 42.4,
            cpu_ms: 40.0,
            by_engine: true,
        };
        assert_eq!(note_text(&note).unwrap(), "+0.31/2 0.042s");
        let mate = MoveNote {
            score: Some(Score::Mate(-3)),
            ..note
        };
        assert_eq!(note_text(&mate).unwrap(), "-M3/2 0.042s");
        let bare = MoveNote {
            score: None,
            depth: None,
            ..note
        };
        assert_eq!(note_text(&bare).unwrap(), "0.042s");
        let silent = MoveNote {
            by_engine: false,
            ..bare
        };
        assert_eq!(note_text(&silent), None);
        assert_eq!(score_text(Score::Cp(-5)), "-0.05");
        assert_eq!(score_text(Score::Cp(0)), "+0.00");
    }
}
