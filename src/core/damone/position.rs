//! The Damone position: the pieces of each color, which of them are Damas and Damones, the
//! side to move, a no-progress ply counter (**Ruling I.5**) and a Zobrist key kept
//! incrementally, as a small `Copy` value with copy-make (like [`crate::core::position::Position`],
//! with three ranks instead of men and kings). Its FEN forms (`start`, `Default`, `Debug`)
//! live in [`super::notation`], which depends on this module, never the reverse.
//!
//! Zobrist keys: one random number per (color, rank, square) from splitmix64 with the seed
//! "damone", generated at compile time (the same on every build), and one for Black to move.

use super::rules::{promotion_squares, resets_draw_counter, Rank};
use crate::core::bitboard::{Bitboard, Square};
use crate::core::geometry::{Board8, Geometry};
use crate::core::moves::Move;
use crate::core::rules::Color;
use crate::core::zobrist::tables;

/// Keys indexed by `3 * color + rank`, then by internal square, and the side-to-move key.
const KEYS: ([[u64; 64]; 6], u64) = tables::<6>(0x0000_6461_6d6f_6e65); // "damone"

/// The Zobrist key of a piece of color `c` and rank `rank` on internal square `sq`.
#[inline(always)]
pub fn piece_key(c: Color, rank: Rank, sq: Square) -> u64 {
    KEYS.0[(3 * c as usize + rank as usize) % 6][(sq.0 & 63) as usize]
}

/// XORed into the key when Black (North) is to move.
pub const BLACK_TO_MOVE: u64 = KEYS.1;

/// A Damone position.
///
/// Invariants (debug-asserted): the colors do not overlap, Damas and Damones are disjoint
/// subsets of the pieces, every bit is a playable square. Pedines are the pieces that are
/// neither.
#[derive(Copy, Clone)]
pub struct Position {
    colors: [Bitboard; 2],
    damas: Bitboard,
    damones: Bitboard,
    key: u64,
    side: Color,
    quiet_plies: u8,
}

impl PartialEq for Position {
    /// Same pieces and side to move (the draw counter is not compared).
    fn eq(&self, o: &Self) -> bool {
        self.colors == o.colors
            && self.damas == o.damas
            && self.damones == o.damones
            && self.side == o.side
    }
}
impl Eq for Position {}

impl Position {
    /// A position from piece sets: `colors[c]` the pieces of color `c`, and which of them are
    /// Damas and Damones. The caller guarantees the invariants (the FEN parser checks them);
    /// the draw counter starts at 0.
    pub fn from_parts(
        colors: [Bitboard; 2],
        damas: Bitboard,
        damones: Bitboard,
        side: Color,
    ) -> Position {
        let mut p = Position {
            colors,
            damas,
            damones,
            key: 0,
            side,
            quiet_plies: 0,
        };
        p.key = p.compute_key();
        p.debug_check();
        p
    }

    #[inline(always)]
    fn debug_check(&self) {
        let all = self.colors[0] | self.colors[1];
        debug_assert!((self.colors[0] & self.colors[1]).is_empty());
        debug_assert!((self.damas & self.damones).is_empty());
        debug_assert!(((self.damas | self.damones) & !all).is_empty());
        debug_assert!((all & !Board8::ALL).is_empty());
    }

    /// The side to move.
    #[inline(always)]
    pub fn side(&self) -> Color {
        self.side
    }

    /// Every piece of `c`.
    #[inline(always)]
    pub fn pieces(&self, c: Color) -> Bitboard {
        self.colors[c as usize]
    }

    /// The pieces of `c` of rank `rank`.
    #[inline(always)]
    pub fn rank_of(&self, c: Color, rank: Rank) -> Bitboard {
        self.pieces(c) & self.ranked(rank)
    }

    /// Every piece of rank `rank`, either color.
    #[inline(always)]
    pub fn ranked(&self, rank: Rank) -> Bitboard {
        match rank {
            Rank::Pedine => (self.colors[0] | self.colors[1]) & !(self.damas | self.damones),
            Rank::Dama => self.damas,
            Rank::Damone => self.damones,
        }
    }

