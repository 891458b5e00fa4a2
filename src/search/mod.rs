//! The search: iterative deepening over a principal-variation (PVS) alpha-beta search with
//! aspiration windows, a shared transposition table, move ordering (hash move, killers,
//! history with malus), late-move reductions, ProbCut, a forced-move extension and a
//! quiescence search that resolves pending captures and, when the opponent threatens one,
//! looks one ply further instead of trusting the static evaluation (after Scan 3.1). Draws by
//! repetition and by the variant's no-progress counter score 0 and are found before
//! quiescence and before a table cutoff; wins and losses score `WIN - plies` so that shorter
//! wins are preferred.
//!
//! `Threads` > 1 runs Lazy SMP: helper threads search the same root over the shared table
//! (odd helpers one ply deeper), and the main thread's result is played.
//!
//! It reports through a [`Reporter`] and never prints. It polls a shared [`Control`] every 1024
//! nodes, so `stop` is answered within a fraction of a millisecond. Nothing in the tree search
//! allocates: move lists are on the stack, the PV table, killers and history are allocated
//! once per thread.

mod deepening;
mod ordering;
mod pvs;
mod quiescence;
mod time;

use crate::game::Game;
use crate::moves::Move;
use crate::tt::TranspositionTable;
use std::marker::PhantomData;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Arc;
use std::time::Instant;
use time::{time_plan, TimePlan};

/// A score beyond every evaluation (centi-men).
pub const INF: i32 = 32_000;
/// The score of a win now; a win in `n` plies scores `WIN - n` (a loss, the negation).
pub const WIN: i32 = 31_000;
/// Scores at least this large (in absolute value) are wins or losses.
pub const WIN_BOUND: i32 = 30_000;
/// The deepest ply the search reaches (iterations, extensions and quiescence included).
pub const MAX_PLY: usize = 120;
/// The most search threads (`Threads`).
pub const MAX_THREADS: usize = 64;

/// The most threads worth running here: the machine's cores, at most [`MAX_THREADS`].
pub fn max_threads() -> usize {
    std::thread::available_parallelism()
        .map_or(1, |n| n.get())
        .clamp(1, MAX_THREADS)
}

/// What a search may use. Times are in milliseconds.
#[derive(Clone, Debug, Default)]
pub struct Limits {
    /// Stop after this many plies of iterative deepening.
    pub depth: Option<u32>,
    /// Stop after about this many nodes.
    pub nodes: Option<u64>,
    /// Search exactly this long (minus the move overhead).
    pub movetime: Option<u64>,
    /// Time left on the side to move's clock.
    pub time: Option<u64>,
    /// Increment per move for the side to move.
    pub inc: u64,
    /// Moves until the next time control (none: sudden death or increment).
    pub movestogo: Option<u32>,
    /// Search until told to stop.
    pub infinite: bool,
    /// Time kept back per move for communication delays.
    pub move_overhead: u64,
}

/// Shared with the thread that reads commands: stop, ponder state and the clock.
#[derive(Debug)]
pub struct Control {
    /// Set to end the search at once.
    pub stop: AtomicBool,
    /// Set while pondering: no time limit applies until it is cleared (ponder-hit).
    pub pondering: AtomicBool,
    /// Milliseconds after `created` at which the clock started (the ponder-hit).
    pub clock_start_ms: AtomicU64,
    /// When this control (and so the search) was created.
    pub created: Instant,
}

impl Default for Control {
    fn default() -> Control {
        Control {
            stop: AtomicBool::new(false),
            pondering: AtomicBool::new(false),
            clock_start_ms: AtomicU64::new(0),
            created: Instant::now(),
        }
    }
}

impl Control {
    /// The opponent played the expected move: start the clock now and stop pondering.
    pub fn ponderhit(&self) {
        if self.pondering.load(Ordering::SeqCst) {
            let now = self.created.elapsed().as_millis() as u64;
            self.clock_start_ms.store(now, Ordering::SeqCst);
            self.pondering.store(false, Ordering::SeqCst);
        }
    }

    /// Milliseconds on the clock: since the ponder-hit when pondering was switched off.
    fn clock_ms(&self) -> u64 {
        let elapsed = self.created.elapsed().as_millis() as u64;
        elapsed.saturating_sub(self.clock_start_ms.load(Ordering::Relaxed))
    }
}

