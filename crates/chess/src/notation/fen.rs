//! A native FEN parser and validator: argument parsing for the programs' inputs.
//!
//! This module checks a FEN's syntax and that it describes a position a game can reach,
//! as far as a glance at the board tells, and gives a typed [`Fen`] value. It never
//! generates moves or chooses one; the one chess fact it computes is whether a king
//! stands attacked, to refuse a position where the side not to move is in check (the
//! move that led there was illegal). What it checks:
//!
//! - one to six space-separated fields, as python-chess reads them: missing fields
//!   default to `w`, `-`, `-`, `0` and `1`;
//! - a board of 8 ranks of 8 squares, written with the letters `PNBRQKpnbrqk` and the
//!   digits `1`-`8`;
//! - exactly one king per side, no pawn on rank 1 or 8, at most 16 pieces and 8 pawns a
//!   side, and no more promoted pieces than missing pawns (a side with 8 pawns has at
//!   most 2 knights, 2 bishops, 2 rooks and 1 queen);
//! - the side to move, `w` or `b`; the side not to move is not in check;
//! - castling rights: `-` or letters from `KQkq`, each once, each backed by its king and
//!   rook on their home squares (`K` needs the white king on e1 and a white rook on h1);
//!   the X-FEN/Shredder file letters `H`, `A`, `h`, `a` are read as `K`, `Q`, `k`, `q`
//!   (other files would be Chess960, which is refused);
//! - the en passant square: `-` or a square on rank 6 when white is to move (rank 3 when
//!   black is), empty, with the square the pawn came from empty and the pawn that has
//!   just moved two squares in front of it;
//! - the halfmove clock (a number up to [`MAX_HALFMOVES`]) and the fullmove number (a
//!   number from 1 to [`MAX_FULLMOVES`]).
//!
//! Every error names the field at fault: `bad FEN: rank 3 has 9 squares`.
//! [`Fen`]'s `Display` writes the normalised six-field form (castling letters in `KQkq`
//! order, runs of empty squares merged).

use std::fmt;
use std::str::FromStr;

use super::{Castling, Color, Piece, Role, Square};

/// What is wrong with a FEN. The message names the field at fault.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum FenError {
    /// Not one to six fields.
    #[error(
        "bad FEN: expected 6 fields (board, side to move, castling, en passant, halfmove clock, fullmove number; the last 5 may be left out), found {0}"
    )]
    FieldCount(usize),
    /// The board does not have 8 ranks.
    #[error("bad FEN: the board has {0} ranks, expected 8")]
    RankCount(usize),
    /// A rank does not have 8 squares.
    #[error("bad FEN: rank {rank} has {squares} squares")]
    RankWidth {
        /// The rank, 1 to 8.
        rank: u8,
        /// How many squares it describes.
        squares: usize,
    },
    /// A character that is neither a piece letter nor a digit 1-8.
    #[error(
        "bad FEN: rank {rank} has `{found}`, which is neither a piece letter (PNBRQKpnbrqk) nor a digit 1-8"
    )]
    PieceLetter {
        /// The rank, 1 to 8.
        rank: u8,
        /// The character.
        found: char,
    },
    /// A side without exactly one king.
    #[error("bad FEN: {color} has {count} kings, expected exactly one")]
    Kings {
        /// The side.
        color: Color,
        /// How many kings it has.
        count: usize,
    },
    /// A pawn on the first or last rank.
    #[error("bad FEN: {color} pawn on {square}: no pawn can stand on rank 1 or 8")]
    BackRankPawn {
        /// Whose pawn.
        color: Color,
        /// Where.
        square: Square,
    },
    /// A side with more pieces than a game can give it.
    #[error("bad FEN: {color} has {count} {what}, at most {most} are possible")]
    TooMany {
        /// The side.
        color: Color,
        /// What is counted: `pieces`, `pawns`, or `promoted pieces (beyond 2 knights, 2 bishops, 2 rooks and 1 queen)`.
        what: &'static str,
        /// How many there are.
        count: usize,
        /// How many a game can give.
        most: usize,
    },
    /// The side not to move is in check: the last move left its king attacked.
    #[error("bad FEN: {0} is in check but it is not {0}'s move")]
    OppositeCheck(Color),
    /// The side to move is not `w` or `b`.
    #[error("bad FEN: side to move is `{0}`, expected `w` or `b`")]
    Side(String),
    /// A bad castling field.
    #[error("bad FEN: castling field `{field}`: {reason}")]
    Castling {
        /// The field as written.
        field: String,
        /// What is wrong.
        reason: String,
    },
    /// A bad en passant field.
    #[error("bad FEN: en passant field `{field}`: {reason}")]
    EnPassant {
        /// The field as written.
        field: String,
        /// What is wrong.
        reason: String,
    },
    /// The halfmove clock is not a number up to [`MAX_HALFMOVES`].
    #[error("bad FEN: halfmove clock `{0}` is not a number from 0 to {MAX_HALFMOVES}")]
    Halfmoves(String),
    /// The fullmove number is not a number from 1 to [`MAX_FULLMOVES`].
    #[error("bad FEN: fullmove number `{0}` is not a number from 1 to {MAX_FULLMOVES}")]
    Fullmoves(String),
}

