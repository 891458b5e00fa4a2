//! Lazy SMP: the [`Searcher`] owns the transposition table behind an `Arc` and one
//! [`Worker`] per thread. With `Threads` > 1 the helper threads run the same iterative
//! deepening over the shared table (odd helpers one ply deeper, and a helper skips a depth
//! another thread has started, so the threads search different depths) until the main thread
//! is done; only the main thread keeps time and reports. Its result is played, unless a helper
//! completed a deeper iteration: then that one is (reported as one more `info` line). One
//! thread gives the same nodes as before threads existed, so `bench` stays a signature
//! (docs/architecture.md).

use super::limits::{Control, Limits, MAX_THREADS};
use super::report::{Reporter, SearchResult, Silent};
use super::time::time_plan;
use super::worker::{Shared, Worker};
use crate::egdb::{Egdb, ProbeCache};
use crate::engine::eval::{self, Evaluate, Net};
use crate::engine::tt::TranspositionTable;
use std::sync::atomic::Ordering;
use std::sync::Arc;

/// Search state kept between searches: the shared transposition table, the evaluation's
/// weights and one worker per thread, each with its ordering tables.
pub struct Searcher<G: Evaluate> {
    tt: Arc<TranspositionTable>,
    /// The learned weights the workers evaluate with (`None`: the hand-set evaluation).
    net: Option<Arc<Net>>,
    /// The endgame databases the workers probe (`None`: none) and the most pieces probed.
    egdb: Option<Arc<Egdb>>,
    egdb_pieces: u32,
    /// Centi-men a draw is worth less than level to the side to move at the root.
    pub(super) contempt: i32,
    pub(super) workers: Vec<Worker<G>>,
}

impl<G: Evaluate> Searcher<G> {
    /// A searcher with a transposition table of `hash_mib` MiB and one thread, evaluating
    /// with the variant's built-in weights ([`eval::built_in`]; [`Searcher::set_weights`]
    /// changes them).
    ///
    /// # Panics
    /// If the table cannot be allocated ([`Searcher::set_hash`] reports that instead).
    pub fn new(hash_mib: usize) -> Self {
        Self::try_new(hash_mib).unwrap_or_else(|e| panic!("{e}"))
    }

    /// A searcher with a `hash_mib` MiB table, or an error if the table cannot be had
    /// ([`TranspositionTable::try_new`]); built-in weights as [`Searcher::new`].
    pub fn try_new(hash_mib: usize) -> Result<Self, String> {
        let tt = Arc::new(TranspositionTable::try_new(hash_mib)?);
        let net = eval::built_in(G::VARIANT);
        let workers = vec![Worker::new(0, &tt, net.clone())];
        Ok(Searcher {
            tt,
            net,
            egdb: None,
            egdb_pieces: 0,
            contempt: 0,
            workers,
        })
    }

    /// The learned weights the next searches evaluate with (`None`: the hand-set evaluation):
    /// the variant's own (a [`Net`] of its board), as [`eval::Evaluation::weights`] gives them.
    pub fn set_weights(&mut self, net: Option<Arc<Net>>) {
        for w in &mut self.workers {
            w.net = net.clone();
        }
        self.net = net;
    }

    /// The endgame databases the next searches probe at quiet nodes of at most `pieces`
    /// pieces (`None`: no probing, the search is exactly the one without databases). The
    /// tables must be the variant's (a foreign [`Egdb`] answers nothing).
    pub fn set_egdb(&mut self, egdb: Option<Arc<Egdb>>, pieces: u32) {
        let pieces = egdb.as_ref().map_or(0, |db| pieces.min(db.max_pieces()));
        // The probe caches stay while the tables do (every search sets them).
        let same = match (&self.egdb, &egdb) {
            (Some(a), Some(b)) => Arc::ptr_eq(a, b),
            (None, None) => true,
            _ => false,
        };
        for w in &mut self.workers {
            w.egdb = egdb.clone();
            w.egdb_pieces = pieces;
            if !same {
                w.db_cache = Self::db_cache(&egdb);
            }
        }
        self.egdb = egdb;
        self.egdb_pieces = pieces;
    }

    /// Contempt in centi-men (0 until set): every draw the next searches find (repetition, a
    /// draw counter, a database draw) scores `-cm` for the side to move at the root and `+cm`
    /// for the other, so that with `cm > 0` the engine plays on rather than draw where it
    /// stands no worse than `-cm`. The reported scores carry it (a drawn root shows `-cm`).
    pub fn set_contempt(&mut self, cm: i32) {
        for w in &mut self.workers {
            w.contempt = cm;
        }
        self.contempt = cm;
    }

    /// A thread's probe cache for `egdb`: 8 MiB with tables, nothing without.
    fn db_cache(egdb: &Option<Arc<Egdb>>) -> ProbeCache {
        if egdb.is_some() {
            ProbeCache::allocated()
        } else {
            ProbeCache::empty()
        }
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
            let mut w = Worker::new(id, &self.tt, self.net.clone());
            w.egdb = self.egdb.clone();
            w.egdb_pieces = self.egdb_pieces;
            w.db_cache = Self::db_cache(&self.egdb);
            w.contempt = self.contempt;
            self.workers.push(w);
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
        let shared = Arc::new(Shared::new(Arc::clone(control)));
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
        result.db_hits = shared.db_hits.load(Ordering::Relaxed);
        result
    }
}
