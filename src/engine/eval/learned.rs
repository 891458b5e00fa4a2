//! Pattern weights, the evaluation before the networks (a `DMEV` file through `EvalFile`):
//! Scan's idea of pattern weights over overlapping board regions, plus a few draughts terms,
//! every weight fitted by `damiera-train patterns` to self-play games (docs/training.md,
//! "Pattern weights"; the built-in evaluation is the [`super::network`], which a [`Net`]
//! holds as well). One definition serves both boards; [`Layout`] holds what differs
//! (8x8: 4 dark squares a row, 8 rows; International's 10x10: 5 a row, 10 rows).
//!
//! The score of a position is `S(white's view) - S(black's view)`, where a view is the board as
//! one side sees it (Black's is the board turned by 180°, [`super::Planes::flipped`]), so a
//! color-flipped position scores exactly the negation. `S` sums, each with a middle-game and
//! an endgame weight interpolated by the number of pieces on the board ([`phase`]):
//! - patterns: regions of 4 rows × 2 adjacent dark squares (8 squares), at every row offset
//!   and every offset within the row (8x8: 5 × 3 = 15 regions; 10x10: 7 × 4 = 28); each square
//!   is empty, an own man or an opponent's man, so a region has 3^8 = 6561 weights. Kings are
//!   left to the other terms.
//! - [`DENSE`] counts ([`dense_features`]): men, kings (Dama), Damoni; tempo (rows advanced);
//!   runaway men by rows to go (nothing at all in the forward cone); men's and kings' quiet
//!   moves; a flying king's reach along its diagonals; kings on the long diagonal; kings
//!   against none; left-right balance; men on the back row.
//! - a side-to-move term.
//!
//! Weights are `i16` in 1/[`UNIT`] centi-men. The file: [`Net::to_bytes`].

use super::header::Header;
use super::network::{Accumulator, Network, MAGIC as NETWORK_MAGIC};
use super::planes::Planes;
use crate::core::variant::Variant;

/// The shape of a board and of the weights over it.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Layout {
    /// Dark squares in a row.
    pub per_row: usize,
    /// Rows.
    pub rows: usize,
    /// Pattern regions: `(rows - 3) * (per_row - 1)`.
    pub windows: usize,
    /// Index of the first counted term's weight: `windows * PATTERNS`.
    pub dense_offset: usize,
    /// Index of the side-to-move weight.
    pub stm: usize,
    /// Weight pairs (middle game, endgame) in a net.
    pub features: usize,
    /// Pieces on the board from which the middle-game weights count fully (all the pieces of
    /// the start position).
    pub phase_max: i32,
}

impl Layout {
    const fn new(per_row: usize, rows: usize) -> Layout {
        let windows = (rows - 3) * (per_row - 1);
        let dense_offset = windows * PATTERNS;
        Layout {
            per_row,
            rows,
            windows,
            dense_offset,
            stm: dense_offset + DENSE,
            features: dense_offset + DENSE + 1,
            phase_max: (per_row * (rows - 2)) as i32,
        }
    }

    /// Squares on the board.
    pub const fn squares(&self) -> usize {
        self.per_row * self.rows
    }

    /// The layout of variant `v`'s board.
    pub const fn of(v: Variant) -> Layout {
        match v {
            Variant::International
            | Variant::Antidraughts
            | Variant::Breakthrough
            | Variant::Frisian
            | Variant::Frysk => L10,
            _ => L8,
        }
    }

    /// The layout of the 10x10 board if `ten`, else of the 8x8 one.
    pub const fn board(ten: bool) -> Layout {
        if ten {
            L10
        } else {
            L8
        }
    }
}

/// The 8x8 boards: 15 regions, 98,431 weight pairs, phase over 24 pieces.
pub const L8: Layout = Layout::new(4, 8);
/// International's 10x10 board: 28 regions, 183,724 weight pairs, phase over 40 pieces.
pub const L10: Layout = Layout::new(5, 10);
/// The most regions of any board (10x10).
pub const MAX_WINDOWS: usize = L10.windows;

/// Weights per region: 3^8.
pub const PATTERNS: usize = 6561;
/// Counted terms per view.
pub const DENSE: usize = 15;
/// Weights are stored in 1/`UNIT` centi-men.
pub const UNIT: i32 = 16;
/// The weights file's magic bytes.
pub const MAGIC: &[u8; 4] = b"DMEV";
/// The weights file's format version (the feature layout above).
pub const VERSION: u16 = 1;
/// Bytes before the weights in a file.
pub const HEADER: usize = 16;

