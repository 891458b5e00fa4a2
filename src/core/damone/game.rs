//! Italian Damone as a game the engine plays: [`DamoneDraughts`] implements [`Play`],
//! [`Notation`] and [`DrawRules`] over the Damone [`Position`], and [`is_lost`] applies the
//! end-of-game ruling ([`DamoneWin`], ruling I.4).

use super::position::Position;
use super::rules::*;
use super::{movegen, notation};
use crate::core::bitboard::Square;
use crate::core::draughts::{DrawRules, Notation};
use crate::core::geometry::{Board8, Geometry};
use crate::core::movegen::{CaptureSink, Duplicates};
use crate::core::moves::{Move, MoveList};
use crate::core::notation::{FenError, SquareError};
use crate::core::play::{Play, PlayPosition};
use crate::core::rules::{Color, Numbering};
use crate::core::variant::Variant;

/// Whether the side to move has lost under the end-of-game rule `win` (**Ruling I.4**).
pub fn is_lost(pos: &Position, win: DamoneWin) -> bool {
    (win == DamoneWin::Damones && pos.rank_of(pos.side(), Rank::Damone).is_empty())
        || !movegen::has_moves(pos)
}

/// Italian Damone as a [`Draughts`](crate::Draughts), with the end-of-game rule of ruling I.4 as a
/// parameter:
/// `DAMONES_WIN = false` is the default [`DamoneWin::All`], `true` is [`DamoneWin::Damones`]
/// (a side to move without a Damone has lost: it has no legal move). The runtime choice is
/// [`crate::core::dispatch::RuleSet`].
#[derive(Copy, Clone, Debug, Default)]
pub struct DamoneDraughts<const DAMONES_WIN: bool>;

/// Italian Damone with the default end of game (no legal move loses).
pub type Damone = DamoneDraughts<false>;

/// Whether the side to move has lost its last Damone, under the `Damones` rule.
#[inline(always)]
fn lost_damones<const DAMONES_WIN: bool>(pos: &Position) -> bool {
    DAMONES_WIN && pos.rank_of(pos.side(), Rank::Damone).is_empty()
}

/// A Damone position's notation game is [`Damone`]: moves are read and named by the rules of
/// movement, whatever the end-of-game option.
impl PlayPosition for Position {
    type Play = Damone;
}

impl<const DAMONES_WIN: bool> Play for DamoneDraughts<DAMONES_WIN> {
    type Position = Position;
    const NAME: &'static str = "damone";
    const VARIANT: Variant = Variant::Damone;
    const SQUARES: u8 = Board8::SQUARES;
    const FILES: u8 = Board8::WIDTH;
    const RANKS: u8 = Board8::HEIGHT;
    const CAPTURE_SEPARATOR: char = 'x';
    /// Algebraic squares on the Italian board (docs/rules.md, "Italian Damone").
    const NUMBERING: Numbering = Numbering::Algebraic;
    /// Damas and the Damone move one square at a time (docs/rules.md, "Italian Damone").
    const FLYING_KINGS: bool = false;

    fn start() -> Position {
        Position::start()
    }
    #[inline(always)]
    fn side(pos: &Position) -> Color {
        pos.side()
    }
    #[inline(always)]
    fn key(pos: &Position) -> u64 {
        pos.key()
    }
    #[inline(always)]
    fn make(pos: &Position, mv: &Move) -> Position {
        pos.make(mv)
    }
    #[inline(always)]
    fn generate(pos: &Position, list: &mut MoveList, dups: Duplicates) {
        if lost_damones::<DAMONES_WIN>(pos) {
            list.clear();
        } else {
            movegen::generate_with(pos, list, dups)
        }
    }
    #[inline(always)]
    fn count(pos: &Position, dups: Duplicates) -> u64 {
        if lost_damones::<DAMONES_WIN>(pos) {
            0
        } else {
            movegen::count(pos, dups)
        }
    }
    #[inline(always)]
    fn has_moves(pos: &Position) -> bool {
        let win = DamoneWin::damones(DAMONES_WIN);
        !is_lost(pos, win)
    }
    #[inline(always)]
    fn has_captures(pos: &Position) -> bool {
        !lost_damones::<DAMONES_WIN>(pos) && movegen::has_captures(pos)
    }
    #[inline(always)]
    fn threatened(pos: &Position) -> bool {
        movegen::threatened(pos)
    }
    #[inline(always)]
    fn captures_into<K: CaptureSink>(pos: &Position, sink: &mut K) {
        movegen::captures_into(pos, sink)
    }
    fn piece_count(pos: &Position) -> u32 {
        pos.occupied().count()
    }
    fn square_name(sq: Square) -> String {
        notation::square_name(sq)
    }
    fn parse_square(text: &str) -> Result<Square, SquareError> {
        notation::parse_square(text)
    }
    fn square_order(sq: Square) -> (u8, u8) {
        notation::file_rank(sq)
    }
    fn square_at(file: u8, rank: u8) -> Option<Square> {
        Board8::square_at(file, rank)
    }
    /// White `P` Pedine, `K` Dama, `I` Damone; Black the same in lower case.
    fn piece_letter(pos: &Position, sq: Square) -> Option<char> {
        pos.piece_at(sq).map(|(color, r)| {
            let ch = ['P', 'K', 'I'][r as usize];
            match color {
                Color::White => ch,
                Color::Black => ch.to_ascii_lowercase(),
            }
        })
    }
}

impl<const DAMONES_WIN: bool> Notation for DamoneDraughts<DAMONES_WIN> {
    fn parse_fen(fen: &str) -> Result<Position, FenError> {
        notation::parse_fen(fen)
    }
    fn fen(pos: &Position) -> String {
        notation::fen(pos)
    }
}

impl<const DAMONES_WIN: bool> DrawRules for DamoneDraughts<DAMONES_WIN> {
    #[inline(always)]
    fn draw_by_counter(pos: &Position) -> bool {
        pos.quiet_plies() >= DRAW_PLIES
    }
    #[inline(always)]
    fn is_irreversible(_pos: &Position, mv: &Move) -> bool {
        // Not `resets_draw_counter`: a Pedine moves sideways both ways (d7-e8-d7), so a
        // Pedine move resets the no-progress counter (ruling I.5) but positions before it can
        // recur. Only a capture or a promotion can never be undone.
        mv.is_capture() || mv.promotes
    }
}
