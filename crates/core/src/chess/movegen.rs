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
//! 1. **One thread per piece** (18 + 6 rules). A cursor `^` enters the board; each of
//!    16 identical rules splits every thread in two: a copy whose first piece of ours
//!    after the cursor is marked `@`, paused under `%mq` and the piece's letter (so the
//!    next peels visit only the threads with a cursor), and the original with the
//!    cursor moved past that piece. The threads left with a cursor are deleted, and
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
//!    per direction and distance for sliders (56) and per step for the king (8), one per
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
use super::board::{
    Children, DIAGONAL_STEPS, DOUBLE_PUSH, KNIGHT_STEPS, MoveGen, ORIGIN_MARKS, ORTHOGONAL_STEPS,
    PROMOTION_MARKS, Position,
};
use super::rx::{
    HEAD, LINE, LINES, any, any_range, delete_if_board, increment_marked, ray_any, ray_between,
    ray_over, var,
};
use crate::compiler::dsl::{Builder, Merge, Value, kind};
use crate::compiler::ir::{Type, Var};

mod check;
pub use check::{has_legal_move, in_check};

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

/// A rule that, where the board of a one-piece thread of `family` matches `segs` (from
/// its first character), appends a paused copy of the thread with the move made.
///
/// The one-piece thread holds its piece's letter in a line `#_p: ` right before the
/// board; the child holds instead `#_x: ` and the target square's old content, then the
/// piece's letter or, for a `promotion` (UCI letter, piece letter), the pawn's letter and
/// both letters of the promotion: the child rules read the move from that line.
fn fork_rule(
    family: Family,
    segs: &[Seg],
    promotion: Option<(char, char)>,
    tail: &Tail,
) -> (String, String) {
    let head = family.head();
    // A promotion needs the guard line (see `split_by_piece`); the child drops it.
    let guard = match promotion {
        Some(_) => format!("{PROMOTING}: \n"),
        None => String::new(),
    };
    let mut pattern = format!("{head}({LINES}){guard}#_p: ([A-Za-z])\n#b: ");
    let mut parent = format!("{head}${{1}}{guard}#_p: ${{2}}\n#b: ");
    let mut child = String::new();
    let first = 3;
    let origin_group = segs
        .iter()
        .position(|s| matches!(s, Seg::Origin(..)))
        .map(|i| i + first);
    let mut captured = None;
    // With the UCI text: what the target gets, the moving piece's letter (`#_p`'s) or
    // the letter of the piece promoted to.
    let landed: Option<String> = tail
        .uci
        .map(|_| promotion.map_or("${2}".to_string(), |(_, piece)| piece.to_string()));
    for (i, seg) in segs.iter().enumerate() {
        let g = i + first;
        let (pat, text) = match seg {
            Seg::Keep(p) => (p, None),
            Seg::Swap(p, t) | Seg::Origin(p, t) => (p, Some(*t)),
            Seg::Target(p, t) => {
                // A pawn's quiet move (its target can only be empty) writes `_`.
                let quiet_pawn = family == Family::Pawn && p == "\\.";
                captured = Some(if quiet_pawn {
                    "_".to_string()
                } else {
                    format!("${{{g}}}")
                });
                // With the UCI text the target gets the moved piece's letter at once (the
                // children are named without reading a mark, see `child_rules`).
                match &landed {
                    None => (p, Some(*t)),
                    Some(letter) => (p, Some(letter.as_str())),
                }
            }
        };
        pattern.push_str(&format!("({pat})"));
        parent.push_str(&format!("${{{g}}}"));
        match text {
            None => child.push_str(&format!("${{{g}}}")),
            Some(t) => {
                let o = origin_group
                    .map(|o| format!("${{{o}}}"))
                    .unwrap_or_default();
                child.push_str(&t.replace("$O", &o));
            }
        }
    }
    let g = segs.len() + first;
    match tail.uci {
        // The rest of the board line and the lines up to `after` in one group, then
        // the rest of the thread.
        None => {
            let mut next = g;
            if !tail.after.is_empty() {
                pattern.push_str(&format!("({LINE}\n{})", tail.after));
                parent.push_str(&format!("${{{g}}}"));
                child.push_str(&format!("${{{g}}}"));
                next += 1;
            }
            pattern.push_str("([^%]*)");
            parent.push_str(&format!("${{{next}}}"));
            child.push_str(&format!("${{{next}}}"));
        }
        // The UCI line holds the origin square and its windows (see `origin_rules`):
        // the target's file and rank stand at fixed places in them, so the child's line
        // becomes the origin and the target, without the windows. (The board part has
        // matched, so the target is on the board and those places hold a file and a
        // rank. The line is the one right after the board, and its name is matched by
        // its length: `[^\n]` everywhere adds no byte class (the name's digits, `[a-h]`
        // or `[1-8]` would) to the rule's lazy DFAs, whose every state would grow; on
        // promotion capture the longest rays' caches then overflowed and their states
        // were rebuilt in every run.)
        Some(u) => {
            let (df, drow) = tail.delta;
            let to_file = (WINDOW_CENTRE as i32 + df) as usize;
            let to_rank = (WINDOW - 1 - to_file) as i32 + WINDOW_CENTRE as i32 + drow;
            pattern.push_str(&format!(
                "(({LINE}\n#{}: {}){}([^\n]){}([^\n]){LINE})(\n{}[^%]*)",
                any(u.len()),
                any(2),
                any(to_file),
                any(to_rank as usize),
                tail.after
            ));
            parent.push_str(&format!("${{{g}}}${{{}}}", g + 4));
            // A promotion's UCI letter ends the line.
            let letter = promotion
                .map(|(uci, _)| uci.to_string())
                .unwrap_or_default();
            child.push_str(&format!(
                "${{{}}}${{{}}}${{{}}}{letter}${{{}}}",
                g + 1,
                g + 2,
                g + 3,
                g + 4
            ));
        }
    }
    let x = captured.unwrap_or_else(|| ".".to_string());
    let moved = match promotion {
        None => "${2}".to_string(),
        Some((uci, piece)) => format!("${{2}}{uci}{piece}"),
    };
    let moved_line = match family {
        Family::King => KING_MOVED,
        Family::Orthogonal => ORTHOGONAL_MOVED,
        _ => "",
    };
    let tag = match family {
        Family::King => CHECKED_TAG,
        _ => CHILD_TAG,
    };
    let child_head = format!("%{tag}\n#stack:\n${{1}}{moved_line}{X}: {x}{moved}\n#b: ");
    (pattern, format!("{parent}{child_head}{child}"))
}

