//! `damiera book build`: drop-out expansion ([`super::dag`]) over a variant's real positions,
//! each new leaf valued by damiera's own search to a fixed depth (docs/book.md, "Building").
//!
//! The book file is the state: a build that finds its output file resumes from it (the
//! expanded positions are its keys, the leaves' values its scores; a finished expansion is
//! never redone), and the file is rewritten atomically every [`SAVE_EVERY`] and at the end,
//! so an interrupted build loses at most the expansions since the last write. The new leaves
//! of one expansion are searched on `threads` threads at once, each with its own engine; every
//! search starts from a cleared table (`new_game`) so the values, and the book, do not depend
//! on the number of threads or on which thread searched which leaf.

use super::dag::{Dag, Tree};
use crate::book::probe::book_move;
use crate::book::{book_key, read, write, BookError, BookMove};
use crate::core::variant::Variant;
use crate::core::variant_position::VariantPosition;
use crate::engine::search::Limits;
use crate::engine::{Depth, Engine, Event, MoveForm, Score};
use std::path::Path;
use std::sync::Mutex;
use std::thread;
use std::time::{Duration, Instant};

/// How often a running build rewrites its book file.
pub const SAVE_EVERY: Duration = Duration::from_secs(30);

/// The value of a forced win in `p` plies (centi-men scale, above any material score).
const WIN: i32 = 30_000;

/// A build's settings.
#[derive(Clone, Debug)]
pub struct BuildSettings {
    /// The variant.
    pub variant: Variant,
    /// The roots: the start, or the positions of an openings file.
    pub roots: Vec<VariantPosition>,
    /// Stop when the book holds this many positions (expanded nodes).
    pub positions: usize,
    /// The leaf searches' depth in plies (1 to 255).
    pub depth: u8,
    /// Search threads (each its own engine, one leaf at a time).
    pub threads: usize,
    /// Each engine's hash table, MiB.
    pub hash_mib: usize,
    /// The drop-out weight: plies per centi-man of drop-out ([`super::dag`]).
    pub alpha: f64,
}

/// A search score as a book value: centi-men clamped to ±20,000, a win in `p` plies
/// `30,000 - p`, a loss `-(30,000 - p)`.
pub fn book_value(s: Score) -> i32 {
    match s {
        Score::Cp(c) => c.clamp(-20_000, 20_000),
        Score::Win(p) => WIN - p.min(9_999) as i32,
        Score::Loss(p) => -(WIN - p.min(9_999) as i32),
    }
}

/// The positions of a variant, valued by damiera's search on `engines.len()` threads.
pub struct GameTree {
    depth: u8,
    engines: Vec<Mutex<Engine>>,
}

impl GameTree {
    /// A tree of `variant` searching to `depth` plies on `threads` engines of `hash_mib` MiB.
    pub fn new(variant: Variant, depth: u8, threads: usize, hash_mib: usize) -> GameTree {
        GameTree {
            depth,
            engines: (0..threads.max(1))
                .map(|_| Mutex::new(Engine::new(variant, hash_mib)))
                .collect(),
        }
    }

    /// One position's search value (side to move's view).
    fn search(engine: &mut Engine, pos: &VariantPosition, depth: u8) -> i32 {
        if pos.legal_moves().is_empty() {
            return -WIN;
        }
        engine.new_game();
        engine
            .set_position(Some(&pos.fen()), &[])
            .expect("a position's own FEN is accepted");
        let mut score = Score::Cp(0);
        let limits = Limits {
            depth: Some(Depth(u32::from(depth))),
            ..Limits::default()
        };
        engine.search(limits, MoveForm::Native, |ev| {
            if let Event::Info { score: s, .. } = ev {
                score = s;
            }
        });
        book_value(score)
    }
}

impl Tree for GameTree {
    type Pos = VariantPosition;
    fn key(&self, p: &VariantPosition) -> u64 {
        book_key(p)
    }
    fn moves(&self, p: &VariantPosition) -> Vec<(BookMove, VariantPosition)> {
        p.legal_moves()
            .iter()
            .map(|mv| {
                let mut next = *p;
                next.play(mv);
                (book_move(p, mv), next)
            })
            .collect()
    }
    fn values(&self, ps: &[VariantPosition]) -> Vec<i32> {
        let k = self.engines.len();
        let mut out = vec![0; ps.len()];
        let results: Vec<Vec<(usize, i32)>> = thread::scope(|s| {
            let handles: Vec<_> = self
                .engines
                .iter()
                .enumerate()
                .map(|(t, engine)| {
                    s.spawn(move || {
                        let mut engine = engine.lock().expect("an engine's lock");
                        (t..ps.len())
                            .step_by(k)
                            .map(|i| (i, Self::search(&mut engine, &ps[i], self.depth)))
                            .collect()
                    })
                })
                .collect();
            handles
                .into_iter()
                .map(|h| h.join().expect("a leaf search thread"))
                .collect()
        });
        for (i, v) in results.into_iter().flatten() {
            out[i] = v;
        }
        out
    }
}

