//! The retrograde builder (docs/egdb.md, "Building").
//!
//! The unit of work is a material and its swap (`w2k-b1k` with `w1k-b2k`): a non-converting
//! move (neither capture nor promotion) of one leads into the other, so they are solved
//! together. A unit is a pure function of the tables its conversions lead into (read from the
//! directory, built before it: [`Material::build_order`]) and writes its own tables' files;
//! a unit whose files are present and sound is never rebuilt, so an interrupted build resumes.
//!
//! Per unit: (1) a forward pass with the move generator gives each position its legal moves:
//! conversions are looked up in the tables below (the best of them for the mover), the others
//! are edges to positions of the unit; (2) the edges are reversed; (3) values spread level by
//! level from the positions decided by the forward pass (no move: lost in 0; a winning
//! conversion: won in 1): a predecessor of a loss in `d` is a win in `d + 1`; a predecessor
//! whose last undecided successor became a win in `d`, and that has no drawing conversion, is
//! a loss in `d + 1`; (4) whatever stays undecided is a draw.

use crate::core::bitboard::Bitboard;
use crate::core::movegen::Duplicates;
use crate::core::moves::MoveList;
use crate::core::play::Play;
use crate::core::position::Position;
use crate::core::rules::{Color, Rules};
use crate::egdb::file;
use crate::egdb::index::{Indexer, Placement};
use crate::egdb::material::{canonical, Material};
use crate::egdb::{loss, variant_dir, win, EgdbError, Entry, DRAW};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use log::debug;
use std::fs;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;
use std::thread;
use std::time::Instant;

/// What `damiera egdb build` asks for.
#[derive(Clone, Debug)]
pub struct BuildOptions {
    /// The root directory; the variant's tables go to `<root>/<variant>/`.
    pub root: PathBuf,
    /// Every material with up to this many pieces (both sides on the board).
    pub pieces: u32,
    /// Worker threads of the forward pass (and of `verify`).
    pub threads: usize,
    /// Draw a progress bar on stderr (when it is a terminal).
    pub progress: bool,
}

/// What a build did.
#[derive(Clone, Debug, Default)]
pub struct BuildReport {
    /// Tables built now: material, positions, file size in bytes.
    pub built: Vec<(Material, u64, u64)>,
    /// Tables found complete and kept.
    pub kept: usize,
    /// Positions solved now.
    pub positions: u64,
    /// Wall time in seconds.
    pub seconds: f64,
}

/// A position's tables loaded whole: the index and the entries.
pub struct Loaded {
    /// The table's index.
    pub indexer: Indexer,
    /// Its entries.
    pub entries: Vec<Entry>,
}

/// Tables held in memory, found by material (a handful per unit, so a linear search).
#[derive(Default)]
pub struct TableSet {
    tables: Vec<Loaded>,
}

impl TableSet {
    /// Loads `m`'s table from `dir` unless it is there already.
    pub fn load<R: Rules>(&mut self, dir: &Path, m: Material) -> Result<(), EgdbError> {
        if self.tables.iter().any(|t| t.indexer.material() == m) {
            return Ok(());
        }
        let f = file::read(dir, R::VARIANT, m)?;
        let entries = f
            .all_entries()
            .map_err(|e| EgdbError(format!("{}: {e}", dir.join(file::file_name(m)).display())))?;
        self.insert::<R>(m, entries);
        Ok(())
    }

    /// Adds a table held in memory.
    pub fn insert<R: Rules>(&mut self, m: Material, entries: Vec<Entry>) {
        let indexer = Indexer::new::<R::Board>(m);
        assert_eq!(indexer.size(), entries.len() as u64, "table {m}");
        self.tables.push(Loaded { indexer, entries });
    }

    /// The entry of a placement (White to move) of material `m`; a side to move without pieces
    /// has lost. `None` if the table is not loaded.
    #[inline]
    pub fn entry(&self, m: Material, p: &Placement) -> Option<Entry> {
        if m.wm + m.wk == 0 {
            return Some(loss(0));
        }
        let t = self.tables.iter().find(|t| t.indexer.material() == m)?;
        Some(t.entries[t.indexer.rank(p) as usize])
    }
}

/// The placement of a White-to-move position.
#[inline(always)]
pub fn placement<R: Rules>(pos: &Position<R>) -> Placement {
    Placement {
        white: pos.pieces(Color::White),
        black: pos.pieces(Color::Black),
        kings: pos.kings(),
    }
}

