//! The transposition table, shared by every search thread (Lazy SMP).
//!
//! Layout (after Scan 3.1 and Stockfish): buckets of four 16-byte entries, one 64-byte cache
//! line each, indexed by the low bits of the Zobrist key. An entry is two `AtomicU64` words:
//! `data` (score, depth, bound, age, move) and `check = key ^ data`. A reader accepts an entry
//! only when `check ^ data` gives back its key, so a torn write by another thread (half old,
//! half new) reads as a miss rather than as a wrong result (Hyatt and Mann's lockless hashing).
//!
//! The move is compact: its index in the list [`crate::Play::generate`] gives for the position
//! (generation is deterministic), so an entry needs no from, to or captured set.
//!
//! Replacement: the same position is always overwritten (its move kept if the new result has
//! none); otherwise the entry of the bucket with the lowest `depth - 4 * age distance` goes, so
//! old searches' entries make way first and deep results last. Memory is bounded by the `Hash`
//! size: the number of buckets is the largest power of two that fits.

use std::sync::atomic::{AtomicU64, AtomicU8, Ordering};

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

/// What a probe finds.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub struct Entry {
    /// Index of the best move in the position's generated move list, if one was stored.
    pub mv: Option<u8>,
    /// Score in centi-men, win and loss distances relative to this node ([`to_tt`]).
    pub score: i16,
    /// Remaining depth searched, in plies.
    pub depth: i8,
    /// How `score` bounds the true score.
    pub bound: Bound,
}

const NO_MOVE: u64 = 0xFF;
const ENTRIES: usize = 4;

/// One slot: 16 bytes.
#[derive(Default)]
struct Slot {
    check: AtomicU64,
    data: AtomicU64,
}

/// Four slots on one cache line.
#[derive(Default)]
#[repr(align(64))]
struct Bucket([Slot; ENTRIES]);

// data bits: 0-15 score, 16-23 depth, 24-25 bound, 26-31 age, 32-39 move index.
#[inline(always)]
fn pack(score: i16, depth: i8, bound: Bound, age: u8, mv: u64) -> u64 {
    (score as u16 as u64)
        | ((depth as u8 as u64) << 16)
        | ((bound as u64) << 24)
        | (((age & 63) as u64) << 26)
        | (mv << 32)
}

#[inline(always)]
fn bound_of(data: u64) -> Bound {
    match (data >> 24) & 3 {
        1 => Bound::Upper,
        2 => Bound::Lower,
        3 => Bound::Exact,
        _ => Bound::None,
    }
}

#[inline(always)]
fn age_of(data: u64) -> u8 {
    ((data >> 26) & 63) as u8
}

#[inline(always)]
fn depth_of(data: u64) -> i8 {
    (data >> 16) as u8 as i8
}

#[inline(always)]
fn move_of(data: u64) -> u64 {
    (data >> 32) & 0xFF
}

/// The table.
pub struct TranspositionTable {
    buckets: Memory,
    mask: usize,
    age: AtomicU8,
}

/// Scores at or beyond this (in absolute value) count plies from the node they were found at
/// and are stored relative to it: wins and losses (`search::WIN`, from 30,000) and
/// endgame-database results (`search::DB_WIN`, from 20,000 = `search::DB_BOUND`); evaluations
/// stay far below.
pub const PLY_RELATIVE_BOUND: i32 = 20_000;
const MATE_BOUND: i32 = PLY_RELATIVE_BOUND;

/// A score as stored: win and loss distances from this node rather than from the root.
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

/// Tables of more bytes than this are emptied by giving their pages back to the kernel
/// ([`TranspositionTable::clear`]); smaller ones are zeroed in place (64 MiB: about 10 ms).
pub const DISCARD_ABOVE: usize = 64 << 20;

/// The table's memory: `len` zeroed buckets. On Unix an anonymous private mapping, whose
/// pages the kernel gives zeroed and only when first written, so that making a table of any
/// size takes no time and no resident memory, and [`Memory::discard`] empties it by giving its
/// pages back. Elsewhere an ordinary zeroed allocation.
struct Memory {
    ptr: std::ptr::NonNull<Bucket>,
    len: usize,
}

