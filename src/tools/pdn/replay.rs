//! Replaying a game through damiera's rules: the variant from `[GameType]` ([`variant_of`]),
//! lidraughts' numeric Russian and Brazilian squares rewritten as algebraic ones, and
//! [`replay`], which checks every move and gives the positions.

use super::{GameText, PdnError, Span};
use crate::core::dispatch::{Dispatch, VariantFn};
use crate::core::game::Game;
use crate::core::notation::{self, MoveError};
use crate::core::rules::Color;
use crate::core::variant::Variant;

/// How the squares of a Russian or Brazilian file are numbered when they are numbers.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum Numbers {
    /// Square 1 = b8 (top left), 29 = a1: lidraughts (PDN notation `N2`).
    TopLeft,
    /// Square 1 = a1, 2 = c1, …, 32 = h8 (PDN notation `N0`).
    BottomLeft,
}

/// PDN 3.0's GameType number of a variant. Italian Damone has none: damiera writes and reads it
/// as Italian's 22 with a `[Variant "damone"]` tag (docs/match.md).
pub fn game_type(v: Variant) -> u32 {
    match v {
        Variant::English => 21,
        Variant::Italian | Variant::Damone => 22,
        Variant::Russian => 25,
        Variant::Brazilian => 26,
        Variant::International => 20,
    }
}

/// The `[Variant]` tag a game of `v` carries besides its GameType: `damone` for Italian Damone
/// (whose GameType is Italian's 22), none for the others.
pub fn variant_tag(v: Variant) -> Option<&'static str> {
    (v == Variant::Damone).then_some("damone")
}

/// The variant a game is in: `[GameType]` (its first number, [`game_type`]) and, for 22,
/// `[Variant]`; `default` when there is no GameType.
///
/// Errors: an unsupported or malformed GameType, or none with no default.
pub fn variant_of(game: &GameText, default: Option<Variant>) -> Result<Variant, String> {
    let Some(gt) = game.tag("GameType") else {
        return default.ok_or_else(|| "no [GameType] tag (pass --variant)".to_string());
    };
    let number = gt.split(',').next().unwrap_or("").trim();
    let damone = game.tag("Variant").is_some_and(|t| {
        variant_tag(Variant::Damone).is_some_and(|d| t.to_ascii_lowercase().contains(d))
    });
    let found = Variant::ALL.into_iter().find(|&v| {
        game_type(v).to_string() == number && (v == Variant::Damone) == (number == "22" && damone)
    });
    match (found, number.parse::<u32>()) {
        (Some(v), _) => Ok(v),
        (None, Ok(n)) => Err(format!("GameType {n} is not a supported variant (20 International, 21 English, 22 Italian, 25 Russian, 26 Brazilian)")),
        (None, Err(_)) => Err(format!("malformed GameType '{gt}'")),
    }
}

/// The numbering of a Russian or Brazilian game's numeric squares.
fn numbers_of(game: &GameText) -> Numbers {
    let notation = game
        .tag("GameType")
        .and_then(|gt| gt.split(',').nth(4).map(|s| s.trim().to_ascii_uppercase()));
    match notation.as_deref() {
        Some("N0") => Numbers::BottomLeft,
        _ => Numbers::TopLeft,
    }
}

/// The algebraic name of square `n` (1-32) of an 8x8 board with a1 dark, in numbering `nb`.
fn algebraic(n: u32, nb: Numbers) -> Option<String> {
    if !(1..=32).contains(&n) {
        return None;
    }
    let i = n - 1;
    let (row, c) = (i / 4, i % 4);
    let rank = match nb {
        Numbers::TopLeft => 7 - row,
        Numbers::BottomLeft => row,
    };
    // a1 is dark: on even ranks (0-based) the dark squares are files a, c, e, g.
    let file = 2 * c + if rank % 2 == 0 { 0 } else { 1 };
    Some(format!("{}{}", (b'a' + file as u8) as char, rank + 1))
}

/// A move's numeric squares rewritten as algebraic ones (other text unchanged).
fn move_to_algebraic(text: &str, nb: Numbers) -> Option<String> {
    let mut out = String::new();
    let mut num = String::new();
    let flush = |num: &mut String, out: &mut String| -> Option<()> {
        if !num.is_empty() {
            out.push_str(&algebraic(num.parse().ok()?, nb)?);
            num.clear();
        }
        Some(())
    };
    for c in text.chars() {
        if c.is_ascii_digit() {
            num.push(c);
        } else {
            flush(&mut num, &mut out)?;
            out.push(c);
        }
    }
    flush(&mut num, &mut out)?;
    Some(out)
}

/// A numeric Russian or Brazilian FEN rewritten with algebraic squares (ranges expanded);
/// lidraughts' move counters (`H0`, `F1`) are kept as they are.
fn fen_to_algebraic(fen: &str, nb: Numbers) -> Result<String, String> {
    let mut fields = fen.trim().trim_end_matches('.').split(':');
    let mut out = fields.next().unwrap_or("").trim().to_string();
    for field in fields {
        let field = field.trim();
        if notation::counter_field(field).is_some() {
            out.push(':');
            out.push_str(field);
            continue;
        }
        let (color, list) = field.split_at(field.chars().next().map_or(0, char::len_utf8));
        out.push(':');
        out.push_str(color);
        let mut items = Vec::new();
        for item in list.split(',').map(str::trim).filter(|s| !s.is_empty()) {
            let (king, rest) = match item.strip_prefix(['K', 'k']) {
                Some(r) => ("K", r),
                None => ("", item),
            };
            let bad = || format!("bad FEN square '{item}'");
            if let Some((a, b)) = rest.split_once('-') {
                let b = b.trim_start_matches(['K', 'k']);
                let (lo, hi): (u32, u32) = (
                    a.trim().parse().map_err(|_| bad())?,
                    b.trim().parse().map_err(|_| bad())?,
                );
                for n in lo..=hi {
                    items.push(format!("{king}{}", algebraic(n, nb).ok_or_else(bad)?));
                }
            } else if rest.bytes().all(|b| b.is_ascii_digit()) {
                let n = rest.parse().map_err(|_| bad())?;
                items.push(format!("{king}{}", algebraic(n, nb).ok_or_else(bad)?));
            } else {
                items.push(item.to_string());
            }
        }
        out.push_str(&items.join(","));
    }
    Ok(out)
}

