//! Frysk!: Frisian draughts from five men a side on the back rows (the DFS's short game;
//! lidraughts `variant/Frysk.scala`, start `W:W46-50:B1-5`). Every rule is Frisian's
//! ([`super::Frisian`]); docs/rules.md, "Frysk!".

use super::frisian::Frisian;
use super::rule_set::{Numbering, Precedence, Promotion, Rules};
use crate::core::geometry::Board10;
use crate::core::variant::Variant;

/// Frysk!: Frisian rules from five men each on the back rows.
#[derive(Copy, Clone, Debug, Default)]
pub struct Frysk;

impl Rules for Frysk {
    type Board = Board10;
    const NAME: &'static str = "frysk";
    const VARIANT: Variant = Variant::Frysk;
    /// lidraughts `Frysk.initialFen`; pydraughts `startpos_to_fen('frysk!')`.
    const START_FEN: &'static str = "W:W46-50:B1-5";
    const A1_DARK: bool = Frisian::A1_DARK;
    const NUMBERING: Numbering = Frisian::NUMBERING;
    const CAPTURE_SEPARATOR: char = Frisian::CAPTURE_SEPARATOR;
    const FLYING_KINGS: bool = Frisian::FLYING_KINGS;
    const MEN_CAPTURE_BACKWARD: bool = Frisian::MEN_CAPTURE_BACKWARD;
    const MEN_CAPTURE_KINGS: bool = Frisian::MEN_CAPTURE_KINGS;
    const PROMOTION: Promotion = Frisian::PROMOTION;
    const PRECEDENCE: Precedence = Frisian::PRECEDENCE;
    const DRAW_PLIES: u8 = Frisian::DRAW_PLIES;
    const ORTHOGONAL_CAPTURES: bool = Frisian::ORTHOGONAL_CAPTURES;
    const KING_MOVE_LIMIT: u8 = Frisian::KING_MOVE_LIMIT;
    const THREEFOLD_REPETITION: bool = Frisian::THREEFOLD_REPETITION;

    fn resets_draw_counter(man_moved: bool, captured: bool, promoted: bool) -> bool {
        Frisian::resets_draw_counter(man_moved, captured, promoted)
    }

    const ENDGAME_COUNTERS: bool = Frisian::ENDGAME_COUNTERS;

    fn endgame_draw_plies(white: u32, white_kings: u32, black: u32, black_kings: u32) -> u8 {
        Frisian::endgame_draw_plies(white, white_kings, black, black_kings)
    }
}