/// The material of a placement (White to move).
#[inline(always)]
pub fn material_of(p: &Placement) -> Material {
    let c = |b: Bitboard| b.count() as u8;
    Material::new(
        c(p.white & !p.kings),
        c(p.white & p.kings),
        c(p.black & !p.kings),
        c(p.black & p.kings),
    )
}

/// The White-to-move position of a placement.
#[inline(always)]
pub fn position<R: Rules>(p: &Placement) -> Position<R> {
    Position::from_parts(p.white, p.black, p.kings, Color::White)
}

/// The value of a position from its successors' entries (`succ(placement, material)`, each for
/// the opponent, White to move after the flip), by the rules of docs/egdb.md: no move is a
/// loss in 0; a conversion counts 1 ply; otherwise a successor's distance plus 1; the winner
/// takes the shortest win, the loser the longest loss. `verify` and `probe` use it.
pub fn value_from_successors<R: Rules>(
    pos: &Position<R>,
    list: &mut MoveList,
    mut succ: impl FnMut(&Placement, Material) -> Option<Entry>,
) -> Option<Entry> {
    <R as Play>::generate(pos, list, Duplicates::Drop);
    if list.is_empty() {
        return Some(loss(0));
    }
    let (mut best_win, mut draw, mut worst_loss) = (u16::MAX, false, 0u16);
    for mv in list.iter() {
        let next = canonical(&pos.make(mv));
        let p = placement(&next);
        let e = succ(&p, material_of(&p))?;
        let conversion = mv.is_capture() || mv.promotes;
        let d = if conversion { 1 } else { (e >> 2) + 1 };
        match e & 3 {
            2 => best_win = best_win.min(d),
            1 => worst_loss = worst_loss.max(d),
            _ => draw = true,
        }
    }
    Some(if best_win != u16::MAX {
        win(best_win)
    } else if draw {
        DRAW
    } else {
        loss(worst_loss)
    })
}

const NO_MOVES: u8 = 1;
const WIN_EXIT: u8 = 2;
const DRAW_EXIT: u8 = 4;
const UNDECIDED: Entry = u16::MAX;
const CHUNK: usize = 1 << 15;

/// A unit's tables: one material, or a material and its swap.
struct Unit {
    indexers: Vec<Indexer>,
    base: Vec<u64>,
    total: u64,
}

impl Unit {
    fn new<R: Rules>(tables: &[Material]) -> Unit {
        let indexers: Vec<_> = tables
            .iter()
            .map(|&m| Indexer::new::<R::Board>(m))
            .collect();
        let mut base = Vec::new();
        let mut total = 0;
        for ix in &indexers {
            base.push(total);
            total += ix.size();
        }
        Unit {
            indexers,
            base,
            total,
        }
    }

    /// The table and the index within it of unit index `i`.
    fn split(&self, i: u64) -> (usize, u64) {
        let t = if self.base.len() > 1 && i >= self.base[1] {
            1
        } else {
            0
        };
        (t, i - self.base[t])
    }

    /// The unit index of a placement of material `m` (one of the unit's).
    fn global(&self, m: Material, p: &Placement) -> u64 {
        let t = if self.indexers[0].material() == m {
            0
        } else {
            1
        };
        self.base[t] + self.indexers[t].rank(p)
    }
}

struct ChunkOut {
    counts: Vec<u16>,
    flags: Vec<u8>,
    edges: Vec<u32>,
}

fn forward_chunk<R: Rules>(unit: &Unit, deps: &TableSet, range: std::ops::Range<u64>) -> ChunkOut {
    let n = (range.end - range.start) as usize;
    let mut out = ChunkOut {
        counts: Vec::with_capacity(n),
        flags: Vec::with_capacity(n),
        edges: Vec::with_capacity(n * 8),
    };
    let mut list = MoveList::new();
    for i in range {
        let (t, local) = unit.split(i);
        let pos = position::<R>(&unit.indexers[t].unrank(local));
        <R as Play>::generate(&pos, &mut list, Duplicates::Drop);
        let (mut count, mut flags) = (0u16, 0u8);
        if list.is_empty() {
            flags |= NO_MOVES;
        }
        for mv in list.iter() {
            let next = canonical(&pos.make(mv));
            let p = placement(&next);
            let m = material_of(&p);
            if !mv.is_capture() && !mv.promotes {
                out.edges.push(unit.global(m, &p) as u32);
                count += 1;
            } else {
                let e = deps
                    .entry(m, &p)
                    .unwrap_or_else(|| panic!("table {m} not loaded"));
                match e & 3 {
                    2 => flags |= WIN_EXIT,
                    0 => flags |= DRAW_EXIT,
                    _ => {}
                }
            }
        }
        out.counts.push(count);
        out.flags.push(flags);
    }
    out
}