/// A checked FEN: a board, the side to move, castling rights, the en passant square and
/// the clocks. Only parsing makes one, so every value satisfies the checks listed in the
/// module documentation.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Fen {
    board: [Option<Piece>; 64],
    turn: Color,
    castling: Castling,
    ep_square: Option<Square>,
    halfmoves: u32,
    fullmoves: u32,
}

/// The largest halfmove clock accepted: as many plies as the longest game has
/// ([`MAX_FULLMOVES`] moves of two plies). FIDE's 75-move rule ends a game at 150, but
/// GUIs and servers that do not apply it go on sending positions past it, and a move
/// from a clock of 150 makes 151: the rules count on (the clock only tells them that
/// fifty moves have passed).
pub const MAX_HALFMOVES: u32 = 2 * MAX_FULLMOVES;

/// The largest fullmove number accepted: no game lasts 10,000 moves (the fifty-move rule
/// ends the longest possible one before move 9,000), and the rules' counters stay far
/// from overflowing.
pub const MAX_FULLMOVES: u32 = 10_000;

/// The standard starting position.
pub const START: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

impl Fen {
    /// The starting position.
    pub fn start() -> Fen {
        START.parse().expect("the starting position is a valid FEN")
    }

    /// The piece on `square`, if any.
    pub fn piece_at(&self, square: Square) -> Option<Piece> {
        self.board[square.index()]
    }

    /// The board, `a1` first.
    pub fn board(&self) -> &[Option<Piece>; 64] {
        &self.board
    }

    /// The side to move.
    pub fn turn(&self) -> Color {
        self.turn
    }

    /// The castling rights.
    pub fn castling(&self) -> Castling {
        self.castling
    }

    /// The en passant target square, if any.
    pub fn ep_square(&self) -> Option<Square> {
        self.ep_square
    }

    /// The halfmove clock: plies since the last capture or pawn move.
    pub fn halfmoves(&self) -> u32 {
        self.halfmoves
    }

    /// The fullmove number, starting at 1 and counting black's moves.
    pub fn fullmoves(&self) -> u32 {
        self.fullmoves
    }

    /// The board field of the FEN (`rnbqkbnr/pppppppp/8/...`), normalised.
    pub fn board_text(&self) -> String {
        let mut out = String::with_capacity(72);
        for rank in (0..8u8).rev() {
            let mut empty = 0;
            for file in 0..8u8 {
                let square = Square::new(file, rank).expect("in range");
                match self.board[square.index()] {
                    None => empty += 1,
                    Some(piece) => {
                        if empty > 0 {
                            out.push((b'0' + empty) as char);
                            empty = 0;
                        }
                        out.push(piece.char());
                    }
                }
            }
            if empty > 0 {
                out.push((b'0' + empty) as char);
            }
            if rank > 0 {
                out.push('/');
            }
        }
        out
    }
}

impl fmt::Display for Fen {
    /// The normalised six-field form.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} {} {} {} {} {}",
            self.board_text(),
            self.turn.letter(),
            self.castling,
            self.ep_square
                .map_or_else(|| "-".to_string(), |s| s.to_string()),
            self.halfmoves,
            self.fullmoves
        )
    }
}

