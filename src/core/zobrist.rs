//! Zobrist keys: one random 64-bit number per (side, piece kind, square) and one for the side
//! to move, generated at compile time by splitmix64 from a fixed seed (so keys, and the bench
//! signature, are the same on every build).

/// A position's hash key.
pub type Key = u64;

/// One step of splitmix64: the next state and its output.
pub(crate) const fn splitmix64(state: u64) -> (u64, u64) {
    let s = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = s;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    (s, z ^ (z >> 31))
}

/// `N` tables of 64 keys drawn from splitmix64 seeded with `seed`, and the next key after
/// them (for the side to move). Used at compile time by every position type.
pub(crate) const fn tables<const N: usize>(seed: u64) -> ([[u64; 64]; N], u64) {
    let mut t = [[0u64; 64]; N];
    let mut state = seed;
    let mut p = 0;
    while p < N {
        let mut sq = 0;
        while sq < 64 {
            let (s, z) = splitmix64(state);
            state = s;
            t[p][sq] = z;
            sq += 1;
        }
        p += 1;
    }
    (t, splitmix64(state).1)
}

const TABLE: [[u64; 64]; 4] = tables::<4>(0x0064_616d_6965_7261).0; // "damiera"

/// The key of a piece: `color` 0 (white) or 1 (black), `king`, on internal square `sq`.
#[inline(always)]
pub fn piece(color: usize, king: bool, sq: u8) -> u64 {
    // Masked indices: provably in bounds, so no bounds check in `make`.
    TABLE[(2 * color + king as usize) & 3][(sq & 63) as usize]
}

/// XORed in when Black is to move.
pub const BLACK_TO_MOVE: u64 = splitmix64(0x5349_4445).1;

const KING_MOVES: [[u64; 64]; 8] = tables::<8>(0x006b_696e_676d_6f76).0; // "kingmov"

/// The key of a side's king-move count (Frisian, [`crate::core::position::Position::king_moves`]):
/// `color` 0 or 1, `count` 0-3 (0 adds nothing), the counted king's internal square (63 for
/// none).
#[inline(always)]
pub fn king_moves(color: usize, count: u8, sq: u8) -> u64 {
    if count == 0 {
        0
    } else {
        KING_MOVES[(4 * color + count as usize) & 7][(sq & 63) as usize]
    }
}
