//! `Draughts`: what the search, the protocols and perft need from a variant, so that variants that
//! do not fit "men and kings" (Italian Damone, with three ranks) plug in beside the
//! [`Rules`]-based ones. It is the sum of small traits, one per concern:
//!
//! - [`Play`] (in [`crate::core::play`]): the board-level game (position, start, side, key,
//!   copy-make, move generation and counting, captures into a sink, squares, piece letters);
//! - [`Notation`]: FEN, move names and move parsing (most of it written once in
//!   [`crate::core::notation`] over [`Play`]);
//! - [`DrawRules`]: the no-progress counter and irreversible moves;
//! - `Draughts`: their sum, implemented for every type with all three.
//!
//! Every [`Rules`] type is a `Draughts` through blanket impls; Damone implements each part in
//! [`crate::core::damone`]. With `G: Draughts`, `G::make(..)`, `G::fen(..)` and the like resolve
//! through the supertraits.
//!
//! The trait is named for what it is, a variant's whole rules, so that "game" means one thing
//! in damiera: a game played move by move (`VariantGame`, the match's games, DXP games, a
//! PDN file's `GameText`).

use crate::core::moves::Move;
use crate::core::notation::{self, FenError, MoveError};
use crate::core::position::Position;
use crate::core::rules::{Numbering, Rules};

pub use crate::core::play::Play;

/// A game's notation: FEN in and out, diagrams, move names in the variant's, PDN's and the Hub's
/// forms, and move parsing. Only the FEN is the game's own; the rest is provided, written once
/// over [`Play`] in [`crate::core::notation::moves`].
pub trait Notation: Play {
    /// Parses a FEN in the variant's notation.
    fn parse_fen(fen: &str) -> Result<Self::Position, FenError>;
    /// Parses a FEN whose numeric squares are in `numbering` (lidraughts' and PDN `N0`/`N2`
    /// Russian and Brazilian files); by default (Italian Damone, algebraic only) as
    /// [`Notation::parse_fen`].
    fn parse_fen_in(fen: &str, numbering: Numbering) -> Result<Self::Position, FenError> {
        let _ = numbering;
        Self::parse_fen(fen)
    }
    /// The FEN of a position.
    fn fen(pos: &Self::Position) -> String;
    /// An ASCII diagram of the position.
    fn diagram(pos: &Self::Position) -> String {
        notation::diagram(pos)
    }
    /// A move in the variant's notation (every landing square of a capture).
    fn move_name(pos: &Self::Position, mv: &Move) -> String {
        notation::move_name(pos, mv)
    }
    /// The `nth` path's name of a capture that several paths reach (for keep-mode divide);
    /// `nth` wraps around.
    fn move_name_nth(pos: &Self::Position, mv: &Move, nth: usize) -> String {
        notation::move_name_nth(pos, mv, nth)
    }
    /// A move in the shortest unambiguous PDN form: `from x to` for a capture unless another
    /// legal capture shares its from and to squares (then every landing square), as lidraughts
    /// and CheckerBoard write PDN.
    fn move_name_pdn(pos: &Self::Position, mv: &Move) -> String {
        notation::move_name_pdn(pos, mv)
    }
    /// A move in the Hub protocol's form (`from x to x captured...`).
    fn move_name_hub(mv: &Move) -> String {
        notation::move_name_hub::<Self>(mv)
    }
    /// Parses a move and finds it among the legal moves.
    fn parse_move(pos: &Self::Position, text: &str) -> Result<Move, MoveError> {
        notation::parse_move(pos, text)
    }
}

/// The name of a draw by the variant's no-progress counter ([`DrawRules::counter_draw`]).
pub const NO_PROGRESS_RULE: &str = "no-progress rule";
/// The name of a draw by an endgame counter ([`DrawRules::counter_draw`]): International's,
/// Frisian's and Frysk!'s limits on the moves to win an ending of few pieces.
pub const ENDGAME_RULE: &str = "endgame rule";

/// A game's draw rules as far as a position states them (repetition needs the history and is
/// the search's job).
pub trait DrawRules: Play {
    /// Whether the no-progress rule declares the game drawn (plies without a capture or, per
    /// variant, a man move or promotion; see docs/rules.md).
    fn draw_by_counter(pos: &Self::Position) -> bool;
    /// Which counter draws the game, in words, when [`draw_by_counter`](Self::draw_by_counter)
    /// does: [`NO_PROGRESS_RULE`] (plies without progress) or [`ENDGAME_RULE`] (the moves a
    /// side has to win an ending of few pieces: International's counters, FMJD 6.3 and 6.4,
    /// and Frisian's and Frysk!'s; docs/rules.md). `None` when no counter has run out.
    fn counter_draw(pos: &Self::Position) -> Option<&'static str> {
        Self::draw_by_counter(pos).then_some(NO_PROGRESS_RULE)
    }
    /// Whether positions before `mv` can never recur after it (it captures, crowns, or moves a
    /// man that can never come back): the bound of repetition look-ups. For Damone this is
    /// narrower than what resets the no-progress counter (Pedines move sideways both ways).
    fn is_irreversible(pos: &Self::Position, mv: &Move) -> bool;
    /// Whether the third occurrence of a position draws the game (every variant but Frisian
    /// and Frysk!, [`Rules::THREEFOLD_REPETITION`]).
    const THREEFOLD_REPETITION: bool = true;
}

/// A playable variant: [`Play`], [`Notation`] and [`DrawRules`]; every type with all three is
/// a `Draughts`. Evaluation is the engine's side (`Evaluate` in `engine::eval`), above the core.
pub trait Draughts: Play + Notation + DrawRules {}

impl<G: Play + Notation + DrawRules> Draughts for G {}

impl<R: Rules> Notation for R {
    fn parse_fen(fen: &str) -> Result<Position<R>, FenError> {
        notation::parse_fen(fen)
    }
    fn parse_fen_in(fen: &str, numbering: Numbering) -> Result<Position<R>, FenError> {
        notation::parse_fen_in(fen, numbering)
    }
    fn fen(pos: &Position<R>) -> String {
        notation::fen(pos)
    }
}

impl<R: Rules> DrawRules for R {
    const THREEFOLD_REPETITION: bool = R::THREEFOLD_REPETITION;
    #[inline(always)]
    fn draw_by_counter(pos: &Position<R>) -> bool {
        no_progress_out(pos) || pos.endgame_draw()
    }
    fn counter_draw(pos: &Position<R>) -> Option<&'static str> {
        if no_progress_out(pos) {
            Some(NO_PROGRESS_RULE)
        } else {
            pos.endgame_draw().then_some(ENDGAME_RULE)
        }
    }
    #[inline(always)]
    fn is_irreversible(pos: &Position<R>, mv: &Move) -> bool {
        let man = !pos.kings().contains(mv.from);
        R::resets_draw_counter(man, mv.is_capture(), mv.promotes)
    }
}

/// Whether `pos`'s no-progress counter has run out (`R::DRAW_PLIES` plies without progress; 0:
/// the variant has no such rule).
#[inline(always)]
fn no_progress_out<R: Rules>(pos: &Position<R>) -> bool {
    R::DRAW_PLIES > 0 && pos.quiet_plies() >= R::DRAW_PLIES
}
