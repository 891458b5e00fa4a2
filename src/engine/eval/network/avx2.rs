//! The AVX2 kernels, bit for bit the scalar ones. Every function here requires AVX2
//! (`#[target_feature]`, the callers check); the only `unsafe` operations are the
//! unaligned loads and stores of whole fixed-size arrays.
use super::forward::column;
use super::shape::{H, KINDS, QA, QW, QW_SHIFT};
use std::arch::x86_64::{
    __m256i, _mm256_add_epi16, _mm256_add_epi32, _mm256_castsi256_ps, _mm256_cmpeq_epi32,
    _mm256_loadu_si256, _mm256_madd_epi16, _mm256_maddubs_epi16, _mm256_max_epi16,
    _mm256_max_epi32, _mm256_min_epi16, _mm256_min_epi32, _mm256_movemask_ps, _mm256_packus_epi16,
    _mm256_permute4x64_epi64, _mm256_set1_epi16, _mm256_set1_epi32, _mm256_setzero_si256,
    _mm256_srai_epi32, _mm256_storeu_si256, _mm256_sub_epi16,
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

/// The scalar `apply_scalar`: the accumulator stays in registers while every column is
/// added or subtracted (wrapping `i16` lanes).
#[target_feature(enable = "avx2")]
pub(super) fn apply(
    acc: &mut [i16; H],
    w1: &[i16],
    add: [u64; KINDS],
    sub: [u64; KINDS],
    offsets: [u16; KINDS],
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

/// The scalar `dense_scalar` with 32 outputs over `packed` (`model::pack`'s order): for
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
