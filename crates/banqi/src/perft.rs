//! Perft: the number of move sequences of a given length, a flip counted once per kind of
//! piece it can reveal (each distinct piece in the pool is one outcome, whatever its
//! count). Draw rules are ignored (a position's moves only), so the count judges the move
//! generator and [`Position::play_unchecked`] alone.

use crate::movegen::MoveList;
use crate::position::Position;

/// The leaf count at `depth` plies from `position`.
pub fn perft(position: &Position, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let mut list = MoveList::new();
    position.legal_moves(&mut list);
    let mut total = 0;
    for &mv in list.as_slice() {
        if mv.is_flip() {
            for (piece, _) in position.pool().outcomes() {
                if depth == 1 {
                    total += 1;
                    continue;
                }
                let mut next = *position;
                next.play_unchecked(mv, Some(piece));
                total += perft(&next, depth - 1);
            }
        } else if depth == 1 {
            total += 1;
        } else {
            let mut next = *position;
            next.play_unchecked(mv, None);
            total += perft(&next, depth - 1);
        }
    }
    total
}
