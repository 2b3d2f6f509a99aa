//! Reading the `play` program's board text in tests: its labelled lines, its message and
//! the position it shows.

/// The line after `label` in the text.
pub fn field<'a>(text: &'a str, label: &str) -> &'a str {
    text.lines()
        .find_map(|l| l.strip_prefix(label))
        .unwrap_or_else(|| panic!("no `{label}` line in\n{text}"))
}

/// The message line (the one before the prompt).
pub fn message(text: &str) -> &str {
    let lines: Vec<&str> = text.lines().collect();
    lines[lines.len() - 2]
}

/// The board's glyphs and the FEN letters they stand for, written here from the text the
/// player sees (not taken from the engine), `·` for an empty square.
const GLYPH_LETTERS: [(char, char); 13] = [
    ('♔', 'K'),
    ('♕', 'Q'),
    ('♖', 'R'),
    ('♗', 'B'),
    ('♘', 'N'),
    ('♙', 'P'),
    ('♚', 'k'),
    ('♛', 'q'),
    ('♜', 'r'),
    ('♝', 'b'),
    ('♞', 'n'),
    ('♟', 'p'),
    ('·', '.'),
];

/// The position the text shows, as a FEN (en passant as the rules keep it: after every
/// double push).
pub fn shown_fen(text: &str) -> String {
    let mut ranks = Vec::new();
    for line in text.lines().take(8) {
        let mut rank = String::new();
        let mut empty = 0;
        for cell in line.split(' ').skip(1) {
            let glyph = cell.chars().next().unwrap();
            let letter = GLYPH_LETTERS
                .iter()
                .find(|(g, _)| *g == glyph)
                .unwrap_or_else(|| panic!("unknown glyph {glyph:?} in\n{text}"))
                .1;
            if letter == '.' {
                empty += 1;
            } else {
                if empty > 0 {
                    rank.push_str(&empty.to_string());
                    empty = 0;
                }
                rank.push(letter);
            }
        }
        if empty > 0 {
            rank.push_str(&empty.to_string());
        }
        ranks.push(rank);
    }
    let side = if field(text, "Side to move: ") == "white" {
        "w"
    } else {
        "b"
    };
    format!(
        "{} {side} {} {} {} {}",
        ranks.join("/"),
        field(text, "Castling: "),
        field(text, "En passant: "),
        field(text, "Halfmove clock: "),
        field(text, "Move number: ")
    )
}