/// The weights file's header ([`Header`]): `DMEV`, [`VERSION`], the variant; [`HEADER`]
/// bytes with the weight count and the checksum.
const FORMAT: Header = Header {
    magic: MAGIC,
    version: VERSION,
    len: HEADER,
    foreign: "not a damiera weights file (no DMEV or DMNN header)",
    short: None,
    format: "weights format",
    contents: "weights for",
};

/// Names of the counted terms, for `damiera-train patterns`' report.
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

/// The base-3 value of the 8 region squares of `own` and `opp` (bottom row first, the left
/// square of a row first): the definition [`pattern_indices_both`] computes fast.
pub fn pattern_index(own: u64, opp: u64, w: usize, l: Layout) -> usize {
    let pairs = l.per_row - 1;
    let (r0, k0) = (w / pairs, w % pairs);
    let (mut index, mut p) = (0, 1);
    for r in r0..r0 + 4 {
        for k in k0..k0 + 2 {
            let bit = 1u64 << (r * l.per_row + k);
            if own & bit != 0 {
                index += p;
            } else if opp & bit != 0 {
                index += 2 * p;
            }
            p *= 3;
        }
    }
    index
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
/// turned by 180°: the squares swap places and the colors swap roles).
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

/// The region indices of White's view and of Black's view (the first `windows` of each
/// array; [`pattern_index`]) from White's and Black's men (not rotated), sharing the per-row
/// work: each row's square pairs become digit pairs, a region is four of them, and Black's pair
/// `k` of its row `r` is White's pair `per_row - 2 - k` of row `rows - 1 - r`. `TEN`: the
/// 10x10 board.
#[inline(always)]
pub fn pattern_indices_both<const TEN: bool>(
    white: u64,
    black: u64,
) -> ([u16; MAX_WINDOWS], [u16; MAX_WINDOWS]) {
    if TEN {
        indices_both::<10, 4>(white, black)
    } else {
        indices_both::<8, 3>(white, black)
    }
}

/// [`pattern_indices_both`] on a board of `ROWS` rows of `PAIRS + 1` dark squares (the sizes
/// as constants, so that the tables fit the board and the loops unroll).
#[inline(always)]
fn indices_both<const ROWS: usize, const PAIRS: usize>(
    white: u64,
    black: u64,
) -> ([u16; MAX_WINDOWS], [u16; MAX_WINDOWS]) {
    let per_row = PAIRS + 1;
    let mut pw = [[0u16; PAIRS]; ROWS];
    let mut pb = [[0u16; PAIRS]; ROWS];
    for r in 0..ROWS {
        let (o, x) = (white >> (per_row * r), black >> (per_row * r));
        for k in 0..PAIRS {
            let key = (((o >> k) & 3) | (((x >> k) & 3) << 2)) as usize;
            pw[r][k] = PAIR[key];
            pb[ROWS - 1 - r][PAIRS - 1 - k] = PAIR_ROTATED[key];
        }
    }
    let mut iw = [0u16; MAX_WINDOWS];
    let mut ib = [0u16; MAX_WINDOWS];
    for r0 in 0..ROWS - 3 {
        for k in 0..PAIRS {
            let w = r0 * PAIRS + k;
            iw[w] = pw[r0][k] + 9 * pw[r0 + 1][k] + 81 * pw[r0 + 2][k] + 729 * pw[r0 + 3][k];
            ib[w] = pb[r0][k] + 9 * pb[r0 + 1][k] + 81 * pb[r0 + 2][k] + 729 * pb[r0 + 3][k];
        }
    }
    (iw, ib)
}

/// One side's view of the board: its pieces move towards the last square.
#[derive(Copy, Clone, Debug, Default)]
pub struct View {
    /// Own men (lowest rank).
    pub men: u64,
    /// The opponent's men.
    pub opp_men: u64,
    /// Own pieces above a man (kings; Dama and Damone).
    pub kings: u64,
    /// The opponent's pieces above a man.
    pub opp_kings: u64,
    /// Own pieces of the third rank (Damone).
    pub rank3: u64,
}

/// White's view and Black's view (the board turned by 180°). `TEN`: the 10x10 board.
#[inline(always)]
pub fn views<const TEN: bool>(p: &Planes) -> [View; 2] {
    let rot = |x: u64| x.reverse_bits() >> (64 - Layout::board(TEN).squares());
    let up = p.rank2 | p.rank3;
    let w = View {
        men: p.white & !up,
        opp_men: p.black & !up,
        kings: p.white & up,
        opp_kings: p.black & up,
        rank3: p.white & p.rank3,
    };
    let b = View {
        men: rot(w.opp_men),
        opp_men: rot(w.men),
        kings: rot(w.opp_kings),
        opp_kings: rot(w.kings),
        rank3: rot(p.black & p.rank3),
    };
    [w, b]
}

/// The game phase: pieces on the board, at most the layout's `phase_max`.
#[inline(always)]
pub fn phase(p: &Planes, l: Layout) -> i32 {
    ((p.white | p.black).count_ones() as i32).min(l.phase_max)
}

const fn row(r: usize, per_row: usize) -> u64 {
    ((1 << per_row) - 1) << (per_row * r)
}

/// Board column (0 = left, White's side) of square `i` of a board with `per_row` dark squares
/// a row.
const fn column(i: usize, per_row: usize) -> i32 {
    let (r, k) = (i / per_row, i % per_row);
    (if r % 2 == 0 { 2 * k + 1 } else { 2 * k }) as i32
}

/// `cones::<N>(per_row)[i]`: the squares a man on `i` could reach moving forward (rows above
/// it, within the diagonals through it), on a board of `N` squares.
const fn cones<const N: usize>(per_row: usize) -> [u64; N] {
    let mut c = [0u64; N];
    let mut i = 0;
    while i < N {
        let (r, x) = ((i / per_row) as i32, column(i, per_row));
        let mut j = 0;
        while j < N {
            let (rj, xj) = ((j / per_row) as i32, column(j, per_row));
            let dx = if xj > x { xj - x } else { x - xj };
            if rj > r && dx <= rj - r {
                c[i] |= 1 << j;
            }
            j += 1;
        }
        i += 1;
    }
    c
}
static CONES8: [u64; 32] = cones::<32>(4);
static CONES10: [u64; 50] = cones::<50>(5);

/// The long diagonal (between the two single corners).
const fn long_diagonal(per_row: usize) -> u64 {
    let (mut m, mut i) = (0, 0);
    while i < 2 * per_row * per_row {
        if column(i, per_row) == (2 * per_row - 1 - i / per_row) as i32 {
            m |= 1 << i;
        }
        i += 1;
    }
    m
}

/// The left half: squares in the board's left columns.
const fn left_half(per_row: usize) -> u64 {
    let (mut m, mut i) = (0, 0);
    while i < 2 * per_row * per_row {
        if column(i, per_row) < per_row as i32 {
            m |= 1 << i;
        }
        i += 1;
    }
    m
}

const LONG_DIAGONAL8: u64 = long_diagonal(4);
const LONG_DIAGONAL10: u64 = long_diagonal(5);
const LEFT8: u64 = left_half(4);
const LEFT10: u64 = left_half(5);

/// The counted terms of one view ([`DENSE_NAMES`] order). `TEN`: the 10x10 board; `flying`:
/// kings move along whole diagonals (the reach term is 0 otherwise).
#[inline]
pub fn dense_features<const TEN: bool>(v: &View, flying: bool) -> [i32; DENSE] {
    let l = Layout::board(TEN);
    let (per_row, rows) = (l.per_row, l.rows);
    let cones: &[u64] = if TEN { &CONES10 } else { &CONES8 };
    let mut f = [0i32; DENSE];
    let men = v.men;
    let occupied = v.men | v.opp_men | v.kings | v.opp_kings;
    f[0] = men.count_ones() as i32;
    f[1] = (v.kings & !v.rank3).count_ones() as i32;
    f[2] = v.rank3.count_ones() as i32;
    let mut tempo = 0;
    for r in 1..rows {
        tempo += r as i32 * (men & row(r, per_row)).count_ones() as i32;
    }
    f[3] = tempo;
    // Runaway: a man 1..4 rows from the far row with nothing at all in its forward cone.
    let mut near = men
        & (row(rows - 5, per_row)
            | row(rows - 4, per_row)
            | row(rows - 3, per_row)
            | row(rows - 2, per_row));
    while near != 0 {
        let i = near.trailing_zeros() as usize;
        near &= near - 1;
        let to_go = rows - 1 - i / per_row;
        if cones[i] & occupied == 0 {
            f[3 + to_go] += 1;
        }
    }
    // Steps on the padded board (crate::core::geometry): forward is a shift up by `per_row` or
    // `per_row + 1`.
    let (s1, s2) = (per_row as u32, per_row as u32 + 1);
    let all = (1u64 << l.squares()) - 1;
    let empty = super::padded_of::<TEN>(all & !occupied);
    let pm = super::padded_of::<TEN>(men);
    f[8] = (((pm << s1) & empty).count_ones() + ((pm << s2) & empty).count_ones()) as i32;
    let pk = super::padded_of::<TEN>(v.kings);
    if pk != 0 {
        f[9] = (((pk << s1) & empty).count_ones()
            + ((pk << s2) & empty).count_ones()
            + ((pk >> s1) & empty).count_ones()
            + ((pk >> s2) & empty).count_ones()) as i32;
        if flying {
            let mut reach = 0;
            for (shift, up) in [(s1, true), (s2, true), (s1, false), (s2, false)] {
                let mut g = pk;
                loop {
                    g = if up { g << shift } else { g >> shift } & empty;
                    if g == 0 {
                        break;
                    }
                    reach += g.count_ones() as i32;
                }
            }
            f[10] = reach;
        }
        let long = if TEN { LONG_DIAGONAL10 } else { LONG_DIAGONAL8 };
        f[11] = (v.kings & long).count_ones() as i32;
        f[12] = (v.opp_kings == 0) as i32;
    }
    let left = if TEN { LEFT10 } else { LEFT8 };
    f[13] = ((men & left).count_ones() as i32 - (men & !left).count_ones() as i32).abs();
    f[14] = (men & row(0, per_row)).count_ones() as i32;
    f
}

/// A variant's learned evaluation: pattern weights ([`Layout::features`] pairs, middle game
/// and endgame, in 1/[`UNIT`] centi-men; a `DMEV` file) or an evaluation network
/// ([`Network`], a `DMNN` file; then there are no pattern weights). Both load through the
/// same `EvalFile` option and reach the search the same way; the search keeps a network's
/// first layer up to date move by move ([`Net::network`]).
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Net(Kind);

/// Which learned evaluation a [`Net`] is.
#[derive(Clone, PartialEq, Eq, Debug)]
enum Kind {
    /// Pattern weights, one (middle game, endgame) pair a feature.
    Patterns(Vec<[i16; 2]>),
    /// An evaluation network (boxed: far larger than the other variant's handle).
    Network(Box<Network>),
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
    /// A net from weights in centi-men (`mg[i]`, `eg[i]` for feature `i`, as many as the
    /// board's [`Layout::features`]), rounded to 1/[`UNIT`] and clamped to `i16`.
    ///
    /// # Panics
    /// `mg` and `eg` differ in length.
    pub fn from_centi_men(mg: &[f32], eg: &[f32]) -> Net {
        assert_eq!(mg.len(), eg.len());
        let q = |x: f32| {
            (x * UNIT as f32)
                .round()
                .clamp(i16::MIN as f32, i16::MAX as f32) as i16
        };
        Net(Kind::Patterns(
            mg.iter().zip(eg).map(|(&a, &b)| [q(a), q(b)]).collect(),
        ))
    }

    /// A learned evaluation by the network `n`.
    pub fn from_network(n: Network) -> Net {
        Net(Kind::Network(Box::new(n)))
    }

    /// The evaluation network, if this is one (`None`: pattern weights).
    #[inline(always)]
    pub fn network(&self) -> Option<&Network> {
        match &self.0 {
            Kind::Network(n) => Some(n),
            Kind::Patterns(_) => None,
        }
    }

    /// The pattern weights (empty for a network).
    fn patterns(&self) -> &[[i16; 2]] {
        match &self.0 {
            Kind::Patterns(w) => w,
            Kind::Network(_) => &[],
        }
    }

    /// The weights in centi-men: `(mg, eg)`, one per feature each (both empty for a
    /// network).
    pub fn to_centi_men(&self) -> (Vec<f32>, Vec<f32>) {
        let f = |x: i16| x as f32 / UNIT as f32;
        (
            self.patterns().iter().map(|p| f(p[0])).collect(),
            self.patterns().iter().map(|p| f(p[1])).collect(),
        )
    }

    /// The file form: magic `DMEV`, version `u16`, variant index `u8` (order of
    /// [`Variant::ALL`]), a zero byte, the number of weight pairs `u32`, the FNV-1a hash of the
    /// payload `u32`, then the payload: per feature the middle-game and endgame weight, `i16`;
    /// all little-endian. A network's is [`Network::to_bytes`] (`DMNN`).
    pub fn to_bytes(&self, v: Variant) -> Vec<u8> {
        let w = match &self.0 {
            Kind::Network(n) => return n.to_bytes(),
            Kind::Patterns(w) => w,
        };
        let mut payload = Vec::with_capacity(w.len() * 4);
        for p in w {
            payload.extend_from_slice(&p[0].to_le_bytes());
            payload.extend_from_slice(&p[1].to_le_bytes());
        }
        let mut out = Vec::with_capacity(HEADER + payload.len());
        out.extend_from_slice(&FORMAT.start(v));
        out.extend_from_slice(&(w.len() as u32).to_le_bytes());
        out.extend_from_slice(&fnv1a(&payload).to_le_bytes());
        out.extend_from_slice(&payload);
        out
    }

    /// Reads [`Net::to_bytes`]'s form for variant `v`: pattern weights (`DMEV`) or a network
    /// (`DMNN`, [`Network::from_bytes`]).
    ///
    /// # Errors
    /// Not a weights file, another format version, another variant, truncated or too long, or
    /// a checksum mismatch: a one-line message.
    pub fn from_bytes(bytes: &[u8], v: Variant) -> Result<Net, String> {
        if bytes.starts_with(NETWORK_MAGIC) {
            return Network::from_bytes(bytes, v).map(Net::from_network);
        }
        FORMAT.check(bytes, v)?;
        let n = u32::from_le_bytes(bytes[8..12].try_into().expect("4 bytes")) as usize;
        let features = Layout::of(v).features;
        if n != features {
            return Err(format!("{n} weights, this build expects {features}"));
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
        Ok(Net(Kind::Patterns(w)))
    }

    /// The evaluation of `p` in centi-men from the side to move's point of view. `TEN`: the
    /// 10x10 board (the net must have that board's [`Layout::features`]); `flying`: the
    /// variant's kings fly. A network evaluates from a fresh [`Accumulator`] (the search
    /// updates its own instead).
    #[inline]
    pub fn evaluate<const TEN: bool>(&self, p: &Planes, flying: bool) -> i32 {
        let w = match &self.0 {
            Kind::Network(n) => return n.evaluate(&Accumulator::new(n, p), p),
            Kind::Patterns(w) => w,
        };
        let l = Layout::board(TEN);
        debug_assert_eq!(w.len(), l.features);
        let [wv, bv] = views::<TEN>(p);
        let (mut mg, mut eg) = (0i32, 0i32);
        let (iw, ib) = pattern_indices_both::<TEN>(wv.men, wv.opp_men);
        for i in 0..l.windows {
            let a = w[i * PATTERNS + iw[i] as usize];
            let b = w[i * PATTERNS + ib[i] as usize];
            mg += a[0] as i32 - b[0] as i32;
            eg += a[1] as i32 - b[1] as i32;
        }
        let fw = dense_features::<TEN>(&wv, flying);
        let fb = dense_features::<TEN>(&bv, flying);
        for i in 0..DENSE {
            let d = fw[i] - fb[i];
            if d != 0 {
                let x = w[l.dense_offset + i];
                mg += d * x[0] as i32;
                eg += d * x[1] as i32;
            }
        }
        let s = w[l.stm];
        let (smg, seg) = (s[0] as i32, s[1] as i32);
        let ph = phase(p, l);
        let pm = l.phase_max;
        let white = if p.black_to_move {
            (mg - smg) * ph + (eg - seg) * (pm - ph)
        } else {
            (mg + smg) * ph + (eg + seg) * (pm - ph)
        } / (pm * UNIT);
        p.side_to_move(white)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn check<const TEN: bool>() {
        let l = Layout::board(TEN);
        let all = (1u64 << l.squares()) - 1;
        let rot = |x: u64| x.reverse_bits() >> (64 - l.squares());
        let mut x = 0x1234_5678_9abc_def0u64;
        for _ in 0..2000 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            let y = x.rotate_left(23);
            let (own, opp) = (x & all, y & all & !x);
            let (iw, ib) = pattern_indices_both::<TEN>(own, opp);
            for w in 0..l.windows {
                assert_eq!(iw[w] as usize, pattern_index(own, opp, w, l));
                assert_eq!(ib[w] as usize, pattern_index(rot(opp), rot(own), w, l));
                assert!((iw[w] as usize) < PATTERNS);
            }
        }
    }

    #[test]
    fn pattern_indices_match_the_definition() {
        check::<false>();
        check::<true>();
    }

    #[test]
    fn layouts() {
        assert_eq!((L8.windows, L8.features, L8.phase_max), (15, 98_431, 24));
        assert_eq!(
            (L10.windows, L10.features, L10.phase_max),
            (28, 183_724, 40)
        );
        // The long diagonal has 8 (10) squares, the left half half of them.
        assert_eq!(LONG_DIAGONAL8.count_ones(), 8);
        assert_eq!(LONG_DIAGONAL10.count_ones(), 10);
        assert_eq!(LEFT8, 0x3333_3333);
        assert_eq!(LEFT10.count_ones(), 25);
    }
}
