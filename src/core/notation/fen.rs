//! PDN FEN (PDN 3.0) of the [`Rules`] variants: `[W|B]:W<list>:B<list>`, a `K` before a
//! square marks a king, ranges such as `21-32` or `K1-K4` are accepted for numeric notation,
//! the color lists may come in either order, lidraughts' move counters (`:H0:F1`,
//! [`FenCounters`]) may follow them. Output lists every square explicitly, White's list first.
//! The cutting of a FEN into its fields (`fen_parts`) serves Damone's FEN too.
//!
//! A position's FEN forms live here, not in [`crate::core::position`] (which notation depends
//! on, never the reverse): [`Position::start`] (the rules' start FEN parsed) and the `Debug`
//! form (the FEN).

use crate::core::bitboard::{Bitboard, Square};
use crate::core::movegen;
use crate::core::position::Position;
use crate::core::rules::{Color, Goal, Numbering, Rules};
use crate::core::squares::{parse_square, sort_key, square_in, square_name, SquareError};
use std::fmt;

/// Why a FEN was rejected. Each message names the problem and where it is.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FenError(pub String);

impl fmt::Display for FenError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "bad FEN: {}", self.0)
    }
}

impl std::error::Error for FenError {}

/// lidraughts' move counters after a FEN's color lists (`W:W21-32:B1-12:H0:F1`).
///
/// lidraughts (`draughts/format/Forsyth.scala`) writes `:H<n>`, the number of plies since "a
/// forced draw material combination" appeared (the count behind its endgame draw rules), and
/// `:F<n>`, the full-move number (1 at the start, incremented after Black's move). damiera
/// reads both and keeps neither in the position: `H` is not its no-progress counter (plies
/// without a capture or a man move, docs/rules.md) but lidraughts' endgame count, and a
/// position from any FEN starts both of damiera's counters at 0 (docs/rules.md, "FEN").
/// `F` only numbers the moves of a PDN game.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct FenCounters {
    /// `H`: plies since the endgame material appeared (lidraughts); not used by damiera.
    pub halfmove: Option<u32>,
    /// `F`: the full-move number of the position (from 1).
    pub fullmove: Option<u32>,
}

/// A FEN cut into its parts: the side to move, the color lists (`W...`, `B...`), the
/// move counters and Frisian's king-move counts.
pub(crate) struct FenParts<'a> {
    pub side: Color,
    pub lists: Vec<&'a str>,
    pub counters: FenCounters,
    /// lidraughts' king-move field (`+<black>+<white>`), by `Color as usize`: each side's
    /// count and the number of the counted king's square.
    pub king_moves: Option<[(u8, Option<u32>); 2]>,
}

/// lidraughts' Frisian king-move field (`Forsyth.scala`): `+<count>[<square>]` for Black, then
/// for White, the count 0-3 and the counted king's square as two digits (`+0+228`: White's king
/// on 28 has made two moves in a row). The result is by `Color as usize`.
///
/// Errors: a field of another shape, a count above 3 (one-line messages).
fn king_moves_field(field: &str) -> Result<[(u8, Option<u32>); 2], FenError> {
    let bad = || {
        FenError(format!(
            "field '{field}' is not a king-move field (+<black count>[square]+<white count>[square], counts 0-3)"
        ))
    };
    let tokens: Vec<&str> = field.split('+').skip(1).collect();
    if !field.starts_with('+') || tokens.len() != 2 {
        return Err(bad());
    }
    let side = |t: &str| -> Result<(u8, Option<u32>), FenError> {
        if !t.bytes().all(|b| b.is_ascii_digit()) || (t.len() != 1 && t.len() != 3) {
            return Err(bad());
        }
        let count = t[..1].parse::<u8>().map_err(|_| bad())?;
        if count > 3 {
            return Err(bad());
        }
        let square = (t.len() == 3)
            .then(|| t[1..].parse::<u32>().map_err(|_| bad()))
            .transpose()?;
        Ok((count, square))
    };
    let black = side(tokens[0])?;
    let white = side(tokens[1])?;
    Ok([white, black])
}

/// A move-counter field (`H0`, `F12`, lower case too): its letter (upper case) and number;
/// `None` for any other field.
///
/// Errors: an `H` or `F` followed by something that is not a number (a one-line message).
pub(crate) fn counter_field(field: &str) -> Option<Result<(char, u32), FenError>> {
    let field = field.trim();
    let mut chars = field.chars();
    let letter = chars.next()?.to_ascii_uppercase();
    if letter != 'H' && letter != 'F' {
        return None;
    }
    let digits = chars.as_str();
    let what = if letter == 'H' {
        "halfmove clock"
    } else {
        "full-move number"
    };
    Some(
        match digits.parse::<u32>() {
            Ok(n) if digits.bytes().all(|b| b.is_ascii_digit()) => Ok((letter, n)),
            _ => Err(FenError(format!(
                "field '{field}' is not a {what} ({letter} followed by a number)"
            ))),
        }
        .and_then(|(l, n)| {
            if l == 'F' && n == 0 {
                Err(FenError(format!(
                    "field '{field}': the full-move number starts at 1"
                )))
            } else {
                Ok((l, n))
            }
        }),
    )
}

