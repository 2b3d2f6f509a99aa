//! The evaluation terms of the search lab's designs ([`super::lab::Terms`]), each for one
//! side, written out from their descriptions there: passed pawns by rank, king shelter,
//! the bishop pair, rooks on open and half-open files (mobility comes from the search's
//! move counts, in [`super::lab`]). Plain and slow (a walk over the board per score): the
//! lab judges their worth, the rules would compute them their own way.

use shakmaty::{Bitboard, Chess, Color, Position, Role, Square};

use super::lab::Terms;

/// The design's positional terms of `pos` for `side`.
pub fn side_terms(pos: &Chess, side: Color, t: &Terms) -> i32 {
    let board = pos.board();
    let ours = board.by_color(side);
    let pawns = board.by_role(Role::Pawn);
    let (own_pawns, their_pawns) = (pawns & ours, pawns & !ours);
    let mut total = 0;
    if t.passed {
        for sq in own_pawns {
            if is_passed(sq, side, their_pawns) {
                let rank = relative_rank(sq, side);
                total += [0, 0, 5, 10, 20, 35, 60, 0][rank as usize];
            }
        }
    }
    if t.bishop_pair && (board.by_role(Role::Bishop) & ours).count() >= 2 {
        total += 30;
    }
    if t.open_files {
        for sq in board.by_role(Role::Rook) & ours {
            let file = Bitboard::from_file(sq.file());
            if (file & pawns).is_empty() {
                total += 20;
            } else if (file & own_pawns).is_empty() {
                total += 10;
            }
        }
    }
    if t.shelter
        && !(board.by_role(Role::Queen) & !ours).is_empty()
        && let Some(king) = board.king_of(side)
    {
        let mut shelter = 0;
        for sq in own_pawns {
            let files = (i32::from(sq.file()) - i32::from(king.file())).abs();
            let ahead = relative_rank(sq, side) as i32 - relative_rank(king, side) as i32;
            if files <= 1 && (1..=2).contains(&ahead) {
                shelter += 1;
            }
        }
        total += 10 * shelter.min(3);
    }
    total
}

/// The rank of `sq` counted from `side`'s first rank, 0 to 7.
pub fn relative_rank(sq: Square, side: Color) -> u32 {
    let r = u32::from(sq.rank());
    if side == Color::White { r } else { 7 - r }
}

/// Whether a `side` pawn on `sq` has no enemy pawn ahead of it on its file or beside.
pub fn is_passed(sq: Square, side: Color, their_pawns: Bitboard) -> bool {
    let own = relative_rank(sq, side);
    their_pawns.into_iter().all(|p| {
        let files = (i32::from(p.file()) - i32::from(sq.file())).abs();
        files > 1 || relative_rank(p, side) <= own
    })
}
