//! One search thread's state: its handle on the shared table and on what the threads share, the
//! evaluation's weights, its ordering tables (killers, history), the PV table, the keys of the
//! game and of the line being searched for repetition detection, node counting (flushed to the
//! shared total every 1024 nodes) and its limits: the time plan applied (stop flag and hard
//! limits every 1024 nodes, whether to start another iteration) and the wait for `stop` in
//! infinite and ponder mode. The tables are allocated when the worker is made and the key list
//! is sized before each search, so nothing in the tree search allocates.

use super::limits::{Control, Limits};
use super::score::{DB_MAX_MATERIAL, DB_STEP, DB_WIN, MAX_PLY, WIN, WIN_BOUND};
use super::time::TimePlan;
use crate::core::moves::Move;
use crate::egdb::{Egdb, ProbeCache, Wld};
use crate::engine::eval::network::Accumulator;
use crate::engine::eval::{Evaluate, Net, Planes};
use crate::engine::tt::TranspositionTable;
use std::marker::PhantomData;
use std::sync::atomic::{AtomicBool, AtomicU32, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Instant;

/// One thread's search.
pub(super) struct Worker<G: Evaluate> {
    pub(super) id: usize,
    pub(super) tt: Arc<TranspositionTable>,
    pub(super) shared: Arc<Shared>,
    /// The learned weights the static evaluation uses (`None`: the hand-set evaluation),
    /// shared with the other threads and the engine; lent to [`Evaluate::evaluate`] by
    /// reference.
    pub(super) net: Option<Arc<Net>>,
    /// The endgame databases probed at quiet nodes (`None`: none loaded), shared with the
    /// other threads and the engine.
    pub(super) egdb: Option<Arc<Egdb>>,
    /// The most pieces a probed position has (the loaded tables capped by `EgdbPieces`).
    pub(super) egdb_pieces: u32,
    /// This thread's cache of probe results (allocated with the first tables: empty
    /// without).
    pub(super) db_cache: ProbeCache,
    /// Database probes that decided a node; flushed to the shared total with the nodes.
    pub(super) db_hits: u64,
    pub(super) db_flushed: u64,
    pub(super) killers: Box<[[Option<Move>; 2]; MAX_PLY + 2]>,
    pub(super) history: Box<[[i32; 64]; 64]>,
    pub(super) pv: Box<[[Move; MAX_PLY + 2]; MAX_PLY + 2]>,
    pub(super) pv_len: Box<[usize; MAX_PLY + 2]>,
    pub(super) keys: Vec<u64>,
    /// Index in `keys` of the last position after an irreversible move, per ply.
    pub(super) irreversible: Box<[usize; MAX_PLY + 2]>,
    pub(super) base: usize,
    pub(super) nodes: u64,
    pub(super) flushed: u64,
    pub(super) seldepth: usize,
    pub(super) stopped: bool,
    pub(super) start: Instant,
    pub(super) time: TimePlan,
    pub(super) node_limit: Option<u64>,
    /// The best root move of the iteration under way, with its score.
    pub(super) root_best: Option<(Move, i32)>,
    /// With an evaluation network: the last position evaluated at each ply and its first
    /// layer ([`Worker::static_eval`]).
    pub(super) nn: Box<[NnSlot; MAX_PLY + 2]>,
    /// Centi-men a draw is worth less than level to the side to move at the root
    /// ([`Searcher::set_contempt`](super::Searcher::set_contempt)).
    pub(super) contempt: i32,
    _g: PhantomData<G>,
}

/// A position's first-layer sums for the evaluation network, kept per ply by the search.
#[derive(Copy, Clone, Default)]
pub(super) struct NnSlot {
    planes: Planes,
    acc: Accumulator,
    valid: bool,
}

const NO_MOVE: Move = Move::quiet(crate::Square(0), crate::Square(0), false);

impl<G: Evaluate> Worker<G> {
    pub(super) fn new(id: usize, tt: &Arc<TranspositionTable>, net: Option<Arc<Net>>) -> Self {
        Worker {
            id,
            tt: Arc::clone(tt),
            net,
            egdb: None,
            egdb_pieces: 0,
            db_cache: ProbeCache::empty(),
            db_hits: 0,
            db_flushed: 0,
            shared: Arc::new(Shared::new(Arc::new(Control::default()))),
            killers: Box::new([[None; 2]; MAX_PLY + 2]),
            history: Box::new([[0; 64]; 64]),
            pv: Box::new([[NO_MOVE; MAX_PLY + 2]; MAX_PLY + 2]),
            pv_len: Box::new([0; MAX_PLY + 2]),
            keys: Vec::new(),
            irreversible: Box::new([0; MAX_PLY + 2]),
            base: 0,
            nodes: 0,
            flushed: 0,
            seldepth: 0,
            stopped: false,
            start: Instant::now(),
            time: TimePlan::default(),
            node_limit: None,
            root_best: None,
            nn: Box::new([NnSlot::default(); MAX_PLY + 2]),
            contempt: 0,
            _g: PhantomData,
        }
    }

    pub(super) fn prepare(
        &mut self,
        root: &G::Position,
        history: &[u64],
        limits: &Limits,
        shared: &Arc<Shared>,
        time: TimePlan,
    ) {
        self.shared = Arc::clone(shared);
        self.start = Instant::now();
        self.nodes = 0;
        self.flushed = 0;
        self.db_hits = 0;
        self.db_flushed = 0;
        self.seldepth = 0;
        self.stopped = false;
        self.killers.fill([None; 2]);
        for row in self.history.iter_mut() {
            for h in row.iter_mut() {
                *h /= 8;
            }
        }
        self.time = time;
        self.node_limit = limits.nodes;
        self.keys.clear();
        self.keys.reserve(history.len() + MAX_PLY + 4);
        self.keys.extend_from_slice(history);
        self.keys.push(G::key(root));
        self.base = history.len();
        self.irreversible[0] = 0;
        // The weights may have changed since the last search.
        self.nn.iter_mut().for_each(|s| s.valid = false);
    }

    /// The static evaluation of `pos`, at `ply`, in centi-men for the side to move
    /// ([`Evaluate::evaluate`]). With an evaluation network the first layer is not computed
    /// from scratch: it is updated from the nearest of the positions last evaluated at this
    /// ply and the two before (a sibling, the parent or an uncle: a few squares differ), or
    /// refreshed when none is nearer than the pieces on the board. Allocates nothing.
    #[inline]
    pub(super) fn static_eval(&mut self, pos: &G::Position, ply: usize) -> i32 {
        let Some(n) = self.net.as_deref().and_then(Net::network) else {
            return G::evaluate(pos, self.net.as_deref());
        };
        let p = G::planes(pos);
        let at = ply.min(MAX_PLY + 1);
        let occupied = p.white | p.black;
        let mut best = None;
        let mut best_cost = occupied.count_ones();
        for i in (at.saturating_sub(2)..=at).rev() {
            let s = &self.nn[i];
            if s.valid {
                let q = &s.planes;
                let cost = ((p.white ^ q.white)
                    | (p.black ^ q.black)
                    | (p.rank2 ^ q.rank2)
                    | (p.rank3 ^ q.rank3))
                    .count_ones();
                if cost < best_cost {
                    (best, best_cost) = (Some(i), cost);
                }
            }
        }
        match best {
            Some(i) => {
                let from = self.nn[i].planes;
                if i != at {
                    self.nn[at].acc = self.nn[i].acc;
                }
                self.nn[at].acc.update(n, &from, &p);
            }
            None => self.nn[at].acc.refresh(n, &p),
        }
        self.nn[at].planes = p;
        self.nn[at].valid = true;
        G::network_score(&p, n.evaluate(&self.nn[at].acc, &p))
    }

    /// All nodes of the search so far: the shared total plus this thread's unflushed count.
    pub(super) fn total_nodes(&self) -> u64 {
        self.shared.nodes.load(Ordering::Relaxed) + (self.nodes - self.flushed)
    }

    pub(super) fn flush_nodes(&mut self) {
        self.shared
            .nodes
            .fetch_add(self.nodes - self.flushed, Ordering::Relaxed);
        self.flushed = self.nodes;
        if self.db_hits != self.db_flushed {
            self.shared
                .db_hits
                .fetch_add(self.db_hits - self.db_flushed, Ordering::Relaxed);
            self.db_flushed = self.db_hits;
        }
    }

    /// The endgame database's score of the node at `ply` (not the root), if it decides it:
    /// `None` without databases, with more pieces than loaded, with a capture pending, and for
    /// a win or loss whose distance to conversion exceeds the plies the draw counters still
    /// allow (the search goes on there: the database promises nothing, docs/egdb.md). A draw
    /// scores 0; a win `DB_WIN - DB_STEP * material - ply - distance`, a loss its negation
    /// ([`DB_WIN`]). `quiet`: the caller knows the side to move has no capture (the check is
    /// skipped).
    #[inline(always)]
    pub(super) fn probe_db(&mut self, pos: &G::Position, ply: usize, quiet: bool) -> Option<i32> {
        let db = self.egdb.as_deref()?;
        if G::piece_count(pos) > self.egdb_pieces {
            return None;
        }
        let p = G::probe_egdb_cached(db, pos, quiet, &mut self.db_cache)?;
        let d = u32::from(p.probe.distance.unwrap_or(0));
        let capped = d.min((DB_STEP as usize - MAX_PLY - 1) as u32);
        let material = p.material.min(DB_MAX_MATERIAL) as i32;
        let win = DB_WIN - DB_STEP * material - ply as i32 - capped as i32;
        let score = match p.probe.value {
            Wld::Draw => self.draw_score(ply),
            Wld::Win if d <= p.plies_left => win,
            Wld::Loss if d <= p.plies_left => -win,
            _ => return None,
        };
        self.db_hits += 1;
        self.seldepth = self.seldepth.max(ply);
        Some(score)
    }

    /// The score of a draw (repetition, a draw counter, a database draw) at `ply`, from its
    /// side to move's view, in centi-men: `-contempt` for the side to move at the root (even
    /// plies), `+contempt` for the other.
    #[inline]
    pub(super) fn draw_score(&self, ply: usize) -> i32 {
        if ply & 1 == 0 {
            -self.contempt
        } else {
            self.contempt
        }
    }

    /// Whether the position at `ply` repeats an earlier one with the same side to move since
    /// the last irreversible move.
    #[inline]
    pub(super) fn is_repetition(&self, ply: usize) -> bool {
        let i = self.base + ply;
        let key = self.keys[i];
        let floor = self.irreversible[ply];
        let mut j = i;
        while j >= floor + 2 {
            j -= 2;
            if self.keys[j] == key {
                return true;
            }
        }
        false
    }

    /// Records the child reached by `mv` at `ply + 1` for repetition detection.
    #[inline]
    pub(super) fn push_child(
        &mut self,
        pos: &G::Position,
        mv: &Move,
        child: &G::Position,
        ply: usize,
    ) {
        let i = self.base + ply + 1;
        self.keys.truncate(i);
        self.keys.push(G::key(child));
        self.irreversible[ply + 1] = if G::is_irreversible(pos, mv) {
            i
        } else {
            self.irreversible[ply]
        };
    }

    pub(super) fn update_pv(&mut self, ply: usize, mv: Move) {
        let child_len = self.pv_len[ply + 1];
        self.pv[ply][0] = mv;
        for k in 0..child_len.min(MAX_PLY) {
            self.pv[ply][k + 1] = self.pv[ply + 1][k];
        }
        self.pv_len[ply] = child_len + 1;
    }
}

/// What the threads of one search share besides the table.
pub(super) struct Shared {
    pub(super) control: Arc<Control>,
    /// Set by the main thread when it is done, or by a helper that completes the depth
    /// limit: every thread stops.
    pub(super) halt: AtomicBool,
    /// Nodes of every thread, added every 1024 nodes.
    pub(super) nodes: AtomicU64,
    /// Endgame-database hits of every thread, added with the nodes.
    pub(super) db_hits: AtomicU64,
    /// Lazy SMP: how many threads are searching each depth now (a helper skips a depth that
    /// another thread has started, so two threads search two depths).
    pub(super) searching: [AtomicU32; MAX_PLY + 2],
    /// Lazy SMP: the deepest iteration a helper completed (depth, selective depth, score, PV);
    /// the main thread plays it when it is deeper than its own.
    pub(super) helper_best: Mutex<Option<HelperResult>>,
}

/// The deepest iteration a Lazy SMP helper completed ([`Shared::helper_best`]).
#[derive(Clone, Debug)]
pub(super) struct HelperResult {
    pub(super) depth: u32,
    /// The helper's selective depth then (its PV's plies were all reached by it).
    pub(super) seldepth: u32,
    pub(super) score: i32,
    pub(super) pv: Vec<Move>,
}

impl Shared {
    /// Nothing searched yet, under `control`.
    pub(super) fn new(control: Arc<Control>) -> Shared {
        Shared {
            control,
            halt: AtomicBool::new(false),
            nodes: AtomicU64::new(0),
            db_hits: AtomicU64::new(0),
            searching: std::array::from_fn(|_| AtomicU32::new(0)),
            helper_best: Mutex::new(None),
        }
    }
}

impl<G: Evaluate> Worker<G> {
    /// UCI: in infinite or ponder mode the best move waits for `stop` (or a ponder-hit).
    pub(super) fn wait_for_stop(&self, limits: &Limits, control: &Control) {
        park_until_stop(limits, control);
    }

    pub(super) fn should_stop_iterating(
        &self,
        depth: u32,
        score: i32,
        n_root: usize,
        factor: f64,
    ) -> bool {
        let control = &self.shared.control;
        if control.stop.load(Ordering::Relaxed) {
            return true;
        }
        if control.pondering.load(Ordering::Relaxed) {
            return false;
        }
        if self.node_limit.is_some_and(|n| self.total_nodes() >= n) {
            return true;
        }
        // A forced move needs no thought.
        if n_root == 1 && depth >= 4 && (self.time.soft.is_some() || self.node_limit.is_some()) {
            return true;
        }
        if let (Some(soft), false) = (self.time.soft, self.time.fixed) {
            // A new iteration costs about as much as all before it: start one only if it
            // has a fair chance to finish within the (stability-scaled) share.
            let t = control.clock_ms() as f64;
            if t >= soft as f64 * factor * 0.5 {
                return true;
            }
        }
        // A win or loss found within the horizon will not change.
        score.abs() >= WIN_BOUND && (WIN - score.abs()) < depth as i32
    }

    #[inline]
    pub(super) fn poll(&mut self) {
        if self.nodes & 1023 == 0 {
            self.check_limits();
        }
    }

    fn check_limits(&mut self) {
        self.flush_nodes();
        let control = &self.shared.control;
        if control.stop.load(Ordering::Relaxed) || self.shared.halt.load(Ordering::Relaxed) {
            self.stopped = true;
            return;
        }
        if self.id != 0 {
            return;
        }
        if self.node_limit.is_some_and(|n| self.total_nodes() >= n) {
            self.stopped = true;
        } else if !control.pondering.load(Ordering::Relaxed) {
            if let Some(hard) = self.time.hard {
                if control.clock_ms() >= hard {
                    self.stopped = true;
                }
            }
        }
    }
}

/// Returns at once unless the search is `infinite` or pondering (and not
/// [`Limits::return_when_done`]): then it waits, parked, for `stop` or the ponder-hit.
pub(super) fn park_until_stop(limits: &Limits, control: &Control) {
    if limits.return_when_done {
        return;
    }
    while (limits.infinite || control.pondering.load(Ordering::Relaxed))
        && !control.stop.load(Ordering::Relaxed)
    {
        if !limits.infinite && !control.pondering.load(Ordering::Relaxed) {
            break;
        }
        // Parked rather than asleep: the engine unparks this thread when it stops it, so
        // `stop` is answered at once; a ponder-hit is seen within the millisecond.
        std::thread::park_timeout(std::time::Duration::from_millis(1));
    }
}
