//! An evaluation network (NNUE-style) for one variant: the inference side. A `DMNN` file
//! loads through `EvalFile` like pattern weights ([`super::Net::from_bytes`]); the search
//! keeps a first layer a ply and updates it from a neighbouring position's
//! (`Worker::static_eval`). Trained by `damiera-train-net` (docs/training.md). The shape follows the strongest English engine
//! (GuiNN_Checkers: sparse piece-square inputs, a first layer updated incrementally, then
//! 32 -> 32 -> 1 in integer arithmetic) with NNUE's two perspectives.
//!
//! # Features
//! Two perspectives, White's and Black's. A perspective sees the board from its own side:
//! White's is the [`Planes`] as they are, Black's is [`Planes::flipped`] (the board turned by
//! 180°, the colours swapped), so that in either the perspective's own men move up (to higher
//! rows) and crown on the top row. With `S` squares (32 on 8x8, 50 on 10x10), `n` of them a row
//! (4 or 5) and `M = S - n` (the squares a man can stand on: not its own crowning row), a
//! perspective has one input per (piece kind, square), [`Shape::inputs`] in all:
//!
//! | inputs            | index                        | 8x8 | 10x10 |
//! |-------------------|------------------------------|-----|-------|
//! | own man           | `sq` (rows 0 to top - 1)     | 28  | 45    |
//! | own king          | `M + sq`                     | 32  | 50    |
//! | opponent man      | `M + S + sq - n` (rows 1 up) | 28  | 45    |
//! | opponent king     | `2M + S + sq`                | 32  | 50    |
//! | total             |                              | 120 | 190   |
//!
//! `sq` is the [`Planes`] bit in the perspective's view. A man on its own crowning row (no
//! legal position has one) has no input and is ignored. Italian Damone (a third rank) is not
//! supported: [`Shape::of`] refuses it.
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
//! [`Network::to_bytes`]: magic `DMNN`, the format version, the variant, the layer sizes, a
//! CRC-32 of the payload, then the weights little-endian.

use super::planes::Planes;
use crate::core::variant::Variant;
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

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
/// The network file's magic bytes.
pub const MAGIC: &[u8; 4] = b"DMNN";
/// The network file's format version (the features and layers above).
pub const VERSION: u16 = 1;
/// Bytes before the payload in a network file.
pub const HEADER: usize = 20;
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
            Variant::International => Ok(Shape::B10),
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
    /// in `0..self.inputs()`, ascending, as the [`Accumulator`] uses them (module docs,
    /// "Features"). The trainer (`damiera-train-net`) builds its float inputs from these.
    /// The side to move (`p.black_to_move`) does not change the features, only which
    /// perspective comes first in [`Network::evaluate`].
    pub fn features(&self, p: &Planes) -> [Vec<u16>; 2] {
        let offsets = self.offsets();
        [0, 1].map(|persp| inputs(self.kinds(p, persp), offsets).collect())
    }

    /// The first input of each piece kind: own man, own king, opponent man, opponent king.
    const fn offsets(&self) -> [u16; 4] {
        let (m, s) = (self.man_squares() as u16, self.squares as u16);
        [0, m, m + s, 2 * m + s]
    }

    /// The active inputs of White's perspective (`persp` 0: `p` as it is) or Black's (1: `p`
    /// flipped), as four square sets: own men (bit `sq`), own kings, opponent men (bit
    /// `sq - n`), opponent kings; bit `i` of set `k` is input `offsets()[k] + i`.
    #[inline(always)]
    fn kinds(&self, p: &Planes, persp: usize) -> [u64; 4] {
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

/// A quantised evaluation network for one variant (see the module docs for the features, the
/// layers and the scales). About 50 KB on 8x8, 67 KB on 10x10. Two networks are equal when
/// their variant and weights are (whichever path they run).
#[derive(Clone, Debug)]
pub struct Network {
    variant: Variant,
    shape: Shape,
    /// First layer, input-major: input `f`'s `H` weights at `f * H`, in 1/[`QA`].
    w1: Vec<i16>,
    /// First-layer biases, in 1/[`QA`].
    b1: [i16; H],
    /// Second layer, row-major: `w2[o][i]`, `i < H` the side to move's activations, in 1/[`QW`].
    w2: Vec<[i8; L1_OUT]>,
    /// Second-layer biases, in 1/([`QA`] * [`QW`]).
    b2: [i32; L2],
    /// Third layer, `w3[o][i]`.
    w3: [[i8; L2]; L3],
    /// Third-layer biases.
    b3: [i32; L3],
    /// Output weights.
    w4: [i8; L3],
    /// Output bias, in 1/([`QA`] * [`QW`]) of a man.
    b4: i32,
    /// `w2` in the AVX2 kernel's order ([`pack`]).
    #[cfg_attr(not(target_arch = "x86_64"), allow(dead_code))]
    w2_packed: Vec<i8>,
    /// `w3` in the AVX2 kernel's order.
    #[cfg_attr(not(target_arch = "x86_64"), allow(dead_code))]
    w3_packed: Vec<i8>,
    /// Whether the AVX2 paths run (decided when the network is made).
    simd: bool,
}

impl PartialEq for Network {
    fn eq(&self, other: &Network) -> bool {
        (self.variant, &self.w1, &self.b1, &self.w2, &self.b2)
            == (other.variant, &other.w1, &other.b1, &other.w2, &other.b2)
            && (&self.w3, &self.b3, &self.w4, self.b4)
                == (&other.w3, &other.b3, &other.w4, other.b4)
    }
}

impl Eq for Network {}

/// `w` (rows of `N` inputs, 32 of them) in the order of the AVX2 kernel: for each group of 4
/// inputs, for each output, the group's 4 weights (`packed[(g * 32 + o) * 4 + k] =
/// w[o][4g + k]`).
fn pack<const N: usize>(w: &[[i8; N]]) -> Vec<i8> {
    let mut out = vec![0i8; N * w.len()];
    for (o, row) in w.iter().enumerate() {
        for (i, &x) in row.iter().enumerate() {
            out[((i / 4) * w.len() + o) * 4 + i % 4] = x;
        }
    }
    out
}

/// Whether this CPU runs the AVX2 paths (checked by `std` once and cached).
fn avx2_available() -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        std::is_x86_feature_detected!("avx2")
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        false
    }
}

/// A perspective pair of first-layer sums: `[White's, Black's]`, each `H` values in 1/[`QA`]
/// (bias plus the weight columns of the perspective's active inputs). `Copy`, no heap: a
/// search can keep one per ply.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
#[repr(C, align(32))]
pub struct Accumulator {
    /// `[White's perspective, Black's]`.
    pub v: [[i16; H]; 2],
}

impl Default for Accumulator {
    fn default() -> Accumulator {
        Accumulator { v: [[0; H]; 2] }
    }
}

