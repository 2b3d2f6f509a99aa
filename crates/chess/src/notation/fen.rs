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
mod tests;
