//! `Position`: the board, the side to move and a Zobrist key, as a small `Copy` value.
//!
//! Copy-make: [`Position::make`] returns the position after a move and leaves `self` alone, as
//! Scan's `succ` does; there is no unmake and no state stack. The key is updated incrementally
//! and equals [`Position::compute_key`] after every move (checked by a test on random games).
//!
//! Its FEN forms (`start`, the `Debug` form) live in [`crate::core::notation::fen`], which
//! depends on this module, never the reverse.

use crate::core::bitboard::{Bitboard, Square};
use crate::core::geometry::Geometry;
use crate::core::moves::Move;
use crate::core::rules::{Color, Rules};
use crate::core::zobrist::{self, Key};
use std::marker::PhantomData;

/// A position of variant `R`: white and black pieces, which of them are kings, the side to
/// move, plies since the last draw-counter reset, and the Zobrist key.
///
/// Invariants (debug-asserted): the colors do not overlap, `kings` is a subset of the
/// pieces, and every bit is a playable square of `R::Board`.
pub struct Position<R: Rules> {
    white: Bitboard,
    black: Bitboard,
    kings: Bitboard,
    key: Key,
    side: Color,
    quiet_plies: u8,
    /// Plies since the position entered its endgame class ([`Rules::endgame_draw_plies`]);
    /// 0 in variants without endgame counters.
    endgame_plies: u8,
    _rules: PhantomData<R>,
}

impl<R: Rules> Clone for Position<R> {
    #[inline(always)]
    fn clone(&self) -> Self {
        *self
    }
}
impl<R: Rules> Copy for Position<R> {}

impl<R: Rules> PartialEq for Position<R> {
    /// Same pieces and side to move (the draw counter is not compared).
    fn eq(&self, o: &Self) -> bool {
        self.white == o.white
            && self.black == o.black
            && self.kings == o.kings
            && self.side == o.side
    }
}
impl<R: Rules> Eq for Position<R> {}

impl<R: Rules> Position<R> {
    /// A position from piece sets. The caller guarantees the invariants (the FEN parser checks
    /// them and reports errors); `quiet_plies` starts at 0.
    pub fn from_parts(white: Bitboard, black: Bitboard, kings: Bitboard, side: Color) -> Self {
        let mut p = Position {
            white,
            black,
            kings,
            key: 0,
            side,
            quiet_plies: 0,
            endgame_plies: 0,
            _rules: PhantomData,
        };
        p.key = p.compute_key();
        p.debug_check();
        p
    }

    #[inline(always)]
    fn debug_check(&self) {
        debug_assert!((self.white & self.black).is_empty());
        debug_assert!((self.kings & !(self.white | self.black)).is_empty());
        debug_assert!(((self.white | self.black) & !R::Board::ALL).is_empty());
    }

    /// The side to move.
    #[inline(always)]
    pub fn side(&self) -> Color {
        self.side
    }

    /// Every piece of `c`.
    #[inline(always)]
    pub fn pieces(&self, c: Color) -> Bitboard {
        match c {
            Color::White => self.white,
            Color::Black => self.black,
        }
    }

    /// The men of `c`.
    #[inline(always)]
    pub fn men(&self, c: Color) -> Bitboard {
        self.pieces(c) & !self.kings
    }

    /// The kings of `c`.
    #[inline(always)]
    pub fn kings_of(&self, c: Color) -> Bitboard {
        self.pieces(c) & self.kings
    }

    /// Every king of either side.
    #[inline(always)]
    pub fn kings(&self) -> Bitboard {
        self.kings
    }

    /// Every occupied square.
    #[inline(always)]
    pub fn occupied(&self) -> Bitboard {
        self.white | self.black
    }

    /// Every empty playable square.
    #[inline(always)]
    pub fn empty(&self) -> Bitboard {
        R::Board::ALL & !(self.white | self.black)
    }

    /// The piece on `sq`: its color and whether it is a king.
    pub fn piece_at(&self, sq: Square) -> Option<(Color, bool)> {
        let king = self.kings.contains(sq);
        if self.white.contains(sq) {
            Some((Color::White, king))
        } else if self.black.contains(sq) {
            Some((Color::Black, king))
        } else {
            None
        }
    }

    /// The Zobrist key (pieces and side to move).
    #[inline(always)]
    pub fn key(&self) -> Key {
        self.key
    }

