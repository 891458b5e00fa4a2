//! The learned evaluation of the 8x8 variants: Scan's idea of pattern weights over
//! overlapping board regions, plus a few draughts terms, every weight fitted by `damiera train`
//! to self-play games (docs/training.md).
//!
//! The score of a position is `S(white's view) - S(black's view)`, where a view is the board as
//! one side sees it (Black's is the board turned by 180°, [`super::Planes::flipped`]), so a
//! colour-flipped position scores exactly the negation. `S` sums, each with a middle-game and
//! an endgame weight interpolated by the number of pieces on the board ([`phase`]):
//! - [`WINDOWS`] patterns: regions of 4 rows × 2 adjacent dark squares (8 squares), at every
//!   row offset 0..=4 and column offset 0..=2; each square is empty, an own man or an
//!   opponent's man, so a region has 3^8 = 6561 weights. Kings are left to the other terms.
//! - [`DENSE`] counts ([`dense_features`]): men, kings (Dama), Damoni; tempo (rows advanced);
//!   runaway men by rows to go (nothing at all in the forward cone); men's and kings' quiet
//!   moves; a flying king's reach along its diagonals; kings on the long diagonal; kings
//!   against none; left-right balance; men on the back row.
//! - a side-to-move term.
//!
//! Weights are `i16` in 1/[`UNIT`] centi-men. The file: [`Net::to_bytes`].

use super::{padded, Planes};
use crate::variant::Variant;

/// Pattern regions.
pub const WINDOWS: usize = 15;
/// Weights per region: 3^8.
pub const PATTERNS: usize = 6561;
/// Counted terms per view.
pub const DENSE: usize = 15;
/// Index of the first counted term's weight.
pub const DENSE_OFFSET: usize = WINDOWS * PATTERNS;
/// Index of the side-to-move weight.
pub const STM: usize = DENSE_OFFSET + DENSE;
/// Weight pairs (middle game, endgame) in a net.
pub const FEATURES: usize = STM + 1;
/// Pieces on the board from which the middle-game weights count fully.
pub const PHASE_MAX: i32 = 24;
/// Weights are stored in 1/`UNIT` centi-men.
pub const UNIT: i32 = 16;
/// The weights file's magic bytes.
pub const MAGIC: &[u8; 4] = b"DMEV";
/// The weights file's format version (the feature layout above).
pub const VERSION: u16 = 1;
/// Bytes before the weights in a file.
pub const HEADER: usize = 16;

/// Names of the counted terms, for `damiera train`'s report.
pub const DENSE_NAMES: [&str; DENSE] = [
    "men",
    "kings",
    "damoni",
    "tempo",
    "runaway1",
    "runaway2",
    "runaway3",
    "runaway4",
    "man-mobility",
    "king-mobility",
    "king-reach",
    "king-diagonal",
    "sole-kings",
    "imbalance",
    "back-row",
];

const fn ternary() -> [u16; 256] {
    let mut t = [0u16; 256];
    let mut b = 0;
    while b < 256 {
        let mut v = 0u16;
        let mut p = 1u16;
        let mut k = 0;
        while k < 8 {
            if b >> k & 1 != 0 {
                v += p;
            }
            p *= 3;
            k += 1;
        }
        t[b] = v;
        b += 1;
    }
    t
}

/// `TERNARY[b]`: the base-3 number whose digits are the bits of `b`.
static TERNARY: [u16; 256] = ternary();

/// The 8 squares of region `w` in `d`, as 8 bits (two per row, bottom row first).
#[inline(always)]
fn window_bits(d: u32, w: usize) -> usize {
    let (r0, k0) = (w / 3, w % 3);
    let x = (d >> (4 * r0 + k0)) & 0x3333;
    ((x & 3) | ((x >> 2) & 0xC) | ((x >> 4) & 0x30) | ((x >> 6) & 0xC0)) as usize
}

