//! Quiescence search (after Scan 3.1): at the horizon a side with a capture must take, so a
//! position with a pending capture is never scored statically; a quiet position stands on the
//! static evaluation unless the opponent threatens a capture and standing pat would raise
//! alpha, in which case every move is tried one ply further, once per quiescence line
//! (docs/strength.md).

use super::ordering::pick_next;
use super::score::{no_move_score, INF, MAX_PLY};
use super::worker::Worker;
use crate::core::movegen::Duplicates;
use crate::core::moves::{MoveList, MAX_MOVES};
use crate::engine::eval::Evaluate;

impl<G: Evaluate> Worker<G> {
    /// Resolves pending captures: a side with a capture must take (no standing pat). A side
    /// without one stands on the static evaluation, unless the opponent threatens a capture,
    /// the static score would raise alpha, and this is the first quiet node of the quiescence
    /// (`threats` 0): then every move is tried, one ply, so that a shot just beyond the
    /// horizon is seen. (Threat search on every node: −22.6 ± 31.3 Elo; only where standing
    /// pat would not fail low: +59.6 ± 34.6; docs/strength.md.)
    pub(super) fn quiesce(
        &mut self,
        pos: &G::Position,
        mut alpha: i32,
        beta: i32,
        ply: usize,
        threats: u32,
    ) -> i32 {
        self.pv_len[ply] = 0;
        self.nodes += 1;
        self.seldepth = self.seldepth.max(ply);
        self.poll();
        if self.stopped {
            return 0;
        }
        let mut list = MoveList::new();
        G::generate_captures(pos, &mut list);
        let mut threat_search = false;
        if list.is_empty() {
            if !G::has_moves(pos) {
                return no_move_score::<G>(ply);
            }
            // A quiet node the endgame databases decide (ply > 0: quiescence never starts
            // at the root).
            if let Some(s) = self.probe_db(pos, ply, true) {
                return s;
            }
            let eval = self.static_eval(pos, ply);
            // Standing pat fails low already: a threat would only lower the score further.
            if ply >= MAX_PLY || threats > 0 || eval <= alpha || !G::threatened(pos) {
                return eval;
            }
            // The opponent threatens a capture: look at every move.
            G::generate(pos, &mut list, Duplicates::Drop);
            threat_search = true;
        } else if ply >= MAX_PLY {
            return self.static_eval(pos, ply);
        }
        let n = list.len();
        let mut keys = [0i32; MAX_MOVES];
        self.order_keys(&list, ply, &mut keys);
        let mut best = -INF;
        for _ in 0..n {
            let mv = list[pick_next(&mut keys[..n])];
            let child = G::make(pos, &mv);
            let score = -self.quiesce(
                &child,
                -beta,
                -alpha,
                ply + 1,
                threats + threat_search as u32,
            );
            if self.stopped {
                return 0;
            }
            if score > best {
                best = score;
                if score > alpha {
                    alpha = score;
                    self.update_pv(ply, mv);
                    if score >= beta {
                        break;
                    }
                }
            }
        }
        best
    }
}

#[cfg(test)]
mod tests {
    use super::super::time::TimePlan;
    use super::super::worker::Shared;
    use super::super::{Control, Limits, Searcher, INF};
    use crate::core::draughts::Notation;
    use crate::engine::eval::Evaluate;
    use std::sync::Arc;

    /// Quiescence of `fen` (English) from a fresh worker, and the static evaluation, both with
    /// the hand-set evaluation: a man there is worth a fixed 100 centi-men, so a lost man shows
    /// whatever a learned evaluation makes of an ending already lopsided (the built-in network
    /// values the man lost below in 2 against 4 at about 50).
    fn quiesce_english(fen: &str) -> (i32, i32) {
        use crate::core::rules::English;
        let pos = <English as Notation>::parse_fen(fen).unwrap();
        let mut s = Searcher::<English>::new(1);
        s.set_weights(None);
        let shared = Arc::new(Shared::new(Arc::new(Control::default())));
        let w = &mut s.workers[0];
        w.prepare(&pos, &[], &Limits::default(), &shared, TimePlan::default());
        let eval = English::evaluate(&pos, w.net.as_deref());
        (w.quiesce(&pos, -INF, INF, 0, 0), eval)
    }

    #[test]
    fn quiescence_does_not_stand_pat_under_a_threat() {
        // White to move has no capture; Black threatens 14x23 (over 18) and 16x23 (over 19),
        // and both White moves (18-15, 19-15) leave one of them: White loses a man. Standing
        // pat on the static evaluation would miss it.
        let (q, eval) = quiesce_english("W:W18,19:B9,12,14,16");
        assert!(q <= eval - 60, "quiescence {q}, static {eval}");
        // Without a threat the static evaluation stands.
        let (q, eval) = quiesce_english("W:W29,30:B1,2,3,4");
        assert_eq!(q, eval);
    }

    /// With an evaluation network, the search's static evaluation (first layer updated from a
    /// neighbour's: [`super::super::worker::Worker::static_eval`]) equals the network's
    /// evaluation from scratch, along random English and International games evaluated at
    /// plies that go up, repeat and jump back (a new line of the tree).
    #[test]
    fn network_evaluation_updated_in_the_search_equals_from_scratch() {
        use crate::core::rules::{English, International, Rules};
        use crate::core::variant::Variant;
        fn check<R: Rules>(v: Variant) {
            use crate::core::movegen::Duplicates;
            use crate::core::moves::MoveList;
            use crate::core::play::Play;
            use crate::engine::eval::network::Network;
            use crate::engine::eval::Net;
            use rand::rngs::StdRng;
            use rand::{Rng, SeedableRng};
            let net = Arc::new(Net::from_network(Network::random(v, 7, 1)));
            let mut s = Searcher::<R>::new(1);
            s.set_weights(Some(Arc::clone(&net)));
            let shared = Arc::new(Shared::new(Arc::new(Control::default())));
            let start = <R as Play>::start();
            let w = &mut s.workers[0];
            w.prepare(
                &start,
                &[],
                &Limits::default(),
                &shared,
                TimePlan::default(),
            );
            let mut rng = StdRng::seed_from_u64(3);
            let mut list = MoveList::new();
            let mut checked = 0;
            for _game in 0..20 {
                let mut pos = start;
                let mut ply = 0usize;
                for _ in 0..150 {
                    <R as Play>::generate(&pos, &mut list, Duplicates::Drop);
                    if list.is_empty() {
                        break;
                    }
                    pos = <R as Play>::make(&pos, &list.as_slice()[rng.gen_range(0..list.len())]);
                    // Mostly one ply deeper, sometimes the same ply or back up the tree.
                    ply = match rng.gen_range(0..10) {
                        0 => ply,
                        1 => ply / 2,
                        _ => (ply + 1).min(super::MAX_PLY),
                    };
                    assert_eq!(
                        w.static_eval(&pos, ply),
                        R::evaluate(&pos, Some(&net)),
                        "{v} ply {ply}"
                    );
                    checked += 1;
                }
            }
            assert!(checked > 1000);
        }
        check::<English>(Variant::English);
        check::<International>(Variant::International);
    }
}