// SAFETY: the memory is owned, and a Bucket holds only atomics (Send and Sync).
unsafe impl Send for Memory {}
// SAFETY: as above; shared access goes through the atomics.
unsafe impl Sync for Memory {}

impl Memory {
    /// `len` (at least 1) zeroed buckets, or `None` if the memory cannot be had.
    fn new(len: usize) -> Option<Memory> {
        let layout = std::alloc::Layout::array::<Bucket>(len).ok()?;
        #[cfg(unix)]
        // SAFETY: an anonymous private mapping of a non-zero size, checked for failure. Its
        // pages are zero, a valid `Bucket` (empty slots); mappings are page-aligned, more
        // than a Bucket's 64 bytes.
        let ptr = unsafe {
            let p = libc::mmap(
                std::ptr::null_mut(),
                layout.size(),
                libc::PROT_READ | libc::PROT_WRITE,
                libc::MAP_PRIVATE | libc::MAP_ANONYMOUS,
                -1,
                0,
            );
            if p == libc::MAP_FAILED {
                return None;
            }
            p as *mut Bucket
        };
        #[cfg(not(unix))]
        // SAFETY: a non-zero size; all-zero bytes are a valid Bucket.
        let ptr = unsafe { std::alloc::alloc_zeroed(layout) as *mut Bucket };
        Some(Memory {
            ptr: std::ptr::NonNull::new(ptr)?,
            len,
        })
    }

    /// Zeroes the memory by giving its pages back to the kernel (Unix: `MADV_DONTNEED` on a
    /// private anonymous mapping, after which the pages read as zero). `false` if that is not
    /// available and the caller must zero it.
    fn discard(&self) -> bool {
        #[cfg(unix)]
        {
            let bytes = self.len * std::mem::size_of::<Bucket>();
            // SAFETY: the range is exactly this mapping; zero pages are valid Buckets.
            unsafe {
                libc::madvise(
                    self.ptr.as_ptr() as *mut libc::c_void,
                    bytes,
                    libc::MADV_DONTNEED,
                ) == 0
            }
        }
        #[cfg(not(unix))]
        false
    }
}

impl std::ops::Deref for Memory {
    type Target = [Bucket];
    fn deref(&self) -> &[Bucket] {
        // SAFETY: `len` initialised (zeroed) Buckets owned by self.
        unsafe { std::slice::from_raw_parts(self.ptr.as_ptr(), self.len) }
    }
}

impl Drop for Memory {
    fn drop(&mut self) {
        let layout = std::alloc::Layout::array::<Bucket>(self.len).expect("made from it");
        #[cfg(unix)]
        // SAFETY: the mapping made in `new` with this size, unmapped once.
        unsafe {
            libc::munmap(self.ptr.as_ptr() as *mut libc::c_void, layout.size());
        }
        #[cfg(not(unix))]
        // SAFETY: allocated in `new` with this layout.
        unsafe {
            std::alloc::dealloc(self.ptr.as_ptr() as *mut u8, layout);
        }
    }
}

/// Bytes of memory the system can still give (Linux: `MemAvailable`), if known.
fn available_memory() -> Option<usize> {
    let text = std::fs::read_to_string("/proc/meminfo").ok()?;
    let line = text.lines().find(|l| l.starts_with("MemAvailable:"))?;
    let kib: usize = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kib.saturating_mul(1024))
}

impl TranspositionTable {
    /// A table of at most `mib` MiB (at least one bucket).
    ///
    /// # Panics
    /// If the memory cannot be had; [`TranspositionTable::try_new`] reports that instead.
    pub fn new(mib: usize) -> TranspositionTable {
        Self::try_new(mib).unwrap_or_else(|e| panic!("{e}"))
    }

    /// A table of at most `mib` MiB, or an error if that much memory cannot be allocated or
    /// is more than the machine has available (`MemAvailable` in `/proc/meminfo` on Linux:
    /// a table that does not fit would be killed by the kernel, not refused, since pages are
    /// only given when touched).
    ///
    /// The memory comes zeroed from the kernel (`Memory`), so making even a large table
    /// takes no time; its pages become resident as the search writes to them.
    pub fn try_new(mib: usize) -> Result<TranspositionTable, String> {
        let too_big = || format!("cannot allocate a {mib} MiB hash table");
        let bytes = mib.max(1).checked_mul(1024 * 1024).ok_or_else(too_big)?;
        if let Some(available) = available_memory() {
            if bytes > available {
                return Err(format!(
                    "cannot allocate a {mib} MiB hash table: {} MiB of memory available",
                    available >> 20
                ));
            }
        }
        let n = (bytes / std::mem::size_of::<Bucket>()).max(1);
        let n = 1usize << (usize::BITS - 1 - n.leading_zeros());
        let buckets = Memory::new(n).ok_or_else(too_big)?;
        Ok(TranspositionTable {
            buckets,
            mask: n - 1,
            age: AtomicU8::new(0),
        })
    }