/// What a move leaves on its target square.
#[derive(Clone, Copy, Debug)]
struct Landing {
    /// The target's mark (`$O`: the origin's digit).
    mark: &'static str,
    /// For a promotion: its UCI letter and the letter of the piece promoted to.
    promotion: Option<(char, char)>,
}

impl Landing {
    /// The moving piece's own digit.
    const ORIGIN: Landing = Landing::plain("$O");

    const fn plain(mark: &'static str) -> Landing {
        Landing {
            mark,
            promotion: None,
        }
    }
}

/// What a move rule matches after its board segments ([`fork_rule`]).
struct Tail<'a> {
    /// The UCI variable, whose line (right after the board) holds the origin square and
    /// its windows (see [`origin_rules`]).
    uci: Option<&'a str>,
    /// The target's file and board-row offsets from the origin (a row down is +1).
    delta: (i32, i32),
    /// A pattern the lines after the board (the UCI line's included) must start with,
    /// such as a variable's value (then `LINES` and the variable).
    after: String,
}

/// The move of the piece on the origin (`origin` class) by `k` steps of `step` (`ray`
/// is `(step, k)`) onto a square of class `target`, the squares between empty; the
/// child's target gets `mark` (`$O`: the origin's digit).
fn step_move(
    family: Family,
    origin: &str,
    (step, k): (i32, usize),
    target: &str,
    mark: Landing,
    origin_range: Option<(usize, usize)>,
    uci: Option<&str>,
) -> (String, String) {
    let Landing { mark, promotion } = mark;
    // The step's file and row offsets (a step's file offset is at most 2 either way).
    let drow = (step + 5 * step.signum()) / 10;
    let k_ = k as i32;
    let tail = Tail {
        uci,
        delta: ((step - 10 * drow) * k_, drow * k_),
        after: String::new(),
    };
    let between = ray_between(step.unsigned_abs() as usize, k);
    let d = step * k as i32;
    // The board offsets the origin can have: the rows from which the move stays on the
    // board (`(step, k)` moves `drow * k` rows), within `origin_range` if given.
    let rows = drow * k_;
    let (first_row, last_row) = ((-rows).max(0) as usize, (7 - rows).min(7) as usize);
    let (lo, hi) = origin_range.unwrap_or((0, 77));
    let (lo, hi) = (lo.max(10 * first_row), hi.min(10 * last_row + 7));
    // The squares before the first one matched: as many as that square's offset (the
    // origin's, or the target's when it comes first), and none of them a digit, since a
    // one-piece thread's board holds one, its origin's (the class adds no byte class to
    // the lazy DFAs: the pattern names those digits anyway). The linear search then
    // resolves the groups giving back at most the move's length from the origin (with
    // `[^\n]*`, from the line's end: most of a move rule's cost on the wide positions when
    // the target comes first), and the lazy DFA only tracks the targets a move from the
    // possible rows can reach (a long ray's DFA no longer outgrows its cache).
    let not_origin = format!(
        "[^\n{}]",
        origin.trim_start_matches('[').trim_end_matches(']')
    );
    let before = |lo: i32, hi: i32| {
        if lo <= 0 && hi >= 77 {
            format!("{not_origin}*")
        } else {
            format!("{not_origin}{{{lo},{hi}}}")
        }
    };
    if d > 0 {
        fork_rule(
            family,
            &[
                Seg::Keep(before(lo as i32, hi as i32)),
                Seg::Origin(origin.to_string(), "."),
                Seg::Keep(between),
                Seg::Target(target.to_string(), mark),
            ],
            promotion,
            &tail,
        )
    } else {
        fork_rule(
            family,
            &[
                Seg::Keep(before((lo as i32 + d).max(0), (hi as i32 + d).max(0))),
                Seg::Target(target.to_string(), mark),
                Seg::Keep(between),
                Seg::Origin(origin.to_string(), "."),
            ],
            promotion,
            &tail,
        )
    }
}

