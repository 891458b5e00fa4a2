//! The [`Network`]: its weights (the first layer and the layer stacks), their accessors, a
//! random network and the AVX2 kernel's packed copies.

use super::shape::{Shape, H, L1_OUT, L2, L3, QA, QW};
use crate::core::variant::Variant;
use crate::engine::eval::planes::Planes;
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

/// A quantised evaluation network for one variant (see the module docs for the features, the
/// layers and the scales). About 50 KB on 8x8, 67 KB on 10x10 with one layer stack; each
/// further stack adds 9,508 bytes. Two networks are equal when their variant and weights are
/// (whichever path they run).
#[derive(Clone, Debug)]
pub struct Network {
    pub(super) variant: Variant,
    pub(super) shape: Shape,
    /// The weights.
    pub(super) l: Layers,
    /// Each stack's `w2` and `w3` in the AVX2 kernel's order ([`pack`]).
    #[cfg_attr(not(target_arch = "x86_64"), allow(dead_code))]
    pub(super) packed: Vec<Packed>,
    /// Whether the AVX2 paths run (decided when the network is made).
    pub(super) simd: bool,
}

/// A layer stack's `w2` and `w3` in the AVX2 kernel's order.
#[derive(Clone, Debug)]
pub(super) struct Packed {
    pub(super) w2: Vec<i8>,
    pub(super) w3: Vec<i8>,
}

/// A network's weights, as read from a file, quantised or drawn.
#[derive(Clone, Debug, PartialEq)]
pub(super) struct Layers {
    /// First layer, input-major: input `f`'s `H` weights at `f * H`, in 1/[`QA`].
    pub(super) w1: Vec<i16>,
    /// First-layer biases, in 1/[`QA`].
    pub(super) b1: [i16; H],
    /// The layer stacks after the first layer (1 to [`MAX_STACKS`](super::MAX_STACKS)), one
    /// of which evaluates a position ([`Shape::stack`]).
    pub(super) stacks: Vec<Stack>,
}

/// The layers after the first one, for one run of piece counts ([`Shape::stack`]).
#[derive(Clone, Debug, PartialEq)]
pub(super) struct Stack {
    /// Second layer, row-major: `w2[o][i]`, `i < H` the side to move's activations, in 1/[`QW`].
    pub(super) w2: Vec<[i8; L1_OUT]>,
    /// Second-layer biases, in 1/([`QA`] * [`QW`]).
    pub(super) b2: [i32; L2],
    /// Third layer, `w3[o][i]`.
    pub(super) w3: [[i8; L2]; L3],
    /// Third-layer biases.
    pub(super) b3: [i32; L3],
    /// Output weights.
    pub(super) w4: [i8; L3],
    /// Output bias, in 1/([`QA`] * [`QW`]) of a man.
    pub(super) b4: i32,
}

/// A value of a [`Stack`], as [`Stack::fill`] asks for it: a weight (`i8`) or a bias (`i32`)
/// of the second, third or output layer.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(super) enum Part {
    W2,
    B2,
    W3,
    B3,
    W4,
    B4,
}

impl Stack {
    /// A stack whose values `next` gives one by one in the file's order (second layer's
    /// weights row by row, its biases, the third layer's likewise, the output's); a weight is
    /// cast to `i8`, so `next` gives a value in range for it.
    pub(super) fn fill(mut next: impl FnMut(Part) -> i32) -> Stack {
        let w2 = (0..L2)
            .map(|_| std::array::from_fn(|_| next(Part::W2) as i8))
            .collect();
        let b2 = std::array::from_fn(|_| next(Part::B2));
        let w3 = std::array::from_fn(|_| std::array::from_fn(|_| next(Part::W3) as i8));
        let b3 = std::array::from_fn(|_| next(Part::B3));
        let w4 = std::array::from_fn(|_| next(Part::W4) as i8);
        let b4 = next(Part::B4);
        Stack {
            w2,
            b2,
            w3,
            b3,
            w4,
            b4,
        }
    }
}

impl PartialEq for Network {
    /// Equal variant and weights (the packed copies and the kernel choice follow from them).
    fn eq(&self, other: &Network) -> bool {
        (self.variant, &self.l) == (other.variant, &other.l)
    }
}

