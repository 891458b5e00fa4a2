//! The forward pass: the [`Accumulator`] (the first layer, kept move by move) and the dense
//! layers, on the portable scalar path or the AVX2 kernels ([`Network::simd`]).

#[cfg(target_arch = "x86_64")]
use super::avx2;
use super::model::{Network, Stack};
use super::shape::{inputs, H, KINDS, L1_OUT, L2, L3, QA, QW, QW_SHIFT};
use crate::engine::eval::planes::Planes;

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
            self.v[persp] = net.l.b1;
            net.apply(&mut self.v[persp], net.shape.kinds(p, persp), [0; KINDS]);
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
    /// Adds the first-layer columns of inputs `add` to `acc` and subtracts those of `sub`
    /// (wrapping, as the AVX2 instructions do).
    #[inline]
    fn apply(&self, acc: &mut [i16; H], add: [u64; KINDS], sub: [u64; KINDS]) {
        let offsets = self.shape.offsets();
        #[cfg(target_arch = "x86_64")]
        if self.simd {
            // SAFETY: `simd` is only true when the CPU has AVX2 (`packed`, `set_simd`).
            unsafe { avx2::apply(acc, &self.l.w1, add, sub, offsets) };
            return;
        }
        apply_scalar(acc, &self.l.w1, add, sub, offsets);
    }

    /// The evaluation in centi-men from the side to move's point of view of position `p`,
    /// whose accumulator is `acc`: by the stack of `p`'s piece count ([`Network::stack_of`]).
    #[inline]
    pub fn evaluate(&self, acc: &Accumulator, p: &Planes) -> i32 {
        self.evaluate_stack(acc, p.black_to_move, self.stack_of(p))
    }

    /// The evaluation in centi-men from the side to move's point of view of the position
    /// whose accumulator is `acc` (`black_to_move`: whose turn it is), by layer stack `s`.
    ///
    /// # Panics
    /// `s` is not below [`Network::stacks`].
    pub fn evaluate_stack(&self, acc: &Accumulator, black_to_move: bool, s: usize) -> i32 {
        let (us, them) = if black_to_move {
            (&acc.v[1], &acc.v[0])
        } else {
            (&acc.v[0], &acc.v[1])
        };
        let stack = &self.l.stacks[s];
        let mut a3 = [0u8; L3];
        #[cfg(target_arch = "x86_64")]
        if self.simd {
            let packed = &self.packed[s];
            // SAFETY: `simd` is only true when the CPU has AVX2.
            unsafe {
                let mut input = [0u8; L1_OUT];
                avx2::clip(us, them, &mut input);
                let mut a2 = [0u8; L2];
                avx2::dense(&input, &packed.w2, &stack.b2, &mut a2);
                avx2::dense(&a2, &packed.w3, &stack.b3, &mut a3);
            }
            return output_centi(stack, &a3);
        }
        let mut input = [0u8; L1_OUT];
        for i in 0..H {
            input[i] = us[i].clamp(0, QA as i16) as u8;
            input[H + i] = them[i].clamp(0, QA as i16) as u8;
        }
        let mut a2 = [0u8; L2];
        dense_scalar(&input, &stack.w2, &stack.b2, &mut a2);
        dense_scalar(&a2, &stack.w3, &stack.b3, &mut a3);
        output_centi(stack, &a3)
    }
}

/// A stack's output layer, in centi-men rounded to nearest.
fn output_centi(stack: &Stack, a3: &[u8; L3]) -> i32 {
    let sum = a3
        .iter()
        .zip(&stack.w4)
        .fold(stack.b4, |s, (&a, &w)| s + i32::from(a) * i32::from(w));
    let scale = i64::from(QA * QW);
    ((i64::from(sum) * 100 + scale / 2).div_euclid(scale)) as i32
}

/// The first-layer column `f` of `w1` as an array (`w1` holds whole columns).
#[inline(always)]
pub(super) fn column(w1: &[i16], f: u16) -> &[i16; H] {
    let start = f as usize * H;
    w1[start..start + H].try_into().expect("H weights")
}

/// The portable [`Network::apply`].
fn apply_scalar(
    acc: &mut [i16; H],
    w1: &[i16],
    add: [u64; KINDS],
    sub: [u64; KINDS],
    off: [u16; KINDS],
) {
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
