//! Replaying a game through damiera's rules: the variant from `[GameType]` ([`variant_of`]),
//! lidraughts' numeric Russian and Brazilian squares rewritten as algebraic ones, and
//! [`replay`], which checks every move and gives the positions.

use super::text::{GameText, MoveText, PdnError, Span};
use crate::core::dispatch::{Dispatch, VariantFn};
use crate::core::draughts::Draughts;
use crate::core::moves::Move;
use crate::core::notation::{self, MoveError};
use crate::core::rules::{Color, Numbering};
use crate::core::variant::Variant;

/// PDN 3.0's GameType number of a variant. Italian Damone has none: damiera writes and reads it
/// as Italian's 22 with a `[Variant "damone"]` tag (docs/match.md). Antidraughts and
/// Breakthrough have none in PDN 3.0 either: they take lidraughts' 98 and 96. Frisian is PDN
/// 3.0's 40; Frysk! takes lidraughts' 97 (pydraughts writes 40 with a FEN, read as Frisian).
pub fn game_type(v: Variant) -> u32 {
    match v {
        Variant::English => 21,
        Variant::Italian | Variant::Damone => 22,
        Variant::Russian => 25,
        Variant::Brazilian => 26,
        Variant::International => 20,
        // lidraughts' numbers (its `Variant.gameType`); PDN 3.0 has none.
        Variant::Antidraughts => 98,
        Variant::Breakthrough => 96,
        Variant::Frisian => 40,
        Variant::Frysk => 97,
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
        (None, Ok(n)) => Err(format!("GameType {n} is not a supported variant (20 International, 21 English, 22 Italian, 25 Russian, 26 Brazilian, 40 Frisian, 96 Breakthrough, 97 Frysk!, 98 Antidraughts)")),
        (None, Err(_)) => Err(format!("malformed GameType '{gt}'")),
    }
}

/// The numbering of a Russian or Brazilian game's numeric squares: PDN GameType notation `N0`
/// from the bottom-left, else lidraughts' top-left numbers (`N2`).
fn numbering_of(game: &GameText) -> Numbering {
    let notation = game
        .tag("GameType")
        .and_then(|gt| gt.split(',').nth(4).map(|s| s.trim().to_ascii_uppercase()));
    match notation.as_deref() {
        Some("N0") => Numbering::BottomLeft,
        _ => Numbering::TopLeft,
    }
}

