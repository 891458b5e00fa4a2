//! `damiera book build`: drop-out expansion ([`super::dag`]) over a variant's real positions,
//! each new leaf valued by damiera's own search to a fixed depth or for a fixed time, or by
//! another program ([`ExternalValuer`]: the Ray job's tasks); the moves of the roots' lines
//! (an openings file's moves) enter the book too (docs/book.md, "Building").
//!
//! The book file is the state: a build that finds its output file resumes from it (the
//! expanded positions are its keys, the leaves' values its scores; a finished expansion is
//! never redone), and the file is rewritten atomically every [`SAVE_EVERY`] and at the end,
//! so an interrupted build loses at most the expansions since the last write. The new leaves
//! of one expansion are searched on `threads` threads at once, each with its own engine; every
//! search starts from a cleared table (`new_game`) so the values, and the book, do not depend
//! on the number of threads or on which thread searched which leaf.

use super::dag::{Dag, Tree, Valued};
use crate::book::probe::book_move;
use crate::book::{book_key, read, write, BookError, BookMove, Entry};
use crate::core::moves::Move;
use crate::core::variant::Variant;
use crate::core::variant_position::{Outcome, VariantPosition};
use crate::engine::search::Limits;
use crate::engine::{Depth, Engine, Event, MoveForm, Score};
use std::collections::HashMap;
use std::path::Path;
use std::sync::Mutex;
use std::thread;
use std::time::{Duration, Instant};

/// How often a running build rewrites its book file.
pub const SAVE_EVERY: Duration = Duration::from_secs(30);

/// The value of a forced win in `p` plies (centi-men scale, above any material score).
const WIN: i32 = 30_000;

/// How a leaf search ends.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum LeafLimit {
    /// At this depth in plies (1 to 64): the same values on any machine, so the same book.
    Depth(u8),
    /// After this many milliseconds: deeper on a faster machine, so not reproducible.
    Movetime(u64),
}

/// A root of the book, and the line of moves that leads to it from its game's start (the
/// moves of an openings file's line), whose positions enter the book with the line's move
/// only, valued by negamax over the roots they lead to ([`line_entries`]).
#[derive(Clone, Debug)]
pub struct Root {
    /// The position drop-out expansion starts from.
    pub position: VariantPosition,
    /// The positions before it and the move played from each, from the line's start.
    pub line: Vec<(VariantPosition, Move)>,
}

impl Root {
    /// A root without a line (the start position, or a FEN).
    pub fn at(position: VariantPosition) -> Root {
        Root {
            position,
            line: Vec::new(),
        }
    }
}