/// One completed iteration.
#[derive(Clone, Debug)]
pub struct Info {
    /// Nominal depth in plies.
    pub depth: u32,
    /// Deepest ply reached, extensions and quiescence included.
    pub seldepth: u32,
    /// Score in centi-men from the side to move's view; `WIN - n` is a win in `n` plies.
    pub score: i32,
    /// Nodes searched so far (all threads).
    pub nodes: u64,
    /// Milliseconds since the search started.
    pub time_ms: u64,
    /// Transposition-table occupancy, per mille.
    pub hashfull: u32,
    /// The principal variation from the root.
    pub pv: Vec<Move>,
}

impl Info {
    /// Nodes per second.
    pub fn nps(&self) -> u64 {
        self.nodes * 1000 / self.time_ms.max(1)
    }
}

/// Receives the search's progress.
pub trait Reporter {
    /// Called after each completed iteration.
    fn iteration(&mut self, info: &Info);
}

/// A reporter that ignores everything.
pub struct Silent;

impl Reporter for Silent {
    fn iteration(&mut self, _info: &Info) {}
}

/// The outcome of a search.
#[derive(Clone, Debug)]
pub struct SearchResult {
    /// The move to play (`None` when the side to move has no legal move).
    pub best: Option<Move>,
    /// The expected reply.
    pub ponder: Option<Move>,
    /// The score of the last completed iteration (centi-men).
    pub score: i32,
    /// The last completed depth.
    pub depth: u32,
    /// Nodes searched (all threads).
    pub nodes: u64,
}

/// What the threads of one search share besides the table.
struct Shared {
    control: Arc<Control>,
    /// Set by the main thread when it is done: the helpers stop.
    halt: AtomicBool,
    /// Nodes of every thread, added every 1024 nodes.
    nodes: AtomicU64,
}

/// Search state kept between searches: the shared transposition table and one worker per
/// thread, each with its ordering tables.
pub struct Searcher<G: Game> {
    tt: Arc<TranspositionTable>,
    workers: Vec<Worker<G>>,
}

/// One thread's search.
struct Worker<G: Game> {
    id: usize,
    tt: Arc<TranspositionTable>,
    shared: Arc<Shared>,
    killers: Box<[[Option<Move>; 2]; MAX_PLY + 2]>,
    history: Box<[[i32; 64]; 64]>,
    pv: Box<[[Move; MAX_PLY + 2]; MAX_PLY + 2]>,
    pv_len: Box<[usize; MAX_PLY + 2]>,
    keys: Vec<u64>,
    /// Index in `keys` of the last position after an irreversible move, per ply.
    irreversible: Box<[usize; MAX_PLY + 2]>,
    base: usize,
    nodes: u64,
    flushed: u64,
    seldepth: usize,
    stopped: bool,
    start: Instant,
    time: TimePlan,
    node_limit: Option<u64>,
    /// The best root move of the iteration under way, with its score.
    root_best: Option<(Move, i32)>,
    _g: PhantomData<G>,
}

const NO_MOVE: Move = Move::quiet(crate::Square(0), crate::Square(0), false);

impl<G: Game> Searcher<G> {
    /// A searcher with a transposition table of `hash_mib` MiB and one thread.
    ///
    /// # Panics
    /// If the table cannot be allocated ([`Searcher::set_hash`] reports that instead).
    pub fn new(hash_mib: usize) -> Self {
        Self::try_new(hash_mib).unwrap_or_else(|e| panic!("{e}"))
    }

    /// A searcher with a `hash_mib` MiB table, or an error if the table cannot be had
    /// ([`TranspositionTable::try_new`]).
    pub fn try_new(hash_mib: usize) -> Result<Self, String> {
        let tt = Arc::new(TranspositionTable::try_new(hash_mib)?);
        let workers = vec![Worker::new(0, &tt)];
        Ok(Searcher { tt, workers })
    }

    /// Replaces the table by one of `mib` MiB (the old one is freed first).
    ///
    /// # Errors
    /// If that much memory cannot be allocated; the table is then `fallback_mib` MiB.
    pub fn set_hash(&mut self, mib: usize, fallback_mib: usize) -> Result<(), String> {
        self.tt = Arc::new(TranspositionTable::new(1));
        for w in &mut self.workers {
            w.tt = Arc::clone(&self.tt);
        }
        let r = match TranspositionTable::try_new(mib) {
            Ok(tt) => {
                self.tt = Arc::new(tt);
                Ok(())
            }
            Err(e) => {
                self.tt = Arc::new(TranspositionTable::new(fallback_mib));
                Err(e)
            }
        };
        for w in &mut self.workers {
            w.tt = Arc::clone(&self.tt);
        }
        r
    }

