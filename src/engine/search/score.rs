//! Scores and depths as the search counts them: the win, database-win and infinity bands
//! (centi-men), the [`Depth`] and [`Score`] reported across the search's boundary, the deepest
//! ply.

use crate::core::play::Play;
use crate::core::rules::Goal;
use std::fmt;

/// A score beyond every evaluation (centi-men).
pub const INF: i32 = 32_000;
/// The score of a win now; a win in `n` plies scores `WIN - n` (a loss, the negation).
pub const WIN: i32 = 31_000;
/// The score, from its own view, of a side to move without a legal move `ply` plies from the
/// root: a loss now, or in Antidraughts ([`Goal::NoMoveWins`]) a win now.
#[inline(always)]
pub fn no_move_score<G: Play>(ply: usize) -> i32 {
    if G::GOAL == Goal::NoMoveWins {
        WIN - ply as i32
    } else {
        -(WIN - ply as i32)
    }
}

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

/// A search depth in plies: what [`Limits`](super::Limits) asks for and [`Info`](super::Info)
/// and [`SearchResult`](super::SearchResult) report across the engine's boundary (inside the
/// search, plies are plain integers).
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
