//! Damone move generation in tiers (after DCTL, like [`crate::core::movegen`]): [`has_moves`] for the
//! game end, [`count`] for bulk-counting perft, [`generate`] / [`generate_with`] for the
//! search, [`captures_into`] for quiescence (through
//! [`crate::core::play::Play::generate_captures`]). perft is the shared one
//! ([`crate::core::perft`]).
//!
//! Rules (rules.md §D and rulings §I 1-5; constants in [`super`]):
//! - Every piece steps one square diagonally onto an empty square: a Pedine in its three
//!   directions ([`PEDINE_DIRS`]), a Dama or Damone in all four.
//! - A piece captures in the same directions, by a short jump over an adjacent enemy piece of
//!   **equal or lower rank** onto the empty square behind it. Capture is compulsory and a
//!   capture goes on while it can. The capturing piece leaves its square when the capture
//!   begins (ruling I.12); captured pieces stay on the board until the move ends and cannot be
//!   jumped twice (with short jumps this changes nothing else, rules.md §A "Removal").
//! - A Pedine reaching an enemy Dama's start square, or a Dama reaching the enemy Damone's
//!   corner, goes up one rank (`Move::promotes`); by a capture, the move ends there
//!   (**Ruling I.2**).
//! - Precedence (**Ruling I.3**): each finished capture gets the key (pieces captured, rank of
//!   the capturing piece, Damones captured, Damas captured), compared largest first; every
//!   capture that ties on the whole key is legal.
//! - Duplicates (ruling I.11): with [`Duplicates::Drop`] a capture equal to one already listed
//!   (same from, to, captured set, promotion) is listed once. Only a Dama or a Damone can reach
//!   the same capture by two paths (a ring of four pieces taken either way round); a Pedine
//!   has no backward direction, so its jump paths never close a loop.
//!
//! Nothing here allocates: moves go into a fixed-capacity [`MoveList`].

use super::position::Position;
use super::rules::{promotion_squares, Rank, PEDINE_DIRS};
use crate::core::bitboard::{Bitboard, Square};
use crate::core::geometry::{Board8, Dir, Geometry};
use crate::core::movegen::Duplicates;
use crate::core::moves::{Move, MoveList};
use crate::core::rules::Color;

#[inline(always)]
fn shift(b: Bitboard, d: Dir) -> Bitboard {
    Board8::shift(b, d)
}

/// The directions a piece of color `c` and rank `rank` moves and captures in.
#[inline(always)]
pub fn directions(c: Color, rank: Rank) -> &'static [Dir] {
    match rank {
        Rank::Pedine => &PEDINE_DIRS[c as usize],
        Rank::Dama | Rank::Damone => &Dir::ALL,
    }
}

/// Whether some piece of `movers` jumps a piece of `prey` in direction `d` onto `empty`.
#[inline(always)]
fn jumps(movers: Bitboard, prey: Bitboard, empty: Bitboard, d: Dir) -> bool {
    (shift(shift(movers, d) & prey, d) & empty).any()
}

/// Whether the side to move has a capture (bitwise, without generating it).
pub fn has_captures(pos: &Position) -> bool {
    has_captures_for(pos, pos.side())
}

/// Whether the side *not* to move would have a capture if it were its turn (a threat).
pub fn threatened(pos: &Position) -> bool {
    has_captures_for(pos, pos.side().opponent())
}

/// Whether `us` has a capture in `pos`, whoever is to move.
fn has_captures_for(pos: &Position, us: Color) -> bool {
    let empty = pos.empty();
    Rank::ALL.into_iter().any(|rank| {
        let movers = pos.rank_of(us, rank);
        let prey = pos.prey(us.opponent(), rank);
        movers.any()
            && directions(us, rank)
                .iter()
                .any(|&d| jumps(movers, prey, empty, d))
    })
}

/// The number of quiet moves, counted bitwise (the legal moves when there is no capture).
fn quiet_count(pos: &Position) -> u64 {
    let us = pos.side();
    let empty = pos.empty();
    let mut n = 0;
    for rank in Rank::ALL {
        let movers = pos.rank_of(us, rank);
        if movers.any() {
            for &d in directions(us, rank) {
                n += (shift(movers, d) & empty).count() as u64;
            }
        }
    }
    n
}

/// Whether the side to move has any legal move (false: it has lost, **Ruling I.4**).
pub fn has_moves(pos: &Position) -> bool {
    let us = pos.side();
    let empty = pos.empty();
    Rank::ALL.into_iter().any(|rank| {
        let movers = pos.rank_of(us, rank);
        movers.any()
            && directions(us, rank)
                .iter()
                .any(|&d| (shift(movers, d) & empty).any())
    }) || has_captures(pos)
}

/// The number of legal moves (a depth-1 perft), without generating quiet moves.
pub fn count(pos: &Position, dups: Duplicates) -> u64 {
    if has_captures(pos) {
        let mut sink = CountSink {
            list: MoveList::new(),
            best: 0,
            n: 0,
            dups,
        };
        captures_into(pos, &mut sink);
        sink.n
    } else {
        quiet_count(pos)
    }
}