/// A move's numeric squares rewritten as the names of `variant` (other text unchanged).
fn move_in_names(variant: Variant, text: &str, numbering: Numbering) -> Option<String> {
    let mut out = String::new();
    let mut num = String::new();
    let flush = |num: &mut String, out: &mut String| -> Option<()> {
        if !num.is_empty() {
            out.push_str(&variant.numbered_square_name(numbering, num.parse().ok()?)?);
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
    type Output = Result<(Replay, Option<PdnError>), PdnError>;
    fn call<G: Draughts>(self) -> Result<(Replay, Option<PdnError>), PdnError> {
        let game = self.game;
        // Numeric squares in a file of an algebraic variant (lidraughts' Russian and Brazilian
        // files) are read in the numbering its GameType names.
        let numeric_algebraic = G::NUMBERING == Numbering::Algebraic;
        let numbering = if numeric_algebraic {
            numbering_of(game)
        } else {
            G::NUMBERING
        };
        let at = |span: Span, message: String| PdnError { span, message };
        let (mut pos, start_fen, fen_number) = match game.tag("FEN") {
            Some(f) if !f.trim().is_empty() && f.trim() != "?" => {
                let fen_error =
                    |e: notation::FenError| at(game.tag_span("FEN"), format!("[FEN]: {e}"));
                let full = notation::fen_counters(f).map_err(fen_error)?.fullmove;
                let pos = G::parse_fen_in(f, numbering).map_err(fen_error)?;
                (pos, Some(G::fen(&pos)), full)
            }
            _ => (G::start(), None, None),
        };
        let start_side = G::side(&pos);
        let mut moves = Vec::with_capacity(game.moves.len());
        let mut stop = None;
        for m in &game.moves {
            match step::<G>(self.variant, numbering, &pos, m) {
                Ok(mv) => {
                    moves.push(G::move_name(&pos, &mv));
                    pos = G::make(&pos, &mv);
                }
                Err(e) => {
                    stop = Some(e);
                    break;
                }
            }
        }
        let replay = Replay {
            variant: self.variant,
            start_fen,
            start_side,
            first_number: game.first_number.or(fen_number).unwrap_or(1).max(1),
            moves,
        };
        Ok((replay, stop))
    }
}

/// The legal move that `m` names in `pos`, or why it names none.
fn step<G: Draughts>(
    variant: Variant,
    numbering: Numbering,
    pos: &G::Position,
    m: &MoveText,
) -> Result<Move, PdnError> {
    let at = |message: String| PdnError {
        span: m.span,
        message,
    };
    let text = if G::NUMBERING == Numbering::Algebraic
        && m.text.starts_with(|c: char| c.is_ascii_digit())
    {
        move_in_names(variant, &m.text, numbering)
            .ok_or_else(|| at(format!("'{}' is not a move", m.text)))?
    } else {
        m.text.clone()
    };
    if !G::has_moves(pos) {
        return Err(at(format!("move {} after the end of the game", m.text)));
    }
    // Checkers literature (and many English PDN files) writes jumps with `-` too
    // (`15-24`): a `-` move that is not a legal quiet move is read as `from x to`.
    match G::parse_move(pos, &text) {
        Err(e @ MoveError::Illegal(_)) if text.matches('-').count() == 1 => {
            G::parse_move(pos, &text.replace('-', "x")).map_err(|_| e)
        }
        r => r,
    }
    .map_err(|e| at(e.to_string()))
}

/// Replays a game's moves in `variant` (from [`variant_of`]).
///
/// Errors, each with its line and column: a bad `[FEN]`, a move that is not a move, illegal or
/// ambiguous here, or one after the game has ended.
pub fn replay(game: &GameText, variant: Variant) -> Result<Replay, PdnError> {
    match replay_prefix(game, variant)? {
        (r, None) => Ok(r),
        (_, Some(e)) => Err(e),
    }
}

/// Replays a game's moves in `variant` as far as they are legal: the replay of the moves
/// before the first bad one, and that move's error (`None` when every move is legal), for the
/// readers that keep what a damaged game holds (`book import`).
///
/// Errors, with line and column: a syntax error in the game ([`GameText::error`]) or a bad
/// `[FEN]`, where nothing is replayed.
pub fn replay_prefix(
    game: &GameText,
    variant: Variant,
) -> Result<(Replay, Option<PdnError>), PdnError> {
    if let Some(e) = &game.error {
        return Err(e.clone());
    }
    variant.dispatch(ReplayJob { game, variant })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::rules::Russian;

    #[test]
    fn lidraughts_numbers_to_algebraic() {
        let algebraic = |n, nb| Variant::Russian.numbered_square_name(nb, n);
        assert_eq!(algebraic(1, Numbering::TopLeft).as_deref(), Some("b8"));
        assert_eq!(algebraic(29, Numbering::TopLeft).as_deref(), Some("a1"));
        assert_eq!(algebraic(21, Numbering::TopLeft).as_deref(), Some("a3"));
        assert_eq!(algebraic(1, Numbering::BottomLeft).as_deref(), Some("a1"));
        assert_eq!(algebraic(9, Numbering::BottomLeft).as_deref(), Some("a3"));
        assert_eq!(algebraic(32, Numbering::BottomLeft).as_deref(), Some("h8"));
        assert_eq!(
            move_in_names(Variant::Russian, "22x15x8", Numbering::TopLeft).as_deref(),
            Some("c3xe5xg7")
        );
        // lidraughts' move counters pass through to the FEN parser, which reads them.
        assert_eq!(
            notation::parse_fen_in::<Russian>("W:W21-32:B1,2:H0:F7", Numbering::TopLeft),
            notation::parse_fen::<Russian>("W:Wa3,c3,e3,g3,b2,d2,f2,h2,a1,c1,e1,g1:Bb8,d8:H0:F7")
        );
    }

    #[test]
    fn a_prefix_stops_at_the_first_bad_move() {
        use crate::tools::pdn::read_games;
        let games = read_games("1. 11-15 23-19 2. 9-9 22-17 *\n");
        let (r, e) = replay_prefix(&games[0], Variant::English).unwrap();
        assert_eq!(r.moves, ["11-15", "23-19"]);
        let e = e.expect("the third move is bad");
        assert_eq!(e.span, Span { line: 1, col: 19 });
        assert_eq!(replay(&games[0], Variant::English).unwrap_err(), e);
    }
}
