//! The hand-set evaluation of `Rules` variants, in centi-men from the side to move's point of
//! view: the starting point of the learned evaluation ([`super::learned`]) and what a variant
//! without learned weights plays with.
//!
//! Terms, each weighted per variant in [`weights`]:
//! material (men, kings), advancement (a bonus per man by rows advanced, which also rewards
//! tempo), back-rank guard (men on their own back row while the opponent still has men to
//! crown), centre (men and kings on the four central squares), mobility (difference in quiet
//! moves), runaway men (a man one or two rows from crowning with nothing in front of it), and
//! an endgame term that rewards trading when ahead and keeps the stronger side's kings active.
//! Where kings fly and the rules draw small king endings by count (International draughts,
//! FMJD 6.3 and 6.4: [`Rules::FLYING_KINGS`] and [`Rules::ENDGAME_COUNTERS`]) a lead against a
//! side that has a king is then scaled by the chances of winning such an ending
//! (`drawish_scale`).
//! All terms are bitboard popcounts; nothing allocates.

use crate::core::bitboard::Bitboard;
use crate::core::geometry::{Dir, Geometry};
use crate::core::position::Position;
use crate::core::rules::{Color, Goal, Rules};
use crate::core::variant::Variant;

/// Evaluation weights of one variant (centi-men unless noted).
#[derive(Copy, Clone, Debug)]
pub struct Weights {
    /// A man.
    pub man: i32,
    /// A king.
    pub king: i32,
    /// Bonus for a man by rows advanced from its own back row (index 0 = back row; 8x8
    /// boards use the first 8 entries, 10x10 all 10).
    pub advance: [i32; 10],
    /// A man still on its own back row while the opponent has men.
    pub back_rank: i32,
    /// A man on one of the four central squares.
    pub centre: i32,
    /// A king on the long diagonal or the centre.
    pub king_centre: i32,
    /// Per quiet move more than the opponent.
    pub mobility: i32,
    /// A man one or two rows from crowning with free squares in front of it.
    pub runaway: i32,
    /// Endgame: bonus per piece of material lead, scaled up as pieces come off.
    pub trade: i32,
}

/// Square sets the evaluation counts on: rows, centre, long diagonal.
struct Masks {
    /// `rows[y]`: the playable squares of row `y` (0 = White's back row).
    rows: [Bitboard; 10],
    /// The four central playable squares (the two middle rows, the four middle files), on
    /// 8x8 and 10x10 alike.
    centre: Bitboard,
    /// The long diagonal through the dark corners.
    diagonal: Bitboard,
}

const fn bit(w: u32, x: u32, y: u32) -> u64 {
    1u64 << (((w + 1) * y + x - 1) / 2)
}

const fn masks(w: u32, h: u32) -> Masks {
    let mut rows = [Bitboard::EMPTY; 10];
    let mut centre = 0u64;
    let mut diagonal = 0u64;
    let mut y = 0;
    while y < h {
        let mut x = 0;
        let mut r = 0u64;
        while x < w {
            if (x + y) % 2 == 1 {
                r |= bit(w, x, y);
                if y + 1 >= h / 2 && y <= h / 2 && x + 2 >= w / 2 && x <= w / 2 + 1 {
                    centre |= bit(w, x, y);
                }
                if x == w - 1 - y {
                    diagonal |= bit(w, x, y);
                }
            }
            x += 1;
        }
        rows[y as usize] = Bitboard(r);
        y += 1;
    }
    Masks {
        rows,
        centre: Bitboard(centre),
        diagonal: Bitboard(diagonal),
    }
}

const MASKS_8: Masks = masks(8, 8);
const MASKS_10: Masks = masks(10, 10);

#[inline(always)]
fn masks_of<R: Rules>() -> &'static Masks {
    if R::Board::WIDTH == 8 {
        &MASKS_8
    } else {
        &MASKS_10
    }
}

/// The hand-set weights of a variant (centi-men). English: a short king is worth about 1.35
/// men in checkers practice, advancement is modest because the back rank guards against
/// kings. Italian: men cannot take kings, so a king is worth more. Brazilian and Russian: a
/// flying king is worth about three men and is strongest on the long diagonal.
pub const fn weights(v: Variant) -> &'static Weights {
    match v {
        Variant::English => &ENGLISH,
        Variant::Italian => &ITALIAN,
        Variant::International => &INTERNATIONAL,
        Variant::Breakthrough => &BREAKTHROUGH,
        Variant::Antidraughts => &ANTIDRAUGHTS,
        Variant::Frisian | Variant::Frysk => &FRISIAN,
        _ => &FLYING,
    }
}

