//! Legal move generation, making moves and check detection, in rules.
//!
//! See [`super::board`] for the representation and the contract of each function.
//!
//! # How a position becomes its children
//!
//! Everything below runs once per colour, on the threads whose side to move it is (an
//! `if_else` on `#t`); the rule sets differ only in which letters are "ours". A narrower
//! [`Scope`] ([`fork_children`]) records white's rules alone, or no under-promotions.
//!
//! 0. **The parent** (full generation only, 16 rules; 31 for black): the half-move clock
//!    gains one, the side to move flips and, for black, the full-move number gains one.
//!    Every child inherits them (a child that captures or moves a pawn resets the clock),
//!    so this carry arithmetic runs once per position, not once per move. On every
//!    parent (full or not), 6 rules put the guard line `#_g` before the board (and the
//!    line `#_G` right after the head) of a parent in check, with an enemy slider lined up with its king (at most one piece
//!    of ours between) or with an en-passant square (see step 3), and one rule moves an
//!    en-passant square to a line `#_ep` that only the en-passant rules read, leaving
//!    `-` for the children to inherit (a double push sets it again in step 4).
//! 1. **One thread per piece** (8 + 6 rules). A cursor `^` enters the board; each of
//!    6 rules (`peel`) splits every thread holding 4, 4, 4, 4, 2 and 1 more pieces of
//!    ours after the cursor: a copy for each of those pieces, marked `@`, paused under
//!    `%mq` and the piece's letter (so the next peels visit only the threads with a
//!    cursor), and the original with the cursor moved past them. The threads left with a
//!    cursor are deleted, and
//!    6 rules (each visiting only its piece's threads) turn `@` into the role's origin
//!    digit `1`..`6` and pause the thread under its move family's tag (`%mp`, `%mn`,
//!    `%mb`, `%mr`, `%mk`; a queen becomes one `%mr` and one `%mb` thread). With the UCI text, a line for it goes right after
//!    the board and gets the origin's file and rank (5 rules, a binary search over a
//!    table of the files and ranks the line holds meanwhile, the rank in one rule; see
//!    `halving_rules` and `naming_rules`), followed by the origin's two windows: the
//!    15 files and the 15 ranks centred on the origin's (see `origin_rules`). A pawn one step from
//!    promotion gets a guard line `#_pr` that the promotion rules require: when no pawn
//!    can promote, the fast executor skips those 12 rules on the literal alone.
//! 2. **One thread per move** (108 rules). Each rule starts with its family's tag, so
//!    the fast executor's literal search visits only that family's threads, and is a
//!    stride pattern from the origin digit to a target square, such as "a rook or queen,
//!    3 empty squares up, then an empty or enemy square":
//!    `[45][^\n]{9}\.[^\n]{9}\.[^\n]{9}[.pnbrqk]` read backwards (rays written out
//!    rather than as a repeated group, so that the fast executor resolves a match's
//!    groups without a backtracking engine). Where it matches, the rule appends a
//!    *paused* copy of the thread with the move made on the board (origin `.`, target =
//!    the mover's digit) and, right before the board, a line `#_x: ` with the target
//!    square's old content and the moving piece's letter (kept in the one-piece thread
//!    as `#_p`; a promotion adds its UCI letter and the new piece's letter). With the
//!    UCI text, the rule also reads the target's file and rank in the windows, at the
//!    places its file and row offsets give, and the child's UCI line becomes the origin,
//!    the target and a promotion's letter (without the windows), and the target gets the
//!    piece's letter (the one promoted to; a castling king's `K`) rather than a digit:
//!    the children need no naming and no mark rules. One rule
//!    per direction and distance for sliders (56; in the capture search's scope one per
//!    direction, 8, each an alternation over the distances whose groups the template
//!    writes side by side: only the first piece along a ray can be taken, so at most one
//!    distance matches, and each slider's thread is walked once per direction instead of
//!    seven times, see `fork_rule_any`) and per step for the king (8), one per
//!    jump for knights (8), pushes, double pushes, captures, promotions to each piece and
//!    en passant (one per file and side) for pawns, and castling (rights, empty squares,
//!    rook in place) with the king's start and crossed squares marked `a` and `c`. Then
//!    the one-piece threads are deleted. The children are paused under `%mg`, those of
//!    a king move under `%mc`.
//! 3. **Legality** (16 rules), on the marked board, of the children of a king move or
//!    of a guarded parent (the others cannot leave the king attacked; see
//!    `legality_rules`): a child where our king (`K`, or the
//!    moved king `6`, or a castling king's start or crossed square `a`/`c`) is attacked
//!    by a knight, pawn or king at a fixed offset (one alternation) or by a slider along
//!    a ray of empty squares (the vacated square is already `.`; one rule per axis)
//!    loses its `#_x` line; two rules delete those children (each starting at a literal
//!    head: `%mc`, or `%mg` and the exposed parent's `#_G`), two drop the guards, two
//!    wake the children. Without bookkeeping
//!    (the children of [`has_legal_move`], which are only counted) this is the last step.
//! 4. **The child** (14 rules with the UCI text): the en-passant square after a double
//!    push (with the UCI text, a pawn's quiet move from its second rank to its fourth,
//!    the file from the text; else the pushed pawn's mark `7`; the line `#_ep` goes),
//!    the half-move clock's reset (a capture or a pawn move, both
//!    read from `#_x`), without the UCI text the moved mark turned back into a piece
//!    (the last letter of `#_x`), castling finished (`acKR` → `.RK.`) and the castling rights losing every
//!    letter whose king or rook left its home square (guarded by the move, see
//!    `rights_rules`). These rules start at `#_x` (only children in generation have it)
//!    and read the few lines they need; the last one removes `#_x`.
//!
//! Most rules run on few threads: steps 0 and 1 on one thread per position or piece,
//! step 2 on the threads of one family, steps 3 and 4 on one board per pseudo-legal move.
//!
//! Sizes (`legal-moves`, both colours, counted before the guard and `#_ep` rules, the
//! one-rule ranks and the target named by the move rules; not recounted since): 116
//! rules split by piece (with the UCI text's origin square and the
//! parent's bookkeeping), 216 move rules, 56 child rules: 388 rules, 317 distinct
//! patterns in the program.
//!
//! # Check and mobility
//!
//! [`has_legal_move`] and [`in_check`] live in the `check` submodule; the full test of
//! `has_legal_move` runs the generation above without the children's bookkeeping.
//!
use super::board::MAX_MOVES;
use super::board::{Children, MoveGen, Position};
use super::fragments::HEAD;
use regex_chess_compiler::dsl::{Builder, Merge, Value, kind};
use regex_chess_compiler::ir::{Type, Var};

