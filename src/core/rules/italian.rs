//! Italian draughts (Dama italiana).
//!
//! Sources: FID Regolamento Tecnico, Capo I (2008), articles cited below, as encoded and tested
//! by DCTL's `italian` rules; the FID "10 regole" summary. See docs/rules.md.

use super::rule_set::{Numbering, Precedence, Promotion, Rules};
use crate::core::geometry::Board8;
use crate::core::variant::Variant;

/// Italian draughts: short kings, men capture forward only and never capture kings, promotion
/// ends the move, precedence by FID 6.6-6.10.
#[derive(Copy, Clone, Debug, Default)]
pub struct Italian;

impl Rules for Italian {
    type Board = Board8;
    const NAME: &'static str = "italian";
    const VARIANT: Variant = Variant::Italian;
    /// FID-I 2.6, 3.4: White on 21-32 moves first, Black on 1-12.
    const START_FEN: &'static str =
        "W:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12";
    /// FID-I 2.3: the bottom-right square (h1) is dark, so a1 is light.
    const A1_DARK: bool = false;
    /// FID-I 2.4: 1 = a8 ... 32 = h1.
    const NUMBERING: Numbering = Numbering::TopLeft;
    /// PDN GameType 22.
    const CAPTURE_SEPARATOR: char = 'x';
    /// FID-I 4.7: the king moves one square in the four diagonal directions.
    const FLYING_KINGS: bool = false;
    /// FID-I 5.3(a): the man captures forward only.
    const MEN_CAPTURE_BACKWARD: bool = false;
    /// FID-I 5.3(b): the man may not capture a king.
    const MEN_CAPTURE_KINGS: bool = false;
    /// FID English summary ("the move pass to the opponent in the case the new king has to
    /// jump too"): a man promoted by a capture ends its move there.
    const PROMOTION: Promotion = Promotion::EndsMove;
    /// FID-I 6.6-6.10: quantity, capture with a king, most kings, kings earliest, free choice.
    const PRECEDENCE: Precedence = Precedence::Italian;
    /// FID-I 10.4 (DCTL `max_reversible_moves = 80`), ruling I.6: 40 moves each without a man
    /// move or a capture.
    const DRAW_PLIES: u8 = 80;

    fn resets_draw_counter(man_moved: bool, captured: bool, _promoted: bool) -> bool {
        man_moved || captured
    }
}
