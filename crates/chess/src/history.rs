//! The search programs' optional input lines after the FEN, in rules: the game's earlier
//! positions (`history` lines) and a root-move restriction (`searchmoves`).
//!
//! The contract is in `crates/chess/src/lib.rs` ("Rules input"). Here:
//!
//! - [`protect`] runs before [`super::fen_rules::parse_fen`]: it puts a `|` in front of
//!   each history board (so that the FEN parser's digit rules expand it as they expand the
//!   root's) and a `_` inside every square of the extra lines (so that they do not
//!   expand `b3`);
//! - [`parse`] runs after it: one rule per side, file and capturing pawn writes, after a
//!   history entry where a pawn of the side to move stands beside the pawn that moved
//!   two squares, the board after the en-passant capture; 10 rules (the attack patterns
//!   of [`super::movegen::king_attacked`]) delete the boards where the capturing side's
//!   king is attacked (an illegal capture); one turns an entry with a board left (a
//!   legal capture) into a placeholder (an empty board, equal to no position), one turns
//!   each other line into `;<64 squares><side><castling>`
//!   (consecutive lines join into one list), one moves the list (twice) and the
//!   `searchmoves` text into the root's variables `#hist`, `#heng` and `#sm`, and one
//!   keeps every other entry of each list (`#hist` the 1st, 3rd ..., `#heng` the 2nd, 4th
//!   ...);
//! - [`from_keys`] makes the same lists of the `play` programs' `History:` line (the
//!   keys of [`super::game_end::position_key`], oldest first, whose en-passant square is
//!   already there only when the capture is legal): 100 anchored rules reverse it, a few
//!   write each key as an entry and split the list;
//! - [`compare`] compares a position's key with each entry in turn ([`MAX_COMPARED`]
//!   steps of 3 or 4 rules: the two 64-square boards interleaved, then one pattern tests
//!   that every pair is equal, since a regex has no back-reference, and another that
//!   they differ by one piece moved);
//! - [`listed`] tests a move against the `searchmoves` text with one pattern listing
//!   every move text a position could have.
//!
//! The search ([`super::search`]) compares each child with `#hist` and keeps the
//! entries of `#heng` one reply away from it; only the leaves under a child that kept
//! some compare themselves with those (at most [`MAX_NEAR`] steps): the history itself
//! never reaches the ~1,000 leaves.

use super::fragments::HEAD;
use super::movegen::king_attacked;
use super::stack_rules::on_stack;
use regex_chess_compiler::dsl::{Builder, Value, kind};
use regex_chess_compiler::ir::Type;

/// The history entries each child is compared with: every other entry of at most 100
/// (the fifty-move rule's window).
pub const MAX_COMPARED: usize = 50;

/// The characters of an entry in `#hist` or `#heng`: squares, side, castling rights.
const ENTRY_CHAR: &str = "[.pnbrqkPNBRQKw-]";

/// The castling fields a FEN can hold.
fn castlings() -> Vec<String> {
    let mut all = vec!["-".to_string()];
    for mask in 1..16u8 {
        let text: String = "KQkq"
            .chars()
            .enumerate()
            .filter(|(i, _)| mask & (1 << i) != 0)
            .map(|(_, c)| c)
            .collect();
        all.push(text);
    }
    all
}

/// The two handles [`parse`] defines on the root thread.
pub struct Extras {
    /// `;<entry>` for the 1st, 3rd, 5th ... history entries, most recent first: the
    /// positions with the root's opponent to move, in a game (empty: none).
    pub history: Value<kind::Str>,
    /// The same for the 2nd, 4th ... entries: the positions with the root's side to move.
    pub engine_side: Value<kind::Str>,
    /// The `searchmoves` line's moves, separated by spaces (empty: no restriction).
    pub searchmoves: Value<kind::Str>,
}

