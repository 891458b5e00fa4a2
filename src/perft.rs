//! perft: the number of leaves of the legal-move tree at a given depth (plies), with bulk
//! counting at the last ply ([`movegen::count`]) and no hashing. A capture sequence is one move.
//! Draw rules are not applied (as in every published table, perft.md).

use crate::movegen::{self, Duplicates};
use crate::moves::{Move, MoveList};
use crate::position::Position;
use crate::rules::Rules;

/// The number of leaf nodes `depth` plies below `pos` (1 at depth 0).
pub fn perft<R: Rules>(pos: &Position<R>, depth: u32, dups: Duplicates) -> u64 {
    match depth {
        0 => 1,
        1 => movegen::count(pos, dups),
        _ => {
            let mut list = MoveList::new();
            movegen::generate_with(pos, &mut list, dups);
            list.iter()
                .map(|mv| perft(&pos.make(mv), depth - 1, dups))
                .sum()
        }
    }
}

/// perft split by root move: calls `report(move, leaves)` for each legal move in generation
/// order and returns the total. `depth` must be at least 1.
pub fn divide<R: Rules>(
    pos: &Position<R>,
    depth: u32,
    dups: Duplicates,
    mut report: impl FnMut(&Move, u64),
) -> u64 {
    let mut list = MoveList::new();
    movegen::generate_with(pos, &mut list, dups);
    let mut total = 0;
    for mv in list.iter() {
        let n = perft(&pos.make(mv), depth.saturating_sub(1), dups);
        report(mv, n);
        total += n;
    }
    total
}
