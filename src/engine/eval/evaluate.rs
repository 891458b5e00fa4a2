//! The evaluation side of a variant ([`Evaluate`]), implemented for every [`Rules`] type,
//! its endgame-database probe ([`DbProbe`]), the dispatch of a computation generic over it
//! ([`dispatch`]), and the 10x10 pattern score with its king-ending scaling.

use super::learned::Net;
use super::planes::{planes, unpack, Planes};
use super::{finish, hand};
use crate::core::bitboard::Bitboard;
use crate::core::dispatch::{variant_match, RuleSet};
use crate::core::draughts::Draughts;
use crate::core::geometry::Geometry;
use crate::core::play::Play;
use crate::core::position::Position;
use crate::core::rules::{
    Antidraughts, Brazilian, Color, English, Frisian, Frysk, Goal, International, Italian, Rules,
    Russian,
};
use crate::core::variant::Variant;
use crate::core::variant_position::VariantPosition;
use crate::egdb::{Egdb, Probe, ProbeCache};

/// A variant's evaluation side, beside its [`Draughts`] side: the static evaluation and the
/// [`Planes`] form of its positions. Implemented for every [`Rules`] type and for Italian
/// Damone ([`crate::core::damone::DamoneDraughts`], in [`damone`](crate::engine::eval::damone)).
pub trait Evaluate: Draughts {
    /// The static evaluation of `pos` in centi-men from the side to move's point of view
    /// (positive: good for the side to move): by the variant's learned weights `net` when
    /// given (the search's, [`Evaluation::weights`](crate::engine::eval::Evaluation::weights)),
    /// else by the hand-set evaluation.
    fn evaluate(pos: &Self::Position, net: Option<&Net>) -> i32;
    /// The position as square sets (the learned evaluation's and the training data's form,
    /// [`Planes`]).
    fn planes(pos: &Self::Position) -> Planes;
    /// An evaluation network's output `stm` (centi-men, side to move) for position `p` as
    /// [`Evaluate::evaluate`] gives it: in English with the king-ending term of [`finish`];
    /// on 10x10 and in Brazilian with the material edge of a holdable king ending
    /// (`material_edge`); unchanged elsewhere. (On 10x10 the network's output is not scaled in king endings as
    /// the pattern weights' is, [`evaluate10`]: the network is fitted to the results without
    /// that factor, so it already scores those endings as drawish as the games found them.)
    #[inline(always)]
    fn network_score(_p: &Planes, stm: i32) -> i32 {
        stm
    }
    /// The position of valid [`Planes`] (disjoint colors, ranks within the pieces), with the
    /// no-progress counter at 0: the inverse of [`Evaluate::planes`].
    fn from_planes(p: &Planes) -> Self::Position;
    /// The endgame database's value of a quiet position `pos` ([`Egdb::probe`]: `None` when
    /// the side to move has a capture or the material is not covered), with the plies the
    /// draw counters still allow ([`DbProbe`]). `None` for a game without databases (Italian
    /// Damone, the default).
    #[inline(always)]
    fn probe_egdb(_db: &Egdb, _pos: &Self::Position) -> Option<DbProbe> {
        None
    }
    /// As [`Evaluate::probe_egdb`] through a thread's [`ProbeCache`] (the search's probe).
    /// `quiet`: the caller knows the side to move has no capture (quiescence has just
    /// generated none), which skips that check.
    #[inline(always)]
    fn probe_egdb_cached(
        _db: &Egdb,
        _pos: &Self::Position,
        _quiet: bool,
        _cache: &mut ProbeCache,
    ) -> Option<DbProbe> {
        None
    }
}

/// An endgame-database probe as the search uses it: the value for the side to move and the
/// plies the no-progress rule (and International's endgame counters) still allow before the
/// game is drawn. A win or loss whose distance to conversion is at most `plies_left` is one
/// under the counters too (docs/egdb.md, "Values, distances and the counters").
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub struct DbProbe {
    /// The database's value and distance (plies to conversion).
    pub probe: Probe,
    /// Plies the draw counters still allow; 0 when the distance promises nothing (a class
    /// with men under International's endgame counters, where a promotion does not end it).
    pub plies_left: u32,
    /// Pieces plus men on the board: every conversion (a capture or a promotion) lowers it, so
    /// the search ranks a win by it before the distance, which restarts at each conversion
    /// ([`crate::engine::search::DB_WIN`]).
    pub material: u32,
}

