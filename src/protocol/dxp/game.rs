//! One DXP game: its state in a session (the start, the moves, damiera's color, the clock and
//! the game's length from the GAMEREQ), the search limits of a move from that clock
//! ([`clock_limits`]), and the [`GameSlot`] that keeps one game at a time across the
//! connections of a follower.

use crate::core::rules::Color;
use crate::engine::search::Limits;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// The search limits for one move from a DXP clock: `minutes` per player for the game, which
/// lasts `moves` moves a side (0: no move limit; Moby Dam and Scan end the game there, and so
/// does damiera, docs/dxp.md), `used_ms` milliseconds already used and `made` moves already
/// made by this side. A fixed `movetime` (ms) overrides the clock; a clock of 0 minutes
/// without one gets 1,000 ms a move.
pub fn clock_limits(
    minutes: u32,
    moves: u32,
    made: u32,
    used_ms: u64,
    movetime: Option<u64>,
) -> Limits {
    let mut limits = Limits::default();
    if let Some(ms) = movetime {
        limits.movetime = Some(ms);
    } else if minutes == 0 {
        limits.movetime = Some(1000);
    } else {
        let game = u64::from(minutes) * 60_000;
        limits.time = Some(game.saturating_sub(used_ms).max(1));
        if moves > 0 {
            limits.movestogo = Some(moves.saturating_sub(made).max(1));
        }
    }
    limits
}

/// How long a GAMEREQ waits for the game of another connection to end before it is refused
/// (GAMEACC code 2), in milliseconds.
pub const SLOT_WAIT_MS: u64 = 10_000;

/// One game at a time: the connections of one follower (`damiera dxp --listen` serves them at
/// once) share a slot, which a game holds from its GAMEACC to its end. Clones share the slot.
#[derive(Clone, Debug, Default)]
pub struct GameSlot(Arc<AtomicBool>);

/// A game's hold on its [`GameSlot`], given back when dropped.
pub(super) struct SlotHold(Arc<AtomicBool>);

impl Drop for SlotHold {
    fn drop(&mut self) {
        self.0.store(false, Ordering::SeqCst);
    }
}

impl GameSlot {
    /// Takes the slot, waiting up to `wait` for another game to end.
    pub(super) fn take(&self, wait: Duration) -> Option<SlotHold> {
        let deadline = Instant::now() + wait;
        loop {
            if self
                .0
                .compare_exchange(false, true, Ordering::SeqCst, Ordering::SeqCst)
                .is_ok()
            {
                return Some(SlotHold(Arc::clone(&self.0)));
            }
            if Instant::now() >= deadline {
                return None;
            }
            std::thread::sleep(Duration::from_millis(20));
        }
    }
}

/// One game in progress.
pub(super) struct GameState {
    pub(super) start_fen: String,
    pub(super) start_side: Color,
    pub(super) moves: Vec<String>,
    pub(super) us: Color,
    /// Thinking time per player for the game, in minutes (GAMEREQ).
    pub(super) minutes: u32,
    /// The game's length in moves a side (GAMEREQ; 0: no limit).
    pub(super) moves_per_game: u32,
    /// Milliseconds damiera has thought in this game.
    pub(super) used_ms: u64,
    pub(super) searching: bool,
    pub(super) search_started: Instant,
    /// When the side to move got the move (for the move lines on stderr).
    pub(super) turn_started: Instant,
    /// Our GAMEEND was sent and the peer's is awaited (since when).
    pub(super) end_sent: Option<Instant>,
    /// The follower's game slot, held for the game.
    pub(super) _hold: Option<SlotHold>,
}

impl GameState {
    /// Moves made by `side` since the game's start position.
    pub(super) fn made_by(&self, side: Color) -> u32 {
        let plies = self.moves.len() as u32;
        if side == self.start_side {
            plies.div_ceil(2)
        } else {
            plies / 2
        }
    }

    /// Whether a side has made the game's number of moves (GAMEREQ `moves` > 0).
    pub(super) fn at_move_limit(&self) -> bool {
        self.moves_per_game > 0 && (self.moves.len() as u32).div_ceil(2) >= self.moves_per_game
    }
}
