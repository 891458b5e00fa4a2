//! Time management and the other limits: the main thread's time plan (a fixed `movetime`
//! minus the overhead, or a share of the clock that depends on the pieces left), the check of
//! the stop flag and of the hard limits every 1024 nodes, the decision whether to start another
//! iteration (scaled by best-move stability), and the wait for `stop` in infinite and ponder
//! mode. The formulas are described for users in docs/protocol.md ("Time management").

use super::worker::Worker;
use super::{Control, Limits, WIN, WIN_BOUND};
use crate::engine::eval::Evaluate;
use std::sync::atomic::Ordering;

/// The time plan of the main thread, in milliseconds on the clock.
#[derive(Copy, Clone, Debug, Default)]
pub(super) struct TimePlan {
    /// No new iteration starts after `soft` × the stability factor.
    soft: Option<u64>,
    /// The search stops at `hard` whatever it is doing.
    hard: Option<u64>,
    /// Whether the time is a fixed `movetime` (no early stop).
    fixed: bool,
}

/// Milliseconds for this move: a fixed `movetime` minus the overhead, or a share of the clock
/// that depends on the number of pieces left (the game phase). `pieces` is the number of
/// pieces on the board.
pub(super) fn time_plan(limits: &Limits, pieces: u32) -> TimePlan {
    if limits.infinite {
        return TimePlan::default();
    }
    let overhead = limits.move_overhead;
    if let Some(mt) = limits.movetime {
        let t = mt.saturating_sub(overhead).max(1);
        return TimePlan {
            soft: Some(t),
            hard: Some(t),
            fixed: true,
        };
    }
    let Some(left) = limits.time else {
        return TimePlan::default();
    };
    // Keep the overhead and a margin in hand so that the flag never falls.
    let usable = left.saturating_sub(overhead.saturating_add(left / 50).saturating_add(5));
    // Moves still to play: many in the opening, fewer as pieces come off.
    let expected = (12 + pieces).clamp(16, 40) as u64;
    let moves = limits
        .movestogo
        .map_or(expected, |m| (m as u64).clamp(1, expected));
    let inc = limits.inc.min(usable);
    let soft = (usable / moves).saturating_add(inc - inc / 10).min(usable);
    // Never more than a third of the clock (plus half the increment) on one move.
    let hard = soft.saturating_mul(4).min(usable / 3 + inc / 2).min(usable);
    TimePlan {
        soft: Some(soft.min(hard).max(1)),
        hard: Some(hard.max(1)),
        fixed: false,
    }
}

impl<G: Evaluate> Worker<G> {
    /// UCI: in infinite or ponder mode the best move waits for `stop` (or a ponder-hit).
    pub(super) fn wait_for_stop(&self, limits: &Limits, control: &Control) {
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn movetime_is_used_to_the_overhead() {
        let p = time_plan(
            &Limits {
                movetime: Some(100),
                move_overhead: 10,
                ..Limits::default()
            },
            24,
        );
        assert_eq!((p.soft, p.hard, p.fixed), (Some(90), Some(90), true));
    }

    #[test]
    fn a_clock_is_never_overspent() {
        for left in [0u64, 1, 5, 50, 500, 2_000, 60_000, u64::MAX / 2, u64::MAX] {
            for inc in [0u64, 20, 1_000, u64::MAX] {
                for mtg in [None, Some(1), Some(40)] {
                    let p = time_plan(
                        &Limits {
                            time: Some(left),
                            inc,
                            movestogo: mtg,
                            move_overhead: 10,
                            ..Limits::default()
                        },
                        24,
                    );
                    let (soft, hard) = (p.soft.unwrap(), p.hard.unwrap());
                    assert!(soft <= hard, "{left} {inc} {mtg:?}: {soft} > {hard}");
                    assert!(
                        hard <= left.saturating_sub(10).max(1),
                        "{left} {inc} {mtg:?}"
                    );
                }
            }
        }
    }

    #[test]
    fn fewer_pieces_get_a_larger_share() {
        let plan = |pieces| {
            time_plan(
                &Limits {
                    time: Some(60_000),
                    move_overhead: 10,
                    ..Limits::default()
                },
                pieces,
            )
            .soft
            .unwrap()
        };
        assert!(plan(6) > plan(24));
    }
}
