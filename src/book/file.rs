//! The book file (docs/book.md, "The file"): a 32-byte header, then the entries' 32-byte
//! records sorted by key, little-endian.
//!
//! Header: the magic `DMBK` (4 bytes), the version (u16, [`VERSION`]), the variant's code (u8:
//! English 0, Italian 1, Brazilian 2, Russian 3, Damone 4, International 5), the record size
//! (u8, 32), the number of entries (u64), the number of distinct positions (u64), 8 reserved
//! zero bytes. [`write`](fn@write) writes `<path>.tmp`, syncs it and renames it over `path`, so a crash
//! leaves the old book or none, never a part; [`read`] refuses a wrong file in one line.

use super::entry::{Entry, RECORD_SIZE};
use crate::core::variant::Variant;
use std::fmt;
use std::fs::{self, File};
use std::io::Write;
use std::path::{Path, PathBuf};

/// The first four bytes of a book file.
pub const MAGIC: [u8; 4] = *b"DMBK";
/// The format version this code writes and reads.
pub const VERSION: u16 = 1;
/// The size of the header in bytes.
pub const HEADER_SIZE: usize = 32;

/// Why a book could not be read or written: one line naming the file and the problem.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BookError(pub String);

impl fmt::Display for BookError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for BookError {}

/// The variant's code in the header.
pub fn variant_code(v: Variant) -> u8 {
    match v {
        Variant::English => 0,
        Variant::Italian => 1,
        Variant::Brazilian => 2,
        Variant::Russian => 3,
        Variant::Damone => 4,
        Variant::International => 5,
        Variant::Antidraughts => 6,
        Variant::Breakthrough => 7,
        Variant::Frisian => 8,
        Variant::Frysk => 9,
    }
}

/// The variant of a header's code, if it is one.
pub fn variant_of_code(code: u8) -> Option<Variant> {
    Variant::ALL.into_iter().find(|&v| variant_code(v) == code)
}

/// The number of distinct keys of entries sorted by key.
fn distinct_keys(entries: &[Entry]) -> u64 {
    let mut n = 0;
    let mut last = None;
    for e in entries {
        if last != Some(e.key) {
            n += 1;
            last = Some(e.key);
        }
    }
    n
}

/// Writes a book of `variant` holding `entries` to `path`: sorted into the file order
/// ([`Entry::file_order`]), one entry kept of two with the same key and move (the first in
/// `entries`' order), written to `<path>.tmp`, synced and renamed. Returns the entries written.
///
/// # Errors
/// The file cannot be written or renamed: the path and the system's reason.
pub fn write(path: &Path, variant: Variant, entries: &[Entry]) -> Result<usize, BookError> {
    let io = |e: std::io::Error| BookError(format!("{}: {e}", path.display()));
    let mut sorted: Vec<Entry> = Vec::with_capacity(entries.len());
    let mut seen = std::collections::HashSet::new();
    for e in entries {
        if seen.insert((e.key, e.mv)) {
            sorted.push(*e);
        }
    }
    sorted.sort_by(Entry::file_order);
    let mut bytes = Vec::with_capacity(HEADER_SIZE + RECORD_SIZE * sorted.len());
    bytes.extend_from_slice(&MAGIC);
    bytes.extend_from_slice(&VERSION.to_le_bytes());
    bytes.push(variant_code(variant));
    bytes.push(RECORD_SIZE as u8);
    bytes.extend_from_slice(&(sorted.len() as u64).to_le_bytes());
    bytes.extend_from_slice(&distinct_keys(&sorted).to_le_bytes());
    bytes.extend_from_slice(&[0u8; 8]);
    for e in &sorted {
        bytes.extend_from_slice(&e.to_bytes());
    }
    let mut tmp = PathBuf::from(path.as_os_str());
    tmp.as_mut_os_string().push(".tmp");
    {
        let mut f = File::create(&tmp).map_err(io)?;
        f.write_all(&bytes).map_err(io)?;
        f.sync_all().map_err(io)?;
    }
    fs::rename(&tmp, path).map_err(io)?;
    Ok(sorted.len())
}

