//! perft: the number of leaves of the legal-move tree at a given depth (plies), with bulk
//! counting at the last ply ([`Play::count`]) and no hashing. A capture sequence is one move.
//! Draw rules are not applied (as in every published table, perft.md). Written once over
//! [`Play`], for every game.

use crate::core::movegen::{Duplicates, MoveVisitor};
use crate::core::moves::{Move, MoveList};
use crate::core::notation;
use crate::core::play::Play;

/// The number of leaf nodes `depth` plies below `pos` (1 at depth 0).
pub fn perft<G: Play>(pos: &G::Position, depth: u32, dups: Duplicates) -> u64 {
    match depth {
        0 => 1,
        1 => G::count(pos, dups),
        2 => {
            // The leaves' parents: count each child in place rather than call perft on it.
            let mut v = CountChildren::<G> {
                pos,
                dups,
                total: 0,
            };
            G::for_each_move(pos, dups, &mut v);
            v.total
        }
        _ => {
            let mut v = PerftChildren::<G> {
                pos,
                dups,
                depth: depth - 1,
                total: 0,
            };
            G::for_each_move(pos, dups, &mut v);
            v.total
        }
    }
}

/// Sums the move counts of the children (perft at depth 2).
struct CountChildren<'a, G: Play> {
    pos: &'a G::Position,
    dups: Duplicates,
    total: u64,
}

impl<G: Play> MoveVisitor for CountChildren<'_, G> {
    #[inline(always)]
    fn visit(&mut self, mv: Move) {
        self.total += G::count(&G::make(self.pos, &mv), self.dups);
    }
}

/// Sums perft of the children at `depth`.
struct PerftChildren<'a, G: Play> {
    pos: &'a G::Position,
    dups: Duplicates,
    depth: u32,
    total: u64,
}

impl<G: Play> MoveVisitor for PerftChildren<'_, G> {
    #[inline(always)]
    fn visit(&mut self, mv: Move) {
        self.total += perft::<G>(&G::make(self.pos, &mv), self.depth, self.dups);
    }
}

/// Calls `visit` with every position `ply` plies below `pos`, once per path (in move
/// generation order), so that the sum of perft(`depth - ply`) over them is perft(`depth`):
/// the split a distributed perft hands out (docs/cluster.md). Not the hot path: a move list
/// a ply on the stack.
pub fn positions_at<G: Play>(
    pos: &G::Position,
    ply: u32,
    dups: Duplicates,
    visit: &mut impl FnMut(&G::Position),
) {
    if ply == 0 {
        visit(pos);
        return;
    }
    let mut list = MoveList::new();
    G::generate(pos, &mut list, dups);
    for mv in list.iter() {
        positions_at::<G>(&G::make(pos, mv), ply - 1, dups, visit);
    }
}

/// perft split by root move, for any game: calls `report(move, name, leaves)` for each
/// legal move in generation order and returns the total. With [`Duplicates::Keep`] a capture
/// reached by several paths is reported once per path, each under its own path's name.
pub fn divide<G: Play>(
    pos: &G::Position,
    depth: u32,
    dups: Duplicates,
    report: impl FnMut(&Move, &str, u64),
) -> u64 {
    let never = std::sync::atomic::AtomicBool::new(false);
    divide_until::<G>(pos, depth, dups, &never, report).expect("never stopped")
}

/// Remaining depth (plies) at and below which [`divide_with_progress`] counts a subtree in one
/// call: about a tenth of a second for 8x8 positions, so progress is reported that often.
const PROGRESS_GRAIN: u32 = 9;

