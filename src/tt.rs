//! The transposition table: a fixed array of 32-byte entries indexed by the low bits of the
//! Zobrist key, its size set in MiB (the `Hash` option). Memory is bounded by that size: the
//! number of entries is the largest power of two that fits.

use crate::moves::Move;

/// How a stored score bounds the true score.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
#[repr(u8)]
pub enum Bound {
    /// Empty slot.
    None = 0,
    /// The true score is at most the stored one (fail-low).
    Upper = 1,
    /// The true score is at least the stored one (fail-high).
    Lower = 2,
    /// The stored score is exact.
    Exact = 3,
}

/// One slot: 32 bytes.
#[derive(Copy, Clone, Debug)]
pub struct Entry {
    /// The full key of the position stored here.
    pub key: u64,
    /// The best move found (meaningful if `has_move`).
    pub mv: Move,
    /// Score in centi-men, mate scores relative to this node ([`to_tt`]).
    pub score: i16,
    /// Remaining depth searched, in plies.
    pub depth: i8,
    /// How `score` bounds the true score.
    pub bound: Bound,
    /// Whether `mv` holds a move.
    pub has_move: bool,
    /// The search generation that wrote it.
    pub age: u8,
}

const EMPTY: Entry = Entry {
    key: 0,
    mv: Move::quiet(crate::Square(0), crate::Square(0), false),
    score: 0,
    depth: 0,
    bound: Bound::None,
    has_move: false,
    age: 0,
};

/// The table.
pub struct TranspositionTable {
    entries: Vec<Entry>,
    mask: usize,
    age: u8,
}

/// Scores at or beyond this are wins or losses at a distance (see `search::WIN`).
const MATE_BOUND: i32 = 30_000;

/// A score as stored: mate distances from this node rather than from the root.
pub fn to_tt(score: i32, ply: usize) -> i16 {
    let s = if score >= MATE_BOUND {
        score + ply as i32
    } else if score <= -MATE_BOUND {
        score - ply as i32
    } else {
        score
    };
    s.clamp(i16::MIN as i32, i16::MAX as i32) as i16
}

/// A stored score as seen from a node `ply` plies below the root.
pub fn from_tt(score: i16, ply: usize) -> i32 {
    let s = score as i32;
    if s >= MATE_BOUND {
        s - ply as i32
    } else if s <= -MATE_BOUND {
        s + ply as i32
    } else {
        s
    }
}

impl TranspositionTable {
    /// A table of at most `mib` MiB (at least one entry).
    ///
    /// # Panics
    /// If the memory cannot be had; [`TranspositionTable::try_new`] reports that instead.
    pub fn new(mib: usize) -> TranspositionTable {
        Self::try_new(mib).unwrap_or_else(|e| panic!("{e}"))
    }

    /// A table of at most `mib` MiB, or an error if that much memory cannot be allocated.
    pub fn try_new(mib: usize) -> Result<TranspositionTable, String> {
        let bytes = mib.max(1).saturating_mul(1024 * 1024);
        let n = (bytes / std::mem::size_of::<Entry>()).max(1);
        let n = 1usize << (usize::BITS - 1 - n.leading_zeros());
        let mut entries = Vec::new();
        entries
            .try_reserve_exact(n)
            .map_err(|_| format!("cannot allocate a {mib} MiB hash table"))?;
        entries.resize(n, EMPTY);
        Ok(TranspositionTable {
            entries,
            mask: n - 1,
            age: 0,
        })
    }

    /// Empties every slot.
    pub fn clear(&mut self) {
        self.entries.fill(EMPTY);
        self.age = 0;
    }

    /// Starts a new search generation (older entries are replaced first).
    pub fn new_search(&mut self) {
        self.age = self.age.wrapping_add(1);
    }

    /// The entry for `key`, if stored.
    #[inline]
    pub fn probe(&self, key: u64) -> Option<&Entry> {
        let e = &self.entries[key as usize & self.mask];
        (e.bound != Bound::None && e.key == key).then_some(e)
    }

    /// Stores a result; replaces the slot if it holds another position from an older search,
    /// or a shallower (or equal) result.
    #[inline]
    pub fn store(&mut self, key: u64, depth: i32, score: i16, bound: Bound, mv: Option<Move>) {
        let age = self.age;
        let e = &mut self.entries[key as usize & self.mask];
        if e.key != key && e.age == age && e.depth as i32 > depth && e.bound != Bound::None {
            return;
        }
        let keep_move = e.key == key && e.has_move && mv.is_none();
        *e = Entry {
            key,
            mv: mv.unwrap_or(if keep_move { e.mv } else { EMPTY.mv }),
            score,
            depth: depth.clamp(-1, 127) as i8,
            bound,
            has_move: mv.is_some() || keep_move,
            age,
        };
    }

    /// Occupancy in per mille, from a sample of the first 1000 slots written this search.
    pub fn hashfull(&self) -> u32 {
        let n = self.entries.len().min(1000);
        let used = self.entries[..n]
            .iter()
            .filter(|e| e.bound != Bound::None && e.age == self.age)
            .count();
        (used * 1000 / n) as u32
    }

    /// The number of slots.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// Whether the table has no slots (never: it has at least one).
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn entry_is_32_bytes_and_size_is_bounded() {
        assert_eq!(std::mem::size_of::<Entry>(), 32);
        let t = TranspositionTable::new(16);
        assert!(t.len() * 32 <= 16 * 1024 * 1024);
        assert_eq!(t.len(), 16 * 1024 * 1024 / 32);
    }

    #[test]
    fn mate_scores_are_stored_relative_to_the_node() {
        assert_eq!(from_tt(to_tt(31_000 - 10, 4), 6), 31_000 - 12);
        assert_eq!(from_tt(to_tt(-(31_000 - 10), 4), 2), -(31_000 - 8));
        assert_eq!(from_tt(to_tt(57, 4), 9), 57);
    }
}
