//! A position's value for the side to move ([`Wld`], with its distance: [`Probe`]) and the
//! 16-bit entry a table stores it as ([`Entry`], [`encode`], [`decode`]); docs/egdb.md, "File
//! format".

use crate::core::rules::{Goal, Rules};

/// A game-theoretic value for the side to move.
#[derive(Copy, Clone, PartialEq, Eq, Debug, Hash)]
pub enum Wld {
    /// The side to move wins.
    Win,
    /// Neither side can force a win.
    Draw,
    /// The side to move loses.
    Loss,
}

impl Wld {
    /// The value for the other side.
    pub const fn opposite(self) -> Wld {
        match self {
            Wld::Win => Wld::Loss,
            Wld::Draw => Wld::Draw,
            Wld::Loss => Wld::Win,
        }
    }

    /// `win`, `draw` or `loss`.
    pub const fn name(self) -> &'static str {
        match self {
            Wld::Win => "win",
            Wld::Draw => "draw",
            Wld::Loss => "loss",
        }
    }
}

/// What a probe returns: the value for the side to move and, for a win or a loss, the plies
/// to the next conversion (capture or promotion) with best play (DTC; 0 for a side that has
/// no move, 1 for a win by a conversion now).
#[derive(Copy, Clone, PartialEq, Eq, Debug, Hash)]
pub struct Probe {
    /// Win, draw or loss for the side to move, without the draw counters.
    pub value: Wld,
    /// Plies to the next conversion for a win or a loss; `None` for a draw.
    pub distance: Option<u16>,
}

/// A stored entry: `distance << 2 | value` with value 0 draw, 1 win, 2 loss (16 bits).
pub type Entry = u16;

/// The entry of a draw.
pub const DRAW: Entry = 0;

/// The entry of a side to move with no legal move (no piece, or every piece blocked): a loss
/// in 0 by every variant's rulebook ([`Goal::Standard`]), a win in 0 in Antidraughts
/// ([`Goal::NoMoveWins`], lidraughts). The builder, `verify` and the probe take it from here.
#[inline(always)]
pub const fn no_move<R: Rules>() -> Entry {
    match R::GOAL {
        Goal::NoMoveWins => win(0),
        Goal::Standard | Goal::FirstKingWins => loss(0),
    }
}

/// The entry of a win in `d` plies.
#[inline(always)]
pub const fn win(d: u16) -> Entry {
    (d << 2) | 1
}

/// The entry of a loss in `d` plies.
#[inline(always)]
pub const fn loss(d: u16) -> Entry {
    (d << 2) | 2
}

/// A [`Probe`] as an entry: the inverse of [`decode`].
#[inline(always)]
pub const fn encode(p: Probe) -> Entry {
    match (p.value, p.distance) {
        (Wld::Win, Some(d)) => win(d),
        (Wld::Loss, Some(d)) => loss(d),
        (Wld::Win, None) => win(0),
        (Wld::Loss, None) => loss(0),
        (Wld::Draw, _) => DRAW,
    }
}

/// An entry as a [`Probe`].
#[inline(always)]
pub const fn decode(e: Entry) -> Probe {
    match e & 3 {
        1 => Probe {
            value: Wld::Win,
            distance: Some(e >> 2),
        },
        2 => Probe {
            value: Wld::Loss,
            distance: Some(e >> 2),
        },
        _ => Probe {
            value: Wld::Draw,
            distance: None,
        },
    }
}