/// All legal moves into `list` (cleared first), duplicates dropped.
pub fn generate(pos: &Position, list: &mut MoveList) {
    generate_with(pos, list, Duplicates::Drop)
}

/// All legal moves into `list` (cleared first), with the given duplicate policy: the
/// captures that win on precedence if there is any capture, otherwise the quiet moves.
pub fn generate_with(pos: &Position, list: &mut MoveList, dups: Duplicates) {
    list.clear();
    if has_captures(pos) {
        let mut sink = ListSink {
            list,
            best: 0,
            dups,
        };
        captures_into(pos, &mut sink);
    } else {
        quiet_into(pos, list);
    }
}

/// The square one step back from `t` against `d` (on the padded 8x8 board).
#[inline(always)]
fn back(t: Square, d: Dir) -> Square {
    Board8::back(t, d)
}

/// The quiet moves of the side to move, lowest rank first.
fn quiet_into(pos: &Position, list: &mut MoveList) {
    let us = pos.side();
    let empty = pos.empty();
    for rank in Rank::ALL {
        let movers = pos.rank_of(us, rank);
        let promo = promotion_squares(us, rank);
        for &d in directions(us, rank) {
            for t in shift(movers, d) & empty {
                list.push(Move::quiet(back(t, d), t, promo.contains(t)));
            }
        }
    }
}

/// The precedence key of a finished capture (**Ruling I.3**): pieces captured, rank of the
/// capturing piece, Damones captured, Damas captured, four bits each (a side has at most 8
/// pieces), most significant first. Larger is preferred; equal keys are all legal.
#[inline(always)]
pub fn precedence_key(captured: Bitboard, rank: Rank, damones: Bitboard, damas: Bitboard) -> u32 {
    (captured.count() << 12)
        | ((rank as u32) << 8)
        | ((captured & damones).count() << 4)
        | (captured & damas).count()
}

/// The capture sinks are the standard layer's: the same precedence-key filter and duplicate
/// policy (`crate::core::movegen`).
pub use crate::core::movegen::CaptureSink as Sink;
use crate::core::movegen::{CountSink, ListSink};

/// The depth-first walk of one piece's captures.
struct Walker<'s, K: Sink> {
    sink: &'s mut K,
    /// Enemy pieces this piece may capture; captured ones are masked out as the walk goes.
    prey: Bitboard,
    /// Empty squares, the start square included. Captured pieces are not empty: they block.
    empty: Bitboard,
    /// Enemy Damones and Damas, for the precedence key.
    damones: Bitboard,
    damas: Bitboard,
    from: Square,
    rank: Rank,
    dirs: &'static [Dir],
    /// Squares where this piece is promoted, which end the capture (ruling I.2).
    promo: Bitboard,
}

impl<K: Sink> Walker<'_, K> {
    fn emit(&mut self, to: Square, captured: Bitboard, promotes: bool) {
        let key = precedence_key(captured, self.rank, self.damones, self.damas);
        let mv = Move {
            captured,
            from: self.from,
            to,
            promotes,
        };
        self.sink.add(mv, key, self.rank != Rank::Pedine);
    }

    /// The piece stands on `cur` having captured `captured` so far.
    fn walk(&mut self, cur: Square, captured: Bitboard) {
        let here = Bitboard::from_square(cur);
        let prey = Bitboard(self.prey.0 & !captured.0);
        let mut found = false;
        for &d in self.dirs {
            let mid = shift(here, d) & prey;
            let land = shift(mid, d) & self.empty;
            if land.is_empty() {
                continue;
            }
            found = true;
            let to = land.first();
            let captured = captured | mid;
            if K::PATHS {
                self.sink.land(to);
            }
            if self.promo.contains(to) {
                self.emit(to, captured, true);
            } else {
                self.walk(to, captured);
            }
            if K::PATHS {
                self.sink.unland();
            }
        }
        if !found && captured.any() {
            self.emit(cur, captured, false);
        }
    }
}

/// Every capture of the side to move into `sink`, each with its precedence key.
pub fn captures_into<K: Sink>(pos: &Position, sink: &mut K) {
    let us = pos.side();
    let them = us.opponent();
    let empty = pos.empty();
    let damones = pos.rank_of(them, Rank::Damone);
    let damas = pos.rank_of(them, Rank::Dama);
    for rank in Rank::ALL {
        let prey = pos.prey(them, rank);
        let dirs = directions(us, rank);
        // The pieces with a first jump: a capturable neighbour with an empty square behind.
        let mut candidates = Bitboard::EMPTY;
        for &d in dirs {
            let r = d.reverse();
            candidates |= shift(shift(empty, r) & prey, r);
        }
        for from in pos.rank_of(us, rank) & candidates {
            let mut w = Walker {
                sink: &mut *sink,
                prey,
                empty: empty.with(from),
                damones,
                damas,
                from,
                rank,
                dirs,
                promo: promotion_squares(us, rank),
            };
            w.walk(from, Bitboard::EMPTY);
        }
    }
}