impl Eq for Network {}

/// `w` (rows of `N` inputs, 32 of them) in the order of the AVX2 kernel: for each group of 4
/// inputs, for each output, the group's 4 weights (`packed[(g * 32 + o) * 4 + k] =
/// w[o][4g + k]`).
pub(super) fn pack<const N: usize>(w: &[[i8; N]]) -> Vec<i8> {
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
        &self.l.w1[f * H..(f + 1) * H]
    }

    /// The first layer's biases (in 1/[`QA`]).
    pub fn l1_biases(&self) -> &[i16; H] {
        &self.l.b1
    }

    /// Layer stacks after the first layer (1 to [`MAX_STACKS`](super::MAX_STACKS)).
    pub fn stacks(&self) -> usize {
        self.l.stacks.len()
    }

    /// The stack that evaluates `p` ([`Shape::stack`] of its pieces).
    #[inline(always)]
    pub fn stack_of(&self, p: &Planes) -> usize {
        self.shape.stack_of(p, self.l.stacks.len())
    }

    /// Stack `s`'s second layer: weights `[o][i]` (in 1/[`QW`]; `i < H`: the side to move's
    /// activations) and biases (in 1/(`QA` * `QW`)).
    ///
    /// # Panics
    /// `s` is not below [`Network::stacks`].
    pub fn l2(&self, s: usize) -> (&[[i8; L1_OUT]], &[i32; L2]) {
        (&self.l.stacks[s].w2, &self.l.stacks[s].b2)
    }

    /// Stack `s`'s third layer: weights `[o][i]` and biases, scaled as [`Network::l2`].
    ///
    /// # Panics
    /// `s` is not below [`Network::stacks`].
    pub fn l3(&self, s: usize) -> (&[[i8; L2]; L3], &[i32; L3]) {
        (&self.l.stacks[s].w3, &self.l.stacks[s].b3)
    }

    /// Stack `s`'s output weights (in 1/[`QW`]) and bias (in 1/(`QA` * `QW`) of a man).
    ///
    /// # Panics
    /// `s` is not below [`Network::stacks`].
    pub fn output(&self, s: usize) -> (&[i8; L3], i32) {
        (&self.l.stacks[s].w4, self.l.stacks[s].b4)
    }

    /// A network of pseudo-random weights for variant `v` with `stacks` layer stacks (tests
    /// and benchmarks; clamped to 1 ..= [`MAX_STACKS`](super::MAX_STACKS)), of about the
    /// magnitudes a trained one would have: first-layer weights in ±0.25, biases in `[0,
    /// 0.5]`, dense weights in ±0.25 (±0.5 for the output).
    pub fn random(v: Variant, seed: u64, stacks: usize) -> Network {
        let shape = Shape::of(v);
        let mut rng = StdRng::seed_from_u64(seed);
        let w1 = (0..shape.inputs() * H)
            .map(|_| rng.gen_range(-32..=32))
            .collect();
        let b1 = std::array::from_fn(|_| rng.gen_range(0..=64));
        let bias = |rng: &mut StdRng| rng.gen_range(-QA * QW / 4..=QA * QW / 4);
        let stacks = (0..stacks.clamp(1, super::MAX_STACKS))
            .map(|_| {
                Stack::fill(|part| match part {
                    Part::W2 | Part::W3 => rng.gen_range(-16..=16),
                    Part::W4 => rng.gen_range(-32..=32),
                    Part::B2 | Part::B3 | Part::B4 => bias(&mut rng),
                })
            })
            .collect();
        Network::from_layers(v, shape, Layers { w1, b1, stacks })
    }

    /// The network of `variant` and `shape` with these weights, the AVX2 kernel's copies of
    /// `w2` and `w3` packed and the path chosen for this CPU.
    pub(super) fn from_layers(variant: Variant, shape: Shape, l: Layers) -> Network {
        Network {
            variant,
            shape,
            packed: l
                .stacks
                .iter()
                .map(|s| Packed {
                    w2: pack(&s.w2),
                    w3: pack(&s.w3),
                })
                .collect(),
            simd: avx2_available(),
            l,
        }
    }
}