mod check;
mod child;
mod legality;
mod moves;
mod pieces;
#[cfg(test)]
mod tests;

pub use check::{has_legal_move, in_check, target_attacked};
use child::*;
pub use legality::king_attacked;
use legality::*;
use moves::*;
use pieces::*;

type Rules = Vec<(String, String)>;

/// The tag of a child thread while its siblings are being generated.
const CHILD_TAG: &str = "mg";
/// The line a child in generation holds right before its board: what the move captured
/// (`.` for nothing, `_` for nothing by a pawn: the half-move clock is reset exactly
/// when it is not `.`), then the moving piece's letter.
const X: &str = "#_x";
/// The guard line a child of a king move (castling included) holds before its `#_x`
/// line: the rules dropping the mover's castling rights on a king move require it, so
/// they visit only those children.
const KING_MOVED: &str = "#_k: \n";
/// The same for an orthogonal move (a rook's, or a queen's): the rules dropping the
/// mover's castling rights on a rook move require it.
const ORTHOGONAL_MOVED: &str = "#_r: \n";
/// The guard line a parent holds right before its board when a move other than the
/// king's may leave its king attacked (see [`exposed_rules`]); its one-piece threads and
/// children inherit it, and the legality rules require it or [`KING_MOVED`].
const EXPOSED: &str = "#_g: \n";
/// The line an exposed parent (see [`EXPOSED`]) also gets right after its head, which
/// its children inherit there: the rule deleting the illegal children starts at the
/// head of a child holding it (a literal), so that the fast executor visits only the
/// children of exposed parents (and of king moves, see [`CHECKED_TAG`]), not every child.
const EXPOSED_HEAD: &str = "#_G: \n";
/// The tag of a child of a king move (castling included) while its siblings are being
/// generated (the others have [`CHILD_TAG`]): with [`EXPOSED_HEAD`], what the deletion
/// of the illegal children starts at.
const CHECKED_TAG: &str = "mc";
/// The guard line of a one-piece thread whose pawn stands one step from promotion: the
/// promotion rules require it, so the fast executor skips them (a literal absent from
/// the state) when no pawn can promote.
const PROMOTING: &str = "#_pr";
/// The tag (followed by the piece's letter) of a one-piece thread before its role is
/// known.
const PICKED_TAG: &str = "mq";
/// The tag of a kept stuck thread (see [`MoveGen::keep_stuck`]).
const STUCK_TAG: &str = "ms";
/// The tag of a stuck-candidate that turned out to have a move ([`has_legal_move`]).
const HAS_TAG: &str = "mh";
/// The characters a moved piece can be marked with on its target square (the castling
/// king's included).
const MOVED_CLASS: &str = "[0-9=]";

