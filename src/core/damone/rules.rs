//! The rules of Italian Damone as constants, each with its source (rules.md §D, with the
//! project's rulings §I 1-5): the ranks, the set-up, the directions, the promotion squares,
//! the draw rule and the end-of-game option. Like [`crate::core::rules`], data the position,
//! the walker and the notation read.

use crate::core::bitboard::{Bitboard, Square};
use crate::core::geometry::Dir;
use crate::core::rules::Color;

/// The rank of a piece. A piece captures only pieces of equal or lower rank (rules.md §D,
/// "Rank restriction": Wikipedia, pergioco, Dagaz).
#[derive(Copy, Clone, PartialEq, Eq, PartialOrd, Ord, Debug, Hash)]
pub enum Rank {
    /// The lowest rank: moves and captures forward and sideways (3 directions).
    Pedine = 0,
    /// The middle rank: moves and captures one square in all 4 directions.
    Dama = 1,
    /// The highest rank ("Imperatore" in the FEN letter `I`): like a Dama, and captures
    /// everything.
    Damone = 2,
}

impl Rank {
    /// All ranks, lowest first.
    pub const ALL: [Rank; 3] = [Rank::Pedine, Rank::Dama, Rank::Damone];

    /// The rank a piece of this rank becomes on its promotion square (none for a Damone).
    pub const fn promoted(self) -> Option<Rank> {
        match self {
            Rank::Pedine => Some(Rank::Dama),
            Rank::Dama => Some(Rank::Damone),
            Rank::Damone => None,
        }
    }
}

/// The internal square of a real `(file, rank)`, both 0-based (`a1` = (0, 0)). On the Italian
/// board (h1 dark) the geometry's column is the real file (see [`crate::core::geometry`]); the
/// square must be dark (`file + rank` odd).
pub const fn square(file: u8, rank: u8) -> Square {
    debug_assert!((file + rank) % 2 == 1 && file < 8 && rank < 8);
    Square((9 * rank + file - 1) / 2)
}

const fn bb(file: u8, rank: u8) -> Bitboard {
    Bitboard::from_square(square(file, rank))
}

/// The start position: South (White, Damone on h1) against North (Black, Damone on a8).
/// Set-up squares: pergioco (explicit coordinates) and Dagaz (same squares, colors named the
/// other way round). First move: **Ruling I.1**, South moves first.
pub const START_FEN: &str = "W:WIh1,Kf1,Kh3,d1,e2,f3,g4,h5:BIa8,Kc8,Ka6,e8,d7,c6,b5,a4";

/// The directions a Pedine moves and captures in, per color (`Color as usize`): forward,
/// toward the enemy Damone's corner, and the two sideways directions; never backward.
/// South (White): forward NW, sideways NE and SW; North (Black): forward SE, sideways NE and
/// SW (pergioco's example: a White Pedine on e4 goes to d3, d5 or f5; Wikipedia; Dagaz).
pub const PEDINE_DIRS: [[Dir; 3]; 2] = [[Dir::NW, Dir::NE, Dir::SW], [Dir::SE, Dir::NE, Dir::SW]];

/// Where a Pedine becomes a Dama, per color: the squares the enemy Damas start on (a6, c8
/// for White; f1, h3 for Black) and no other (pergioco; Dagaz).
pub const PEDINE_PROMOTION: [Bitboard; 2] = [
    Bitboard(bb(0, 5).0 | bb(2, 7).0),
    Bitboard(bb(5, 0).0 | bb(7, 2).0),
];

/// Where a Dama becomes a Damone, per color: the enemy Damone's starting corner (a8 for
/// White, h1 for Black) (pergioco; Dagaz).
pub const DAMA_PROMOTION: [Bitboard; 2] = [bb(0, 7), bb(7, 0)];

/// The promotion squares of a piece of rank `rank` and color `c` (empty for a Damone).
/// **Ruling I.2**: only these real promotions stop a capture. A Dama on an enemy Dama's
/// start square goes on capturing, and a Pedine on the enemy Damone's corner stays a Pedine.
#[inline(always)]
pub const fn promotion_squares(c: Color, rank: Rank) -> Bitboard {
    match rank {
        Rank::Pedine => PEDINE_PROMOTION[c as usize],
        Rank::Dama => DAMA_PROMOTION[c as usize],
        Rank::Damone => Bitboard::EMPTY,
    }
}

/// **Ruling I.2**: a promotion reached by a capture ends the move there, as in Italian
/// draughts (Dagaz does the same; no text source says so).
pub const PROMOTION_ENDS_CAPTURE: bool = true;

/// **Ruling I.5**: the game is drawn after 40 moves by each side (80 plies) with no capture,
/// no Pedine move and no promotion. (Repetition, the third occurrence of a position with the
/// same side to move, needs the game history and is the search's job.)
pub const DRAW_PLIES: u8 = 80;

/// Whether a move resets the no-progress counter of [`DRAW_PLIES`] (**Ruling I.5**): a capture,
/// a Pedine move or a promotion.
#[inline(always)]
pub const fn resets_draw_counter(rank: Rank, captured: bool, promoted: bool) -> bool {
    captured || promoted || matches!(rank, Rank::Pedine)
}

/// When a side has lost (**Ruling I.4**; the option `DamoneWin`).
#[derive(Copy, Clone, PartialEq, Eq, Debug, Default)]
pub enum DamoneWin {
    /// The default: a side with no legal move (all captured or all blocked) loses (Wikipedia;
    /// Winther).
    #[default]
    All,
    /// The variant rule (Wikipedia; Winther): also a side that has lost all its Damones loses.
    Damones,
}

impl DamoneWin {
    /// The rule from the option's yes/no form: `true` is [`DamoneWin::Damones`] (losing the
    /// last Damone loses), `false` the default [`DamoneWin::All`].
    pub const fn damones(yes: bool) -> DamoneWin {
        if yes {
            DamoneWin::Damones
        } else {
            DamoneWin::All
        }
    }

    /// The rule's name in the options and the page's messages: `all` or `damones`.
    pub const fn name(self) -> &'static str {
        match self {
            DamoneWin::All => "all",
            DamoneWin::Damones => "damones",
        }
    }

    /// The rule of a name (`all` or `damones`, any case); `None` for any other.
    pub fn from_name(name: &str) -> Option<DamoneWin> {
        [DamoneWin::All, DamoneWin::Damones]
            .into_iter()
            .find(|w| w.name().eq_ignore_ascii_case(name))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::geometry::{Board8, Geometry};

    #[test]
    fn square_matches_geometry() {
        for rank in 0..8u8 {
            for file in 0..8u8 {
                if (file + rank) % 2 == 1 {
                    assert_eq!(Board8::square_at(file, rank), Some(square(file, rank)));
                }
            }
        }
    }
}