/// Step 1: one thread per piece of `side` (two for a queen), its square holding the
/// role's origin digit, paused under its [`Family`]'s tag. With `uci`, the UCI variable
/// `u` gets a line right after the board, holding the origin square.
fn split_by_piece(side: Side, uci: Option<&Var>) -> Rules {
    let ours = side.ours();
    let mut rules = vec![(format!("({HEAD}{LINES}#b: )"), "${1}^".to_string())];
    // The copy with the picked piece is paused under `%mq` and the piece's letter, so
    // that the next peels visit only the threads still holding a cursor and each role
    // rule below only the threads of its piece.
    let peel = (
        format!("{HEAD}({LINES}#b: )([^\n^]*)\\^([^\n{ours}]*)([{ours}])([^\n]*\n[^%]*)"),
        format!(
            "%{PICKED_TAG}${{4}}\n#stack:\n${{1}}${{2}}${{3}}@${{5}}{HEAD}${{1}}${{2}}${{3}}${{4}}^${{5}}"
        ),
    );
    rules.extend(std::iter::repeat_n(peel, 16));
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

/// Step 2: the move rules of `side` within `scope`; with [`Scope::captures_only`], only
/// the captures (en passant included) and the promotions (quiet ones included): no quiet
/// move, no castling.
fn move_rules(side: Side, castling: &Var, scope: Scope, uci: Option<&str>) -> Rules {
    let captures = scope.captures_only;
    let mut rules = Vec::new();
    let target = if captures {
        side.enemy()
    } else {
        side.target()
    };
    let enemy = side.enemy();
    // Knights.
    for step in KNIGHT_STEPS {
        rules.push(step_move(
            Family::Knight,
            "2",
            (step, 1),
            &target,
            Landing::ORIGIN,
            None,
            uci,
        ));
    }
    // Sliders, and the king's single steps.
    for (steps, sliders, family) in [
        (ORTHOGONAL_STEPS, "[45]", Family::Orthogonal),
        (DIAGONAL_STEPS, "[35]", Family::Diagonal),
    ] {
        for step in steps {
            rules.push(step_move(
                Family::King,
                "6",
                (step, 1),
                &target,
                Landing::ORIGIN,
                None,
                uci,
            ));
            for k in 1..=7 {
                rules.push(step_move(
                    family,
                    sliders,
                    (step, k),
                    &target,
                    Landing::ORIGIN,
                    None,
                    uci,
                ));
            }
        }
    }
    // Pawns. `forward` is the push direction; origin ranges by board offset.
    let (forward, quiet_range, start_range, last_range) = match side {
        Side::White => (-10, (20, 69), (60, 67), (10, 17)),
        Side::Black => (10, (10, 59), (10, 17), (60, 67)),
    };
    let caps = [forward - 1, forward + 1];
    if !captures {
        rules.push(step_move(
            Family::Pawn,
            "1",
            (forward, 1),
            "\\.",
            Landing::plain("1"),
            Some(quiet_range),
            uci,
        ));
        rules.push(step_move(
            Family::Pawn,
            "1",
            (forward, 2),
            "\\.",
            Landing::plain("7"),
            Some(start_range),
            uci,
        ));
    }
    // One pawn step onto `target` (empty square or enemy), landing as `landing`.
    let pawn_step = |direction: i32, target: &str, landing: Landing, range: (usize, usize)| {
        step_move(
            Family::Pawn,
            "1",
            (direction, 1),
            target,
            landing,
            Some(range),
            uci,
        )
    };
    for cap in caps {
        rules.push(pawn_step(cap, &enemy, Landing::plain("1"), quiet_range));
    }
    for (uci, mark) in PROMOTION_MARKS {
        if scope.queen_only && uci != 'q' {
            continue;
        }
        let role = "pnbrqk".find(uci).expect("a promotion letter is a role");
        let promotion = Some((uci, side.letter(role)));
        let mark: &'static str = match mark {
            '8' => "8",
            '9' => "9",
            '0' => "0",
            _ => "=",
        };
        let landing = Landing { mark, promotion };
        rules.push(pawn_step(forward, "\\.", landing, last_range));
        for cap in caps {
            rules.push(pawn_step(cap, &enemy, landing, last_range));
        }
    }
    // En passant: per file of the en-passant square, from either side.
    let their_pawn = side.other().letter(0).to_string();
    // The parent's en-passant square waits in its own line (see `ep_aside_rule`).
    let tail = |square: &str, df: i32, drow: i32| Tail {
        uci,
        delta: (df, drow),
        after: format!("{LINES}{EP_ASIDE}: {square}\n"),
    };
    for file in 0..8usize {
        let name = (b'a' + file as u8) as char;
        match side {
            Side::White => {
                let square = format!("{name}6");
                let t = 20 + file;
                // From the left (file - 1): origin at t + 9, captured pawn at t + 10.
                rules.push(fork_rule(
                    Family::Pawn,
                    &[
                        Seg::Keep(any(t)),
                        Seg::Target("\\.".into(), "1"),
                        Seg::Keep(any(8)),
                        Seg::Origin("1".into(), "."),
                        Seg::Swap(their_pawn.clone(), "."),
                    ],
                    None,
                    &tail(&square, 1, -1),
                ));
                // From the right (file + 1): captured pawn at t + 10, origin at t + 11.
                rules.push(fork_rule(
                    Family::Pawn,
                    &[
                        Seg::Keep(any(t)),
                        Seg::Target("\\.".into(), "1"),
                        Seg::Keep(any(9)),
                        Seg::Swap(their_pawn.clone(), "."),
                        Seg::Origin("1".into(), "."),
                    ],
                    None,
                    &tail(&square, -1, -1),
                ));
            }
            Side::Black => {
                let square = format!("{name}3");
                let t = 50 + file;
                // From the right (file + 1): captured at t - 10, origin at t - 9.
                rules.push(fork_rule(
                    Family::Pawn,
                    &[
                        Seg::Keep(any(t - 10)),
                        Seg::Swap(their_pawn.clone(), "."),
                        Seg::Origin("1".into(), "."),
                        Seg::Keep(any(8)),
                        Seg::Target("\\.".into(), "1"),
                    ],
                    None,
                    &tail(&square, -1, 1),
                ));
                // From the left (file - 1): origin at t - 11, captured at t - 10.
                rules.push(fork_rule(
                    Family::Pawn,
                    &[
                        Seg::Keep(any(t - 11)),
                        Seg::Origin("1".into(), "."),
                        Seg::Swap(their_pawn.clone(), "."),
                        Seg::Keep(any(9)),
                        Seg::Target("\\.".into(), "1"),
                    ],
                    None,
                    &tail(&square, 1, 1),
                ));
            }
        }
    }
    // Castling: the king's start becomes `a`, the crossed square `c`, the king's target
    // its digit (its letter with the UCI text); the rook moves after the legality check.
    let rights = |letters: &str, df: i32| Tail {
        uci,
        delta: (df, 0),
        after: format!("{}{letters}", var(castling.name())),
    };
    let (home, rook, short, long) = match side {
        Side::White => (70, "R", "K", "K?Q"),
        Side::Black => (0, "r", "[KQ]*k", "[KQk]*q"),
    };
    let king: &'static str = match (uci, side) {
        (None, _) => "6",
        (Some(_), Side::White) => "K",
        (Some(_), Side::Black) => "k",
    };
    if !captures {
        rules.push(fork_rule(
            Family::King,
            &[
                Seg::Keep(any(home + 4)),
                Seg::Origin("6".into(), "a"),
                Seg::Swap("\\.".into(), "c"),
                Seg::Swap("\\.".into(), king),
                Seg::Keep(rook.into()),
            ],
            None,
            &rights(short, 2),
        ));
        rules.push(fork_rule(
            Family::King,
            &[
                Seg::Keep(format!("{}{rook}\\.", any(home))),
                Seg::Swap("\\.".into(), king),
                Seg::Swap("\\.".into(), "c"),
                Seg::Origin("6".into(), "a"),
            ],
            None,
            &rights(long, -2),
        ));
    }
    // The one-piece threads go (the children wake up after the legality rules).
    rules.push((format!("%m{FAMILY_TAGS}\n[^%]*"), String::new()));
    rules
}

