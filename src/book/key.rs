//! The book key of a position (docs/book.md, "The key"): a Zobrist hash any program can
//! compute from the document alone, as chess's Polyglot key is.
//!
//! The random table is 301 numbers drawn from SplitMix64 (Steele, Lea and Flood, "Fast
//! splittable pseudorandom number generators", OOPSLA 2014; the constants of Vigna's
//! `splitmix64.c`) seeded with [`KEY_SEED`]: number `(3 * colour + kind) * 50 + (n - 1)` for a
//! piece of `colour` (White 0, Black 1) and `kind` (man 0, king 1, Damone 2) on the square
//! numbered `n`, and number 300 XORed in when Black is to move. The key is the XOR of the
//! numbers of the pieces on the board (and of the side's). It is not the engine's Zobrist key
//! (which indexes internal squares), so the engine's hashing may change without changing books.

use crate::core::dispatch::Dispatch;
use crate::core::rules::{Color, Numbering};
use crate::core::variant::Variant;
use crate::core::variant_position::{Piece, VariantPosition};
use crate::core::zobrist::splitmix64;
use std::sync::OnceLock;

/// The seed of the key table: the bytes of `"DMBK"` read as a big-endian number.
pub const KEY_SEED: u64 = 0x444D_424B;

/// The numbers per (colour, kind): the squares of the largest board.
const SQUARES: usize = 50;

/// The key table: 300 piece numbers and the Black-to-move number, drawn in order.
const TABLE: [u64; 6 * SQUARES + 1] = {
    let mut t = [0u64; 6 * SQUARES + 1];
    let mut state = KEY_SEED;
    let mut i = 0;
    while i < t.len() {
        let (s, z) = splitmix64(state);
        state = s;
        t[i] = z;
        i += 1;
    }
    t
};

/// The book numbers of a position's squares, in [`VariantPosition::squares`] order: the
/// variant's own numbers where it numbers its squares (English, Italian: 1..32, International:
/// 1..50), and where it writes algebraic names (Brazilian, Russian, Damone) the numbers of
/// [`Numbering::BottomLeft`], the dark squares counted rank by rank from White's first rank,
/// files a to h (`rank * 4 + file / 2 + 1`, both 0-based: Russian a1 = 1, c1 = 2, b2 = 5,
/// h8 = 32; Damone b1 = 1, a2 = 5). Made once per variant.
pub fn square_numbers(pos: &VariantPosition) -> &'static [u8] {
    &numbering_of(pos.variant()).1
}

/// The book number of the square `name` (in the variant's notation, as
/// [`VariantPosition::squares`] names it) of `pos`'s board ([`square_numbers`]); `None` for a
/// name that is not one of its squares. A search of at most 50 names, without allocation.
pub fn book_number(pos: &VariantPosition, name: &str) -> Option<u8> {
    let (names, numbers) = numbering_of(pos.variant());
    names.iter().position(|n| n == name).map(|i| numbers[i])
}

/// A variant's square names and their book numbers, in [`VariantPosition::squares`] order,
/// made once per variant.
fn numbering_of(variant: Variant) -> &'static (Vec<String>, Vec<u8>) {
    static NUMBERS: OnceLock<Vec<(Vec<String>, Vec<u8>)>> = OnceLock::new();
    let all = NUMBERS.get_or_init(|| {
        Variant::ALL
            .into_iter()
            .map(|v| {
                let start = VariantPosition::start(v);
                let numbering = match start.numbering() {
                    Numbering::Algebraic => Numbering::BottomLeft,
                    own => own,
                };
                let names: Vec<String> = start.squares().into_iter().map(|s| s.name).collect();
                let numbers = names
                    .iter()
                    .map(|name| {
                        let n = v
                            .square_number_in(numbering, name)
                            .expect("every square has a number");
                        u8::try_from(n).expect("at most 50 squares")
                    })
                    .collect();
                (names, numbers)
            })
            .collect()
    });
    let i = Variant::ALL
        .iter()
        .position(|&v| v == variant)
        .expect("a variant of Variant::ALL");
    &all[i]
}

/// The table number of a piece of `colour` and `kind` on the square numbered `n` (1-based).
fn piece_number(colour: Color, kind: Piece, n: u8) -> u64 {
    let c = match colour {
        Color::White => 0,
        Color::Black => 1,
    };
    let k = match kind {
        Piece::Man => 0,
        Piece::King => 1,
        Piece::Damone => 2,
    };
    TABLE[(3 * c + k) * SQUARES + usize::from(n) - 1]
}

/// The book key of `pos` (docs/book.md): the XOR of its pieces' table numbers, and of the
/// Black-to-move number when Black is to move. The draw counters are not part of it.
pub fn book_key(pos: &VariantPosition) -> u64 {
    let mut key = match pos.side() {
        Color::White => 0,
        Color::Black => TABLE[6 * SQUARES],
    };
    for (piece, &n) in pos.pieces().into_iter().zip(square_numbers(pos)) {
        if let Some((colour, kind)) = piece {
            key ^= piece_number(colour, kind, n);
        }
    }
    key
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_table_starts_with_splitmix64_of_the_seed() {
        // SplitMix64's first output from the seed, written out by hand from the algorithm.
        let s = KEY_SEED.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = (s ^ (s >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        assert_eq!(TABLE[0], z ^ (z >> 31));
    }

    #[test]
    fn algebraic_numbers_follow_the_documented_formula() {
        // docs/book.md: `4 * rank + file / 2 + 1` on the algebraic boards.
        for v in [Variant::Russian, Variant::Brazilian, Variant::Damone] {
            let pos = VariantPosition::start(v);
            let want: Vec<u8> = pos
                .squares()
                .iter()
                .map(|s| 4 * s.rank + s.file / 2 + 1)
                .collect();
            assert_eq!(square_numbers(&pos), want.as_slice(), "{v:?}");
        }
    }

    #[test]
    fn square_numbers_are_one_to_n_in_some_order() {
        for v in Variant::ALL {
            let pos = VariantPosition::start(v);
            let mut n = square_numbers(&pos).to_vec();
            n.sort_unstable();
            let want: Vec<u8> = (1..=pos.square_count() as u8).collect();
            assert_eq!(n, want, "{v:?}");
        }
    }

    #[test]
    fn colour_and_side_change_the_key() {
        for v in Variant::ALL {
            let start = VariantPosition::start(v);
            let mut after = start;
            let mv = after
                .legal_moves()
                .iter()
                .next()
                .copied()
                .expect("a first move");
            after.play(&mv);
            assert_ne!(book_key(&start), book_key(&after), "{v:?}");
        }
    }
}
