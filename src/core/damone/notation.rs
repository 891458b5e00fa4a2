//! Damone notation at the I/O boundary: square names, FEN, moves.
//!
//! - Squares: algebraic `a1`..`h8` on the Italian board, h1 dark (**Ruling I.13**; rules.md §0
//!   and §D). Internally the geometry's column is the real file on this board.
//! - FEN: `W:W<list>:B<list>` (PDN 3.0 form) with algebraic squares; a prefix `K` marks a Dama,
//!   `I` ("Imperatore") a Damone, none a Pedine. White is South (Damone on h1) and moves first
//!   in the start position (**Ruling I.1**). Output lists each color's Damones, then Damas,
//!   then Pedines, each group in file order as that side sees the board, so the start
//!   position prints as [`super::rules::START_FEN`].
//! - Moves: a quiet move is `from-to` (`h5-g6`); a capture lists every landing square
//!   (`d4xf6xh8`). On input `from x to` is accepted when it is unambiguous, and so is the Hub
//!   form `from x to x captured x captured ...` (protocols.md §1.4). These are the shared
//!   [`crate::core::notation::moves`] over [`crate::core::play::Play`], re-exported here.

use super::position::Position;
use super::rules::{promotion_squares, Rank};
use crate::core::bitboard::{Bitboard, Square};
use crate::core::geometry::{Board8, Geometry};
use crate::core::notation::fen::{fen_parts, FenError, FenParts};
use crate::core::rules::Color;
use crate::core::squares::SquareError;
use std::fmt;

/// Move names, move parsing and diagrams are the shared ones ([`crate::core::notation::moves`]),
/// re-exported here for Damone positions.
pub use crate::core::notation::moves::{
    capture_paths, diagram, move_name, move_name_nth, move_name_pdn, parse_move,
};

/// The real `(file, rank)` of an internal square, 0-based (`a1` = (0, 0)).
pub fn file_rank(sq: Square) -> (u8, u8) {
    Board8::coords(sq)
}

/// The name of a square (`"h1"`).
pub fn square_name(sq: Square) -> String {
    let (f, r) = file_rank(sq);
    format!("{}{}", (b'a' + f) as char, r + 1)
}

/// Parses an algebraic square name; it must be a dark square of the Italian board.
pub fn parse_square(s: &str) -> Result<Square, SquareError> {
    let s = s.trim();
    let b = s.as_bytes();
    if b.len() < 2 || !b[0].is_ascii_alphabetic() || !b[1..].iter().all(u8::is_ascii_digit) {
        return Err(SquareError::Malformed(s.to_string()));
    }
    let file = b[0].to_ascii_lowercase().wrapping_sub(b'a');
    let rank: u32 = s[1..]
        .parse()
        .map_err(|_| SquareError::OutOfRange(s.to_string()))?;
    if file >= 8 || rank == 0 || rank > 8 {
        return Err(SquareError::OutOfRange(s.to_string()));
    }
    Board8::square_at(file, rank as u8 - 1).ok_or_else(|| SquareError::Light(s.to_string()))
}

fn rank_name(r: Rank) -> &'static str {
    match r {
        Rank::Pedine => "Pedine",
        Rank::Dama => "Dama",
        Rank::Damone => "Damone",
    }
}

/// Parses a Damone FEN. lidraughts' move counters (`:H0:F1`) may follow the color lists; they
/// are read and not kept ([`crate::core::notation::FenCounters`]).
///
/// Errors: a bad side to move, a field that is neither a colour list nor a move counter, a
/// malformed counter, a colour listed twice, a malformed, off-board or light square, a square
/// listed twice or for both colors, a Pedine on its own promotion square (it would be a Dama)
/// or a Dama on its own (it would be a Damone).
pub fn parse_fen(text: &str) -> Result<Position, FenError> {
    let FenParts { side, lists, .. } = fen_parts(text)?;
    let mut colors = [Bitboard::EMPTY; 2];
    let mut ranks = [Bitboard::EMPTY; 3];
    let mut seen = [false; 2];
    for field in lists {
        let color = match field.as_bytes()[0] {
            b'W' | b'w' => Color::White,
            _ => Color::Black,
        };
        if std::mem::replace(&mut seen[color as usize], true) {
            return Err(FenError(format!(
                "the {} list appears twice",
                color.lowercase_name()
            )));
        }
        for item in field[1..]
            .split(',')
            .map(str::trim)
            .filter(|i| !i.is_empty())
        {
            let (rank, rest) = match item.as_bytes()[0] {
                b'K' | b'k' => (Rank::Dama, &item[1..]),
                b'I' | b'i' => (Rank::Damone, &item[1..]),
                _ => (Rank::Pedine, item),
            };
            let sq = parse_square(rest).map_err(|e| FenError(e.to_string()))?;
            let name = square_name(sq);
            if (colors[0] | colors[1]).contains(sq) {
                return Err(FenError(if colors[color as usize].contains(sq) {
                    format!(
                        "square {name} is listed twice for {}",
                        color.lowercase_name()
                    )
                } else {
                    format!("square {name} is listed for both white and black")
                }));
            }
            if promotion_squares(color, rank).contains(sq) {
                return Err(FenError(format!(
                    "a {} {} on {name}, its promotion square, must have gone up a rank",
                    color.lowercase_name(),
                    rank_name(rank)
                )));
            }
            colors[color as usize] = colors[color as usize].with(sq);
            ranks[rank as usize] = ranks[rank as usize].with(sq);
        }
    }
    Ok(Position::from_parts(
        colors,
        ranks[Rank::Dama as usize],
        ranks[Rank::Damone as usize],
        side,
    ))
}

/// The FEN letter prefix of a rank.
fn rank_prefix(r: Rank) -> &'static str {
    match r {
        Rank::Pedine => "",
        Rank::Dama => "K",
        Rank::Damone => "I",
    }
}

/// The FEN of a position: White's list first; in each list the Damones, then the Damas, then
/// the Pedines, each group in file order as that side sees the board.
pub fn fen(pos: &Position) -> String {
    let mut out = String::new();
    out.push(pos.side().letter());
    for c in [Color::White, Color::Black] {
        out.push(':');
        out.push(c.letter());
        let mut items = Vec::new();
        for rank in Rank::ALL.into_iter().rev() {
            let mut squares: Vec<Square> = pos.rank_of(c, rank).iter().collect();
            squares.sort_by_key(|&sq| {
                let (f, r) = file_rank(sq);
                match c {
                    Color::White => (f, r),
                    Color::Black => (7 - f, 7 - r),
                }
            });
            items.extend(
                squares
                    .into_iter()
                    .map(|sq| format!("{}{}", rank_prefix(rank), square_name(sq))),
            );
        }
        out.push_str(&items.join(","));
    }
    out
}

impl Position {
    /// The start position ([`super::rules::START_FEN`]).
    pub fn start() -> Position {
        parse_fen(super::rules::START_FEN).expect("the start FEN parses")
    }
}

impl Default for Position {
    /// The start position.
    fn default() -> Self {
        Position::start()
    }
}

impl fmt::Debug for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "damone::Position({})", fen(self))
    }
}
