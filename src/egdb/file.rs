//! The file of one table (docs/egdb.md, "File format"): a 44-byte header, a block offset table
//! and zstd-compressed blocks of little-endian 16-bit entries.
//!
//! ```text
//! offset size  field
//!  0     8     magic "DAMEGDB\x01"
//!  8     4     format version (1)
//! 12     1     variant (index in Variant::ALL)
//! 13     4     material: men and kings of the side to move, of the other side
//! 17     3     zero
//! 20     8     entries (positions)
//! 28     4     entries per block (the last block may hold fewer)
//! 32     4     blocks
//! 36     4     CRC-32 of everything after the header (offset table and blocks)
//! 40     4     CRC-32 of bytes 0..40
//! 44     8(n+1) block offsets from the start of the block data (the last is its length)
//! ...          the blocks
//! ```
//!
//! A file is written to `<name>.tmp`, synced and renamed, so a crash leaves the old file or no
//! file, never half of one. A file is read whole and checked (size, magic, version, variant,
//! material, both checksums) before any entry is believed.

use crate::core::variant::Variant;
use crate::egdb::material::Material;
use crate::egdb::value::Entry;
use directories::ProjectDirs;
use std::fmt;
use std::fs::{self, File};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::thread;
use zstd::bulk::{compress, Decompressor};

/// The first 8 bytes of every table file.
pub const MAGIC: [u8; 8] = *b"DAMEGDB\x01";
/// The format version this code writes and reads.
pub const VERSION: u32 = 1;
/// The header's size in bytes.
pub const HEADER: usize = 44;
/// Entries per block the builder writes: 2048 entries are 4 KiB decompressed (a reader takes
/// any size from the header). Blocks of 8192 made a miss cost 2.6 times as much and endgame
/// searches slower, for 14% less on disk (docs/egdb.md, "Speed").
pub const BLOCK_ENTRIES: u32 = 2048;
/// The zstd level the builder compresses with.
pub const LEVEL: i32 = 9;

/// The file name of a table: `<material>.egdb` (e.g. `w2k-b1k.egdb`).
pub fn file_name(m: Material) -> String {
    format!("{m}.egdb")
}

/// A table file read into memory and checked: its blocks are decompressed on demand.
#[derive(Debug)]
pub struct TableFile {
    /// The table's material.
    pub material: Material,
    /// Positions in the table.
    pub entries: u64,
    /// Entries per block.
    pub block_entries: u32,
    /// Block `i` is `data[offsets[i]..offsets[i + 1]]`.
    offsets: Vec<u64>,
    /// The compressed blocks.
    data: Vec<u8>,
    /// The file's size in bytes.
    pub file_size: u64,
}

/// The variant whose tables `variant` reads and writes. Frysk! is Frisian's rules from another
/// start (lidraughts; docs/rules.md), and the databases hold kings only there
/// ([`Material::covered`]), so its tables are Frisian's: one copy in `frisian/`, with
/// Frisian's variant byte. Every other variant has its own.
pub fn table_variant(variant: Variant) -> Variant {
    match variant {
        Variant::Frysk => Variant::Frisian,
        v => v,
    }
}

/// The header's variant byte: the index in [`Variant::ALL`] of the table variant.
fn variant_id(v: Variant) -> u8 {
    let v = table_variant(v);
    Variant::ALL
        .iter()
        .position(|&x| x == v)
        .expect("a variant") as u8
}