/// The attack patterns on a square of class `king` by the pieces of `by`, in families
/// (each family becomes one alternation).
fn attack_families(king: &str, by: Side, empty: &str) -> Vec<Vec<String>> {
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
fn enemy_slider_axes(side: Side) -> [([i32; 4], String); 2] {
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
fn lined_up(side: Side, king: char) -> Vec<String> {
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
const EP_ASIDE: &str = "#_ep";

/// On the parents before they split: an en-passant square moves to its own line
/// [`EP_ASIDE`] (which only the en-passant rules read) and the variable becomes `-`, the
/// value every child has unless it is a double push. The children inherit `-` instead
/// of each resetting the square (a rule over every child), and drop the line (a rule
/// that visits only the children of a parent with an en-passant square).
fn ep_aside_rule(ep: &Var) -> (String, String) {
    (
        format!("({HEAD}{})([a-h][36])\n", var(ep.name())),
        format!("${{1}}-\n{EP_ASIDE}: ${{2}}\n"),
    )
}

/// Rules on the parents of `side` before they split: the [`EXPOSED`] guard line goes
/// right before the board of a parent in check, with an enemy slider [`lined_up`] with
/// its king, or with an en-passant square (one rule each, so a parent may get several).
/// Every one-piece thread and child inherits it; see [`legality_rules`].
fn exposed_rules(side: Side, ep: &Var) -> Rules {
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
/// (the representation of [`super::board`]) where the king of `white`'s side (else
/// black's) is attacked by a piece of the other side.
pub fn king_attacked(white: bool) -> Vec<String> {
    let side = if white { Side::White } else { Side::Black };
    attack_families(&side.letter(5).to_string(), side.other(), "\\.")
        .into_iter()
        .map(|family| family.join("|"))
        .collect()
}

/// The start of a child in generation, up to its board's first square: its `#_x` line
/// (which only children in generation have) and the board line's name. Child rules start
/// here rather than at the thread's head, so that each one reads the few lines it needs.
const CHILD_BOARD: &str = "#_x: [^\n]*\n#b: ";

/// Step 3 and 4 on the children of `side`: illegal children deleted, the move's UCI
/// text (if `uci`), the state variables (if `full`), the board cleaned. Without `full`
/// only legality runs (the children are counted, not kept).
fn child_rules(side: Side, pos: &Position, uci: Option<&Var>, full: bool) -> Rules {
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
    // The `#_x` line goes. Only children in generation hold one (one each), so the rule
    // starts at the line itself: the fast executor jumps from one to the next instead of
    // walking every child's lines from its head.
    rules.push((format!("{X}: [^\n]*\n"), String::new()));
    rules
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
fn legality_rules(side: Side) -> Rules {
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

/// Rules on the parents before they split (with `full`): the half-move clock gains one
/// (a child that captures or moves a pawn resets it), the side to move flips and, after
/// black's move, the full-move number gains one. Every child inherits them, so they run
/// once per position rather than once per move.
fn parent_rules(side: Side, pos: &Position) -> Rules {
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

/// The square table a UCI line holds while the origin square is being named: the files
/// padded with [`WINDOW_CENTRE`] `x` on either side, then the ranks from the board's top
/// row down (row `r` of the board is rank `8 - r`) padded with `0` the same way.
const SQUARE_TABLE: &str = "xxxxxxxabcdefghxxxxxxx0000000876543210000000";
/// The class of a file table's characters in [`SQUARE_TABLE`].
const FILE_CLASS: &str = "[a-hx]";
/// The class of a rank table's characters in [`SQUARE_TABLE`].
const RANK_CLASS: &str = "[0-8]";
/// The length of a window: the files (or ranks) from 7 before a square's to 7 after it.
const WINDOW: usize = 15;
/// Where a window holds its square's own file (or rank).
const WINDOW_CENTRE: usize = 7;

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
fn halving_rules(board: &str, u: &str, marks: &str, prefix: &str) -> Rules {
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
fn naming_rules(board: &str, u: &str, marks: &str, prefix: &str) -> Rules {
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
const PIECE_BOARD: &str = "#_p: [A-Za-z]\n#b: ";

/// The origin square of a one-piece thread (its origin digit) into the UCI variable
/// `u`, which then holds the square's name and its two windows: the [`WINDOW`] files
/// centred on the square's (padded with `x` past the board's edge), then the rows'
/// ranks the same way. A move rule then reads its target's file and rank at fixed
/// places of the windows, [`WINDOW_CENTRE`] plus its file and row offsets (see
/// [`fork_rule`]): the children are named without a rule of their own.
fn origin_rules(u: &str) -> Rules {
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
fn rights_rules(side: Side, c: &Var) -> Rules {
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

/// Generation for one side, on the active threads (all of that side to move).
#[track_caller]
fn generate(
    b: &mut Builder,
    side: Side,
    pos: &Position,
    uci: Option<&Var>,
    full: bool,
    scope: Scope,
) {
    let mut writes: Vec<&Var> = pos.vars().to_vec();
    if let Some(u) = uci {
        writes.push(u);
    }
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
    b.rules("child", child_rules(side, pos, uci, full), &reads, &writes);
}

/// Generation for both sides (an `if_else` on the side to move).
#[track_caller]
fn generate_both(b: &mut Builder, pos: &Position, uci: Option<&Var>, full: bool, scope: Scope) {
    let white = b.eq_text(&pos.turn, "w");
    b.if_else(
        &white,
        |b| generate(b, Side::White, pos, uci, full, scope),
        |b| generate(b, Side::Black, pos, uci, full, scope),
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
        generate(b, Side::White, pos, None, true, scope);
    } else {
        let white = b.eq_text(&pos.turn, "w");
        b.if_else(
            &white,
            |b| generate(b, Side::White, pos, None, true, scope),
            |b| generate(b, Side::Black, pos, None, true, scope),
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
    generate_both(b, pos, uci_var.as_ref(), true, scope);
    let moved = options.keep_stuck.then(|| {
        // A copy followed by a child had a move: it goes. (The rule starts at the few
        // copies, not at every child.)
        let mut rules = vec![
            (format!("%{STUCK_TAG}\n[^%]*(%%\n)"), "${1}".to_string()),
            (format!("({HEAD})"), "${1}T\n".to_string()),
        ];
        let uci_line = uci_var
            .as_ref()
            .map(|u| format!("#{}: \n", u.name()))
            .unwrap_or_default();
        rules.push((
            format!("%{STUCK_TAG}\n#stack:\n([^%]*)"),
            format!("%%\n#stack:\nF\n${{1}}{uci_line}"),
        ));
        let mut reads: Vec<&Var> = pos.vars().to_vec();
        if let Some(u) = &uci_var {
            reads.push(u);
        }
        b.rules_value("stuck", rules, &reads, Type::Bool)
    });
    Children { uci, moved }
}

/// [`fork_legal_moves`] as the move-listing programs use it: every active thread
/// becomes one thread per legal move with the move's UCI text (a thread without a move
/// disappears). Returns the UCI text.
#[track_caller]
pub fn fork_legal_uci(b: &mut Builder, pos: &Position) -> Value<kind::Str> {
    let options = MoveGen {
        uci: true,
        keep_stuck: false,
    };
    let children = fork_legal_moves(b, pos, 218, options);
    children.uci.expect("asked for the UCI text")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::chess::board::square_name;

    /// Applies `rules` one after the other as the reference executor does.
    fn apply(rules: &Rules, state: String) -> String {
        rules.iter().fold(state, |s, (p, r)| {
            let re = regex::Regex::new(p).expect("a valid pattern");
            re.replace_all(&s, r.as_str()).into_owned()
        })
    }

    /// The windows a UCI line holds after the origin square at `offset`, computed from
    /// the board's geometry: the files 7 left to 7 right of the square's (`x` off the
    /// board), then the ranks of the rows 7 above to 7 below its row (`0` off the board).
    fn windows(offset: usize) -> String {
        let (row, file) = ((offset / 10) as i32, (offset % 10) as i32);
        let files = (file - 7..=file + 7).map(|f| match f {
            0..=7 => (b'a' + f as u8) as char,
            _ => 'x',
        });
        let ranks = (row - 7..=row + 7).map(|r| match r {
            0..=7 => (b'8' - r as u8) as char,
            _ => '0',
        });
        files.chain(ranks).collect()
    }

    /// The origin rules, applied one after the other as the reference does, name every
    /// square of the board and leave its windows.
    #[test]
    fn origin_rules_name_every_square() {
        for offset in (0..80).filter(|o| o % 10 < 8) {
            let name = square_name(offset).expect("a square");
            let mut board = crate::chess::board::START_BOARD.replace(['P', 'p'], ".");
            board.replace_range(offset..=offset, "3");
            let origin = format!("%mb\n#stack:\n#_p: B\n#b: {board}\n#u: {SQUARE_TABLE}\n#t: w\n");
            let want = format!("#b: {board}\n#u: {name}{}\n#t: w\n", windows(offset));
            let out = apply(&origin_rules("u"), origin);
            assert!(out.ends_with(&want), "{name}: {out:?}");
        }
    }

    /// The one-piece thread of `letter` (origin digit `digit`, family tag `tag`) on
    /// `offset` of `board`, as the split and origin rules leave it, with `lines` after
    /// the UCI line.
    fn piece_thread(
        tag: &str,
        letter: char,
        digit: char,
        board: &str,
        offset: usize,
        lines: &str,
    ) -> String {
        let mut board = board.to_string();
        board.replace_range(offset..=offset, &digit.to_string());
        let name = square_name(offset).expect("a square");
        format!(
            "%{tag}\n#stack:\n#_p: {letter}\n#b: {board}\n#u: {name}{}\n{lines}",
            windows(offset)
        )
    }

    /// The moves of a lone piece of the family `tag` (`mn`, `mb`, `mr` or `mk`) on
    /// `offset` of an empty board, from the board's geometry.
    fn lone_moves(tag: &str, offset: usize) -> usize {
        let (row, file) = ((offset / 10) as i32, (offset % 10) as i32);
        let on = |r: i32, f: i32| (0..8).contains(&r) && (0..8).contains(&f);
        let knight = [
            (1, 2),
            (2, 1),
            (-1, 2),
            (-2, 1),
            (1, -2),
            (2, -1),
            (-1, -2),
            (-2, -1),
        ];
        let diagonal = [(1, 1), (1, -1), (-1, 1), (-1, -1)];
        let orthogonal = [(1, 0), (-1, 0), (0, 1), (0, -1)];
        let king: Vec<(i32, i32)> = diagonal.iter().chain(&orthogonal).copied().collect();
        let (steps, slides): (&[(i32, i32)], bool) = match tag {
            "mn" => (&knight, false),
            "mb" => (&diagonal, true),
            "mr" => (&orthogonal, true),
            _ => (&king, false),
        };
        let ray = |&(dr, df): &(i32, i32)| {
            let (mut r, mut f, mut n) = (row + dr, file + df, 0);
            while on(r, f) {
                n += 1;
                if !slides {
                    break;
                }
                (r, f) = (r + dr, f + df);
            }
            n
        };
        steps.iter().map(ray).sum()
    }

    /// Every child the move rules make has the UCI line of its move: the origin, then
    /// the square where its board gained the moving piece's letter (the king's when
    /// castling), then a promotion's letter; for every family from every square of an
    /// empty board, and for en passant and castling. A lone knight, bishop, rook, queen
    /// or king has exactly the moves the board's geometry gives it (the move rules bound
    /// the squares before the origin by the rows a move can start from).
    #[test]
    fn move_rules_name_every_target() {
        let empty = "........//".repeat(8);
        let castling = Var::new("c");
        // The tags of the children the move rules make.
        let tags = regex::Regex::new("%m[gc]\n").expect("a valid pattern");
        for side in [Side::White, Side::Black] {
            let rules: Vec<(regex::Regex, String)> =
                move_rules(side, &castling, Scope::ALL, Some("u"))
                    .into_iter()
                    .map(|(p, r)| (regex::Regex::new(&p).expect("a valid pattern"), r))
                    .collect();
            let mut threads = Vec::new();
            for offset in (0..80).filter(|o| o % 10 < 8) {
                let pieces = [
                    ("mn", 1, '2'),
                    ("mb", 2, '3'),
                    ("mr", 3, '4'),
                    ("mb", 4, '5'),
                    ("mr", 4, '5'),
                    ("mk", 5, '6'),
                ];
                for (tag, role, digit) in pieces {
                    let letter = side.letter(role);
                    let thread =
                        piece_thread(tag, letter, digit, &empty, offset, "#c: -\n#_ep: -\n");
                    threads.push((thread, Some(lone_moves(tag, offset))));
                }
                if (10..70).contains(&offset) {
                    let guard = if (10..20).contains(&offset) || (60..70).contains(&offset) {
                        format!("{PROMOTING}: \n")
                    } else {
                        String::new()
                    };
                    let pawn = piece_thread(
                        "mp",
                        side.letter(0),
                        '1',
                        &empty,
                        offset,
                        "#c: -\n#_ep: -\n",
                    );
                    threads.push((pawn.replacen("#_p: ", &format!("{guard}#_p: "), 1), None));
                }
            }
            // En passant from both sides onto d6 (white) or d3 (black), and castling
            // both ways with every right.
            let (ep, pawn_row, their_pawn) = match side {
                Side::White => ("d6", 30, 'p'),
                Side::Black => ("d3", 40, 'P'),
            };
            for from in [pawn_row + 2, pawn_row + 4] {
                let mut board = empty.clone();
                board.replace_range(pawn_row + 3..=pawn_row + 3, &their_pawn.to_string());
                let lines = format!("#c: -\n#_ep: {ep}\n");
                let thread = piece_thread("mp", side.letter(0), '1', &board, from, &lines);
                threads.push((thread, None));
            }
            let home = match side {
                Side::White => 70,
                Side::Black => 0,
            };
            let mut board = empty.clone();
            let rook = side.letter(3).to_string();
            board.replace_range(home..=home, &rook);
            board.replace_range(home + 7..=home + 7, &rook);
            let castling = piece_thread(
                "mk",
                side.letter(5),
                '6',
                &board,
                home + 4,
                "#c: KQkq\n#_ep: -\n",
            );
            threads.push((castling, None));
            let mut children = 0;
            for (thread, expected) in threads {
                let line = |text: &str, name: &str| {
                    text.lines()
                        .find_map(|l| l.strip_prefix(name))
                        .expect("the line")
                        .to_string()
                };
                let (parent, origin) = (line(&thread, "#b: "), line(&thread, "#u: "));
                let (letter, origin) = (line(&thread, "#_p: "), &origin[..2]);
                let out = rules.iter().fold(thread.clone(), |s, (re, r)| {
                    re.replace_all(&s, r.as_str()).into_owned()
                });
                let made: Vec<&str> = tags.split(&out).skip(1).collect();
                if let Some(expected) = expected {
                    assert_eq!(made.len(), expected, "{thread}{out}");
                }
                for child in made {
                    let (board, uci) = (line(child, "#b: "), line(child, "#u: "));
                    let target = (0..board.len())
                        .find(|&i| {
                            let c = board.as_bytes()[i] as char;
                            side.ours().contains(c) && parent.as_bytes()[i] as char != c
                        })
                        .expect("the moved piece");
                    let landed = board.as_bytes()[target] as char;
                    assert_eq!(uci[..2], *origin, "{thread}{child}");
                    assert_eq!(uci[2..4], square_name(target).expect("a square"), "{child}");
                    match uci.len() {
                        4 => assert_eq!(landed.to_string(), letter, "{child}"),
                        5 => assert_eq!(uci[4..], landed.to_ascii_lowercase().to_string()),
                        _ => panic!("{child}"),
                    }
                    children += 1;
                }
            }
            // 8 knights' and kings' moves at most per square, 13 or 14 a rook's, up to
            // 27 a queen's: many children, all checked.
            assert!(children > 1000, "{children}");
        }
    }
}
