//! Unit tests of the move generation's rules, applied as the reference executor does.

use super::*;
use crate::board::square_name;

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
        let mut board = crate::board::START_BOARD.replace(['P', 'p'], ".");
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
        let rules: Vec<(regex::Regex, String)> = move_rules(side, &castling, Scope::ALL, Some("u"))
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
                let thread = piece_thread(tag, letter, digit, &empty, offset, "#c: -\n#_ep: -\n");
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