const ENGLISH: Weights = Weights {
    man: 100,
    king: 135,
    advance: [0, 1, 3, 5, 8, 12, 18, 0, 0, 0],
    back_rank: 12,
    centre: 6,
    king_centre: 6,
    mobility: 2,
    runaway: 20,
    trade: 40,
};

const ITALIAN: Weights = Weights {
    king: 160,
    ..ENGLISH
};

const FLYING: Weights = Weights {
    man: 100,
    king: 300,
    advance: [0, 2, 4, 7, 10, 14, 20, 0, 0, 0],
    back_rank: 8,
    centre: 6,
    king_centre: 15,
    mobility: 2,
    runaway: 25,
    trade: 40,
};
/// International (10x10): the flying-king weights with the advancement bonus spread over the
/// ten rows, rising to the row before the crowning row (on 8x8 tables rows 7 and 8 of a 10x10
/// board got no bonus, so a man lost value by passing row 6).
const INTERNATIONAL: Weights = Weights {
    advance: [0, 1, 3, 5, 7, 10, 13, 17, 22, 0],
    ..FLYING
};

/// Breakthrough (the first king wins): International's terms with the advancement bonus and the
/// runaway man worth much more, since a man that crowns ends the game; a king never stays on
/// the board (the game is over), so its weight does not count.
const BREAKTHROUGH: Weights = Weights {
    advance: [0, 2, 5, 9, 14, 20, 28, 40, 60, 0],
    runaway: 120,
    ..INTERNATIONAL
};

/// Frisian and Frysk!: International's terms with a king worth 2.5 men. The capture rule
/// values a king below two men (DFS rule 11), but a king that captures along files and ranks
/// as well as diagonals is worth more in play; limited to three moves in a row while men
/// remain, it is worth less than International's.
const FRISIAN: Weights = Weights {
    king: 250,
    ..INTERNATIONAL
};

/// Antidraughts (the side that cannot move wins): only `man`, `king` and `mobility` count, all
/// with the opposite sign ([`evaluate_antidraughts`]). A king weighs more than a man: it is
/// hard to give away and never blocked for long.
const ANTIDRAUGHTS: Weights = Weights {
    man: 100,
    king: 200,
    mobility: 3,
    ..INTERNATIONAL
};

/// The side-to-move evaluation of `pos`, in centi-men.
pub fn evaluate<R: Rules>(pos: &Position<R>) -> i32 {
    let w = weights(R::VARIANT);
    if R::GOAL == Goal::NoMoveWins {
        return evaluate_antidraughts(pos, w);
    }
    let white = side_score::<R>(pos, Color::White, w);
    let black = side_score::<R>(pos, Color::Black, w);
    let mut score = white - black;

    score += w.mobility * (mobility(pos, Color::White) - mobility(pos, Color::Black));

    // Endgame: with few pieces, a material lead is worth more (encourages trading when ahead).
    let (wm, bm) = (
        material(pos, Color::White, w),
        material(pos, Color::Black, w),
    );
    let pieces = pos.occupied().count() as i32;
    let total = 2 * R::Board::SQUARES as i32 * 3 / 8; // pieces at the start
    if wm != bm {
        let lead = (wm - bm).signum() * ((wm - bm).abs().min(3 * w.man));
        score += lead * w.trade * (total - pieces).max(0) / (100 * total);
    }
    if R::FLYING_KINGS && R::ENDGAME_COUNTERS {
        score = score * drawish_scale(pos, score) / 16;
    }
    match pos.side() {
        Color::White => score,
        Color::Black => -score,
    }
}

/// The hand-set evaluation of Antidraughts ([`Goal::NoMoveWins`]), side to move's view: the
/// fewer pieces and the fewer quiet moves a side has, the nearer it is to having no move
/// (its win), so material and mobility count against their side.
fn evaluate_antidraughts<R: Rules>(pos: &Position<R>, w: &Weights) -> i32 {
    let side = |c: Color| material(pos, c, w) + w.mobility * mobility(pos, c);
    let score = side(Color::Black) - side(Color::White);
    match pos.side() {
        Color::White => score,
        Color::Black => -score,
    }
}

