//! `Game`: what the search, the protocols and perft need from a variant, so that variants that
//! do not fit "men and kings" (Italian Damone, with three ranks) plug in beside the
//! [`Rules`]-based ones. Every [`Rules`] type is a `Game` through a blanket impl; Damone
//! implements it directly.

use crate::core::movegen::{self, Duplicates};
use crate::core::moves::{Move, MoveList};
use crate::core::notation::{self, FenError, MoveError};
use crate::core::position::Position;
use crate::core::rules::{Color, Rules};
use std::fmt::Debug;

/// A playable variant: its position type, move generation, notation and draw rules.
pub trait Game: Copy + Default + Send + Sync + Debug + 'static {
    /// The position: a small `Copy` value with its Zobrist key.
    type Position: Copy + Eq + Send + Sync + Debug;
    /// The name the CLI and protocols use.
    const NAME: &'static str;
    /// The runtime variant this is.
    const VARIANT: crate::core::variant::Variant;
    /// The number of playable squares of the board (32 on 8x8, 50 on 10x10).
    const SQUARES: u8;

    /// The start position.
    fn start() -> Self::Position;
    /// Parses a FEN in the variant's notation.
    fn parse_fen(fen: &str) -> Result<Self::Position, FenError>;
    /// The FEN of a position.
    fn fen(pos: &Self::Position) -> String;
    /// An ASCII diagram of the position.
    fn diagram(pos: &Self::Position) -> String;
    /// The side to move.
    fn side(pos: &Self::Position) -> Color;
    /// The Zobrist key.
    fn key(pos: &Self::Position) -> u64;
    /// The position after a legal move.
    fn make(pos: &Self::Position, mv: &Move) -> Self::Position;
    /// All legal moves into `list` (cleared first), with a duplicate policy.
    fn generate(pos: &Self::Position, list: &mut MoveList, dups: Duplicates);
    /// The legal captures into `list` (cleared first; empty when there is none).
    fn generate_captures(pos: &Self::Position, list: &mut MoveList);
    /// The number of legal moves (bulk counting).
    fn count(pos: &Self::Position, dups: Duplicates) -> u64;
    /// Whether the side to move has a legal move (false: it has lost).
    fn has_moves(pos: &Self::Position) -> bool;
    /// Whether the side not to move would have a capture if it were its turn (a threat the
    /// quiescence search must not ignore).
    fn threatened(pos: &Self::Position) -> bool;
    /// The number of pieces on the board (the game phase, for time management).
    fn piece_count(pos: &Self::Position) -> u32;
    /// perft: leaves `depth` plies below `pos`.
    fn perft(pos: &Self::Position, depth: u32, dups: Duplicates) -> u64;
    /// A move in the variant's notation (every landing square of a capture).
    fn move_name(pos: &Self::Position, mv: &Move) -> String;
    /// The `nth` path's name of a capture that several paths reach (for keep-mode divide);
    /// `nth` wraps around.
    fn move_name_nth(pos: &Self::Position, mv: &Move, nth: usize) -> String;
    /// A move in the shortest unambiguous PDN form: `from x to` for a capture unless another
    /// legal capture shares its from and to squares (then every landing square), as lidraughts
    /// and CheckerBoard write PDN.
    fn move_name_pdn(pos: &Self::Position, mv: &Move) -> String;
    /// A move in the Hub protocol's form (`from x to x captured...`).
    fn move_name_hub(mv: &Move) -> String;
    /// Parses a move and finds it among the legal moves.
    fn parse_move(pos: &Self::Position, text: &str) -> Result<Move, MoveError>;
    /// Whether the no-progress rule declares the game drawn (plies without a capture or, per
    /// variant, a man move or promotion; see docs/rules.md).
    fn draw_by_counter(pos: &Self::Position) -> bool;
    /// The static evaluation in centi-men from the side to move's point of view.
    fn evaluate(pos: &Self::Position) -> i32;
    /// The position as 32-bit square sets (the learned evaluation's and the training data's
    /// form, [`crate::engine::eval::Planes`]).
    fn planes(pos: &Self::Position) -> crate::engine::eval::Planes;
    /// The position of valid [`crate::engine::eval::Planes`] (disjoint colours, ranks within the
    /// pieces), with the no-progress counter at 0: the inverse of [`Game::planes`].
    fn from_planes(p: &crate::engine::eval::Planes) -> Self::Position;
    /// Whether positions before `mv` can never recur after it (it captures, crowns, or moves a
    /// man that can never come back): the bound of repetition look-ups. For Damone this is
    /// narrower than what resets the no-progress counter (Pedines move sideways both ways).
    fn is_irreversible(pos: &Self::Position, mv: &Move) -> bool;
}