/// Reads the book at `path`: its variant and its entries in file order.
///
/// # Errors
/// One line naming the file and the problem: it cannot be read, is not a book (magic), has
/// another version or record size, names no variant, is truncated or too long for its entry
/// count, is not sorted by key, or its position count is wrong.
pub fn read(path: &Path) -> Result<(Variant, Vec<Entry>), BookError> {
    let bad = |why: String| BookError(format!("{}: {why}", path.display()));
    let bytes = fs::read(path).map_err(|e| bad(e.to_string()))?;
    if bytes.len() < HEADER_SIZE {
        return Err(bad(format!(
            "truncated: {} bytes, a book's header is {HEADER_SIZE}",
            bytes.len()
        )));
    }
    if bytes[0..4] != MAGIC {
        return Err(bad("not a DMBK opening book (bad magic)".into()));
    }
    let version = u16::from_le_bytes([bytes[4], bytes[5]]);
    if version != VERSION {
        return Err(bad(format!(
            "book format version {version}, this damiera reads {VERSION}"
        )));
    }
    let variant = variant_of_code(bytes[6])
        .ok_or_else(|| bad(format!("unknown variant code {}", bytes[6])))?;
    if usize::from(bytes[7]) != RECORD_SIZE {
        return Err(bad(format!(
            "record size {}, version {VERSION} has {RECORD_SIZE}",
            bytes[7]
        )));
    }
    let u64_at = |i: usize| u64::from_le_bytes(bytes[i..i + 8].try_into().expect("8 bytes"));
    let (count, positions) = (u64_at(8), u64_at(16));
    let want = u64::try_from(RECORD_SIZE)
        .ok()
        .and_then(|r| r.checked_mul(count))
        .and_then(|n| n.checked_add(HEADER_SIZE as u64));
    if want != Some(bytes.len() as u64) {
        return Err(bad(format!(
            "{} bytes for {count} entries (truncated or not a book)",
            bytes.len()
        )));
    }
    let entries: Vec<Entry> = bytes[HEADER_SIZE..]
        .chunks_exact(RECORD_SIZE)
        .map(|r| Entry::from_bytes(r.try_into().expect("a record")))
        .collect();
    if let Some(i) = entries.windows(2).position(|w| w[0].key > w[1].key) {
        return Err(bad(format!("entry {} is out of key order", i + 1)));
    }
    if distinct_keys(&entries) != positions {
        return Err(bad(format!(
            "the header says {positions} positions, the entries hold {}",
            distinct_keys(&entries)
        )));
    }
    Ok((variant, entries))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::book::entry::BookMove;

    fn entry(key: u64, from: u8, score: i16) -> Entry {
        Entry {
            key,
            mv: BookMove {
                from,
                to: from + 4,
                captured: 0,
            },
            score,
            depth: 3,
            count: 1,
        }
    }

    #[test]
    fn write_then_read_gives_the_sorted_entries() {
        let dir = std::env::temp_dir().join(format!("damiera-book-{}", std::process::id()));
        fs::create_dir_all(&dir).unwrap();
        let path = dir.join("rt.dmbk");
        let entries = [
            entry(9, 1, 5),
            entry(3, 2, -7),
            entry(9, 2, 40),
            entry(9, 1, 0),
        ];
        assert_eq!(write(&path, Variant::Russian, &entries).unwrap(), 3);
        let (v, back) = read(&path).unwrap();
        assert_eq!(v, Variant::Russian);
        assert_eq!(back, vec![entry(3, 2, -7), entry(9, 2, 40), entry(9, 1, 5)]);
        assert!(!dir.join("rt.dmbk.tmp").exists());

        let bytes = fs::read(&path).unwrap();
        fs::write(&path, &bytes[..bytes.len() - 1]).unwrap();
        let e = read(&path).unwrap_err().0;
        assert!(e.contains("truncated"), "{e}");
        let mut foreign = bytes.clone();
        foreign[0] = b'X';
        fs::write(&path, &foreign).unwrap();
        assert!(read(&path).unwrap_err().0.contains("magic"));
        let mut unsorted = bytes;
        unsorted[HEADER_SIZE] = 0xff;
        fs::write(&path, &unsorted).unwrap();
        assert!(read(&path).unwrap_err().0.contains("order"));
        fs::remove_dir_all(&dir).unwrap();
    }
}
