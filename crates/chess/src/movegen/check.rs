//! Check and mobility in rules: whether the side to move is in check, and whether it has
//! a legal move. Both work on a scratch copy of the board and leave the position as it
//! was.
//!
//! [`in_check`] is 12 rules: a scratch copy of the board with a flag, `#_q: wF<board>`,
//! one rule per attack family and colour that turns the flag into `T`, and one rule that
//! moves the flag to the stack. [`has_legal_move`] first runs a quick test (72 rules, on
//! a scratch copy of the board) that settles every thread not in check with an unpinned
//! non-king piece able to step, jump, push or capture, and every other thread (in check,
//! or without such a piece) whose king can step to a square left unattacked; only the
//! others (a check answered only by a capture or a block, or everything pinned, blocked
//! or hemmed in: rare) pay a full generation
//! (`super::generate_both` without the children's bookkeeping). On the 2,039 leaves of
//! kiwipete's 2-ply tree the first stage took has_legal_move from about 2.6 s to about
//! 0.1 s on the fast executor; the king steps took the 12 leaves in check out of the
//! full generation (about 4 ms of a 33 ms move: some 120 rules that each scan the whole
//! state for a dozen threads).
//!
//! The pins and the sliders' checks need an enemy slider lined up with the king: one
//! rule per axis (4 per side) renames the scratch line of the threads where one is, with
//! at most one piece between, and the 8 pin rules and 4 slider check rules then visit
//! those lines alone (each starts with the new name, a literal the other lines lack):
//! on kiwipete's leaves 12 rules over every leaf became 4 (warm `play` move 571.6 ->
//! 553.6 M instructions).
//!
//! Trade-off: the mobility rule keeps nothing of what it matches (the board copy goes
//! once the answer is known), so the fast executor never resolves its groups; a check
//! rule keeps the board (one group) for the king steps, the pin rules rewrite it, and
//! the king steps add a line per step to the threads in check (a few, and only their
//! rules visit them: each starts with a literal that only those threads hold).

use super::{
    HAS_TAG, Rules, STUCK_TAG, Scope, Side, Texts, attack_families, enemy_slider_axes,
    generate_both, lined_up,
};
use crate::board::{DIAGONAL_STEPS, ORTHOGONAL_STEPS, Position};
use crate::fragments::{HEAD, LINE, LINES, any, ray_any};
use regex_chess_compiler::dsl::{Builder, Value, kind};
use regex_chess_compiler::ir::Type;

/// Whether the side to move has a legal move (the position is unchanged).
///
/// Two stages. A quick test settles almost every position in about 20 rules: when the
/// side to move is not in check and one of its pieces other than the king is not pinned
/// and has a step, jump, push or capture onto an empty or enemy square, that move is
/// legal; in check, a king step onto a square no enemy piece then attacks is. (Pins are
/// found on a scratch copy of the board, `#_q`: one rule per direction replaces the
/// piece between our king and an enemy slider by `@`, on the copies where a rule per axis
/// found an enemy slider lined up with the king.) Only the threads the quick test
/// cannot settle (in check without a king step, or every such piece pinned or blocked)
/// run a full move generation, without the children's bookkeeping.
#[track_caller]
pub fn has_legal_move(b: &mut Builder, pos: &Position) -> Value<kind::Bool> {
    let quick: Value<kind::Bool> =
        b.rules_value("has_move_quick", quick_rules(pos), &pos.vars(), Type::Bool);
    b.if_else(&quick, |b| b.bool(true), |b| has_legal_move_full(b, pos))
}

