//! Iterative deepening at the root: one search per depth, from depth 4 in an aspiration window
//! of ±25 centi-men around the last score unless that is a win or a loss (the window doubled on
//! each fail, opened fully past 400); the result and the report of every completed iteration,
//! the best move of an unfinished one when it beat the last, and the best-move stability that
//! scales the time for the next iteration (the decision itself is in `time.rs`). The helpers of
//! a Lazy SMP search run the same loop without reporting, odd ones starting a ply deeper, and
//! skip a depth that another thread is already searching; the main thread plays the deepest
//! iteration a helper completed when it is deeper than its own.

use super::limits::Limits;
use super::report::{Info, Reporter, SearchResult};
use super::score::{no_move_score, Depth, Score, INF, MAX_PLY, WIN_BOUND};
use super::worker::{HelperResult, Worker};
use crate::core::movegen::Duplicates;
use crate::core::moves::{Move, MoveList};
use crate::engine::eval::Evaluate;
use std::sync::atomic::Ordering;
use std::sync::Arc;

impl<G: Evaluate> Worker<G> {
    /// Iterative deepening. The main thread (`id` 0) reports and keeps time; helpers search
    /// until the main thread halts them, or until one of them completes the depth limit,
    /// which halts every thread.
    pub(super) fn iterate(
        &mut self,
        root: &G::Position,
        limits: &Limits,
        reporter: &mut dyn Reporter,
    ) -> SearchResult {
        let main = self.id == 0;
        let control = Arc::clone(&self.shared.control);
        let mut root_moves = MoveList::new();
        G::generate(root, &mut root_moves, Duplicates::Drop);
        let mut result = SearchResult {
            best: root_moves.first().copied(),
            ponder: None,
            score: Score::Cp(0),
            depth: Depth(0),
            nodes: 0,
            db_hits: 0,
        };
        if root_moves.is_empty() {
            result.score = Score::from_search(no_move_score::<G>(0));
            if main {
                self.wait_for_stop(limits, &control);
            }
            return result;
        }
        let max_depth = limits
            .depth
            .map_or(MAX_PLY as u32 - 20, |d| d.0)
            .clamp(1, MAX_PLY as u32 - 20);
        let mut score = 0;
        let mut stable = 0u32;
        let mut instability = 0.0f64;
        let first = if main { 1 } else { 1 + (self.id as u32 & 1) };
        for depth in first..=max_depth {
            let d = (depth as usize).min(MAX_PLY + 1);
            let slot = &self.shared.searching[d];
            // A helper leaves a depth another thread has started to the next depth.
            if !main && depth < max_depth && slot.load(Ordering::Relaxed) > 0 {
                continue;
            }
            slot.fetch_add(1, Ordering::Relaxed);
            self.root_best = None;
            let s = self.aspiration(root, depth as i32, score);
            self.shared.searching[d].fetch_sub(1, Ordering::Relaxed);
            if self.stopped {
                // A move that raised alpha in the unfinished iteration beat the last best: it
                // is played, and reported first so that `bestmove` is the last PV's move.
                if let Some((mv, s)) = self.root_best {
                    if result.best != Some(mv) {
                        let mut pv: Vec<Move> = self.pv[0][..self.pv_len[0]].to_vec();
                        if pv.first() != Some(&mv) {
                            pv = vec![mv];
                        }
                        result.best = Some(mv);
                        result.ponder = pv.get(1).copied();
                        result.score = Score::from_search(s);
                        if main {
                            self.flush_nodes();
                            reporter.iteration(&self.info(depth, self.seldepth as u32, s, pv));
                        }
                    }
                }
                break;
            }
            let prev_best = result.best;
            let prev_score = score;
            score = s;
            let pv: Vec<Move> = self.pv[0][..self.pv_len[0]].to_vec();
            if let Some(&best) = pv.first() {
                result.best = Some(best);
                result.ponder = pv.get(1).copied();
            }
            result.score = Score::from_search(score);
            result.depth = Depth(depth);
            self.flush_nodes();
            if !main {
                if result.best.is_some() {
                    let mut h = self
                        .shared
                        .helper_best
                        .lock()
                        .unwrap_or_else(|e| e.into_inner());
                    if h.as_ref().is_none_or(|h| h.depth < depth) {
                        *h = Some(HelperResult {
                            depth,
                            seldepth: self.seldepth as u32,
                            score,
                            pv: self.pv[0][..self.pv_len[0]].to_vec(),
                        });
                    }
                }
                // A helper that completes the depth limit ends the search: the main thread
                // plays its iteration (time to a depth is the first thread's to reach it).
                if depth == max_depth {
                    self.shared.halt.store(true, Ordering::Relaxed);
                    break;
                }
                continue;
            }
            reporter.iteration(&self.info(depth, self.seldepth as u32, score, pv));
            // Best-move stability: a changed best move or a falling score asks for more time.
            instability *= 0.5;
            if depth > 1 && prev_best != result.best {
                instability += 1.0;
                stable = 0;
            } else {
                stable += 1;
            }
            let mut factor = 0.7 + instability;
            if depth > 4 && score < prev_score - 20 {
                factor += 0.4;
            }
            if stable >= 6 {
                factor *= 0.8;
            }
            if self.should_stop_iterating(depth, score, root_moves.len(), factor.min(2.0)) {
                break;
            }
        }
        if main {
            self.wait_for_stop(limits, &control);
            self.take_helper_result(&mut result, reporter);
        }
        self.flush_nodes();
        result
    }