/// Rules before `parse_fen`: see the module documentation.
#[track_caller]
pub fn protect(b: &mut Builder) {
    b.rules(
        "protect_extras",
        vec![
            (
                "history ([1-8pnbrqkPNBRQK/]+) ([wb]) (-|[KQkq]+) (-|[a-h])([1-8]?)\n".to_string(),
                "history |${1} ${2} ${3} ${4}_${5}\n".to_string(),
            ),
            (
                " ([a-h])([1-8])([a-h])([1-8])".to_string(),
                " ${1}_${2}${3}_${4}".to_string(),
            ),
        ],
        &[],
        &[],
    );
}

/// The history boards' row holding the pawn that has just moved two squares and the
/// capturing pawn (0 = rank 8), the row the capture lands on, by side to move.
const EP_ROWS: [(char, usize, usize, char); 2] = [('w', 3, 2, 'P'), ('b', 4, 5, 'p')];

/// The first characters of a line holding a history board after a possible en-passant
/// capture (then the side to move and `:`): no piece letter, so that the attack patterns
/// read the board alone.
const CAPTURED: &str = "!";

/// The rules that find which history entries have a legal en-passant capture: for each
/// pawn of the side to move beside the pawn that moved two squares, a line after the
/// entry's holding the board after the capture (as [`super::board`] writes boards); the
/// lines whose king is attacked go; an entry with a line left becomes the placeholder
/// (an empty board, equal to no position).
fn en_passant_rules() -> Vec<(String, String)> {
    let mut rules = Vec::new();
    for (side, row, to_row, pawn) in EP_ROWS {
        for file in 0..8usize {
            for by in [file.wrapping_sub(1), file + 1] {
                if by > 7 {
                    continue;
                }
                let mut board = String::new();
                let mut after = String::new();
                for r in 0..8 {
                    for f in 0..8 {
                        let square = if (r, f) == (row, by) {
                            format!("({pawn})")
                        } else {
                            "([^/\n])".to_string()
                        };
                        board.push_str(&square);
                        // The capturing pawn leaves, the captured one goes, the
                        // capturing one arrives behind it.
                        let now = if (r, f) == (row, by) || (r, f) == (row, file) {
                            ".".to_string()
                        } else if (r, f) == (to_row, file) {
                            pawn.to_string()
                        } else {
                            format!("${{{}}}", 2 + r * 8 + f)
                        };
                        after.push_str(&now);
                    }
                    if r < 7 {
                        board.push('/');
                    }
                    after.push_str("//");
                }
                let letter = (b'a' + file as u8) as char;
                rules.push((
                    format!("(history \\|{board} {side} [^ \n]+ {letter}[36]\n)"),
                    format!("${{1}}{CAPTURED}{side}:{after}\n"),
                ));
            }
        }
    }
    for (side, white) in [('w', true), ('b', false)] {
        for family in king_attacked(white) {
            rules.push((
                format!("{CAPTURED}{side}:[^\n]*?(?:{family})[^\n]*\n"),
                String::new(),
            ));
        }
    }
    rules.push((
        format!("history \\|[^\n]* ([wb]) [^ \n]+ [a-h][36]\n(?:{CAPTURED}[wb]:[^\n]*\n)+"),
        format!(";{}${{1}}-", ".".repeat(64)),
    ));
    rules
}

