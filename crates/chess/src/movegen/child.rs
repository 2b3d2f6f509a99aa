//! Steps 0 and 4 of the generation: the parent's bookkeeping shared by every child
//! (clocks, side to move), and each child's own (en-passant square, the clock's reset,
//! castling finished, castling rights lost); see the module doc of [`super`].

use super::*;
use crate::board::{DOUBLE_PUSH, Position};
use crate::fragments::{HEAD, LINE, LINES, any, increment_marked, var};
use regex_chess_compiler::ir::Var;

/// The start of a child in generation, up to its board's first square: its `#_x` line
/// (which only children in generation have) and the board line's name. Child rules start
/// here rather than at the thread's head, so that each one reads the few lines it needs.
pub(super) const CHILD_BOARD: &str = "#_x: [^\n]*\n#b: ";

/// Step 3 and 4 on the children of `side`: illegal children deleted, the lines of
/// `texts` (the move's UCI text, what it took), the state variables (if `full`), the
/// board cleaned. Without `full` only legality runs (the children are counted, not
/// kept).
pub(super) fn child_rules(side: Side, pos: &Position, texts: Texts, full: bool) -> Rules {
    let (uci, taken) = (texts.uci, texts.taken);
    let mut rules = legality_rules(side);
    if !full {
        return rules;
    }
    let at = |name: &Var| var(name.name());
    let (e, h) = (pos.ep.var(), pos.halfmove.var());
    // En passant square: `-` from the parent (see `ep_aside_rule`), whose square the
    // children drop; set after a double push.
    rules.push((format!("{EP_ASIDE}: {LINE}\n"), String::new()));
    let (landing, behind) = match side {
        Side::White => (40, '3'),
        Side::Black => (30, '6'),
    };
    // Only a pawn's quiet move (`_` then the pawn's letter, see `fork_rule`) can be a
    // double push: the rules start there, so that the fast executor visits only those
    // children.
    let pushed = format!("#_x: _{}\n#b: ", side.letter(0));
    match uci {
        // With the UCI text (the board has no marks then, see `fork_rule`), a double
        // push is a pawn's quiet move from its second rank to its fourth; the file is
        // the text's first letter.
        Some(u) => {
            let (from, to) = match side {
                Side::White => ('2', '4'),
                Side::Black => ('7', '5'),
            };
            rules.push((
                format!(
                    "({pushed}{LINE}\n#{}: ([a-h]){from}[a-h]{to}\n{})-",
                    u.name(),
                    at(e)
                ),
                format!("${{1}}${{2}}{behind}"),
            ));
        }
        // Otherwise, the pushed pawn's mark is on the file's square of the fourth rank.
        None => {
            for f in 0..8usize {
                let file = (b'a' + f as u8) as char;
                rules.push((
                    format!(
                        "({pushed}{}{DOUBLE_PUSH}{LINE}\n{})-",
                        any(landing + f),
                        at(e)
                    ),
                    format!("${{1}}{file}{behind}"),
                ));
            }
            // The moved mark becomes the last letter of the `#_x` line (the piece, or
            // the piece promoted to). With the UCI text, the move rules wrote the letter.
            rules.push((
                format!("(#_x: {LINE}([A-Za-z])\n#b: {LINE}){MOVED_CLASS}"),
                "${1}${2}".to_string(),
            ));
        }
    }
    // Half-move clock (already incremented in the parent, see `parent_rules`): reset on
    // a capture or a pawn move (the `#_x` line's first letter is then not `.`).
    rules.push((
        format!("(#_x: [^.\n]{LINE}\n{})[0-9]*", at(h)),
        "${1}0".to_string(),
    ));
    // Castling finished: the rook jumps over. The rules start at the castling child's
    // `#_x` line (a quiet king move: nothing captured, the king's letter), so that the
    // fast executor visits only the children of quiet king moves (anchored at the head,
    // they walked every child's lines whenever one castled), and the squares stand at
    // fixed offsets from the board's start.
    let (k, r) = (side.letter(5), side.letter(3));
    let home = match side {
        Side::White => 70,
        Side::Black => 0,
    };
    let board = format!("{X}: \\.{k}\n#b: ");
    rules.push((
        format!("({board}{})ac{k}{r}", any(home + 4)),
        format!("${{1}}.{r}{k}."),
    ));
    rules.push((
        format!("({board}{}){r}\\.{k}ca", any(home)),
        format!("${{1}}..{k}{r}."),
    ));
    rules.extend(rights_rules(side, pos.castling.var()));
    for guard in [KING_MOVED, ORTHOGONAL_MOVED] {
        rules.push((format!("{guard}{X}: "), format!("{X}: ")));
    }
    // The `#_x` line goes, or becomes `taken`'s two letters (a pawn's `_` read as `.`).
    // Only children in generation hold one (one each), so the rule starts at the line
    // itself: the fast executor jumps from one to the next instead of walking every
    // child's lines from its head.
    match taken {
        None => rules.push((format!("{X}: [^\n]*\n"), String::new())),
        Some(t) => {
            let t = t.name();
            rules.push((format!("{X}: _([^\n])[^\n]*\n"), format!("#{t}: .${{1}}\n")));
            rules.push((
                format!("{X}: ([^\n]{{2}})[^\n]*\n"),
                format!("#{t}: ${{1}}\n"),
            ));
        }
    }
    rules
}