/// Writes the entries of `material`'s table to `dir/<name>.egdb` atomically.
pub fn write(
    dir: &Path,
    variant: Variant,
    material: Material,
    entries: &[Entry],
    threads: usize,
) -> Result<PathBuf, EgdbError> {
    let path = dir.join(file_name(material));
    let io = |e: std::io::Error| EgdbError(format!("{}: {e}", path.display()));
    let mut payload = Vec::new();
    let blocks = entries.len().div_ceil(BLOCK_ENTRIES as usize);
    let mut offsets = Vec::with_capacity(blocks + 1);
    // Blocks are compressed on `threads` threads, block i by thread i % threads.
    let chunks: Vec<&[Entry]> = entries.chunks(BLOCK_ENTRIES as usize).collect();
    let threads = threads.clamp(1, chunks.len().max(1));
    let parts: Vec<Vec<std::io::Result<Vec<u8>>>> = thread::scope(|s| {
        let handles: Vec<_> = (0..threads)
            .map(|t| {
                let chunks = &chunks;
                s.spawn(move || {
                    let mut raw = Vec::with_capacity(2 * BLOCK_ENTRIES as usize);
                    chunks
                        .iter()
                        .skip(t)
                        .step_by(threads)
                        .map(|chunk| {
                            raw.clear();
                            for e in chunk.iter() {
                                raw.extend_from_slice(&e.to_le_bytes());
                            }
                            compress(&raw, LEVEL)
                        })
                        .collect()
                })
            })
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().expect("compression thread"))
            .collect()
    });
    let mut iters: Vec<_> = parts.into_iter().map(|p| p.into_iter()).collect();
    let mut data = Vec::new();
    for i in 0..chunks.len() {
        let z = iters[i % threads].next().expect("a block").map_err(io)?;
        offsets.push(data.len() as u64);
        data.extend_from_slice(&z);
    }
    offsets.push(data.len() as u64);
    for o in &offsets {
        payload.extend_from_slice(&o.to_le_bytes());
    }
    payload.extend_from_slice(&data);
    let mut h = Vec::with_capacity(HEADER);
    h.extend_from_slice(&MAGIC);
    h.extend_from_slice(&VERSION.to_le_bytes());
    h.push(variant_id(variant));
    h.extend_from_slice(&[material.wm, material.wk, material.bm, material.bk, 0, 0, 0]);
    h.extend_from_slice(&(entries.len() as u64).to_le_bytes());
    h.extend_from_slice(&BLOCK_ENTRIES.to_le_bytes());
    h.extend_from_slice(&(blocks as u32).to_le_bytes());
    h.extend_from_slice(&crc32fast::hash(&payload).to_le_bytes());
    let hc = crc32fast::hash(&h);
    h.extend_from_slice(&hc.to_le_bytes());
    debug_assert_eq!(h.len(), HEADER);
    let tmp = dir.join(format!("{}.tmp", file_name(material)));
    {
        let mut f = File::create(&tmp).map_err(io)?;
        f.write_all(&h).map_err(io)?;
        f.write_all(&payload).map_err(io)?;
        f.sync_all().map_err(io)?;
    }
    fs::rename(&tmp, &path).map_err(io)?;
    if let Ok(d) = File::open(dir) {
        let _ = d.sync_all();
    }
    Ok(path)
}

fn u32_at(b: &[u8], at: usize) -> u32 {
    u32::from_le_bytes(b[at..at + 4].try_into().expect("4 bytes"))
}

fn u64_at(b: &[u8], at: usize) -> u64 {
    u64::from_le_bytes(b[at..at + 8].try_into().expect("8 bytes"))
}

/// Reads and checks `dir/<name>.egdb`; every failure is one line naming the file.
pub fn read(dir: &Path, variant: Variant, material: Material) -> Result<TableFile, EgdbError> {
    let path = dir.join(file_name(material));
    let bad = |why: &str| EgdbError(format!("{}: {why}", path.display()));
    let bytes = fs::read(&path).map_err(|e| bad(&e.to_string()))?;
    parse(bytes, variant, material).map_err(|why| bad(&why))
}

/// Checks a table file's bytes (see [`read`]).
pub fn parse(bytes: Vec<u8>, variant: Variant, material: Material) -> Result<TableFile, String> {
    if bytes.len() < HEADER {
        return Err(format!(
            "truncated ({} bytes, header is {HEADER})",
            bytes.len()
        ));
    }
    if bytes[..8] != MAGIC {
        return Err("not a damiera endgame table (bad magic)".into());
    }
    if crc32fast::hash(&bytes[..40]) != u32_at(&bytes, 40) {
        return Err("header checksum mismatch".into());
    }
    let version = u32_at(&bytes, 8);
    if version != VERSION {
        return Err(format!(
            "format version {version}, this build reads {VERSION}"
        ));
    }
    let v = bytes[12] as usize;
    if v != variant_id(variant) as usize {
        let name = Variant::ALL.get(v).map_or("unknown", |x| x.name());
        return Err(format!(
            "a table of {name}, not {}",
            table_variant(variant).name()
        ));
    }
    let m = Material::new(bytes[13], bytes[14], bytes[15], bytes[16]);
    if m != material {
        return Err(format!("holds table {m}, not {material}"));
    }
    let entries = u64_at(&bytes, 20);
    let block_entries = u32_at(&bytes, 28);
    let blocks = u32_at(&bytes, 32) as usize;
    if block_entries == 0 || entries.div_ceil(block_entries as u64) != blocks as u64 {
        return Err("inconsistent entry and block counts".into());
    }
    let table_end = HEADER + 8 * (blocks + 1);
    if bytes.len() < table_end {
        return Err(format!("truncated ({} bytes)", bytes.len()));
    }
    let offsets: Vec<u64> = (0..=blocks)
        .map(|i| u64_at(&bytes, HEADER + 8 * i))
        .collect();
    let data_len = offsets[blocks];
    if (bytes.len() - table_end) as u64 != data_len {
        return Err(format!(
            "truncated or overlong ({} bytes, header says {})",
            bytes.len(),
            table_end as u64 + data_len
        ));
    }
    if offsets.windows(2).any(|w| w[0] > w[1]) || offsets[0] != 0 {
        return Err("bad block offsets".into());
    }
    if crc32fast::hash(&bytes[HEADER..]) != u32_at(&bytes, 36) {
        return Err("checksum mismatch (corrupt file)".into());
    }
    let file_size = bytes.len() as u64;
    let data = bytes[table_end..].to_vec();
    Ok(TableFile {
        material,
        entries,
        block_entries,
        offsets,
        data,
        file_size,
    })
}