/// The pattern index (0..6561) of region `w` for a view with men `own` and `opp`: the
/// region's squares as base-3 digits (0 empty, 1 own man, 2 opponent's man), bottom row first.
#[inline(always)]
pub fn pattern_index(own: u32, opp: u32, w: usize) -> usize {
    TERNARY[window_bits(own, w)] as usize + 2 * TERNARY[window_bits(opp, w)] as usize
}

/// `PAIR[own2 | opp2 << 2]`: two adjacent squares as two base-3 digits.
const PAIR: [u16; 16] = {
    let mut t = [0u16; 16];
    let mut i = 0;
    while i < 16 {
        let (own, opp) = (i & 3, i >> 2);
        t[i] = ((own & 1) + 3 * (own >> 1) + 2 * ((opp & 1) + 3 * (opp >> 1))) as u16;
        i += 1;
    }
    t
};

/// `PAIR_ROTATED[w2 | b2 << 2]`: the same two squares seen from Black's side (the board
/// turned by 180°: the squares swap places and the colours swap roles).
const PAIR_ROTATED: [u16; 16] = {
    let mut t = [0u16; 16];
    let mut i = 0;
    while i < 16 {
        let (w, b) = (i & 3, i >> 2);
        let (own, opp) = (((b & 1) << 1) | (b >> 1), ((w & 1) << 1) | (w >> 1));
        t[i] = PAIR[own | opp << 2];
        i += 1;
    }
    t
};

/// [`pattern_indices`] of White's view and of Black's view from White's and Black's men (not
/// rotated), sharing the square pairs: Black's pair `k` of its row `r` is White's pair `2 - k`
/// of row `7 - r`.
#[inline(always)]
pub fn pattern_indices_both(white: u32, black: u32) -> ([u16; WINDOWS], [u16; WINDOWS]) {
    let mut pw = [[0u16; 3]; 8];
    let mut pb = [[0u16; 3]; 8];
    for r in 0..8 {
        let (o, x) = (white >> (4 * r), black >> (4 * r));
        for k in 0..3 {
            let key = (((o >> k) & 3) | (((x >> k) & 3) << 2)) as usize;
            pw[r][k] = PAIR[key];
            pb[7 - r][2 - k] = PAIR_ROTATED[key];
        }
    }
    let mut iw = [0u16; WINDOWS];
    let mut ib = [0u16; WINDOWS];
    for w in 0..WINDOWS {
        let (r0, k) = (w / 3, w % 3);
        iw[w] = pw[r0][k] + 9 * pw[r0 + 1][k] + 81 * pw[r0 + 2][k] + 729 * pw[r0 + 3][k];
        ib[w] = pb[r0][k] + 9 * pb[r0 + 1][k] + 81 * pb[r0 + 2][k] + 729 * pb[r0 + 3][k];
    }
    (iw, ib)
}

/// Every region's [`pattern_index`] at once, sharing the per-row work (the evaluation's hot
/// path): each row's three square pairs become digit pairs, and a region is four of them.
#[inline(always)]
pub fn pattern_indices(own: u32, opp: u32) -> [u16; WINDOWS] {
    let mut pairs = [[0u16; 3]; 8];
    for (r, p) in pairs.iter_mut().enumerate() {
        let (o, x) = (own >> (4 * r), opp >> (4 * r));
        for (k, v) in p.iter_mut().enumerate() {
            *v = PAIR[(((o >> k) & 3) | (((x >> k) & 3) << 2)) as usize];
        }
    }
    let mut out = [0u16; WINDOWS];
    for (w, v) in out.iter_mut().enumerate() {
        let (r0, k) = (w / 3, w % 3);
        *v = pairs[r0][k] + 9 * pairs[r0 + 1][k] + 81 * pairs[r0 + 2][k] + 729 * pairs[r0 + 3][k];
    }
    out
}

