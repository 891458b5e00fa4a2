//! The principal-variation (PVS) alpha-beta search of one node: draws by repetition and by
//! the no-progress counter first (before quiescence and the table can hide them), mate-distance
//! pruning, the transposition-table cutoff, a forced-move extension, ProbCut, a singular
//! extension of the hash move, the hash move searched before the others are even ordered,
//! late-move reductions of quiet moves (adjusted by their history), and the table store.
//! ProbCut, LMR, the singular extension and the history adjustment were match-tested
//! (docs/strength.md).

use super::ordering::pick_next;
use super::score::{no_move_score, INF, MAX_PLY, WIN, WIN_BOUND};
use super::worker::Worker;
use crate::core::movegen::Duplicates;
use crate::core::moves::{Move, MoveList, MAX_MOVES};
use crate::core::play::Play;
use crate::core::rules::Goal;
use crate::core::variant::Variant;
use crate::engine::eval::Evaluate;
use crate::engine::tt::{from_tt, to_tt, Bound};

/// ProbCut: a null-window search `PROBCUT_REDUCTION` plies shallower that beats beta by
/// `PROBCUT_MARGIN` centi-men cuts the node (match-tested, docs/strength.md).
const PROBCUT_MARGIN: i32 = 80;
const PROBCUT_REDUCTION: i32 = 4;
/// Late-move reductions: `ln(depth) · ln(move number) / LMR_DIVISOR` plies (match-tested
/// against 2.2 on 8x8, docs/strength.md).
const LMR_DIVISOR: f32 = 1.6;
/// International's divisor: it reduces late moves harder (about a ply more at depth 12 from
/// the 10th move; match-tested against 1.6, docs/strength.md).
const LMR_DIVISOR_INTERNATIONAL: f32 = 1.2;
/// A late quiet move whose history is above this is reduced a ply less, below its negation a
/// ply more (history units: depth² per cutoff, [`Worker::reward`]).
const LMR_HISTORY: i32 = 2000;
/// The singular extension is tried from this depth (plies) on.
const SINGULAR_DEPTH: i32 = 8;
/// The singular search looks this many centi-men a ply of depth below the hash move's score.
const SINGULAR_MARGIN: i32 = 2;
/// No singular extension where the hash move's score is this many centi-men or more (20 men:
/// a decided position, a database result or a win).
const SINGULAR_SCORE_LIMIT: i32 = 2000;

/// Late-move reduction in plies for a quiet move at `depth` plies, the `i`-th searched (from 0),
/// in variant `G` ([`LMR_DIVISOR`], [`LMR_DIVISOR_INTERNATIONAL`]).
#[inline]
fn reduction<G: Play>(depth: i32, i: usize, pv_node: bool) -> i32 {
    if depth < 3 || i < 3 {
        return 0;
    }
    let divisor = if G::VARIANT == Variant::International {
        LMR_DIVISOR_INTERNATIONAL
    } else {
        LMR_DIVISOR
    };
    let r = ((depth as f32).ln() * (i as f32).ln() / divisor) as i32;
    (r - pv_node as i32).clamp(0, depth - 2)
}

/// A late quiet move's reduction `r` (plies) at `depth` (from the fourth move searched on,
/// killers too), one ply more for a move whose history `h` is below −[`LMR_HISTORY`], one less
/// above it; at most `depth - 2`.
#[inline]
fn history_adjusted(r: i32, h: i32, depth: i32) -> i32 {
    if depth < 3 {
        return r;
    }
    let r = if h < -LMR_HISTORY {
        r + 1
    } else if h > LMR_HISTORY {
        r - 1
    } else {
        r
    };
    r.clamp(0, depth - 2)
}

