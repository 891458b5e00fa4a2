//! Board geometry: where each playable square sits in a [`Bitboard`], the diagonal steps, and
//! the orthogonal steps of Frisian captures.
//!
//! Internal coordinates `(x, y)`: `y` is the row counted from White's side (0..HEIGHT), `x` the
//! column (0..WIDTH), and the playable (dark) squares are those with `x + y` odd. The bit of
//! `(x, y)` is `((WIDTH + 1) * y + x - 1) / 2`: one ghost bit after every pair of rows, so each
//! diagonal step is a constant shift and a step off the left or right edge lands on a ghost bit
//! (the classic padded layout; DCTL and Scan use the same idea).
//!
//! | board | bits | ghosts | NW (x-1,y+1) | NE (x+1,y+1) | SW | SE |
//! |---|---|---|---|---|---|---|
//! | 8x8 | 35 | 8, 17, 26 | +4 | +5 | -5 | -4 |
//! | 10x10 | 54 | 10, 21, 32, 43 | +5 | +6 | -6 | -5 |
//!
//! The orthogonal steps (Frisian captures, docs/rules.md) go to the next dark square along a
//! file or a rank: two rows up or down (a shift of `WIDTH + 1` bits, ghost-safe as the diagonals
//! are) or two columns left or right (a shift of 1 bit within a row; a row's last square would
//! step into the next row, so the source is masked with every square but the row's last, or
//! first).
//!
//! Which real file a column is depends on the board's orientation (a1 dark or h1 dark); that
//! mapping lives with the notation, not here: the rules are symmetric under a left-right mirror.

use crate::core::bitboard::{Bitboard, Square};

/// A direction of a step, seen from White's side (north = towards Black): the four diagonals
/// every variant moves along, and the four orthogonal lines along which Frisian pieces capture
/// (an orthogonal step goes to the next dark square on the same file or rank, two rows or two
/// columns away).
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
#[repr(u8)]
pub enum Dir {
    /// Up and to the left: `(x - 1, y + 1)`.
    NW,
    /// Up and to the right: `(x + 1, y + 1)`.
    NE,
    /// Down and to the left: `(x - 1, y - 1)`.
    SW,
    /// Down and to the right: `(x + 1, y - 1)`.
    SE,
    /// Up the file: `(x, y + 2)`.
    N,
    /// Down the file: `(x, y - 2)`.
    S,
    /// Along the rank to the right: `(x + 2, y)`.
    E,
    /// Along the rank to the left: `(x - 2, y)`.
    W,
}

impl Dir {
    /// The four diagonal directions: every move and every capture of the variants but
    /// Frisian's orthogonal captures.
    pub const ALL: [Dir; 4] = [Dir::NW, Dir::NE, Dir::SW, Dir::SE];

    /// The four orthogonal directions (Frisian captures).
    pub const ORTHOGONAL: [Dir; 4] = [Dir::N, Dir::S, Dir::E, Dir::W];

    /// The opposite direction.
    #[inline(always)]
    pub const fn reverse(self) -> Dir {
        match self {
            Dir::NW => Dir::SE,
            Dir::NE => Dir::SW,
            Dir::SW => Dir::NE,
            Dir::SE => Dir::NW,
            Dir::N => Dir::S,
            Dir::S => Dir::N,
            Dir::E => Dir::W,
            Dir::W => Dir::E,
        }
    }

    /// The step as `(dx, dy)` in board coordinates (columns, rows).
    pub const fn delta(self) -> (i8, i8) {
        match self {
            Dir::NW => (-1, 1),
            Dir::NE => (1, 1),
            Dir::SW => (-1, -1),
            Dir::SE => (1, -1),
            Dir::N => (0, 2),
            Dir::S => (0, -2),
            Dir::E => (2, 0),
            Dir::W => (-2, 0),
        }
    }
}

const fn all_mask(width: u32, height: u32) -> u64 {
    let mut m = 0u64;
    let mut y = 0;
    while y < height {
        let mut x = 0;
        while x < width {
            if (x + y) % 2 == 1 {
                m |= 1u64 << (((width + 1) * y + x - 1) / 2);
            }
            x += 1;
        }
        y += 1;
    }
    m
}

