//! Zobrist keys: one random 64-bit number per (side, piece kind, square) and one for the side
//! to move, generated at compile time by splitmix64 from a fixed seed (so keys, and the bench
//! signature, are the same on every build).

/// A position's hash key.
pub type Key = u64;

const fn splitmix64(state: u64) -> (u64, u64) {
    let s = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = s;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    (s, z ^ (z >> 31))
}

const fn make_table() -> [[u64; 64]; 4] {
    let mut t = [[0u64; 64]; 4];
    let mut state = 0x0064_616d_6965_7261_u64; // "damiera"
    let mut p = 0;
    while p < 4 {
        let mut sq = 0;
        while sq < 64 {
            let (s, z) = splitmix64(state);
            state = s;
            t[p][sq] = z;
            sq += 1;
        }
        p += 1;
    }
    t
}

const TABLE: [[u64; 64]; 4] = make_table();

/// The key of a piece: `colour` 0 (white) or 1 (black), `king`, on internal square `sq`.
#[inline(always)]
pub fn piece(colour: usize, king: bool, sq: u8) -> u64 {
    // Masked indices: provably in bounds, so no bounds check in `make`.
    TABLE[(2 * colour + king as usize) & 3][(sq & 63) as usize]
}

/// XORed in when Black is to move.
pub const BLACK_TO_MOVE: u64 = splitmix64(0x5349_4445).1;
