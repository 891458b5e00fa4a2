//! `Move` (from, to, captured set, promotion) and `MoveList`, a fixed-capacity move buffer.
//!
//! A move is a value: two squares, the set of captured pieces and whether a man becomes a king.
//! The landing squares of a capture are not stored; notation reconstructs them
//! ([`crate::core::notation`]). Nothing here allocates.

use crate::core::bitboard::{Bitboard, Square};
use std::mem::MaybeUninit;

/// A legal move: `from` → `to`, capturing `captured` (empty for a quiet move).
///
/// `from == to` is possible: a capturing piece leaves its square and may come back to it
/// (rules.md ruling I.12). `promotes` is true when the moving man ends the move as a king
/// (for Russian, also when it was crowned in passing and went on capturing).
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub struct Move {
    /// The pieces this move captures (internal squares).
    pub captured: Bitboard,
    /// The square the moving piece starts on.
    pub from: Square,
    /// The square it ends on.
    pub to: Square,
    /// Whether a man ends this move as a king.
    pub promotes: bool,
}

impl Move {
    /// A quiet (non-capturing) move.
    #[inline(always)]
    pub const fn quiet(from: Square, to: Square, promotes: bool) -> Move {
        Move {
            captured: Bitboard::EMPTY,
            from,
            to,
            promotes,
        }
    }

    /// Whether the move captures.
    #[inline(always)]
    pub const fn is_capture(&self) -> bool {
        self.captured.any()
    }
}

/// The most moves a [`MoveList`] holds. Quiet moves on 8x8 are bounded by 4 per empty square
/// (at most 128); capture lists in real play are far shorter. Past this, moves are dropped and
/// [`MoveList::overflowed`] says so.
pub const MAX_MOVES: usize = 256;

/// A fixed-capacity list of moves on the stack.
pub struct MoveList {
    moves: [MaybeUninit<Move>; MAX_MOVES],
    len: usize,
    overflowed: bool,
}

impl Default for MoveList {
    fn default() -> Self {
        Self::new()
    }
}

impl MoveList {
    /// An empty list (no initialisation of the buffer).
    #[inline(always)]
    pub fn new() -> MoveList {
        MoveList {
            // SAFETY: an array of `MaybeUninit` needs no initialisation.
            moves: unsafe { MaybeUninit::uninit().assume_init() },
            len: 0,
            overflowed: false,
        }
    }

    /// Appends a move; past [`MAX_MOVES`] the move is dropped and `overflowed` is set.
    #[inline(always)]
    pub fn push(&mut self, mv: Move) {
        if self.len < MAX_MOVES {
            self.moves[self.len] = MaybeUninit::new(mv);
            self.len += 1;
        } else {
            debug_assert!(false, "move list overflow");
            self.overflowed = true;
        }
    }

    /// Removes every move.
    #[inline(always)]
    pub fn clear(&mut self) {
        self.len = 0;
    }

    /// Keeps the first `len` moves.
    #[inline(always)]
    pub fn truncate(&mut self, len: usize) {
        self.len = self.len.min(len);
    }

    /// The number of moves.
    #[inline(always)]
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether the list is empty.
    #[inline(always)]
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Whether a push was ever dropped for lack of room.
    pub fn overflowed(&self) -> bool {
        self.overflowed
    }

    /// The moves as a slice.
    #[inline(always)]
    pub fn as_slice(&self) -> &[Move] {
        // SAFETY: the first `len` entries were written by `push`.
        unsafe { std::slice::from_raw_parts(self.moves.as_ptr() as *const Move, self.len) }
    }

    /// The moves as a mutable slice (for ordering them).
    #[inline(always)]
    pub fn as_mut_slice(&mut self) -> &mut [Move] {
        // SAFETY: the first `len` entries were written by `push`.
        unsafe { std::slice::from_raw_parts_mut(self.moves.as_mut_ptr() as *mut Move, self.len) }
    }

    /// Removes the move at `i`, moving the last move into its place.
    #[inline(always)]
    pub fn swap_remove(&mut self, i: usize) {
        debug_assert!(i < self.len);
        self.len -= 1;
        self.moves[i] = self.moves[self.len];
    }
}

impl std::ops::Deref for MoveList {
    type Target = [Move];
    #[inline(always)]
    fn deref(&self) -> &[Move] {
        self.as_slice()
    }
}

impl std::ops::DerefMut for MoveList {
    #[inline(always)]
    fn deref_mut(&mut self) -> &mut [Move] {
        self.as_mut_slice()
    }
}

impl<'a> IntoIterator for &'a MoveList {
    type Item = &'a Move;
    type IntoIter = std::slice::Iter<'a, Move>;
    fn into_iter(self) -> Self::IntoIter {
        self.as_slice().iter()
    }
}