impl<G: Evaluate> Worker<G> {
    /// PVS alpha-beta. Scores are from the side to move's view.
    pub(super) fn search(
        &mut self,
        pos: &G::Position,
        mut depth: i32,
        mut alpha: i32,
        mut beta: i32,
        ply: usize,
    ) -> i32 {
        self.pv_len[ply] = 0;
        if ply > 0 {
            // Draws first: neither quiescence nor a table entry may hide them.
            if self.is_repetition(ply) {
                return self.draw_score(ply);
            }
            if G::draw_by_counter(pos) {
                return if G::has_moves(pos) {
                    self.draw_score(ply)
                } else {
                    no_move_score::<G>(ply)
                };
            }
            // Mate-distance pruning: nothing here beats a win already found nearer the root.
            // The side to move loses at once at worst and wins a ply later at best; in
            // Antidraughts it wins at once at best (no move) and loses a ply later at worst.
            let now = WIN - ply as i32;
            if G::GOAL == Goal::NoMoveWins {
                alpha = alpha.max(-(now - 1));
                beta = beta.min(now);
            } else {
                alpha = alpha.max(-now);
                beta = beta.min(now - 1);
            }
            if alpha >= beta {
                return alpha;
            }
            // The endgame databases decide a quiet node within their pieces (exact). The node
            // was visited: it counts (as quiescence counts its nodes before probing). Nothing
            // goes to the transposition table: this node is always probed before the table
            // is read, and the per-thread probe cache answers a repeat more cheaply.
            if let Some(s) = self.probe_db(pos, ply, false) {
                self.nodes += 1;
                return s;
            }
        }
        if depth <= 0 || ply >= MAX_PLY {
            return self.quiesce(pos, alpha, beta, ply, 0);
        }
        self.nodes += 1;
        self.seldepth = self.seldepth.max(ply);
        self.poll();
        if self.stopped {
            return 0;
        }
        let pv_node = beta - alpha > 1;
        let key = G::key(pos);
        let mut tt_index = None;
        let mut tt_entry = None;
        if let Some(e) = self.tt.probe(key) {
            tt_index = e.mv;
            let s = from_tt(e.score, ply);
            tt_entry = Some((s, e.depth as i32, e.bound));
            if !pv_node && e.depth as i32 >= depth {
                match e.bound {
                    Bound::Exact => return s,
                    Bound::Lower if s >= beta => return s,
                    Bound::Upper if s <= alpha => return s,
                    _ => {}
                }
            }
        }
        let mut list = MoveList::new();
        G::generate(pos, &mut list, Duplicates::Drop);
        let n = list.len();
        if n == 0 {
            return no_move_score::<G>(ply);
        }
        // A forced move (often a capture) costs no branching: look one ply further.
        if n == 1 && ply < MAX_PLY / 2 {
            depth += 1;
        }
        let tt_index = tt_index.map(usize::from).filter(|&i| i < n);

        // ProbCut: a shallow search that beats beta by a margin predicts a cutoff.
        if !pv_node && depth > PROBCUT_REDUCTION && beta.abs() < WIN_BOUND && n > 1 {
            let pc_beta = beta + PROBCUT_MARGIN;
            let pc_depth = depth - PROBCUT_REDUCTION;
            let s = self.search_moves(pos, &list, tt_index, pc_depth, pc_beta - 1, pc_beta, ply);
            if self.stopped {
                return 0;
            }
            if s.0 >= pc_beta {
                return s.0;
            }
        }

        // Singular extension: when every other move fails well below the hash move's score
        // (a lower bound or exact, from nearly this depth), the hash move is searched a ply
        // deeper.
        let mut singular = false;
        if let (Some(t), Some((ts, td, tb))) = (tt_index, tt_entry) {
            if ply > 0
                && depth >= SINGULAR_DEPTH
                && n > 1
                && td >= depth - 3
                && matches!(tb, Bound::Lower | Bound::Exact)
                && ts.abs() < SINGULAR_SCORE_LIMIT
            {
                let s_beta = ts - SINGULAR_MARGIN * depth;
                singular = self.all_fail_low(pos, &list, t, (depth - 1) / 2, s_beta, ply);
                if self.stopped {
                    return 0;
                }
            }
        }

        let old_alpha = alpha;
        let mut keys = [0i32; MAX_MOVES];
        let mut keyed = false;
        let mut best = -INF;
        let mut best_index = None;
        let mut quiets_tried = [0u8; 64];
        let mut n_quiets = 0;
        for i in 0..n {
            // Lazy picking: the hash move first, the other moves scored only if needed.
            let idx = if i == 0 && tt_index.is_some() {
                tt_index.unwrap_or(0)
            } else {
                if !keyed {
                    self.order_keys(&list, ply, &mut keys);
                    if let Some(t) = tt_index {
                        keys[t] = i32::MIN;
                    }
                    keyed = true;
                }
                pick_next(&mut keys[..n])
            };
            let mv = list[idx];
            let child = G::make(pos, &mv);
            self.push_child(pos, &mv, &child, ply);
            let quiet = !mv.is_capture() && !mv.promotes;
            let mut score;
            if i == 0 {
                // The first move searched is the hash move whenever `singular` holds.
                let extension = singular as i32;
                score = -self.search(&child, depth - 1 + extension, -beta, -alpha, ply + 1);
            } else {
                // Late quiet moves are searched shallower first.
                let mut r = if quiet && self.killers[ply][0] != Some(mv) {
                    reduction::<G>(depth, i, pv_node)
                } else {
                    0
                };
                if quiet && i >= 3 {
                    r = history_adjusted(r, self.history_of(&mv), depth);
                }
                let d = depth - 1;
                score = -self.search(&child, d - r, -alpha - 1, -alpha, ply + 1);
                if score > alpha && r > 0 {
                    score = -self.search(&child, d, -alpha - 1, -alpha, ply + 1);
                }
                if score > alpha && score < beta {
                    score = -self.search(&child, d, -beta, -alpha, ply + 1);
                }
            }
            if self.stopped {
                return 0;
            }
            if score > best {
                best = score;
                best_index = Some(idx);
                if score > alpha {
                    alpha = score;
                    self.update_pv(ply, mv);
                    if ply == 0 {
                        self.root_best = Some((mv, score));
                    }
                    if score >= beta {
                        if quiet {
                            self.reward(ply, mv, depth, &list, &quiets_tried[..n_quiets]);
                        }
                        break;
                    }
                }
            }
            if quiet && n_quiets < quiets_tried.len() {
                quiets_tried[n_quiets] = idx as u8;
                n_quiets += 1;
            }
        }
        let bound = if best >= beta {
            Bound::Lower
        } else if best > old_alpha {
            Bound::Exact
        } else {
            Bound::Upper
        };
        let stored_move = best_index.filter(|&i| i < 255).map(|i| i as u8);
        self.tt
            .store(key, depth, to_tt(best, ply), bound, stored_move);
        best
    }