impl Accumulator {
    /// Both perspectives of position `p` from scratch.
    pub fn refresh(&mut self, net: &Network, p: &Planes) {
        for persp in 0..2 {
            self.v[persp] = net.b1;
            net.apply(&mut self.v[persp], net.shape.kinds(p, persp), [0; 4]);
        }
    }

    /// A new accumulator for `p` ([`Accumulator::refresh`]).
    pub fn new(net: &Network, p: &Planes) -> Accumulator {
        let mut acc = Accumulator::default();
        acc.refresh(net, p);
        acc
    }

    /// From the accumulator of `before` to that of `after` (any two positions, typically
    /// before and after a move, captures and promotions alike): per perspective, adds the
    /// columns of the inputs active in `after` and not in `before` and subtracts those active
    /// in `before` and not in `after`.
    pub fn update(&mut self, net: &Network, before: &Planes, after: &Planes) {
        for persp in 0..2 {
            let (b, a) = (
                net.shape.kinds(before, persp),
                net.shape.kinds(after, persp),
            );
            let added = std::array::from_fn(|k| a[k] & !b[k]);
            let removed = std::array::from_fn(|k| b[k] & !a[k]);
            net.apply(&mut self.v[persp], added, removed);
        }
    }
}

impl Network {
    /// The variant this network evaluates.
    pub fn variant(&self) -> Variant {
        self.variant
    }

    /// Its board's feature shape.
    pub fn shape(&self) -> Shape {
        self.shape
    }

    /// Whether the AVX2 paths run.
    pub fn simd(&self) -> bool {
        self.simd
    }

    /// Chooses the AVX2 paths (`true`, honoured only if the CPU has AVX2) or the scalar ones;
    /// the results are the same. Returns whether the AVX2 paths now run.
    pub fn set_simd(&mut self, on: bool) -> bool {
        self.simd = on && avx2_available();
        self.simd
    }

    /// The first layer's `H` weights of input `f` (in 1/[`QA`]).
    ///
    /// # Panics
    /// `f` is not below [`Shape::inputs`].
    pub fn l1_weights(&self, f: usize) -> &[i16] {
        &self.w1[f * H..(f + 1) * H]
    }

    /// The first layer's biases (in 1/[`QA`]).
    pub fn l1_biases(&self) -> &[i16; H] {
        &self.b1
    }

    /// The second layer's weights `[o][i]` (in 1/[`QW`]; `i < H`: the side to move's
    /// activations) and biases (in 1/(`QA` * `QW`)).
    pub fn l2(&self) -> (&[[i8; L1_OUT]], &[i32; L2]) {
        (&self.w2, &self.b2)
    }

    /// The third layer's weights `[o][i]` and biases, scaled as [`Network::l2`].
    pub fn l3(&self) -> (&[[i8; L2]; L3], &[i32; L3]) {
        (&self.w3, &self.b3)
    }

    /// The output weights (in 1/[`QW`]) and bias (in 1/(`QA` * `QW`) of a man).
    pub fn output(&self) -> (&[i8; L3], i32) {
        (&self.w4, self.b4)
    }

    /// A network of pseudo-random weights for variant `v` (tests and benchmarks), of about
    /// the magnitudes a trained one would have: first-layer weights in ±0.25, biases in
    /// `[0, 0.5]`, dense weights in ±0.25 (±0.5 for the output).
    ///
    /// # Errors
    /// Italian Damone ([`Shape::of`]).
    pub fn random(v: Variant, seed: u64) -> Result<Network, String> {
        let shape = Shape::of(v)?;
        let mut rng = StdRng::seed_from_u64(seed);
        let w1 = (0..shape.inputs() * H)
            .map(|_| rng.gen_range(-32..=32))
            .collect();
        let b1 = std::array::from_fn(|_| rng.gen_range(0..=64));
        let bias = |rng: &mut StdRng| rng.gen_range(-QA * QW / 4..=QA * QW / 4);
        let w2 = (0..L2)
            .map(|_| std::array::from_fn(|_| rng.gen_range(-16..=16)))
            .collect();
        let b2 = std::array::from_fn(|_| bias(&mut rng));
        let w3 = std::array::from_fn(|_| std::array::from_fn(|_| rng.gen_range(-16..=16)));
        let b3 = std::array::from_fn(|_| bias(&mut rng));
        let w4 = std::array::from_fn(|_| rng.gen_range(-32..=32));
        let b4 = bias(&mut rng);
        Ok(Network {
            variant: v,
            shape,
            w1,
            b1,
            w2,
            b2,
            w3,
            b3,
            w4,
            b4,
            w2_packed: Vec::new(),
            w3_packed: Vec::new(),
            simd: false,
        }
        .packed())
    }