/// A game replayed through the rules: every move legal, named canonically.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Replay {
    /// The variant.
    pub variant: Variant,
    /// The start position's FEN in damiera's canonical form, when the game has a `[FEN]`.
    pub start_fen: Option<String>,
    /// The side to move at the start.
    pub start_side: Color,
    /// The number of the first move (from the move text, or the FEN's `F` field; else 1).
    pub first_number: u32,
    /// The moves in damiera's notation (every landing square of a capture).
    pub moves: Vec<String>,
}

struct ReplayJob<'a> {
    game: &'a GameText,
    variant: Variant,
}

impl VariantFn for ReplayJob<'_> {
    type Output = Result<Replay, PdnError>;
    fn call<G: Game>(self) -> Result<Replay, PdnError> {
        let game = self.game;
        let numeric_algebraic = matches!(self.variant, Variant::Russian | Variant::Brazilian);
        let nb = numbers_of(game);
        let at = |span: Span, message: String| PdnError { span, message };
        let (mut pos, start_fen, fen_number) = match game.tag("FEN") {
            Some(f) if !f.trim().is_empty() && f.trim() != "?" => {
                let fen_error =
                    |e: notation::FenError| at(game.tag_span("FEN"), format!("[FEN]: {e}"));
                let full = notation::fen_counters(f).map_err(fen_error)?.fullmove;
                let mut f = f.to_string();
                if numeric_algebraic {
                    // Numeric squares to algebraic; algebraic ones pass through unchanged.
                    f = fen_to_algebraic(&f, nb).map_err(|m| at(game.tag_span("FEN"), m))?;
                }
                let pos = G::parse_fen(&f).map_err(fen_error)?;
                (pos, Some(G::fen(&pos)), full)
            }
            _ => (G::start(), None, None),
        };
        let start_side = G::side(&pos);
        let mut moves = Vec::with_capacity(game.moves.len());
        for m in &game.moves {
            let text = if numeric_algebraic && m.text.starts_with(|c: char| c.is_ascii_digit()) {
                move_to_algebraic(&m.text, nb)
                    .ok_or_else(|| at(m.span, format!("'{}' is not a move", m.text)))?
            } else {
                m.text.clone()
            };
            if !G::has_moves(&pos) {
                return Err(at(
                    m.span,
                    format!("move {} after the end of the game", m.text),
                ));
            }
            // Checkers literature (and many English PDN files) writes jumps with `-` too
            // (`15-24`): a `-` move that is not a legal quiet move is read as `from x to`.
            let mv = match G::parse_move(&pos, &text) {
                Err(e @ MoveError::Illegal(_)) if text.matches('-').count() == 1 => {
                    G::parse_move(&pos, &text.replace('-', "x")).map_err(|_| e)
                }
                r => r,
            }
            .map_err(|e| at(m.span, e.to_string()))?;
            moves.push(G::move_name(&pos, &mv));
            pos = G::make(&pos, &mv);
        }
        Ok(Replay {
            variant: self.variant,
            start_fen,
            start_side,
            first_number: game.first_number.or(fen_number).unwrap_or(1).max(1),
            moves,
        })
    }
}

/// Replays a game's moves in `variant` (from [`variant_of`]).
///
/// Errors, each with its line and column: a bad `[FEN]`, a move that is not a move, illegal or
/// ambiguous here, or one after the game has ended.
pub fn replay(game: &GameText, variant: Variant) -> Result<Replay, PdnError> {
    if let Some(e) = &game.error {
        return Err(e.clone());
    }
    variant.dispatch(ReplayJob { game, variant })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lidraughts_numbers_to_algebraic() {
        assert_eq!(algebraic(1, Numbers::TopLeft).as_deref(), Some("b8"));
        assert_eq!(algebraic(29, Numbers::TopLeft).as_deref(), Some("a1"));
        assert_eq!(algebraic(21, Numbers::TopLeft).as_deref(), Some("a3"));
        assert_eq!(algebraic(1, Numbers::BottomLeft).as_deref(), Some("a1"));
        assert_eq!(algebraic(9, Numbers::BottomLeft).as_deref(), Some("a3"));
        assert_eq!(algebraic(32, Numbers::BottomLeft).as_deref(), Some("h8"));
        assert_eq!(
            move_to_algebraic("22x15x8", Numbers::TopLeft).as_deref(),
            Some("c3xe5xg7")
        );
        // lidraughts' move counters pass through to the FEN parser, which reads them.
        assert_eq!(
            fen_to_algebraic("W:W21-32:B1,2:H0:F7", Numbers::TopLeft).as_deref(),
            Ok("W:Wa3,c3,e3,g3,b2,d2,f2,h2,a1,c1,e1,g1:Bb8,d8:H0:F7")
        );
    }
}