/// A side, with the letters and geometry its rules need.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Side {
    White,
    Black,
}

impl Side {
    fn ours(self) -> &'static str {
        match self {
            Side::White => "PNBRQK",
            Side::Black => "pnbrqk",
        }
    }
    fn theirs(self) -> &'static str {
        match self {
            Side::White => "pnbrqk",
            Side::Black => "PNBRQK",
        }
    }
    fn letter(self, role: usize) -> char {
        self.ours().as_bytes()[role] as char
    }
    fn enemy(self) -> String {
        format!("[{}]", self.theirs())
    }
    fn target(self) -> String {
        format!("[.{}]", self.theirs())
    }
    fn other(self) -> Side {
        match self {
            Side::White => Side::Black,
            Side::Black => Side::White,
        }
    }
}

/// One piece of a move rule's board pattern.
enum Seg {
    /// Matched and left as it is in the child.
    Keep(String),
    /// Matched; the child has `child` instead (`$O` stands for the origin's digit).
    Swap(String, &'static str),
    /// The origin square: the child has the given text (`.`, or a castling mark).
    Origin(String, &'static str),
    /// The target square: the child has `$O` or the given text; its old content goes to
    /// `#_x`.
    Target(String, &'static str),
}

/// The move families a one-piece thread belongs to, by the tag that pauses it while the
/// move rules run: each move rule starts with its family's tag, so the fast executor's
/// literal search visits only the threads of that family (a queen has two threads, one
/// per slider family).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Family {
    Pawn,
    Knight,
    Diagonal,
    Orthogonal,
    King,
}

impl Family {
    /// The thread head of a one-piece thread of this family.
    fn head(self) -> String {
        let tag = match self {
            Family::Pawn => "mp",
            Family::Knight => "mn",
            Family::Diagonal => "mb",
            Family::Orthogonal => "mr",
            Family::King => "mk",
        };
        format!("%{tag}\n#stack:\n")
    }

    /// The families of a role (in `PNBRQK` order).
    fn of_role(role: usize) -> &'static [Family] {
        match role {
            0 => &[Family::Pawn],
            1 => &[Family::Knight],
            2 => &[Family::Diagonal],
            3 => &[Family::Orthogonal],
            4 => &[Family::Orthogonal, Family::Diagonal],
            _ => &[Family::King],
        }
    }
}

/// The tags of every [`Family`], as a class after `%m`.
const FAMILY_TAGS: &str = "[pnbrk]";

/// Generation for one side, on the active threads (all of that side to move).
#[track_caller]
fn generate(b: &mut Builder, side: Side, pos: &Position, texts: Texts, full: bool, scope: Scope) {
    let uci = texts.uci;
    let mut writes: Vec<&Var> = pos.vars().to_vec();
    writes.extend(uci);
    writes.extend(texts.taken);
    let reads = pos.vars();
    let mut split = if full {
        parent_rules(side, pos)
    } else {
        Vec::new()
    };
    split.extend(exposed_rules(side, pos.ep.var()));
    split.push(ep_aside_rule(pos.ep.var()));
    split.extend(split_by_piece(side, uci));
    b.rules("split_by_piece", split, &reads, &writes);
    b.rules(
        "move_rules",
        move_rules(side, pos.castling.var(), scope, uci.map(|u| u.name())),
        &reads,
        &writes,
    );
    let children = child_rules(side, pos, texts, full);
    b.rules("child", children, &reads, &writes);
}

/// The lines a generation writes into each child besides its position: the move's UCI
/// text and what it took (see [`MoveGen`]).
#[derive(Clone, Copy, Default)]
pub(super) struct Texts<'a> {
    pub(super) uci: Option<&'a Var>,
    pub(super) taken: Option<&'a Var>,
}