    /// A quantised network from float weights (the trainer's export), for variant `v` with
    /// `n` = [`Shape::inputs`] inputs. The float network has activations in `[0, 1]` and its
    /// output in men (1.0 = 100 centi-men); every matrix is row-major `[out][in]` except the
    /// first layer:
    ///
    /// | argument | length | layout | quantised as |
    /// |----------|--------|--------|--------------|
    /// | `l1_w` | `n * H` | input-major: input `f`'s `H` weights at `f * H` | `i16`, `round(w * QA)` |
    /// | `l1_b` | `H` | | `i16`, `round(b * QA)` |
    /// | `l2_w` | `L2 * L1_OUT` | `[o][i]`, `i < H` the side to move's | `i8`, `round(w * QW)` |
    /// | `l2_b` | `L2` | | `i32`, `round(b * QA * QW)` |
    /// | `l3_w` | `L3 * L2` | `[o][i]` | `i8`, `round(w * QW)` |
    /// | `l3_b` | `L3` | | `i32`, `round(b * QA * QW)` |
    /// | `out_w` | `L3` | | `i8`, `round(w * QW)` |
    /// | `out_b` | one value | | `i32`, `round(b * QA * QW)` |
    ///
    /// `round` is to nearest, halves away from zero ([`f32::round`]). The rounded value must
    /// fit: `i16` for the first layer, `-128..=127` for the dense weights (a float weight in
    /// `[-2, 1.9921875]`, i.e. `[-2, 2)` up to the rounding), ±[`MAX_BIAS`] for the dense
    /// biases. Nothing checks that the accumulator's sums (bias plus the active inputs'
    /// weights) stay within `i16`: the trainer clamps its weights so that they do.
    ///
    /// # Errors
    /// Italian Damone, a slice of the wrong length, a value not finite or out of range: a
    /// one-line message naming the argument.
    #[allow(clippy::too_many_arguments)]
    pub fn from_float(
        v: Variant,
        l1_w: &[f32],
        l1_b: &[f32],
        l2_w: &[f32],
        l2_b: &[f32],
        l3_w: &[f32],
        l3_b: &[f32],
        out_w: &[f32],
        out_b: f32,
    ) -> Result<Network, String> {
        let shape = Shape::of(v)?;
        let qab = (QA * QW) as f32;
        let quant = |name: &str, x: &[f32], len: usize, scale: f32, lo: i64, hi: i64| {
            if x.len() != len {
                return Err(format!("{name}: {} values, expected {len}", x.len()));
            }
            x.iter()
                .enumerate()
                .map(|(i, &w)| {
                    let q = (w * scale).round();
                    if !q.is_finite() || q < lo as f32 || q > hi as f32 {
                        Err(format!(
                            "{name}[{i}] = {w} is out of range (quantised {q}, allowed {lo}..={hi})"
                        ))
                    } else {
                        Ok(q as i64)
                    }
                })
                .collect::<Result<Vec<i64>, String>>()
        };
        let (i16lo, i16hi) = (i64::from(i16::MIN), i64::from(i16::MAX));
        let (bias_lo, bias_hi) = (-i64::from(MAX_BIAS), i64::from(MAX_BIAS));
        let qa = QA as f32;
        let qw = QW as f32;
        let w1 = quant("l1_w", l1_w, shape.inputs() * H, qa, i16lo, i16hi)?;
        let b1 = quant("l1_b", l1_b, H, qa, i16lo, i16hi)?;
        let w2 = quant("l2_w", l2_w, L2 * L1_OUT, qw, -128, 127)?;
        let b2 = quant("l2_b", l2_b, L2, qab, bias_lo, bias_hi)?;
        let w3 = quant("l3_w", l3_w, L3 * L2, qw, -128, 127)?;
        let b3 = quant("l3_b", l3_b, L3, qab, bias_lo, bias_hi)?;
        let w4 = quant("out_w", out_w, L3, qw, -128, 127)?;
        let b4 = quant("out_b", &[out_b], 1, qab, bias_lo, bias_hi)?;
        Ok(Network {
            variant: v,
            shape,
            w1: w1.iter().map(|&x| x as i16).collect(),
            b1: std::array::from_fn(|i| b1[i] as i16),
            w2: (0..L2)
                .map(|o| std::array::from_fn(|i| w2[o * L1_OUT + i] as i8))
                .collect(),
            b2: std::array::from_fn(|i| b2[i] as i32),
            w3: std::array::from_fn(|o| std::array::from_fn(|i| w3[o * L2 + i] as i8)),
            b3: std::array::from_fn(|i| b3[i] as i32),
            w4: std::array::from_fn(|i| w4[i] as i8),
            b4: b4[0] as i32,
            w2_packed: Vec::new(),
            w3_packed: Vec::new(),
            simd: false,
        }
        .packed())
    }

    /// A network of these weights, with the AVX2 kernel's copies of `w2` and `w3` packed and
    /// the path chosen for this CPU (the copies are derived: call it after any weight change).
    fn packed(mut self) -> Network {
        self.w2_packed = pack(&self.w2);
        self.w3_packed = pack(&self.w3);
        self.simd = avx2_available();
        self
    }

    /// Adds the first-layer columns of inputs `add` to `acc` and subtracts those of `sub`
    /// (wrapping, as the AVX2 instructions do).
    #[inline]
    fn apply(&self, acc: &mut [i16; H], add: [u64; 4], sub: [u64; 4]) {
        let offsets = self.shape.offsets();
        #[cfg(target_arch = "x86_64")]
        if self.simd {
            // SAFETY: `simd` is only true when the CPU has AVX2 (`packed`, `set_simd`).
            unsafe { avx2::apply(acc, &self.w1, add, sub, offsets) };
            return;
        }
        apply_scalar(acc, &self.w1, add, sub, offsets);
    }

    /// The evaluation in centi-men from the side to move's point of view of the position
    /// whose accumulator is `acc` (`black_to_move`: whose turn it is).
    pub fn evaluate(&self, acc: &Accumulator, black_to_move: bool) -> i32 {
        let (us, them) = if black_to_move {
            (&acc.v[1], &acc.v[0])
        } else {
            (&acc.v[0], &acc.v[1])
        };
        let mut a3 = [0u8; L3];
        #[cfg(target_arch = "x86_64")]
        if self.simd {
            // SAFETY: `simd` is only true when the CPU has AVX2.
            unsafe {
                let mut input = [0u8; L1_OUT];
                avx2::clip(us, them, &mut input);
                let mut a2 = [0u8; L2];
                avx2::dense(&input, &self.w2_packed, &self.b2, &mut a2);
                avx2::dense(&a2, &self.w3_packed, &self.b3, &mut a3);
            }
            return self.output_centi(&a3);
        }
        let mut input = [0u8; L1_OUT];
        for i in 0..H {
            input[i] = us[i].clamp(0, QA as i16) as u8;
            input[H + i] = them[i].clamp(0, QA as i16) as u8;
        }
        let mut a2 = [0u8; L2];
        dense_scalar(&input, &self.w2, &self.b2, &mut a2);
        dense_scalar(&a2, &self.w3, &self.b3, &mut a3);
        self.output_centi(&a3)
    }

    /// The output layer, in centi-men rounded to nearest.
    fn output_centi(&self, a3: &[u8; L3]) -> i32 {
        let sum = a3
            .iter()
            .zip(&self.w4)
            .fold(self.b4, |s, (&a, &w)| s + i32::from(a) * i32::from(w));
        let scale = i64::from(QA * QW);
        ((i64::from(sum) * 100 + scale / 2).div_euclid(scale)) as i32
    }

