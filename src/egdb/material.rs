//! Material slices: how many men and kings each side has, with the side to move first.
//!
//! Every table is stored with the side to move as White (moving up the board). A position with
//! Black to move is looked up by turning the board 180 degrees and swapping the colors
//! ([`flip_board`]): every variant's rules are symmetric under that map (the board's dark squares,
//! the directions men move and capture in, the promotion rows and the capture precedence all
//! map onto each other), so the colour-flipped position has the same value. This halves the
//! tables and the work.

use crate::core::bitboard::Bitboard;
use crate::core::dispatch::{dispatch_rules, RulesFn};
use crate::core::geometry::Geometry;
use crate::core::position::Position;
use crate::core::rules::{Color, Rules};
use crate::core::variant::Variant;
use std::fmt;
use std::str::FromStr;

/// The materials `variant`'s databases hold up to `pieces` pieces ([`Material::all_of`]);
/// `None` for a variant without databases ([`dispatch_rules`]).
pub fn tables_of(variant: Variant, pieces: u32) -> Option<Vec<Material>> {
    struct Tables(u32);
    impl RulesFn for Tables {
        type Output = Vec<Material>;
        fn call<R: Rules>(self) -> Vec<Material> {
            Material::all_of::<R>(self.0)
        }
    }
    dispatch_rules(variant, Tables(pieces))
}

/// The most pieces of one kind (men or kings of one side) a [`Material`] may have; keys
/// ([`Material::key`]) are 4 bits a field.
pub const MAX_KIND: u8 = 15;

/// The material of a table: men and kings of the side to move (`wm`, `wk`, White after
/// [`flip_board`]) and of the other side (`bm`, `bk`).
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
pub struct Material {
    /// Men of the side to move.
    pub wm: u8,
    /// Kings of the side to move.
    pub wk: u8,
    /// Men of the other side.
    pub bm: u8,
    /// Kings of the other side.
    pub bk: u8,
}

impl Material {
    /// A material from its four counts.
    pub const fn new(wm: u8, wk: u8, bm: u8, bk: u8) -> Material {
        Material { wm, wk, bm, bk }
    }

    /// Every piece on the board.
    pub const fn pieces(self) -> u32 {
        (self.wm + self.wk + self.bm + self.bk) as u32
    }

    /// Every man on the board.
    pub const fn men(self) -> u32 {
        (self.wm + self.bm) as u32
    }

    /// The same material with the other side to move.
    pub const fn swapped(self) -> Material {
        Material::new(self.bm, self.bk, self.wm, self.wk)
    }

    /// A dense key, 4 bits a count (`< 65536`).
    pub const fn key(self) -> usize {
        self.wm as usize
            | (self.wk as usize) << 4
            | (self.bm as usize) << 8
            | (self.bk as usize) << 12
    }

    /// The order tables are built in: a conversion (capture or promotion) always leads to a
    /// smaller key (fewer pieces, or as many with fewer men), so building by increasing key
    /// builds every table after the tables it depends on.
    pub const fn build_order(self) -> (u32, u32) {
        (self.pieces(), self.men())
    }

    /// The material of `pos` with its side to move first.
    pub fn of<R: Rules>(pos: &Position<R>) -> Material {
        let us = pos.side();
        let them = us.opponent();
        Material::new(
            pos.men(us).count() as u8,
            pos.kings_of(us).count() as u8,
            pos.men(them).count() as u8,
            pos.kings_of(them).count() as u8,
        )
    }

    /// Every material with both sides on the board and `pieces` pieces in all, in
    /// [`Material::build_order`].
    pub fn all(pieces: u32) -> Vec<Material> {
        let mut v = Vec::new();
        let n = pieces.min(MAX_KIND as u32) as u8;
        for total in 2..=n {
            for wm in 0..=total {
                for wk in 0..=total - wm {
                    for bm in 0..=total - wm - wk {
                        let bk = total - wm - wk - bm;
                        if wm + wk > 0 && bm + bk > 0 {
                            v.push(Material::new(wm, wk, bm, bk));
                        }
                    }
                }
            }
        }
        v.sort_by_key(|m| (m.build_order(), *m));
        v
    }

    /// Whether `R`'s databases hold this material: every material, but in the variants with a
    /// king-move limit (Frisian and Frysk!, [`Rules::KING_MOVE_LIMIT`]) kings only. There a
    /// side with men and kings carries a count of its king's moves that the index does not
    /// hold, while a side without men has no limit (DFS rule 7), so the kings-only tables are
    /// exact and closed: their conversions are captures into kings-only tables.
    pub const fn covered<R: Rules>(self) -> bool {
        R::KING_MOVE_LIMIT == 0 || self.men() == 0
    }

    /// [`Material::all`] restricted to the materials `R`'s databases hold
    /// ([`Material::covered`]), in the same order.
    pub fn all_of<R: Rules>(pieces: u32) -> Vec<Material> {
        let mut v = Material::all(pieces);
        v.retain(|m| m.covered::<R>());
        v
    }

