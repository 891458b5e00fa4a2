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
mod worker;

use crate::game::Game;
use crate::moves::Move;
use crate::tt::TranspositionTable;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Arc;
use std::time::Instant;
use time::time_plan;
use worker::Worker;

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
