//! Italian Damone's evaluation: its [`Evaluate`] side (learned weights on the [`Planes`] of its
//! three ranks: the built-in network, or pattern weights through `EvalFile`; else the hand-set
//! evaluation below) for [`DamoneDraughts`].
//!
//! The hand-set evaluation, in centi-Pedines (a Pedine is 100) from the side to move's point
//! of view; hand-set values, what Damone played with before it had learned weights.
//!
//! Terms, each summed for White and subtracted for Black:
//! - material: Pedine [`PEDINE`] 100, Dama [`DAMA`] 250, Damone [`DAMONE`] 400. A Dama moves
//!   and captures in all four directions and cannot be taken by Pedines, so it is worth well
//!   over two Pedines; a Damone cannot be taken except by a Damone and decides the ending.
//! - promotion: a Pedine gets [`PEDINE_PROMOTION_BONUS`] by the number of its own moves (on an
//!   empty board) to its nearer promotion square, the enemy Damas' start squares; a Pedine that
//!   can never promote (one on the enemy Damone's corner, where it cannot move) gets nothing.
//! - a Dama gets [`DAMA_CORNER_BONUS`] per step closer than 7 to the enemy Damone's corner,
//!   where it becomes a Damone.
//! - mobility: [`MOBILITY`] per quiet move (counted bitwise, whoever is to move).

use super::evaluate::Evaluate;
use super::learned::Net;
use super::planes::{dense, padded, Planes};
use crate::core::bitboard::{Bitboard, Square};
use crate::core::damone::movegen::directions;
use crate::core::damone::{
    DamoneDraughts, Position, Rank, DAMA_PROMOTION, PEDINE_DIRS, PEDINE_PROMOTION,
};
use crate::core::geometry::{Board8, Geometry};
use crate::core::rules::Color;

impl<const DAMONES_WIN: bool> Evaluate for DamoneDraughts<DAMONES_WIN> {
    /// The learned weights (a network or pattern weights) on the [`Planes`] (8x8, no flying
    /// kings) when given, else the hand-set [`evaluate`]. The search keeps a network's first
    /// layer up to date move by move instead (`Worker::static_eval`).
    fn evaluate(pos: &Position, net: Option<&Net>) -> i32 {
        match net {
            Some(net) => net.evaluate::<false>(&Self::planes(pos), false),
            None => evaluate(pos),
        }
    }
    /// Dama on `rank2`, Damone on `rank3`.
    #[inline(always)]
    fn planes(pos: &Position) -> Planes {
        Planes {
            white: dense(pos.pieces(Color::White).0) as u64,
            black: dense(pos.pieces(Color::Black).0) as u64,
            rank2: dense(pos.ranked(Rank::Dama).0) as u64,
            rank3: dense(pos.ranked(Rank::Damone).0) as u64,
            black_to_move: pos.side() == Color::Black,
        }
    }
    fn from_planes(p: &Planes) -> Position {
        let side = if p.black_to_move {
            Color::Black
        } else {
            Color::White
        };
        Position::from_parts(
            [
                Bitboard(padded(p.white as u32)),
                Bitboard(padded(p.black as u32)),
            ],
            Bitboard(padded(p.rank2 as u32)),
            Bitboard(padded(p.rank3 as u32)),
            side,
        )
    }
}

/// The value of a Pedine.
pub const PEDINE: i32 = 100;
/// The value of a Dama.
pub const DAMA: i32 = 250;
/// The value of a Damone.
pub const DAMONE: i32 = 400;
/// Bonus of a Pedine by its distance in moves to promotion (index 0 unused: it would be a
/// Dama); 0 beyond the table.
pub const PEDINE_PROMOTION_BONUS: [i32; 8] = [0, 45, 30, 20, 13, 8, 4, 2];
/// Bonus of a Dama per step closer than 7 to the enemy Damone's corner.
pub const DAMA_CORNER_BONUS: i32 = 4;
/// Bonus per quiet move.
pub const MOBILITY: i32 = 3;

const UNREACHABLE: u8 = 99;