/// Generation for both sides (an `if_else` on the side to move).
#[track_caller]
fn generate_both(b: &mut Builder, pos: &Position, texts: Texts, full: bool, scope: Scope) {
    let white = b.eq_text(&pos.turn, "w");
    b.if_else(
        &white,
        |b| generate(b, Side::White, pos, texts, full, scope),
        |b| generate(b, Side::Black, pos, texts, full, scope),
    );
}

/// Which moves [`fork_children`] generates.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Scope {
    /// Only white moves: a thread with black to move is deleted, and the rules of black's
    /// moves are not recorded at all (no `if_else` on the side to move).
    pub white_only: bool,
    /// Pawns promote to a queen only: the rules of the under-promotions are not recorded.
    pub queen_only: bool,
    /// Only captures (en passant included) and promotions (quiet ones included): the
    /// capture search's generation.
    pub captures_only: bool,
}

impl Scope {
    /// Every legal move of either side, as the engine generates them.
    pub const ALL: Scope = Scope {
        white_only: false,
        queen_only: false,
        captures_only: false,
    };
    /// Every legal capture and promotion of either side.
    pub const CAPTURES: Scope = Scope {
        captures_only: true,
        ..Scope::ALL
    };
    /// The terms of the public "regex-chess" task: white to move, queen promotions only.
    pub const TASK: Scope = Scope {
        white_only: true,
        queen_only: true,
        captures_only: false,
    };
}

/// Every active thread becomes one thread per legal move within `scope`, holding the
/// position after the move in the same six variables (side to move, clocks, castling
/// rights and en-passant square updated as by [`fork_legal_moves`], whose rules these
/// are); no move text. A thread without such a move disappears.
#[track_caller]
pub fn fork_children(b: &mut Builder, pos: &Position, scope: Scope) {
    if scope.white_only {
        let black = b.eq_text(&pos.turn, "b");
        b.when(&black, |b| b.destroy());
        generate(b, Side::White, pos, Texts::default(), true, scope);
    } else {
        let white = b.eq_text(&pos.turn, "w");
        b.if_else(
            &white,
            |b| generate(b, Side::White, pos, Texts::default(), true, scope),
            |b| generate(b, Side::Black, pos, Texts::default(), true, scope),
        );
    }
}

/// Every active thread becomes one thread per legal move of its side to move, holding
/// the position after the move (same variables) and, with [`MoveGen::uci`], the move's
/// UCI text. `max_moves` is only a documented bound (218 is the known maximum): the
/// rules need none, since each move rule adds at most one child per thread.
#[track_caller]
pub fn fork_legal_moves(
    b: &mut Builder,
    pos: &Position,
    max_moves: usize,
    options: MoveGen,
) -> Children {
    let _ = max_moves;
    fork_moves(b, pos, options, Scope::ALL)
}