/// One side's view of the board: its pieces move towards bit 31.
#[derive(Copy, Clone, Debug, Default)]
pub struct View {
    /// Own men (lowest rank).
    pub men: u32,
    /// The opponent's men.
    pub opp_men: u32,
    /// Own pieces above a man (kings; Dama and Damone).
    pub kings: u32,
    /// The opponent's pieces above a man.
    pub opp_kings: u32,
    /// Own pieces of the third rank (Damone).
    pub rank3: u32,
}

/// White's view and Black's view (the board turned by 180°).
#[inline(always)]
pub fn views(p: &Planes) -> [View; 2] {
    let up = p.rank2 | p.rank3;
    let w = View {
        men: p.white & !up,
        opp_men: p.black & !up,
        kings: p.white & up,
        opp_kings: p.black & up,
        rank3: p.white & p.rank3,
    };
    let b = View {
        men: w.opp_men.reverse_bits(),
        opp_men: w.men.reverse_bits(),
        kings: w.opp_kings.reverse_bits(),
        opp_kings: w.kings.reverse_bits(),
        rank3: (p.black & p.rank3).reverse_bits(),
    };
    [w, b]
}

/// The game phase: pieces on the board, at most [`PHASE_MAX`].
#[inline(always)]
pub fn phase(p: &Planes) -> i32 {
    ((p.white | p.black).count_ones() as i32).min(PHASE_MAX)
}

const fn row(r: u32) -> u32 {
    0xF << (4 * r)
}

/// Internal column of dense square `i`.
const fn column(i: u32) -> i32 {
    let (r, k) = (i / 4, i % 4);
    (if r % 2 == 0 { 2 * k + 1 } else { 2 * k }) as i32
}

/// `CONES[i]`: the squares a man on `i` could reach moving forward (rows above it, within the
/// diagonals through it).
const fn cones() -> [u32; 32] {
    let mut c = [0u32; 32];
    let mut i = 0u32;
    while i < 32 {
        let (r, x) = ((i / 4) as i32, column(i));
        let mut j = 0u32;
        while j < 32 {
            let (rj, xj) = ((j / 4) as i32, column(j));
            let dx = if xj > x { xj - x } else { x - xj };
            if rj > r && dx <= rj - r {
                c[i as usize] |= 1 << j;
            }
            j += 1;
        }
        i += 1;
    }
    c
}
static CONES: [u32; 32] = cones();

const fn long_diagonal() -> u32 {
    let mut m = 0;
    let mut i = 0u32;
    while i < 32 {
        if column(i) == 7 - (i / 4) as i32 {
            m |= 1 << i;
        }
        i += 1;
    }
    m
}
const LONG_DIAGONAL: u32 = long_diagonal();
/// Left half: the first two dark squares of each row.
const LEFT: u32 = 0x3333_3333;
const ALL_PADDED: u64 = padded(u32::MAX);