    /// Empties every slot. A table above [`DISCARD_ABOVE`] bytes gives its pages back to the
    /// kernel where it can (instant, and the memory is free again until used); a smaller one
    /// is zeroed in place: giving pages back in a process with several threads costs every
    /// core a TLB shootdown and every page a fault when it is next written, which made
    /// `selfplay --concurrency 2` (a clear each game, 16 MiB) spend a third of its time in the
    /// kernel.
    pub fn clear(&self) {
        let bytes = self.buckets.len() * std::mem::size_of::<Bucket>();
        if bytes <= DISCARD_ABOVE || !self.buckets.discard() {
            for b in self.buckets.iter() {
                for slot in &b.0 {
                    slot.data.store(0, Ordering::Relaxed);
                    slot.check.store(0, Ordering::Relaxed);
                }
            }
        }
        self.age.store(0, Ordering::Relaxed);
    }

    /// Starts a new search generation (older entries are replaced first).
    pub fn new_search(&self) {
        let a = self.age.load(Ordering::Relaxed);
        self.age.store(a.wrapping_add(1) & 63, Ordering::Relaxed);
    }

    #[inline(always)]
    fn bucket(&self, key: u64) -> &Bucket {
        &self.buckets[key as usize & self.mask]
    }

    /// The entry for `key`, if stored.
    #[inline]
    pub fn probe(&self, key: u64) -> Option<Entry> {
        for slot in &self.bucket(key).0 {
            let data = slot.data.load(Ordering::Relaxed);
            let check = slot.check.load(Ordering::Relaxed);
            if check ^ data == key && bound_of(data) != Bound::None {
                let mv = move_of(data);
                return Some(Entry {
                    mv: (mv != NO_MOVE).then_some(mv as u8),
                    score: data as u16 as i16,
                    depth: depth_of(data),
                    bound: bound_of(data),
                });
            }
        }
        None
    }

    /// Stores a result: `depth` in plies, `score` from [`to_tt`], `mv` the index of the best
    /// move in the generated list.
    #[inline]
    pub fn store(&self, key: u64, depth: i32, score: i16, bound: Bound, mv: Option<u8>) {
        let age = self.age.load(Ordering::Relaxed);
        let bucket = self.bucket(key);
        let mut victim = 0;
        let mut victim_value = i32::MAX;
        for (i, slot) in bucket.0.iter().enumerate() {
            let data = slot.data.load(Ordering::Relaxed);
            let check = slot.check.load(Ordering::Relaxed);
            if bound_of(data) == Bound::None {
                if victim_value > i32::MIN {
                    victim = i;
                    victim_value = i32::MIN;
                }
                continue;
            }
            if check ^ data == key {
                // The same position: keep a deeper exact result of this search, and the
                // move when the new result has none.
                if depth_of(data) as i32 > depth + 2
                    && age_of(data) == age
                    && bound_of(data) == Bound::Exact
                    && bound != Bound::Exact
                {
                    return;
                }
                let mv = mv.map_or(move_of(data), |m| m as u64);
                let d = pack(score, depth.clamp(-1, 127) as i8, bound, age, mv);
                slot.data.store(d, Ordering::Relaxed);
                slot.check.store(key ^ d, Ordering::Relaxed);
                return;
            }
            let distance = (age.wrapping_sub(age_of(data)) & 63) as i32;
            let value = depth_of(data) as i32 - 4 * distance;
            if value < victim_value {
                victim = i;
                victim_value = value;
            }
        }
        let d = pack(
            score,
            depth.clamp(-1, 127) as i8,
            bound,
            age,
            mv.map_or(NO_MOVE, |m| m as u64),
        );
        let slot = &bucket.0[victim];
        slot.data.store(d, Ordering::Relaxed);
        slot.check.store(key ^ d, Ordering::Relaxed);
    }