/// Rules after `parse_fen` (on the single root thread): see the module documentation.
#[track_caller]
pub fn parse(b: &mut Builder) -> Extras {
    let history: Value<kind::Str> = b.named("hist", Type::Str);
    let engine_side: Value<kind::Str> = b.named("heng", Type::Str);
    let searchmoves: Value<kind::Str> = b.named("sm", Type::Str);
    let mut rules = vec![("([a-h])_([1-8])".to_string(), "${1}${2}".to_string())];
    // An entry whose en-passant capture is legal is never a child's position.
    rules.extend(en_passant_rules());
    let ranks = ["([^/\n]{8})"; 8].join("/");
    let board: String = (1..=8).map(|g| format!("${{{g}}}")).collect();
    rules.push((
        format!("history \\|{ranks} ([wb]) ([^ \n]+) [^ \n]+\n"),
        format!(";{board}${{9}}${{10}}"),
    ));
    rules.push((
        format!("(#n: [^\n]*\n)((?:;{ENTRY_CHAR}+)*)(?:searchmoves ([^\n]*)\n)?"),
        "${1}#hist: ${2}\n#heng: ;-${2}\n#sm: ${3}\n".to_string(),
    ));
    // The root thread is the only one: these rules see no other `;`. Pairs of entries
    // keep their first: `#hist` keeps the 1st, 3rd, ... entries, `#heng` (behind its
    // placeholder `;-`) the 2nd, 4th, ...
    rules.push((
        format!("(;{ENTRY_CHAR}+);{ENTRY_CHAR}+"),
        "${1}".to_string(),
    ));
    rules.push(("#heng: ;-".to_string(), "#heng: ".to_string()));
    b.rules(
        "parse_extras",
        rules,
        &[],
        &[history.var(), engine_side.var(), searchmoves.var()],
    );
    Extras {
        history,
        engine_side,
        searchmoves,
    }
}

/// The earlier positions [`from_keys`] keeps: every compared and every engine-side entry.
const MAX_KEPT: usize = 2 * MAX_COMPARED;

/// The rules input of a game kept as position keys (the `play` programs' `History:`
/// list, see [`super::pretty`]): `keys` is `;<key>` per position, oldest first, the
/// position searched last ([`super::game_end::position_key`]: 64 squares, side, castling
/// padded to 4 with `-`, the en-passant square or `--` when no en-passant capture is
/// legal). Returns the [`Extras`] the `move` program's [`parse`] makes of the same game:
/// the keys before the last, most recent first (at most `MAX_KEPT`), each written
/// `;<64 squares><side><castling>`, one whose en-passant capture is legal as the
/// placeholder that equals no position; the 1st, 3rd ... in `history`, the 2nd, 4th ...
/// in `engine_side`; no `searchmoves`.
///
/// `keys` must be on a single thread whose other values hold no `~` (the rules mark
/// the entries they convert with it: the board text around the thread holds none).
#[track_caller]
pub fn from_keys(b: &mut Builder, keys: &Value<kind::Str>) -> Extras {
    let square = "[.PNBRQKpnbrqk]";
    // The stack line: the entries done (reversed, each `~<key>`), `|`, the entries left.
    let mut rules = vec![(
        format!(
            "({HEAD})(?:;[^;\n]*)*?((?:;[^;\n]*){{1,{}}})\n",
            MAX_KEPT + 1
        ),
        "${1}|${2}\n".to_string(),
    )];
    // The oldest entry left moves to the front of the done ones, the last one stays.
    for _ in 0..MAX_KEPT {
        rules.push((
            format!("({HEAD})([^\n|]*)\\|;([^;\n|]*)(;[^\n]*)\n"),
            "${1}~${3}${2}|${4}\n".to_string(),
        ));
    }
    rules.push((
        format!("({HEAD})([^\n|]*)\\|[^\n]*\n"),
        "${1}${2}\n".to_string(),
    ));
    // Not a list of keys: no entries.
    rules.push((format!("({HEAD})[^~\n][^\n]*\n"), "${1}\n".to_string()));
    // The entries as `parse` writes them (these rules see no other `~`).
    rules.push((
        format!("~({square}{{64}})([wb])[KQkq-]{{4}}[a-h][36]"),
        format!("~{}${{2}}-", ".".repeat(64)),
    ));
    rules.push((
        format!("~({square}{{64}})([wb])------"),
        "~${1}${2}-".to_string(),
    ));
    rules.push((
        format!("~({square}{{64}})([wb])([KQkq]{{1,4}})-{{0,3}}--"),
        "~${1}${2}${3}".to_string(),
    ));
    // Both lists on one line, `|` between: pairs keep their first, the second list
    // behind a placeholder `~-`.
    rules.push((
        format!("({HEAD})([^\n]*)\n"),
        "${1}${2}|~-${2}\n".to_string(),
    ));
    rules.push((
        format!("(~{ENTRY_CHAR}+)~{ENTRY_CHAR}+"),
        "${1}".to_string(),
    ));
    rules.push(("\\|~-".to_string(), "|".to_string()));
    rules.push((format!("~({square}{{64}}[wb])"), ";${1}".to_string()));
    let both: Value<kind::Str> = on_stack(b, "history_keys", &[keys.var()], rules, Type::Str);
    let history = on_stack(
        b,
        "history_compared",
        &[both.var()],
        vec![(
            format!("({HEAD})([^\n|]*)\\|[^\n]*\n"),
            "${1}${2}\n".to_string(),
        )],
        Type::Str,
    );
    let engine_side = on_stack(
        b,
        "history_engine_side",
        &[both.var()],
        vec![(
            format!("({HEAD})[^\n|]*\\|([^\n]*)\n"),
            "${1}${2}\n".to_string(),
        )],
        Type::Str,
    );
    Extras {
        history,
        engine_side,
        searchmoves: b.str(""),
    }
}