/// Endgames with a flying king on the weaker side, under rules that draw small king endings by
/// count (International draughts): how much of a lead (`score`, White's
/// view, centi-men) survives, in sixteenths. A flying king holds two or three kings (FMJD 6.3
/// and 6.4 draw them by count, and three kings against one win only when the lone king is off
/// the main diagonal), and it picks men off from afar, so a lead of fewer than three pieces
/// against a king rarely wins; four kings against one do, and a lead of three keeps most of its
/// value (10/16), four or more all of it. Scoring such leads in full led the search into king
/// endings it could not win (dame-rs matches: 78 of 86 draws by the no-progress rules).
pub(crate) fn drawish_scale<R: Rules>(pos: &Position<R>, score: i32) -> i32 {
    let strong = if score > 0 {
        Color::White
    } else {
        Color::Black
    };
    let weak = strong.opponent();
    drawish_sixteenths(
        pos.pieces(strong).count(),
        pos.pieces(weak).count(),
        pos.kings_of(weak).any(),
    )
}

/// [`drawish_scale`] from the stronger side's and the weaker side's piece counts and whether
/// the weaker side has a king (the same rule for a [`Position`] and for training planes).
pub(crate) fn drawish_sixteenths(strong: u32, weak: u32, weak_has_king: bool) -> i32 {
    if !weak_has_king {
        return 16;
    }
    match strong as i32 - weak as i32 {
        i32::MIN..=1 => 2,
        2 => 4,
        3 => 10,
        _ => 16,
    }
}

/// The quiet steps of `c`'s pieces to an adjacent empty square (men forward, kings every way):
/// mobility as cheap bitboard counts.
fn mobility<R: Rules>(pos: &Position<R>, c: Color) -> i32 {
    let empty = pos.empty();
    let men = pos.men(c);
    let kings = pos.kings_of(c);
    let (a, b) = match c {
        Color::White => (Dir::NW, Dir::NE),
        Color::Black => (Dir::SW, Dir::SE),
    };
    let mut n = R::Board::shift_within(men, a, empty).count()
        + R::Board::shift_within(men, b, empty).count();
    for d in Dir::ALL {
        n += R::Board::shift_within(kings, d, empty).count();
    }
    n as i32
}

fn material<R: Rules>(pos: &Position<R>, c: Color, w: &Weights) -> i32 {
    pos.men(c).count() as i32 * w.man + pos.kings_of(c).count() as i32 * w.king
}

fn side_score<R: Rules>(pos: &Position<R>, c: Color, w: &Weights) -> i32 {
    let m = masks_of::<R>();
    let h = R::Board::HEIGHT;
    let men = pos.men(c);
    let mut s = material(pos, c, w);
    let rel = |i: u8| -> usize {
        match c {
            Color::White => i as usize,
            Color::Black => (h - 1 - i) as usize,
        }
    };
    for i in 0..h {
        let n = (men & m.rows[rel(i)]).count() as i32;
        s += n * w.advance[i as usize];
    }
    if pos.men(c.opponent()).any() {
        s += (men & m.rows[rel(0)]).count() as i32 * w.back_rank;
    }
    s += (men & m.centre).count() as i32 * w.centre;
    s += (pos.kings_of(c) & (m.diagonal | m.centre)).count() as i32 * w.king_centre;
    // Runaway: men on the two rows before the crowning row, per free square in front.
    let empty = pos.empty();
    let (a, b) = match c {
        Color::White => (Dir::NW, Dir::NE),
        Color::Black => (Dir::SW, Dir::SE),
    };
    let near = men & (m.rows[rel(h - 2)] | m.rows[rel(h - 3)]);
    let open = R::Board::shift_within(near, a, empty).count()
        + R::Board::shift_within(near, b, empty).count();
    s += open as i32 * w.runaway / 2;
    s
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::notation::parse_fen;
    use crate::core::rules::International;

    fn eval(fen: &str) -> i32 {
        evaluate(&parse_fen::<International>(fen).expect("test FEN"))
    }

    /// Two kings cannot beat one in International draughts (FMJD 6.4 draws it after five
    /// moves), so a king more is worth little there; four kings against one win, so that lead
    /// (three pieces) keeps most of its value.
    #[test]
    fn international_king_endings_are_scored_by_their_chances() {
        let two_against_one = eval("W:WK46,K5:BK25");
        let four_against_one = eval("W:WK46,K5,K50,K1:BK25");
        assert!(two_against_one > 0 && two_against_one < FLYING.king / 4);
        assert!(four_against_one > 3 * FLYING.king / 2, "{four_against_one}");
        // Men more against no king at all are scored in full.
        let men_ahead = eval("W:W31,32,33,34,35:B16,17");
        assert!(men_ahead > 2 * FLYING.man, "{men_ahead}");
    }
}