/// Cuts a PDN FEN into its parts, for any game's FEN. Accepts the FEN bare, quoted or as a
/// `[FEN "..."]` tag, with or without a final `.`, and lidraughts' move counters (`:H0:F1`,
/// [`FenCounters`]) after the color lists.
///
/// Errors: an empty FEN, a side to move that is not `W` or `B`, a field that is neither a
/// color list nor a move counter, a malformed or repeated counter.
pub(crate) fn fen_parts(text: &str) -> Result<FenParts<'_>, FenError> {
    let mut s = text.trim();
    if let Some(inner) = s.strip_prefix("[FEN").and_then(|r| r.strip_suffix(']')) {
        s = inner.trim();
    }
    let s = s.trim_matches('"').trim().trim_end_matches('.');
    if s.is_empty() {
        return Err(FenError("empty FEN".into()));
    }
    let mut fields = s.split(':');
    let side = match fields.next().map(str::trim) {
        Some("W") | Some("w") => Color::White,
        Some("B") | Some("b") => Color::Black,
        Some(other) => return Err(FenError(format!("side to move '{other}' is not W or B"))),
        None => unreachable!("split yields at least one field"),
    };
    let mut parts = FenParts {
        side,
        lists: Vec::new(),
        counters: FenCounters::default(),
        king_moves: None,
    };
    for field in fields {
        let field = field.trim();
        if field.starts_with('+') {
            if parts.king_moves.replace(king_moves_field(field)?).is_some() {
                return Err(FenError("the king-move field appears twice".into()));
            }
            continue;
        }
        match counter_field(field) {
            Some(counter) => {
                let (letter, n) = counter?;
                let slot = if letter == 'H' {
                    &mut parts.counters.halfmove
                } else {
                    &mut parts.counters.fullmove
                };
                if slot.replace(n).is_some() {
                    return Err(FenError(format!("the {letter} field appears twice")));
                }
            }
            None if field.starts_with(['W', 'w', 'B', 'b']) => parts.lists.push(field),
            None => {
                return Err(FenError(format!(
                    "field '{field}' is neither a colour list (W..., B...) nor a move counter (H<plies>, F<move number>)"
                )))
            }
        }
    }
    Ok(parts)
}

/// The move counters of a PDN FEN (lidraughts' `:H<n>:F<n>`; both `None` when absent).
///
/// Errors: those of [`parse_fen`] about the side to move, the fields and the counters (the
/// color lists are not checked here).
pub fn fen_counters(text: &str) -> Result<FenCounters, FenError> {
    fen_parts(text).map(|p| p.counters)
}

/// Parses a PDN FEN in the variant's notation. lidraughts' move counters (`:H0:F1`) may follow
/// the color lists; they are read and not kept ([`FenCounters`]).
///
/// Errors: a bad side to move, a field that is neither a colour list nor a move counter, a
/// malformed counter, a malformed or off-board square, a light square, a square listed twice
/// or for both colors, a man on the row where it would be crowned.
pub fn parse_fen<R: Rules>(text: &str) -> Result<Position<R>, FenError> {
    parse_fen_in::<R>(text, R::NUMBERING)
}

/// [`parse_fen`] with numeric squares read in `numbering` (for example a Russian FEN from
/// lidraughts, numbered [`Numbering::TopLeft`], or PDN's `N0` files,
/// [`Numbering::BottomLeft`]); names in the variant's own notation are read as ever.
///
/// Errors: as [`parse_fen`].
pub fn parse_fen_in<R: Rules>(text: &str, numbering: Numbering) -> Result<Position<R>, FenError> {
    let FenParts {
        side,
        lists,
        king_moves,
        ..
    } = fen_parts(text)?;
    let mut sets = [Bitboard::EMPTY; 2];
    let mut kings = Bitboard::EMPTY;
    let mut seen = [false; 2];
    for field in lists {
        let (color, list) = match field.as_bytes()[0] {
            b'W' | b'w' => (Color::White, &field[1..]),
            _ => (Color::Black, &field[1..]),
        };
        if seen[color as usize] {
            return Err(FenError(format!(
                "the {} list appears twice",
                color.lowercase_name()
            )));
        }
        seen[color as usize] = true;
        for item in list.split(',').map(str::trim).filter(|i| !i.is_empty()) {
            for (sq, king) in parse_item::<R>(item, numbering)? {
                let name = square_name::<R>(sq);
                if sets[0].contains(sq) || sets[1].contains(sq) {
                    let other = if sets[color as usize].contains(sq) {
                        color
                    } else {
                        color.opponent()
                    };
                    return Err(FenError(if other == color {
                        format!(
                            "square {name} is listed twice for {}",
                            color.lowercase_name()
                        )
                    } else {
                        format!("square {name} is listed for both white and black")
                    }));
                }
                if !king && movegen::promotion_row::<R>(color).contains(sq) {
                    return Err(FenError(format!(
                        "a {} man on {name}, its promotion row, must be a king",
                        color.lowercase_name()
                    )));
                }
                sets[color as usize] = sets[color as usize].with(sq);
                if king {
                    kings = kings.with(sq);
                }
            }
        }
    }
    // Breakthrough: a king ends the game at once, so the side to move never has one.
    if R::GOAL == Goal::FirstKingWins && (kings & sets[side as usize]).any() {
        return Err(FenError(format!(
            "{} to move has a king: in {} the game ended when it was made",
            side.lowercase_name(),
            R::NAME
        )));
    }
    let mut pos = Position::from_parts(sets[0], sets[1], kings, side);
    if let Some(counts) = king_moves {
        for c in [Color::White, Color::Black] {
            let (count, square) = counts[c as usize];
            if count == 0 {
                continue;
            }
            if R::KING_MOVE_LIMIT == 0 {
                return Err(FenError(format!(
                    "{} has no king-move counts (a Frisian field)",
                    R::NAME
                )));
            }
            let square = match square {
                None => None,
                Some(n) => {
                    let sq =
                        parse_square::<R>(&n.to_string()).map_err(|e| FenError(e.to_string()))?;
                    if !(kings & sets[c as usize]).contains(sq) {
                        return Err(FenError(format!(
                            "the king-move field counts a {} king on {}, which holds none",
                            c.lowercase_name(),
                            square_name::<R>(sq)
                        )));
                    }
                    Some(sq)
                }
            };
            pos.set_king_moves(c, count, square);
        }
    }
    Ok(pos)
}

