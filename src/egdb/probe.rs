//! [`Egdb`]: the engine's handle on a variant's tables, with a bounded cache of decompressed
//! blocks.
//!
//! [`Egdb::open`] reads every table file up to the piece count into memory (compressed: the
//! files are small, docs/egdb.md "Figures") and checks each (size, header, checksums), so a
//! probe never touches the disk. A probe finds the table by material, the entry by the
//! index, and the entry's block in the cache; a miss decompresses the block into a slot of the
//! cache, evicting by the clock (second-chance) rule. The cache is sharded, each shard behind
//! its own mutex, so threads rarely wait on each other; a hit allocates nothing.

use crate::core::dispatch::{dispatch_rules, RulesFn};
use crate::core::play::Play;
use crate::core::position::Position;
use crate::core::rules::Rules;
use crate::core::variant::Variant;
use crate::egdb::build::{material_of, placement};
use crate::egdb::file::{self, TableFile};
use crate::egdb::file::{variant_dir, EgdbError};
use crate::egdb::index::Indexer;
use crate::egdb::material::{canonical, Material, MAX_KIND};
use crate::egdb::value::{decode, encode, no_move, Entry, Probe};
use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};
use std::path::Path;
use std::sync::Mutex;
use zstd::bulk::Decompressor;

/// The default size of the block cache: 64 MiB of decompressed blocks.
pub const DEFAULT_CACHE_BYTES: usize = 64 << 20;

/// The cache's shards (each with its own lock).
const SHARDS: usize = 16;

/// A multiplicative hash of a block key (the keys are small integers; SipHash is not needed).
#[derive(Default)]
struct KeyHasher(u64);

impl Hasher for KeyHasher {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = (self.0 ^ b as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        }
    }
    fn write_u64(&mut self, x: u64) {
        self.0 = (x ^ (x >> 29)).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    }
}

/// A cache slot: the key of the block it holds (`u64::MAX`: none) and its clock bit.
#[derive(Copy, Clone)]
struct Slot {
    key: u64,
    used: bool,
}

/// A shard of the block cache: `slots.len()` blocks of `block_bytes` bytes in one buffer,
/// allocated and written once when the tables are opened (so the search never allocates nor
/// takes a page fault for the cache).
struct Shard {
    map: HashMap<u64, u32, BuildHasherDefault<KeyHasher>>,
    slots: Vec<Slot>,
    data: Box<[u8]>,
    /// Slots filled so far (a free one is taken before the clock evicts).
    filled: usize,
    hand: usize,
    ctx: Option<Decompressor<'static>>,
}

struct Table {
    file: TableFile,
    indexer: Indexer,
}

/// A variant's endgame tables, opened for probing. `Send + Sync`: share it with an `Arc`.
pub struct Egdb {
    variant: Variant,
    max_pieces: u32,
    /// Table number + 1 by [`Material::key`] (0: no table).
    by_key: Vec<u16>,
    tables: Vec<Table>,
    shards: Vec<Mutex<Shard>>,
    block_bytes: usize,
}

/// Every material a variant's databases hold up to the given pieces
/// ([`Material::all_of`]), with its index.
struct Indexers(u32);

impl RulesFn for Indexers {
    type Output = Vec<(Material, Indexer)>;
    fn call<R: Rules>(self) -> Self::Output {
        Material::all_of::<R>(self.0)
            .into_iter()
            .map(|m| (m, Indexer::new::<R::Board>(m)))
            .collect()
    }
}

impl std::fmt::Debug for Egdb {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Egdb")
            .field("variant", &self.variant)
            .field("max_pieces", &self.max_pieces)
            .finish_non_exhaustive()
    }
}

impl Egdb {
    /// Opens `variant`'s tables up to `max_pieces` pieces from `<root>/<variant>/` with a cache
    /// of [`DEFAULT_CACHE_BYTES`].
    pub fn open(root: &Path, variant: Variant, max_pieces: u32) -> Result<Egdb, EgdbError> {
        Egdb::open_with_cache(root, variant, max_pieces, DEFAULT_CACHE_BYTES)
    }

