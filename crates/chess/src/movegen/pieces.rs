//! Step 1 of the generation: one thread per piece of the side to move, its origin
//! square named (with the UCI text) through a binary search over a table of files and
//! ranks, and the windows of files and ranks centred on it (see the module doc of
//! [`super`]).

use super::*;
use crate::board::ORIGIN_MARKS;
use crate::fragments::{HEAD, LINE, LINES, any, any_range, delete_if_board};
use regex_chess_compiler::ir::Var;

/// Step 1: one thread per piece of `side` (two for a queen), its square holding the
/// role's origin digit, paused under its [`Family`]'s tag. With `uci`, the UCI variable
/// `u` gets a line right after the board, holding the origin square.
pub(super) fn split_by_piece(side: Side, uci: Option<&Var>) -> Rules {
    let ours = side.ours();
    let mut rules = vec![(format!("({HEAD}{LINES}#b: )"), "${1}^".to_string())];
    // Four pieces a rule while four remain, then two, then one: 16 pieces at most in six
    // rules, each visiting the threads that still hold a cursor.
    for n in [4, 4, 4, 4, 2, 1] {
        rules.push(peel(ours, n));
    }
    rules.push(delete_if_board("\\^"));
    if let Some(u) = uci {
        rules.push((
            format!("(%{PICKED_TAG}[A-Za-z]\n#stack:\n{LINES}#b: {LINE}\n)"),
            format!("${{1}}#{}: {SQUARE_TABLE}\n", u.name()),
        ));
    }
    for (role, mark) in ORIGIN_MARKS.iter().enumerate() {
        let letter = side.letter(role);
        let threads: String = Family::of_role(role)
            .iter()
            .map(|f| format!("{}${{1}}#_p: {letter}\n${{2}}{mark}${{3}}", f.head()))
            .collect();
        rules.push((
            format!("%{PICKED_TAG}{letter}\n#stack:\n({LINES})(#b: {LINE})@([^%]*)"),
            threads,
        ));
    }
    // Pawns one step from promotion get the guard line of the promotion rules.
    let last = match side {
        Side::White => any_range(10, 17),
        Side::Black => any_range(60, 67),
    };
    rules.push((
        format!(
            "({}{LINES})(#_p: {}\n#b: {last}1)",
            Family::Pawn.head(),
            side.letter(0)
        ),
        format!("${{1}}{PROMOTING}: \n${{2}}"),
    ));
    if let Some(u) = uci {
        // The move's origin square, once per piece rather than once per move.
        rules.extend(origin_rules(u.name()));
    }
    rules
}

/// The rule that picks the next `n` pieces of ours after the cursor of every thread
/// holding `n` or more: a copy of the thread for each, in board order, with the piece
/// marked `@` and the copy paused under `%mq` and the piece's letter (so that the next
/// peels visit only the threads still holding a cursor and each role rule only the
/// threads of its piece), then the thread with its cursor past the last of them.
///
/// Trade-off: a thread of 16 pieces is matched (walked and written again) 4 times
/// instead of 16, for patterns `n` times longer and a rule that a thread with fewer than
/// `n` pieces left walks to its board's end for nothing.
fn peel(ours: &str, n: usize) -> (String, String) {
    // Groups: 1 the lines up to the board, 2 the board up to the cursor, then each
    // piece's lead and letter (3 and 4 for the first), then the rest of the thread.
    let piece = |i: usize| (3 + 2 * i, 4 + 2 * i);
    let rest = 3 + 2 * n;
    let mut pattern = format!("{HEAD}({LINES}#b: )([^\n^]*)\\^");
    for _ in 0..n {
        pattern.push_str(&format!("([^\n{ours}]*)([{ours}])"));
    }
    pattern.push_str("([^\n]*\n[^%]*)");
    // The board from the cursor on, the pieces before `marked` kept, `marked` as `@`,
    // and the cursor after the last piece when `marked` is none.
    let board = |marked: Option<usize>| -> String {
        let mut text = String::new();
        for i in 0..n {
            let (lead, letter) = piece(i);
            text.push_str(&format!("${{{lead}}}"));
            match marked == Some(i) {
                true => text.push('@'),
                false => text.push_str(&format!("${{{letter}}}")),
            }
        }
        if marked.is_none() {
            text.push('^');
        }
        format!("${{1}}${{2}}{text}${{{rest}}}")
    };
    let mut template = String::new();
    for i in 0..n {
        let letter = piece(i).1;
        template.push_str(&format!(
            "%{PICKED_TAG}${{{letter}}}\n#stack:\n{}",
            board(Some(i))
        ));
    }
    template.push_str(&format!("{HEAD}{}", board(None)));
    (pattern, template)
}

/// The square table a UCI line holds while the origin square is being named: the files
/// padded with [`WINDOW_CENTRE`] `x` on either side, then the ranks from the board's top
/// row down (row `r` of the board is rank `8 - r`) padded with `0` the same way.
pub(super) const SQUARE_TABLE: &str = "xxxxxxxabcdefghxxxxxxx0000000876543210000000";

/// The class of a file table's characters in [`SQUARE_TABLE`].
pub(super) const FILE_CLASS: &str = "[a-hx]";

