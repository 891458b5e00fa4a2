//! Italian Damone: draughts with three ranks of pieces (Pedine < Dama < Damone) on the Italian
//! board (h1 dark). It does not fit "men and kings", so it has its own position type, move
//! generator and notation beside the [`crate::core::rules::Rules`] variants, and plugs into the
//! engine through [`Game`] (design.md, "Variants").
//!
//! Sources (rules.md §D, with the project's rulings §I 1-5, which win where they speak):
//! Wikipedia "Italian Damone" (intro), pergioco.net/2/damone.html (coordinates),
//! boardgamesoftheworld.com/damone.html, Mats Winther's Zillions notes, and the Dagaz
//! implementation (`DagazProject` `checkers/scripts/italian-damone*.js`) for set-up squares.
//! The rules are documented, each with its source, in `docs/rules.md` ("Italian Damone").
//!
//! Modules: [`position`] (the `Copy` position with its Zobrist key), [`movegen`] (tiered move
//! generation), [`notation`] (FEN, squares, moves), [`eval`] (a static evaluation).

pub mod eval;
pub mod movegen;
pub mod notation;
pub mod position;

pub use position::Position;

use crate::core::bitboard::{Bitboard, Square};
use crate::core::game::Game;
use crate::core::geometry::Dir;
use crate::core::movegen::Duplicates;
use crate::core::moves::{Move, MoveList};
use crate::core::notation::{FenError, MoveError};
use crate::core::rules::Color;

/// The rank of a piece. A piece captures only pieces of equal or lower rank (rules.md §D,
/// "Rank restriction": Wikipedia, pergioco, Dagaz).
#[derive(Copy, Clone, PartialEq, Eq, PartialOrd, Ord, Debug, Hash)]
pub enum Rank {
    /// The lowest rank: moves and captures forward and sideways (3 directions).
    Pedine = 0,
    /// The middle rank: moves and captures one square in all 4 directions.
    Dama = 1,
    /// The highest rank ("Imperatore" in the FEN letter `I`): like a Dama, and captures
    /// everything.
    Damone = 2,
}

impl Rank {
    /// All ranks, lowest first.
    pub const ALL: [Rank; 3] = [Rank::Pedine, Rank::Dama, Rank::Damone];

    /// The rank a piece of this rank becomes on its promotion square (none for a Damone).
    pub const fn promoted(self) -> Option<Rank> {
        match self {
            Rank::Pedine => Some(Rank::Dama),
            Rank::Dama => Some(Rank::Damone),
            Rank::Damone => None,
        }
    }
}

/// The internal square of a real `(file, rank)`, both 0-based (`a1` = (0, 0)). On the Italian
/// board (h1 dark) the geometry's column is the real file (see [`crate::core::geometry`]); the
/// square must be dark (`file + rank` odd).
pub const fn square(file: u8, rank: u8) -> Square {
    debug_assert!((file + rank) % 2 == 1 && file < 8 && rank < 8);
    Square((9 * rank + file - 1) / 2)
}

const fn bb(file: u8, rank: u8) -> Bitboard {
    Bitboard::from_square(square(file, rank))
}

/// The start position: South (White, Damone on h1) against North (Black, Damone on a8).
/// Set-up squares: pergioco (explicit coordinates) and Dagaz (same squares, colours named the
/// other way round). First move: **Ruling I.1**, South moves first.
pub const START_FEN: &str = "W:WIh1,Kf1,Kh3,d1,e2,f3,g4,h5:BIa8,Kc8,Ka6,e8,d7,c6,b5,a4";

/// The directions a Pedine moves and captures in, per colour (`Color as usize`): forward,
/// toward the enemy Damone's corner, and the two sideways directions; never backward.
/// South (White): forward NW, sideways NE and SW; North (Black): forward SE, sideways NE and
/// SW (pergioco's example: a White Pedine on e4 goes to d3, d5 or f5; Wikipedia; Dagaz).
pub const PEDINE_DIRS: [[Dir; 3]; 2] = [[Dir::NW, Dir::NE, Dir::SW], [Dir::SE, Dir::NE, Dir::SW]];

/// Where a Pedine becomes a Dama, per colour: the squares the enemy Damas start on (a6, c8
/// for White; f1, h3 for Black) and no other (pergioco; Dagaz).
pub const PEDINE_PROMOTION: [Bitboard; 2] = [
    Bitboard(bb(0, 5).0 | bb(2, 7).0),
    Bitboard(bb(5, 0).0 | bb(7, 2).0),
];

