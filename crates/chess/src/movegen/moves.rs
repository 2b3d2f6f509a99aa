//! Step 2 of the generation: one thread per pseudo-legal move, each rule a stride
//! pattern from the origin digit to a target square that appends a paused copy of the
//! thread with the move made (see the module doc of [`super`]).

use super::*;
use crate::board::{DIAGONAL_STEPS, KNIGHT_STEPS, ORTHOGONAL_STEPS, PROMOTION_MARKS};
use crate::fragments::{LINE, LINES, any, ray_between, var};
use regex_chess_compiler::ir::Var;

/// A rule that, where the board of a one-piece thread of `family` matches `segs` (from
/// its first character), appends a paused copy of the thread with the move made.
///
/// The one-piece thread holds its piece's letter in a line `#_p: ` right before the
/// board; the child holds instead `#_x: ` and the target square's old content, then the
/// piece's letter or, for a `promotion` (UCI letter, piece letter), the pawn's letter and
/// both letters of the promotion: the child rules read the move from that line.
pub(super) fn fork_rule(
    family: Family,
    segs: &[Seg],
    promotion: Option<(char, char)>,
    tail: &Tail,
) -> (String, String) {
    fork_rule_any(family, &[(segs, tail)], promotion)
}

/// The groups of one alternative of a move rule's pattern ([`fork_rule_any`]), by role.
struct Groups {
    /// The alternative's pattern, its groups numbered on from the rule's common ones.
    pattern: String,
    /// One group per board segment.
    segs: Vec<usize>,
    /// The groups after the board (see [`fork_rule`]'s tail): without the UCI text, the
    /// lines up to `after` (when it is not empty) and the rest of the thread; with it,
    /// the UCI line and the rest, its head, the target's file, its rank, the rest.
    tail: Vec<usize>,
}