/// The number of Pedine moves (on an empty board) from each internal square to the nearer
/// promotion square of color `c`, by relaxation over the Pedine's three directions.
const fn pedine_distances(c: usize) -> [u8; 64] {
    let mut dist = [UNREACHABLE; 64];
    let promo = PEDINE_PROMOTION[c].0;
    let mut i = 0;
    while i < 64 {
        if promo >> i & 1 != 0 {
            dist[i] = 0;
        }
        i += 1;
    }
    let mut changed = true;
    while changed {
        changed = false;
        let mut rank = 0i32;
        while rank < 8 {
            let mut file = 0i32;
            while file < 8 {
                if (file + rank) % 2 == 1 {
                    let s = ((9 * rank + file - 1) / 2) as usize;
                    let mut k = 0;
                    while k < 3 {
                        let (dx, dy) = PEDINE_DIRS[c][k].delta();
                        let (dx, dy) = (dx as i32, dy as i32);
                        let (tf, tr) = (file + dx, rank + dy);
                        if tf >= 0 && tf < 8 && tr >= 0 && tr < 8 {
                            let t = ((9 * tr + tf - 1) / 2) as usize;
                            if dist[t] != UNREACHABLE && dist[t] + 1 < dist[s] {
                                dist[s] = dist[t] + 1;
                                changed = true;
                            }
                        }
                        k += 1;
                    }
                }
                file += 1;
            }
            rank += 1;
        }
    }
    dist
}

/// Pedine moves to promotion, per color and internal square (99: never).
const PEDINE_DISTANCE: [[u8; 64]; 2] = [pedine_distances(0), pedine_distances(1)];

/// Pedine moves from `sq` to the nearer promotion square of color `c` on an empty board
/// (`None` if it can never promote, e.g. a Pedine on the enemy Damone's corner).
pub fn pedine_distance(c: Color, sq: Square) -> Option<u8> {
    let d = PEDINE_DISTANCE[c as usize][sq.index() & 63];
    (d != UNREACHABLE).then_some(d)
}

/// Steps (diagonal moves on an empty board) from `sq` to the enemy Damone's corner for a Dama
/// of color `c`.
pub fn dama_distance(c: Color, sq: Square) -> u8 {
    let (f, r) = Board8::coords(sq);
    let (cf, cr) = Board8::coords(DAMA_PROMOTION[c as usize].first());
    f.abs_diff(cf).max(r.abs_diff(cr))
}

/// The score of color `c`'s pieces (material, promotion terms, mobility).
fn side_score(pos: &Position, c: Color) -> i32 {
    let empty = pos.empty();
    let mut s = 0;
    for sq in pos.rank_of(c, Rank::Pedine) {
        s += PEDINE;
        if let Some(d) = pedine_distance(c, sq) {
            s += PEDINE_PROMOTION_BONUS.get(d as usize).copied().unwrap_or(0);
        }
    }
    for sq in pos.rank_of(c, Rank::Dama) {
        s += DAMA + DAMA_CORNER_BONUS * (7 - dama_distance(c, sq) as i32);
    }
    s += DAMONE * pos.rank_of(c, Rank::Damone).count() as i32;
    let mut moves = 0;
    for rank in Rank::ALL {
        let movers = pos.rank_of(c, rank);
        if movers.any() {
            for &d in directions(c, rank) {
                moves += Board8::shift_within(movers, d, empty).count() as i32;
            }
        }
    }
    s + MOBILITY * moves
}

/// The static evaluation of `pos` in centi-Pedines, from the side to move's point of view
/// (positive: good for the side to move). It does not detect the end of the game: the search
/// scores a side with no legal move as lost.
pub fn evaluate(pos: &Position) -> i32 {
    let white = side_score(pos, Color::White) - side_score(pos, Color::Black);
    match pos.side() {
        Color::White => white,
        Color::Black => -white,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::damone::notation;
    use crate::core::damone::rules::square;

    #[test]
    fn start_position_is_balanced() {
        assert_eq!(evaluate(&Position::start()), 0);
    }

    #[test]
    fn distances() {
        // South Pedine on b5 steps NW to a6: one move. On a8 it is stuck.
        assert_eq!(pedine_distance(Color::White, square(1, 4)), Some(1));
        assert_eq!(pedine_distance(Color::White, square(0, 7)), None);
        // North Pedine on g2 steps SE to h1? No: h1 is not a Pedine promotion square; f1 is
        // one move SW (sideways).
        assert_eq!(pedine_distance(Color::Black, square(6, 1)), Some(1));
        assert_eq!(dama_distance(Color::White, square(7, 0)), 7);
        assert_eq!(dama_distance(Color::Black, square(6, 1)), 1);
    }

    #[test]
    fn material_counts() {
        let p = notation::parse_fen("W:WIh1,Kf1:BIa8").unwrap();
        assert!(evaluate(&p) > 200);
        let q = notation::parse_fen("B:WIh1,Kf1:BIa8").unwrap();
        assert_eq!(evaluate(&q), -evaluate(&p));
    }
}