/// Inside a [`Builder::grouped`] block: the thread forks into itself and one copy per
/// legal move of its side to move; the original computes `original`, each copy computes
/// `per_move` from its move's UCI text (the copy holds the position after the move). The
/// result, one value a thread, is ready for `gather` or `keep_best`.
#[track_caller]
pub fn beside_legal_moves<R: Merge>(
    b: &mut Builder,
    pos: &Position,
    original: impl FnOnce(&mut Builder) -> R,
    per_move: impl FnOnce(&mut Builder, &Value<kind::Str>) -> R,
) -> R {
    let is_original = b.fork_bool();
    b.if_else(&is_original, original, |b| {
        let children = fork_legal_moves(
            b,
            pos,
            MAX_MOVES,
            MoveGen {
                uci: true,
                keep_stuck: false,
                taken: false,
            },
        );
        let uci = children.uci.expect("asked for uci");
        per_move(b, &uci)
    })
}

/// [`fork_legal_moves`] restricted to the legal captures (en passant included) and
/// promotions (quiet ones included) of the side to move: the moves of the capture
/// search. A thread with none disappears, or stays with [`MoveGen::keep_stuck`].
#[track_caller]
pub fn fork_legal_captures(b: &mut Builder, pos: &Position, options: MoveGen) -> Children {
    fork_moves(b, pos, options, Scope::CAPTURES)
}

/// The generation behind [`fork_legal_moves`] and [`fork_legal_captures`].
#[track_caller]
fn fork_moves(b: &mut Builder, pos: &Position, options: MoveGen, scope: Scope) -> Children {
    let uci: Option<Value<kind::Str>> = options.uci.then(|| b.fresh(Type::Str));
    let uci_var = uci.as_ref().map(|u| u.var().clone());
    let taken: Option<Value<kind::Str>> = options.taken.then(|| b.fresh(Type::Str));
    let taken_var = taken.as_ref().map(|t| t.var().clone());
    if options.keep_stuck {
        // The paused copy goes first, so that the thread's children follow it directly.
        b.rules(
            "keep_stuck",
            vec![(
                "%%\n([^%]*)".to_string(),
                format!("%{STUCK_TAG}\n${{1}}%%\n${{1}}"),
            )],
            &pos.vars(),
            &[],
        );
    }
    let texts = Texts {
        uci: uci_var.as_ref(),
        taken: taken_var.as_ref(),
    };
    generate_both(b, pos, texts, true, scope);
    let moved = options.keep_stuck.then(|| {
        // A copy followed by a child had a move: it goes. (The rule starts at the few
        // copies, not at every child.)
        let mut rules = vec![
            (format!("%{STUCK_TAG}\n[^%]*(%%\n)"), "${1}".to_string()),
            (format!("({HEAD})"), "${1}T\n".to_string()),
        ];
        // A stuck thread gets the children's lines too, empty.
        let empty_lines: String = [&uci_var, &taken_var]
            .into_iter()
            .flatten()
            .map(|v| format!("#{}: \n", v.name()))
            .collect();
        rules.push((
            format!("%{STUCK_TAG}\n#stack:\n([^%]*)"),
            format!("%%\n#stack:\nF\n${{1}}{empty_lines}"),
        ));
        let mut reads: Vec<&Var> = pos.vars().to_vec();
        reads.extend(&uci_var);
        reads.extend(&taken_var);
        b.rules_value("stuck", rules, &reads, Type::Bool)
    });
    Children { uci, moved, taken }
}

/// [`fork_legal_moves`] as the move-listing programs use it: every active thread
/// becomes one thread per legal move with the move's UCI text (a thread without a move
/// disappears). Returns the UCI text.
#[track_caller]
pub fn fork_legal_uci(b: &mut Builder, pos: &Position) -> Value<kind::Str> {
    let options = MoveGen {
        uci: true,
        keep_stuck: false,
        taken: false,
    };
    let children = fork_legal_moves(b, pos, 218, options);
    children.uci.expect("asked for the UCI text")
}
