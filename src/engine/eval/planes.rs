//! A position as square sets ([`Planes`]), the form the learned evaluation and the training
//! data share, and the packing of a board's padded bitboard into dense bits and back.

use crate::core::geometry::Geometry;
use crate::core::position::Position;
use crate::core::rules::{Color, Rules};

/// A position as square sets, the form the learned evaluation and the training data use.
/// Bit `i` is the square in row `i / n` counted from White's side and the `i % n`-th dark
/// square of that row from the left (internal columns, see [`crate::core::geometry`]), where `n` is
/// the board's dark squares a row: 4 on 8x8 (32 bits), 5 on 10x10 (50 bits). Turning the board
/// by 180° reverses the bits of the board's squares.
#[derive(Copy, Clone, PartialEq, Eq, Debug, Default)]
pub struct Planes {
    /// White's pieces.
    pub white: u64,
    /// Black's pieces.
    pub black: u64,
    /// Pieces of the second rank, either color: kings (Dama in Damone).
    pub rank2: u64,
    /// Pieces of the third rank, either color: Damone only (else 0).
    pub rank3: u64,
    /// Whether Black is to move.
    pub black_to_move: bool,
}

impl Planes {
    /// The same position seen from the other side: the board of `squares` squares (32 or 50)
    /// turned by 180°, the colors and the side to move swapped. Every variant's rules are
    /// symmetric under this, so its side-to-move evaluation must not change.
    pub fn flipped(&self, squares: u32) -> Planes {
        let rot = |x: u64| x.reverse_bits() >> (64 - squares);
        Planes {
            white: rot(self.black),
            black: rot(self.white),
            rank2: rot(self.rank2),
            rank3: rot(self.rank3),
            black_to_move: !self.black_to_move,
        }
    }

    /// A score from White's point of view as the side to move's (negated when Black is to
    /// move); the same map turns a side-to-move score back into White's.
    #[inline(always)]
    pub fn side_to_move(&self, white: i32) -> i32 {
        if self.black_to_move {
            -white
        } else {
            white
        }
    }
}

/// The 32 playable squares of an 8x8 padded bitboard (35 bits, ghosts 8, 17, 26) packed into
/// a `u32` in [`Planes`] order.
#[inline(always)]
pub const fn dense(padded: u64) -> u32 {
    ((padded & 0xFF)
        | ((padded >> 1) & 0xFF00)
        | ((padded >> 2) & 0xFF_0000)
        | ((padded >> 3) & 0xFF00_0000)) as u32
}

/// The inverse of [`dense`].
#[inline(always)]
pub const fn padded(dense: u32) -> u64 {
    let d = dense as u64;
    (d & 0xFF) | ((d & 0xFF00) << 1) | ((d & 0xFF_0000) << 2) | ((d & 0xFF00_0000) << 3)
}

/// The 50 playable squares of a 10x10 padded bitboard (54 bits, ghosts 10, 21, 32, 43) packed
/// in [`Planes`] order.
#[inline(always)]
pub const fn dense10(padded: u64) -> u64 {
    (padded & 0x3FF)
        | ((padded >> 1) & (0x3FF << 10))
        | ((padded >> 2) & (0x3FF << 20))
        | ((padded >> 3) & (0x3FF << 30))
        | ((padded >> 4) & (0x3FF << 40))
}

/// The inverse of [`dense10`].
#[inline(always)]
pub const fn padded10(d: u64) -> u64 {
    (d & 0x3FF)
        | ((d & (0x3FF << 10)) << 1)
        | ((d & (0x3FF << 20)) << 2)
        | ((d & (0x3FF << 30)) << 3)
        | ((d & (0x3FF << 40)) << 4)
}

/// [`padded`] (8x8) or [`padded10`] (`TEN`).
#[inline(always)]
pub const fn padded_of<const TEN: bool>(d: u64) -> u64 {
    if TEN {
        padded10(d)
    } else {
        padded(d as u32)
    }
}

/// [`dense`] (8x8) or [`dense10`] (`TEN`).
#[inline(always)]
pub const fn dense_of<const TEN: bool>(p: u64) -> u64 {
    if TEN {
        dense10(p)
    } else {
        dense(p) as u64
    }
}

/// The [`Planes`] of a position of a `Rules` variant (8x8 or 10x10).
#[inline(always)]
pub fn planes<R: Rules>(pos: &Position<R>) -> Planes {
    let d = |b: u64| {
        if R::Board::WIDTH == 10 {
            dense_of::<true>(b)
        } else {
            dense_of::<false>(b)
        }
    };
    Planes {
        white: d(pos.pieces(Color::White).0),
        black: d(pos.pieces(Color::Black).0),
        rank2: d(pos.kings().0),
        rank3: 0,
        black_to_move: pos.side() == Color::Black,
    }
}

/// The padded bitboard of a [`Planes`] square set of a `Rules` variant: the inverse of the
/// packing [`planes`] does.
#[inline(always)]
pub fn unpack<R: Rules>(d: u64) -> u64 {
    if R::Board::WIDTH == 10 {
        padded10(d)
    } else {
        padded(d as u32)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::geometry::{Board10, Board8, Geometry};

    #[test]
    fn dense10_round_trip_and_rotation() {
        let all = Board10::ALL.0;
        assert_eq!(dense10(all), (1 << 50) - 1);
        assert_eq!(padded10((1 << 50) - 1), all);
        for y in 0..10u8 {
            for x in 0..10u8 {
                if let Some(sq) = Board10::square_at(x, y) {
                    let rot = Board10::square_at(9 - x, 9 - y).unwrap();
                    let d = dense10(1 << sq.index());
                    assert_eq!(d.count_ones(), 1);
                    assert_eq!(padded10(d), 1 << sq.index());
                    assert_eq!(d.reverse_bits() >> 14, dense10(1 << rot.index()));
                }
            }
        }
    }

    #[test]
    fn dense_round_trip_and_rotation() {
        let all = Board8::ALL.0;
        assert_eq!(dense(all), u32::MAX);
        assert_eq!(padded(u32::MAX), all);
        for i in 0..32 {
            assert_eq!(dense(padded(1 << i)), 1 << i);
        }
        // The square (x, y) and its 180° image (7 - x, 7 - y) are bits i and 31 - i.
        for y in 0..8u8 {
            for x in 0..8u8 {
                if let Some(sq) = Board8::square_at(x, y) {
                    let rot = Board8::square_at(7 - x, 7 - y).unwrap();
                    let d = dense(1 << sq.index());
                    assert_eq!(d.reverse_bits(), dense(1 << rot.index()));
                }
            }
        }
    }
}
