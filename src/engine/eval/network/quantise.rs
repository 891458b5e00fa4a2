//! Quantisation: a [`Network`] from the trainer's float weights (module docs of [`super`],
//! "Quantisation").

use super::model::{Layers, Network, Stack};
use super::shape::{Shape, H, L1_OUT, L2, L3, MAX_BIAS, MAX_STACKS, QA, QW};
use crate::core::variant::Variant;

impl Network {
    /// A quantised network from float weights (the trainer's export), for variant `v` with
    /// `n` = [`Shape::inputs`] inputs and `s` layer stacks (1 to [`MAX_STACKS`], `s` =
    /// `out_b.len()`). The float network has activations in `[0, 1]` and its output in men
    /// (1.0 = 100 centi-men); every matrix is row-major `[out][in]` except the first layer,
    /// and the stacks' layers are one after another, stack 0 first:
    ///
    /// | argument | length | layout | quantised as |
    /// |----------|--------|--------|--------------|
    /// | `l1_w` | `n * H` | input-major: input `f`'s `H` weights at `f * H` | `i16`, `round(w * QA)` |
    /// | `l1_b` | `H` | | `i16`, `round(b * QA)` |
    /// | `l2_w` | `s * L2 * L1_OUT` | `[s][o][i]`, `i < H` the side to move's | `i8`, `round(w * QW)` |
    /// | `l2_b` | `s * L2` | `[s][o]` | `i32`, `round(b * QA * QW)` |
    /// | `l3_w` | `s * L3 * L2` | `[s][o][i]` | `i8`, `round(w * QW)` |
    /// | `l3_b` | `s * L3` | `[s][o]` | `i32`, `round(b * QA * QW)` |
    /// | `out_w` | `s * L3` | `[s][i]` | `i8`, `round(w * QW)` |
    /// | `out_b` | `s` | | `i32`, `round(b * QA * QW)` |
    ///
    /// `round` is to nearest, halves away from zero ([`f32::round`]). The rounded value must
    /// fit: `i16` for the first layer, `-128..=127` for the dense weights (a float weight in
    /// `[-2, 1.9921875]`, i.e. `[-2, 2)` up to the rounding), ±[`MAX_BIAS`] for the dense
    /// biases. Nothing checks that the accumulator's sums (bias plus the active inputs'
    /// weights) stay within `i16`: the trainer clamps its weights so that they do.
    ///
    /// # Errors
    /// A number of stacks out of range, a slice of the wrong length, a value not finite or
    /// out of range: a one-line message naming the argument.
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
        out_b: &[f32],
    ) -> Result<Network, String> {
        let shape = Shape::of(v);
        let stacks = out_b.len();
        if !(1..=MAX_STACKS).contains(&stacks) {
            return Err(format!(
                "out_b: {stacks} layer stacks, expected 1 to {MAX_STACKS}"
            ));
        }
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
        let w2 = quant("l2_w", l2_w, stacks * L2 * L1_OUT, qw, -128, 127)?;
        let b2 = quant("l2_b", l2_b, stacks * L2, qab, bias_lo, bias_hi)?;
        let w3 = quant("l3_w", l3_w, stacks * L3 * L2, qw, -128, 127)?;
        let b3 = quant("l3_b", l3_b, stacks * L3, qab, bias_lo, bias_hi)?;
        let w4 = quant("out_w", out_w, stacks * L3, qw, -128, 127)?;
        let b4 = quant("out_b", out_b, stacks, qab, bias_lo, bias_hi)?;
        Ok(Network::from_layers(
            v,
            shape,
            Layers {
                w1: w1.iter().map(|&x| x as i16).collect(),
                b1: std::array::from_fn(|i| b1[i] as i16),
                stacks: (0..stacks)
                    .map(|s| Stack {
                        w2: (0..L2)
                            .map(|o| std::array::from_fn(|i| w2[(s * L2 + o) * L1_OUT + i] as i8))
                            .collect(),
                        b2: std::array::from_fn(|i| b2[s * L2 + i] as i32),
                        w3: std::array::from_fn(|o| {
                            std::array::from_fn(|i| w3[(s * L3 + o) * L2 + i] as i8)
                        }),
                        b3: std::array::from_fn(|i| b3[s * L3 + i] as i32),
                        w4: std::array::from_fn(|i| w4[s * L3 + i] as i8),
                        b4: b4[s] as i32,
                    })
                    .collect(),
            },
        ))
    }
}