    /// The tables a table of this material looks up (capture and promotion moves lead into
    /// them, with the other side to move), excluding this unit's own tables. Some may be
    /// empty-sided (the mover captured everything), which need no table.
    pub fn dependencies(self) -> Vec<Material> {
        let mut v = Vec::new();
        // The mover's material after the move: unchanged or one man crowned.
        let mut movers = vec![(self.wm, self.wk)];
        if self.wm > 0 {
            movers.push((self.wm - 1, self.wk + 1));
        }
        for &(wm, wk) in &movers {
            for cm in 0..=self.bm {
                for ck in 0..=self.bk {
                    let converted = cm + ck > 0 || (wm, wk) != (self.wm, self.wk);
                    if !converted {
                        continue;
                    }
                    let (bm, bk) = (self.bm - cm, self.bk - ck);
                    if bm + bk == 0 {
                        continue;
                    }
                    let m = Material::new(bm, bk, wm, wk);
                    if !v.contains(&m) {
                        v.push(m);
                    }
                }
            }
        }
        v.sort();
        v
    }
}

impl fmt::Display for Material {
    /// `w<men>m<kings>k-b<men>m<kings>k` with zero counts left out: `w2k-b1k`, `w1m1k-b2m`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fn side(f: &mut fmt::Formatter<'_>, c: char, m: u8, k: u8) -> fmt::Result {
            write!(f, "{c}")?;
            if m > 0 {
                write!(f, "{m}m")?;
            }
            if k > 0 {
                write!(f, "{k}k")?;
            }
            if m == 0 && k == 0 {
                write!(f, "0")?;
            }
            Ok(())
        }
        side(f, 'w', self.wm, self.wk)?;
        write!(f, "-")?;
        side(f, 'b', self.bm, self.bk)
    }
}

impl FromStr for Material {
    type Err = String;
    /// Parses the [`fmt::Display`] form.
    fn from_str(s: &str) -> Result<Material, String> {
        fn side(t: &str, c: char) -> Option<(u8, u8)> {
            let t = t.strip_prefix(c)?;
            if t == "0" {
                return Some((0, 0));
            }
            let (mut m, mut k, mut num) = (0u8, 0u8, String::new());
            let mut seen_k = false;
            for ch in t.chars() {
                match ch {
                    '0'..='9' => num.push(ch),
                    'm' if !seen_k && m == 0 => m = num.parse().ok().filter(|&x| x > 0)?,
                    'k' if !seen_k => {
                        k = num.parse().ok().filter(|&x| x > 0)?;
                        seen_k = true
                    }
                    _ => return None,
                }
                if !ch.is_ascii_digit() {
                    num.clear();
                }
            }
            (num.is_empty() && m <= MAX_KIND && k <= MAX_KIND).then_some((m, k))
        }
        let bad = || format!("bad material '{s}' (expected e.g. w2k-b1k or w1m1k-b2m)");
        let (w, b) = s.split_once('-').ok_or_else(bad)?;
        let (wm, wk) = side(w, 'w').ok_or_else(bad)?;
        let (bm, bk) = side(b, 'b').ok_or_else(bad)?;
        Ok(Material::new(wm, wk, bm, bk))
    }
}

/// The 180-degree turn of the board: square `(x, y)` goes to `(W-1-x, H-1-y)`, which in the
/// padded layout is bit `b` to bit `MAX - b` ([`crate::core::geometry`]).
#[inline(always)]
pub fn flip_board<G: Geometry>(b: Bitboard) -> Bitboard {
    let bits = 64 - G::ALL.0.leading_zeros();
    Bitboard(b.0.reverse_bits() >> (64 - bits))
}

/// The position with the side to move as White: itself if White moves, else the board turned
/// 180 degrees with the colors swapped (the same game, see the module docs).
#[inline(always)]
pub fn canonical<R: Rules>(pos: &Position<R>) -> Position<R> {
    if pos.side() == Color::White {
        return *pos;
    }
    let f = flip_board::<R::Board>;
    Position::from_parts(
        f(pos.pieces(Color::Black)),
        f(pos.pieces(Color::White)),
        f(pos.kings()),
        Color::White,
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::geometry::{Board10, Board8};

    #[test]
    fn names_round_trip() {
        for m in Material::all(5) {
            assert_eq!(m.to_string().parse::<Material>(), Ok(m), "{m}");
        }
        assert_eq!(Material::new(0, 2, 0, 1).to_string(), "w2k-b1k");
        assert_eq!(Material::new(1, 1, 2, 0).to_string(), "w1m1k-b2m");
        assert!("w2k".parse::<Material>().is_err());
        assert!("w2k1m-b1k".parse::<Material>().is_err());
    }

    #[test]
    fn dependencies_come_first() {
        for m in Material::all(6) {
            for d in m.dependencies() {
                assert!(d.build_order() < m.build_order(), "{m} -> {d}");
            }
        }
    }

    #[test]
    fn flip_is_an_involution_on_the_board() {
        fn check<G: Geometry>() {
            assert_eq!(flip_board::<G>(G::ALL), G::ALL);
            assert_eq!(flip_board::<G>(G::TOP_ROW), G::BOTTOM_ROW);
            for sq in G::ALL {
                let (x, y) = G::coords(sq);
                let f = flip_board::<G>(Bitboard::from_square(sq)).first();
                assert_eq!(G::coords(f), (G::WIDTH - 1 - x, G::HEIGHT - 1 - y));
            }
        }
        check::<Board8>();
        check::<Board10>();
    }
}
