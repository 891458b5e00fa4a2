//! The network's shape: its layer sizes and integer scales (module docs of [`super`],
//! "Layers" and "Quantisation") and each board's inputs ([`Shape`], "Features").

use crate::core::variant::Variant;
use crate::engine::eval::planes::Planes;

/// First-layer width: accumulator entries a perspective.
pub const H: usize = 128;
/// Second-layer input: both perspectives' activations, side to move's first.
pub const L1_OUT: usize = 2 * H;
/// Second-layer width.
pub const L2: usize = 32;
/// Third-layer width.
pub const L3: usize = 32;
/// Activation scale: an activation of 1.0 is `QA` (also the scale of the first layer's weights
/// and of the accumulator).
pub const QA: i32 = 127;
/// Dense weight scale: an `i8` weight `w` stands for `w / QW` (`QW` = 2^[`QW_SHIFT`]).
pub const QW: i32 = 64;
/// `log2(QW)`: the shift that brings a dense layer's sum back to the activation scale.
pub const QW_SHIFT: u32 = 6;
/// The largest magnitude of a dense layer's `i32` bias a file may hold (2^24), which keeps
/// every sum inside `i32`.
pub const MAX_BIAS: i32 = 1 << 24;
/// The most inputs of any board (10x10).
pub const MAX_INPUTS: usize = 190;

/// The feature geometry of a variant's board.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Shape {
    /// Playable squares `S` (32 or 50).
    pub squares: u32,
    /// Squares a row `n` (4 or 5).
    pub per_row: u32,
}

impl Shape {
    /// The 8x8 boards (English, Italian, Brazilian, Russian): 120 inputs.
    pub const B8: Shape = Shape {
        squares: 32,
        per_row: 4,
    };
    /// The 10x10 board (International): 190 inputs.
    pub const B10: Shape = Shape {
        squares: 50,
        per_row: 5,
    };

    /// The shape of variant `v`'s network.
    ///
    /// # Errors
    /// Italian Damone (a third rank of pieces, which the features do not cover).
    pub fn of(v: Variant) -> Result<Shape, String> {
        match v {
            Variant::Damone => Err("no evaluation network for Italian Damone".into()),
            Variant::International
            | Variant::Antidraughts
            | Variant::Breakthrough
            | Variant::Frisian
            | Variant::Frysk => Ok(Shape::B10),
            _ => Ok(Shape::B8),
        }
    }

    /// Squares a man can stand on: `M = S - n`.
    pub const fn man_squares(&self) -> usize {
        (self.squares - self.per_row) as usize
    }

    /// Inputs a perspective: `2M + 2S` (120 on 8x8, 190 on 10x10).
    pub const fn inputs(&self) -> usize {
        2 * self.man_squares() + 2 * self.squares as usize
    }

    /// The active inputs of `p` for White's perspective (`persp` 0) and Black's (1): indices
    /// in `0..self.inputs()`, ascending, as the [`Accumulator`](super::Accumulator) uses them
    /// (module docs, "Features"). The trainer (`damiera-train network`) builds its float
    /// inputs from these. The side to move (`p.black_to_move`) does not change the features,
    /// only which perspective comes first in [`Network::evaluate`](super::Network::evaluate).
    pub fn features(&self, p: &Planes) -> [Vec<u16>; 2] {
        let offsets = self.offsets();
        [0, 1].map(|persp| inputs(self.kinds(p, persp), offsets).collect())
    }

    /// The first input of each piece kind: own man, own king, opponent man, opponent king.
    pub(super) const fn offsets(&self) -> [u16; 4] {
        let (m, s) = (self.man_squares() as u16, self.squares as u16);
        [0, m, m + s, 2 * m + s]
    }

    /// The active inputs of White's perspective (`persp` 0: `p` as it is) or Black's (1: `p`
    /// flipped), as four square sets: own men (bit `sq`), own kings, opponent men (bit
    /// `sq - n`), opponent kings; bit `i` of set `k` is input `offsets()[k] + i`.
    #[inline(always)]
    pub(super) fn kinds(&self, p: &Planes, persp: usize) -> [u64; 4] {
        let v = if persp == 0 {
            *p
        } else {
            p.flipped(self.squares)
        };
        let all = (1u64 << self.squares) - 1;
        let men_mask = (1u64 << self.man_squares()) - 1;
        let (own, opp, kings) = (v.white & all, v.black & all, v.rank2);
        [
            own & !kings & men_mask,
            own & kings,
            ((opp & !kings) >> self.per_row) & men_mask,
            opp & kings,
        ]
    }
}

/// The inputs of four square sets ([`Shape::kinds`]' form) with `offsets`, in order: input
/// `offsets[k] + sq` for each square `sq` of set `k`.
pub(super) struct Inputs {
    sets: [u64; 4],
    offsets: [u16; 4],
    k: usize,
}

/// [`Inputs`] of `sets`.
#[inline(always)]
pub(super) fn inputs(sets: [u64; 4], offsets: [u16; 4]) -> Inputs {
    Inputs {
        sets,
        offsets,
        k: 0,
    }
}

impl Iterator for Inputs {
    type Item = u16;

    #[inline(always)]
    fn next(&mut self) -> Option<u16> {
        while self.k < 4 {
            let set = &mut self.sets[self.k];
            if *set != 0 {
                let f = self.offsets[self.k] + set.trailing_zeros() as u16;
                *set &= *set - 1;
                return Some(f);
            }
            self.k += 1;
        }
        None
    }
}