const fn row_mask(width: u32, y: u32) -> u64 {
    let mut m = 0u64;
    let mut x = 0;
    while x < width {
        if (x + y) % 2 == 1 {
            m |= 1u64 << (((width + 1) * y + x - 1) / 2);
        }
        x += 1;
    }
    m
}

/// The first (`last` false) or last playable square of every row: the squares an orthogonal
/// step along the row must not start from.
const fn row_ends(width: u32, height: u32, last: bool) -> u64 {
    let mut m = 0u64;
    let mut y = 0;
    while y < height {
        let x = if last {
            if (width - 1 + y) % 2 == 1 {
                width - 1
            } else {
                width - 2
            }
        } else if y % 2 == 1 {
            0
        } else {
            1
        };
        m |= 1u64 << (((width + 1) * y + x - 1) / 2);
        y += 1;
    }
    m
}

/// A board size: its playable squares and the shifts of the eight steps ([`Dir`]).
pub trait Geometry: Copy + Send + Sync + 'static {
    /// Columns (8 or 10).
    const WIDTH: u8;
    /// Rows (8 or 10).
    const HEIGHT: u8;
    /// Playable squares (32 or 50).
    const SQUARES: u8;
    /// Every playable square.
    const ALL: Bitboard;
    /// The row White promotes on (`y = HEIGHT - 1`).
    const TOP_ROW: Bitboard;
    /// The row Black promotes on (`y = 0`).
    const BOTTOM_ROW: Bitboard;
    /// Bit shift of a NW step (and of a SE step backwards).
    const LEFT: u32 = Self::WIDTH as u32 / 2;
    /// Bit shift of a NE step (and of a SW step backwards).
    const RIGHT: u32 = Self::WIDTH as u32 / 2 + 1;

    /// Bit shift of an orthogonal step up or down a file (two rows).
    const FILE_STEP: u32 = Self::WIDTH as u32 + 1;

    /// Left-shift of each direction, indexed by `Dir as usize` (0 for the downward ones).
    const UP_SHIFT: [u32; 8] = [Self::LEFT, Self::RIGHT, 0, 0, Self::FILE_STEP, 0, 1, 0];
    /// Right-shift of each direction (0 for the upward ones).
    const DOWN_SHIFT: [u32; 8] = [0, 0, Self::RIGHT, Self::LEFT, 0, Self::FILE_STEP, 0, 1];
    /// The squares a step in each direction may start from, as raw bits: all but the rows'
    /// last squares for [`Dir::E`] and their first squares for [`Dir::W`] (a shift of one bit
    /// from there would land in the next row); every bit otherwise.
    const SOURCE: [u64; 8] = [
        !0,
        !0,
        !0,
        !0,
        !0,
        !0,
        !row_ends(Self::WIDTH as u32, Self::HEIGHT as u32, true),
        !row_ends(Self::WIDTH as u32, Self::HEIGHT as u32, false),
    ];

    /// Every square one step in `dir` from a square of `b` (off-board steps vanish).
    /// Branch-free, so it stays cheap when `dir` is not a compile-time constant.
    #[inline(always)]
    fn shift(b: Bitboard, dir: Dir) -> Bitboard {
        Self::shift_within(b, dir, Self::ALL)
    }

    /// `shift(b, dir) & within`, for `within` a set of playable squares (a subset of
    /// [`Geometry::ALL`]): the mask that drops ghost and off-board bits is then redundant, so
    /// this is one shift and one AND.
    #[inline(always)]
    fn shift_within(b: Bitboard, dir: Dir, within: Bitboard) -> Bitboard {
        debug_assert!((within & !Self::ALL).is_empty());
        let d = dir as usize;
        Bitboard((((b.0 & Self::SOURCE[d]) << Self::UP_SHIFT[d]) >> Self::DOWN_SHIFT[d]) & within.0)
    }

    /// The square one step back from `t` against `dir` (`t` is a step in `dir` from a
    /// playable square): for turning shifted bitboards back into moves.
    #[inline(always)]
    fn back(t: Square, dir: Dir) -> Square {
        let d = dir as usize;
        Square((t.0 as u32 + Self::DOWN_SHIFT[d] - Self::UP_SHIFT[d]) as u8)
    }

    /// The square one step in `dir` from `sq`, if it is on the board.
    #[inline(always)]
    fn step(sq: Square, dir: Dir) -> Option<Square> {
        let s = Self::shift(Bitboard::from_square(sq), dir);
        if s.any() {
            Some(s.first())
        } else {
            None
        }
    }

    /// The internal square at column `x`, row `y`, if that square is playable.
    fn square_at(x: u8, y: u8) -> Option<Square> {
        if x >= Self::WIDTH || y >= Self::HEIGHT || (x + y).is_multiple_of(2) {
            return None;
        }
        let w1 = Self::WIDTH as u32 + 1;
        Some(Square(((w1 * y as u32 + x as u32 - 1) / 2) as u8))
    }

    /// The `(x, y)` coordinates of a playable internal square.
    fn coords(sq: Square) -> (u8, u8) {
        debug_assert!(Self::ALL.contains(sq));
        // bit = (w1 * y + x - 1) / 2 with x + y odd, so 2 * bit + 1 = w1 * y + x exactly.
        let w1 = Self::WIDTH as u32 + 1;
        let v = 2 * sq.0 as u32 + 1;
        let (y, x) = (v / w1, v % w1);
        (x as u8, y as u8)
    }
}