impl<R: Rules> Game for R {
    type Position = Position<R>;
    const NAME: &'static str = R::NAME;
    const VARIANT: crate::core::variant::Variant = R::VARIANT;
    const SQUARES: u8 = <R::Board as crate::core::geometry::Geometry>::SQUARES;

    fn start() -> Position<R> {
        Position::start()
    }
    fn parse_fen(fen: &str) -> Result<Position<R>, FenError> {
        notation::parse_fen(fen)
    }
    fn fen(pos: &Position<R>) -> String {
        notation::fen(pos)
    }
    fn diagram(pos: &Position<R>) -> String {
        notation::diagram(pos)
    }
    #[inline(always)]
    fn side(pos: &Position<R>) -> Color {
        pos.side()
    }
    #[inline(always)]
    fn key(pos: &Position<R>) -> u64 {
        pos.key()
    }
    #[inline(always)]
    fn make(pos: &Position<R>, mv: &Move) -> Position<R> {
        pos.make(mv)
    }
    #[inline(always)]
    fn generate(pos: &Position<R>, list: &mut MoveList, dups: Duplicates) {
        movegen::generate_with(pos, list, dups)
    }
    #[inline(always)]
    fn generate_captures(pos: &Position<R>, list: &mut MoveList) {
        movegen::generate_captures(pos, list)
    }
    #[inline(always)]
    fn count(pos: &Position<R>, dups: Duplicates) -> u64 {
        movegen::count(pos, dups)
    }
    #[inline(always)]
    fn has_moves(pos: &Position<R>) -> bool {
        movegen::has_moves(pos)
    }
    #[inline(always)]
    fn threatened(pos: &Position<R>) -> bool {
        movegen::threatened(pos)
    }
    fn piece_count(pos: &Position<R>) -> u32 {
        pos.occupied().count()
    }
    fn perft(pos: &Position<R>, depth: u32, dups: Duplicates) -> u64 {
        crate::core::perft::perft(pos, depth, dups)
    }
    fn move_name(pos: &Position<R>, mv: &Move) -> String {
        notation::move_name(pos, mv)
    }
    fn move_name_nth(pos: &Position<R>, mv: &Move, nth: usize) -> String {
        notation::move_name_nth(pos, mv, nth)
    }
    fn move_name_pdn(pos: &Position<R>, mv: &Move) -> String {
        notation::move_name_pdn(pos, mv)
    }
    fn move_name_hub(mv: &Move) -> String {
        notation::move_name_hub::<R>(mv)
    }
    fn parse_move(pos: &Position<R>, text: &str) -> Result<Move, MoveError> {
        notation::parse_move(pos, text)
    }
    #[inline(always)]
    fn draw_by_counter(pos: &Position<R>) -> bool {
        pos.quiet_plies() >= R::DRAW_PLIES || pos.endgame_draw()
    }
    #[inline(always)]
    fn evaluate(pos: &Position<R>) -> i32 {
        crate::engine::eval::evaluate(pos)
    }
    #[inline(always)]
    fn planes(pos: &Position<R>) -> crate::engine::eval::Planes {
        crate::engine::eval::planes(pos)
    }
    fn from_planes(p: &crate::engine::eval::Planes) -> Position<R> {
        use crate::core::bitboard::Bitboard;
        use crate::engine::eval::unpack;
        let side = if p.black_to_move {
            Color::Black
        } else {
            Color::White
        };
        Position::from_parts(
            Bitboard(unpack::<R>(p.white)),
            Bitboard(unpack::<R>(p.black)),
            Bitboard(unpack::<R>(p.rank2 | p.rank3)),
            side,
        )
    }
    #[inline(always)]
    fn is_irreversible(pos: &Position<R>, mv: &Move) -> bool {
        let man = !pos.kings().contains(mv.from);
        R::resets_draw_counter(man, mv.is_capture(), mv.promotes)
    }
}