/// A build's settings.
#[derive(Clone, Debug)]
pub struct BuildSettings {
    /// The variant.
    pub variant: Variant,
    /// The roots: the start, or the positions of an openings file with their lines.
    pub roots: Vec<Root>,
    /// Stop when the book holds this many positions (expanded nodes).
    pub positions: usize,
    /// How each leaf search ends.
    pub limit: LeafLimit,
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

/// One position's leaf value (side to move's view) by `engine`, from a cleared table so the
/// value depends on the position and the limit only: a position without a legal move is
/// lost, or in Antidraughts won (depth 0); else the last completed iteration's score and
/// depth.
pub fn leaf_value(engine: &mut Engine, pos: &VariantPosition, limit: LeafLimit) -> Valued {
    if pos.legal_moves().is_empty() {
        let won = matches!(pos.outcome(), Some(Outcome::Win(c, _)) if c == pos.side());
        return Valued {
            value: if won { WIN } else { -WIN },
            depth: 0,
        };
    }
    engine.new_game();
    engine
        .set_position(Some(&pos.fen()), &[])
        .expect("a position's own FEN is accepted");
    let mut last = (Score::Cp(0), 0);
    let limits = match limit {
        LeafLimit::Depth(d) => Limits {
            depth: Some(Depth(u32::from(d))),
            ..Limits::default()
        },
        LeafLimit::Movetime(ms) => Limits {
            movetime: Some(ms),
            ..Limits::default()
        },
    };
    engine.search(limits, MoveForm::Native, |ev| {
        if let Event::Info { score, depth, .. } = ev {
            last = (score, depth.0);
        }
    });
    Valued {
        value: book_value(last.0),
        depth: last.1.min(255) as u8,
    }
}

/// Values a batch of positions outside this process (a Ray job's tasks through
/// `book build --leaf-pipe`): one [`Valued`] a position, in order.
pub type ExternalValuer =
    Box<dyn FnMut(&[VariantPosition]) -> Result<Vec<Valued>, BookError> + Send>;

/// Who values a build's leaves.
enum Valuer {
    /// Engines in this process, one a thread.
    Engines(Vec<Mutex<Engine>>),
    /// Another program.
    External(Mutex<ExternalValuer>),
}

/// The positions of a variant, valued by damiera's search on `engines.len()` threads, or by
/// an [`ExternalValuer`].
pub struct GameTree {
    limit: LeafLimit,
    valuer: Valuer,
}

impl GameTree {
    /// A tree of `variant` searching each leaf to `limit` on `threads` engines of `hash_mib`
    /// MiB.
    pub fn new(variant: Variant, limit: LeafLimit, threads: usize, hash_mib: usize) -> GameTree {
        GameTree {
            limit,
            valuer: Valuer::Engines(
                (0..threads.max(1))
                    .map(|_| Mutex::new(Engine::new(variant, hash_mib)))
                    .collect(),
            ),
        }
    }

