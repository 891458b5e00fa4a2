//! The search: iterative deepening over a principal-variation (PVS) alpha-beta search with
//! aspiration windows, a shared transposition table, move ordering (hash move, killers,
//! history with malus), late-move reductions (adjusted by history), ProbCut, a singular
//! extension of the hash move, a forced-move extension and a
//! quiescence search that resolves pending captures and, when the opponent threatens one,
//! looks one ply further instead of trusting the static evaluation (after Scan 3.1). Draws by
//! repetition and by the variant's no-progress counter score 0 and are found before
//! quiescence and before a table cutoff; wins and losses score `WIN - plies` so that shorter
//! wins are preferred.
//!
//! `Threads` > 1 runs Lazy SMP: helper threads search the same root over the shared table
//! (odd helpers one ply deeper, each skipping a depth another thread is searching), and the
//! deepest completed iteration is played: the main thread's, or a helper's when deeper.
//!
//! It reports through a [`Reporter`] and never prints. It polls a shared [`Control`] every 1024
//! nodes, so `stop` is answered within a fraction of a millisecond. Nothing in the tree search
//! allocates: move lists are on the stack, the PV table, killers and history are allocated
//! once per thread.
//!
//! This file holds the public types (limits, control, reports, result, score constants); the
//! search itself is split by concern, listed from the top down:
//!
//! - `smp.rs`: the [`Searcher`] and Lazy SMP (the shared table, helper threads);
//! - `deepening.rs`: iterative deepening and aspiration windows at the root;
//! - `pvs.rs`: the PVS node search with ProbCut, the singular extension, late-move reductions
//!   and the table;
//! - `quiescence.rs`: captures and threats at the horizon;
//! - `level.rs`: strength levels below the full search (root moves scored, one chosen);
//! - `time.rs`: the time plan, the limits polled during the search, when to stop iterating;
//! - `ordering.rs`: move ordering (keys, lazy picking, killers and history);
//! - `worker.rs`: one thread's state (tables, repetition keys, node counts, PV).

mod deepening;
mod level;
mod ordering;
mod pvs;
mod quiescence;
mod smp;
mod time;
mod worker;

pub use level::{choose, level_random, Level, LevelChoice, MAX_LEVEL};
pub use smp::Searcher;

use crate::core::moves::Move;
use std::fmt;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::Instant;

/// A score beyond every evaluation (centi-men).
pub const INF: i32 = 32_000;
/// The score of a win now; a win in `n` plies scores `WIN - n` (a loss, the negation).
pub const WIN: i32 = 31_000;
/// Scores at least this large (in absolute value) are wins or losses.
pub const WIN_BOUND: i32 = 30_000;
/// The score of an endgame-database win at the node probed, before material and distances: a
/// database win `d` plies from conversion at `ply` plies from the root, with `m` pieces plus
/// men on the board, scores `DB_WIN - DB_STEP * m - ply - d` (a loss, the negation). So the
/// search prefers a conversion that keeps the win (it lowers `m`: a capture or a promotion),
/// and else the shortest way to one. Ranking by the distance alone would not: it restarts at
/// every conversion, so a line that converts late could look shorter than one that converts
/// now, and the winner could wander inside a table (a real draw by repetition, found by
/// `damiera egdb convert`). Below every win the search proves ([`WIN_BOUND`]) and above every
/// evaluation (a few thousand centi-men at most).
pub const DB_WIN: i32 = 29_000;
/// The score of one unit of material (a piece, or a man) in a database win ([`DB_WIN`]): more
/// than any ply plus distance (the distance counted is capped at `DB_STEP - MAX_PLY - 1`).
pub const DB_STEP: i32 = 512;
/// Pieces plus men counted in a database win's score ([`DB_WIN`]), at most: 16, eight men, the
/// most any database damiera builds holds; more (a larger database) count as 16.
pub const DB_MAX_MATERIAL: u32 = 16;
/// Scores from this up to [`WIN_BOUND`] (in absolute value) are database wins or losses
/// ([`DB_WIN`]); they are reported as [`Score::Cp`] of the search score. The transposition
/// table stores them relative to the node, as it does wins ([`crate::engine::tt::PLY_RELATIVE_BOUND`]).
pub const DB_BOUND: i32 = 20_000;

/// A search depth in plies: what [`Limits`] asks for and [`Info`] and [`SearchResult`]
/// report across the engine's boundary (inside the search, plies are plain integers).
#[derive(Copy, Clone, PartialEq, Eq, PartialOrd, Ord, Hash, Debug, Default)]
pub struct Depth(pub u32);

impl fmt::Display for Depth {
    /// The number of plies.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.0)
    }
}

/// A score as the search reports it across its boundary (inside the search, scores are
/// centi-men integers with [`WIN`] `- n` for a win in `n` plies). An endgame-database win or
/// loss ([`DB_WIN`] band) is a `Cp` of [`DB_BOUND`] or more in absolute value.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub enum Score {
    /// Centi-men from the side to move's view.
    Cp(i32),
    /// A win in this many plies.
    Win(u32),
    /// A loss in this many plies.
    Loss(u32),
}

impl Score {
    /// From a search score (centi-men, or [`WIN`] `- n` for a win in `n` plies).
    pub fn from_search(s: i32) -> Score {
        if s >= WIN_BOUND {
            Score::Win((WIN - s) as u32)
        } else if s <= -WIN_BOUND {
            Score::Loss((WIN + s) as u32)
        } else {
            Score::Cp(s)
        }
    }

    /// The search score this is (the inverse of [`Score::from_search`]).
    pub fn to_search(self) -> i32 {
        match self {
            Score::Cp(s) => s,
            Score::Win(n) => WIN - n as i32,
            Score::Loss(n) => -WIN + n as i32,
        }
    }
}
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
    pub depth: Option<Depth>,
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
    /// Return as soon as the search ends, even with `infinite` or while pondering (the caller
    /// waits for `stop` itself): the root moves' searches of a strength level
    /// ([`Searcher::think_at_level`]). `false` for every search a front end starts.
    pub return_when_done: bool,
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
    /// Nominal depth.
    pub depth: Depth,
    /// Deepest ply reached, extensions and quiescence included.
    pub seldepth: Depth,
    /// The score from the side to move's view.
    pub score: Score,
    /// Nodes searched so far (all threads).
    pub nodes: u64,
    /// Milliseconds since the search started.
    pub time_ms: u64,
    /// Transposition-table occupancy, per mille.
    pub hashfull: u32,
    /// Endgame-database probes that decided a node (all threads).
    pub db_hits: u64,
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
    /// The score of the last completed iteration.
    pub score: Score,
    /// The last completed depth.
    pub depth: Depth,
    /// Nodes searched (all threads).
    pub nodes: u64,
    /// Endgame-database probes that decided a node (all threads).
    pub db_hits: u64,
}

#[cfg(test)]
mod tests {
    use super::{DB_BOUND, DB_MAX_MATERIAL, DB_STEP, DB_WIN, MAX_PLY, WIN_BOUND};
    use crate::engine::tt::PLY_RELATIVE_BOUND;

    #[test]
    fn database_scores_lie_between_evaluations_and_wins() {
        assert_eq!(PLY_RELATIVE_BOUND, DB_BOUND);
        // The most material counted, plus the deepest ply and the longest distance counted
        // (together less than one step).
        let lowest = DB_WIN - DB_STEP * (DB_MAX_MATERIAL as i32 + 1);
        assert!(lowest > DB_BOUND && DB_WIN < WIN_BOUND);
        assert!((MAX_PLY as i32) < DB_STEP);
    }
}