/// Where a Dama becomes a Damone, per colour: the enemy Damone's starting corner (a8 for
/// White, h1 for Black) (pergioco; Dagaz).
pub const DAMA_PROMOTION: [Bitboard; 2] = [bb(0, 7), bb(7, 0)];

/// The promotion squares of a piece of rank `rank` and colour `c` (empty for a Damone).
/// **Ruling I.2**: only these real promotions stop a capture. A Dama on an enemy Dama's
/// start square goes on capturing, and a Pedine on the enemy Damone's corner stays a Pedine.
#[inline(always)]
pub const fn promotion_squares(c: Color, rank: Rank) -> Bitboard {
    match rank {
        Rank::Pedine => PEDINE_PROMOTION[c as usize],
        Rank::Dama => DAMA_PROMOTION[c as usize],
        Rank::Damone => Bitboard::EMPTY,
    }
}

/// **Ruling I.2**: a promotion reached by a capture ends the move there, as in Italian
/// draughts (Dagaz does the same; no text source says so).
pub const PROMOTION_ENDS_CAPTURE: bool = true;

/// **Ruling I.5**: the game is drawn after 40 moves by each side (80 plies) with no capture,
/// no Pedine move and no promotion. (Repetition, the third occurrence of a position with the
/// same side to move, needs the game history and is the search's job.)
pub const DRAW_PLIES: u8 = 80;

/// Whether a move resets the no-progress counter of [`DRAW_PLIES`] (**Ruling I.5**): a capture,
/// a Pedine move or a promotion.
#[inline(always)]
pub const fn resets_draw_counter(rank: Rank, captured: bool, promoted: bool) -> bool {
    captured || promoted || matches!(rank, Rank::Pedine)
}

/// When a side has lost (**Ruling I.4**; the option `DamoneWin`).
#[derive(Copy, Clone, PartialEq, Eq, Debug, Default)]
pub enum DamoneWin {
    /// The default: a side with no legal move (all captured or all blocked) loses (Wikipedia;
    /// Winther).
    #[default]
    All,
    /// The variant rule (Wikipedia; Winther): also a side that has lost all its Damones loses.
    Damones,
}

impl DamoneWin {
    /// The rule from the option's yes/no form: `true` is [`DamoneWin::Damones`] (losing the
    /// last Damone loses), `false` the default [`DamoneWin::All`].
    pub const fn damones(yes: bool) -> DamoneWin {
        if yes {
            DamoneWin::Damones
        } else {
            DamoneWin::All
        }
    }
}

/// Whether the side to move has lost under the end-of-game rule `win` (**Ruling I.4**).
pub fn is_lost(pos: &Position, win: DamoneWin) -> bool {
    (win == DamoneWin::Damones && pos.rank_of(pos.side(), Rank::Damone).is_empty())
        || !movegen::has_moves(pos)
}

/// Italian Damone as a [`Game`], with the end-of-game rule of ruling I.4 as a parameter:
/// `DAMONES_WIN = false` is the default [`DamoneWin::All`], `true` is [`DamoneWin::Damones`]
/// (a side to move without a Damone has lost: it has no legal move).
#[derive(Copy, Clone, Debug, Default)]
pub struct DamoneGame<const DAMONES_WIN: bool>;

/// Italian Damone with the default end of game (no legal move loses).
pub type Damone = DamoneGame<false>;

/// Whether the side to move has lost its last Damone, under the `Damones` rule.
#[inline(always)]
fn lost_damones<const DAMONES_WIN: bool>(pos: &Position) -> bool {
    DAMONES_WIN && pos.rank_of(pos.side(), Rank::Damone).is_empty()
}

impl<const DAMONES_WIN: bool> Game for DamoneGame<DAMONES_WIN> {
    type Position = Position;
    const NAME: &'static str = "damone";
    const VARIANT: crate::core::variant::Variant = crate::core::variant::Variant::Damone;
    const SQUARES: u8 = <crate::core::geometry::Board8 as crate::core::geometry::Geometry>::SQUARES;