/// Solves one unit (`tables`: a material, or a material and its swap) from the tables in
/// `dir` it depends on, and returns each table's entries. Pure: files in, entries out.
pub fn solve_unit<R: Rules>(
    dir: &Path,
    tables: &[Material],
    threads: usize,
    progress: &ProgressBar,
) -> Result<Vec<Vec<Entry>>, EgdbError> {
    let mut deps = TableSet::default();
    for &m in tables {
        for d in m.dependencies() {
            if !tables.contains(&d) {
                deps.load::<R>(dir, d)?;
            }
        }
    }
    let unit = Unit::new::<R>(tables);
    let total = unit.total;
    let t0 = Instant::now();
    assert!(total < u32::MAX as u64, "unit too large for 32-bit edges");
    // (1) Forward pass, in chunks taken by the threads in turn.
    let chunks = (total as usize).div_ceil(CHUNK);
    let next = AtomicUsize::new(0);
    let outs: Mutex<Vec<Option<ChunkOut>>> = Mutex::new((0..chunks).map(|_| None).collect());
    thread::scope(|s| {
        for _ in 0..threads.max(1) {
            s.spawn(|| loop {
                let c = next.fetch_add(1, Ordering::Relaxed);
                if c >= chunks {
                    break;
                }
                let start = (c * CHUNK) as u64;
                let end = (start + CHUNK as u64).min(total);
                let out = forward_chunk::<R>(&unit, &deps, start..end);
                outs.lock().expect("no panic")[c] = Some(out);
                progress.inc(end - start);
            });
        }
    });
    drop(deps);
    let outs: Vec<ChunkOut> = outs
        .into_inner()
        .expect("no panic")
        .into_iter()
        .map(|o| o.expect("every chunk done"))
        .collect();
    let n = total as usize;
    let mut rem = Vec::with_capacity(n);
    let mut flags = Vec::with_capacity(n);
    for o in &outs {
        rem.extend_from_slice(&o.counts);
        flags.extend_from_slice(&o.flags);
    }
    let t_forward = t0.elapsed();
    // (2) Reverse edges: preds[pstart[j]..pstart[j + 1]] are the positions moving to j.
    let mut pstart = vec![0u32; n + 1];
    for o in &outs {
        for &e in &o.edges {
            pstart[e as usize + 1] += 1;
        }
    }
    for j in 0..n {
        pstart[j + 1] += pstart[j];
    }
    let mut fill = pstart.clone();
    let mut preds = vec![0u32; pstart[n] as usize];
    let mut from = 0u32;
    for o in outs {
        let mut k = 0;
        for &c in &o.counts {
            for &e in &o.edges[k..k + c as usize] {
                preds[fill[e as usize] as usize] = from;
                fill[e as usize] += 1;
            }
            k += c as usize;
            from += 1;
        }
    }
    drop(fill);
    let t_reverse = t0.elapsed();
    // (3) Levels.
    let mut val = vec![UNDECIDED; n];
    let mut level = Vec::new();
    let mut next_level = Vec::new();
    for i in 0..n {
        if flags[i] & NO_MOVES != 0 {
            val[i] = loss(0);
            level.push(i as u32);
        }
    }
    for i in 0..n {
        if flags[i] & WIN_EXIT != 0 {
            val[i] = win(1);
            next_level.push(i as u32);
        } else if val[i] == UNDECIDED && rem[i] == 0 && flags[i] & DRAW_EXIT == 0 {
            // Every move converts into a win for the opponent.
            val[i] = loss(1);
            next_level.push(i as u32);
        }
    }
    let mut d: u16 = 0;
    while !level.is_empty() || !next_level.is_empty() {
        for &p in &level {
            let lost = val[p as usize] & 3 == 2;
            for &q in &preds[pstart[p as usize] as usize..pstart[p as usize + 1] as usize] {
                let q = q as usize;
                if val[q] != UNDECIDED {
                    continue;
                }
                if lost {
                    val[q] = win(d + 1);
                    next_level.push(q as u32);
                } else {
                    rem[q] -= 1;
                    if rem[q] == 0 && flags[q] & DRAW_EXIT == 0 {
                        val[q] = loss(d + 1);
                        next_level.push(q as u32);
                    }
                }
            }
        }
        level.clear();
        std::mem::swap(&mut level, &mut next_level);
        d += 1;
        assert!(d < 16000, "distance overflow");
    }
    // (4) Draws.
    for v in val.iter_mut() {
        if *v == UNDECIDED {
            *v = DRAW;
        }
    }
    debug!(
        "unit {:?}: {total} positions, {} edges; forward {:.2} s, reverse {:.2} s, levels {:.2} s ({d} levels)",
        tables.iter().map(|m| m.to_string()).collect::<Vec<_>>(),
        preds.len(),
        t_forward.as_secs_f64(),
        (t_reverse - t_forward).as_secs_f64(),
        (t0.elapsed() - t_reverse).as_secs_f64()
    );
    let mut result = Vec::new();
    for t in 0..tables.len() {
        let start = unit.base[t] as usize;
        let end = start + unit.indexers[t].size() as usize;
        result.push(val[start..end].to_vec());
    }
    Ok(result)
}