    /// Lazy SMP: plays the deepest iteration a helper completed when it is deeper than the
    /// main thread's last, and reports it with the helper's selective depth (the main thread
    /// may have stopped early, e.g. on a forced move, and reached fewer plies than that PV).
    fn take_helper_result(&mut self, result: &mut SearchResult, reporter: &mut dyn Reporter) {
        let h = self
            .shared
            .helper_best
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .clone();
        let Some(h) = h else { return };
        if h.depth <= result.depth.0 || h.pv.is_empty() {
            return;
        }
        result.best = Some(h.pv[0]);
        result.ponder = h.pv.get(1).copied();
        result.score = Score::from_search(h.score);
        result.depth = Depth(h.depth);
        self.flush_nodes();
        reporter.iteration(&self.info(h.depth, h.seldepth, h.score, h.pv));
    }

    /// The report of an iteration at `depth` plies that reached `seldepth` plies, with its
    /// score (search scale) and PV; nodes, time and table use as they stand now.
    fn info(&self, depth: u32, seldepth: u32, score: i32, pv: Vec<Move>) -> Info {
        Info {
            depth: Depth(depth),
            seldepth: Depth(seldepth),
            score: Score::from_search(score),
            nodes: self.total_nodes(),
            time_ms: self.start.elapsed().as_millis() as u64,
            hashfull: self.tt.hashfull(),
            db_hits: self.shared.db_hits.load(Ordering::Relaxed),
            pv,
        }
    }