    fn start() -> Position {
        Position::start()
    }
    fn parse_fen(fen: &str) -> Result<Position, FenError> {
        notation::parse_fen(fen)
    }
    fn fen(pos: &Position) -> String {
        notation::fen(pos)
    }
    fn diagram(pos: &Position) -> String {
        notation::diagram(pos)
    }
    #[inline(always)]
    fn side(pos: &Position) -> Color {
        pos.side()
    }
    #[inline(always)]
    fn key(pos: &Position) -> u64 {
        pos.key()
    }
    #[inline(always)]
    fn make(pos: &Position, mv: &Move) -> Position {
        pos.make(mv)
    }
    #[inline(always)]
    fn generate(pos: &Position, list: &mut MoveList, dups: Duplicates) {
        if lost_damones::<DAMONES_WIN>(pos) {
            list.clear();
        } else {
            movegen::generate_with(pos, list, dups)
        }
    }
    #[inline(always)]
    fn generate_captures(pos: &Position, list: &mut MoveList) {
        if lost_damones::<DAMONES_WIN>(pos) {
            list.clear();
        } else {
            movegen::generate_captures(pos, list)
        }
    }
    #[inline(always)]
    fn count(pos: &Position, dups: Duplicates) -> u64 {
        if lost_damones::<DAMONES_WIN>(pos) {
            0
        } else {
            movegen::count(pos, dups)
        }
    }
    #[inline(always)]
    fn has_moves(pos: &Position) -> bool {
        let win = if DAMONES_WIN {
            DamoneWin::Damones
        } else {
            DamoneWin::All
        };
        !is_lost(pos, win)
    }
    #[inline(always)]
    fn threatened(pos: &Position) -> bool {
        movegen::threatened(pos)
    }
    fn piece_count(pos: &Position) -> u32 {
        pos.occupied().count()
    }
    fn perft(pos: &Position, depth: u32, dups: Duplicates) -> u64 {
        if DAMONES_WIN && depth > 0 && lost_damones::<DAMONES_WIN>(pos) {
            0
        } else if DAMONES_WIN {
            // The plain generator's perft does not know the option: walk it here.
            let mut list = MoveList::new();
            Self::generate(pos, &mut list, dups);
            match depth {
                0 => 1,
                1 => list.len() as u64,
                _ => list
                    .iter()
                    .map(|mv| Self::perft(&pos.make(mv), depth - 1, dups))
                    .sum(),
            }
        } else {
            movegen::perft(pos, depth, dups)
        }
    }
    fn move_name(pos: &Position, mv: &Move) -> String {
        notation::move_name(pos, mv)
    }
    fn move_name_nth(pos: &Position, mv: &Move, nth: usize) -> String {
        notation::move_name_nth(pos, mv, nth)
    }
    fn move_name_pdn(pos: &Position, mv: &Move) -> String {
        notation::move_name_pdn(pos, mv)
    }
    fn move_name_hub(mv: &Move) -> String {
        notation::move_name_hub(mv)
    }
    fn parse_move(pos: &Position, text: &str) -> Result<Move, MoveError> {
        notation::parse_move(pos, text)
    }
    #[inline(always)]
    fn draw_by_counter(pos: &Position) -> bool {
        pos.quiet_plies() >= DRAW_PLIES
    }
    fn evaluate(pos: &Position) -> i32 {
        match crate::engine::eval::weights(crate::core::variant::Variant::Damone) {
            Some(net) => net.evaluate::<false>(&Self::planes(pos), false),
            None => eval::evaluate(pos),
        }
    }
    #[inline(always)]
    fn planes(pos: &Position) -> crate::engine::eval::Planes {
        use crate::engine::eval::dense;
        crate::engine::eval::Planes {
            white: dense(pos.pieces(Color::White).0) as u64,
            black: dense(pos.pieces(Color::Black).0) as u64,
            rank2: dense(pos.ranked(Rank::Dama).0) as u64,
            rank3: dense(pos.ranked(Rank::Damone).0) as u64,
            black_to_move: pos.side() == Color::Black,
        }
    }
    fn from_planes(p: &crate::engine::eval::Planes) -> Position {
        use crate::engine::eval::padded;
        let side = if p.black_to_move {
            Color::Black
        } else {
            Color::White
        };
        Position::from_parts(
            [
                Bitboard(padded(p.white as u32)),
                Bitboard(padded(p.black as u32)),
            ],
            Bitboard(padded(p.rank2 as u32)),
            Bitboard(padded(p.rank3 as u32)),
            side,
        )
    }
    #[inline(always)]
    fn is_irreversible(_pos: &Position, mv: &Move) -> bool {
        // Not `resets_draw_counter`: a Pedine moves sideways both ways (d7-e8-d7), so a
        // Pedine move resets the no-progress counter (ruling I.5) but positions before it can
        // recur. Only a capture or a promotion can never be undone.
        mv.is_capture() || mv.promotes
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::geometry::{Board8, Geometry};

    #[test]
    fn square_matches_geometry() {
        for rank in 0..8u8 {
            for file in 0..8u8 {
                if (file + rank) % 2 == 1 {
                    assert_eq!(Board8::square_at(file, rank), Some(square(file, rank)));
                }
            }
        }
    }
}