/// perft below `pos`, counted in subtrees of at most [`PROGRESS_GRAIN`] plies; after each,
/// `progress(fraction, leaves)` gets the fraction of the whole run done (the subtree's end
/// within `span`, each move of a node taking an equal share of the node's span) and the
/// subtree's leaves.
fn count_in_pieces<G: Play>(
    pos: &G::Position,
    depth: u32,
    dups: Duplicates,
    span: (f64, f64),
    progress: &mut dyn FnMut(f64, u64),
) -> u64 {
    if depth <= PROGRESS_GRAIN {
        let n = perft::<G>(pos, depth, dups);
        progress(span.1, n);
        return n;
    }
    let mut list = MoveList::new();
    G::generate(pos, &mut list, dups);
    if list.is_empty() {
        progress(span.1, 0);
        return 0;
    }
    let width = (span.1 - span.0) / list.len() as f64;
    let mut total = 0;
    for (i, mv) in list.iter().enumerate() {
        let lo = span.0 + width * i as f64;
        total += count_in_pieces::<G>(
            &G::make(pos, mv),
            depth - 1,
            dups,
            (lo, lo + width),
            progress,
        );
    }
    total
}

/// [`divide`] that also reports its progress: `report(move, name, leaves)` per root move as
/// [`divide`] does, and `progress(fraction, leaves)` after every subtree of at most
/// `PROGRESS_GRAIN` plies (about ten times a second on 8x8): the fraction of the run done
/// (0..=1, by moves: each move of a node has an equal share of its node's) and that subtree's
/// leaf count. The total is the same as [`divide`]'s.
pub fn divide_with_progress<G: Play>(
    pos: &G::Position,
    depth: u32,
    dups: Duplicates,
    mut report: impl FnMut(&Move, &str, u64),
    mut progress: impl FnMut(f64, u64),
) -> u64 {
    let mut list = MoveList::new();
    G::generate(pos, &mut list, dups);
    let width = 1.0 / list.len().max(1) as f64;
    let mut total = 0;
    for (i, mv) in list.iter().enumerate() {
        let nth = list[..i].iter().filter(|m| *m == mv).count();
        let name = notation::move_name_nth(pos, mv, nth);
        let lo = width * i as f64;
        let n = count_in_pieces::<G>(
            &G::make(pos, mv),
            depth.saturating_sub(1),
            dups,
            (lo, lo + width),
            &mut progress,
        );
        report(mv, &name, n);
        total += n;
    }
    total
}

/// Remaining depth (plies) at and below which [`perft_until`] counts a subtree in one call,
/// without looking at its stop flag: about a tenth of a second for 8x8 positions.
const STOP_GRAIN: u32 = 9;

/// perft that can be interrupted: `None` if `stop` was set before the count was complete.
/// Subtrees of at most `STOP_GRAIN` plies are counted whole, so a stop takes effect within
/// one of them.
pub fn perft_until<G: Play>(
    pos: &G::Position,
    depth: u32,
    dups: Duplicates,
    stop: &std::sync::atomic::AtomicBool,
) -> Option<u64> {
    use std::sync::atomic::Ordering;
    if stop.load(Ordering::Relaxed) {
        return None;
    }
    if depth <= STOP_GRAIN {
        return Some(perft::<G>(pos, depth, dups));
    }
    let mut list = MoveList::new();
    G::generate(pos, &mut list, dups);
    let mut total = 0u64;
    for mv in list.iter() {
        total += perft_until::<G>(&G::make(pos, mv), depth - 1, dups, stop)?;
    }
    Some(total)
}

/// [`divide`] that can be interrupted: calls `report(move, name, leaves)` for each root move counted
/// and returns the total, or `None` if `stop` was set first (the moves reported so far stand).
pub fn divide_until<G: Play>(
    pos: &G::Position,
    depth: u32,
    dups: Duplicates,
    stop: &std::sync::atomic::AtomicBool,
    mut report: impl FnMut(&Move, &str, u64),
) -> Option<u64> {
    let mut list = MoveList::new();
    G::generate(pos, &mut list, dups);
    let mut total = 0;
    for (i, mv) in list.iter().enumerate() {
        let nth = list[..i].iter().filter(|m| *m == mv).count();
        let name = notation::move_name_nth(pos, mv, nth);
        let n = perft_until::<G>(&G::make(pos, mv), depth.saturating_sub(1), dups, stop)?;
        report(mv, &name, n);
        total += n;
    }
    Some(total)
}