    /// Opens the tables with a cache of `cache_bytes` bytes of decompressed blocks (at least
    /// one block a shard). Every table up to `max_pieces` must be present and sound: a missing,
    /// truncated, corrupt or foreign file is refused with a one-line error naming it.
    pub fn open_with_cache(
        root: &Path,
        variant: Variant,
        max_pieces: u32,
        cache_bytes: usize,
    ) -> Result<Egdb, EgdbError> {
        // Material keys have 4 bits a count: no table of more pieces can exist.
        let max_pieces = max_pieces.min(MAX_KIND as u32);
        let dir = variant_dir(root, variant);
        let mut by_key = vec![0u16; 1 << 16];
        let mut tables = Vec::new();
        let indexers = dispatch_rules(variant, Indexers(max_pieces))
            .ok_or_else(|| EgdbError(format!("no endgame databases for {}", variant.name())))?;
        for (m, indexer) in indexers {
            let path = dir.join(file::file_name(m));
            if !path.exists() {
                return Err(EgdbError(format!(
                    "{}: missing (damiera egdb build --variant {} --pieces {max_pieces})",
                    path.display(),
                    variant.name()
                )));
            }
            let f = file::read(&dir, variant, m)?;
            if f.entries != indexer.size() {
                return Err(EgdbError(format!(
                    "{}: {} entries, the index has {}",
                    path.display(),
                    f.entries,
                    indexer.size()
                )));
            }
            tables.push(Table { file: f, indexer });
            by_key[m.key()] = tables.len() as u16;
        }
        let block_bytes = 2 * tables
            .iter()
            .map(|t| t.file.block_entries as usize)
            .max()
            .unwrap_or(file::BLOCK_ENTRIES as usize);
        let capacity = (cache_bytes / block_bytes / SHARDS).max(1);
        let shards = (0..SHARDS)
            .map(|_| {
                Mutex::new(Shard {
                    map: HashMap::with_capacity_and_hasher(capacity, Default::default()),
                    slots: vec![
                        Slot {
                            key: u64::MAX,
                            used: false,
                        };
                        capacity
                    ],
                    // Written (not only zeroed) so that every page is touched here.
                    data: vec![0xFFu8; capacity * block_bytes].into_boxed_slice(),
                    filled: 0,
                    hand: 0,
                    ctx: None,
                })
            })
            .collect();
        Ok(Egdb {
            variant,
            max_pieces,
            by_key,
            tables,
            shards,
            block_bytes,
        })
    }

    /// The variant of the tables.
    pub fn variant(&self) -> Variant {
        self.variant
    }

    /// The most pieces a covered position has.
    pub fn max_pieces(&self) -> u32 {
        self.max_pieces
    }

    /// The cache's capacity in bytes of decompressed blocks.
    pub fn cache_bytes(&self) -> usize {
        SHARDS * self.block_bytes * self.shards[0].lock().expect("cache lock").slots.len()
    }

    /// Every table: its material and file (positions, block count, file size).
    pub fn tables(&self) -> impl Iterator<Item = (Material, &TableFile)> {
        self.tables.iter().map(|t| (t.indexer.material(), &t.file))
    }

    /// The value of a quiet position for its side to move: `None` if the variant or the
    /// material is not covered, or if the side to move has a capture (the engine resolves
    /// captures by search; the tables hold those positions too, see [`Egdb::lookup`]).
    #[inline]
    pub fn probe<R: Rules>(&self, pos: &Position<R>) -> Option<Probe> {
        if <R as Play>::has_captures(pos) {
            return None;
        }
        self.lookup(pos)
    }

    /// The value of any position of a covered material, captures or not. A side to move with
    /// no piece has lost (distance 0; won in Antidraughts); a position whose other side has no
    /// piece is not a position of play (`None`).
    #[inline]
    pub fn lookup<R: Rules>(&self, pos: &Position<R>) -> Option<Probe> {
        if R::VARIANT != self.variant {
            return None;
        }
        let c = canonical(pos);
        let p = placement(&c);
        let m = material_of(&p);
        if m.wm + m.wk == 0 {
            return Some(decode(no_move::<R>()));
        }
        if m.bm + m.bk == 0 || m.pieces() > self.max_pieces {
            return None;
        }
        let id = *self.by_key.get(m.key())? as usize;
        if id == 0 {
            return None;
        }
        let t = &self.tables[id - 1];
        let idx = t.indexer.rank(&p);
        self.entry(id - 1, t, idx).map(decode)
    }