/// One FEN list item: `sq`, `Ksq`, or a numeric range `a-b` / `Ka-Kb` / `Ka-b`; numbers are in
/// `numbering`.
fn parse_item<R: Rules>(item: &str, numbering: Numbering) -> Result<Vec<(Square, bool)>, FenError> {
    let (king, rest) = match item.strip_prefix(['K', 'k']) {
        Some(r) => (true, r),
        None => (false, item),
    };
    let sq_err = |e: SquareError| FenError(e.to_string());
    // A number in a numbering other than the variant's own.
    let foreign = numbering != R::NUMBERING && numbering != Numbering::Algebraic;
    let number = |n: u32| -> Result<Square, FenError> {
        if foreign {
            square_in::<R>(numbering, n)
                .ok_or_else(|| sq_err(SquareError::OutOfRange(n.to_string())))
        } else {
            parse_square::<R>(&n.to_string()).map_err(sq_err)
        }
    };
    if let Some((a, b)) = rest.split_once('-') {
        if !foreign && R::NUMBERING == Numbering::Algebraic {
            return Err(FenError(format!("range '{item}' needs numeric squares")));
        }
        let b = b.strip_prefix(['K', 'k']).unwrap_or(b);
        let (lo, hi): (u32, u32) = match (a.trim().parse(), b.trim().parse()) {
            (Ok(lo), Ok(hi)) if lo <= hi => (lo, hi),
            _ => return Err(FenError(format!("'{item}' is not a range of squares"))),
        };
        (lo..=hi).map(|n| number(n).map(|sq| (sq, king))).collect()
    } else if foreign && !rest.is_empty() && rest.bytes().all(|b| b.is_ascii_digit()) {
        let n = rest
            .parse()
            .map_err(|_| sq_err(SquareError::OutOfRange(rest.to_string())))?;
        Ok(vec![(number(n)?, king)])
    } else {
        Ok(vec![(parse_square::<R>(rest).map_err(sq_err)?, king)])
    }
}

/// The PDN FEN of a position, every square listed, White's list first.
pub fn fen<R: Rules>(pos: &Position<R>) -> String {
    let mut out = String::new();
    out.push(pos.side().letter());
    for c in [Color::White, Color::Black] {
        out.push(':');
        out.push(c.letter());
        let mut squares: Vec<Square> = pos.pieces(c).iter().collect();
        squares.sort_by_key(|&sq| sort_key::<R>(sq));
        let items: Vec<String> = squares
            .iter()
            .map(|&sq| {
                let k = if pos.kings().contains(sq) { "K" } else { "" };
                format!("{k}{}", square_name::<R>(sq))
            })
            .collect();
        out.push_str(&items.join(","));
    }
    let counts = [Color::Black, Color::White].map(|c| pos.king_moves(c));
    if counts.iter().any(|&(n, _)| n > 0) {
        // lidraughts' field: Black first, the square as two digits.
        out.push(':');
        for (n, sq) in counts {
            out.push('+');
            out.push_str(&n.to_string());
            if let Some(sq) = sq {
                out.push_str(&format!("{:0>2}", square_name::<R>(sq)));
            }
        }
    }
    out
}

impl<R: Rules> Position<R> {
    /// The variant's start position ([`Rules::START_FEN`]).
    pub fn start() -> Self {
        parse_fen::<R>(R::START_FEN).expect("start FEN of every variant parses")
    }
}

impl<R: Rules> fmt::Debug for Position<R> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Position<{}>({})", R::NAME, fen(self))
    }
}
