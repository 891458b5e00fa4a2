//! The dense index of a table: position <-> number in `0..size`, by the combinatorial number
//! system (each set of `k` squares out of `n` allowed ones is ranked `sum C(p_i, i)` over its
//! squares' places `p_0 < p_1 < ...` among the allowed squares, colex order).
//!
//! A man never stands on its own crowning row, so White's men (the side to move) use every
//! square but the top row and Black's men every square but the bottom row (28 of 32 squares on
//! 8x8, 45 of 50 on 10x10). The two sets overlap in the middle rows, so to stay dense the
//! table is cut into sub-blocks by `a`, White's men on the bottom row (a row only White's men
//! may use), and `b`, Black's men on the top row. Within a sub-block every piece group has a
//! fixed set of squares to choose from, and the index is a mixed-radix number of six ranks:
//!
//! 1. White's `a` men among the row's `r` bottom squares: `C(r, a)`;
//! 2. White's other men among the `M` middle squares: `C(M, wm - a)`;
//! 3. Black's `b` men among the `r` top squares: `C(r, b)`;
//! 4. Black's other men among the middle squares White's men left: `C(M - wm + a, bm - b)`;
//! 5. White's kings among the squares the men left: `C(S - wm - bm, wk)`;
//! 6. Black's kings among the squares still free: `C(S - wm - bm - wk, bk)`.
//!
//! The sub-blocks follow each other in `(a, b)` order (prefix offsets). The size is therefore
//! exactly the number of placements (`tests/egdb.rs` checks it against Schaeffer's counts).

use crate::core::bitboard::Bitboard;
use crate::core::geometry::Geometry;
use crate::egdb::material::Material;

/// `C(n, k)` for `n < 64`, `k <= 15` (0 when `k > n`).
#[inline(always)]
pub fn binomial(n: u32, k: u32) -> u64 {
    BINOMIAL[n as usize][k as usize]
}

const BINOMIAL: [[u64; 16]; 64] = {
    let mut t = [[0u64; 16]; 64];
    let mut n = 0;
    while n < 64 {
        t[n][0] = 1;
        let mut k = 1;
        while k < 16 {
            t[n][k] = if n == 0 {
                0
            } else {
                t[n - 1][k - 1] + t[n - 1][k]
            };
            k += 1;
        }
        n += 1;
    }
    t
};

/// The colex rank of `set` (a subset of `allowed`) among the `|set|`-subsets of `allowed`.
#[inline(always)]
fn rank_in(set: Bitboard, allowed: Bitboard) -> u64 {
    let mut r = 0;
    for (i, sq) in set.into_iter().enumerate() {
        let place = (allowed.0 & ((1u64 << sq.0) - 1)).count_ones();
        r += binomial(place, i as u32 + 1);
    }
    r
}

/// The `k`-subset of `allowed` (with `n = |allowed|` squares) whose colex rank is `r`.
#[inline(always)]
fn unrank_in(mut r: u64, k: u32, allowed: Bitboard) -> Bitboard {
    let mut out = 0u64;
    let mut p = allowed.0.count_ones();
    for i in (1..=k).rev() {
        // The largest place p with C(p, i) <= r.
        p -= 1;
        while binomial(p, i) > r {
            p -= 1;
        }
        r -= binomial(p, i);
        out |= select(allowed.0, p);
    }
    Bitboard(out)
}

/// The `p`-th (0-based) set bit of `x`, as a one-bit mask.
#[inline(always)]
fn select(mut x: u64, p: u32) -> u64 {
    for _ in 0..p {
        x &= x - 1;
    }
    x & x.wrapping_neg()
}

/// One `(a, b)` sub-block: its first index and its six radices.
#[derive(Copy, Clone, Debug)]
struct Block {
    a: u8,
    b: u8,
    offset: u64,
    radix: [u64; 6],
}

/// A position's pieces as the index sees them: the side to move is White.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub struct Placement {
    /// White's pieces (the side to move).
    pub white: Bitboard,
    /// Black's pieces.
    pub black: Bitboard,
    /// The kings of both.
    pub kings: Bitboard,
}

/// The index of one table (a [`Material`] on a board, White to move). The board's masks are
/// fields rather than a type parameter, so that [`crate::egdb::Egdb`] holds the indexes of
/// either board.
#[derive(Clone, Debug)]
pub struct Indexer {
    material: Material,
    blocks: Vec<Block>,
    size: u64,
    all: Bitboard,
    top: Bitboard,
    bottom: Bitboard,
    middle: Bitboard,
}

