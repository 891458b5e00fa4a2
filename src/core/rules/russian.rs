//! Russian draughts (shashki).
//!
//! Sources: Russian draughts code (kodeks 2004) 1.4.5, 1.5.3, 1.5.15 as cited by DCTL's
//! `russian` rules; invasportprim and ludoteka summaries. See docs/rules.md.

use super::rule_set::{Numbering, Precedence, Promotion, Rules};
use crate::core::geometry::Board8;
use crate::core::variant::Variant;

/// Russian draughts: flying kings, men capture backward, free choice of capture, promotion in
/// passing continues the capture as a king.
#[derive(Copy, Clone, Debug, Default)]
pub struct Russian;

impl Rules for Russian {
    type Board = Board8;
    const NAME: &'static str = "russian";
    const VARIANT: Variant = Variant::Russian;
    /// Russian draughts code (kodeks 2004), as encoded by DCTL: a1 dark, White on ranks 1-3
    /// moves first.
    const START_FEN: &'static str =
        "W:Wa1,c1,e1,g1,b2,d2,f2,h2,a3,c3,e3,g3:Bb6,d6,f6,h6,a7,c7,e7,g7,b8,d8,f8,h8";
    /// Kodeks 2004 (via DCTL): a1 is dark.
    const A1_DARK: bool = true;
    /// PDN GameType 25, algebraic.
    const NUMBERING: Numbering = Numbering::Algebraic;
    /// PDN GameType 25: `:`.
    const CAPTURE_SEPARATOR: char = ':';
    /// Kodeks 1.4.5: the king moves along whole free diagonals.
    const FLYING_KINGS: bool = true;
    /// Kodeks 1.5.3: men capture forward and backward.
    const MEN_CAPTURE_BACKWARD: bool = true;
    /// Men capture kings.
    const MEN_CAPTURE_KINGS: bool = true;
    /// Kodeks 1.5.15: a man reaching the king row in a capture becomes a king at once and goes on
    /// capturing as a king.
    const PROMOTION: Promotion = Promotion::ContinuesAsKing;
    /// Kodeks 1.5.3: any capture may be chosen, and it must be completed.
    const PRECEDENCE: Precedence = Precedence::Free;
    /// Ruling I.9: 15 moves each (30 plies) of king moves only, without a capture.
    const DRAW_PLIES: u8 = 30;

    fn resets_draw_counter(man_moved: bool, captured: bool, _promoted: bool) -> bool {
        man_moved || captured
    }
}
