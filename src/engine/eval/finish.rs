//! A finishing term for English king endings: when every piece on the board is a king and one
//! side has more, the side ahead is drawn towards the other side's kings and towards exchanges,
//! and the side behind is rewarded for holding the double corners.
//!
//! Why: a king ending a king or more up (3 kings against 2, 2 against 1) is won in English
//! checkers, but by a manoeuvre longer than the search sees at short time: the defender sits in
//! the double corner and the attacker has to drive it out and force an exchange. A learned
//! evaluation scores such positions about alike, so without databases the engine shuffles its
//! kings until the no-progress rule draws (15 of 600 games of d10b against 8b77fa9, 100 ms a
//! move: docs/strength.md). Strong programs add a hand-written evaluation for these endings
//! (GuiNN_Checkers scores all-kings positions apart from its networks); this one is ours: the
//! distance of the kings, the double corners and the material left, nothing else.
//!
//! The term is in centi-men and only orders the positions of one king ending: it never crosses
//! a man's worth (100), so it cannot make the engine give material for it.

use super::planes::{padded, Planes};
use crate::core::bitboard::Square;
use crate::core::geometry::{Board8, Geometry};

/// Centi-men the side ahead gains for each step (king moves, diagonals only) by which the mean
/// distance between its kings and the other side's (over every pair) is under 7.
const CLOSER: i32 = 6;
/// Centi-men the side behind gains for each of its kings on a double-corner square.
const DOUBLE_CORNER: i32 = 12;
/// Centi-men the side ahead gains for each piece fewer on the board (an exchange: two).
const FEWER: i32 = 6;

/// The double-corner squares of the 8x8 board in [`Planes`] order: the dark squares beside a
/// light corner, (1, 0), (0, 1), (7, 6) and (6, 7) in internal coordinates (a dark square has
/// x + y odd, [`Geometry::square_at`]), bits 0, 4, 27 and 31.
const DOUBLE_CORNERS: u64 = (1 << 0) | (1 << 4) | (1 << 27) | (1 << 31);

/// The column and row of [`Planes`] bit `i` of the 8x8 board, by the board's own geometry
/// ([`Geometry::coords`] of the padded square).
#[inline(always)]
fn xy(i: u32) -> (i32, i32) {
    let (x, y) = Board8::coords(Square(padded(1 << i).trailing_zeros() as u8));
    (i32::from(x), i32::from(y))
}

/// King steps between dark squares `a` and `b` of the 8x8 board on an empty board (a king
/// moves one square diagonally): the larger of the column and the row difference.
#[inline(always)]
fn steps(a: u32, b: u32) -> i32 {
    let ((xa, ya), (xb, yb)) = (xy(a), xy(b));
    let (dx, dy) = ((xa - xb).abs(), (ya - yb).abs());
    dx.max(dy)
}

