//! `Play`: a variant at board level, what perft, notation and move generation need from a variant:
//! its position type, the start, the side to move, the key, copy-make, move generation into a
//! list or a visitor, bulk counting, captures walked into a [`CaptureSink`], the names of
//! squares and the letters of pieces.
//!
//! Every [`Rules`] type plays through a blanket impl here; Italian Damone, which has its own
//! position and walker, implements it in [`crate::core::damone`]. What is written once over
//! `Play` serves both: [`Play::generate_captures`], [`crate::core::perft`], and the move
//! names, move parsing and diagrams of [`crate::core::notation`].
//! [`crate::core::draughts::Draughts`] is `Play` plus notation and draw rules.

use crate::core::bitboard::Square;
use crate::core::geometry::Geometry;
use crate::core::movegen::{self, CaptureSink, Duplicates, ListSink, MoveVisitor};
use crate::core::moves::{Move, MoveList};
use crate::core::position::Position;
use crate::core::rules::{Color, Goal, Numbering, Rules};
use crate::core::squares::{self, SquareError};
use crate::core::variant::Variant;
use std::fmt::Debug;

/// A position type that knows its variant, so that notation can take a position alone
/// (`notation::move_name(&pos, &mv)`, whatever the variant). A position's [`Play`] type is the
/// variant with its default rule options: notation reads and names moves by the rules of
/// movement.
pub trait PlayPosition: Copy + Eq + Send + Sync + Debug {
    /// The variant whose position this is.
    type Play: Play<Position = Self>;
}

/// A variant at board level: position, moves, squares and pieces (see the module docs).
pub trait Play: Copy + Default + Send + Sync + Debug + 'static {
    /// The position: a small `Copy` value with its Zobrist key.
    type Position: PlayPosition;
    /// The name the CLI and protocols use.
    const NAME: &'static str;
    /// The runtime variant this is.
    const VARIANT: Variant;
    /// The number of playable squares of the board (32 on 8x8, 50 on 10x10).
    const SQUARES: u8;
    /// The board's files (8 or 10).
    const FILES: u8;
    /// The board's ranks (8 or 10).
    const RANKS: u8;
    /// The separator between the squares of a capture in PDN (`x` or `:`).
    const CAPTURE_SEPARATOR: char;
    /// How the variant's notation names squares ([`Rules::NUMBERING`]; Italian Damone
    /// algebraic).
    const NUMBERING: Numbering;
    /// Whether kings fly (move and capture along whole free diagonals).
    const FLYING_KINGS: bool;
    /// How a game is won ([`Goal`]): what a side to move without a legal move has done (lost,
    /// or in Antidraughts won). In Breakthrough a side facing the opponent's king has no legal
    /// move.
    const GOAL: Goal = Goal::Standard;

    /// The start position.
    fn start() -> Self::Position;
    /// The side to move.
    fn side(pos: &Self::Position) -> Color;
    /// The Zobrist key.
    fn key(pos: &Self::Position) -> u64;
    /// The position after a legal move.
    fn make(pos: &Self::Position, mv: &Move) -> Self::Position;
    /// All legal moves into `list` (cleared first), with a duplicate policy.
    fn generate(pos: &Self::Position, list: &mut MoveList, dups: Duplicates);
    /// Calls `visitor` with every legal move: the moves of [`Play::generate`], in its order
    /// (perft's inner loop; by default through a list).
    #[inline(always)]
    fn for_each_move<V: MoveVisitor>(pos: &Self::Position, dups: Duplicates, visitor: &mut V) {
        let mut list = MoveList::new();
        Self::generate(pos, &mut list, dups);
        for mv in list.iter() {
            visitor.visit(*mv);
        }
    }
    /// The number of legal moves (bulk counting).
    fn count(pos: &Self::Position, dups: Duplicates) -> u64;
    /// Whether the side to move has a legal move (false: it has lost).
    fn has_moves(pos: &Self::Position) -> bool;
    /// Whether the side to move has a legal capture (bitwise, without generating it).
    fn has_captures(pos: &Self::Position) -> bool;
    /// Whether the side not to move would have a capture if it were its turn (a threat the
    /// quiescence search must not ignore).
    fn threatened(pos: &Self::Position) -> bool;
    /// Every capture sequence of the side to move into `sink`, each with its precedence key
    /// (larger is preferred), reporting landing squares if `K::PATHS`.
    fn captures_into<K: CaptureSink>(pos: &Self::Position, sink: &mut K);
    /// The legal captures into `list` (cleared first; empty when there is none). Since capture
    /// is compulsory, a non-empty result is exactly the legal move list.
    #[inline]
    fn generate_captures(pos: &Self::Position, list: &mut MoveList) {
        list.clear();
        if Self::has_captures(pos) {
            let mut sink = ListSink {
                list,
                best: 0,
                dups: Duplicates::Drop,
            };
            Self::captures_into(pos, &mut sink);
        }
    }
    /// Whether the game ended before the side to move moves by a rule other than having no
    /// move: in Breakthrough ([`Goal::FirstKingWins`]) the opponent has made a king. False
    /// in every other variant (the default).
    fn opponent_crowned(_pos: &Self::Position) -> bool {
        false
    }
    /// The number of pieces on the board (the game phase, for time management).
    fn piece_count(pos: &Self::Position) -> u32;
    /// The name of a square in the variant's notation (`"29"`, `"c3"`).
    fn square_name(sq: Square) -> String;
    /// Parses a square name in the variant's notation.
    fn parse_square(text: &str) -> Result<Square, SquareError>;
    /// The order squares are listed in (by number, or by file then rank).
    fn square_order(sq: Square) -> (u8, u8);
    /// The square at a real `(file, rank)`, both 0-based from White's bottom-left, if it is a
    /// playable (dark) square.
    fn square_at(file: u8, rank: u8) -> Option<Square>;
    /// The diagram letter of the piece on `sq`, if any (Rules variants: `w`/`b` men, `W`/`B`
    /// kings; Damone: `P`/`K`/`I` White, lower case Black).
    fn piece_letter(pos: &Self::Position, sq: Square) -> Option<char>;

    /// The square numbered `n` (1-based) in `numbering` on this board (the dark squares from
    /// [`Play::square_at`]), whatever numbering the variant writes; `None` off the board or
    /// for [`Numbering::Algebraic`].
    fn numbered_square(numbering: Numbering, n: u32) -> Option<Square> {
        let a1_dark = Self::square_at(0, 0).is_some();
        let (file, rank) =
            squares::numbered_file_rank(numbering, Self::FILES, Self::RANKS, a1_dark, n)?;
        Self::square_at(file, rank)
    }
}

