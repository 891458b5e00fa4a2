//! English draughts / American checkers.
//!
//! Sources: WCDF rules of checkers (art. 1-3 board and set-up, 1.17 kings, 1.20 capture,
//! promotion "and the move terminates"); usacheckers rule numbers as cited by DCTL's
//! `checkers` rules header. See docs/rules.md.

use super::rule_set::{Numbering, Precedence, Promotion, Rules};
use crate::core::geometry::Board8;
use crate::core::variant::Variant;

/// English draughts (American checkers): short kings, men capture forward only, free choice.
#[derive(Copy, Clone, Debug, Default)]
pub struct English;

impl Rules for English {
    type Board = Board8;
    const NAME: &'static str = "english";
    const VARIANT: Variant = Variant::English;
    /// WCDF art. 3.3: Black on 1-12 moves first, White on 21-32.
    const START_FEN: &'static str =
        "B:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12";
    /// WCDF: the double corner is on the player's right, the near-left square is dark.
    const A1_DARK: bool = true;
    /// WCDF numbering, 1 = b8 at Black's side.
    const NUMBERING: Numbering = Numbering::TopLeft;
    /// PDN GameType 21.
    const CAPTURE_SEPARATOR: char = 'x';
    /// usacheckers 1.17: a king moves one square in any diagonal direction.
    const FLYING_KINGS: bool = false;
    /// Men move and jump forward only (netintellgames rule IV; DCTL `is_backward_pawn_jump`
    /// false).
    const MEN_CAPTURE_BACKWARD: bool = false;
    /// Men jump kings as well as men (netintellgames rule IV; DCTL `is_pawns_jump_only_pawns`
    /// false).
    const MEN_CAPTURE_KINGS: bool = true;
    /// WCDF: a man reaching the king row, by a jump or a move, is crowned "and the move
    /// terminates".
    const PROMOTION: Promotion = Promotion::EndsMove;
    /// usacheckers 1.20: capture is compulsory, any jump sequence may be chosen, and it must be
    /// completed.
    const PRECEDENCE: Precedence = Precedence::Free;
    /// usacheckers 1.32.2 / WCDF 40-move rule (ruling I.7): 40 moves each without a man
    /// advanced or a piece taken.
    const DRAW_PLIES: u8 = 80;

    fn resets_draw_counter(man_moved: bool, captured: bool, _promoted: bool) -> bool {
        man_moved || captured
    }
}
