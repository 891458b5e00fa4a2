//! What a search may use ([`Limits`]: depth, nodes, time, clock) and how the thread that reads
//! commands controls it ([`Control`]: stop, ponder, the clock's start); the thread count.

use super::score::Depth;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::Instant;

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
    /// ([`Searcher::think_at_level`](crate::engine::search::Searcher::think_at_level)). `false`
    /// for every search a front end starts.
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
    pub(super) fn clock_ms(&self) -> u64 {
        let elapsed = self.created.elapsed().as_millis() as u64;
        elapsed.saturating_sub(self.clock_start_ms.load(Ordering::Relaxed))
    }
}