/// Whether the game is over before the side to move moves, by a rule other than having no
/// move: in Breakthrough ([`Goal::FirstKingWins`]) the opponent has a king. Folded away in the
/// other variants.
#[inline(always)]
fn over<R: Rules>(pos: &Position<R>) -> bool {
    R::GOAL == Goal::FirstKingWins && pos.kings_of(pos.side().opponent()).any()
}

impl<R: Rules> PlayPosition for Position<R> {
    type Play = R;
}

impl<R: Rules> Play for R {
    type Position = Position<R>;
    const NAME: &'static str = R::NAME;
    const VARIANT: Variant = R::VARIANT;
    const SQUARES: u8 = R::Board::SQUARES;
    const FILES: u8 = R::Board::WIDTH;
    const RANKS: u8 = R::Board::HEIGHT;
    const CAPTURE_SEPARATOR: char = R::CAPTURE_SEPARATOR;
    const NUMBERING: Numbering = R::NUMBERING;
    const FLYING_KINGS: bool = R::FLYING_KINGS;
    const GOAL: Goal = R::GOAL;

    fn start() -> Position<R> {
        Position::start()
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
        if over::<R>(pos) {
            list.clear();
        } else {
            movegen::generate_with(pos, list, dups)
        }
    }
    #[inline(always)]
    fn for_each_move<V: MoveVisitor>(pos: &Position<R>, dups: Duplicates, visitor: &mut V) {
        if !over::<R>(pos) {
            movegen::for_each_move(pos, dups, visitor)
        }
    }
    #[inline(always)]
    fn count(pos: &Position<R>, dups: Duplicates) -> u64 {
        if over::<R>(pos) {
            0
        } else {
            movegen::count(pos, dups)
        }
    }
    #[inline(always)]
    fn has_moves(pos: &Position<R>) -> bool {
        !over::<R>(pos) && movegen::has_moves(pos)
    }
    #[inline(always)]
    fn has_captures(pos: &Position<R>) -> bool {
        !over::<R>(pos) && movegen::has_captures(pos)
    }
    #[inline(always)]
    fn threatened(pos: &Position<R>) -> bool {
        movegen::threatened(pos)
    }
    #[inline(always)]
    fn captures_into<K: CaptureSink>(pos: &Position<R>, sink: &mut K) {
        if !over::<R>(pos) {
            movegen::captures_into(pos, sink)
        }
    }
    #[inline(always)]
    fn opponent_crowned(pos: &Position<R>) -> bool {
        over::<R>(pos)
    }
    fn piece_count(pos: &Position<R>) -> u32 {
        pos.occupied().count()
    }
    fn square_name(sq: Square) -> String {
        squares::square_name::<R>(sq)
    }
    fn parse_square(text: &str) -> Result<Square, SquareError> {
        squares::parse_square::<R>(text)
    }
    fn square_order(sq: Square) -> (u8, u8) {
        squares::sort_key::<R>(sq)
    }
    fn square_at(file: u8, rank: u8) -> Option<Square> {
        squares::from_file_rank::<R>(file, rank)
    }
    /// `w`/`b` men, `W`/`B` kings.
    fn piece_letter(pos: &Position<R>, sq: Square) -> Option<char> {
        pos.piece_at(sq).map(|piece| match piece {
            (Color::White, false) => 'w',
            (Color::White, true) => 'W',
            (Color::Black, false) => 'b',
            (Color::Black, true) => 'B',
        })
    }
}
