//! The endgame databases' directory: which complete piece counts of a variant's tables are
//! present under a root, and opening them.

use crate::core::variant::Variant;
use crate::egdb::file::file_name;
use crate::egdb::material::{tables_of, Material};
use crate::egdb::{variant_dir, Egdb};
use crate::engine::options::MAX_EGDB_PIECES;
use std::path::Path;

/// The most pieces for which every table of `variant` (`tables`: those its databases hold) is
/// present under `root` (0: none).
fn egdb_pieces_present(root: &Path, variant: Variant, tables: &[Material], cap: u32) -> u32 {
    let dir = variant_dir(root, variant);
    let mut n = 0;
    for pieces in 2..=cap {
        let complete = tables
            .iter()
            .filter(|m| m.pieces() == pieces)
            .all(|m| dir.join(file_name(*m)).is_file());
        if !complete {
            break;
        }
        n = pieces;
    }
    n
}

/// Opens `variant`'s databases under `root`: every table up to `pieces` pieces that is
/// present (the largest complete piece count).
///
/// # Errors
/// A variant without databases (Italian Damone, Breakthrough), no complete table set, or a
/// bad file: one line.
pub fn open_egdb(root: &Path, variant: Variant, pieces: u32) -> Result<Egdb, String> {
    let cap = pieces.min(MAX_EGDB_PIECES);
    let Some(tables) = tables_of(variant, cap) else {
        return Err(match variant {
            Variant::Damone => "Italian Damone has no endgame databases".to_string(),
            v => format!("{} has no endgame databases", v.name()),
        });
    };
    let n = egdb_pieces_present(root, variant, &tables, cap);
    if n < 2 {
        return Err(format!(
            "no endgame databases in {} (damiera egdb build --variant {})",
            variant_dir(root, variant).display(),
            variant.name()
        ));
    }
    Egdb::open(root, variant, n).map_err(|e| e.to_string())
}