/// The rules of the quick test: push `T` where it proves a legal move, else `F`.
///
/// The work happens on one scratch line per active thread, `<name>: <flag><board>`
/// with the name [`quick_line`] of the side to move (right after `#t`, so that making it
/// does not copy the rest of the thread): only active threads of this instruction hold
/// it, so the pin, mobility and check rules need no thread anchor and match only the
/// 80-odd characters of that line.
fn quick_rules(pos: &Position) -> Rules {
    let t = pos.turn.var().name();
    let mut rules: Rules = [Side::White, Side::Black]
        .into_iter()
        .map(|side| {
            (
                format!(
                    "({HEAD}{LINES}#b: ({LINE})\n{LINES}#{t}: {}\n)",
                    side_letter(side)
                ),
                format!("${{1}}{}: F${{2}}\n", quick_line(side)),
            )
        })
        .collect();
    for side in [Side::White, Side::Black] {
        let ours = side.ours();
        let (king, pieces) = (side.letter(5), &ours[..5]);
        let line = quick_line(side);
        let lined = lined_up_line(side);
        let axes = enemy_slider_axes(side);
        // Lined up: an enemy slider on a line from our king with at most one piece of
        // ours between (else only empty squares): one rule per axis renames the line to
        // `lined`. Only those lines can hold a pin or a slider's check, so the pin rules
        // and the sliders' check rules below visit them alone.
        for axis in lined_up(side, king) {
            rules.push((
                format!("{line}: F({LINE}(?:{axis}))"),
                format!("{lined}: F${{1}}"),
            ));
        }
        // Pins: the piece between our king and an enemy slider becomes `@`.
        for (steps, sliders) in &axes {
            for step in steps {
                let ray = ray_any(step.unsigned_abs() as usize);
                let (before, after) = if *step > 0 {
                    (format!("{king}{ray}"), format!("{ray}{sliders}"))
                } else {
                    (format!("{sliders}{ray}"), format!("{ray}{king}"))
                };
                rules.push((
                    format!("{lined}: F({LINE}{before})[{pieces}]({after})"),
                    format!("{lined}: F${{1}}@${{2}}"),
                ));
            }
        }
        // An unpinned piece other than the king with a move onto an empty or enemy square.
        let l = |role: usize| side.letter(role);
        let (p, n, bishop, r, q) = (l(0), l(1), l(2), l(3), l(4));
        let target = side.target();
        let their = side.enemy();
        let mut frags = Vec::new();
        for d in [8usize, 12, 19, 21] {
            frags.push(format!("{n}{}{target}", any(d - 1)));
            frags.push(format!("{target}{}{n}", any(d - 1)));
        }
        for (d, movers) in [
            (1usize, format!("[{r}{q}]")),
            (10, format!("[{r}{q}]")),
            (9, format!("[{bishop}{q}]")),
            (11, format!("[{bishop}{q}]")),
        ] {
            frags.push(format!("{movers}{}{target}", any(d - 1)));
            frags.push(format!("{target}{}{movers}", any(d - 1)));
        }
        match side {
            Side::White => {
                frags.push(format!("\\.{}{p}", any(9)));
                frags.push(format!("{their}{}{p}", any(8)));
                frags.push(format!("{their}{}{p}", any(10)));
            }
            Side::Black => {
                frags.push(format!("{p}{}\\.", any(9)));
                frags.push(format!("{p}{}{their}", any(8)));
                frags.push(format!("{p}{}{their}", any(10)));
            }
        }
        // In check: the flag becomes `C`, so that the mobility rule cannot match, and
        // only a king move can settle the thread (below). (`@` blocks rays as the piece
        // did.)
        // The sliders' families (every family but the first) on the lined-up lines, which
        // then get their name back; the first family (knights, pawns, king) on all.
        let families = attack_families(&king.to_string(), side.other(), "\\.");
        for family in &families[1..] {
            rules.push((
                format!("{lined}: F({LINE}(?:{}){LINE})", family.join("|")),
                format!("{lined}: C${{1}}"),
            ));
        }
        rules.push((format!("{lined}: "), format!("{line}: ")));
        rules.push((
            format!("{line}: F({LINE}(?:{}){LINE})", families[0].join("|")),
            format!("{line}: C${{1}}"),
        ));
        rules.push((
            format!("{line}: F{LINE}(?:{})", frags.join("|")),
            format!("{line}: T"),
        ));
        // Not settled either way (no such piece, or in check): the king's steps decide.
        rules.push((format!("{line}: F"), format!("{line}: C")));
        rules.extend(escape_rules(side));
    }
    // A thread in check with a safe king step has a legal move; the others prove
    // nothing (the full generation decides them).
    rules.push((
        format!("#_q([XZ]): C{LINE}(\n{ESCAPE}: )"),
        "#_q${1}: T${2}".to_string(),
    ));
    rules.push((format!("{ESCAPE}: {LINE}\n"), String::new()));
    rules.push(("#_q([XZ]): C".to_string(), "#_q${1}: F".to_string()));
    rules.push((
        format!("({HEAD})({LINES})#_q[XZ]: ([TF])[^\n]*\n"),
        "${1}${3}\n${2}".to_string(),
    ));
    rules
}