/// [`fork_rule`] over alternatives of one shape (the same segment kinds and texts in the
/// same order, the same kind of tail), of which at most one can match a thread, such as
/// a slider's captures along one direction at each distance: one rule, one pattern
/// alternative each. The templates write each group role as the alternatives' groups
/// side by side: a group of an alternative that did not match expands to nothing, so
/// they give the matching alternative's child. One rule in place of several visits each
/// thread of the family once instead of once per alternative.
pub(super) fn fork_rule_any(
    family: Family,
    alternatives: &[(&[Seg], &Tail)],
    promotion: Option<(char, char)>,
) -> (String, String) {
    let (segs, tail) = alternatives[0];
    // A segment's kind and the text the child gets there: what the templates write once.
    let shape = |s: &[Seg]| -> Vec<(std::mem::Discriminant<Seg>, Option<&str>)> {
        s.iter()
            .map(|seg| {
                let text = match seg {
                    Seg::Keep(_) => None,
                    Seg::Swap(_, t) | Seg::Origin(_, t) | Seg::Target(_, t) => Some(*t),
                };
                (std::mem::discriminant(seg), text)
            })
            .collect()
    };
    for (other, other_tail) in alternatives {
        assert!(shape(other) == shape(segs), "alternatives of one shape");
        assert_eq!(other_tail.uci, tail.uci, "alternatives of one shape");
        assert_eq!(other_tail.after.is_empty(), tail.after.is_empty());
    }
    let head = family.head();
    // A promotion needs the guard line (see `split_by_piece`); the child drops it.
    let guard = match promotion {
        Some(_) => format!("{PROMOTING}: \n"),
        None => String::new(),
    };
    let mut next = 3;
    let groups: Vec<Groups> = alternatives
        .iter()
        .map(|(segs, tail)| alternative_groups(segs, tail, &mut next))
        .collect();
    let body = match &groups[..] {
        [one] => one.pattern.clone(),
        many => {
            let parts: Vec<&str> = many.iter().map(|g| g.pattern.as_str()).collect();
            format!("(?:{})", parts.join("|"))
        }
    };
    let pattern = format!("{head}({LINES}){guard}#_p: ([A-Za-z])\n#b: {body}");
    // A role's groups side by side.
    let side_by_side = |group: &dyn Fn(&Groups) -> usize| -> String {
        groups
            .iter()
            .map(|g| format!("${{{}}}", group(g)))
            .collect()
    };
    let mut parent = format!("{head}${{1}}{guard}#_p: ${{2}}\n#b: ");
    let mut child = String::new();
    let origin = segs
        .iter()
        .position(|s| matches!(s, Seg::Origin(..)))
        .map(|i| side_by_side(&|g| g.segs[i]))
        .unwrap_or_default();
    let mut captured = None;
    // With the UCI text: what the target gets, the moving piece's letter (`#_p`'s) or
    // the letter of the piece promoted to.
    let landed: Option<String> = tail
        .uci
        .map(|_| promotion.map_or("${2}".to_string(), |(_, piece)| piece.to_string()));
    for (i, seg) in segs.iter().enumerate() {
        let group = side_by_side(&|g| g.segs[i]);
        parent.push_str(&group);
        let text = match seg {
            Seg::Keep(_) => None,
            Seg::Swap(_, t) | Seg::Origin(_, t) => Some(*t),
            Seg::Target(p, t) => {
                // A pawn's quiet move (its target can only be empty) writes `_`.
                let quiet_pawn = family == Family::Pawn && p == "\\.";
                captured = Some(if quiet_pawn {
                    "_".to_string()
                } else {
                    group.clone()
                });
                // With the UCI text the target gets the moved piece's letter at once (the
                // children are named without reading a mark, see `child_rules`).
                Some(landed.as_deref().unwrap_or(t))
            }
        };
        match text {
            None => child.push_str(&group),
            Some(t) => child.push_str(&t.replace("$O", &origin)),
        }
    }
    let tail_group = |j: usize| side_by_side(&|g| g.tail[j]);
    match tail.uci {
        // The lines up to `after` (if any) and the rest of the thread, as they are.
        None => {
            for j in 0..groups[0].tail.len() {
                parent.push_str(&tail_group(j));
                child.push_str(&tail_group(j));
            }
        }
        // The child's UCI line becomes the origin and the target, without the windows.
        Some(_) => {
            parent.push_str(&format!("{}{}", tail_group(0), tail_group(4)));
            // A promotion's UCI letter ends the line.
            let letter = promotion
                .map(|(uci, _)| uci.to_string())
                .unwrap_or_default();
            child.push_str(&format!(
                "{}{}{}{letter}{}",
                tail_group(1),
                tail_group(2),
                tail_group(3),
                tail_group(4)
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

/// One alternative's pattern (its board segments, then its tail) with its groups,
/// numbered from `next` on (left past them).
fn alternative_groups(segs: &[Seg], tail: &Tail, next: &mut usize) -> Groups {
    let mut take = || {
        *next += 1;
        *next - 1
    };
    let mut pattern = String::new();
    let mut seg_groups = Vec::new();
    for seg in segs {
        let (Seg::Keep(p) | Seg::Swap(p, _) | Seg::Origin(p, _) | Seg::Target(p, _)) = seg;
        pattern.push_str(&format!("({p})"));
        seg_groups.push(take());
    }
    let mut tail_groups = Vec::new();
    match tail.uci {
        // The rest of the board line and the lines up to `after` in one group, then
        // the rest of the thread.
        None => {
            if !tail.after.is_empty() {
                pattern.push_str(&format!("({LINE}\n{})", tail.after));
                tail_groups.push(take());
            }
            pattern.push_str("([^%]*)");
            tail_groups.push(take());
        }
        // The UCI line holds the origin square and its windows (see `origin_rules`):
        // the target's file and rank stand at fixed places in them. (The board part has
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
            tail_groups.extend((0..5).map(|_| take()));
        }
    }
    Groups {
        pattern,
        segs: seg_groups,
        tail: tail_groups,
    }
}

/// What a move leaves on its target square.
#[derive(Clone, Copy, Debug)]
pub(super) struct Landing {
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
pub(super) struct Tail<'a> {
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
pub(super) fn step_move(
    family: Family,
    origin: &str,
    ray: (i32, usize),
    target: &str,
    mark: Landing,
    origin_range: Option<(usize, usize)>,
    uci: Option<&str>,
) -> (String, String) {
    let (segs, tail) = step_shape(origin, ray, target, mark.mark, origin_range, uci);
    fork_rule(family, &segs, mark.promotion, &tail)
}

/// A slider's captures along `step`, at every distance from 1 to 7, in one rule (see
/// [`fork_rule_any`]: the first piece along a ray is the only one it can take, so at
/// most one distance matches a thread).
pub(super) fn ray_captures(
    family: Family,
    origin: &str,
    step: i32,
    target: &str,
    uci: Option<&str>,
) -> (String, String) {
    let shapes: Vec<(Vec<Seg>, Tail)> = (1..=7)
        .map(|k| step_shape(origin, (step, k), target, "$O", None, uci))
        .collect();
    let alternatives: Vec<(&[Seg], &Tail)> = shapes.iter().map(|(s, t)| (&s[..], t)).collect();
    fork_rule_any(family, &alternatives, None)
}

/// The board segments and tail of [`step_move`]'s rule.
fn step_shape<'a>(
    origin: &str,
    (step, k): (i32, usize),
    target: &str,
    mark: &'static str,
    origin_range: Option<(usize, usize)>,
    uci: Option<&'a str>,
) -> (Vec<Seg>, Tail<'a>) {
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
    let segs = if d > 0 {
        vec![
            Seg::Keep(before(lo as i32, hi as i32)),
            Seg::Origin(origin.to_string(), "."),
            Seg::Keep(between),
            Seg::Target(target.to_string(), mark),
        ]
    } else {
        vec![
            Seg::Keep(before((lo as i32 + d).max(0), (hi as i32 + d).max(0))),
            Seg::Target(target.to_string(), mark),
            Seg::Keep(between),
            Seg::Origin(origin.to_string(), "."),
        ]
    };
    (segs, tail)
}

/// Step 2: the move rules of `side` within `scope`; with [`Scope::captures_only`], only
/// the captures (en passant included) and the promotions (quiet ones included): no quiet
/// move, no castling.
pub(super) fn move_rules(side: Side, castling: &Var, scope: Scope, uci: Option<&str>) -> Rules {
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
            // Captures: the first piece along the ray, one rule for every distance.
            if captures {
                rules.push(ray_captures(family, sliders, step, &target, uci));
                continue;
            }
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