/// Solves one unit ([`solve_unit`]) and writes its tables' files to `dir` (atomically);
/// returns each table's material, positions and file size in bytes.
pub fn build_unit<R: Rules>(
    dir: &Path,
    tables: &[Material],
    threads: usize,
    progress: &ProgressBar,
) -> Result<Vec<(Material, u64, u64)>, EgdbError> {
    let entries = solve_unit::<R>(dir, tables, threads, progress)?;
    let t0 = Instant::now();
    let mut out = Vec::new();
    for (&m, e) in tables.iter().zip(entries) {
        let path = file::write(dir, R::VARIANT, m, &e, threads)?;
        let size = fs::metadata(&path).map(|md| md.len()).unwrap_or(0);
        out.push((m, e.len() as u64, size));
    }
    debug!("unit written in {:.2} s", t0.elapsed().as_secs_f64());
    Ok(out)
}

/// The units of a build up to `pieces`, in dependency order: each a material with its swap
/// (one table when they are equal).
pub fn units(pieces: u32) -> Vec<Vec<Material>> {
    Material::all(pieces)
        .into_iter()
        .filter(|m| *m <= m.swapped())
        .map(|m| {
            if m == m.swapped() {
                vec![m]
            } else {
                vec![m, m.swapped()]
            }
        })
        .collect()
}

/// Builds (or completes) the variant's databases up to `opts.pieces` pieces.
pub fn build<R: Rules>(opts: &BuildOptions) -> Result<BuildReport, EgdbError> {
    let t0 = Instant::now();
    let dir = variant_dir(&opts.root, R::VARIANT);
    fs::create_dir_all(&dir).map_err(|e| EgdbError(format!("{}: {e}", dir.display())))?;
    let mut report = BuildReport::default();
    let mut todo = Vec::new();
    for u in units(opts.pieces) {
        let done = u.iter().all(|&m| file::read(&dir, R::VARIANT, m).is_ok());
        if done {
            report.kept += u.len();
        } else {
            todo.push(u);
        }
    }
    let positions: u64 = todo
        .iter()
        .flatten()
        .map(|&m| Indexer::new::<R::Board>(m).size())
        .sum();
    let pb = if opts.progress {
        ProgressBar::with_draw_target(Some(positions), ProgressDrawTarget::stderr())
    } else {
        ProgressBar::hidden()
    };
    pb.set_style(
        ProgressStyle::with_template(
            "{bar:30} {percent:>3}% {human_pos}/{human_len} positions, {per_sec}, eta {eta} {msg}",
        )
        .expect("template"),
    );
    let n = todo.len();
    for (k, u) in todo.iter().enumerate() {
        let name: Vec<String> = u.iter().map(|m| m.to_string()).collect();
        pb.set_message(format!("unit {}/{n} {}", k + 1, name.join(" ")));
        for (m, n, size) in build_unit::<R>(&dir, u, opts.threads, &pb)? {
            report.built.push((m, n, size));
            report.positions += n;
        }
    }
    pb.finish_and_clear();
    report.seconds = t0.elapsed().as_secs_f64();
    Ok(report)
}
