//! What the search reports: each completed iteration ([`Info`], to a [`Reporter`]) and the
//! outcome ([`SearchResult`]).

use super::score::{Depth, Score};
use crate::core::moves::Move;

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