    /// Entry `idx` of table `id`, through the cache (`None`: the block could not be read).
    fn entry(&self, id: usize, t: &Table, idx: u64) -> Option<Entry> {
        let be = t.file.block_entries as u64;
        let (block, at) = ((idx / be) as usize, (idx % be) as usize);
        let key = (id as u64) << 32 | block as u64;
        let h = (key ^ (key >> 29)).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        let shard = &self.shards[(h >> 58) as usize % SHARDS];
        let mut s = shard.lock().expect("cache lock");
        let bb = self.block_bytes;
        let read = |d: &[u8], i: usize| {
            let at = i * bb + 2 * at;
            u16::from_le_bytes([d[at], d[at + 1]])
        };
        if let Some(&i) = s.map.get(&key) {
            s.slots[i as usize].used = true;
            return Some(read(&s.data, i as usize));
        }
        // A miss: take a free slot or evict by the clock.
        let i = if s.filled < s.slots.len() {
            s.filled += 1;
            s.filled - 1
        } else {
            loop {
                let h = s.hand;
                s.hand = (h + 1) % s.slots.len();
                if s.slots[h].used {
                    s.slots[h].used = false;
                } else {
                    break h;
                }
            }
        };
        let old = s.slots[i].key;
        if old != u64::MAX {
            s.map.remove(&old);
            s.slots[i].key = u64::MAX;
        }
        if s.ctx.is_none() {
            s.ctx = Some(Decompressor::new().ok()?);
        }
        let Shard { data, ctx, .. } = &mut *s;
        t.file
            .decompress_into(block, ctx.as_mut()?, &mut data[i * bb..(i + 1) * bb])
            .ok()?;
        s.slots[i] = Slot { key, used: true };
        s.map.insert(key, i as u32);
        Some(read(&s.data, i))
    }
}

/// A thread's small cache of probe results by position key, in front of [`Egdb`]'s block
/// cache: a search probes the same few thousand positions again and again (transpositions,
/// iterative deepening), and a hit here costs one load from an 8 MiB array instead of the
/// ranking, a shard lock and a hash lookup. Direct-mapped, [`ProbeCache::SLOTS`] slots of 8
/// bytes: the key's top 48 bits and the entry. Values never change, so it is never cleared
/// but when the tables change. Allocated once; a lookup allocates nothing.
pub struct ProbeCache {
    slots: Box<[u64]>,
}

/// A slot's entry for "the database does not decide it" (a capture pending, or a material
/// not held): value bits 3, which no stored entry has.
const NOT_HELD: Entry = 0xFFFF;
/// An empty slot's entry (value bits 3 as well).
const EMPTY: Entry = 0xFFFB;

impl ProbeCache {
    /// Slots (2^20: 8 MiB).
    pub const SLOTS: usize = 1 << 20;

    /// A cache of [`ProbeCache::SLOTS`] empty slots.
    pub fn allocated() -> ProbeCache {
        ProbeCache {
            slots: vec![u64::from(EMPTY); Self::SLOTS].into_boxed_slice(),
        }
    }

    /// A cache of no slots (every lookup probes): a thread's without tables.
    pub fn empty() -> ProbeCache {
        ProbeCache {
            slots: Box::new([]),
        }
    }

    /// The cached result for `key` (`Some(None)`: cached as not decided), or, on a miss,
    /// `probe()`'s result, cached.
    #[inline(always)]
    pub fn get_or(&mut self, key: u64, probe: impl FnOnce() -> Option<Probe>) -> Option<Probe> {
        if self.slots.is_empty() {
            return probe();
        }
        // The slot by the key's mixed top bits (Zobrist keys' low bits are not uniform enough).
        let i = (key.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 40) as usize & (self.slots.len() - 1);
        let tag = key & !0xFFFF;
        let slot = self.slots[i];
        let e = slot as Entry;
        if slot & !0xFFFF == tag && e != EMPTY {
            return (e != NOT_HELD).then(|| decode(e));
        }
        let p = probe();
        self.slots[i] = tag | u64::from(p.map_or(NOT_HELD, encode));
        p
    }
}

impl Default for ProbeCache {
    /// [`ProbeCache::empty`].
    fn default() -> Self {
        ProbeCache::empty()
    }
}