impl FromStr for Fen {
    type Err = FenError;

    fn from_str(text: &str) -> Result<Fen, FenError> {
        let mut fields: Vec<&str> = text.split_ascii_whitespace().collect();
        if fields.is_empty() || fields.len() > 6 {
            return Err(FenError::FieldCount(fields.len()));
        }
        // The fields python-chess lets a FEN leave out, with its defaults.
        let defaults = ["w", "-", "-", "0", "1"];
        fields.extend_from_slice(&defaults[fields.len() - 1..]);
        let board = parse_board(fields[0])?;
        let turn = match fields[1] {
            "w" => Color::White,
            "b" => Color::Black,
            other => return Err(FenError::Side(other.to_string())),
        };
        if in_check(&board, turn.other()) {
            return Err(FenError::OppositeCheck(turn.other()));
        }
        let castling = parse_castling(fields[2], &board)?;
        let ep_square = parse_ep(fields[3], &board, turn)?;
        let halfmoves = fields[4]
            .parse::<u32>()
            .ok()
            .filter(|&n| n <= MAX_HALFMOVES)
            .ok_or_else(|| FenError::Halfmoves(fields[4].to_string()))?;
        let fullmoves = fields[5]
            .parse::<u32>()
            .ok()
            .filter(|&n| (1..=MAX_FULLMOVES).contains(&n))
            .ok_or_else(|| FenError::Fullmoves(fields[5].to_string()))?;
        Ok(Fen {
            board,
            turn,
            castling,
            ep_square,
            halfmoves,
            fullmoves,
        })
    }
}

fn parse_board(field: &str) -> Result<[Option<Piece>; 64], FenError> {
    let ranks: Vec<&str> = field.split('/').collect();
    if ranks.len() != 8 {
        return Err(FenError::RankCount(ranks.len()));
    }
    let mut board = [None; 64];
    for (i, text) in ranks.iter().enumerate() {
        let rank = 7 - i as u8;
        let mut file = 0usize;
        for c in text.chars() {
            match c {
                '1'..='8' => file += c as usize - '0' as usize,
                _ => {
                    let piece = Piece::from_char(c).ok_or(FenError::PieceLetter {
                        rank: rank + 1,
                        found: c,
                    })?;
                    if file < 8 {
                        board[rank as usize * 8 + file] = Some(piece);
                    }
                    file += 1;
                }
            }
        }
        if file != 8 {
            return Err(FenError::RankWidth {
                rank: rank + 1,
                squares: file,
            });
        }
    }
    for color in [Color::White, Color::Black] {
        let count = board
            .iter()
            .filter(|p| {
                **p == Some(Piece {
                    color,
                    role: Role::King,
                })
            })
            .count();
        if count != 1 {
            return Err(FenError::Kings { color, count });
        }
    }
    for color in [Color::White, Color::Black] {
        check_counts(&board, color)?;
    }
    for (index, piece) in board.iter().enumerate() {
        if let Some(
            piece @ Piece {
                role: Role::Pawn, ..
            },
        ) = piece
        {
            let square = Square::from_index(index).expect("in range");
            if square.rank() == 0 || square.rank() == 7 {
                return Err(FenError::BackRankPawn {
                    color: piece.color,
                    square,
                });
            }
        }
    }
    Ok(board)
}

/// Refuses more pieces than a game can give `color`: 16 in all, 8 pawns, and each
/// piece beyond the starting 2 knights, 2 bishops, 2 rooks and 1 queen a promoted pawn.
fn check_counts(board: &[Option<Piece>; 64], color: Color) -> Result<(), FenError> {
    let count = |role| {
        board
            .iter()
            .filter(|p| **p == Some(Piece { color, role }))
            .count()
    };
    let pieces = board.iter().flatten().filter(|p| p.color == color).count();
    let pawns = count(Role::Pawn);
    let promoted: usize = [
        (Role::Knight, 2),
        (Role::Bishop, 2),
        (Role::Rook, 2),
        (Role::Queen, 1),
    ]
    .iter()
    .map(|&(role, start)| count(role).saturating_sub(start))
    .sum();
    let too_many = |what, count, most| FenError::TooMany {
        color,
        what,
        count,
        most,
    };
    if pieces > 16 {
        return Err(too_many("pieces", pieces, 16));
    }
    if pawns > 8 {
        return Err(too_many("pawns", pawns, 8));
    }
    if promoted > 8 - pawns {
        return Err(too_many(
            "promoted pieces (beyond 2 knights, 2 bishops, 2 rooks and 1 queen)",
            promoted,
            8 - pawns,
        ));
    }
    Ok(())
}