impl<R: Rules> Evaluate for R {
    /// Learned weights: a network ([`Net::evaluate`], in English with the king-ending term of
    /// [`finish`]), 8x8 pattern weights (the same) or 10x10 pattern weights (with the
    /// hand-set evaluation's scaling of king endings, [`evaluate10`]); else [`hand::evaluate`].
    #[inline(always)]
    fn evaluate(pos: &Position<R>, net: Option<&Net>) -> i32 {
        match net {
            Some(net) if R::Board::WIDTH == 10 && net.network().is_none() => evaluate10(net, pos),
            Some(net) => {
                let p = planes(pos);
                // `TEN` only selects the pattern layout: a network reads any board's planes.
                Self::network_score(&p, net.evaluate::<false>(&p, R::FLYING_KINGS))
            }
            None => hand::evaluate(pos),
        }
    }
    /// Kings on `rank2`; `rank3` is 0.
    #[inline(always)]
    fn planes(pos: &Position<R>) -> Planes {
        planes(pos)
    }
    #[inline(always)]
    fn network_score(p: &Planes, stm: i32) -> i32 {
        if R::GOAL != Goal::Standard {
            // Antidraughts (a lead is no asset) and Breakthrough (no king endings): the
            // network alone.
            stm
        } else if R::Board::WIDTH == 10 || matches!(R::VARIANT, Variant::Brazilian) {
            stm + material_edge(p)
        } else if matches!(R::VARIANT, Variant::English) {
            finish::king_ending(p, stm)
        } else {
            stm
        }
    }
    fn from_planes(p: &Planes) -> Position<R> {
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
    /// The database's value, with the plies left by [`Rules::DRAW_PLIES`] and, in a class under
    /// an endgame counter, by that counter if every piece is a king (there the distance to
    /// conversion is the distance to the win), else 0 (docs/egdb.md).
    #[inline(always)]
    fn probe_egdb(db: &Egdb, pos: &Position<R>) -> Option<DbProbe> {
        if <R as Play>::has_captures(pos) {
            return None;
        }
        Some(with_counters(pos, db.lookup(pos)?))
    }
    /// [`Egdb::lookup`] through `cache`, with the plies left, as [`Evaluate::probe_egdb`].
    #[inline(always)]
    fn probe_egdb_cached(
        db: &Egdb,
        pos: &Position<R>,
        quiet: bool,
        cache: &mut ProbeCache,
    ) -> Option<DbProbe> {
        let probe = cache.get_or(pos.key(), || {
            if !quiet && <R as Play>::has_captures(pos) {
                None
            } else {
                db.lookup(pos)
            }
        })?;
        Some(with_counters(pos, probe))
    }
}

/// A database value of `pos` with the plies its draw counters still allow and its material
/// ([`DbProbe`]).
#[inline(always)]
fn with_counters<R: Rules>(pos: &Position<R>, probe: Probe) -> DbProbe {
    // No no-progress rule (Antidraughts, Frisian): nothing but an endgame counter limits a win.
    let mut plies_left = match R::DRAW_PLIES {
        0 => u32::MAX,
        n => u32::from(n).saturating_sub(u32::from(pos.quiet_plies())),
    };
    let limit = pos.endgame_limit();
    if limit > 0 {
        plies_left = if pos.kings().count() == pos.occupied().count() {
            plies_left.min(u32::from(limit.saturating_sub(pos.endgame_plies())))
        } else {
            0
        };
    }
    let material = pos.occupied().count() + (pos.occupied() & !pos.kings()).count();
    DbProbe {
        probe,
        plies_left,
        material,
    }
}

/// The databases' value of a position of a runtime variant ([`Evaluate::probe_egdb`]):
/// `None` for Italian Damone and Breakthrough (no databases), a capture pending, or a material
/// `db` does not hold.
pub fn probe_position(db: &Egdb, pos: &VariantPosition) -> Option<DbProbe> {
    match pos {
        VariantPosition::English(p) => English::probe_egdb(db, p),
        VariantPosition::Italian(p) => Italian::probe_egdb(db, p),
        VariantPosition::Brazilian(p) => Brazilian::probe_egdb(db, p),
        VariantPosition::Russian(p) => Russian::probe_egdb(db, p),
        VariantPosition::International(p) => International::probe_egdb(db, p),
        VariantPosition::Antidraughts(p) => Antidraughts::probe_egdb(db, p),
        VariantPosition::Frisian(p) => Frisian::probe_egdb(db, p),
        VariantPosition::Frysk(p) => Frysk::probe_egdb(db, p),
        VariantPosition::Damone(..) | VariantPosition::Breakthrough(..) => None,
    }
}

/// A computation generic over a variant that evaluates (the search, self-play), run by
/// [`dispatch`]: [`crate::core::dispatch::VariantFn`] with the [`Evaluate`] bound, which the
/// core's dispatch cannot name.
pub trait EvaluateFn {
    /// What the computation returns.
    type Output;
    /// Runs it for variant `G`.
    fn call<G: Evaluate>(self) -> Self::Output;
}

/// Runs `f` with the type of a variant and its rule options (a [`Variant`] alone: the default
/// options), as [`crate::core::dispatch::Dispatch::dispatch`] does for [`crate::core::draughts::Draughts`]. The core's one
/// `match` (`crate::core::dispatch::variant_match`), here because the core cannot name
/// [`Evaluate`].
pub fn dispatch<F: EvaluateFn>(rules: impl Into<RuleSet>, f: F) -> F::Output {
    let rules = rules.into();
    variant_match!(rules.variant, |G| f.call::<G>(), damone_win: rules.damone_win)
}

/// The side-to-move evaluation (centi-men) of a 10x10 position by the learned pattern weights
/// `net`: the hand-set evaluation's scaling of International king endings
/// (`hand::drawish_scale`) applies to the learned score too, through [`drawish_planes`],
/// the function the pattern trainer fits through. (A network is not scaled:
/// [`Evaluate::network_score`].)
#[inline]
pub fn evaluate10<R: Rules>(net: &Net, pos: &Position<R>) -> i32 {
    let p = planes(pos);
    scale10(&p, net.evaluate::<true>(&p, R::FLYING_KINGS))
}

/// Centi-men per piece of lead that [`material_edge`] adds.
const EDGE_PER_PIECE: i32 = 25;

/// A king ending with flying kings that the side behind can likely hold (it has a king and the
/// lead is at most three pieces: [`hand::drawish_sixteenths`] below 16; on 10x10 and, with the
/// same counts, in Brazilian): [`EDGE_PER_PIECE`] centi-men per piece of lead for the side
/// ahead, from the side to move's point of view (`p`: the planes of the position); 0 elsewhere. The network scores such endings near a draw, as self-play
/// found them, and so would give a man away for nothing; against a fallible opponent the side
/// ahead keeps its pieces and its chances, and the side behind does not shed more. Not added
/// in Antidraughts or Breakthrough ([`Evaluate::network_score`]).
#[inline(always)]
fn material_edge(p: &Planes) -> i32 {
    let (nw, nb) = (p.white.count_ones(), p.black.count_ones());
    if nw == nb {
        return 0;
    }
    let (weak, n_strong, n_weak) = if nw > nb {
        (p.black, nw, nb)
    } else {
        (p.white, nb, nw)
    };
    if hand::drawish_sixteenths(n_strong, n_weak, weak & p.rank2 != 0) == 16 {
        return 0;
    }
    let edge = EDGE_PER_PIECE * (n_strong - n_weak) as i32;
    p.side_to_move(if nw > nb { edge } else { -edge })
}

/// A 10x10 pattern-weight score `stm` (centi-men, side to move) of `p` scaled in king endings
/// as the hand-set evaluation scales its own ([`drawish_planes`]).
#[inline(always)]
fn scale10(p: &Planes, stm: i32) -> i32 {
    stm * drawish_planes(p, p.side_to_move(stm)) / 16
}

/// `hand::drawish_scale` on the [`Planes`] of a 10x10 position: the sixteenths of
/// `white_score` (White's view, centi-men) that [`Evaluate::evaluate`] keeps; `damiera-train patterns` fits the
/// learned weights through the same factor.
pub fn drawish_planes(p: &Planes, white_score: i32) -> i32 {
    let (strong, weak) = if white_score > 0 {
        (p.white, p.black)
    } else {
        (p.black, p.white)
    };
    hand::drawish_sixteenths(strong.count_ones(), weak.count_ones(), weak & p.rank2 != 0)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The material edge of a flying-king ending (10x10, Brazilian): for the side ahead when
    /// the side behind has a king and the lead is at most three pieces, from the side to
    /// move's view; else none.
    #[test]
    fn material_edge_only_in_holdable_king_endings() {
        use crate::core::notation::fen::parse_fen;
        let edge = |fen: &str| material_edge(&planes(&parse_fen::<International>(fen).unwrap()));
        // A man up against a king: the side ahead to move, then the side behind to move.
        assert_eq!(edge("W:W19,27,28,K1:B30,9,K41"), EDGE_PER_PIECE);
        assert_eq!(edge("B:W19,27,28,K1:B30,9,K41"), -EDGE_PER_PIECE);
        // Black two up, White (behind, with a king) to move.
        assert_eq!(edge("W:WK5:B41,K26,K45"), -2 * EDGE_PER_PIECE);
        // Equal pieces, a side behind without a king, a lead of four: nothing.
        assert_eq!(edge("W:W19,28,K1:B30,9,K41"), 0);
        assert_eq!(edge("W:W19,27,28,K1:B30,9,41"), 0);
        assert_eq!(edge("W:W19,27,28,29,32,K1:BK41"), 0);
        // Brazilian adds the edge to a network's score, Russian does not: two men and a king
        // against a king, White to move.
        let p = planes(&parse_fen::<Brazilian>("W:Wc3,e3,Kd4:BKh8").unwrap());
        assert_eq!(Brazilian::network_score(&p, 0), 2 * EDGE_PER_PIECE);
        let p = planes(&parse_fen::<Russian>("W:Wc3,e3,Kd4:BKh8").unwrap());
        assert_eq!(Russian::network_score(&p, 0), 0);
        // In Antidraughts a lead is no asset: International's edge, Antidraughts' none.
        let fen = "W:W19,27,28,K1:B30,9,K41";
        let p = planes(&parse_fen::<International>(fen).unwrap());
        assert_eq!(International::network_score(&p, 0), EDGE_PER_PIECE);
        let p = planes(&parse_fen::<Antidraughts>(fen).unwrap());
        assert_eq!(Antidraughts::network_score(&p, 0), 0);
    }
}
