//! Move ordering: the keys that order a node's moves (captures by the number of pieces taken,
//! promotions, two killers per ply, then a from-to history table), the lazy picking of the next
//! move by those keys, and the update of killers and history after a quiet move's cutoff
//! (a bonus of depth² for the cutting move, the same malus for the quiet moves tried before it).
//! The tables live in each thread's [`Worker`]; the hash move is put first by the search itself.

use super::worker::Worker;
use crate::core::moves::{Move, MoveList, MAX_MOVES};
use crate::engine::eval::Evaluate;

/// Lazy move picking: the index of the largest key (the next move to search), which is then
/// used up. Lists are short, so a scan per move beats sorting moves that a cutoff may never
/// reach.
#[inline]
pub(super) fn pick_next(keys: &mut [i32]) -> usize {
    let mut best = 0;
    let mut best_key = i32::MIN;
    for (j, &k) in keys.iter().enumerate() {
        if k > best_key {
            best_key = k;
            best = j;
        }
    }
    keys[best] = i32::MIN;
    best
}

impl<G: Evaluate> Worker<G> {
    /// Ordering keys for `list`: captures (most pieces first), promotions, killers, history.
    pub(super) fn order_keys(&self, list: &MoveList, ply: usize, keys: &mut [i32; MAX_MOVES]) {
        for (k, mv) in keys.iter_mut().zip(list.iter()) {
            *k = if mv.is_capture() {
                (1 << 24) + (mv.captured.count() as i32) * 1024 + mv.promotes as i32 * 512
            } else if mv.promotes {
                1 << 23
            } else if self.killers[ply][0] == Some(*mv) {
                1 << 22
            } else if self.killers[ply][1] == Some(*mv) {
                (1 << 22) - 1
            } else {
                self.history_of(mv)
            };
        }
    }

    /// A quiet move's from-to history (depth² per cutoff it caused, less the same for each
    /// cutoff it failed to cause; see [`Worker::reward`]).
    #[inline]
    pub(super) fn history_of(&self, mv: &Move) -> i32 {
        self.history[mv.from.index() & 63][mv.to.index() & 63]
    }

    /// A quiet move caused a cutoff: it becomes a killer and gains history; the quiet moves
    /// tried before it lose history (malus).
    pub(super) fn reward(
        &mut self,
        ply: usize,
        mv: Move,
        depth: i32,
        list: &MoveList,
        tried: &[u8],
    ) {
        let k = &mut self.killers[ply];
        if k[0] != Some(mv) {
            k[1] = k[0];
            k[0] = Some(mv);
        }
        let bonus = depth * depth;
        let h = &mut self.history[mv.from.index() & 63][mv.to.index() & 63];
        *h = (*h + bonus).min(1 << 20);
        for &j in tried {
            let m = list[j as usize];
            let h = &mut self.history[m.from.index() & 63][m.to.index() & 63];
            *h = (*h - bonus).max(-(1 << 20));
        }
    }
}
