//! Brazilian draughts: the International (FMJD) rules on the 8x8 board.
//!
//! Sources: CBD "Regras Oficiais do Jogo de Damas 64 casas" (rules cited below); FMJD Annex 1
//! articles for the shared capture rules. See docs/rules.md.

use super::rule_set::{Numbering, Precedence, Promotion, Rules};
use crate::core::geometry::Board8;
use crate::core::variant::Variant;

/// Brazilian draughts: flying kings, men capture backward, majority capture, promotion only at
/// the end of a move.
#[derive(Copy, Clone, Debug, Default)]
pub struct Brazilian;

impl Rules for Brazilian {
    type Board = Board8;
    const NAME: &'static str = "brazilian";
    const VARIANT: Variant = Variant::Brazilian;
    /// CBD 3-4: a1 dark, White on ranks 1-3 moves first.
    const START_FEN: &'static str =
        "W:Wa1,c1,e1,g1,b2,d2,f2,h2,a3,c3,e3,g3:Bb6,d6,f6,h6,a7,c7,e7,g7,b8,d8,f8,h8";
    /// CBD 3: "grande diagonal à esquerda", a1 is dark.
    const A1_DARK: bool = true;
    /// PDN GameType 26, algebraic.
    const NUMBERING: Numbering = Numbering::Algebraic;
    /// PDN GameType 26: `x`.
    const CAPTURE_SEPARATOR: char = 'x';
    /// CBD 8, 17 (FMJD 4.3): the king moves and captures along whole free diagonals.
    const FLYING_KINGS: bool = true;
    /// CBD 10 (FMJD 4.2): men capture forward and backward.
    const MEN_CAPTURE_BACKWARD: bool = true;
    /// CBD 11: men and kings are captured alike.
    const MEN_CAPTURE_KINGS: bool = true;
    /// CBD 13 (FMJD 4.15): a man passing the king row during a capture stays a man.
    const PROMOTION: Promotion = Promotion::AtEnd;
    /// CBD 12 "Lei da Maioria" (FMJD 4.13): the most pieces, kings counting as men.
    const PRECEDENCE: Precedence = Precedence::Quantity;
    /// Ruling I.8 (seed text): 40 plies without a capture or a promotion.
    const DRAW_PLIES: u8 = 40;

    fn resets_draw_counter(_man_moved: bool, captured: bool, promoted: bool) -> bool {
        captured || promoted
    }
}
