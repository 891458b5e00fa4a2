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

/// The real `(file, rank)` of the square numbered `n` (1-based) in `numbering` on a board of
/// `files` x `ranks` whose dark squares are those with `file + rank` even when `a1_dark`, odd
/// otherwise; `None` for [`Numbering::Algebraic`] or a number off the board.
pub fn numbered_file_rank(
    numbering: Numbering,
    files: u8,
    ranks: u8,
    a1_dark: bool,
    n: u32,
) -> Option<(u8, u8)> {
    let per_row = files as u32 / 2;
    if numbering == Numbering::Algebraic || n == 0 || n > per_row * ranks as u32 {
        return None;
    }
    let (row, c) = (((n - 1) / per_row) as u8, ((n - 1) % per_row) as u8);
    let rank = match numbering {
        Numbering::TopLeft => ranks - 1 - row,
        _ => row,
    };
    // The leftmost dark square of this rank is on file 0 or 1.
    let first = (rank + u8::from(!a1_dark)) % 2;
    let file = match numbering {
        Numbering::BottomRight => files - 2 + first - 2 * c,
        _ => first + 2 * c,
    };
    Some((file, rank))
}

/// The number of the square at real `(file, rank)` in `numbering` (the inverse of
/// [`numbered_file_rank`]); `None` for [`Numbering::Algebraic`] or a light or off-board
/// square.
pub fn file_rank_number(
    numbering: Numbering,
    files: u8,
    ranks: u8,
    a1_dark: bool,
    (file, rank): (u8, u8),
) -> Option<u32> {
    if numbering == Numbering::Algebraic || file >= files || rank >= ranks {
        return None;
    }
    let first = (rank + u8::from(!a1_dark)) % 2;
    if file % 2 != first {
        return None;
    }
    let (row, c) = match numbering {
        Numbering::TopLeft => (ranks - 1 - rank, (file - first) / 2),
        Numbering::BottomRight => (rank, (files - 2 + first - file) / 2),
        _ => (rank, (file - first) / 2),
    };
    Some(row as u32 * (files as u32 / 2) + c as u32 + 1)
}

/// The number of a square in `numbering` on `R`'s board, or `None` for
/// [`Numbering::Algebraic`].
pub fn number_in<R: Rules>(numbering: Numbering, sq: Square) -> Option<u32> {
    let (w, h) = (R::Board::WIDTH, R::Board::HEIGHT);
    file_rank_number(numbering, w, h, R::A1_DARK, file_rank::<R>(sq))
}

/// The square numbered `n` in `numbering` on `R`'s board.
pub fn square_in<R: Rules>(numbering: Numbering, n: u32) -> Option<Square> {
    let (w, h) = (R::Board::WIDTH, R::Board::HEIGHT);
    let (file, rank) = numbered_file_rank(numbering, w, h, R::A1_DARK, n)?;
    from_file_rank::<R>(file, rank)
}

/// The number of a square in the variant's numeric notation (1-based), or `None` for
/// algebraic variants.
pub fn square_number<R: Rules>(sq: Square) -> Option<u8> {
    number_in::<R>(R::NUMBERING, sq).map(|n| n as u8)
}

/// The internal square with number `n` in the variant's numeric notation.
pub fn square_from_number<R: Rules>(n: u32) -> Option<Square> {
    square_in::<R>(R::NUMBERING, n)
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
