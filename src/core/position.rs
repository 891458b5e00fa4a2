//! `Position`: the board, the side to move and a Zobrist key, as a small `Copy` value.
//!
//! Copy-make: [`Position::make`] returns the position after a move and leaves `self` alone, as
//! Scan's `succ` does; there is no unmake and no state stack. The key is updated incrementally
//! and equals [`Position::compute_key`] after every move (checked by a test on random games).
//!
//! Its FEN forms (`start`, the `Debug` form) live in
//! [`crate::core::notation::fen`](mod@crate::core::notation::fen), which
//! depends on this module, never the reverse.

use crate::core::bitboard::{Bitboard, Square};
use crate::core::geometry::Geometry;
use crate::core::moves::Move;
use crate::core::rules::{Color, Rules};
use crate::core::zobrist::{self, Key};
use std::marker::PhantomData;

/// A position of variant `R`: white and black pieces, which of them are kings, the side to
/// move, plies since the last draw-counter reset, the Zobrist key, and in Frisian each side's
/// king-move count ([`Position::king_moves`]).
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
    /// Per side (indexed by `Color as usize`): the non-capturing moves in a row of one king
    /// ([`Rules::KING_MOVE_LIMIT`]), 0 in variants without the limit.
    king_moves: [u8; 2],
    /// Per side: the square of the king [`Position::king_moves`] counts, or [`NO_KING`] (a count
    /// without a square, from a FEN, holds every king of the side).
    king_square: [u8; 2],
    _rules: PhantomData<R>,
}

/// The [`Position::king_moves`] square of a count that names no king.
const NO_KING: u8 = 63;

impl<R: Rules> Clone for Position<R> {
    #[inline(always)]
    fn clone(&self) -> Self {
        *self
    }
}
impl<R: Rules> Copy for Position<R> {}

impl<R: Rules> PartialEq for Position<R> {
    /// Same pieces, side to move and king-move counts (the draw counters are not compared).
    fn eq(&self, o: &Self) -> bool {
        self.white == o.white
            && self.black == o.black
            && self.kings == o.kings
            && self.side == o.side
            && self.king_moves == o.king_moves
            && self.king_square == o.king_square
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
            king_moves: [0; 2],
            king_square: [NO_KING; 2],
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

    /// The king-move count of `c` ([`Rules::KING_MOVE_LIMIT`], Frisian DFS rule 7): how many
    /// non-capturing moves in a row one king of `c` has made, and that king's square (`None`:
    /// a count from a FEN that names no king, which holds every king). `(0, None)` in variants
    /// without the limit and whenever `c` has no men.
    #[inline(always)]
    pub fn king_moves(&self, c: Color) -> (u8, Option<Square>) {
        let i = c as usize;
        let sq = self.king_square[i];
        (self.king_moves[i], (sq != NO_KING).then_some(Square(sq)))
    }

    /// The kings of `c` that may not make a non-capturing move (Frisian DFS rule 7): the king
    /// that has made [`Rules::KING_MOVE_LIMIT`] such moves in a row, while `c` has men. Empty
    /// in variants without the limit.
    #[inline(always)]
    pub fn frozen_kings(&self, c: Color) -> Bitboard {
        if R::KING_MOVE_LIMIT == 0 || self.king_moves[c as usize] < R::KING_MOVE_LIMIT {
            return Bitboard::EMPTY;
        }
        // A side without men has no count (`set_king_moves`, `update_king_moves`).
        debug_assert!(self.men(c).any());
        let sq = self.king_square[c as usize];
        if sq == NO_KING {
            self.kings_of(c)
        } else {
            self.kings_of(c) & Bitboard::from_square(Square(sq))
        }
    }

    /// Sets the king-move count of `c` (from a FEN: lidraughts' `+<count>[<square>]` field),
    /// clamped to [`Rules::KING_MOVE_LIMIT`]; ignored in variants without the limit, and when
    /// `c` has no men (the limit has lapsed). A square that holds no king of `c` is dropped.
    pub fn set_king_moves(&mut self, c: Color, count: u8, square: Option<Square>) {
        if R::KING_MOVE_LIMIT == 0 || self.men(c).is_empty() {
            return;
        }
        let square = square.filter(|&sq| self.kings_of(c).contains(sq));
        self.set_king_state(
            c,
            count.min(R::KING_MOVE_LIMIT),
            square.map_or(NO_KING, |s| s.0),
        );
    }

    /// Sets one side's king-move state and keeps the key in step.
    #[inline(always)]
    fn set_king_state(&mut self, c: Color, count: u8, square: u8) {
        let i = c as usize;
        self.key ^= zobrist::king_moves(i, self.king_moves[i], self.king_square[i]);
        self.king_moves[i] = count;
        self.king_square[i] = if count == 0 { NO_KING } else { square };
        self.key ^= zobrist::king_moves(i, count, self.king_square[i]);
    }

    /// The king-move counts after `mv` by the side to move of `before` (Frisian DFS rule 7,
    /// as lidraughts counts: `Frisian.finalizeBoard`): a non-capturing king move counts one
    /// for its side (from 0 if another king made the last ones); any other move of the side
    /// clears its count; a side without men has no count.
    #[inline(always)]
    fn update_king_moves(&mut self, before: &Position<R>, mv: &Move, moved_king: bool) {
        let us = before.side;
        let them = us.opponent();
        if self.men(us).is_empty() {
            if self.king_moves[us as usize] != 0 {
                self.set_king_state(us, 0, NO_KING);
            }
        } else if moved_king && mv.captured.is_empty() {
            let i = us as usize;
            let same = self.king_square[i] == NO_KING || self.king_square[i] == mv.from.0;
            let count = if same { self.king_moves[i] } else { 0 };
            self.set_king_state(us, (count + 1).min(R::KING_MOVE_LIMIT), mv.to.0);
        } else if self.king_moves[us as usize] != 0 {
            self.set_king_state(us, 0, NO_KING);
        }
        if self.men(them).is_empty() && self.king_moves[them as usize] != 0 {
            self.set_king_state(them, 0, NO_KING);
        }
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
        for i in 0..2 {
            k ^= zobrist::king_moves(i, self.king_moves[i], self.king_square[i]);
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
        if R::KING_MOVE_LIMIT > 0 {
            p.update_king_moves(self, mv, moved_king);
        }
        p.debug_check();
        p
    }
}
