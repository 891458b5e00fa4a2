//! The retrograde builder (docs/egdb.md, "Building").
//!
//! The unit of work is a material and its swap (`w2k-b1k` with `w1k-b2k`): a non-converting
//! move (neither capture nor promotion) of one leads into the other, so they are solved
//! together. A unit is a pure function of the tables its conversions lead into (read from the
//! directory, built before it: [`Material::build_order`]) and writes its own tables' files;
//! a unit whose files are present and sound is never rebuilt, so an interrupted build resumes.
//!
//! A unit is cut into groups by the rows of both sides' most advanced men (a man only moves
//! forward, so a non-converting move stays in its group or goes to a group solved before; the
//! kings-only units are one group). Memory follows the largest group, which is what lets the
//! English 6-piece units (up to 215 million positions) be solved on a 24 GiB machine.
//!
//! Per group: (1) a forward pass with the move generator gives each position its legal moves:
//! conversions are looked up in the tables below (the best of them for the mover), moves to
//! groups solved before in their values, the others are edges within the group; (2) the edges
//! are reversed; (3) values spread by increasing distance from the positions decided by the
//! forward pass (no move: lost in 0, won in Antidraughts; a move to a loss in `d` outside the
//! group: won in `d + 1`, a conversion counting as `d = 0`): a predecessor of a loss in `d` is
//! a win in `d + 1`; a predecessor whose last undecided successor became a win, with no
//! drawing or losing move out of the group, is a loss in one more than its longest such win;
//! (4) whatever stays undecided is a draw.

use crate::core::bitboard::Bitboard;
use crate::core::geometry::Geometry;
use crate::core::movegen::Duplicates;
use crate::core::moves::MoveList;
use crate::core::play::Play;
use crate::core::position::Position;
use crate::core::rules::{Color, Rules};
use crate::egdb::file;
use crate::egdb::file::{variant_dir, EgdbError};
use crate::egdb::index::{Indexer, Placement};
use crate::egdb::material::{canonical, Material};
use crate::egdb::value::{loss, no_move, win, Entry, DRAW};
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
}