    /// The singular test: whether every move but the hash move (`skip`) fails low against
    /// `s_beta` in a null-window search of `depth` plies (stops at the first that does not).
    fn all_fail_low(
        &mut self,
        pos: &G::Position,
        list: &MoveList,
        skip: usize,
        depth: i32,
        s_beta: i32,
        ply: usize,
    ) -> bool {
        for (k, mv) in list.iter().enumerate() {
            if k == skip {
                continue;
            }
            let s = self.search_move(pos, mv, depth, s_beta - 1, s_beta, ply);
            if self.stopped || s >= s_beta {
                return false;
            }
        }
        true
    }

    /// Plays `mv` from `pos` (at `ply`) and searches the child to `depth - 1` plies in the
    /// window (`alpha`, `beta`) of the side that moved: its score from that side's view.
    #[inline]
    fn search_move(
        &mut self,
        pos: &G::Position,
        mv: &Move,
        depth: i32,
        alpha: i32,
        beta: i32,
        ply: usize,
    ) -> i32 {
        let child = G::make(pos, mv);
        self.push_child(pos, mv, &child, ply);
        -self.search(&child, depth - 1, -beta, -alpha, ply + 1)
    }

    /// A null-window search of every move at `depth` (for ProbCut): the best score and its
    /// move's index.
    #[allow(clippy::too_many_arguments)]
    fn search_moves(
        &mut self,
        pos: &G::Position,
        list: &MoveList,
        tt_index: Option<usize>,
        depth: i32,
        alpha: i32,
        beta: i32,
        ply: usize,
    ) -> (i32, Option<usize>) {
        let n = list.len();
        let mut best = -INF;
        let mut best_index = None;
        for k in 0..n {
            // The hash move first, then the generated order (captures were generated alone).
            let idx = match tt_index {
                Some(t) if k == 0 => t,
                Some(t) if k <= t => k - 1,
                _ => k,
            };
            let s = self.search_move(pos, &list[idx], depth, alpha, beta, ply);
            if self.stopped {
                return (0, None);
            }
            if s > best {
                best = s;
                best_index = Some(idx);
                if s >= beta {
                    break;
                }
            }
        }
        (best, best_index)
    }
}

#[cfg(test)]
mod tests {
    use super::{history_adjusted, reduction, LMR_HISTORY};
    use crate::core::rules::{English, International};

    /// History moves a reduction by one ply each way, never below 0 nor past `depth - 2`
    /// (a reduced search keeps at least a ply), and not at all below depth 3.
    #[test]
    fn history_moves_the_reduction_by_a_ply() {
        for depth in 3..40 {
            for i in 3..40 {
                let r = reduction::<English>(depth, i, false);
                let bad = history_adjusted(r, -LMR_HISTORY - 1, depth);
                let good = history_adjusted(r, LMR_HISTORY + 1, depth);
                assert_eq!(history_adjusted(r, 0, depth), r);
                assert_eq!(bad, (r + 1).min(depth - 2), "depth {depth} move {i}");
                assert_eq!(good, (r - 1).max(0), "depth {depth} move {i}");
                assert!(bad <= depth - 2);
            }
        }
        assert_eq!(history_adjusted(0, -LMR_HISTORY - 1, 2), 0);
    }

    /// International reduces at least as much as the 8x8 variants everywhere, more somewhere
    /// (its divisor is smaller), and never past `depth - 2`.
    #[test]
    fn international_reduces_harder() {
        let mut more = 0;
        for depth in 3..40 {
            for i in 3..60 {
                let ten = reduction::<International>(depth, i, false);
                let eight = reduction::<English>(depth, i, false);
                assert!(ten >= eight && ten <= depth - 2, "depth {depth} move {i}");
                more += (ten > eight) as u32;
            }
        }
        assert!(more > 0);
    }
}
