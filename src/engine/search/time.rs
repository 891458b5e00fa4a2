//! Time management: the main thread's time plan (a fixed `movetime` minus the overhead, or a
//! share of the clock that depends on the pieces left). The worker applies it
//! ([`super::worker`]: the stop flag and hard limits every 1024 nodes, whether to start another
//! iteration). The formulas are described for users in docs/protocol.md ("Time management").

use super::limits::Limits;

/// Milliseconds of the clock always kept in hand beyond `MoveOverhead` and 2% of the clock: the
/// margin for the scheduler on a loaded machine when the clock is down to its increment (at
/// 1 s + 10 ms on 2 busy cores, 200 games lost one on time with 5 ms, 400 games none with
/// 10 ms; docs/protocol.md, "MoveOverhead: what the transport costs").
const CLOCK_RESERVE_MS: u64 = 10;

/// The time plan of the main thread, in milliseconds on the clock.
#[derive(Copy, Clone, Debug, Default)]
pub(super) struct TimePlan {
    /// No new iteration starts after `soft` × the stability factor.
    pub(super) soft: Option<u64>,
    /// The search stops at `hard` whatever it is doing.
    pub(super) hard: Option<u64>,
    /// Whether the time is a fixed `movetime` (no early stop).
    pub(super) fixed: bool,
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
    let usable = left.saturating_sub(
        overhead
            .saturating_add(left / 50)
            .saturating_add(CLOCK_RESERVE_MS),
    );
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
