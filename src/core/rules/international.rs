//! International draughts: the FMJD rules on the 10x10 board.
//!
//! Sources: FMJD, Official Rules of International Draughts (the article numbers below); the
//! rules are Brazilian's on the larger board (docs/rules.md).

use super::rule_set::{Numbering, Precedence, Promotion, Rules};
use crate::core::geometry::Board10;
use crate::core::variant::Variant;

/// International draughts: 10x10, 20 men each, flying kings, men capture backward, majority
/// capture, promotion only at the end of a move.
#[derive(Copy, Clone, Debug, Default)]
pub struct International;

impl Rules for International {
    type Board = Board10;
    const NAME: &'static str = "international";
    const VARIANT: Variant = Variant::International;
    /// FMJD 2.6: Black on 1-20, White on 31-50; 2.6.3: White moves first.
    const START_FEN: &'static str = "W:W31-50:B1-20";
    /// FMJD 2.4: the double corner (a1) is dark, on the player's left.
    const A1_DARK: bool = true;
    /// FMJD numbering 1-50 from the top left (PDN GameType 20, `N2`).
    const NUMBERING: Numbering = Numbering::TopLeft;
    /// PDN GameType 20: `x`.
    const CAPTURE_SEPARATOR: char = 'x';
    /// FMJD 3.5, 4.3: the king moves and captures along whole free diagonals.
    const FLYING_KINGS: bool = true;
    /// FMJD 4.2: men capture forward and backward.
    const MEN_CAPTURE_BACKWARD: bool = true;
    /// FMJD 4.1: men and kings are captured alike.
    const MEN_CAPTURE_KINGS: bool = true;
    /// FMJD 4.15: a man passing the promotion row during a capture stays a man.
    const PROMOTION: Promotion = Promotion::AtEnd;
    /// FMJD 4.13: the capture of the most pieces, kings counting as men.
    const PRECEDENCE: Precedence = Precedence::Quantity;
    /// FMJD 6.1: 25 successive moves of each player with kings only, without capture (50 plies).
    const DRAW_PLIES: u8 = 50;

    fn resets_draw_counter(man_moved: bool, captured: bool, _promoted: bool) -> bool {
        man_moved || captured
    }

    const ENDGAME_COUNTERS: bool = true;

    /// FMJD 6.3: three kings, two kings and a man, or a king and two men against a lone king:
    /// drawn after 16 further moves of each player (32 plies). FMJD 6.4: two kings, a king and
    /// a man, or a king against a lone king: 5 further moves each (10 plies). Rulings
    /// (docs/rules.md): the count starts when the class is entered (by a capture or a
    /// promotion) and continues through a promotion inside the class.
    fn endgame_draw_plies(white: u32, white_kings: u32, black: u32, black_kings: u32) -> u8 {
        let lone = |n: u32, k: u32| n == 1 && k == 1;
        let limit = |n: u32, k: u32| match (n, k >= 1) {
            (3, true) => 32,
            (1 | 2, true) => 10,
            _ => 0,
        };
        if lone(black, black_kings) {
            limit(white, white_kings)
        } else if lone(white, white_kings) {
            limit(black, black_kings)
        } else {
            0
        }
    }
}