/// What [`compare`] looks for besides an equal entry.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Near {
    /// Nothing else.
    No,
    /// Entries one reply away from `key`: the other side to move, the same castling
    /// rights, and boards equal but on two squares, where one piece stands on one square
    /// in `key` and on the other in the entry (a reply that moves it without capturing).
    OneReply,
}

/// The most entries one reply away that [`compare`] keeps.
pub const MAX_NEAR: usize = 4;

/// Compares the position `key` (its 64 squares, side and castling rights, as the
/// entries) with each of the first `steps` entries of `entries`: `R` when one is equal;
/// otherwise, with [`Near::OneReply`], the first [`MAX_NEAR`] entries one reply away
/// (`;<entry>` each; empty when none).
#[track_caller]
pub fn compare(
    b: &mut Builder,
    entries: &Value<kind::Str>,
    key: &Value<kind::Str>,
    steps: usize,
    near: Near,
) -> Value<kind::Str> {
    // The stack: key, the entries found one reply away, the entries left.
    let square = "([.pnbrqkPNBRQK])";
    let step_pattern = format!(
        "({HEAD}){}([^\n]*)\n([^\n]*)\n;{}({ENTRY_CHAR}*)",
        square.repeat(64),
        square.repeat(64)
    );
    let key_text: String = (2..66).map(|g| format!("${{{g}}}")).collect();
    let entry_text: String = (68..132).map(|g| format!("${{{g}}}")).collect();
    let pairs: String = (0..64)
        .map(|i| format!("${{{}}}${{{}}}", i + 2, i + 68))
        .collect();
    let step_replacement = format!(
        "${{1}}{key_text}${{66}}\n${{67}}\n!{pairs}|${{66}}|${{132}}\n;{entry_text}${{132}}\n"
    );
    let pieces = "PNBRQKpnbrqk";
    let same = format!(
        "(?:\\.\\.|{})",
        pieces
            .chars()
            .map(|c| format!("{c}{c}"))
            .collect::<Vec<_>>()
            .join("|")
    );
    let tails = |other_side: bool| -> String {
        ["w", "b"]
            .iter()
            .flat_map(|s| {
                let t = match (other_side, *s) {
                    (false, s) => s,
                    (true, "w") => "b",
                    (true, _) => "w",
                };
                castlings()
                    .into_iter()
                    .map(move |c| format!("{s}{c}\\|{t}{c}"))
            })
            .collect::<Vec<_>>()
            .join("|")
    };
    let moved: Vec<String> = pieces
        .chars()
        .map(|c| format!("{c}\\.{same}*\\.{c}|\\.{c}{same}*{c}\\."))
        .collect();
    let mut rules = vec![(format!("({HEAD}[^\n]*\n)"), "${1}\n".to_string())];
    for _ in 0..steps {
        rules.push((step_pattern.clone(), step_replacement.clone()));
        rules.push((
            format!(
                "({HEAD}[^\n]*\n)[^\n]*\n!{same}{{64}}\\|(?:{})\n[^\n]*\n[^\n]*\n",
                tails(false)
            ),
            "${1}R\n\n".to_string(),
        ));
        if near == Near::OneReply {
            rules.push((
                format!(
                    "({HEAD}[^\n]*\n)((?:;{ENTRY_CHAR}+){{0,{}}})\n!{same}*(?:{}){same}*\\|(?:{})\n([^\n]*)\n",
                    MAX_NEAR - 1,
                    moved.join("|"),
                    tails(true)
                ),
                "${1}${2}${3}\n".to_string(),
            ));
        }
        rules.push((
            format!("({HEAD}[^\n]*\n[^\n]*\n)![^\n]*\n[^\n]*\n"),
            "${1}".to_string(),
        ));
    }
    rules.push((
        format!("({HEAD})[^\n]*\n([^\n]*)\n[^\n]*\n"),
        "${1}${2}\n".to_string(),
    ));
    on_stack(b, "history", &[entries.var(), key.var()], rules, Type::Str)
}

