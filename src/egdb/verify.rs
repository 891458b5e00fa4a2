//! `egdb verify`: every stored entry recomputed from its successors' entries with the forward
//! move generator ([`value_from_successors`]), a check independent of the retrograde builder's
//! reverse edges and levels. Since a win's distance must be the shortest over its successors
//! and every chain of distances ends at a conversion or at a side without moves (both checked
//! against the tables below or the rules), a consistent table is the correct one.

use crate::core::moves::MoveList;
use crate::core::notation::fen::fen;
use crate::core::rules::Rules;
use crate::egdb::build::{position, unit_of, units, value_from_successors, TableSet};
use crate::egdb::file::{variant_dir, EgdbError};
use crate::egdb::index::Indexer;
use crate::egdb::material::Material;
use crate::egdb::value::{decode, Entry};
use std::path::Path;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::Mutex;
use std::thread;

/// What `verify` found.
#[derive(Clone, Debug, Default)]
pub struct VerifyReport {
    /// Tables checked.
    pub tables: usize,
    /// Positions checked.
    pub positions: u64,
    /// Entries that differ from what their successors give.
    pub errors: u64,
    /// The first few of them, one line each.
    pub examples: Vec<String>,
}

fn show(e: Entry) -> String {
    let p = decode(e);
    match p.distance {
        Some(d) => format!("{} in {d}", p.value.name()),
        None => p.value.name().to_string(),
    }
}

/// Checks every table of the variant up to `pieces` pieces under `root`, with `threads`
/// threads; `on_table` is told each table as it is done.
pub fn verify<R: Rules>(
    root: &Path,
    pieces: u32,
    threads: usize,
    on_table: impl FnMut(Material, u64, u64),
) -> Result<VerifyReport, EgdbError> {
    verify_tables::<R>(root, &units::<R>(pieces).concat(), threads, on_table)
}

/// Checks the tables `materials` of the variant under `root` (each loaded with the tables it
/// looks up, which must be there), with `threads` threads, in the order given; a table and its
/// colour swap (one build unit) are checked together. `on_table` is told each table as it is
/// done.
pub fn verify_tables<R: Rules>(
    root: &Path,
    materials: &[Material],
    threads: usize,
    mut on_table: impl FnMut(Material, u64, u64),
) -> Result<VerifyReport, EgdbError> {
    let dir = variant_dir(root, R::VARIANT);
    let mut report = VerifyReport::default();
    let mut done: Vec<Material> = Vec::new();
    for &first in materials {
        if done.contains(&first) {
            continue;
        }
        // The unit's tables that were asked for, in the unit's order.
        let unit: Vec<Material> = unit_of(first)
            .into_iter()
            .filter(|m| materials.contains(m))
            .collect();
        done.extend(&unit);
        let mut set = TableSet::default();
        for &m in &unit {
            set.load::<R>(&dir, m)?;
            for d in m.dependencies() {
                set.load::<R>(&dir, d)?;
            }
        }
        for &m in &unit {
            let size = Indexer::new::<R::Board>(m).size();
            let errors = verify_table::<R>(&set, m, size, threads, &mut report.examples);
            on_table(m, size, errors);
            report.tables += 1;
            report.positions += size;
            report.errors += errors;
        }
    }
    Ok(report)
}

fn verify_table<R: Rules>(
    set: &TableSet,
    m: Material,
    size: u64,
    threads: usize,
    examples: &mut Vec<String>,
) -> u64 {
    const CHUNK: u64 = 1 << 14;
    let indexer = Indexer::new::<R::Board>(m);
    let next = AtomicUsize::new(0);
    let errors = AtomicU64::new(0);
    let found = Mutex::new(std::mem::take(examples));
    let chunks = size.div_ceil(CHUNK) as usize;
    thread::scope(|s| {
        for _ in 0..threads.max(1) {
            s.spawn(|| {
                let mut list = MoveList::new();
                loop {
                    let c = next.fetch_add(1, Ordering::Relaxed);
                    if c >= chunks {
                        break;
                    }
                    let start = c as u64 * CHUNK;
                    for i in start..(start + CHUNK).min(size) {
                        let p = indexer.unrank(i);
                        let pos = position::<R>(&p);
                        let stored = set.entry::<R>(m, &p).expect("table loaded");
                        let want =
                            value_from_successors(&pos, &mut list, |q, mq| set.entry::<R>(mq, q));
                        if want != Some(stored) {
                            errors.fetch_add(1, Ordering::Relaxed);
                            let mut f = found.lock().expect("no panic");
                            if f.len() < 10 {
                                f.push(format!(
                                    "{m} #{i} {}: stored {}, successors give {}",
                                    fen(&pos),
                                    show(stored),
                                    want.map_or("a missing table".into(), show)
                                ));
                            }
                        }
                    }
                }
            });
        }
    });
    *examples = found.into_inner().expect("no panic");
    errors.into_inner()
}