impl Indexer {
    /// The index of `material`'s table on board `G`.
    pub fn new<G: Geometry>(material: Material) -> Indexer {
        let r = G::WIDTH as u32 / 2;
        let s = G::SQUARES as u32;
        let mid = s - 2 * r;
        let (wm, wk, bm, bk) = (
            material.wm as u32,
            material.wk as u32,
            material.bm as u32,
            material.bk as u32,
        );
        let mut blocks = Vec::new();
        let mut offset = 0;
        for a in 0..=wm.min(r) {
            for b in 0..=bm.min(r) {
                let free = s.saturating_sub(wm + bm);
                let radix = [
                    binomial(r, a),
                    binomial(mid, wm - a),
                    binomial(r, b),
                    binomial(mid.saturating_sub(wm - a), bm - b),
                    binomial(free, wk),
                    binomial(free.saturating_sub(wk), bk),
                ];
                let size: u64 = radix.iter().product();
                if size > 0 {
                    blocks.push(Block {
                        a: a as u8,
                        b: b as u8,
                        offset,
                        radix,
                    });
                    offset += size;
                }
            }
        }
        Indexer {
            material,
            blocks,
            size: offset,
            all: G::ALL,
            top: G::TOP_ROW,
            bottom: G::BOTTOM_ROW,
            middle: G::ALL & !G::TOP_ROW & !G::BOTTOM_ROW,
        }
    }

    /// The table's material.
    pub fn material(&self) -> Material {
        self.material
    }

    /// The number of positions: exactly the placements of the material.
    pub fn size(&self) -> u64 {
        self.size
    }

    /// The index of a placement of this material (White to move).
    #[inline]
    pub fn rank(&self, p: &Placement) -> u64 {
        let wmen = p.white & !p.kings;
        let bmen = p.black & !p.kings;
        let bottom = wmen & self.bottom;
        let top = bmen & self.top;
        let (a, b) = (bottom.count() as u8, top.count() as u8);
        let block = self
            .blocks
            .iter()
            .find(|blk| blk.a == a && blk.b == b)
            .expect("placement of the indexer's material");
        let middle = self.middle;
        let men = wmen | bmen;
        let ranks = [
            rank_in(bottom, self.bottom),
            rank_in(wmen & middle, middle),
            rank_in(top, self.top),
            rank_in(bmen & middle, middle & !wmen),
            rank_in(p.white & p.kings, self.all & !men),
            rank_in(p.black & p.kings, self.all & !men & !(p.white & p.kings)),
        ];
        let mut idx = 0;
        for (radix, rank) in block.radix.iter().zip(ranks) {
            idx = idx * radix + rank;
        }
        block.offset + idx
    }

    /// The placement with index `idx < size`.
    #[inline]
    pub fn unrank(&self, idx: u64) -> Placement {
        debug_assert!(idx < self.size);
        let bi = self.blocks.partition_point(|blk| blk.offset <= idx) - 1;
        let block = &self.blocks[bi];
        let mut rest = idx - block.offset;
        let mut ranks = [0u64; 6];
        for i in (0..6).rev() {
            ranks[i] = rest % block.radix[i];
            rest /= block.radix[i];
        }
        let m = self.material;
        let (a, b) = (block.a as u32, block.b as u32);
        let middle = self.middle;
        let wmen =
            unrank_in(ranks[0], a, self.bottom) | unrank_in(ranks[1], m.wm as u32 - a, middle);
        let bmen =
            unrank_in(ranks[2], b, self.top) | unrank_in(ranks[3], m.bm as u32 - b, middle & !wmen);
        let men = wmen | bmen;
        let wk = unrank_in(ranks[4], m.wk as u32, self.all & !men);
        let bk = unrank_in(ranks[5], m.bk as u32, self.all & !men & !wk);
        Placement {
            white: wmen | wk,
            black: bmen | bk,
            kings: wk | bk,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::geometry::{Board10, Board8};

    fn round_trip<G: Geometry>(m: Material) {
        let ix = Indexer::new::<G>(m);
        let mut seen = std::collections::HashSet::new();
        for i in 0..ix.size() {
            let p = ix.unrank(i);
            assert!((p.white & p.black).is_empty());
            assert!(((p.white & !p.kings) & G::TOP_ROW).is_empty());
            assert!(((p.black & !p.kings) & G::BOTTOM_ROW).is_empty());
            assert_eq!(
                Material::new(
                    (p.white & !p.kings).count() as u8,
                    (p.white & p.kings).count() as u8,
                    (p.black & !p.kings).count() as u8,
                    (p.black & p.kings).count() as u8,
                ),
                m
            );
            assert_eq!(ix.rank(&p), i, "{m} {i}");
            assert!(seen.insert((p.white.0, p.black.0, p.kings.0)));
        }
    }

    #[test]
    fn index_round_trips_and_is_dense() {
        for m in [
            Material::new(1, 0, 1, 0),
            Material::new(2, 0, 1, 0),
            Material::new(1, 1, 1, 0),
            Material::new(0, 2, 1, 0),
            Material::new(2, 0, 2, 0),
            Material::new(1, 0, 0, 2),
        ] {
            round_trip::<Board8>(m);
            round_trip::<Board10>(m);
        }
    }
}