    /// Occupancy in per mille: the share of the first 1000 slots written by this search.
    pub fn hashfull(&self) -> u32 {
        let age = self.age.load(Ordering::Relaxed);
        let mut used = 0;
        let mut seen = 0;
        'outer: for b in self.buckets.iter() {
            for slot in &b.0 {
                if seen == 1000 {
                    break 'outer;
                }
                seen += 1;
                let data = slot.data.load(Ordering::Relaxed);
                if bound_of(data) != Bound::None && age_of(data) == age {
                    used += 1;
                }
            }
        }
        (used * 1000 / seen.max(1)) as u32
    }

    /// The number of slots.
    pub fn len(&self) -> usize {
        self.buckets.len() * ENTRIES
    }

    /// Whether the table has no slots (never: it has at least one bucket).
    pub fn is_empty(&self) -> bool {
        self.buckets.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn slots_are_16_bytes_buckets_64_and_size_is_bounded() {
        assert_eq!(std::mem::size_of::<Slot>(), 16);
        assert_eq!(std::mem::size_of::<Bucket>(), 64);
        let t = TranspositionTable::new(16);
        assert!(t.len() * 16 <= 16 * 1024 * 1024);
        assert_eq!(t.len(), 16 * 1024 * 1024 / 16);
    }

    #[test]
    fn mate_scores_are_stored_relative_to_the_node() {
        assert_eq!(from_tt(to_tt(31_000 - 10, 4), 6), 31_000 - 12);
        assert_eq!(from_tt(to_tt(-(31_000 - 10), 4), 2), -(31_000 - 8));
        assert_eq!(from_tt(to_tt(57, 4), 9), 57);
    }

    #[test]
    fn store_then_probe_gives_back_every_field() {
        let t = TranspositionTable::new(1);
        let key = 0x1234_5678_9abc_def0;
        t.store(key, 7, -123, Bound::Lower, Some(5));
        let e = t.probe(key).expect("stored");
        assert_eq!(
            e,
            Entry {
                mv: Some(5),
                score: -123,
                depth: 7,
                bound: Bound::Lower
            }
        );
        // A result without a move keeps the stored move.
        t.store(key, 8, 40, Bound::Upper, None);
        assert_eq!(t.probe(key).unwrap().mv, Some(5));
        assert_eq!(t.probe(key).unwrap().score, 40);
        assert!(t.probe(key ^ 1).is_none());
    }

    #[test]
    fn a_bucket_keeps_four_positions_and_replaces_the_shallowest() {
        let t = TranspositionTable::new(1);
        let stride = (t.mask as u64) + 1;
        let keys: Vec<u64> = (1..=5).map(|i| 7 + i * stride).collect();
        for (i, &k) in keys[..4].iter().enumerate() {
            t.store(k, 10 - i as i32, 0, Bound::Exact, None);
        }
        assert!(keys[..4].iter().all(|&k| t.probe(k).is_some()));
        t.store(keys[4], 9, 0, Bound::Exact, None);
        // The depth-7 entry (the shallowest) made way.
        assert!(t.probe(keys[3]).is_none());
        assert!(t.probe(keys[4]).is_some());
        // A much older search's entry goes before this search's shallow ones.
        let t = TranspositionTable::new(1);
        t.store(keys[0], 20, 0, Bound::Exact, None);
        for _ in 0..8 {
            t.new_search();
        }
        for &k in &keys[1..] {
            t.store(k, 1, 0, Bound::Exact, None);
        }
        assert!(t.probe(keys[0]).is_none(), "the old depth-20 entry went");
        assert!(keys[1..].iter().all(|&k| t.probe(k).is_some()));
    }

    #[test]
    fn hashfull_counts_this_search_only() {
        let t = TranspositionTable::new(1);
        assert_eq!(t.hashfull(), 0);
        for k in 0..(t.len() as u64 * 4) {
            t.store(
                k.wrapping_mul(0x9E37_79B9_7F4A_7C15),
                1,
                0,
                Bound::Exact,
                None,
            );
        }
        assert!(t.hashfull() > 900);
        t.new_search();
        assert_eq!(t.hashfull(), 0);
    }
}
