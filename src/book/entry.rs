//! A book entry and its 32-byte little-endian record (docs/book.md, "Entries").
//!
//! The move is written as squares in the book numbering ([`super::key::square_numbers`]): the
//! moving piece's square, the square it ends on, and the set of the squares of the pieces it
//! takes as a bitmask (bit `n - 1` for square `n`). The three tell apart every two different
//! moves of a position, captures that share their ends included; a reader rebuilds the
//! variant's notation from them (`from-to`, or `fromxto` with the taken squares).

/// The size of an entry's record in bytes.
pub const RECORD_SIZE: usize = 32;

/// A move as a book writes it: squares in the book numbering (1..32 or 1..50).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct BookMove {
    /// The moving piece's square.
    pub from: u8,
    /// The square it ends on.
    pub to: u8,
    /// The taken pieces' squares: bit `n - 1` for square `n`; 0 for a quiet move.
    pub captured: u64,
}

/// One book move of one position.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Entry {
    /// The position's book key ([`super::key::book_key`]).
    pub key: u64,
    /// The move.
    pub mv: BookMove,
    /// Its value for the side to move, in centi-men (100 = one man); a win or loss scored as
    /// the engine scores it, clamped to ±32767.
    pub score: i16,
    /// The depth of the search that valued it, in plies (0 when not searched).
    pub depth: u8,
    /// How often it was seen or expanded (games in an imported book, 0 when unknown).
    pub count: u32,
}

impl Entry {
    /// The 32-byte record: key (u64), captured (u64), from (u8), to (u8), two reserved zero
    /// bytes, score (i16), depth (u8), a reserved zero byte, count (u32), four reserved zero
    /// bytes; little-endian.
    pub fn to_bytes(&self) -> [u8; RECORD_SIZE] {
        let mut b = [0u8; RECORD_SIZE];
        b[0..8].copy_from_slice(&self.key.to_le_bytes());
        b[8..16].copy_from_slice(&self.mv.captured.to_le_bytes());
        b[16] = self.mv.from;
        b[17] = self.mv.to;
        b[20..22].copy_from_slice(&self.score.to_le_bytes());
        b[22] = self.depth;
        b[24..28].copy_from_slice(&self.count.to_le_bytes());
        b
    }

    /// The entry a record holds (the inverse of [`Entry::to_bytes`]; reserved bytes ignored).
    pub fn from_bytes(b: &[u8; RECORD_SIZE]) -> Entry {
        let u64_at = |i: usize| u64::from_le_bytes(b[i..i + 8].try_into().expect("8 bytes"));
        Entry {
            key: u64_at(0),
            mv: BookMove {
                from: b[16],
                to: b[17],
                captured: u64_at(8),
            },
            score: i16::from_le_bytes([b[20], b[21]]),
            depth: b[22],
            count: u32::from_le_bytes(b[24..28].try_into().expect("4 bytes")),
        }
    }

    /// The order of a book file: by key, then the best score first, then by move.
    pub fn file_order(&self, o: &Entry) -> std::cmp::Ordering {
        self.key
            .cmp(&o.key)
            .then(o.score.cmp(&self.score))
            .then(self.mv.cmp(&o.mv))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_record_round_trips() {
        let e = Entry {
            key: 0x0123_4567_89ab_cdef,
            mv: BookMove {
                from: 32,
                to: 14,
                captured: (1 << 26) | (1 << 17),
            },
            score: -1234,
            depth: 17,
            count: 99_000,
        };
        assert_eq!(Entry::from_bytes(&e.to_bytes()), e);
    }
}