/// Where a [`build`] stands: given to its progress callback when a unit starts and each time
/// a chunk of positions has passed the forward pass (from one worker thread at a time). The
/// database layer draws nothing; `damiera egdb build` draws its bar from these.
#[derive(Clone, Copy, Debug)]
pub struct BuildProgress<'a> {
    /// The unit being solved, counted from 1.
    pub unit: usize,
    /// The units this build solves (those whose tables are not already complete).
    pub units: usize,
    /// The tables of the unit being solved: a material, or a material and its swap.
    pub tables: &'a [Material],
    /// Positions through the forward pass so far, over the whole build.
    pub positions: u64,
    /// Positions of all the units this build solves.
    pub total: u64,
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

    /// The entry of a placement (White to move) of material `m` in `R`'s tables; a side to
    /// move without pieces has no move ([`no_move`]). `None` if the table is not loaded.
    #[inline]
    pub fn entry<R: Rules>(&self, m: Material, p: &Placement) -> Option<Entry> {
        if m.wm + m.wk == 0 {
            return Some(no_move::<R>());
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
/// loss in 0 (a win in 0 in Antidraughts: [`no_move`]); a conversion counts 1 ply; otherwise a
/// successor's distance plus 1; the winner takes the shortest win, the loser the longest loss.
/// `verify` and `probe` use it.
pub fn value_from_successors<R: Rules>(
    pos: &Position<R>,
    list: &mut MoveList,
    mut succ: impl FnMut(&Placement, Material) -> Option<Entry>,
) -> Option<Entry> {
    <R as Play>::generate(pos, list, Duplicates::Drop);
    if list.is_empty() {
        return Some(no_move::<R>());
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

/// The group of every unit position: its tables' leading-man rows (below).
fn group_keys<R: Rules>(unit: &Unit, threads: usize) -> Vec<u8> {
    let n = unit.total as usize;
    let mut keys = vec![0u8; n];
    let symmetric = unit.indexers.len() == 1
        && unit.indexers[0].material() == unit.indexers[0].material().swapped();
    // Equal shares, one a thread: every position costs about the same.
    let share = n.div_ceil(threads.max(1)).max(1);
    thread::scope(|s| {
        for (c, part) in keys.chunks_mut(share).enumerate() {
            s.spawn(move || {
                let start = (c * share) as u64;
                for (k, key) in part.iter_mut().enumerate() {
                    let (t, local) = unit.split(start + k as u64);
                    *key = group_of::<R>(&unit.indexers[t].unrank(local), t, symmetric);
                }
            });
        }
    });
    keys
}

/// How far the side's most advanced man has come from its own back row, in rows (0 without
/// men): White's men move up, Black's down.
#[inline(always)]
fn lead<R: Rules>(men: Bitboard, white: bool) -> u8 {
    if men.is_empty() {
        return 0;
    }
    let w1 = <R::Board as Geometry>::WIDTH as u32 + 1;
    let h = <R::Board as Geometry>::HEIGHT as u32;
    let bit = if white {
        63 - men.0.leading_zeros()
    } else {
        men.0.trailing_zeros()
    };
    let row = (2 * bit + 1) / w1;
    (if white { row } else { h - 1 - row }) as u8
}

/// A position's group (`16 x + y`, rows `x` and `y` below 16): the leads of the unit's first
/// table's side to move and of its opponent. A non-converting move either keeps its group or
/// goes to a group with a larger `x + y` (a man only moves forward), so groups are solved by
/// decreasing `x + y`, each from the groups solved before it.
#[inline(always)]
fn group_of<R: Rules>(p: &Placement, table: usize, symmetric: bool) -> u8 {
    let own = lead::<R>(p.white & !p.kings, true);
    let opp = lead::<R>(p.black & !p.kings, false);
    let (x, y) = if symmetric {
        (own.min(opp), own.max(opp))
    } else if table == 0 {
        (own, opp)
    } else {
        (opp, own)
    };
    x << 4 | y
}

/// A chunk of a group's forward pass: per position, its moves within the group (as group
/// indices), and what its other moves lead to.
struct ChunkOut {
    counts: Vec<u16>,
    /// The shortest loss (for the opponent) a move out of the group leads to, `u16::MAX` if none.
    exit_loss: Vec<u16>,
    /// The longest win (for the opponent) a move out of the group leads to (0 if none).
    exit_win: Vec<u16>,
    flags: Vec<u8>,
    edges: Vec<u32>,
}

/// The group the position `i` of the unit is in, as `(group key, index in the group)`.
struct Groups<'a> {
    keys: &'a [u8],
    local: &'a [u32],
}

fn forward_chunk<R: Rules>(
    unit: &Unit,
    deps: &TableSet,
    groups: &Groups,
    val: &[Entry],
    members: &[u32],
) -> ChunkOut {
    let n = members.len();
    let mut out = ChunkOut {
        counts: Vec::with_capacity(n),
        exit_loss: Vec::with_capacity(n),
        exit_win: Vec::with_capacity(n),
        flags: Vec::with_capacity(n),
        edges: Vec::with_capacity(n * 8),
    };
    let mut list = MoveList::new();
    for &i in members {
        let group = groups.keys[i as usize];
        let (t, local) = unit.split(i as u64);
        let pos = position::<R>(&unit.indexers[t].unrank(local));
        <R as Play>::generate(&pos, &mut list, Duplicates::Drop);
        let (mut count, mut flags, mut exit_loss, mut exit_win) = (0u16, 0u8, u16::MAX, 0u16);
        if list.is_empty() {
            flags |= NO_MOVES;
        }
        for mv in list.iter() {
            let next = canonical(&pos.make(mv));
            let p = placement(&next);
            let m = material_of(&p);
            // A conversion resets the distance; another move adds one ply to its successor's.
            let (e, d) = if !mv.is_capture() && !mv.promotes {
                let j = unit.global(m, &p) as usize;
                if groups.keys[j] == group {
                    out.edges.push(groups.local[j]);
                    count += 1;
                    continue;
                }
                let e = val[j];
                (e, e >> 2)
            } else {
                let e = deps
                    .entry::<R>(m, &p)
                    .unwrap_or_else(|| panic!("table {m} not loaded"));
                (e, 0)
            };
            // `e` is the opponent's: 2 a loss, 1 a win (crate::egdb::win, loss).
            match e & 3 {
                2 => exit_loss = exit_loss.min(d),
                1 => exit_win = exit_win.max(d),
                0 => flags |= DRAW_EXIT,
                _ => panic!("{m}: a group read before it was solved"),
            }
        }
        out.counts.push(count);
        out.exit_loss.push(exit_loss);
        out.exit_win.push(exit_win);
        out.flags.push(flags);
    }
    out
}

/// Solves one unit (`tables`: a material, or a material and its swap) from the tables in
/// `dir` it depends on, and returns each table's entries. Pure: files in, entries out.
///
/// The unit is solved a group at a time (`group_of`: the rows of both sides' leading men),
/// so memory grows with the largest group, not the unit: per group position about 15 bytes
/// and 8 per move within the group, plus 11 bytes per unit position.
///
/// `progress` is called (from one worker thread at a time) with the number of positions of
/// each chunk that has passed the forward pass.
pub fn solve_unit<R: Rules>(
    dir: &Path,
    tables: &[Material],
    threads: usize,
    progress: &mut (dyn FnMut(u64) + Send),
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
    assert!(total < u32::MAX as u64, "unit too large for 32-bit indices");
    let n = total as usize;
    let t0 = Instant::now();
    // (0) Groups: keys, their members (by a counting sort) and each position's group index.
    let keys = group_keys::<R>(&unit, threads);
    let mut start = [0usize; 257];
    for &k in &keys {
        start[k as usize + 1] += 1;
    }
    for g in 0..256 {
        start[g + 1] += start[g];
    }
    let mut members = vec![0u32; n];
    let mut local = vec![0u32; n];
    let mut fill = start;
    for (i, &k) in keys.iter().enumerate() {
        let g = k as usize;
        local[i] = (fill[g] - start[g]) as u32;
        members[fill[g]] = i as u32;
        fill[g] += 1;
    }
    let groups = Groups {
        keys: &keys,
        local: &local,
    };
    let mut order: Vec<usize> = (0..256).filter(|&g| start[g + 1] > start[g]).collect();
    order.sort_by_key(|&g| std::cmp::Reverse((g >> 4) + (g & 15)));
    let mut val = vec![UNDECIDED; n];
    let mut levels = 0;
    let progress = Mutex::new(progress);
    for g in order {
        let members = &members[start[g]..start[g + 1]];
        let outs = forward_group::<R>(&unit, &deps, &groups, &val, members, threads, &progress);
        levels = levels.max(solve_group(outs, members, &mut val, no_move::<R>()));
    }
    debug!(
        "unit {:?}: {total} positions in {:.2} s, {levels} levels",
        tables.iter().map(|m| m.to_string()).collect::<Vec<_>>(),
        t0.elapsed().as_secs_f64(),
    );
    let mut result = Vec::new();
    for t in 0..tables.len() {
        let start = unit.base[t] as usize;
        let end = start + unit.indexers[t].size() as usize;
        result.push(val[start..end].to_vec());
    }
    Ok(result)
}

/// (1) The forward pass of a group, in chunks taken by the threads in turn.
fn forward_group<R: Rules>(
    unit: &Unit,
    deps: &TableSet,
    groups: &Groups,
    val: &[Entry],
    members: &[u32],
    threads: usize,
    progress: &Mutex<&mut (dyn FnMut(u64) + Send)>,
) -> Vec<ChunkOut> {
    let chunks = members.len().div_ceil(CHUNK);
    let next = AtomicUsize::new(0);
    let outs: Mutex<Vec<Option<ChunkOut>>> = Mutex::new((0..chunks).map(|_| None).collect());
    thread::scope(|s| {
        for _ in 0..threads.max(1) {
            s.spawn(|| loop {
                let c = next.fetch_add(1, Ordering::Relaxed);
                if c >= chunks {
                    break;
                }
                let part = &members[c * CHUNK..((c + 1) * CHUNK).min(members.len())];
                let out = forward_chunk::<R>(unit, deps, groups, val, part);
                outs.lock().expect("no panic")[c] = Some(out);
                (progress.lock().expect("no panic"))(part.len() as u64);
            });
        }
    });
    outs.into_inner()
        .expect("no panic")
        .into_iter()
        .map(|o| o.expect("every chunk done"))
        .collect()
}

/// (2) and (3): reverses a group's edges and spreads its values level by level (a bucket per
/// distance, as moves out of the group may lead to any distance); writes them into `val` at
/// the group's members; `stuck` is the entry of a position without a move ([`no_move`]).
/// Returns the levels used.
fn solve_group(outs: Vec<ChunkOut>, members: &[u32], val: &mut [Entry], stuck: Entry) -> usize {
    let n = members.len();
    let mut rem = Vec::with_capacity(n);
    let mut flags = Vec::with_capacity(n);
    let mut exit_loss = Vec::with_capacity(n);
    let mut win_max = Vec::with_capacity(n);
    for o in &outs {
        rem.extend_from_slice(&o.counts);
        flags.extend_from_slice(&o.flags);
        exit_loss.extend_from_slice(&o.exit_loss);
        win_max.extend_from_slice(&o.exit_win);
    }
    // Reverse edges: preds[pstart[j]..pstart[j + 1]] are the positions moving to j.
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
    // Buckets by distance: (position, won) decided at that distance unless decided before.
    let mut buckets: Vec<Vec<(u32, bool)>> = Vec::new();
    let push = |buckets: &mut Vec<Vec<(u32, bool)>>, d: usize, p: usize, won: bool| {
        if buckets.len() <= d {
            buckets.resize_with(d + 1, Vec::new);
        }
        buckets[d].push((p as u32, won));
    };
    for p in 0..n {
        if flags[p] & NO_MOVES != 0 {
            // Decided at distance 0: lost, or won in Antidraughts.
            push(&mut buckets, 0, p, stuck == win(0));
        } else if exit_loss[p] != u16::MAX {
            push(&mut buckets, exit_loss[p] as usize + 1, p, true);
        } else if rem[p] == 0 && flags[p] & DRAW_EXIT == 0 {
            // Every move leaves the group into a win for the opponent.
            push(&mut buckets, win_max[p] as usize + 1, p, false);
        }
    }
    let mut out = vec![UNDECIDED; n];
    let mut d = 0;
    while d < buckets.len() {
        let level = std::mem::take(&mut buckets[d]);
        for (p, won) in level {
            let p = p as usize;
            if out[p] != UNDECIDED {
                continue;
            }
            assert!(d < 16000, "distance overflow");
            out[p] = if won { win(d as u16) } else { loss(d as u16) };
            for &q in &preds[pstart[p] as usize..pstart[p + 1] as usize] {
                let q = q as usize;
                if out[q] != UNDECIDED {
                    continue;
                }
                if !won {
                    push(&mut buckets, d + 1, q, true);
                } else {
                    rem[q] -= 1;
                    win_max[q] = win_max[q].max(d as u16);
                    if rem[q] == 0 && flags[q] & DRAW_EXIT == 0 && exit_loss[q] == u16::MAX {
                        push(&mut buckets, win_max[q] as usize + 1, q, false);
                    }
                }
            }
        }
        d += 1;
    }
    for (p, &i) in members.iter().enumerate() {
        val[i as usize] = if out[p] == UNDECIDED { DRAW } else { out[p] };
    }
    buckets.len()
}

/// Solves one unit ([`solve_unit`]) and writes its tables' files to `dir` (atomically);
/// returns each table's material, positions and file size in bytes. `progress` as in
/// [`solve_unit`].
pub fn build_unit<R: Rules>(
    dir: &Path,
    tables: &[Material],
    threads: usize,
    progress: &mut (dyn FnMut(u64) + Send),
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

/// The units of `R`'s build up to `pieces`, in dependency order: each a material with its
/// swap (one table when they are equal), of the materials its databases hold
/// ([`Material::covered`]).
pub fn units<R: Rules>(pieces: u32) -> Vec<Vec<Material>> {
    Material::all_of::<R>(pieces)
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

/// The unit `m` belongs to: the smaller of `m` and its swap first (the unit's name), then the
/// other when they differ.
pub fn unit_of(m: Material) -> Vec<Material> {
    let first = m.min(m.swapped());
    if first == first.swapped() {
        vec![first]
    } else {
        vec![first, first.swapped()]
    }
}

/// The units `unit`'s tables look up, each named by its first material, sorted and without
/// repeats: the edges of the build's task graph (each unit is a pure function of these).
pub fn unit_dependencies(unit: &[Material]) -> Vec<Material> {
    let mut v: Vec<Material> = unit
        .iter()
        .flat_map(|m| m.dependencies())
        .map(|d| unit_of(d)[0])
        .filter(|d| !unit.contains(d))
        .collect();
    v.sort();
    v.dedup();
    v
}

/// Builds the one unit of material `m` into `<root>/<variant>/` (kept when its files are
/// there and sound), after checking that every unit it depends on ([`unit_dependencies`]) is
/// there: the task of a distributed build (docs/cluster.md). The files are those
/// [`build`] writes.
///
/// # Errors
/// A material `R`'s databases do not hold ([`Material::covered`]), a missing dependency (one
/// line naming its table), or a file error.
pub fn build_one<R: Rules>(
    root: &Path,
    m: Material,
    threads: usize,
) -> Result<BuildReport, EgdbError> {
    let t0 = Instant::now();
    let dir = variant_dir(root, R::VARIANT);
    fs::create_dir_all(&dir).map_err(|e| EgdbError(format!("{}: {e}", dir.display())))?;
    if !m.covered::<R>() {
        return Err(EgdbError(format!(
            "unit {m}: {} databases hold kings only (docs/egdb.md)",
            R::NAME
        )));
    }
    let unit = unit_of(m);
    let mut report = BuildReport::default();
    if unit
        .iter()
        .all(|&t| file::read(&dir, R::VARIANT, t).is_ok())
    {
        report.kept = unit.len();
        return Ok(report);
    }
    for d in unit_dependencies(&unit) {
        for t in unit_of(d) {
            if !dir.join(file::file_name(t)).exists() {
                return Err(EgdbError(format!(
                    "unit {}: the table {t} it depends on is not in {} (build its unit first)",
                    unit[0],
                    dir.display()
                )));
            }
        }
    }
    for (m, n, size) in build_unit::<R>(&dir, &unit, threads, &mut |_| {})? {
        report.built.push((m, n, size));
        report.positions += n;
    }
    report.seconds = t0.elapsed().as_secs_f64();
    Ok(report)
}

/// Builds (or completes) the variant's databases up to `opts.pieces` pieces, telling
/// `progress` where it stands ([`BuildProgress`]).
pub fn build<R: Rules>(
    opts: &BuildOptions,
    progress: &mut (dyn FnMut(BuildProgress) + Send),
) -> Result<BuildReport, EgdbError> {
    let t0 = Instant::now();
    let dir = variant_dir(&opts.root, R::VARIANT);
    fs::create_dir_all(&dir).map_err(|e| EgdbError(format!("{}: {e}", dir.display())))?;
    let mut report = BuildReport::default();
    let mut todo = Vec::new();
    for u in units::<R>(opts.pieces) {
        let done = u.iter().all(|&m| file::read(&dir, R::VARIANT, m).is_ok());
        if done {
            report.kept += u.len();
        } else {
            todo.push(u);
        }
    }
    let total: u64 = todo
        .iter()
        .flatten()
        .map(|&m| Indexer::new::<R::Board>(m).size())
        .sum();
    let mut positions = 0;
    for (k, u) in todo.iter().enumerate() {
        let mut at = BuildProgress {
            unit: k + 1,
            units: todo.len(),
            tables: u,
            positions,
            total,
        };
        progress(at);
        let mut step = |n: u64| {
            at.positions += n;
            progress(at);
        };
        for (m, n, size) in build_unit::<R>(&dir, u, opts.threads, &mut step)? {
            report.built.push((m, n, size));
            report.positions += n;
        }
        positions = at.positions;
    }
    report.seconds = t0.elapsed().as_secs_f64();
    Ok(report)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::rules::{English, International, Russian};

    /// Every non-converting move of every position of `tables` stays in its group or goes to
    /// a group of larger `x + y`: the order the builder solves groups in is sound. The leads
    /// are checked against rows read from the board's coordinates.
    fn groups_ordered<R: Rules>(tables: &[Material], step: u64) {
        let unit = Unit::new::<R>(tables);
        let symmetric = tables.len() == 1;
        let row_lead = |men: Bitboard, white: bool| -> u8 {
            men.into_iter()
                .map(|sq| {
                    let y = <R::Board as Geometry>::coords(sq).1;
                    if white {
                        y
                    } else {
                        <R::Board as Geometry>::HEIGHT - 1 - y
                    }
                })
                .max()
                .unwrap_or(0)
        };
        let sum = |g: u8| (g >> 4) + (g & 15);
        let mut list = MoveList::new();
        let (mut moves, mut across) = (0, 0);
        let mut i = 0;
        while i < unit.total {
            let (t, local) = unit.split(i);
            let p = unit.indexers[t].unrank(local);
            assert_eq!(
                lead::<R>(p.white & !p.kings, true),
                row_lead(p.white & !p.kings, true)
            );
            assert_eq!(
                lead::<R>(p.black & !p.kings, false),
                row_lead(p.black & !p.kings, false)
            );
            let g = group_of::<R>(&p, t, symmetric);
            let pos = position::<R>(&p);
            <R as Play>::generate(&pos, &mut list, Duplicates::Drop);
            for mv in list.iter().filter(|mv| !mv.is_capture() && !mv.promotes) {
                let q = placement(&canonical(&pos.make(mv)));
                let m = material_of(&q);
                let u = if unit.indexers[0].material() == m {
                    0
                } else {
                    1
                };
                let h = group_of::<R>(&q, u, symmetric);
                assert!(h == g || sum(h) > sum(g), "{g:x} -> {h:x}");
                moves += 1;
                across += usize::from(h != g);
            }
            i += step;
        }
        assert!(
            moves > 0 && across > 0,
            "{moves} moves, {across} across groups"
        );
    }

    #[test]
    fn non_converting_moves_never_go_back_to_an_earlier_group() {
        let m = Material::new(2, 1, 1, 1);
        groups_ordered::<English>(&[m, m.swapped()], 7);
        groups_ordered::<English>(&[Material::new(2, 0, 2, 0)], 1);
        let m = Material::new(2, 0, 1, 1);
        groups_ordered::<Russian>(&[m, m.swapped()], 5);
        let m = Material::new(1, 1, 2, 0);
        groups_ordered::<International>(&[m, m.swapped()], 101);
    }
}