    /// The pieces of `c` that a piece of rank `rank` may capture: those of equal or lower
    /// rank (rules.md §D "Rank restriction").
    #[inline(always)]
    pub fn prey(&self, c: Color, rank: Rank) -> Bitboard {
        match rank {
            Rank::Pedine => self.pieces(c) & !(self.damas | self.damones),
            Rank::Dama => self.pieces(c) & !self.damones,
            Rank::Damone => self.pieces(c),
        }
    }

    /// Every occupied square.
    #[inline(always)]
    pub fn occupied(&self) -> Bitboard {
        self.colors[0] | self.colors[1]
    }

    /// Every empty playable square.
    #[inline(always)]
    pub fn empty(&self) -> Bitboard {
        Bitboard(Board8::ALL.0 & !self.occupied().0)
    }

    /// The rank of the piece on `sq`, if any.
    #[inline(always)]
    pub fn rank_at(&self, sq: Square) -> Option<Rank> {
        if self.damones.contains(sq) {
            Some(Rank::Damone)
        } else if self.damas.contains(sq) {
            Some(Rank::Dama)
        } else if self.occupied().contains(sq) {
            Some(Rank::Pedine)
        } else {
            None
        }
    }

    /// The piece on `sq`: its color and rank.
    pub fn piece_at(&self, sq: Square) -> Option<(Color, Rank)> {
        let rank = self.rank_at(sq)?;
        let c = if self.colors[0].contains(sq) {
            Color::White
        } else {
            Color::Black
        };
        Some((c, rank))
    }

    /// The Zobrist key (pieces and side to move).
    #[inline(always)]
    pub fn key(&self) -> u64 {
        self.key
    }

    /// Plies since the last capture, Pedine move or promotion (**Ruling I.5**), saturating at
    /// 255.
    #[inline(always)]
    pub fn quiet_plies(&self) -> u8 {
        self.quiet_plies
    }

    /// Sets the no-progress ply counter (from a protocol that carries it).
    pub fn set_quiet_plies(&mut self, plies: u8) {
        self.quiet_plies = plies;
    }

    /// The key computed from scratch; equals [`Position::key`] at all times.
    pub fn compute_key(&self) -> u64 {
        let mut k = 0;
        for c in [Color::White, Color::Black] {
            for rank in Rank::ALL {
                for sq in self.rank_of(c, rank) {
                    k ^= piece_key(c, rank, sq);
                }
            }
        }
        if self.side == Color::Black {
            k ^= BLACK_TO_MOVE;
        }
        k
    }

    /// The position after `mv`, which must be legal here: the side to move passes, the
    /// captured pieces go, a promoting piece goes up one rank, the key is updated
    /// incrementally and the draw counter is reset or advanced ([`resets_draw_counter`]).
    #[inline(always)]
    pub fn make(&self, mv: &Move) -> Position {
        let us = self.side;
        let them = us.opponent();
        let rank = self
            .rank_at(mv.from)
            .expect("a piece on the move's from square");
        debug_assert!(self.pieces(us).contains(mv.from));
        let new_rank = match (mv.promotes, rank.promoted()) {
            (true, Some(r)) => r,
            _ => rank,
        };
        debug_assert!(!mv.promotes || promotion_squares(us, rank).contains(mv.to));
        let from = Bitboard::from_square(mv.from);
        let to = Bitboard::from_square(mv.to);
        let mut p = *self;
        let mut key = self.key ^ BLACK_TO_MOVE;
        for sq in mv.captured {
            let r = self.rank_at(sq).expect("a captured piece");
            key ^= piece_key(them, r, sq);
        }
        key ^= piece_key(us, rank, mv.from) ^ piece_key(us, new_rank, mv.to);
        // from == to is possible (a capture back to its start square, ruling I.12).
        p.colors[us as usize] = (self.colors[us as usize] & !from) | to;
        p.colors[them as usize] = self.colors[them as usize] & !mv.captured;
        p.damas = (self.damas & !mv.captured & !from)
            | if new_rank == Rank::Dama {
                to
            } else {
                Bitboard::EMPTY
            };
        p.damones = (self.damones & !mv.captured & !from)
            | if new_rank == Rank::Damone {
                to
            } else {
                Bitboard::EMPTY
            };
        p.key = key;
        p.side = them;
        p.quiet_plies = if resets_draw_counter(rank, mv.is_capture(), mv.promotes) {
            0
        } else {
            self.quiet_plies.saturating_add(1)
        };
        p.debug_check();
        p
    }
}
