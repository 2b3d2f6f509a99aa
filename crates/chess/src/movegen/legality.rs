//! Step 3 of the generation: the children that leave their own king attacked are
//! deleted, tested only where they can be (a king move, or a parent in check or with a
//! slider lined up with its king), and the guards that say so (see the module doc of
//! [`super`]).

use super::*;
use crate::board::{DIAGONAL_STEPS, ORTHOGONAL_STEPS};
use crate::fragments::{HEAD, LINE, LINES, any, ray_any, ray_over, var};
use regex_chess_compiler::ir::Var;

/// The attack patterns on a square of class `king` by the pieces of `by`, in families
/// (each family becomes one alternation).
pub(super) fn attack_families(king: &str, by: Side, empty: &str) -> Vec<Vec<String>> {
    let l = |role: usize| by.letter(role);
    let (p, n, bishop, r, q, k) = (l(0), l(1), l(2), l(3), l(4), l(5));
    let mut fixed = Vec::new();
    for d in [8usize, 12, 19, 21] {
        fixed.push(format!("{n}{}{king}", any(d - 1)));
        fixed.push(format!("{king}{}{n}", any(d - 1)));
    }
    for d in [1usize, 9, 10, 11] {
        fixed.push(format!("{k}{}{king}", any(d - 1)));
        fixed.push(format!("{king}{}{k}", any(d - 1)));
    }
    for d in [9usize, 11] {
        match by {
            // Black pawns attack downwards (towards higher offsets).
            Side::Black => fixed.push(format!("{p}{}{king}", any(d - 1))),
            Side::White => fixed.push(format!("{king}{}{p}", any(d - 1))),
        }
    }
    let mut families = vec![fixed];
    for (step, sliders) in [
        (1usize, format!("[{r}{q}]")),
        (10, format!("[{r}{q}]")),
        (9, format!("[{bishop}{q}]")),
        (11, format!("[{bishop}{q}]")),
    ] {
        let ray = ray_over(step, empty);
        families.push(vec![
            format!("{sliders}{ray}{king}"),
            format!("{king}{ray}{sliders}"),
        ]);
    }
    families
}

/// The two axes along which the other side's sliders attack `side`'s king: the board
/// steps of each (orthogonal, then diagonal) with the class of the enemy letters that
/// move along it (rook or queen, bishop or queen).
pub(super) fn enemy_slider_axes(side: Side) -> [([i32; 4], String); 2] {
    let enemy = side.other();
    let (eb, er, eq) = (enemy.letter(2), enemy.letter(3), enemy.letter(4));
    [
        (ORTHOGONAL_STEPS, format!("[{er}{eq}]")),
        (DIAGONAL_STEPS, format!("[{eb}{eq}]")),
    ]
}

/// One pattern per axis (orthogonal steps 1 and 10, diagonal steps 9 and 11), each
/// matching within a board where an enemy slider of that axis lines up with the king of
/// `side` (the letter `king`) with only empty squares between, or one piece of `side`
/// other than the king and empty squares: the boards where a slider gives check or pins
/// a piece, or would once that piece moves.
pub(super) fn lined_up(side: Side, king: char) -> Vec<String> {
    let pieces = &side.ours()[..5];
    let mut patterns = Vec::new();
    for (steps, sliders) in enemy_slider_axes(side) {
        for step in steps.into_iter().filter(|s| *s > 0) {
            let ray = ray_any(step as usize);
            let between = format!("{ray}(?:[{pieces}]{ray})?");
            patterns.push(format!("{king}{between}{sliders}|{sliders}{between}{king}"));
        }
    }
    patterns
}

/// The line where a parent's en-passant square waits while its children are generated
/// (see [`ep_aside_rule`]).
pub(super) const EP_ASIDE: &str = "#_ep";

/// On the parents before they split: an en-passant square moves to its own line
/// [`EP_ASIDE`] (which only the en-passant rules read) and the variable becomes `-`, the
/// value every child has unless it is a double push. The children inherit `-` instead
/// of each resetting the square (a rule over every child), and drop the line (a rule
/// that visits only the children of a parent with an en-passant square).
pub(super) fn ep_aside_rule(ep: &Var) -> (String, String) {
    (
        format!("({HEAD}{})([a-h][36])\n", var(ep.name())),
        format!("${{1}}-\n{EP_ASIDE}: ${{2}}\n"),
    )
}