/// The counted terms of one view ([`DENSE_NAMES`] order). `flying`: kings move along whole
/// diagonals (the reach term is 0 otherwise).
#[inline]
pub fn dense_features(v: &View, flying: bool) -> [i32; DENSE] {
    let mut f = [0i32; DENSE];
    let men = v.men;
    let occupied = v.men | v.opp_men | v.kings | v.opp_kings;
    f[0] = men.count_ones() as i32;
    f[1] = (v.kings & !v.rank3).count_ones() as i32;
    f[2] = v.rank3.count_ones() as i32;
    let mut tempo = 0;
    for r in 1..8 {
        tempo += r as i32 * (men & row(r)).count_ones() as i32;
    }
    f[3] = tempo;
    // Runaway: a man 1..4 rows from the far row with nothing at all in its forward cone.
    let mut near = men & (row(3) | row(4) | row(5) | row(6));
    while near != 0 {
        let i = near.trailing_zeros();
        near &= near - 1;
        let to_go = 7 - i / 4;
        if to_go >= 1 && CONES[i as usize] & occupied == 0 {
            f[3 + to_go as usize] += 1;
        }
    }
    let empty = ALL_PADDED & !padded(occupied);
    let pm = padded(men);
    f[8] = (((pm << 4) & empty).count_ones() + ((pm << 5) & empty).count_ones()) as i32;
    let pk = padded(v.kings);
    if pk != 0 {
        f[9] = (((pk << 4) & empty).count_ones()
            + ((pk << 5) & empty).count_ones()
            + ((pk >> 4) & empty).count_ones()
            + ((pk >> 5) & empty).count_ones()) as i32;
        if flying {
            let mut reach = 0;
            for (shift, left) in [(4u32, true), (5, true), (4, false), (5, false)] {
                let mut g = pk;
                loop {
                    g = if left { g << shift } else { g >> shift } & empty;
                    if g == 0 {
                        break;
                    }
                    reach += g.count_ones() as i32;
                }
            }
            f[10] = reach;
        }
        f[11] = (v.kings & LONG_DIAGONAL).count_ones() as i32;
        f[12] = (v.opp_kings == 0) as i32;
    }
    f[13] = ((men & LEFT).count_ones() as i32 - (men & !LEFT).count_ones() as i32).abs();
    f[14] = (men & row(0)).count_ones() as i32;
    f
}

/// A variant's learned weights: [`FEATURES`] pairs (middle game, endgame) in 1/[`UNIT`]
/// centi-men.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Net {
    w: Vec<[i16; 2]>,
}

fn fnv1a(bytes: &[u8]) -> u32 {
    let mut h: u32 = 0x811c_9dc5;
    for &b in bytes {
        h ^= b as u32;
        h = h.wrapping_mul(0x0100_0193);
    }
    h
}

impl Net {
    /// A net from weights in centi-men (`mg[i]`, `eg[i]` for feature `i`, [`FEATURES`] each),
    /// rounded to 1/[`UNIT`] and clamped to `i16`.
    pub fn from_centi_men(mg: &[f32], eg: &[f32]) -> Net {
        assert_eq!(mg.len(), FEATURES);
        assert_eq!(eg.len(), FEATURES);
        let q = |x: f32| {
            (x * UNIT as f32)
                .round()
                .clamp(i16::MIN as f32, i16::MAX as f32) as i16
        };
        Net {
            w: mg.iter().zip(eg).map(|(&a, &b)| [q(a), q(b)]).collect(),
        }
    }

    /// The weights in centi-men: `(mg, eg)`, [`FEATURES`] each.
    pub fn to_centi_men(&self) -> (Vec<f32>, Vec<f32>) {
        let f = |x: i16| x as f32 / UNIT as f32;
        (
            self.w.iter().map(|p| f(p[0])).collect(),
            self.w.iter().map(|p| f(p[1])).collect(),
        )
    }

    /// The file form: magic `DMEV`, version `u16`, variant index `u8` (order of
    /// [`Variant::ALL`]), a zero byte, the number of weight pairs `u32`, the FNV-1a hash of the
    /// payload `u32`, then the payload: per feature the middle-game and endgame weight, `i16`;
    /// all little-endian.
    pub fn to_bytes(&self, v: Variant) -> Vec<u8> {
        let mut payload = Vec::with_capacity(self.w.len() * 4);
        for p in &self.w {
            payload.extend_from_slice(&p[0].to_le_bytes());
            payload.extend_from_slice(&p[1].to_le_bytes());
        }
        let mut out = Vec::with_capacity(HEADER + payload.len());
        out.extend_from_slice(MAGIC);
        out.extend_from_slice(&VERSION.to_le_bytes());
        out.push(super::variant_index(v) as u8);
        out.push(0);
        out.extend_from_slice(&(self.w.len() as u32).to_le_bytes());
        out.extend_from_slice(&fnv1a(&payload).to_le_bytes());
        out.extend_from_slice(&payload);
        out
    }