impl TableFile {
    /// The number of blocks.
    pub fn blocks(&self) -> usize {
        self.offsets.len() - 1
    }

    /// The entries of block `i`.
    pub fn block_len(&self, i: usize) -> usize {
        let start = i as u64 * self.block_entries as u64;
        (self.entries - start).min(self.block_entries as u64) as usize
    }

    /// Decompresses block `i` into `out` (at least `2 * block_len(i)` bytes) with `ctx`.
    pub fn decompress_into(
        &self,
        i: usize,
        ctx: &mut Decompressor<'static>,
        out: &mut [u8],
    ) -> Result<(), String> {
        let z = &self.data[self.offsets[i] as usize..self.offsets[i + 1] as usize];
        let want = 2 * self.block_len(i);
        let n = ctx
            .decompress_to_buffer(z, &mut out[..want])
            .map_err(|e| format!("block {i}: {e}"))?;
        if n != want {
            return Err(format!("block {i}: {n} bytes, expected {want}"));
        }
        Ok(())
    }

    /// Every entry, decompressed (the builder and `verify` hold whole tables).
    pub fn all_entries(&self) -> Result<Vec<Entry>, String> {
        let mut ctx = Decompressor::new().map_err(|e| e.to_string())?;
        let mut out = Vec::with_capacity(self.entries as usize);
        let mut buf = vec![0u8; 2 * self.block_entries as usize];
        for i in 0..self.blocks() {
            self.decompress_into(i, &mut ctx, &mut buf)?;
            let n = self.block_len(i);
            out.extend(
                buf[..2 * n]
                    .chunks_exact(2)
                    .map(|c| u16::from_le_bytes([c[0], c[1]])),
            );
        }
        Ok(out)
    }
}

/// Why a database could not be built, opened or read: one line naming the file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EgdbError(pub String);

impl fmt::Display for EgdbError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for EgdbError {}

/// The default root of the databases: `egdb` in the user's data directory
/// (`~/.local/share/damiera/egdb` on Linux), or `./egdb` if there is none. A variant's files
/// are in `<root>/<variant>/`.
pub fn default_dir() -> PathBuf {
    ProjectDirs::from("", "", "damiera")
        .map(|d| d.data_dir().join("egdb"))
        .unwrap_or_else(|| PathBuf::from("egdb"))
}

/// Where a variant's tables live under a root directory: `<root>/<name>`, named by its
/// [`table_variant`] (Frysk!'s are in `frisian`).
pub fn variant_dir(root: &Path, variant: Variant) -> PathBuf {
    root.join(table_variant(variant).name())
}

/// The tables present in `variant`'s directory under `root`: every file named as a table
/// (`<material>.egdb`, both sides on the board), fewest pieces first, then as
/// [`Material::all`] lists them (the order of `egdb info --pieces`). Other files are not
/// tables and are passed over. A directory that cannot be read, or one without tables, is a
/// one-line error naming it.
pub fn tables_in(root: &Path, variant: Variant) -> Result<Vec<Material>, EgdbError> {
    let dir = variant_dir(root, variant);
    let entries = fs::read_dir(&dir).map_err(|e| {
        EgdbError(format!(
            "{}: cannot read the tables' directory: {e}",
            dir.display()
        ))
    })?;
    let mut found: Vec<Material> = entries
        .filter_map(|e| {
            let name = e.ok()?.file_name().into_string().ok()?;
            let m: Material = name.strip_suffix(".egdb")?.parse().ok()?;
            (file_name(m) == name && m.wm + m.wk > 0 && m.bm + m.bk > 0).then_some(m)
        })
        .collect();
    if found.is_empty() {
        return Err(EgdbError(format!(
            "{}: no tables (<material>.egdb; damiera egdb build --variant {} --pieces N)",
            dir.display(),
            variant.name()
        )));
    }
    found.sort_by_key(|m| (m.pieces(), m.wm, m.wk, m.bm));
    found.dedup();
    Ok(found)
}