/// The class of a rank table's characters in [`SQUARE_TABLE`].
pub(super) const RANK_CLASS: &str = "[0-8]";

/// The length of a window: the files (or ranks) from 7 before a square's to 7 after it.
pub(super) const WINDOW: usize = 15;

/// Where a window holds its square's own file (or rank).
pub(super) const WINDOW_CENTRE: usize = 7;

/// 6 rules narrowing [`SQUARE_TABLE`] in the UCI variable `u` (the line right after the
/// board, holding `prefix`, a pattern, then the table) by the square of the board that
/// holds a character of class `marks` (one per board): three rules drop the first 4, 2
/// or 1 characters of the files' table (the square's file at least 4, its file mod 4 at
/// least 2, its file odd), three those of the ranks' table by the board row the same
/// way. The first [`WINDOW`] characters of each table are then the square's windows.
/// `board` is the pattern up to the board's first square.
///
/// A binary search rather than one rule per file and per rank: 7 rules (with the one
/// that keeps the square) instead of 16 over every thread, at the price of the table's
/// bytes per thread while they run.
pub(super) fn halving_rules(board: &str, u: &str, marks: &str, prefix: &str) -> Rules {
    let drop = |square: String, class: &str, skipped: &str, n: usize| {
        (
            format!("({board}{square}{marks}{LINE}\n#{u}: {prefix}{skipped}){class}{{{n}}}"),
            "${1}".to_string(),
        )
    };
    let row = format!("(?:{})*", any(10));
    let files = format!("{FILE_CLASS}*");
    vec![
        // Files: at least 4, then 2 or 3 mod 4, then odd (a row is 10 characters).
        drop(format!("{row}{}", any_range(4, 7)), FILE_CLASS, "", 4),
        drop(
            format!("{row}(?:{})?{}", any(4), any_range(2, 3)),
            FILE_CLASS,
            "",
            2,
        ),
        drop(format!("(?:{})*{}", any(2), any(1)), FILE_CLASS, "", 1),
        // Rows (ranks 8 down to 1): at least 4, then 2 or 3 mod 4, then odd.
        drop(any_range(40, 77), RANK_CLASS, &files, 4),
        drop(
            format!("(?:{})?{}", any(40), any_range(20, 37)),
            RANK_CLASS,
            &files,
            2,
        ),
        drop(
            format!("(?:{})*{}", any(20), any_range(10, 17)),
            RANK_CLASS,
            &files,
            1,
        ),
    ]
}

/// 4 rules narrowing [`SQUARE_TABLE`] in the UCI variable `u` as [`halving_rules`]
/// does: its three file rules, then one rule for the rank, an alternation with one
/// branch per board row but the first that drops that many characters of the ranks'
/// table (the branch's group holds everything before them; the other branches' groups
/// are empty). The rows are ranges of offsets, so the alternation costs about one
/// halving rule (the files, whose offsets are not ranges, stay halved: their
/// alternation is slower).
pub(super) fn naming_rules(board: &str, u: &str, marks: &str, prefix: &str) -> Rules {
    let mut rules = halving_rules(board, u, marks, prefix);
    rules.truncate(3);
    let ranks: Vec<String> = (1..8usize)
        .map(|r| {
            format!(
                "({}{marks}{LINE}\n#{u}: {prefix}{FILE_CLASS}*){RANK_CLASS}{{{r}}}",
                any_range(10 * r, 10 * r + 7)
            )
        })
        .collect();
    let groups: String = (2..=8).map(|g| format!("${{{g}}}")).collect();
    rules.push((
        format!("({board})(?:{})", ranks.join("|")),
        format!("${{1}}{groups}"),
    ));
    rules
}

/// The start of a one-piece thread's board: its piece's line (which only one-piece
/// threads have) and the board line's name. The origin rules start here rather than at
/// `#b: `, so that the fast executor visits only the one-piece threads, and skips the
/// rules of the colour that has none (every board of the state holds `#b: `).
pub(super) const PIECE_BOARD: &str = "#_p: [A-Za-z]\n#b: ";

/// The origin square of a one-piece thread (its origin digit) into the UCI variable
/// `u`, which then holds the square's name and its two windows: the [`WINDOW`] files
/// centred on the square's (padded with `x` past the board's edge), then the rows'
/// ranks the same way. A move rule then reads its target's file and rank at fixed
/// places of the windows, [`WINDOW_CENTRE`] plus its file and row offsets (see
/// [`fork_rule`]): the children are named without a rule of their own.
pub(super) fn origin_rules(u: &str) -> Rules {
    let mut rules = naming_rules(PIECE_BOARD, u, "[1-6]", "");
    let (c, w) = (WINDOW_CENTRE, WINDOW - 1 - WINDOW_CENTRE);
    rules.push((
        format!(
            "({PIECE_BOARD}{LINE}\n#{u}: )({FILE_CLASS}{{{c}}}([a-h]){FILE_CLASS}{{{w}}}){FILE_CLASS}*({RANK_CLASS}{{{c}}}([1-8]){RANK_CLASS}{{{w}}}){RANK_CLASS}*\n"
        ),
        "${1}${3}${5}${2}${4}\n".to_string(),
    ));
    rules
}