    /// The file form for the network's variant: little-endian, [`HEADER`] bytes of header
    /// then the payload.
    ///
    /// | bytes | field |
    /// |-------|-------|
    /// | 0..4   | magic `DMNN` |
    /// | 4..6   | format version `u16` ([`VERSION`]) |
    /// | 6      | variant index `u8` ([`super::variant_index`]) |
    /// | 7      | 0 |
    /// | 8..16  | layer sizes, `u16` each: inputs (120 or 190), [`H`], [`L2`], [`L3`] |
    /// | 16..20 | CRC-32 of the payload `u32` |
    ///
    /// The payload: first-layer weights `i16`, input-major (input `f`'s `H` weights); its
    /// biases `i16`; second-layer weights `i8`, row-major (output `o`'s 256 weights, the side
    /// to move's 128 first); its biases `i32`; third-layer weights `i8` row-major and biases
    /// `i32`; output weights `i8` and bias `i32`.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut payload = Vec::with_capacity(self.payload_len());
        for x in self.w1.iter().chain(&self.b1) {
            payload.extend_from_slice(&x.to_le_bytes());
        }
        let mut put_layer = |rows: &mut dyn Iterator<Item = &i8>, biases: &[i32]| {
            payload.extend(rows.map(|&w| w as u8));
            for b in biases {
                payload.extend_from_slice(&b.to_le_bytes());
            }
        };
        put_layer(&mut self.w2.iter().flatten(), &self.b2);
        put_layer(&mut self.w3.iter().flatten(), &self.b3);
        put_layer(&mut self.w4.iter(), &[self.b4]);
        let mut out = Vec::with_capacity(HEADER + payload.len());
        out.extend_from_slice(MAGIC);
        out.extend_from_slice(&VERSION.to_le_bytes());
        out.push(super::variant_index(self.variant) as u8);
        out.push(0);
        for size in [self.shape.inputs(), H, L2, L3] {
            out.extend_from_slice(&(size as u16).to_le_bytes());
        }
        out.extend_from_slice(&crc32fast::hash(&payload).to_le_bytes());
        out.extend_from_slice(&payload);
        out
    }

    /// Payload bytes of a network of this shape.
    fn payload_len(&self) -> usize {
        payload_len(self.shape)
    }

    /// Reads [`Network::to_bytes`]'s form for variant `v`.
    ///
    /// # Errors
    /// Italian Damone, not a network file (no `DMNN`), another format version, another
    /// variant, other layer sizes, truncated or padded, a checksum mismatch, or a bias out of
    /// ±[`MAX_BIAS`]: a one-line message.
    pub fn from_bytes(bytes: &[u8], v: Variant) -> Result<Network, String> {
        let shape = Shape::of(v)?;
        if bytes.len() < 4 || &bytes[..4] != MAGIC {
            return Err("not a damiera network file (no DMNN header)".into());
        }
        if bytes.len() < HEADER {
            return Err(format!(
                "truncated: {} bytes, a network header is {HEADER}",
                bytes.len()
            ));
        }
        let u16_at = |i: usize| u16::from_le_bytes([bytes[i], bytes[i + 1]]);
        let version = u16_at(4);
        if version != VERSION {
            return Err(format!(
                "network format version {version}, this build reads {VERSION}"
            ));
        }
        let file_variant = Variant::ALL.get(bytes[6] as usize).copied();
        if file_variant != Some(v) {
            let name = file_variant.map_or("an unknown variant".to_string(), |x| x.to_string());
            return Err(format!("network for {name}, not {v}"));
        }
        let sizes = [u16_at(8), u16_at(10), u16_at(12), u16_at(14)];
        let expected = [shape.inputs(), H, L2, L3].map(|x| x as u16);
        if sizes != expected {
            let show = |s: [u16; 4]| format!("{}-{}-{}-{}-1", s[0], s[1], s[2], s[3]);
            return Err(format!(
                "layer sizes {}, this build reads {} for {v}",
                show(sizes),
                show(expected)
            ));
        }
        let payload = &bytes[HEADER..];
        let want = payload_len(shape);
        if payload.len() != want {
            return Err(format!(
                "truncated or padded: {} bytes of weights, expected {want}",
                payload.len()
            ));
        }
        let crc = u32::from_le_bytes([bytes[16], bytes[17], bytes[18], bytes[19]]);
        if crc32fast::hash(payload) != crc {
            return Err("checksum mismatch (corrupt file)".into());
        }
        let mut r = Reader { bytes: payload };
        let w1 = (0..shape.inputs() * H).map(|_| r.i16()).collect();
        let b1 = std::array::from_fn(|_| r.i16());
        let w2 = (0..L2)
            .map(|_| std::array::from_fn(|_| r.i8()))
            .collect::<Vec<_>>();
        let b2 = std::array::from_fn(|_| r.i32());
        let w3 = std::array::from_fn(|_| std::array::from_fn(|_| r.i8()));
        let b3 = std::array::from_fn(|_| r.i32());
        let w4 = std::array::from_fn(|_| r.i8());
        let b4 = r.i32();
        let out_of_range = |b: &i32| !(-MAX_BIAS..=MAX_BIAS).contains(b);
        if b2.iter().chain(&b3).chain([&b4]).any(out_of_range) {
            return Err(format!("a bias out of ±{MAX_BIAS} (corrupt file)"));
        }
        Ok(Network {
            variant: v,
            shape,
            w1,
            b1,
            w2,
            b2,
            w3,
            b3,
            w4,
            b4,
            w2_packed: Vec::new(),
            w3_packed: Vec::new(),
            simd: false,
        }
        .packed())
    }
}

/// Payload bytes of a network of `shape` ([`Network::to_bytes`]).
fn payload_len(shape: Shape) -> usize {
    2 * (shape.inputs() * H + H) + (L1_OUT * L2 + 4 * L2) + (L2 * L3 + 4 * L3) + (L3 + 4)
}

/// Little-endian reads from a payload whose length has been checked (a read past the end
/// gives 0 rather than panicking).
struct Reader<'a> {
    bytes: &'a [u8],
}

impl Reader<'_> {
    fn take<const N: usize>(&mut self) -> [u8; N] {
        let mut out = [0u8; N];
        if let Some((head, rest)) = self.bytes.split_first_chunk::<N>() {
            out = *head;
            self.bytes = rest;
        }
        out
    }
    fn i8(&mut self) -> i8 {
        i8::from_le_bytes(self.take())
    }
    fn i16(&mut self) -> i16 {
        i16::from_le_bytes(self.take())
    }
    fn i32(&mut self) -> i32 {
        i32::from_le_bytes(self.take())
    }
}

/// The first-layer column `f` of `w1` as an array (`w1` holds whole columns).
#[inline(always)]
fn column(w1: &[i16], f: u16) -> &[i16; H] {
    let start = f as usize * H;
    w1[start..start + H].try_into().expect("H weights")
}

/// The inputs of four square sets ([`Shape::kinds`]' form) with `offsets`, in order: input
/// `offsets[k] + sq` for each square `sq` of set `k`.
struct Inputs {
    sets: [u64; 4],
    offsets: [u16; 4],
    k: usize,
}

