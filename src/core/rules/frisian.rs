//! Frisian draughts: the rules of the Frisian federation (Dambûn Frysk Spul, "Spulrigels" 1-17)
//! as lidraughts plays them, on the International board.
//!
//! Sources, per article (docs/rules.md, "Frisian"): the DFS rules ("O n" below;
//! <https://friesdammen.nl/spulrigels/>), lidraughts' `variant/Frisian.scala` where the rules
//! leave a number open (the king's value, the draw counters), DCTL's `frisian.hpp` for the
//! same order of captures.

use super::international::International;
use super::rule_set::{Numbering, Precedence, Promotion, Rules};
use crate::core::geometry::Board10;
use crate::core::variant::Variant;

/// Frisian draughts: 10x10, 20 men each, men and kings capture diagonally and orthogonally,
/// the capture of the highest value, at most three king moves in a row, few draw rules.
#[derive(Copy, Clone, Debug, Default)]
pub struct Frisian;

impl Rules for Frisian {
    type Board = Board10;
    const NAME: &'static str = "frisian";
    const VARIANT: Variant = Variant::Frisian;
    /// O 1: the International start (lidraughts `Frisian.pieces = Standard.pieces`); O 2: White
    /// moves first.
    const START_FEN: &'static str = International::START_FEN;
    /// O 1: the dark square in the player's left corner.
    const A1_DARK: bool = International::A1_DARK;
    /// Squares 1-50 as International (lidraughts, PDN GameType 40 `N2`).
    const NUMBERING: Numbering = International::NUMBERING;
    const CAPTURE_SEPARATOR: char = International::CAPTURE_SEPARATOR;
    /// O 6, O 8: the king moves diagonally and captures in eight directions over any distance.
    const FLYING_KINGS: bool = true;
    /// O 4: men capture forward and backward.
    const MEN_CAPTURE_BACKWARD: bool = true;
    /// O 4: men capture kings.
    const MEN_CAPTURE_KINGS: bool = true;
    /// O 5: only a man that ends its move on the far row becomes a king.
    const PROMOTION: Promotion = Promotion::AtEnd;
    /// O 10, O 11: the capture of the highest value; a king is worth more than a man, less than
    /// two; at equal value the king captures.
    const PRECEDENCE: Precedence = Precedence::Frisian;
    /// No no-progress rule (O 1-17 have none; lidraughts `maxDrawingMoves` only for few kings).
    const DRAW_PLIES: u8 = 0;
    /// O 4, O 8: captures along files and ranks too.
    const ORTHOGONAL_CAPTURES: bool = true;
    /// O 7: a king may make three non-capturing moves in a row while its side has men.
    const KING_MOVE_LIMIT: u8 = 3;
    /// No repetition rule in O 1-17 (lidraughts: `threefoldRepetition` is off for Frisian).
    const THREEFOLD_REPETITION: bool = false;

    /// A man move or a capture can never be undone (the bound of repetition look-ups).
    fn resets_draw_counter(man_moved: bool, captured: bool, _promoted: bool) -> bool {
        man_moved || captured
    }

    const ENDGAME_COUNTERS: bool = true;

    /// O 15: two kings against one king, 7 moves each to win (14 plies); lidraughts
    /// (`Frisian.maxDrawingMoves`): one king against one king, 2 moves each (4 plies). Only
    /// with no men on the board. The count starts when the class is entered (a capture or a
    /// promotion), as lidraughts' current code and pydraughts count it (docs/rules.md).
    fn endgame_draw_plies(white: u32, white_kings: u32, black: u32, black_kings: u32) -> u8 {
        if white != white_kings || black != black_kings {
            return 0;
        }
        match (white, black) {
            (2, 1) | (1, 2) => 14,
            (1, 1) => 4,
            _ => 0,
        }
    }
}