    fn aspiration(&mut self, root: &G::Position, depth: i32, prev: i32) -> i32 {
        if depth < 4 || prev.abs() >= WIN_BOUND {
            return self.search(root, depth, -INF, INF, 0);
        }
        let mut window = 25;
        let (mut alpha, mut beta) = (prev - window, prev + window);
        loop {
            let s = self.search(root, depth, alpha, beta, 0);
            if self.stopped {
                return s;
            }
            if s <= alpha {
                alpha = (s - window).max(-INF);
            } else if s >= beta {
                beta = (s + window).min(INF);
            } else {
                return s;
            }
            window *= 2;
            if window > 400 {
                alpha = -INF;
                beta = INF;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::time::TimePlan;
    use super::super::worker::{HelperResult, Shared};
    use super::super::{Control, Depth, Info, Limits, Reporter, SearchResult, Searcher, Silent};
    use crate::core::movegen::Duplicates;
    use crate::core::moves::{Move, MoveList};
    use crate::core::play::Play;
    use crate::core::rules::English;
    use std::sync::atomic::Ordering;
    use std::sync::Arc;

    /// Records the depths and first moves reported.
    #[derive(Default)]
    struct Log(Vec<(u32, u32, Option<Move>)>);
    impl Reporter for Log {
        fn iteration(&mut self, info: &Info) {
            self.0
                .push((info.depth.0, info.seldepth.0, info.pv.first().copied()));
        }
    }

    /// The English start position and its legal moves.
    fn start() -> (<English as Play>::Position, MoveList) {
        let pos = <English as Play>::start();
        let mut list = MoveList::new();
        <English as Play>::generate(&pos, &mut list, Duplicates::Drop);
        (pos, list)
    }

    /// Worker `id` of `s` prepared for `limits` over `shared` and iterated on the English
    /// start position: its result.
    fn iterate_worker(
        s: &mut Searcher<English>,
        id: usize,
        limits: &Limits,
        shared: &Arc<Shared>,
        reporter: &mut dyn Reporter,
    ) -> SearchResult {
        let pos = <English as Play>::start();
        let w = &mut s.workers[id];
        w.prepare(&pos, &[], limits, shared, TimePlan::default());
        w.iterate(&pos, limits, reporter)
    }

    /// A helper's completed iteration deeper than the main thread's last is played and
    /// reported; one no deeper is not.
    #[test]
    fn a_deeper_helper_iteration_is_played() {
        let (_, list) = start();
        let mut s = Searcher::<English>::new(1);
        let control = Arc::new(Control::default());
        let limits = Limits {
            depth: Some(Depth(3)),
            ..Limits::default()
        };
        for (helper_depth, played) in [(9, true), (3, false), (2, false)] {
            let shared = Arc::new(Shared::new(Arc::clone(&control)));
            // The last legal move: not what a 3-ply search of the start chooses first.
            let helper_move = list.as_slice()[list.len() - 1];
            *shared.helper_best.lock().unwrap() = Some(HelperResult {
                depth: helper_depth,
                seldepth: 23,
                score: 7,
                pv: vec![helper_move],
            });
            let mut log = Log::default();
            let r = iterate_worker(&mut s, 0, &limits, &shared, &mut log);
            assert_eq!(
                r.best == Some(helper_move),
                played,
                "helper depth {helper_depth}"
            );
            if played {
                assert_eq!(r.depth, Depth(9));
                let last = log.0.last().unwrap();
                assert_eq!(last, &(9, 23, Some(helper_move)));
            } else {
                assert_eq!(r.depth, Depth(3));
                assert_eq!(log.0.last().unwrap().0, 3);
            }
            // Every depth started was given back.
            assert!(shared
                .searching
                .iter()
                .all(|c| c.load(Ordering::Relaxed) == 0));
        }
    }

    /// A helper that completes the depth limit halts the search (the main thread then plays
    /// its iteration); the main thread at the limit ends the search itself, halting nothing.
    #[test]
    fn a_helper_at_the_depth_limit_halts_the_search() {
        let mut s = Searcher::<English>::new(1);
        s.set_threads(2);
        let control = Arc::new(Control::default());
        let limits = Limits {
            depth: Some(Depth(5)),
            ..Limits::default()
        };
        let shared = Arc::new(Shared::new(Arc::clone(&control)));
        let r = iterate_worker(&mut s, 1, &limits, &shared, &mut Silent);
        assert_eq!(r.depth, Depth(5));
        assert!(shared.halt.load(Ordering::Relaxed));
        assert_eq!(
            shared.helper_best.lock().unwrap().as_ref().unwrap().depth,
            5
        );
        // A main thread at the same limit does not halt anything (it ends the search itself).
        let shared = Arc::new(Shared::new(Arc::clone(&control)));
        let r = iterate_worker(&mut s, 0, &limits, &shared, &mut Silent);
        assert_eq!(r.depth, Depth(5));
        assert!(!shared.halt.load(Ordering::Relaxed));
    }

    /// Two threads to a fixed depth: a legal move, searched to that depth at least.
    #[test]
    fn two_threads_reach_the_depth() {
        let (pos, list) = start();
        let mut s = Searcher::<English>::new(8);
        s.set_threads(2);
        let control = Arc::new(Control::default());
        let limits = Limits {
            depth: Some(Depth(10)),
            ..Limits::default()
        };
        let r = s.think(&pos, &[], &limits, &control, &mut Silent);
        assert!(r.depth >= Depth(10), "{:?}", r.depth);
        assert!(list.iter().any(|m| Some(*m) == r.best));
    }
}