    /// Plies since the last move that reset the variant's draw counter
    /// ([`Rules::resets_draw_counter`]), saturating at 255.
    #[inline(always)]
    pub fn quiet_plies(&self) -> u8 {
        self.quiet_plies
    }

    /// Plies since the position entered its endgame class (FMJD 6.3, 6.4; see
    /// [`Rules::endgame_draw_plies`]), saturating at 255. Reset by a capture and by a promotion
    /// that changes the class; always 0 where the variant has no endgame counters.
    #[inline(always)]
    pub fn endgame_plies(&self) -> u8 {
        self.endgame_plies
    }

    /// Whether an endgame counter has run out: the position is in a class with a limit
    /// ([`Rules::endgame_draw_plies`]) and has stayed in it for that many plies.
    #[inline(always)]
    pub fn endgame_draw(&self) -> bool {
        R::ENDGAME_COUNTERS && self.endgame_plies >= 2 && {
            let limit = self.endgame_limit();
            limit > 0 && self.endgame_plies >= limit
        }
    }

    /// The endgame counter limit of this position's material, in plies (0: none).
    #[inline(always)]
    pub fn endgame_limit(&self) -> u8 {
        if !R::ENDGAME_COUNTERS || self.occupied().count() > 4 {
            return 0;
        }
        R::endgame_draw_plies(
            self.white.count(),
            (self.white & self.kings).count(),
            self.black.count(),
            (self.black & self.kings).count(),
        )
    }

    /// Sets the no-progress ply counter (from a FEN or protocol that carries it).
    pub fn set_quiet_plies(&mut self, plies: u8) {
        self.quiet_plies = plies;
    }

    /// The key computed from scratch; equals [`Position::key`] at all times.
    pub fn compute_key(&self) -> Key {
        let mut k = 0;
        for (c, bb) in [(0, self.white), (1, self.black)] {
            for sq in bb {
                let king = self.kings.contains(sq);
                k ^= zobrist::piece(c, king, sq.0);
            }
        }
        if self.side == Color::Black {
            k ^= zobrist::BLACK_TO_MOVE;
        }
        k
    }

    /// The position after `mv`, which must be legal here. The side to move passes, the
    /// captured pieces go, a promoting man becomes a king, the key is updated incrementally and
    /// the draw counter is reset or advanced by [`Rules::resets_draw_counter`].
    #[inline(always)]
    pub fn make(&self, mv: &Move) -> Position<R> {
        let us = self.side as usize;
        let them = 1 - us;
        let from = Bitboard::from_square(mv.from);
        let to = Bitboard::from_square(mv.to);
        let moved_king = self.kings.contains(mv.from);
        debug_assert!(self.pieces(self.side).contains(mv.from));
        let mut p = *self;
        let (mine, theirs) = match self.side {
            Color::White => (&mut p.white, &mut p.black),
            Color::Black => (&mut p.black, &mut p.white),
        };
        // from == to is possible (a capture back to its start square): the two XORs cancel.
        *mine ^= from ^ to;
        *theirs &= !mv.captured;
        let mut key = self.key ^ zobrist::BLACK_TO_MOVE;
        key ^= zobrist::piece(us, moved_king, mv.from.0);
        key ^= zobrist::piece(us, moved_king || mv.promotes, mv.to.0);
        for sq in mv.captured {
            key ^= zobrist::piece(them, self.kings.contains(sq), sq.0);
        }
        let mut kings = self.kings & !mv.captured;
        if moved_king {
            kings = (kings & !from) | to;
        } else if mv.promotes {
            kings |= to;
        }
        p.kings = kings;
        p.key = key;
        p.side = self.side.opponent();
        p.quiet_plies = if R::resets_draw_counter(!moved_king, mv.captured.any(), mv.promotes) {
            0
        } else {
            self.quiet_plies.saturating_add(1)
        };
        if R::ENDGAME_COUNTERS {
            // Only a capture or a promotion changes the material, hence the class; a promotion
            // inside the class (king + 2 men -> 2 kings + man against a king) keeps the count.
            p.endgame_plies = if mv.captured.any()
                || (mv.promotes && p.endgame_limit() != self.endgame_limit())
            {
                0
            } else {
                self.endgame_plies.saturating_add(1)
            };
        }
        p.debug_check();
        p
    }
}