/// Rules on the parents of `side` before they split: the [`EXPOSED`] guard line goes
/// right before the board of a parent in check, with an enemy slider [`lined_up`] with
/// its king, or with an en-passant square (one rule each, so a parent may get several).
/// Every one-piece thread and child inherits it; see [`legality_rules`].
pub(super) fn exposed_rules(side: Side, ep: &Var) -> Rules {
    let king = side.letter(5);
    let guard = |board: String| {
        (
            format!("{HEAD}({LINES})(#b: {board})"),
            format!("{HEAD}{EXPOSED_HEAD}${{1}}{EXPOSED}${{2}}"),
        )
    };
    let fixed = attack_families(&king.to_string(), side.other(), "\\.")
        .swap_remove(0)
        .join("|");
    let mut rules = vec![guard(format!("{LINE}(?:{fixed})"))];
    for axis in lined_up(side, king) {
        rules.push(guard(format!("{LINE}(?:{axis})")));
    }
    rules.push(guard(format!("{LINE}\n{}[a-h]", var(ep.name()))));
    rules
}

/// One pattern per family of attackers, each matching within a line that holds a board
/// (the representation of [`crate::board`]) where the king of `white`'s side (else
/// black's) is attacked by a piece of the other side.
pub fn king_attacked(white: bool) -> Vec<String> {
    let side = if white { Side::White } else { Side::Black };
    attack_families(&side.letter(5).to_string(), side.other(), "\\.")
        .into_iter()
        .map(|family| family.join("|"))
        .collect()
}

/// Legality, on the children as the move rules left them: a child whose king (or a
/// castling king's start or crossed square) is attacked loses its `#_x` line (it
/// becomes `#_z`), then the marked children are deleted.
///
/// Only two kinds of children can leave the king attacked: a king's move (the
/// [`KING_MOVED`] line), and any child of a parent that [`exposed_rules`] guarded (the
/// [`EXPOSED`] line). Otherwise the parent is not in check, the king stays, and no
/// enemy piece moves or appears: a knight, pawn or king attacks the king only if it did
/// in the parent, and a slider only through the square the piece left, which then stood
/// alone between the slider and the king (a lined-up slider). En passant, which also
/// empties the captured pawn's square, has a parent with an en-passant square. So the
/// attack rules start at either line, and the fast executor visits only those children
/// (the guard lines are removed afterwards).
///
/// The board still holds the move's marks: our moved king is `6` (or `a`/`c`/`6` when
/// castling), the square the piece left is already empty, and every other
/// mark is one of our pieces, which blocks a ray as the piece will.
pub(super) fn legality_rules(side: Side) -> Rules {
    let king = format!("[{}6ac]", side.letter(5));
    let families = attack_families(&king, side.other(), "\\.");
    let guarded = format!("{EXPOSED}(?:{KING_MOVED}|{ORTHOGONAL_MOVED})?");
    let mut rules = Vec::new();
    for guard in [guarded.as_str(), KING_MOVED] {
        for family in &families {
            rules.push((
                format!("{guard}{CHILD_BOARD}{LINE}(?:{})", family.join("|")),
                "#_z: \n".to_string(),
            ));
        }
    }
    // The illegal children go: only children of king moves and of exposed parents can
    // be illegal, and each rule starts at their literal head.
    for head in [
        format!("%{CHECKED_TAG}\n#stack:\n"),
        format!("%{CHILD_TAG}\n#stack:\n{EXPOSED_HEAD}"),
    ] {
        rules.push((format!("{head}{LINES}#_z: [^%]*"), String::new()));
    }
    for guard in [EXPOSED, EXPOSED_HEAD] {
        rules.push((guard.to_string(), String::new()));
    }
    // The children wake up.
    for tag in [CHILD_TAG, CHECKED_TAG] {
        rules.push((format!("%{tag}\n"), "%%\n".to_string()));
    }
    rules
}
