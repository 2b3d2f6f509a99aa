//! A game against the engine in a terminal, over any reader and writer: the board drawn
//! with face-down squares, both colours and the pool of unrevealed pieces; moves typed as
//! squares (`c2c2` flips c2, `c2c3` moves); flips revealed from a shuffled deal that this
//! loop owns (the engine is told only what each flip showed); the end and its reason.
//! A line that is not a legal move is answered with what is wrong and the prompt comes
//! back, the game unchanged; `moves` lists the legal moves, `quit` (or the end of input)
//! stops.

use std::io::{self, BufRead, Write};

use crate::deal::Deal;
use crate::game::{DrawRules, Game};
use crate::moves::Move;
use crate::piece::{Colour, Piece};
use crate::player::Player;
use crate::position::{Cell, Position};
use crate::search::Limits;
use crate::square::Square;

/// How the game is set up.
#[derive(Clone, Copy, Debug)]
pub struct PlayOptions {
    /// The deal's seed.
    pub seed: u64,
    /// Whether the human moves first.
    pub human_first: bool,
    /// The engine's limits a move.
    pub limits: Limits,
    /// The draw rule.
    pub rules: DrawRules,
}

/// Draws the board: rank 3 at the top, `?` face-down, `.` empty, upper case red, lower
/// case black; then the side to move and the pool.
pub fn board(position: &Position) -> String {
    let mut text = String::new();
    for rank in (0..4).rev() {
        text.push_str(&format!("{rank} "));
        for file in 0..8 {
            let square = Square::new(file, rank).unwrap_or_else(|| unreachable!());
            let c = match position.cell(square) {
                Cell::Empty => '.',
                Cell::FaceDown => '?',
                Cell::Revealed(piece) => piece.letter(),
            };
            text.push(' ');
            text.push(c);
        }
        text.push('\n');
    }
    text.push_str("   a b c d e f g h   (? face-down, upper case red, lower case black)\n");
    let pool = |colour: Colour| {
        let parts: Vec<String> = position
            .pool()
            .outcomes()
            .filter(|(p, _)| p.colour == colour)
            .map(|(p, n)| format!("{}{n}", p.letter()))
            .collect();
        if parts.is_empty() {
            "none".into()
        } else {
            parts.join(" ")
        }
    };
    text.push_str(&format!(
        "face-down: red {}; black {}\nno-progress clock {}\n",
        pool(Colour::Red),
        pool(Colour::Black),
        position.clock()
    ));
    text
}

fn describe(mv: Move, revealed: Option<Piece>, before: &Position) -> String {
    match (revealed, before.piece_at(mv.to())) {
        (Some(p), _) => format!("flips {}: {} {} ({p})", mv.from(), p.colour, p.kind.name()),
        (None, Some(victim)) if !mv.is_flip() => {
            format!("{mv}: takes the {} {}", victim.colour, victim.kind.name())
        }
        _ => format!("{mv}"),
    }
}

/// Plays one game, the human reading from `input`, the engine as `engine`.
pub fn play(
    input: impl BufRead,
    out: &mut impl Write,
    engine: &mut dyn Player,
    options: PlayOptions,
) -> io::Result<()> {
    let deal = Deal::shuffled(options.seed);
    let mut game = Game::new(options.rules);
    engine.new_game();
    let mut lines = input.lines();
    let human_seat = if options.human_first { 0 } else { 1 };
    writeln!(
        out,
        "Banqi. You move {}. Type a move as two squares (c2c3), a flip as one square twice (c2c2); `moves` lists them, `quit` stops.",
        if options.human_first {
            "first"
        } else {
            "second"
        }
    )?;
    while game.outcome().is_none() {
        let seat = game.moves().len() % 2;
        let position = *game.position();
        if seat == human_seat {
            write!(out, "\n{}", board(&position))?;
            if let Some(colour) = position.turn() {
                writeln!(out, "You are {colour}.")?;
            }
            write!(out, "your move> ")?;
            out.flush()?;
            let line = match lines.next() {
                None => {
                    writeln!(out, "\nend of input: the game is left unfinished")?;
                    return Ok(());
                }
                Some(Err(e)) if e.kind() == io::ErrorKind::InvalidData => {
                    writeln!(out, "that line is not text; try again")?;
                    continue;
                }
                Some(line) => line?,
            };
            let text = line.trim();
            match text {
                "quit" => {
                    writeln!(out, "you left the game")?;
                    return Ok(());
                }
                "moves" => {
                    let moves: Vec<String> =
                        game.legal_moves().iter().map(Move::to_string).collect();
                    writeln!(out, "legal moves: {}", moves.join(" "))?;
                    continue;
                }
                _ => {}
            }
            let mv = match text.parse::<Move>() {
                Ok(mv) => mv,
                Err(e) => {
                    writeln!(out, "{e}")?;
                    continue;
                }
            };
            let revealed = if mv.is_flip() {
                deal.under(mv.from())
            } else {
                None
            };
            match game.play(mv, revealed) {
                Ok(()) => writeln!(out, "you: {}", describe(mv, revealed, &position))?,
                Err(e) => writeln!(out, "{e}; try again (`moves` lists the legal moves)")?,
            }
        } else {
            let Some(mv) = engine.choose(&game, options.limits) else {
                writeln!(out, "the engine found no move")?;
                return Ok(());
            };
            let revealed = if mv.is_flip() {
                deal.under(mv.from())
            } else {
                None
            };
            if let Err(e) = game.play(mv, revealed) {
                writeln!(out, "the engine's move {mv} was refused: {e}")?;
                return Ok(());
            }
            writeln!(out, "engine: {}", describe(mv, revealed, &position))?;
        }
    }
    write!(out, "\n{}", board(game.position()))?;
    if let Some(outcome) = game.outcome() {
        let human_colour = game
            .first_colour()
            .map(|c| if human_seat == 0 { c } else { c.other() });
        let verdict = match outcome.winner() {
            None => "a draw",
            Some(w) if Some(w) == human_colour => "you win",
            Some(_) => "the engine wins",
        };
        writeln!(out, "game over: {outcome} ({verdict})")?;
    }
    Ok(())
}