/// [`Inputs`] of `sets`.
#[inline(always)]
fn inputs(sets: [u64; 4], offsets: [u16; 4]) -> Inputs {
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

/// The portable [`Network::apply`].
fn apply_scalar(acc: &mut [i16; H], w1: &[i16], add: [u64; 4], sub: [u64; 4], off: [u16; 4]) {
    for f in inputs(add, off) {
        for (a, &w) in acc.iter_mut().zip(column(w1, f)) {
            *a = a.wrapping_add(w);
        }
    }
    for f in inputs(sub, off) {
        for (a, &w) in acc.iter_mut().zip(column(w1, f)) {
            *a = a.wrapping_sub(w);
        }
    }
}

/// A hidden layer's activation from its sum (in 1/(`QA` * `QW`)): divided by [`QW`] rounding
/// to nearest (half up), clipped to `[0, QA]`.
#[inline(always)]
fn activate(sum: i32) -> u8 {
    ((sum + (QW / 2)) >> QW_SHIFT).clamp(0, QA) as u8
}

/// The portable dense hidden layer: `out[o] = activate(b[o] + sum_i w[o][i] * input[i])`.
fn dense_scalar<const N: usize, const O: usize>(
    input: &[u8; N],
    w: &[[i8; N]],
    b: &[i32; O],
    out: &mut [u8; O],
) {
    for ((o, row), &bias) in out.iter_mut().zip(w).zip(b) {
        let sum = input
            .iter()
            .zip(row)
            .fold(bias, |s, (&x, &w)| s + i32::from(x) * i32::from(w));
        *o = activate(sum);
    }
}

#[cfg(target_arch = "x86_64")]
mod avx2 {
    //! The AVX2 kernels, bit for bit the scalar ones. Every function here requires AVX2
    //! (`#[target_feature]`, the callers check); the only `unsafe` operations are the
    //! unaligned loads and stores of whole fixed-size arrays.
    use super::{column, H, QA, QW, QW_SHIFT};
    use std::arch::x86_64::{
        __m256i, _mm256_add_epi16, _mm256_add_epi32, _mm256_castsi256_ps, _mm256_cmpeq_epi32,
        _mm256_loadu_si256, _mm256_madd_epi16, _mm256_maddubs_epi16, _mm256_max_epi16,
        _mm256_max_epi32, _mm256_min_epi16, _mm256_min_epi32, _mm256_movemask_ps,
        _mm256_packus_epi16, _mm256_permute4x64_epi64, _mm256_set1_epi16, _mm256_set1_epi32,
        _mm256_setzero_si256, _mm256_srai_epi32, _mm256_storeu_si256, _mm256_sub_epi16,
    };

    /// 16 `i16` as a register.
    #[target_feature(enable = "avx2")]
    #[inline]
    fn load_i16(x: &[i16; 16]) -> __m256i {
        // SAFETY: `x` is 32 readable bytes; `loadu` has no alignment requirement.
        unsafe { _mm256_loadu_si256(x.as_ptr().cast()) }
    }

    /// 32 `i8` as a register.
    #[target_feature(enable = "avx2")]
    #[inline]
    fn load_i8(x: &[i8; 32]) -> __m256i {
        // SAFETY: as `load_i16`.
        unsafe { _mm256_loadu_si256(x.as_ptr().cast()) }
    }

    /// 32 `u8` as a register.
    #[target_feature(enable = "avx2")]
    #[inline]
    fn load_u8(x: &[u8; 32]) -> __m256i {
        // SAFETY: as `load_i16`.
        unsafe { _mm256_loadu_si256(x.as_ptr().cast()) }
    }

    /// 8 `i32` as a register.
    #[target_feature(enable = "avx2")]
    #[inline]
    fn load_i32(x: &[i32; 8]) -> __m256i {
        // SAFETY: as `load_i16`.
        unsafe { _mm256_loadu_si256(x.as_ptr().cast()) }
    }

    /// A register into 16 `i16`.
    #[target_feature(enable = "avx2")]
    #[inline]
    fn store_i16(x: &mut [i16; 16], v: __m256i) {
        // SAFETY: `x` is 32 writable bytes, borrowed exclusively; `storeu` has no alignment
        // requirement.
        unsafe { _mm256_storeu_si256(x.as_mut_ptr().cast(), v) }
    }

    /// A register into 32 `u8`.
    #[target_feature(enable = "avx2")]
    #[inline]
    fn store_u8(x: &mut [u8; 32], v: __m256i) {
        // SAFETY: as `store_i16`.
        unsafe { _mm256_storeu_si256(x.as_mut_ptr().cast(), v) }
    }

    /// A register into 8 `i32`.
    #[target_feature(enable = "avx2")]
    #[inline]
    fn store_i32(x: &mut [i32; 8], v: __m256i) {
        // SAFETY: as `store_i16`.
        unsafe { _mm256_storeu_si256(x.as_mut_ptr().cast(), v) }
    }

    /// [`super::apply_scalar`]: the accumulator stays in registers while every column is
    /// added or subtracted (wrapping `i16` lanes).
    #[target_feature(enable = "avx2")]
    pub(super) fn apply(
        acc: &mut [i16; H],
        w1: &[i16],
        add: [u64; 4],
        sub: [u64; 4],
        offsets: [u16; 4],
    ) {
        let mut regs = [_mm256_setzero_si256(); H / 16];
        let (chunks, _) = acc.as_chunks_mut::<16>();
        for (r, c) in regs.iter_mut().zip(chunks.iter()) {
            *r = load_i16(c);
        }
        for (mut set, off) in add.into_iter().zip(offsets) {
            while set != 0 {
                let f = off + set.trailing_zeros() as u16;
                set &= set - 1;
                let (col, _) = column(w1, f).as_chunks::<16>();
                for (r, c) in regs.iter_mut().zip(col) {
                    *r = _mm256_add_epi16(*r, load_i16(c));
                }
            }
        }
        for (mut set, off) in sub.into_iter().zip(offsets) {
            while set != 0 {
                let f = off + set.trailing_zeros() as u16;
                set &= set - 1;
                let (col, _) = column(w1, f).as_chunks::<16>();
                for (r, c) in regs.iter_mut().zip(col) {
                    *r = _mm256_sub_epi16(*r, load_i16(c));
                }
            }
        }
        for (r, c) in regs.iter().zip(chunks.iter_mut()) {
            store_i16(c, *r);
        }
    }

    /// The clipped activations `[0, QA]` of `us` then `them` as bytes, in order (`packus`
    /// packs the two 128-bit halves of its operands alternately; the 64-bit permutation puts
    /// them back in order).
    #[target_feature(enable = "avx2")]
    pub(super) fn clip(us: &[i16; H], them: &[i16; H], out: &mut [u8; 2 * H]) {
        let (zero, top) = (_mm256_setzero_si256(), _mm256_set1_epi16(QA as i16));
        let clamp = |x: &[i16; 16]| _mm256_min_epi16(_mm256_max_epi16(load_i16(x), zero), top);
        let (outs, _) = out.as_chunks_mut::<32>();
        let (a, _) = us.as_chunks::<16>();
        let (b, _) = them.as_chunks::<16>();
        for (o, pair) in outs
            .iter_mut()
            .zip(a.chunks_exact(2).chain(b.chunks_exact(2)))
        {
            let packed = _mm256_packus_epi16(clamp(&pair[0]), clamp(&pair[1]));
            store_u8(o, _mm256_permute4x64_epi64::<0b11_01_10_00>(packed));
        }
    }

    /// Bit `g` set for each group of 4 bytes of `input` (`N` at most 256) that is not all 0.
    #[target_feature(enable = "avx2")]
    fn nonzero_groups<const N: usize>(input: &[u8; N]) -> u64 {
        let zero = _mm256_setzero_si256();
        let mut mask = 0u64;
        for (i, x) in input.as_chunks::<32>().0.iter().enumerate() {
            let is_zero = _mm256_cmpeq_epi32(load_u8(x), zero);
            let bits = !_mm256_movemask_ps(_mm256_castsi256_ps(is_zero)) as u8;
            mask |= u64::from(bits) << (8 * i);
        }
        mask
    }

    /// [`super::dense_scalar`] with 32 outputs over `packed` ([`super::pack`]'s order): for
    /// each group of 4 inputs that is not all zero (zeros add nothing: the sum is the same),
    /// the 4 bytes broadcast, multiplied by the group's weights of 8 outputs a register
    /// (`maddubs`: unsigned activations times signed weights, pairs summed in `i16`, exact
    /// since `2 * 127 * 128 < 2^15`), pairs summed again into `i32` (`madd`).
    #[target_feature(enable = "avx2")]
    pub(super) fn dense<const N: usize>(
        input: &[u8; N],
        packed: &[i8],
        b: &[i32; 32],
        out: &mut [u8; 32],
    ) {
        let mut sums = [_mm256_setzero_si256(); 4];
        for (s, bias) in sums.iter_mut().zip(b.as_chunks::<8>().0) {
            *s = load_i32(bias);
        }
        let ones = _mm256_set1_epi16(1);
        let (groups, _) = input.as_chunks::<4>();
        let (weights, _) = packed.as_chunks::<32>();
        let mut mask = nonzero_groups(input);
        while mask != 0 {
            let g = mask.trailing_zeros() as usize;
            mask &= mask - 1;
            let xs = _mm256_set1_epi32(i32::from_le_bytes(groups[g]));
            for (s, w) in sums.iter_mut().zip(&weights[4 * g..4 * g + 4]) {
                let pairs = _mm256_maddubs_epi16(xs, load_i8(w));
                *s = _mm256_add_epi32(*s, _mm256_madd_epi16(pairs, ones));
            }
        }
        let (half, zero, top) = (
            _mm256_set1_epi32(QW / 2),
            _mm256_setzero_si256(),
            _mm256_set1_epi32(QA),
        );
        let mut res = [0i32; 32];
        for (s, r) in sums.iter().zip(res.as_chunks_mut::<8>().0) {
            let v = _mm256_srai_epi32::<{ QW_SHIFT as i32 }>(_mm256_add_epi32(*s, half));
            store_i32(r, _mm256_min_epi32(_mm256_max_epi32(v, zero), top));
        }
        for (o, r) in out.iter_mut().zip(res) {
            *o = r as u8;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::movegen::Duplicates;
    use crate::core::moves::MoveList;
    use crate::core::play::Play;
    use crate::core::rules::{Brazilian, English, International, Italian, Rules, Russian};
    use crate::engine::eval::planes;

    /// Calls `f(before, after)` for every move of a random legal game of at most `plies`
    /// plies from the start (the moves drawn by an `StdRng` seeded with `seed`).
    fn random_game<R: Rules>(seed: u64, plies: usize, mut f: impl FnMut(&Planes, &Planes)) {
        let mut rng = StdRng::seed_from_u64(seed);
        let mut pos = <R as Play>::start();
        let mut list = MoveList::new();
        for _ in 0..plies {
            <R as Play>::generate(&pos, &mut list, Duplicates::Drop);
            if list.is_empty() {
                break;
            }
            let mv = list.as_slice()[rng.gen_range(0..list.len())];
            let next = <R as Play>::make(&pos, &mv);
            f(&planes(&pos), &planes(&next));
            pos = next;
        }
    }

    /// Every position of `games` random games of variant `R`.
    fn positions<R: Rules>(games: u64) -> Vec<Planes> {
        let mut out = Vec::new();
        for seed in 0..games {
            random_game::<R>(seed, 200, |_, after| out.push(*after));
        }
        out
    }

    /// Incremental updates along random games equal a refresh after every move, with the
    /// AVX2 and the scalar paths; returns the moves checked and how many were captures.
    fn incremental_matches_refresh<R: Rules>(seeds: u64) -> (usize, usize) {
        let mut net = Network::random(R::VARIANT, 7).unwrap();
        let (mut moves, mut captures) = (0, 0);
        for simd in [true, false] {
            net.set_simd(simd);
            for seed in 0..seeds {
                let mut acc = Accumulator::new(&net, &planes(&<R as Play>::start()));
                random_game::<R>(seed, 200, |before, after| {
                    acc.update(&net, before, after);
                    assert_eq!(acc, Accumulator::new(&net, after), "seed {seed}");
                    moves += 1;
                    let count = |p: &Planes| (p.white | p.black).count_ones();
                    captures += usize::from(count(after) < count(before));
                });
            }
        }
        (moves, captures)
    }

    #[test]
    fn incremental_update_equals_refresh() {
        for (moves, captures) in [
            incremental_matches_refresh::<English>(60),
            incremental_matches_refresh::<Russian>(60),
            incremental_matches_refresh::<International>(40),
            incremental_matches_refresh::<Italian>(10),
            incremental_matches_refresh::<Brazilian>(10),
        ] {
            assert!(
                moves > 500 && captures > 100,
                "{moves} moves, {captures} captures"
            );
        }
    }

    #[test]
    fn shapes_and_start_features() {
        assert_eq!(Shape::B8.inputs(), 120);
        assert_eq!(Shape::B10.inputs(), 190);
        assert_eq!(
            Shape::of(Variant::International).unwrap().inputs(),
            MAX_INPUTS
        );
        assert!(Shape::of(Variant::Damone).is_err());
        assert!(Network::random(Variant::Damone, 1).is_err());
        // White's men start on the low rows and move up (the features' orientation).
        let p = planes(&<English as Play>::start());
        assert_eq!(p.white, 0xFFF);
        for persp in 0..2 {
            let k = Shape::B8.kinds(&p, persp);
            assert_eq!(k, [0xFFF, 0, 0xFFF << 16, 0], "perspective {persp}");
        }
        let p = planes(&<International as Play>::start());
        let k = Shape::B10.kinds(&p, 1);
        assert_eq!(k, [(1 << 20) - 1, 0, ((1 << 20) - 1) << 25, 0]);
        // A man on its own crowning row (no legal position) has no input.
        let q = Planes {
            white: 1 << 31,
            black: 1,
            ..Planes::default()
        };
        assert_eq!(Shape::B8.kinds(&q, 0), [0; 4]);
        assert_eq!(Shape::B8.kinds(&q, 1), [0; 4]);
    }

    /// Evaluations and accumulators along the positions of random games are the same with
    /// the AVX2 and the scalar paths.
    fn simd_matches_scalar<R: Rules>() {
        for seed in 0..4 {
            let mut simd = Network::random(R::VARIANT, seed).unwrap();
            if !simd.set_simd(true) {
                eprintln!("no AVX2 on this CPU: nothing to compare");
                return;
            }
            let mut scalar = simd.clone();
            assert!(!scalar.set_simd(false));
            let (mut a, mut b) = (
                Accumulator::new(&simd, &planes(&<R as Play>::start())),
                Accumulator::new(&scalar, &planes(&<R as Play>::start())),
            );
            let mut nonzero = 0;
            random_game::<R>(seed + 100, 200, |before, after| {
                a.update(&simd, before, after);
                b.update(&scalar, before, after);
                assert_eq!(a, b);
                let (x, y) = (
                    simd.evaluate(&a, after.black_to_move),
                    scalar.evaluate(&b, after.black_to_move),
                );
                assert_eq!(x, y, "{after:?}");
                nonzero += usize::from(x != 0);
            });
            assert!(nonzero > 10);
        }
        // Extreme accumulators: every activation clipped at 0 or at QA, weights at the ends
        // of `i8` (the `maddubs` bound).
        let mut simd = Network::random(R::VARIANT, 99).unwrap();
        for (o, row) in simd.w2.iter_mut().enumerate() {
            row.fill(if o % 2 == 0 { -128 } else { 127 });
        }
        simd = simd.packed();
        let mut scalar = simd.clone();
        scalar.set_simd(false);
        let mut rng = StdRng::seed_from_u64(5);
        for _ in 0..200 {
            let acc = Accumulator {
                v: std::array::from_fn(|_| std::array::from_fn(|_| rng.gen_range(-300..=300))),
            };
            for stm in [false, true] {
                assert_eq!(simd.evaluate(&acc, stm), scalar.evaluate(&acc, stm));
            }
        }
    }

    #[test]
    fn simd_equals_scalar() {
        simd_matches_scalar::<English>();
        simd_matches_scalar::<Russian>();
        simd_matches_scalar::<International>();
    }

    #[test]
    fn colour_flip_symmetry() {
        fn check<R: Rules>() {
            let net = Network::random(R::VARIANT, 3).unwrap();
            let squares = u32::from(<R as Play>::SQUARES);
            let mut differ = 0;
            for p in positions::<R>(10) {
                let q = p.flipped(squares);
                let (a, b) = (Accumulator::new(&net, &p), Accumulator::new(&net, &q));
                assert_eq!(a.v[0], b.v[1]);
                assert_eq!(a.v[1], b.v[0]);
                let e = net.evaluate(&a, p.black_to_move);
                assert_eq!(e, net.evaluate(&b, q.black_to_move), "{p:?}");
                // The side to move matters: not a test that passes by symmetry alone.
                differ += usize::from(e != -net.evaluate(&a, !p.black_to_move));
            }
            assert!(differ > 100, "{differ}");
        }
        check::<English>();
        check::<Italian>();
        check::<International>();
    }

    #[test]
    fn file_round_trip_and_bad_files() {
        for v in [Variant::English, Variant::Russian, Variant::International] {
            let net = Network::random(v, 11).unwrap();
            let bytes = net.to_bytes();
            assert_eq!(bytes.len(), HEADER + payload_len(net.shape()));
            let size = if v == Variant::International {
                58_424
            } else {
                40_504
            };
            assert_eq!(bytes.len(), size);
            let mut back = Network::from_bytes(&bytes, v).unwrap();
            assert_eq!(back, net);
            back.set_simd(false);
            assert_eq!(back, net);
            assert_eq!(back.to_bytes(), bytes);
            let p = planes(&<International as Play>::start());
            if v == Variant::International {
                let acc = Accumulator::new(&back, &p);
                assert_eq!(back.evaluate(&acc, false), net.evaluate(&acc, false));
            }
        }
        let v = Variant::English;
        let bytes = Network::random(v, 12).unwrap().to_bytes();
        let refuse = |b: &[u8], v: Variant, what: &str| {
            let e = Network::from_bytes(b, v).expect_err(what);
            assert!(
                e.contains(what) && !e.contains('\n'),
                "{e} (expected {what})"
            );
        };
        for len in [0, 3, 4, 10, HEADER - 1] {
            refuse(&bytes[..len], v, if len < 4 { "DMNN" } else { "truncated" });
        }
        refuse(&bytes[..HEADER], v, "truncated");
        refuse(&bytes[..bytes.len() - 1], v, "truncated");
        let mut padded = bytes.clone();
        padded.push(0);
        refuse(&padded, v, "padded");
        let edit = |i: usize, x: u8| {
            let mut b = bytes.clone();
            b[i] = x;
            b
        };
        refuse(&edit(0, b'X'), v, "DMNN");
        refuse(&edit(4, 2), v, "version 2");
        refuse(&bytes, Variant::Russian, "network for english, not russian");
        refuse(&edit(6, 200), v, "unknown variant");
        refuse(&bytes, Variant::Damone, "Damone");
        refuse(&edit(8, 121), v, "layer sizes 121-128-32-32-1");
        refuse(&edit(10, 64), v, "layer sizes");
        let i = HEADER + 1000;
        refuse(&edit(i, bytes[i] ^ 1), v, "checksum");
        refuse(&edit(17, bytes[17] ^ 0x40), v, "checksum");
        // A bias out of range under a valid checksum.
        let mut b = bytes.clone();
        let last = b.len() - 1;
        b[last] = 0x7F;
        let crc = crc32fast::hash(&b[HEADER..]).to_le_bytes();
        b[16..20].copy_from_slice(&crc);
        refuse(&b, v, "bias");
        // No byte string panics: every single-byte change and every prefix.
        for i in 0..HEADER + 8 {
            for x in [0, 1, 0x80, 0xFF] {
                let _ = Network::from_bytes(&edit(i, x), v);
            }
        }
        for len in 0..bytes.len() {
            assert!(Network::from_bytes(&bytes[..len], v).is_err());
        }
    }

    /// An independent floating-point forward pass: the features listed square by square,
    /// the weights read and divided by their scales, `f64` throughout; centi-men.
    fn float_eval(net: &Network, p: &Planes, squares: u32, per_row: u32) -> f64 {
        let (s, n) = (squares as usize, per_row as usize);
        let m = s - n;
        let side = |view: &Planes| {
            let mut h: Vec<f64> = net.l1_biases().iter().map(|&b| b as f64 / 127.0).collect();
            for sq in 0..s {
                let bit = 1u64 << sq;
                let king = view.rank2 & bit != 0;
                let input = if view.white & bit != 0 {
                    match king {
                        true => Some(m + sq),
                        false if sq < m => Some(sq),
                        false => None,
                    }
                } else if view.black & bit != 0 {
                    match king {
                        true => Some(2 * m + s + sq),
                        false if sq >= n => Some(m + s + sq - n),
                        false => None,
                    }
                } else {
                    None
                };
                if let Some(f) = input {
                    for (x, &w) in h.iter_mut().zip(net.l1_weights(f)) {
                        *x += w as f64 / 127.0;
                    }
                }
            }
            h
        };
        let white = side(p);
        let black = side(&p.flipped(squares));
        let (us, them) = if p.black_to_move {
            (black, white)
        } else {
            (white, black)
        };
        let relu = |x: f64| x.clamp(0.0, 1.0);
        let a1: Vec<f64> = us.into_iter().chain(them).map(relu).collect();
        let layer = |w: Vec<&[i8]>, b: &[i32], a: &[f64]| -> Vec<f64> {
            w.iter()
                .zip(b)
                .map(|(row, &bias)| {
                    let sum: f64 = row.iter().zip(a).map(|(&w, &x)| w as f64 / 64.0 * x).sum();
                    relu(bias as f64 / 8128.0 + sum)
                })
                .collect()
        };
        let (w2, b2) = net.l2();
        let a2 = layer(w2.iter().map(|r| &r[..]).collect(), b2, &a1);
        let (w3, b3) = net.l3();
        let a3 = layer(w3.iter().map(|r| &r[..]).collect(), b3, &a2);
        let (w4, b4) = net.output();
        let out: f64 = w4.iter().zip(&a3).map(|(&w, &x)| w as f64 / 64.0 * x).sum();
        100.0 * (out + b4 as f64 / 8128.0)
    }

    /// The integer evaluation is within [`FLOAT_TOLERANCE`] centi-men of the float pass.
    const FLOAT_TOLERANCE: f64 = 3.0;

    #[test]
    fn float_reference_agrees() {
        fn check<R: Rules>() -> (f64, f64) {
            let (squares, per_row) = (
                u32::from(<R as Play>::SQUARES),
                if <R as Play>::SQUARES == 50 { 5 } else { 4 },
            );
            let (mut worst, mut total, mut count) = (0f64, 0f64, 0);
            let mut spread = 0f64;
            for seed in 0..3 {
                let net = Network::random(R::VARIANT, seed).unwrap();
                for p in positions::<R>(5) {
                    let int = net.evaluate(&Accumulator::new(&net, &p), p.black_to_move);
                    let float = float_eval(&net, &p, squares, per_row);
                    let err = (int as f64 - float).abs();
                    assert!(err <= FLOAT_TOLERANCE, "{int} vs {float:.2}: {p:?}");
                    worst = worst.max(err);
                    total += err;
                    count += 1;
                    spread = spread.max(float.abs());
                }
            }
            assert!(spread > 50.0, "{spread}");
            eprintln!(
                "{}: worst {worst:.2}, mean {:.3} centi-men, |eval| up to {spread:.0}",
                R::NAME,
                total / count as f64
            );
            (worst, total / count as f64)
        }
        check::<English>();
        check::<Russian>();
        check::<International>();
    }

    /// `Shape::features` lists exactly the inputs the accumulator adds: bias plus their
    /// columns is the refreshed accumulator, on both boards.
    #[test]
    fn features_match_the_accumulator() {
        fn check<R: Rules>() {
            let net = Network::random(R::VARIANT, 3).unwrap();
            for p in positions::<R>(3) {
                let acc = Accumulator::new(&net, &p);
                for (persp, f) in net.shape().features(&p).iter().enumerate() {
                    assert!(f.windows(2).all(|w| w[0] < w[1]));
                    let mut sum = *net.l1_biases();
                    for &i in f {
                        assert!((i as usize) < net.shape().inputs());
                        for (s, w) in sum.iter_mut().zip(net.l1_weights(i as usize)) {
                            *s = s.wrapping_add(*w);
                        }
                    }
                    assert_eq!(sum, acc.v[persp]);
                }
            }
        }
        check::<English>();
        check::<International>();
    }

    /// The float weights of `net` (each integer divided by its scale).
    #[allow(clippy::type_complexity)]
    fn floats(net: &Network) -> [Vec<f32>; 8] {
        let (qa, qw) = (QA as f32, QW as f32);
        let qab = qa * qw;
        let (w2, b2) = net.l2();
        let (w3, b3) = net.l3();
        let (w4, b4) = net.output();
        [
            net.w1.iter().map(|&x| f32::from(x) / qa).collect(),
            net.b1.iter().map(|&x| f32::from(x) / qa).collect(),
            w2.iter().flatten().map(|&x| f32::from(x) / qw).collect(),
            b2.iter().map(|&x| x as f32 / qab).collect(),
            w3.iter().flatten().map(|&x| f32::from(x) / qw).collect(),
            b3.iter().map(|&x| x as f32 / qab).collect(),
            w4.iter().map(|&x| f32::from(x) / qw).collect(),
            vec![b4 as f32 / qab],
        ]
    }

    fn from_floats(v: Variant, f: &[Vec<f32>; 8]) -> Result<Network, String> {
        Network::from_float(v, &f[0], &f[1], &f[2], &f[3], &f[4], &f[5], &f[6], f[7][0])
    }

    /// A network's own weights as floats come back as the same network; small perturbations
    /// (under half a quantisation step) round back too.
    #[test]
    fn from_float_round_trips() {
        for v in [Variant::English, Variant::International] {
            let net = Network::random(v, 11).unwrap();
            let mut f = floats(&net);
            assert_eq!(from_floats(v, &f).unwrap(), net);
            let (qa, qw, qab) = (QA as f32, QW as f32, (QA * QW) as f32);
            let steps = [qa, qa, qw, qab, qw, qab, qw, qab];
            for (layer, step) in f.iter_mut().zip(steps) {
                for (i, x) in layer.iter_mut().enumerate() {
                    *x += if i % 2 == 0 { 0.4 } else { -0.4 } / step;
                }
            }
            assert_eq!(from_floats(v, &f).unwrap(), net);
        }
    }

    /// Wrong lengths and values the integers cannot hold are refused, naming the argument;
    /// the range limits themselves are accepted.
    #[test]
    fn from_float_refuses_bad_input() {
        let v = Variant::English;
        let good = floats(&Network::random(v, 5).unwrap());
        let with = |layer: usize, i: usize, x: f32| {
            let mut f = good.clone();
            f[layer][i] = x;
            from_floats(v, &f)
        };
        let mut short = good.clone();
        short[0].pop();
        assert!(from_floats(v, &short).unwrap_err().starts_with("l1_w: "));
        assert!(with(2, 3, 2.0).unwrap_err().starts_with("l2_w[3] = 2"));
        assert!(with(2, 3, 127.0 / 64.0).is_ok());
        assert!(with(4, 0, -2.0).is_ok());
        assert!(with(4, 0, -2.01).unwrap_err().starts_with("l3_w[0]"));
        assert!(with(6, 1, f32::NAN).unwrap_err().starts_with("out_w[1]"));
        assert!(with(0, 0, 32767.0 / 127.0).is_ok());
        assert!(with(0, 0, 32768.0 / 127.0)
            .unwrap_err()
            .starts_with("l1_w[0]"));
        let max_bias = MAX_BIAS as f32 / (QA * QW) as f32;
        assert!(with(3, 0, max_bias * 1.01)
            .unwrap_err()
            .starts_with("l2_b[0]"));
        assert!(with(7, 0, f32::INFINITY)
            .unwrap_err()
            .starts_with("out_b[0]"));
        assert!(Network::from_float(
            Variant::Damone,
            &good[0],
            &good[1],
            &good[2],
            &good[3],
            &good[4],
            &good[5],
            &good[6],
            0.0
        )
        .is_err());
    }
}