/// True when `color`'s king is attacked by a piece of the other side. Used only to refuse
/// FENs where the side not to move is in check.
fn in_check(board: &[Option<Piece>; 64], color: Color) -> bool {
    let king = Piece {
        color,
        role: Role::King,
    };
    let Some(at) = board.iter().position(|p| *p == Some(king)) else {
        return false;
    };
    let (file, rank) = ((at % 8) as i8, (at / 8) as i8);
    let enemy = color.other();
    let piece_at = |df: i8, dr: i8| {
        // Off the board, a negative coordinate wraps to 255 and `Square::new` refuses it.
        let square = Square::new((file + df) as u8, (rank + dr) as u8)?;
        board[square.index()]
    };
    let is = |piece: Option<Piece>, roles: &[Role]| {
        piece.is_some_and(|p| p.color == enemy && roles.contains(&p.role))
    };
    // An enemy pawn attacks towards our side: from one rank further up for white.
    let ahead = if color == Color::White { 1 } else { -1 };
    if [-1, 1]
        .iter()
        .any(|&df| is(piece_at(df, ahead), &[Role::Pawn]))
    {
        return true;
    }
    let knight = [
        (1, 2),
        (2, 1),
        (2, -1),
        (1, -2),
        (-1, -2),
        (-2, -1),
        (-2, 1),
        (-1, 2),
    ];
    if knight
        .iter()
        .any(|&(df, dr)| is(piece_at(df, dr), &[Role::Knight]))
    {
        return true;
    }
    let king_steps = [
        (1, 0),
        (1, 1),
        (0, 1),
        (-1, 1),
        (-1, 0),
        (-1, -1),
        (0, -1),
        (1, -1),
    ];
    if king_steps
        .iter()
        .any(|&(df, dr)| is(piece_at(df, dr), &[Role::King]))
    {
        return true;
    }
    king_steps.iter().any(|&(df, dr)| {
        let slider = if df == 0 || dr == 0 {
            Role::Rook
        } else {
            Role::Bishop
        };
        let mut step = 1;
        loop {
            let (f, r) = (file + df * step, rank + dr * step);
            if !(0..8).contains(&f) || !(0..8).contains(&r) {
                return false;
            }
            if let Some(piece) = board[(r * 8 + f) as usize] {
                return is(Some(piece), &[slider, Role::Queen]);
            }
            step += 1;
        }
    })
}

fn parse_castling(field: &str, board: &[Option<Piece>; 64]) -> Result<Castling, FenError> {
    let bad = |reason: String| FenError::Castling {
        field: field.to_string(),
        reason,
    };
    let mut castling = Castling::default();
    if field == "-" {
        return Ok(castling);
    }
    for c in field.chars() {
        // X-FEN and Shredder-FEN name the rook's file; on a standard board the h and a
        // files are the king's and queen's sides.
        let standard = match c {
            'H' => 'K',
            'A' => 'Q',
            'h' => 'k',
            'a' => 'q',
            'B'..='G' | 'b'..='g' => {
                return Err(bad(format!(
                    "`{c}` names a rook on the {} file: Chess960 castling is not supported",
                    c.to_ascii_lowercase()
                )));
            }
            other => other,
        };
        let (letter, color, king, rook) = *Castling::RIGHTS
            .iter()
            .find(|right| right.0 == standard)
            .ok_or_else(|| {
                bad(format!(
                    "`{c}` is not one of K, Q, k, q, or the files H, A, h, a (or `-` alone)"
                ))
            })?;
        let flag = match letter {
            'K' => &mut castling.white_king,
            'Q' => &mut castling.white_queen,
            'k' => &mut castling.black_king,
            _ => &mut castling.black_queen,
        };
        if *flag {
            return Err(bad(format!("`{letter}` appears twice")));
        }
        *flag = true;
        let at = |square: &str, role| {
            let square: Square = square.parse().expect("a home square");
            board[square.index()] == Some(Piece { color, role })
        };
        if !at(king, Role::King) || !at(rook, Role::Rook) {
            return Err(bad(format!(
                "right `{letter}` needs the {color} king on {king} and a {color} rook on {rook}"
            )));
        }
    }
    Ok(castling)
}