/// Every UCI text a move could have, by origin square: the queen's lines and the
/// knight's jumps, and the four promotions of a pawn's step to the last rank.
fn move_texts() -> Vec<(String, Vec<String>)> {
    let name = |f: i32, r: i32| format!("{}{}", (b'a' + f as u8) as char, r + 1);
    let mut all = Vec::new();
    for f in 0..8 {
        for r in 0..8 {
            let mut targets = Vec::new();
            for tf in 0..8 {
                for tr in 0..8 {
                    let (df, dr): (i32, i32) = (tf - f, tr - r);
                    let line = (df == 0 || dr == 0 || df.abs() == dr.abs()) && (df, dr) != (0, 0);
                    let jump = df.abs() * dr.abs() == 2;
                    if line || jump {
                        targets.push(name(tf, tr));
                    }
                    let promotes = df.abs() <= 1 && ((r == 6 && tr == 7) || (r == 1 && tr == 0));
                    if promotes {
                        for p in ["q", "r", "b", "n"] {
                            targets.push(format!("{}{p}", name(tf, tr)));
                        }
                    }
                }
            }
            all.push((name(f, r), targets));
        }
    }
    all
}

/// Whether `uci` (a legal move's text) is one of the moves of `searchmoves`, or
/// `searchmoves` is empty.
#[track_caller]
pub fn listed(
    b: &mut Builder,
    searchmoves: &Value<kind::Str>,
    uci: &Value<kind::Str>,
) -> Value<kind::Bool> {
    // The stack: uci, searchmoves.
    let mut branches = Vec::new();
    for (from, targets) in move_texts() {
        let inner: Vec<String> = targets
            .iter()
            .map(|to| format!("{to}\n(?:[^\n]* )?{from}{to}"))
            .collect();
        branches.push(format!("{from}(?:{})", inner.join("|")));
    }
    let rules = vec![
        (format!("({HEAD})[^\n]*\n\n"), "${1}!T\n".to_string()),
        (
            format!("({HEAD})(?:{})(?: [^\n]*)?\n", branches.join("|")),
            "${1}!T\n".to_string(),
        ),
        (
            format!("({HEAD})[a-h][^\n]*\n[^\n]*\n"),
            "${1}F\n".to_string(),
        ),
        (format!("({HEAD})!T\n"), "${1}T\n".to_string()),
    ];
    on_stack(
        b,
        "listed",
        &[searchmoves.var(), uci.var()],
        rules,
        Type::Bool,
    )
}