/// Builds (or resumes) the book at `out`: drop-out expansion until it holds
/// `settings.positions` positions or nothing is left to expand, the file rewritten every
/// [`SAVE_EVERY`] and at the end. `progress` gets the positions after each expansion.
/// Returns the book's positions.
///
/// # Errors
/// `out` exists but is not a book of `settings.variant` (the reader's one line, or the
/// variants), or cannot be written.
pub fn build(
    settings: &BuildSettings,
    out: &Path,
    mut progress: impl FnMut(usize),
) -> Result<usize, BookError> {
    let tree = GameTree::new(
        settings.variant,
        settings.depth,
        settings.threads,
        settings.hash_mib,
    );
    let mut dag = if out.exists() {
        let (variant, entries) = read(out)?;
        if variant != settings.variant {
            return Err(BookError(format!(
                "{}: a {} book, not {}",
                out.display(),
                variant.name(),
                settings.variant.name()
            )));
        }
        Dag::from_entries(tree, &settings.roots, settings.alpha, &entries)
    } else {
        Dag::new(tree, &settings.roots, settings.alpha)
    };
    progress(dag.positions());
    let mut saved = Instant::now();
    while dag.positions() < settings.positions && dag.step().is_some() {
        progress(dag.positions());
        if saved.elapsed() >= SAVE_EVERY {
            write(out, settings.variant, &dag.entries(settings.depth))?;
            saved = Instant::now();
        }
    }
    write(out, settings.variant, &dag.entries(settings.depth))?;
    Ok(dag.positions())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Values every position 0 (no search), for tests of the DAG over real positions.
    struct Flat(GameTree);

    impl Tree for Flat {
        type Pos = VariantPosition;
        fn key(&self, p: &VariantPosition) -> u64 {
            self.0.key(p)
        }
        fn moves(&self, p: &VariantPosition) -> Vec<(BookMove, VariantPosition)> {
            self.0.moves(p)
        }
        fn values(&self, ps: &[VariantPosition]) -> Vec<i32> {
            vec![0; ps.len()]
        }
    }

    #[test]
    fn two_move_orders_into_one_position_share_one_entry() {
        let start = VariantPosition::start(Variant::English);
        let after = |moves: &[&str]| {
            let mut p = start;
            for m in moves {
                p.play_text(m).unwrap();
            }
            p
        };
        let one = after(&["9-13", "24-20", "10-14"]);
        let two = after(&["10-14", "24-20", "9-13"]);
        assert_eq!(book_key(&one), book_key(&two));
        // Expand both lines by hand through the two move orders' positions.
        let tree = Flat(GameTree::new(Variant::English, 1, 1, 1));
        let mut dag = Dag::new(tree, &[start], 0.02);
        let lines: [&[&str]; 4] = [&[], &["9-13"], &["10-14"], &["9-13", "24-20"]];
        let mut keys: Vec<u64> = lines.iter().map(|l| book_key(&after(l))).collect();
        keys.push(book_key(&after(&["10-14", "24-20"])));
        // Drop-out with equal values expands breadth first; run until both parents are in.
        while !keys.iter().all(|k| dag.expansion_order().contains(k)) {
            dag.step().expect("a position to expand");
        }
        assert_eq!(dag.parents(book_key(&one)), 2);
        let entries = dag.entries(1);
        let into: Vec<_> = entries
            .iter()
            .filter(|e| e.key == keys[3] || e.key == keys[4])
            .filter(|e| {
                let from = if e.key == keys[3] {
                    after(&["9-13", "24-20"])
                } else {
                    after(&["10-14", "24-20"])
                };
                let mut p = from;
                let mv = p
                    .legal_moves()
                    .iter()
                    .copied()
                    .find(|m| book_move(&from, m) == e.mv)
                    .unwrap();
                p.play(&mv);
                book_key(&p) == book_key(&one)
            })
            .collect();
        assert_eq!(into.len(), 2, "one move from each parent");
        assert_eq!(dag.value(book_key(&one)), Some(0));
    }
}
