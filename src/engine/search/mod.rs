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
//! This file declares the parts and re-exports the public types, which live in `score.rs`
//! (score bands, [`Depth`], [`Score`]), `limits.rs` ([`Limits`], [`Control`]) and `report.rs`
//! ([`Info`], [`Reporter`], [`SearchResult`]); the search itself is split by concern, listed
//! from the top down:
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
mod limits;
mod ordering;
mod pvs;
mod quiescence;
mod report;
mod score;
mod smp;
mod time;
mod worker;

pub use level::{choose, level_random, Level, LevelChoice, MAX_LEVEL};
pub use limits::{max_threads, Control, Limits, MAX_THREADS};
pub use report::{Info, Reporter, SearchResult, Silent};
pub use score::{
    Depth, Score, DB_BOUND, DB_MAX_MATERIAL, DB_STEP, DB_WIN, INF, MAX_PLY, WIN, WIN_BOUND,
};
pub use smp::Searcher;