/// `stm` (centi-men, side to move) with the finishing term of an English king ending added:
/// unchanged unless every piece of `p` (an 8x8 [`Planes`]) is a king and one side has more
/// kings than the other, which has at least one. The term, for the side ahead: `CLOSER` for
/// every step the mean distance between its kings and the other side's is under 7, `FEWER`
/// for every piece under 12 on the board, minus `DOUBLE_CORNER` for each king of the side
/// behind on a double corner: at most 6 · 6 + 6 · 9 = 90 centi-men (2 kings against 1).
#[inline]
pub fn king_ending(p: &Planes, stm: i32) -> i32 {
    let (w, b) = (p.white, p.black);
    if (w | b) != p.rank2 || w == 0 || b == 0 {
        return stm;
    }
    let (nw, nb) = (w.count_ones(), b.count_ones());
    if nw == nb {
        return stm;
    }
    let (strong, weak) = if nw > nb { (w, b) } else { (b, w) };
    let mut distance = 0;
    let mut s = strong;
    while s != 0 {
        let a = s.trailing_zeros();
        s &= s - 1;
        let mut t = weak;
        while t != 0 {
            let c = t.trailing_zeros();
            t &= t - 1;
            distance += steps(a, c);
        }
    }
    let pairs = (nw * nb) as i32;
    let mut term = CLOSER * (7 * pairs - distance) / pairs + FEWER * (12 - (nw + nb) as i32).max(0);
    term -= DOUBLE_CORNER * (weak & DOUBLE_CORNERS).count_ones() as i32;
    stm + p.side_to_move(if nw > nb { term } else { -term })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::eval::dense;

    /// The Planes bit of internal square (x, y), through the board's own geometry.
    fn bit(x: u8, y: u8) -> u32 {
        let sq = Board8::square_at(x, y).expect("a dark square");
        dense(1 << sq.index()).trailing_zeros()
    }

    #[test]
    fn coordinates_agree_with_the_geometry() {
        for y in 0..8u8 {
            for x in 0..8u8 {
                if Board8::square_at(x, y).is_some() {
                    assert_eq!(xy(bit(x, y)), (i32::from(x), i32::from(y)));
                }
            }
        }
    }

    #[test]
    fn double_corners_are_beside_the_light_corners() {
        // (0, 0) and (7, 7) are light (x + y even): their neighbours are the double corner.
        assert!(Board8::square_at(0, 0).is_none() && Board8::square_at(7, 7).is_none());
        let expected: u64 = [(1, 0), (0, 1), (7, 6), (6, 7)]
            .iter()
            .map(|&(x, y)| 1u64 << bit(x, y))
            .sum();
        assert_eq!(DOUBLE_CORNERS, expected);
    }

    fn planes(white: &[(u8, u8)], black: &[(u8, u8)], black_to_move: bool) -> Planes {
        let set = |s: &[(u8, u8)]| s.iter().map(|&(x, y)| 1u64 << bit(x, y)).sum::<u64>();
        let (w, b) = (set(white), set(black));
        Planes {
            white: w,
            black: b,
            rank2: w | b,
            rank3: 0,
            black_to_move,
        }
    }

    #[test]
    fn untouched_outside_unequal_king_endings() {
        let mut p = planes(&[(1, 0), (3, 2)], &[(6, 7)], false);
        p.rank2 &= !(1 << bit(1, 0)); // a man: not a king ending
        assert_eq!(king_ending(&p, 37), 37);
        let level = planes(&[(1, 0)], &[(6, 7)], false);
        assert_eq!(king_ending(&level, -5), -5);
    }

    #[test]
    fn symmetric_under_turning_the_board() {
        let p = planes(&[(1, 0), (3, 2), (4, 5)], &[(6, 7), (0, 5)], false);
        let t = king_ending(&p, 0);
        assert!(t > 0, "White is ahead and to move: {t}");
        assert_eq!(king_ending(&p.flipped(32), 0), t);
        let black_to_move = Planes {
            black_to_move: true,
            ..p
        };
        assert_eq!(king_ending(&black_to_move, 0), -t);
    }

    #[test]
    fn closer_is_better_and_the_double_corner_holds() {
        // Two white kings against one black king in the double corner (6, 7).
        let far = planes(&[(1, 0), (0, 1)], &[(6, 7)], false);
        let near = planes(&[(5, 4), (4, 5)], &[(6, 7)], false);
        assert!(king_ending(&near, 0) > king_ending(&far, 0));
        let out = planes(&[(5, 4), (4, 5)], &[(5, 6)], false);
        assert!(king_ending(&out, 0) > king_ending(&near, 0));
        // An exchange (3 against 2 into 2 against 1, the kings as far apart) pays.
        let three = planes(&[(4, 3), (2, 3), (6, 3)], &[(3, 6), (5, 6)], false);
        let two = planes(&[(4, 3), (2, 3)], &[(3, 6)], false);
        assert!(king_ending(&two, 0) > king_ending(&three, 0));
    }

    #[test]
    fn never_a_man() {
        // The largest term: 2 kings against 1, both at one step.
        let bound = CLOSER * 6 + FEWER * 9;
        assert!(bound < 100, "{bound}");
        for a in 0..32 {
            for b in 0..32 {
                for c in 0..32 {
                    if a == b || b == c || a == c {
                        continue;
                    }
                    let p = Planes {
                        white: (1 << a) | (1 << b),
                        black: 1 << c,
                        rank2: (1 << a) | (1 << b) | (1 << c),
                        rank3: 0,
                        black_to_move: false,
                    };
                    assert!(king_ending(&p, 0).abs() <= bound);
                }
            }
        }
    }
}