/// The 8x8 board (English, Italian, Brazilian, Russian, Damone): 32 squares in 35 bits.
#[derive(Copy, Clone, Debug, Default)]
pub struct Board8;

impl Geometry for Board8 {
    const WIDTH: u8 = 8;
    const HEIGHT: u8 = 8;
    const SQUARES: u8 = 32;
    const ALL: Bitboard = Bitboard(all_mask(8, 8));
    const TOP_ROW: Bitboard = Bitboard(row_mask(8, 7));
    const BOTTOM_ROW: Bitboard = Bitboard(row_mask(8, 0));
}

/// The 10x10 board (International): 50 squares in 54 bits.
#[derive(Copy, Clone, Debug, Default)]
pub struct Board10;

impl Geometry for Board10 {
    const WIDTH: u8 = 10;
    const HEIGHT: u8 = 10;
    const SQUARES: u8 = 50;
    const ALL: Bitboard = Bitboard(all_mask(10, 10));
    const TOP_ROW: Bitboard = Bitboard(row_mask(10, 9));
    const BOTTOM_ROW: Bitboard = Bitboard(row_mask(10, 0));
}

#[cfg(test)]
mod tests {
    use super::*;

    fn check<G: Geometry>(bits: u32) {
        assert_eq!(G::ALL.count(), G::SQUARES as u32);
        assert_eq!(64 - G::ALL.0.leading_zeros(), bits);
        for y in 0..G::HEIGHT {
            for x in 0..G::WIDTH {
                if let Some(sq) = G::square_at(x, y) {
                    assert!(G::ALL.contains(sq));
                    assert_eq!(G::coords(sq), (x, y));
                    for (dir, dx, dy) in [
                        (Dir::NW, -1i8, 1i8),
                        (Dir::NE, 1, 1),
                        (Dir::SW, -1, -1),
                        (Dir::SE, 1, -1),
                        (Dir::N, 0, 2),
                        (Dir::S, 0, -2),
                        (Dir::E, 2, 0),
                        (Dir::W, -2, 0),
                    ] {
                        assert_eq!(dir.delta(), (dx, dy));
                        assert_eq!(dir.reverse().delta(), (-dx, -dy));
                        let (nx, ny) = (x as i8 + dx, y as i8 + dy);
                        let want = if nx < 0 || ny < 0 {
                            None
                        } else {
                            G::square_at(nx as u8, ny as u8)
                        };
                        assert_eq!(G::step(sq, dir), want, "{x},{y} {dir:?}");
                        if let Some(t) = want {
                            assert_eq!(G::back(t, dir), sq, "{x},{y} {dir:?}");
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn board8_steps_are_constant_shifts() {
        check::<Board8>(35);
    }

    #[test]
    fn board10_steps_are_constant_shifts() {
        check::<Board10>(54);
    }
}