    /// The number of search threads (1 to [`MAX_THREADS`]).
    pub fn set_threads(&mut self, n: usize) {
        let n = n.clamp(1, MAX_THREADS);
        self.workers.truncate(n);
        while self.workers.len() < n {
            let id = self.workers.len();
            self.workers.push(Worker::new(id, &self.tt));
        }
    }

    /// The number of search threads.
    pub fn threads(&self) -> usize {
        self.workers.len()
    }

    /// Transposition-table occupancy, per mille.
    pub fn hashfull(&self) -> u32 {
        self.tt.hashfull()
    }

    /// Forgets everything learnt (a new game).
    pub fn clear(&mut self) {
        self.tt.clear();
        for w in &mut self.workers {
            w.history.iter_mut().for_each(|r| r.fill(0));
            w.killers.fill([None; 2]);
        }
    }

    /// Searches `root` and returns the best move. `history` holds the keys of the game's
    /// earlier positions back to the last irreversible move (oldest first, the root excluded),
    /// for repetition detection.
    pub fn think(
        &mut self,
        root: &G::Position,
        history: &[u64],
        limits: &Limits,
        control: &Arc<Control>,
        reporter: &mut dyn Reporter,
    ) -> SearchResult {
        let shared = Arc::new(Shared {
            control: Arc::clone(control),
            halt: AtomicBool::new(false),
            nodes: AtomicU64::new(0),
        });
        self.tt.new_search();
        let plan = time_plan(limits, G::piece_count(root));
        for w in &mut self.workers {
            w.prepare(root, history, limits, &shared, plan);
        }
        let (main, helpers) = self.workers.split_at_mut(1);
        let main = &mut main[0];
        let result = std::thread::scope(|s| {
            for h in helpers.iter_mut() {
                let spawned = std::thread::Builder::new()
                    .name("search-helper".into())
                    .stack_size(32 << 20)
                    .spawn_scoped(s, move || {
                        h.iterate(root, limits, &mut Silent);
                    });
                if let Err(e) = spawned {
                    log::error!("cannot start a search helper thread: {e}");
                }
            }
            let r = main.iterate(root, limits, reporter);
            shared.halt.store(true, Ordering::SeqCst);
            r
        });
        let mut result = result;
        result.nodes = shared.nodes.load(Ordering::Relaxed);
        result
    }
}

impl<G: Game> Worker<G> {
    fn new(id: usize, tt: &Arc<TranspositionTable>) -> Self {
        Worker {
            id,
            tt: Arc::clone(tt),
            shared: Arc::new(Shared {
                control: Arc::new(Control::default()),
                halt: AtomicBool::new(false),
                nodes: AtomicU64::new(0),
            }),
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
            _g: PhantomData,
        }
    }

    fn prepare(
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
    }

    /// All nodes of the search so far: the shared total plus this thread's unflushed count.
    fn total_nodes(&self) -> u64 {
        self.shared.nodes.load(Ordering::Relaxed) + (self.nodes - self.flushed)
    }

    fn flush_nodes(&mut self) {
        self.shared
            .nodes
            .fetch_add(self.nodes - self.flushed, Ordering::Relaxed);
        self.flushed = self.nodes;
    }

    /// Whether the position at `ply` repeats an earlier one with the same side to move since
    /// the last irreversible move.
    #[inline]
    fn is_repetition(&self, ply: usize) -> bool {
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
    fn push_child(&mut self, pos: &G::Position, mv: &Move, child: &G::Position, ply: usize) {
        let i = self.base + ply + 1;
        self.keys.truncate(i);
        self.keys.push(G::key(child));
        self.irreversible[ply + 1] = if G::is_irreversible(pos, mv) {
            i
        } else {
            self.irreversible[ply]
        };
    }

    fn update_pv(&mut self, ply: usize, mv: Move) {
        let child_len = self.pv_len[ply + 1];
        self.pv[ply][0] = mv;
        for k in 0..child_len.min(MAX_PLY) {
            self.pv[ply][k + 1] = self.pv[ply + 1][k];
        }
        self.pv_len[ply] = child_len + 1;
    }
}