/// The name of the quick test's scratch line for `side` to move: `#_qX` (white) or
/// `#_qZ` (black). The fast executor looks for a rule's leading literal with `memchr`'s
/// `memmem`, which scans for the two bytes of the literal it ranks rarest: in `#_q: wF`
/// those were `#` and `q`, so that every rule of the side not to move stopped at each
/// `#_q: b` line of the other side (all of them, at the leaves) to reject it. `X` and `Z`
/// rank rarer than `q`, and no state holds them otherwise: a rule of the side not to
/// move now finds no candidate at all.
fn quick_line(side: Side) -> &'static str {
    match side {
        Side::White => "#_qX",
        Side::Black => "#_qZ",
    }
}

/// The name the quick test's scratch line of `side` takes while an enemy slider lines up
/// with the king (see [`quick_rules`]): `#_qU` (white) or `#_qY` (black), bytes no
/// other line holds, so that the rules that need a slider lined up find candidates on
/// those lines only.
fn lined_up_line(side: Side) -> &'static str {
    match side {
        Side::White => "#_qU",
        Side::Black => "#_qY",
    }
}

/// The turn letter of `side`, as in `#t`.
fn side_letter(side: Side) -> char {
    match side {
        Side::White => 'w',
        Side::Black => 'b',
    }
}

/// The line holding a board of the quick test's king steps (after the `#_q` line).
const ESCAPE: &str = "#_ke";

/// For a thread of `side` flagged `C` (in check, or without another piece able to
/// move): one rule per king step onto an empty or enemy square adds a line [`ESCAPE`]
/// with the board after that step, then one rule per attack family deletes the lines
/// whose king is attacked. A line left is a legal king move: most checks at the leaves
/// are answered so, and most lone kings move so, without the full generation.
///
/// Every rule starts with a literal that only those threads hold (the flag, or the
/// lines), so the fast executor skips them all when there is none.
fn escape_rules(side: Side) -> Rules {
    let q = quick_line(side);
    let king = side.letter(5);
    let target = side.target();
    // The board holds one king: the part before it excludes it, so that the search
    // gives back at most a step from the king instead of trying every square.
    let before = format!("([^\n{king}]*)");
    let mut rules = Vec::new();
    for step in ORTHOGONAL_STEPS.into_iter().chain(DIAGONAL_STEPS) {
        let gap = any(step.unsigned_abs() as usize - 1);
        let (pattern, board) = if step > 0 {
            (
                format!("{before}{king}({gap}){target}({LINE})"),
                format!("${{1}}.${{2}}{king}${{3}}"),
            )
        } else {
            (
                format!("{before}{target}({gap}){king}({LINE})"),
                format!("${{1}}{king}${{2}}.${{3}}"),
            )
        };
        rules.push((
            format!("{q}: C{pattern}"),
            format!("${{0}}\n{ESCAPE}: {board}"),
        ));
    }
    for family in attack_families(&king.to_string(), side.other(), "\\.") {
        rules.push((
            format!("{ESCAPE}: {LINE}(?:{}){LINE}\n", family.join("|")),
            String::new(),
        ));
    }
    rules
}

/// [`has_legal_move`] by a full generation.
#[track_caller]
fn has_legal_move_full(b: &mut Builder, pos: &Position) -> Value<kind::Bool> {
    b.rules(
        "has_move_fork",
        vec![(
            "%%\n([^%]*)".to_string(),
            format!("%{STUCK_TAG}\n${{1}}%%\n${{1}}"),
        )],
        &pos.vars(),
        &[],
    );
    generate_both(b, pos, Texts::default(), false, Scope::ALL);
    let rules = vec![
        (
            format!("%{STUCK_TAG}(\n[^%]*%%\n)"),
            format!("%{HAS_TAG}${{1}}"),
        ),
        ("%%\n[^%]*".to_string(), String::new()),
        (
            format!("%{HAS_TAG}\n#stack:\n"),
            "%%\n#stack:\nT\n".to_string(),
        ),
        (
            format!("%{STUCK_TAG}\n#stack:\n"),
            "%%\n#stack:\nF\n".to_string(),
        ),
    ];
    b.rules_value("has_move", rules, &pos.vars(), Type::Bool)
}