    /// A tree whose leaves `valuer` values.
    pub fn external(limit: LeafLimit, valuer: ExternalValuer) -> GameTree {
        GameTree {
            limit,
            valuer: Valuer::External(Mutex::new(valuer)),
        }
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
    fn values(&self, ps: &[VariantPosition]) -> Result<Vec<Valued>, BookError> {
        let engines = match &self.valuer {
            Valuer::External(f) => return (f.lock().expect("the valuer's lock"))(ps),
            Valuer::Engines(e) => e,
        };
        let k = engines.len();
        let limit = self.limit;
        let mut out = vec![Valued { value: 0, depth: 0 }; ps.len()];
        let results: Vec<Vec<(usize, Valued)>> = thread::scope(|s| {
            let handles: Vec<_> = engines
                .iter()
                .enumerate()
                .map(|(t, engine)| {
                    s.spawn(move || {
                        let mut engine = engine.lock().expect("an engine's lock");
                        (t..ps.len())
                            .step_by(k)
                            .map(|i| (i, leaf_value(&mut engine, &ps[i], limit)))
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
        Ok(out)
    }
}

/// The book entries of the roots' lines: every position of a line that the DAG does not
/// hold, with the line's move (several when lines share it), each scored by negamax over
/// the lines below it down to the roots' DAG values (mover's view), with the depth of the
/// search behind that value and count 1.
pub fn line_entries<T: Tree<Pos = VariantPosition>>(dag: &Dag<T>, roots: &[Root]) -> Vec<Entry> {
    let mut edges: HashMap<u64, Vec<(BookMove, u64)>> = HashMap::new();
    let mut order = Vec::new();
    for r in roots {
        let mut next = book_key(&r.position);
        for (pos, mv) in r.line.iter().rev() {
            let key = book_key(pos);
            let kids = edges.entry(key).or_default();
            let edge = (book_move(pos, mv), next);
            if !kids.contains(&edge) {
                kids.push(edge);
            }
            if !order.contains(&key) {
                order.push(key);
            }
            next = key;
        }
    }
    let mut memo: HashMap<u64, Valued> = HashMap::new();
    fn value<T: Tree<Pos = VariantPosition>>(
        key: u64,
        dag: &Dag<T>,
        edges: &HashMap<u64, Vec<(BookMove, u64)>>,
        memo: &mut HashMap<u64, Valued>,
    ) -> Valued {
        if let Some(v) = dag.valued(key).or_else(|| memo.get(&key).copied()) {
            return v;
        }
        let mut best = Valued {
            value: i32::MIN,
            depth: 0,
        };
        for &(_, child) in &edges[&key] {
            let c = value(child, dag, edges, memo);
            if -c.value > best.value {
                best = Valued {
                    value: -c.value,
                    depth: c.depth,
                };
            }
        }
        memo.insert(key, best);
        best
    }
    let mut out = Vec::new();
    for key in order {
        if dag.valued(key).is_some() {
            continue;
        }
        for &(mv, child) in &edges[&key] {
            let c = value(child, dag, &edges, &mut memo);
            out.push(Entry {
                key,
                mv,
                score: (-c.value).clamp(-32767, 32767) as i16,
                depth: c.depth,
                count: 1,
            });
        }
    }
    out
}

/// The whole book: the DAG's entries, then the lines'.
fn all_entries<T: Tree<Pos = VariantPosition>>(dag: &Dag<T>, roots: &[Root]) -> Vec<Entry> {
    let mut entries = dag.entries();
    entries.extend(line_entries(dag, roots));
    entries
}

/// Builds (or resumes) the book at `out` with leaves searched in this process
/// ([`GameTree::new`]); see [`build_with`].
///
/// # Errors
/// As [`build_with`].
pub fn build(
    settings: &BuildSettings,
    out: &Path,
    progress: impl FnMut(usize),
) -> Result<usize, BookError> {
    let tree = GameTree::new(
        settings.variant,
        settings.limit,
        settings.threads,
        settings.hash_mib,
    );
    build_with(tree, settings, out, progress)
}

/// Builds (or resumes) the book at `out` over `tree`: drop-out expansion until it holds
/// `settings.positions` positions or nothing is left to expand, the file rewritten every
/// [`SAVE_EVERY`], at the end and before an error is returned. `progress` gets the
/// positions after each expansion. Returns the book's positions.
///
/// # Errors
/// `out` exists but is not a book of `settings.variant` (the reader's one line, or the
/// variants), or cannot be written; the tree's valuer failed.
pub fn build_with(
    tree: GameTree,
    settings: &BuildSettings,
    out: &Path,
    mut progress: impl FnMut(usize),
) -> Result<usize, BookError> {
    let roots: Vec<VariantPosition> = settings.roots.iter().map(|r| r.position).collect();
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
        Dag::from_entries(tree, &roots, settings.alpha, &entries)?
    } else {
        Dag::new(tree, &roots, settings.alpha)?
    };
    progress(dag.positions());
    let mut saved = Instant::now();
    while dag.positions() < settings.positions {
        match dag.step() {
            Ok(Some(_)) => {}
            Ok(None) => break,
            Err(e) => {
                write(out, settings.variant, &all_entries(&dag, &settings.roots))?;
                return Err(e);
            }
        }
        progress(dag.positions());
        if saved.elapsed() >= SAVE_EVERY {
            write(out, settings.variant, &all_entries(&dag, &settings.roots))?;
            saved = Instant::now();
        }
    }
    write(out, settings.variant, &all_entries(&dag, &settings.roots))?;
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
        fn values(&self, ps: &[VariantPosition]) -> Result<Vec<Valued>, BookError> {
            Ok(vec![Valued { value: 0, depth: 0 }; ps.len()])
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
        let tree = Flat(GameTree::new(Variant::English, LeafLimit::Depth(1), 1, 1));
        let mut dag = Dag::new(tree, &[start], 0.02).unwrap();
        let lines: [&[&str]; 4] = [&[], &["9-13"], &["10-14"], &["9-13", "24-20"]];
        let mut keys: Vec<u64> = lines.iter().map(|l| book_key(&after(l))).collect();
        keys.push(book_key(&after(&["10-14", "24-20"])));
        // Drop-out with equal values expands breadth first; run until both parents are in.
        while !keys.iter().all(|k| dag.expansion_order().contains(k)) {
            dag.step().unwrap().expect("a position to expand");
        }
        assert_eq!(dag.parents(book_key(&one)), 2);
        let entries = dag.entries();
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