fn parse_ep(
    field: &str,
    board: &[Option<Piece>; 64],
    turn: Color,
) -> Result<Option<Square>, FenError> {
    if field == "-" {
        return Ok(None);
    }
    let bad = |reason: String| FenError::EnPassant {
        field: field.to_string(),
        reason,
    };
    let square: Square = field
        .parse()
        .map_err(|()| bad("not a square (a1-h8) or `-`".to_string()))?;
    // The pawn that has just moved belongs to the side not to move; it went from
    // `from` over `square` to `to`.
    let (rank, forward) = match turn {
        Color::White => (5, -1i8),
        Color::Black => (2, 1),
    };
    if square.rank() != rank {
        return Err(bad(format!(
            "{turn} is to move, so the square must be on rank {}",
            rank + 1
        )));
    }
    let to = square.up(forward).expect("rank 3 or 6 has neighbours");
    let from = square.up(-forward).expect("rank 3 or 6 has neighbours");
    let mover = turn.other();
    if board[to.index()]
        != Some(Piece {
            color: mover,
            role: Role::Pawn,
        })
    {
        return Err(bad(format!(
            "no {mover} pawn on {to} that could have just moved two squares"
        )));
    }
    if board[square.index()].is_some() || board[from.index()].is_some() {
        return Err(bad(format!(
            "{square} and {from} must be empty after a two-square pawn move"
        )));
    }
    Ok(Some(square))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn err(text: &str) -> String {
        text.parse::<Fen>().unwrap_err().to_string()
    }

    #[test]
    fn round_trips_standard_positions() {
        for text in [
            START,
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
            "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1",
            "rnbqkbnr/ppp1pppp/8/8/3pP3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 3",
            "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
        ] {
            assert_eq!(text.parse::<Fen>().unwrap().to_string(), text);
        }
    }

    #[test]
    fn normalises() {
        let fen: Fen = "  rnbqkbnr/pppppppp/44/8/8/8/PPPPPPPP/RNBQKBNR   w  qkQK - "
            .parse()
            .unwrap();
        assert_eq!(fen.to_string(), START);
        assert_eq!(fen.halfmoves(), 0);
        assert_eq!(fen.fullmoves(), 1);
    }

    #[test]
    fn reads_fields() {
        let fen: Fen = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b Kq e3 7 12"
            .parse()
            .unwrap();
        assert_eq!(fen.turn(), Color::Black);
        assert_eq!(fen.ep_square(), Some("e3".parse().unwrap()));
        assert!(fen.castling().white_king && fen.castling().black_queen);
        assert!(!fen.castling().white_queen && !fen.castling().black_king);
        assert_eq!((fen.halfmoves(), fen.fullmoves()), (7, 12));
        let e4: Square = "e4".parse().unwrap();
        assert_eq!((e4.file(), e4.rank(), e4.index()), (4, 3, 28));
        assert_eq!(
            fen.piece_at(e4),
            Some(Piece {
                color: Color::White,
                role: Role::Pawn
            })
        );
        assert_eq!(fen.piece_at("e2".parse().unwrap()), None);
        assert_eq!(
            fen.piece_at(Square::from_index(63).unwrap())
                .unwrap()
                .char(),
            'r'
        );
    }

    #[test]
    fn names_the_bad_field() {
        assert_eq!(
            err("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 1"),
            "bad FEN: expected 6 fields (board, side to move, castling, en passant, halfmove clock, fullmove number; the last 5 may be left out), found 7"
        );
        assert_eq!(err(""), FenError::FieldCount(0).to_string());
        assert_eq!(
            err("rnbqkbnr/pppppppp/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"),
            "bad FEN: the board has 7 ranks, expected 8"
        );
        assert_eq!(
            err("rnbqkbnr/pppppppp/8/8/8/p8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"),
            "bad FEN: rank 3 has 9 squares"
        );
        assert_eq!(
            err("rnbqkbnr/pppppppp/8/8/8/7/PPPPPPPP/RNBQKBNR w KQkq - 0 1"),
            "bad FEN: rank 3 has 7 squares"
        );
        assert_eq!(
            err("rnbqkbnr/pppppppp/8/8/3x4/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"),
            "bad FEN: rank 4 has `x`, which is neither a piece letter (PNBRQKpnbrqk) nor a digit 1-8"
        );
        assert!(err("rnbqkbnr/pppppppp/8/8/9/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1").contains("`9`"));
        assert_eq!(
            err("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQ1BNR w kq - 0 1"),
            "bad FEN: white has 0 kings, expected exactly one"
        );
        assert_eq!(
            err("rnbqkbnr/pppppppp/8/8/8/3k4/PPPPPPPP/RNBQKBNR w KQ - 0 1"),
            "bad FEN: black has 2 kings, expected exactly one"
        );
        assert_eq!(
            err("rnbqkbnP/pppppppp/8/8/8/8/PPPPPPP1/RNBQKBNR w KQq - 0 1"),
            "bad FEN: white pawn on h8: no pawn can stand on rank 1 or 8"
        );
        assert_eq!(
            err("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR x KQkq - 0 1"),
            "bad FEN: side to move is `x`, expected `w` or `b`"
        );
        assert_eq!(
            err("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkx - 0 1"),
            "bad FEN: castling field `KQkx`: `x` is not one of K, Q, k, q, or the files H, A, h, a (or `-` alone)"
        );
        assert_eq!(
            err("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KK - 0 1"),
            "bad FEN: castling field `KK`: `K` appears twice"
        );
        assert_eq!(
            err("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBN1 w K - 0 1"),
            "bad FEN: castling field `K`: right `K` needs the white king on e1 and a white rook on h1"
        );
        assert_eq!(
            err("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq e4 0 1"),
            "bad FEN: en passant field `e4`: white is to move, so the square must be on rank 6"
        );
        assert_eq!(
            err("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq z9 0 1"),
            "bad FEN: en passant field `z9`: not a square (a1-h8) or `-`"
        );
        assert_eq!(
            err("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq e6 0 1"),
            "bad FEN: en passant field `e6`: no black pawn on e5 that could have just moved two squares"
        );
        assert_eq!(
            err("rnbqkb1r/pppp1ppp/4n3/4p3/8/8/PPPPPPPP/RNBQKBNR w KQkq e6 0 1"),
            "bad FEN: en passant field `e6`: e6 and e7 must be empty after a two-square pawn move"
        );
        assert_eq!(
            err("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - x 1"),
            "bad FEN: halfmove clock `x` is not a number from 0 to 20000"
        );
        assert_eq!(
            err("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 0"),
            "bad FEN: fullmove number `0` is not a number from 1 to 10000"
        );
        assert_eq!(
            err("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - -1 1"),
            "bad FEN: halfmove clock `-1` is not a number from 0 to 20000"
        );
    }

    #[test]
    fn fills_in_left_out_fields_as_python_chess_does() {
        for (text, full) in [
            ("4k3/8/8/8/8/8/8/4K2R", "4k3/8/8/8/8/8/8/4K2R w - - 0 1"),
            ("4k3/8/8/8/8/8/8/4K2R b", "4k3/8/8/8/8/8/8/4K2R b - - 0 1"),
            ("4k3/8/8/8/8/8/8/4K2R w K", "4k3/8/8/8/8/8/8/4K2R w K - 0 1"),
            (
                "4k3/8/8/8/8/8/8/4K2R w K -",
                "4k3/8/8/8/8/8/8/4K2R w K - 0 1",
            ),
            (
                "4k3/8/8/8/8/8/8/4K2R w K - 7",
                "4k3/8/8/8/8/8/8/4K2R w K - 7 1",
            ),
        ] {
            assert_eq!(text.parse::<Fen>().unwrap().to_string(), full, "{text}");
        }
    }

    #[test]
    fn reads_x_fen_castling_letters_of_a_standard_position() {
        let fen: Fen = "r3k2r/8/8/8/8/8/8/R3K2R w HAha - 0 1".parse().unwrap();
        assert_eq!(fen.to_string(), "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
        let fen: Fen = "r3k2r/8/8/8/8/8/8/R3K2R b Hq - 0 1".parse().unwrap();
        assert_eq!(fen.castling().to_string(), "Kq");
        assert_eq!(
            err("r3k2r/8/8/8/8/8/8/R3K2R w KH - 0 1"),
            "bad FEN: castling field `KH`: `K` appears twice"
        );
        assert_eq!(
            err("r3k2r/8/8/8/8/8/8/RR2K2R w B - 0 1"),
            "bad FEN: castling field `B`: `B` names a rook on the b file: Chess960 castling is not supported"
        );
        assert!(
            err("r3k2r/8/8/8/8/8/8/R3K1R1 w H - 0 1")
                .contains("needs the white king on e1 and a white rook on h1")
        );
    }

    #[test]
    fn refuses_positions_no_game_reaches() {
        assert_eq!(
            err("QQQQkQQQ/QQQQQQQQ/8/8/8/8/8/Q3K3 w - - 0 1"),
            "bad FEN: white has 17 pieces, at most 16 are possible"
        );
        assert_eq!(
            err("4k3/8/8/8/P7/PPPPPPPP/8/4K3 w - - 0 1"),
            "bad FEN: white has 9 pawns, at most 8 are possible"
        );
        assert_eq!(
            err("4k3/8/8/8/8/8/8/4Q1K1 w - - 0 1"),
            "bad FEN: black is in check but it is not black's move"
        );
        assert_eq!(
            err("4k3/8/8/8/8/8/PPPPPPPP/QQ2K3 w - - 0 1"),
            "bad FEN: white has 1 promoted pieces (beyond 2 knights, 2 bishops, 2 rooks and 1 queen), at most 0 are possible"
        );
        // Seven pawns and a second queen: one pawn promoted, fine.
        assert!(
            "4k3/8/8/8/8/8/PPPPPPP1/QQ2K3 w - - 0 1"
                .parse::<Fen>()
                .is_ok()
        );
        // The side not to move in check, by each kind of piece.
        for text in [
            "4k2R/8/8/8/8/8/8/4K3 w - - 0 1",
            "R3k3/8/8/8/8/8/8/4K3 w - - 0 1",
            "4k3/8/8/1B6/8/8/8/4K3 w - - 0 1",
            "4k3/8/3N4/8/8/8/8/4K3 w - - 0 1",
            "4k3/3P4/8/8/8/8/8/4K3 w - - 0 1",
            "8/8/8/8/8/8/5p2/4K2k b - - 0 1",
            "8/8/8/8/8/8/8/3kK3 w - - 0 1",
            "8/8/8/8/8/8/4q3/4K2k b - - 0 1",
        ] {
            let error = err(text);
            assert!(
                error.contains("is in check but it is not"),
                "{text}: {error}"
            );
        }
        // In check with the move, or with the attack blocked: fine.
        for text in [
            "4k3/8/8/8/8/8/8/4K2R w - - 0 1",
            "8/8/8/8/8/8/4p3/4K2k w - - 0 1",
            "4k3/8/8/8/8/8/3p4/4K3 w - - 0 1",
            "4k3/4n3/8/8/8/8/8/4R2K w - - 0 1",
            "4k3/8/8/8/8/8/3P4/4K3 b - - 0 1",
        ] {
            assert!(text.parse::<Fen>().is_ok(), "{text}");
        }
        assert_eq!(
            err("4k3/8/8/8/8/8/8/4K3 w - - 0 4294967295"),
            "bad FEN: fullmove number `4294967295` is not a number from 1 to 10000"
        );
        assert!(err("4k3/8/8/8/8/8/8/4K3 w - - 20001 80").contains("halfmove clock `20001`"));
        for past_the_75_move_rule in ["151 80", "20000 10000"] {
            let text = format!("4k3/8/8/8/8/8/8/4K3 w - - {past_the_75_move_rule}");
            assert!(text.parse::<Fen>().is_ok(), "{text}");
        }
    }

    proptest::proptest! {
        /// The check test agrees with shakmaty's attack maps on random boards.
        #[test]
        fn the_check_test_agrees_with_shakmaty(
            squares in proptest::collection::vec((0usize..64, 0usize..12), 2..12),
        ) {
            let mut board = [None; 64];
            for (square, letter) in squares {
                board[square] = Piece::from_char(b"PNBRQKpnbrqk"[letter] as char);
            }
            let fen = Fen {
                board,
                turn: Color::White,
                castling: Castling::default(),
                ep_square: None,
                halfmoves: 0,
                fullmoves: 1,
            };
            let text = fen.board_text();
            let theirs: shakmaty::Board = text.parse().unwrap();
            for color in [Color::White, Color::Black] {
                let (ours, enemy) = match color {
                    Color::White => (shakmaty::Color::White, shakmaty::Color::Black),
                    Color::Black => (shakmaty::Color::Black, shakmaty::Color::White),
                };
                let attacked = theirs
                    .king_of(ours)
                    .is_some_and(|k| theirs.attacks_to(k, enemy, theirs.occupied()).any());
                // With two kings of a side, ours looks at the first only; skip those.
                let kings = board.iter().flatten().filter(|p| p.role == Role::King && p.color == color).count();
                if kings == 1 {
                    proptest::prop_assert_eq!(in_check(&board, color), attacked, "{} {:?}", text, color);
                }
            }
        }
    }

    /// Valid FENs to mutate.
    const BASES: [&str; 4] = [
        START,
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        "rnbqkbnr/ppp1pppp/8/8/3pP3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 3",
        "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
    ];

    /// The characters FENs are made of, and a few others.
    const ALPHABET: &str = "pnbrqkPNBRQK0123456789/ wb-acdefghx";

    /// Parsing never panics, and what parses prints a FEN that parses to the same value
    /// and prints the same again.
    fn check_normalisation(text: &str) -> Result<(), proptest::test_runner::TestCaseError> {
        if let Ok(fen) = text.parse::<Fen>() {
            let printed = fen.to_string();
            let again: Fen = printed.parse().map_err(|e| {
                proptest::test_runner::TestCaseError::fail(format!("{printed}: {e}"))
            })?;
            proptest::prop_assert_eq!(&again, &fen);
            proptest::prop_assert_eq!(again.to_string(), printed);
        }
        Ok(())
    }

    proptest::proptest! {
        #![proptest_config(proptest::test_runner::Config {
            rng_seed: proptest::test_runner::RngSeed::Fixed(0x5eed_fe11),
            ..proptest::test_runner::Config::default()
        })]
        #[test]
        fn random_texts_never_panic(text in "[pnbrqkPNBRQK0-9/ wb\\-KQkqa-h]{0,90}") {
            check_normalisation(&text)?;
        }

        #[test]
        fn mutated_fens_never_panic_and_normalise(
            base in 0..BASES.len(),
            edits in proptest::collection::vec((0usize..100, 0usize..ALPHABET.len(), 0u8..3), 1..4),
        ) {
            let mut chars: Vec<char> = BASES[base].chars().collect();
            let letters: Vec<char> = ALPHABET.chars().collect();
            for (at, letter, kind) in edits {
                let at = at % (chars.len() + 1);
                match kind {
                    0 if at < chars.len() => chars[at] = letters[letter],
                    1 => chars.insert(at, letters[letter]),
                    _ if at < chars.len() => {
                        chars.remove(at);
                    }
                    _ => {}
                }
            }
            check_normalisation(&chars.into_iter().collect::<String>())?;
        }
    }

    #[test]
    fn squares_parse_and_print() {
        for index in 0..64 {
            let square = Square::from_index(index).unwrap();
            assert_eq!(square.to_string().parse::<Square>(), Ok(square));
        }
        assert_eq!("a1".parse::<Square>().unwrap().index(), 0);
        assert_eq!("h8".parse::<Square>().unwrap().index(), 63);
        assert!("i1".parse::<Square>().is_err());
        assert!("a0".parse::<Square>().is_err());
        assert!("a".parse::<Square>().is_err());
        assert_eq!(Square::from_index(64), None);
        assert_eq!("e2".parse::<Square>().unwrap().up(2), "e4".parse().ok());
        assert_eq!("e8".parse::<Square>().unwrap().up(1), None);
    }
}