/// Whether the side to move is in check.
#[track_caller]
pub fn in_check(b: &mut Builder, pos: &Position) -> Value<kind::Bool> {
    let t = pos.turn.var().name();
    // The same scratch line as the quick test of `has_legal_move`: the attack rules
    // match only the board's copy, not the whole thread.
    let mut rules = vec![(
        format!("({HEAD}{LINES}#b: ({LINE})\n{LINES}#{t}: ([wb])\n)"),
        "${1}#_q: ${3}F${2}\n".to_string(),
    )];
    for side in [Side::White, Side::Black] {
        let king = side.letter(5).to_string();
        let turn = match side {
            Side::White => 'w',
            Side::Black => 'b',
        };
        for family in attack_families(&king, side.other(), "\\.") {
            rules.push((
                format!("#_q: {turn}F{LINE}(?:{})", family.join("|")),
                format!("#_q: {turn}T"),
            ));
        }
    }
    rules.push((
        format!("({HEAD})({LINES})#_q: [wb]([TF])[^\n]*\n"),
        "${1}${3}\n${2}".to_string(),
    ));
    b.rules_value("in_check", rules, &pos.vars(), Type::Bool)
}

/// The mark [`target_attacked`] puts on the target square of its board's copy.
const TARGET_MARK: char = 'X';

/// Whether the side to move attacks the target square of the move `uci` (the move that
/// led to the position: the square holds the piece that just arrived), by the lines of
/// movement of its pieces on the board as it stands, pins and checks aside: the
/// recapture test of the capture search's discount ([`crate::search`]). The
/// position is unchanged.
///
/// 13 rules on a scratch copy of the board, on the stack: one lays out `<to><side>` and
/// `F<board>` (two lines, so that no pattern reads the side's letter as a bishop), one
/// marks the target square `X` (a trie over its name, each branch a counted skip), one
/// per attack family and colour (the families of the check test, on `X`) turns `F`
/// into `T`, and one leaves the flag.
#[track_caller]
pub fn target_attacked(
    b: &mut Builder,
    pos: &Position,
    uci: &Value<kind::Str>,
) -> Value<kind::Bool> {
    use crate::evaluate::{BOARD_CHAR, board_offset, skip, square_name, trie};
    let (board, turn) = (pos.board.var().name(), pos.turn.var().name());
    let mut rules = vec![(
        format!(
            "({HEAD})[a-h][1-8]([a-h][1-8])[qrbn]?\n({LINES}#{board}: ({LINE})\n{LINES}#{turn}: ([wb])\n)"
        ),
        "${1}${2}${5}\nF${4}\n${3}".to_string(),
    )];
    let branches: Vec<(String, String)> = (0..64)
        .map(|sq| {
            (
                square_name(sq),
                format!("[wb]\nF{}", skip(board_offset(sq))),
            )
        })
        .collect();
    rules.push((
        format!("({HEAD}{}){BOARD_CHAR}", trie(&branches)),
        format!("${{1}}{TARGET_MARK}"),
    ));
    for side in [Side::White, Side::Black] {
        let letter = match side {
            Side::White => 'w',
            Side::Black => 'b',
        };
        for family in attack_families(&TARGET_MARK.to_string(), side, "\\.") {
            rules.push((
                format!(
                    "({HEAD}[a-h][1-8]{letter}\n)F({LINE}(?:{}))",
                    family.join("|")
                ),
                "${1}T${2}".to_string(),
            ));
        }
    }
    rules.push((
        format!("({HEAD})[a-h][1-8][wb]\n([TF]){LINE}\n"),
        "${1}${2}\n".to_string(),
    ));
    b.emit(regex_chess_compiler::ir::Instruction::Lookup(
        uci.var().clone(),
    ));
    b.rules_value("target_attacked", rules, &pos.vars(), Type::Bool)
}
