//! The evaluation network (NNUE-style) of one variant: the inference side. A `DMNN` file
//! loads through `EvalFile` like pattern weights ([`super::Net::from_bytes`]); the search
//! keeps a first layer a ply and updates it from a neighbouring position's
//! (`Worker::static_eval`). Trained by
//! `damiera-train network` (docs/training.md). The shape follows the strongest English engine
//! (GuiNN_Checkers: sparse piece-square inputs, a first layer updated incrementally, then
//! 32 -> 32 -> 1 in integer arithmetic) with NNUE's two perspectives.
//!
//! # Features
//! Two perspectives, White's and Black's. A perspective sees the board from its own side:
//! White's is the [`Planes`](super::Planes) as they are, Black's is
//! [`Planes::flipped`](super::Planes::flipped) (the board turned by 180°, the colours
//! swapped), so that in either the perspective's own men move up (to higher rows) and crown
//! on the top row. With `S` squares (32 on 8x8, 50 on 10x10), `n` of them a row (4 or 5) and
//! `M = S - n` (the squares a man can stand on: not its own crowning row), a perspective has
//! one input per (piece kind, square), [`Shape::inputs`] in all:
//!
//! | inputs            | index                        | 8x8 | 10x10 |
//! |-------------------|------------------------------|-----|-------|
//! | own man           | `sq` (rows 0 to top - 1)     | 28  | 45    |
//! | own king          | `M + sq`                     | 32  | 50    |
//! | opponent man      | `M + S + sq - n` (rows 1 up) | 28  | 45    |
//! | opponent king     | `2M + S + sq`                | 32  | 50    |
//! | total             |                              | 120 | 190   |
//!
//! `sq` is the [`Planes`](super::Planes) bit in the perspective's view. A man on its own
//! crowning row (no legal position has one) has no input and is ignored.
//!
//! Italian Damone ([`Shape::DAMONE`]) has a third rank and no crowning row: its Pedina crowns
//! on two squares only (docs/rules.md) and may stand on any square, so `n` is 0 there
//! (`M = S = 32`), and after each side's Dama (king) inputs come its Damone inputs, `S` each:
//! own Pedina `sq`, own Dama `S + sq`, own Damone `2S + sq`, opponent Pedina `3S + sq`,
//! opponent Dama `4S + sq`, opponent Damone `5S + sq`, 192 in all. The 180° turn maps
//! Damone's start position onto itself with the colours swapped, as on the other boards.
//!
//! # Layers
//! - L1: inputs -> [`H`] = 128, the same weights for both perspectives: the [`Accumulator`]
//!   holds each perspective's bias plus the weight columns of its active inputs, `i16`, kept
//!   up to date move by move ([`Accumulator::update`]).
//! - clipped ReLU to `[0, QA]` of the concatenation [side to move's 128, other's 128]: 256
//!   `u8` activations.
//! - L2: 256 -> [`L2`] = 32, `i8` weights, `i32` sums and biases, then shifted and clipped
//!   ReLU to `[0, QA]`.
//! - L3: 32 -> [`L3`] = 32, the same arithmetic.
//! - output: 32 -> 1, `i8` weights, `i32` bias, scaled to centi-men.
//!
//! L2, L3 and the output form a **layer stack**. A network has 1 to [`MAX_STACKS`] of them,
//! one for each run of piece counts ([`Shape::stack`]: with 4 on 8x8, 1-6, 7-12, 13-18 and
//! 19-24 pieces), as chess's NNUE has its layer stacks by piece count; a position is
//! evaluated by its own stack only, so more stacks cost memory, not time. The shipped
//! networks have one.
//!
//! # Quantisation
//! The float network these integers stand for has activations in `[0, 1]` and an output in
//! men (1.0 = a man = 100 centi-men):
//! - activations are in 1/[`QA`] (`QA` = 127): the first layer's weights and biases (`i16`)
//!   and the accumulator are in 1/127, so the clipped accumulator is the activation;
//! - the dense layers' weights (`i8`) are in 1/[`QW`] (`QW` = 64: a float weight in
//!   `[-2, 2)`), their biases (`i32`) in 1/(`QA` * `QW`) = 1/8128, the scale of their sums;
//!   a hidden sum is divided by `QW` rounding to nearest (`(s + 32) >> 6`) and clipped to
//!   `[0, 127]`;
//! - the output sum is in 1/8128 of a man; [`Network::evaluate`] returns it in centi-men,
//!   rounded to nearest (half up).
//!
//! With activations at most 127 and weights at least -128, a pair of products is within
//! `i16` (`2 * 127 * 128 = 32512`), which the AVX2 path's `maddubs` needs, and a layer's sum
//! stays far inside `i32` (biases are limited to ±[`MAX_BIAS`] at load). The accumulator
//! adds and subtracts with wrap-around (as the AVX2 instructions do), so the incremental and
//! the from-scratch accumulator agree even if a network overflowed `i16`; a trained network
//! must keep its accumulator sums in range.
//!
//! # SIMD
//! The accumulator's column adds and subtracts and the two hidden layers have an AVX2 path
//! (`std::arch`, chosen when the network is made if the CPU has AVX2) and a portable scalar
//! path with bit-identical results ([`Network::set_simd`]); other targets use the scalar path.
//!
//! # File
//! [`Network::to_bytes`]: magic `DMNN`, the format version (1 for one layer stack, 2 with the
//! number of stacks after the variant), the variant, the layer sizes, a CRC-32 of the payload,
//! then the weights little-endian.
//!
//! # Files
//! [`shape`]: the layer sizes, the scales and each board's inputs; `model`: the [`Network`]
//! and its weights; `forward`: the [`Accumulator`] and the forward pass (the scalar path);
//! `avx2`: the AVX2 kernels; `quantise`: [`Network::from_float`]; `file`: the `DMNN` file.

#[cfg(target_arch = "x86_64")]
mod avx2;
mod file;
mod forward;
mod model;
mod quantise;
pub mod shape;
#[cfg(test)]
mod tests;

pub use file::{HEADER, MAGIC, VERSION};
pub use forward::Accumulator;
pub use model::Network;
pub use shape::{
    Shape, H, KINDS, L1_OUT, L2, L3, MAX_BIAS, MAX_INPUTS, MAX_STACKS, QA, QW, QW_SHIFT,
};