    /// Reads [`Net::to_bytes`]'s form for variant `v`.
    ///
    /// # Errors
    /// Not a weights file, another format version, another variant, truncated or too long, or
    /// a checksum mismatch: a one-line message.
    pub fn from_bytes(bytes: &[u8], v: Variant) -> Result<Net, String> {
        if bytes.len() < HEADER || &bytes[..4] != MAGIC {
            return Err("not a damiera weights file (no DMEV header)".into());
        }
        let version = u16::from_le_bytes([bytes[4], bytes[5]]);
        if version != VERSION {
            return Err(format!(
                "weights format version {version}, this build reads {VERSION}"
            ));
        }
        let file_variant = Variant::ALL.get(bytes[6] as usize).copied();
        if file_variant != Some(v) {
            let name = file_variant.map_or("an unknown variant".to_string(), |x| x.to_string());
            return Err(format!("weights for {name}, not {v}"));
        }
        let n = u32::from_le_bytes(bytes[8..12].try_into().expect("4 bytes")) as usize;
        if n != FEATURES {
            return Err(format!("{n} weights, this build expects {FEATURES}"));
        }
        let payload = &bytes[HEADER..];
        if payload.len() != 4 * n {
            return Err(format!(
                "truncated or padded: {} bytes of weights, expected {}",
                payload.len(),
                4 * n
            ));
        }
        let hash = u32::from_le_bytes(bytes[12..16].try_into().expect("4 bytes"));
        if fnv1a(payload) != hash {
            return Err("checksum mismatch (corrupt file)".into());
        }
        let w = payload
            .chunks_exact(4)
            .map(|c| {
                [
                    i16::from_le_bytes([c[0], c[1]]),
                    i16::from_le_bytes([c[2], c[3]]),
                ]
            })
            .collect();
        Ok(Net { w })
    }

    /// The evaluation of `p` in centi-men from the side to move's point of view. `flying`:
    /// the variant's kings fly.
    #[inline]
    pub fn evaluate(&self, p: &Planes, flying: bool) -> i32 {
        let [wv, bv] = views(p);
        let (mut mg, mut eg) = (0i32, 0i32);
        let (iw, ib) = pattern_indices_both(wv.men, wv.opp_men);
        for w in 0..WINDOWS {
            let a = self.w[w * PATTERNS + iw[w] as usize];
            let b = self.w[w * PATTERNS + ib[w] as usize];
            mg += a[0] as i32 - b[0] as i32;
            eg += a[1] as i32 - b[1] as i32;
        }
        let fw = dense_features(&wv, flying);
        let fb = dense_features(&bv, flying);
        for i in 0..DENSE {
            let d = fw[i] - fb[i];
            if d != 0 {
                let x = self.w[DENSE_OFFSET + i];
                mg += d * x[0] as i32;
                eg += d * x[1] as i32;
            }
        }
        let s = self.w[STM];
        let (smg, seg) = (s[0] as i32, s[1] as i32);
        let ph = phase(p);
        let white = if p.black_to_move {
            (mg - smg) * ph + (eg - seg) * (PHASE_MAX - ph)
        } else {
            (mg + smg) * ph + (eg + seg) * (PHASE_MAX - ph)
        } / (PHASE_MAX * UNIT);
        if p.black_to_move {
            -white
        } else {
            white
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pattern_indices_match_the_definition() {
        // Every region, on pseudo-random disjoint men sets.
        let mut x = 0x1234_5678_9abc_def0u64;
        for _ in 0..2000 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            let (own, opp) = (x as u32, (x >> 32) as u32 & !(x as u32));
            let all = pattern_indices(own, opp);
            let (iw, ib) = pattern_indices_both(own, opp);
            assert_eq!(iw, all);
            assert_eq!(ib, pattern_indices(opp.reverse_bits(), own.reverse_bits()));
            for (w, &i) in all.iter().enumerate() {
                assert_eq!(i as usize, pattern_index(own, opp, w));
                assert!((i as usize) < PATTERNS);
            }
        }
    }
}
