//! Breakthrough as lidraughts plays it (Scan's `bt`): International draughts where the first
//! side to make a king wins.
//!
//! Source: lidraughts' rules engine (`modules/draughts/src/main/variant/Breakthrough.scala`:
//! the game ends as soon as either side has a king, and that side wins; a side without a valid
//! move loses; "no drawing rules": the position hashes restart every move). The moves are
//! International's (FMJD rules, [`super::International`]); docs/rules.md, "Breakthrough".

use super::international::International;
use super::rule_set::{Goal, Numbering, Precedence, Promotion, Rules};
use crate::core::geometry::Board10;
use crate::core::variant::Variant;

/// Breakthrough: International draughts' board, start and moves; the first side to end a move
/// with a king has won (the opponent, to move, has no legal move); no draws.
#[derive(Copy, Clone, Debug, Default)]
pub struct Breakthrough;

impl Rules for Breakthrough {
    type Board = Board10;
    const NAME: &'static str = "breakthrough";
    const VARIANT: Variant = Variant::Breakthrough;
    /// lidraughts: the International start (`standardInitialPosition`).
    const START_FEN: &'static str = International::START_FEN;
    const A1_DARK: bool = International::A1_DARK;
    const NUMBERING: Numbering = International::NUMBERING;
    const CAPTURE_SEPARATOR: char = International::CAPTURE_SEPARATOR;
    /// International's moves (FMJD 3.5, 4.3); a king ends the game before it moves.
    const FLYING_KINGS: bool = International::FLYING_KINGS;
    /// FMJD 4.2.
    const MEN_CAPTURE_BACKWARD: bool = International::MEN_CAPTURE_BACKWARD;
    /// FMJD 4.1.
    const MEN_CAPTURE_KINGS: bool = International::MEN_CAPTURE_KINGS;
    /// FMJD 4.15: only a move that ends on the far row makes a king (and wins).
    const PROMOTION: Promotion = International::PROMOTION;
    /// FMJD 4.13: the capture of the most pieces.
    const PRECEDENCE: Precedence = International::PRECEDENCE;
    /// lidraughts: no drawing rules (0: no no-progress rule).
    const DRAW_PLIES: u8 = 0;
    /// lidraughts: a king wins.
    const GOAL: Goal = Goal::FirstKingWins;

    /// Every move before the end is a man's: each one is irreversible.
    fn resets_draw_counter(_man_moved: bool, _captured: bool, _promoted: bool) -> bool {
        true
    }
}
