//! Square names of the [`Rules`] variants: English 1-32 (1 = b8, 29 = a1), Italian FID 1-32
//! (1 = a8, 32 = h1), International 1-50 (1 = b10, 46 = a1), algebraic `a1`..`h8` for
//! Brazilian and Russian (WCDF, FID-I 2.4, FMJD; PDN GameTypes 20, 21, 22, 25, 26; see
//! docs/rules.md).
//!
//! Internally, column `x` of the geometry is the real file on boards where h1 is dark, and
//! its mirror image where a1 is dark: the rules do not change under the mirror.

use crate::core::bitboard::Square;
use crate::core::geometry::Geometry;
use crate::core::rules::{Numbering, Rules};
use std::fmt;

/// The real `(file, rank)` of an internal square, both 0-based from White's bottom-left.
pub fn file_rank<R: Rules>(sq: Square) -> (u8, u8) {
    let (x, y) = R::Board::coords(sq);
    let file = if R::A1_DARK {
        R::Board::WIDTH - 1 - x
    } else {
        x
    };
    (file, y)
}

/// The internal square at a real `(file, rank)`, if it is a playable (dark) square.
pub fn from_file_rank<R: Rules>(file: u8, rank: u8) -> Option<Square> {
    if file >= R::Board::WIDTH || rank >= R::Board::HEIGHT {
        return None;
    }
    let x = if R::A1_DARK {
        R::Board::WIDTH - 1 - file
    } else {
        file
    };
    R::Board::square_at(x, rank)
}

/// Per-row layout of a numbered board: squares per row, and whether row `r` (0 = top) starts on
/// the second file.
fn numbering_layout(n: Numbering) -> (u8, u8, bool) {
    // (squares per row, rows, whether even rows from the top start at file 1)
    match n {
        Numbering::English => (4, 8, true),
        Numbering::Italian => (4, 8, false),
        Numbering::International => (5, 10, true),
        Numbering::Algebraic => (0, 0, false),
    }
}

/// The number of a square in a numeric notation (1-based), or `None` for algebraic variants.
pub fn square_number<R: Rules>(sq: Square) -> Option<u8> {
    let (per_row, rows, even_offset) = numbering_layout(R::NUMBERING);
    if per_row == 0 {
        return None;
    }
    let (file, rank) = file_rank::<R>(sq);
    let r = rows - 1 - rank;
    let offset = if (r % 2 == 0) == even_offset { 1 } else { 0 };
    Some(r * per_row + (file - offset) / 2 + 1)
}

/// The internal square with number `n` in a numeric notation.
pub fn square_from_number<R: Rules>(n: u32) -> Option<Square> {
    let (per_row, rows, even_offset) = numbering_layout(R::NUMBERING);
    if per_row == 0 || n == 0 || n > per_row as u32 * rows as u32 {
        return None;
    }
    let i = (n - 1) as u8;
    let (r, c) = (i / per_row, i % per_row);
    let offset = if (r % 2 == 0) == even_offset { 1 } else { 0 };
    from_file_rank::<R>(2 * c + offset, rows - 1 - r)
}

/// The name of a square in the variant's notation (`"29"`, `"c3"`).
pub fn square_name<R: Rules>(sq: Square) -> String {
    match square_number::<R>(sq) {
        Some(n) => n.to_string(),
        None => {
            let (f, r) = file_rank::<R>(sq);
            format!("{}{}", (b'a' + f) as char, r + 1)
        }
    }
}

/// Why a square name was rejected.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SquareError {
    /// Not a square name at all.
    Malformed(String),
    /// A number or coordinate off this board.
    OutOfRange(String),
    /// A light (unplayable) square.
    Light(String),
}

impl fmt::Display for SquareError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SquareError::Malformed(s) => write!(f, "'{s}' is not a square"),
            SquareError::OutOfRange(s) => write!(f, "square {s} is off the board"),
            SquareError::Light(s) => write!(f, "square {s} is a light square"),
        }
    }
}

/// Parses a square name in the variant's notation.
pub fn parse_square<R: Rules>(s: &str) -> Result<Square, SquareError> {
    let s = s.trim();
    if R::NUMBERING == Numbering::Algebraic {
        let b = s.as_bytes();
        if b.len() < 2 || !b[0].is_ascii_alphabetic() || !b[1..].iter().all(u8::is_ascii_digit) {
            return Err(SquareError::Malformed(s.to_string()));
        }
        let file = b[0].to_ascii_lowercase() - b'a';
        let rank: u32 = s[1..]
            .parse()
            .map_err(|_| SquareError::Malformed(s.to_string()))?;
        if file >= R::Board::WIDTH || rank == 0 || rank > R::Board::HEIGHT as u32 {
            return Err(SquareError::OutOfRange(s.to_string()));
        }
        from_file_rank::<R>(file, rank as u8 - 1).ok_or_else(|| SquareError::Light(s.to_string()))
    } else {
        if s.is_empty() || !s.bytes().all(|c| c.is_ascii_digit()) {
            return Err(SquareError::Malformed(s.to_string()));
        }
        let n: u32 = s
            .parse()
            .map_err(|_| SquareError::OutOfRange(s.to_string()))?;
        square_from_number::<R>(n).ok_or_else(|| SquareError::OutOfRange(s.to_string()))
    }
}

/// Sort order for listing squares: by number, or by file then rank.
pub fn sort_key<R: Rules>(sq: Square) -> (u8, u8) {
    match square_number::<R>(sq) {
        Some(n) => (n, 0),
        None => file_rank::<R>(sq),
    }
}