/// Rules on the parents before they split (with `full`): the half-move clock gains one
/// (a child that captures or moves a pawn resets it), the side to move flips and, after
/// black's move, the full-move number gains one. Every child inherits them, so they run
/// once per position rather than once per move.
pub(super) fn parent_rules(side: Side, pos: &Position) -> Rules {
    let at = |name: &Var| var(name.name());
    let (h, t, n) = (pos.halfmove.var(), pos.turn.var(), pos.fullmove.var());
    let mut rules = vec![(format!("({HEAD}{}[0-9]*)\n", at(h)), "${1}+\n".to_string())];
    rules.extend(increment_marked(h.name()));
    match side {
        Side::White => rules.push((format!("({HEAD}{})w", at(t)), "${1}b".to_string())),
        Side::Black => {
            rules.push((format!("({HEAD}{})b", at(t)), "${1}w".to_string()));
            rules.push((format!("({HEAD}{}[0-9]*)\n", at(n)), "${1}+\n".to_string()));
            rules.extend(increment_marked(n.name()));
        }
    }
    rules
}

/// Castling rights lose every letter whose king or rook left its home square, after a
/// move of `side` (on the children in generation, which the `#_x` line marks). The
/// other side's king cannot have left its square, so only its rooks are looked at.
///
/// The rights of the parent are those of its board (as [`super::fen`] checks and these
/// rules keep), so a right can only be lost by the move: each rule requires a guard
/// that the move left, and the fast executor visits only the children holding it: a
/// king move (the [`KING_MOVED`] line), an orthogonal move ([`ORTHOGONAL_MOVED`]), or
/// the capture of one of their rooks (the `#_x` line's first letter). The guard lines
/// are removed after these rules.
pub(super) fn rights_rules(side: Side, c: &Var) -> Rules {
    // The square's class excludes `\n` (it is inside the board line anyway) so that the
    // rule splits into one-line parts.
    let rights = |square: usize, piece: char, pre: &str, drop: &str| {
        let guard = if side.ours().contains(piece) {
            let line = if piece == side.letter(5) {
                KING_MOVED
            } else {
                ORTHOGONAL_MOVED
            };
            // The `#_x` line's second letter is the mover's: a queen's orthogonal moves
            // (which carry the same guard line) are not visited.
            format!("{line}#_x: [^\n]{piece}\n#b: ")
        } else {
            format!("#_x: {piece}{LINE}\n#b: ")
        };
        let head = format!("({guard}{}[^{piece}\n]{LINE}\n{LINES})", any(square));
        let c = c.name();
        if pre.is_empty() {
            (format!("{head}#{c}: {drop}"), format!("${{1}}#{c}: "))
        } else {
            (
                format!("{head}#{c}: ({pre}){drop}"),
                format!("${{1}}#{c}: ${{2}}"),
            )
        }
    };
    let mut rules = Vec::new();
    if side == Side::White {
        rules.push(rights(74, 'K', "", "K?Q?"));
    }
    rules.push(rights(77, 'R', "", "K"));
    rules.push(rights(70, 'R', "K?", "Q"));
    if side == Side::Black {
        rules.push(rights(4, 'k', "K?Q?", "k?q?"));
    }
    rules.push(rights(7, 'r', "K?Q?", "k"));
    rules.push(rights(0, 'r', "K?Q?k?", "q"));
    // No right left: `-`. Only the children that the rules above may have touched can
    // have lost their last right: one rule for each guard (a king move, a rook move, the
    // capture of one of their rooks), so that the fast executor visits those
    // children only, and `#c: ` then the line's end is a needed literal, so the rules are
    // skipped when no child lost its last right.
    let their_rook = side.other().letter(3);
    for guard in [
        format!("{KING_MOVED}#_x: {LINE}"),
        format!("{ORTHOGONAL_MOVED}#_x: [^\n]{}", side.letter(3)),
        format!("#_x: {their_rook}{LINE}"),
    ] {
        rules.push((
            format!("({guard}\n{LINES})#{}: \n", c.name()),
            format!("${{1}}#{}: -\n", c.name()),
        ));
    }
    rules
}
