//! Iterative deepening at the root: one search per depth, from depth 4 in an aspiration window
//! of ±25 centi-men around the last score unless that is a win or a loss (the window doubled on
//! each fail, opened fully past 400); the result and the report of every completed iteration,
//! the best move of an unfinished one when it beat the last, and the best-move stability that
//! scales the time for the next iteration (the decision itself is in `time.rs`). The helpers of
//! a Lazy SMP search run the same loop without reporting, odd ones starting a ply deeper.

use super::worker::Worker;
use super::{Depth, Info, Limits, Reporter, Score, SearchResult, INF, MAX_PLY, WIN, WIN_BOUND};
use crate::core::movegen::Duplicates;
use crate::core::moves::{Move, MoveList};
use crate::engine::eval::Evaluate;
use std::sync::atomic::Ordering;
use std::sync::Arc;

impl<G: Evaluate> Worker<G> {
    /// Iterative deepening. The main thread (`id` 0) reports and keeps time; helpers search
    /// until the main thread halts them.
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
            result.score = Score::from_search(-WIN);
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
            self.root_best = None;
            let s = self.aspiration(root, depth as i32, score);
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
                            reporter.iteration(&Info {
                                depth: Depth(depth),
                                seldepth: Depth(self.seldepth as u32),
                                score: Score::from_search(s),
                                nodes: self.total_nodes(),
                                time_ms: self.start.elapsed().as_millis() as u64,
                                hashfull: self.tt.hashfull(),
                                db_hits: self.shared.db_hits.load(Ordering::Relaxed),
                                pv,
                            });
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
                continue;
            }
            reporter.iteration(&Info {
                depth: Depth(depth),
                seldepth: Depth(self.seldepth as u32),
                score: Score::from_search(score),
                nodes: self.total_nodes(),
                time_ms: self.start.elapsed().as_millis() as u64,
                hashfull: self.tt.hashfull(),
                db_hits: self.shared.db_hits.load(Ordering::Relaxed),
                pv,
            });
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
        }
        self.flush_nodes();
        result
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
