//! Antidraughts as lidraughts plays it: International draughts where the side that cannot move
//! wins.
//!
//! Source: lidraughts' rules engine (`modules/draughts/src/main/variant/Antidraughts.scala`:
//! the winner is the side to move when it has no valid move; `InsufficientWinningMaterial`:
//! no move-count draw in Antidraughts; position hashes cleared after a man move, a capture or a
//! promotion, so threefold repetition is the one draw). The moves are International's (FMJD
//! rules, [`super::International`]); docs/rules.md, "Antidraughts".

use super::international::International;
use super::rule_set::{Goal, Numbering, Precedence, Promotion, Rules};
use crate::core::geometry::Board10;
use crate::core::variant::Variant;

/// Antidraughts: International draughts' board, start and moves; a side without a legal move
/// (no pieces left, or all blocked) has won; drawn only by threefold repetition.
#[derive(Copy, Clone, Debug, Default)]
pub struct Antidraughts;

impl Rules for Antidraughts {
    type Board = Board10;
    const NAME: &'static str = "antidraughts";
    const VARIANT: Variant = Variant::Antidraughts;
    /// lidraughts: the International start (`standardInitialPosition`).
    const START_FEN: &'static str = International::START_FEN;
    const A1_DARK: bool = International::A1_DARK;
    const NUMBERING: Numbering = International::NUMBERING;
    const CAPTURE_SEPARATOR: char = International::CAPTURE_SEPARATOR;
    /// International's moves (FMJD 3.5, 4.3).
    const FLYING_KINGS: bool = International::FLYING_KINGS;
    /// FMJD 4.2.
    const MEN_CAPTURE_BACKWARD: bool = International::MEN_CAPTURE_BACKWARD;
    /// FMJD 4.1.
    const MEN_CAPTURE_KINGS: bool = International::MEN_CAPTURE_KINGS;
    /// FMJD 4.15.
    const PROMOTION: Promotion = International::PROMOTION;
    /// FMJD 4.13: the capture of the most pieces.
    const PRECEDENCE: Precedence = International::PRECEDENCE;
    /// lidraughts: no 25-move rule and no endgame counters in Antidraughts (0: none).
    const DRAW_PLIES: u8 = 0;
    /// lidraughts: the side to move without a valid move wins.
    const GOAL: Goal = Goal::NoMoveWins;

    /// A man move or a capture clears the repetition history (lidraughts clears it after a
    /// non-king move, a capture or a promotion; a promotion is a man move).
    fn resets_draw_counter(man_moved: bool, captured: bool, promoted: bool) -> bool {
        International::resets_draw_counter(man_moved, captured, promoted)
    }
}
