//! `regex-chess play`: the interactive game. A thin loop: the `board` rules draw the first
//! board from a FEN, then each typed line is appended to the board text and the `play`
//! rules answer with the next board. Nothing here looks at the chess: the loop only stops
//! when the text ends with the rules' `Game over.` line, when the player types `quit` or
//! `exit`, or when standard input ends. The player sees the board text without its
//! `History:` line (the rules' list of positions for repetition, which stays in the
//! text the rules read); a typed line that is not UTF-8 gets a message and the same
//! board again. `--search NAME` picks the search variant whose `play` program answers
//! ([`regex_chess_engine::variants`]); the default is [`variants::default_play`].

use std::io::{BufRead, Write};

use clap::Args;

use super::engine_args::EngineArgs;
use super::{CliError, fail};
use regex_chess_chess::notation::fen::Fen;
use regex_chess_chess::pretty::GAME_OVER;
use regex_chess_engine::runner;
use regex_chess_engine::{Output, Search};

/// The line above the first prompt (the rules' first message says how to type moves).
pub const INTRO: &str = "(help shows how to type moves again; quit leaves the game)";

/// The message for a typed line that is not UTF-8 text.
pub const NOT_UTF8: &str = "That line is not UTF-8 text: type a move such as e4 or e2e4.";

/// The board text as the player sees it: without the `History:` line, and on the first
/// screen with [`INTRO`] above the prompt.
pub fn shown(text: &str, first: bool) -> String {
    let mut out: String = text
        .split_inclusive('\n')
        .filter(|line| !line.starts_with("History: "))
        .collect();
    if first && let Some(prompt) = out.rfind('\n') {
        out.insert_str(prompt + 1, &format!("{INTRO}\n"));
    }
    out
}

/// The longest typed line handed to the rules as it is: longer than any way of writing a
/// move (`e7e8=Q+`, `O-O-O#`), short enough for the rules' message that echoes it.
pub const MAX_TYPED: usize = 24;

/// The typed line the rules read: trimmed, and clipped to [`MAX_TYPED`] characters with
/// `...` after them when longer (such a line is no move, and the rules say so; clipping
/// keeps their message that echoes it to one short line).
pub fn clip_typed(line: &str) -> String {
    let line = line.trim();
    match line.char_indices().nth(MAX_TYPED) {
        None => line.to_string(),
        Some((end, _)) => format!("{}...", &line[..end]),
    }
}

/// The standard starting position.
const START: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

/// Arguments of `play`.
#[derive(Args, Debug)]
pub struct PlayArgs {
    /// The side the engine plays.
    #[arg(long, default_value = "black", value_parser = ["white", "black"])]
    engine_color: String,
    /// The starting position, as a FEN (default: the standard start).
    #[arg(long, allow_hyphen_values = true)]
    fen: Option<String>,
    /// The executor, its cores and the search; without `--search`, the strongest variant
    /// within the time budget.
    #[command(flatten)]
    engine: EngineArgs,
}

/// Runs `play`.
pub fn run(args: PlayArgs) -> Result<(), CliError> {
    let search = args.engine.search_or(Search::default_play());
    let fen_text = args.fen.as_deref().unwrap_or(START);
    let fen: Fen = fen_text.parse()?;
    // The `board` program is needed once: it is dropped before `play` is loaded, so the
    // two programs' compiled patterns are never held at the same time.
    let choice = args.engine.choice();
    let board = runner::prepare("board", choice)?;
    super::warn(&board.warnings);
    let board = board.exec;
    let mut text = board.run(&format!("engine: {}\n{fen}\n", args.engine_color));
    drop(board);
    if !text.starts_with("8 ") {
        return fail(format!("the rules could not read the FEN {fen_text:?}"));
    }
    let play = runner::prepare(search.program(Output::Play), choice)?;
    super::warn(&play.warnings);
    let play = play.exec;
    let stdin = std::io::stdin();
    let mut input = stdin.lock();
    let mut stdout = std::io::stdout();
    let mut first = true;
    loop {
        stdout.write_all(shown(&text, first).as_bytes())?;
        first = false;
        stdout.flush()?;
        if text.ends_with(&format!("{GAME_OVER}\n")) {
            return Ok(());
        }
        let mut bytes = Vec::new();
        if input.read_until(b'\n', &mut bytes)? == 0 {
            writeln!(stdout)?;
            return Ok(());
        }
        writeln!(stdout)?;
        let Ok(line) = String::from_utf8(bytes) else {
            writeln!(stdout, "{NOT_UTF8}")?;
            continue;
        };
        let line = clip_typed(&line);
        if matches!(line.as_str(), "quit" | "exit") {
            return Ok(());
        }
        text = play.run(&format!("{text}{line}\n"));
        if !text.starts_with("8 ") {
            return fail("engine bug: the play rules did not draw a board");
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_typed_line_is_trimmed_and_long_ones_are_clipped() {
        assert_eq!(clip_typed("  e2e4 \r"), "e2e4");
        assert_eq!(clip_typed("O-O-O#"), "O-O-O#");
        let long = "z".repeat(3000);
        assert_eq!(clip_typed(&long), format!("{}...", "z".repeat(MAX_TYPED)));
        let wide = "\u{e9}".repeat(40);
        assert_eq!(clip_typed(&wide).chars().count(), MAX_TYPED + 3);
    }
}
