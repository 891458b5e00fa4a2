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
/// The most inputs of any board (Italian Damone's 8x8 with three ranks).
pub const MAX_INPUTS: usize = 192;
/// The most layer stacks a network may have ([`Shape::stack`]).
pub const MAX_STACKS: usize = 8;
/// Piece kinds a perspective's inputs are grouped in: own man, own king (Dama), own Damone,
/// opponent man, opponent king, opponent Damone (`Shape::kinds`); the Damone kinds are
/// empty outside Italian Damone.
pub const KINDS: usize = 6;

/// The feature geometry of a variant's board.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Shape {
    /// Playable squares `S` (32 or 50).
    pub squares: u32,
    /// Squares of a man's crowning row `c`, where no man stands and which the man inputs leave
    /// out: the squares a row (4 on 8x8, 5 on 10x10); 0 in Italian Damone, whose Pedina
    /// crowns on two squares only and may stand on any square.
    pub crowning: u32,
    /// Ranks of pieces: 2 (man and king) or 3 (Italian Damone's Pedina, Dama and Damone).
    pub ranks: u32,
}

impl Shape {
    /// The 8x8 boards (English, Italian, Brazilian, Russian): 120 inputs.
    pub const B8: Shape = Shape {
        squares: 32,
        crowning: 4,
        ranks: 2,
    };
    /// The 10x10 board (International, Antidraughts, Breakthrough, Frisian, Frysk!): 190
    /// inputs.
    pub const B10: Shape = Shape {
        squares: 50,
        crowning: 5,
        ranks: 2,
    };
    /// Italian Damone's 8x8 board with three ranks: 192 inputs.
    pub const DAMONE: Shape = Shape {
        squares: 32,
        crowning: 0,
        ranks: 3,
    };

    /// The shape of variant `v`'s network.
    pub const fn of(v: Variant) -> Shape {
        match v {
            Variant::Damone => Shape::DAMONE,
            Variant::International
            | Variant::Antidraughts
            | Variant::Breakthrough
            | Variant::Frisian
            | Variant::Frysk => Shape::B10,
            _ => Shape::B8,
        }
    }

    /// Pieces on the board at the start, the most a position has: 24 on 8x8, 40 on 10x10, 16
    /// in Italian Damone (8 a side: docs/rules.md).
    pub const fn start_pieces(&self) -> u32 {
        match (self.squares, self.ranks) {
            (32, 3) => 16,
            (32, _) => 24,
            _ => 40,
        }
    }

    /// The layer stack (0 to `stacks - 1`) a network of `stacks` stacks evaluates a position
    /// of `pieces` pieces (both sides, men and kings) with: the pieces from 1 to
    /// [`Shape::start_pieces`] cut into `stacks` equal runs, fewest pieces first. On 8x8 with
    /// 4 stacks: 1-6 pieces stack 0, 7-12 stack 1, 13-18 stack 2, 19-24 stack 3; on 10x10
    /// with 4: 1-10, 11-20, 21-30, 31-40. One stack is always stack 0.
    #[inline(always)]
    pub const fn stack(&self, pieces: u32, stacks: usize) -> usize {
        let s = pieces.saturating_sub(1) as usize * stacks / self.start_pieces() as usize;
        if s < stacks {
            s
        } else {
            stacks - 1
        }
    }

    /// The layer stack of position `p` ([`Shape::stack`] of its pieces) in a network of
    /// `stacks` stacks.
    #[inline(always)]
    pub const fn stack_of(&self, p: &Planes, stacks: usize) -> usize {
        self.stack((p.white | p.black).count_ones(), stacks)
    }

    /// Squares a man can stand on: `M = S - c`.
    pub const fn man_squares(&self) -> usize {
        (self.squares - self.crowning) as usize
    }

    /// Inputs a perspective: `2M + 2(ranks - 1)S` (120 on 8x8, 190 on 10x10, 192 in
    /// Italian Damone).
    pub const fn inputs(&self) -> usize {
        2 * self.man_squares() + 2 * (self.ranks as usize - 1) * self.squares as usize
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

    /// The first input of each piece kind ([`KINDS`]' order). With two ranks the Damone kinds
    /// are always empty and their offsets unused; the others are then own man 0, own king `M`,
    /// opponent man `M + S`, opponent king `2M + S`.
    pub(super) const fn offsets(&self) -> [u16; KINDS] {
        let (m, s) = (self.man_squares() as u16, self.squares as u16);
        let own = m + (self.ranks as u16 - 1) * s;
        [0, m, m + s, own, own + m, own + m + s]
    }

    /// The active inputs of White's perspective (`persp` 0: `p` as it is) or Black's (1: `p`
    /// flipped), as [`KINDS`] square sets: own men (bit `sq`), own kings, own Damoni,
    /// opponent men (bit `sq - c`), opponent kings, opponent Damoni; bit `i` of set `k` is
    /// input `offsets()[k] + i`.
    #[inline(always)]
    pub(super) fn kinds(&self, p: &Planes, persp: usize) -> [u64; KINDS] {
        let v = if persp == 0 {
            *p
        } else {
            p.flipped(self.squares)
        };
        let all = (1u64 << self.squares) - 1;
        let men_mask = (1u64 << self.man_squares()) - 1;
        let (own, opp) = (v.white & all, v.black & all);
        let men = !(v.rank2 | v.rank3);
        [
            own & men & men_mask,
            own & v.rank2,
            own & v.rank3,
            ((opp & men) >> self.crowning) & men_mask,
            opp & v.rank2,
            opp & v.rank3,
        ]
    }
}

/// The inputs of [`KINDS`] square sets ([`Shape::kinds`]' form) with `offsets`, in order:
/// input `offsets[k] + sq` for each square `sq` of set `k`.
pub(super) struct Inputs {
    sets: [u64; KINDS],
    offsets: [u16; KINDS],
    k: usize,
}

/// [`Inputs`] of `sets`.
#[inline(always)]
pub(super) fn inputs(sets: [u64; KINDS], offsets: [u16; KINDS]) -> Inputs {
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
        while self.k < KINDS {
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
