//! Strength levels (option `Level`, docs/protocol.md): a weaker player than the full search,
//! for people and bots to play against. Level 20 is the full search and never comes here.
//! Below it the engine plays like a weaker player rather than a strong one that blunders at
//! random: it looks less far (a node budget and a depth cap that grow with the level) and
//! among the moves it did look at it prefers the better ones, choosing by a weight that falls
//! with each move's score loss against the best (a temperature that shrinks as the level
//! rises; moves more than three temperatures worse are never played). Level 0 plays a random
//! legal move (the calibration's anchor, docs/strength.md "Strength levels").
//!
//! The root moves are scored one by one (every root move searched from its child with a full
//! window, one depth after another, as a multi-PV search would): the full search proves one
//! best move with null windows and knows the others only as bounds. The idea of a choice
//! among the best few root moves weighted by score with a level-dependent margin follows
//! Stockfish's `Skill`; the budget, the weights and the exclusion are damiera's own.
//!
//! The choice draws from one number, [`level_random`] of the `Seed` option, the root's key
//! and the number of games begun: with `Threads` 1 the same seed, position and game count
//! give the same move (node counts are deterministic on one thread), so tests and matches can
//! reproduce a game; the next game varies.

use super::limits::{Control, Limits};
use super::report::{Info, Reporter, SearchResult};
use super::score::{Depth, Score, WIN};
use super::time::time_plan;
use super::worker::park_until_stop;
use super::Searcher;
use crate::core::movegen::Duplicates;
use crate::core::moves::{Move, MoveList};
use crate::engine::eval::Evaluate;
use std::sync::atomic::Ordering;
use std::sync::Arc;
use std::time::Instant;

/// The full-strength level, the default of the `Level` option.
pub const MAX_LEVEL: u32 = 20;

/// A strength level, 0 to [`MAX_LEVEL`]: 0 plays a random legal move, 1 to 19 a weakened
/// search ([`Level::node_budget`], [`Level::max_depth`], [`Level::temperature_cm`]), 20 the
/// full search.
#[derive(Copy, Clone, PartialEq, Eq, PartialOrd, Ord, Debug)]
pub struct Level(u32);

impl Default for Level {
    fn default() -> Level {
        Level::FULL
    }
}

impl Level {
    /// Full strength: the search as it is, no choice among moves.
    pub const FULL: Level = Level(MAX_LEVEL);

    /// The level `n`, if it is 0 to [`MAX_LEVEL`].
    pub fn new(n: u32) -> Option<Level> {
        (n <= MAX_LEVEL).then_some(Level(n))
    }

    /// The level's number.
    pub fn get(self) -> u32 {
        self.0
    }

    /// Whether this is the full search ([`Level::FULL`]).
    pub fn is_full(self) -> bool {
        self.0 >= MAX_LEVEL
    }

    /// The nodes one move's root scoring may spend (levels 1-19): 200 × 1.5^(level − 1),
    /// from 200 at level 1 to 295,578 at level 19 (the full search spends about 200,000 a
    /// move at 100 ms on this project's 2-core machine). A depth is abandoned when it would
    /// go past the budget, except the first (root depth 2), which always completes.
    pub fn node_budget(self) -> u64 {
        (200.0 * 1.5f64.powi(self.0.max(1) as i32 - 1)).round() as u64
    }

    /// The deepest root iteration in plies (levels 1-19): the level plus one, at least 2 (a
    /// move and the reply, each with its quiescence).
    pub fn max_depth(self) -> u32 {
        (self.0 + 1).max(2)
    }

    /// The temperature of the choice in centi-men (levels 1-19): 4 × (20 − level), 76 at
    /// level 1, 4 at level 19. A move `loss` centi-men worse than the best has the weight
    /// e^(−loss / temperature); one more than three temperatures worse is never played.
    pub fn temperature_cm(self) -> i32 {
        4 * (MAX_LEVEL.saturating_sub(self.0)) as i32
    }
}

/// The number a level's choice draws from: a SplitMix64 mix of the `Seed` option, the root
/// position's key and the number of games begun (`ucinewgame`, Hub's `new-game`).
pub fn level_random(seed: u64, key: u64, games: u64) -> u64 {
    let mut x = seed;
    for part in [key, games] {
        x = splitmix64(x ^ part);
    }
    splitmix64(x)
}

/// SplitMix64's output function of one state (Steele, Lea and Flood, "Fast splittable
/// pseudorandom number generators", OOPSLA 2014).
fn splitmix64(x: u64) -> u64 {
    let mut z = x.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// The index of the move a level plays among root moves with these search `scores`
/// (centi-men, or `WIN - n` for a win in `n` plies, from the side to move's view): a weighted
/// draw by `random`, the weight of a move `loss` centi-men below the best e^(−loss / T) for the
/// level's temperature T, nothing more than 3 T below the best. Level 0 draws uniformly; at a
/// temperature of 0 (full strength) the first best is played.
///
/// # Panics
/// If `scores` is empty.
pub fn choose(scores: &[i32], level: Level, random: u64) -> usize {
    assert!(!scores.is_empty(), "no move to choose from");
    if level.get() == 0 {
        return (random % scores.len() as u64) as usize;
    }
    let best = *scores.iter().max().expect("not empty");
    let t = level.temperature_cm();
    if t == 0 {
        return scores
            .iter()
            .position(|&s| s == best)
            .expect("max is there");
    }
    let weight = |s: i32| -> f64 {
        let loss = i64::from(best) - i64::from(s);
        if loss > 3 * i64::from(t) {
            0.0
        } else {
            (-(loss as f64) / f64::from(t)).exp()
        }
    };
    let total: f64 = scores.iter().map(|&s| weight(s)).sum();
    // 53 random bits as a fraction in [0, 1).
    let mut x = (random >> 11) as f64 / (1u64 << 53) as f64 * total;
    for (i, &s) in scores.iter().enumerate() {
        let w = weight(s);
        if x < w {
            return i;
        }
        x -= w;
    }
    scores
        .iter()
        .position(|&s| s == best)
        .expect("max is there")
}

/// What a level plays with: the level (below [`Level::FULL`]) and the number its choice draws
/// from ([`level_random`]).
#[derive(Copy, Clone, Debug)]
pub struct LevelChoice {
    /// The strength level.
    pub level: Level,
    /// The random number of the choice.
    pub random: u64,
}

/// Keeps the PV and selective depth of a root move's search.
#[derive(Default)]
struct LastLine {
    pv: Vec<Move>,
    seldepth: u32,
}

impl Reporter for LastLine {
    fn iteration(&mut self, info: &Info) {
        self.pv.clone_from(&info.pv);
        self.seldepth = info.seldepth.0;
    }
}

/// One root move's score at the last completed depth, with its line.
#[derive(Clone)]
struct Scored {
    mv: Move,
    score: i32,
    line: Vec<Move>,
    seldepth: u32,
}

impl<G: Evaluate> Searcher<G> {
    /// Searches `root` at a strength `level` below [`Level::FULL`] and returns the move the
    /// level plays (module docs): the root moves scored depth by depth within the level's
    /// budget and `limits` (time, nodes, depth; `stop`), then one drawn with `choice.random`
    /// ([`level_random`]). Each completed depth is reported with the line and score of the
    /// move the level would play after it, so that the move played is the last PV's. With `infinite` or while pondering it returns only after
    /// `stop` (or the ponder-hit), as the full search does.
    pub fn think_at_level(
        &mut self,
        root: &G::Position,
        history: &[u64],
        limits: &Limits,
        control: &Arc<Control>,
        choice: LevelChoice,
        reporter: &mut dyn Reporter,
    ) -> SearchResult {
        let LevelChoice { level, random } = choice;
        let started = Instant::now();
        let mut moves = MoveList::new();
        G::generate(root, &mut moves, Duplicates::Drop);
        let mut result = SearchResult {
            best: None,
            ponder: None,
            score: Score::from_search(-WIN),
            depth: Depth(0),
            nodes: 0,
            db_hits: 0,
        };
        if moves.is_empty() || level.get() == 0 {
            result.best =
                (!moves.is_empty()).then(|| moves.as_slice()[choose_index(moves.len(), random)]);
            result.score = Score::Cp(0);
            park_until_stop(limits, control);
            return result;
        }
        let plan = time_plan(limits, G::piece_count(root));
        // The level's budget, or the `go nodes` limit when that is smaller.
        let budget = limits
            .nodes
            .map_or(level.node_budget(), |n| n.min(level.node_budget()));
        let max_depth = limits
            .depth
            .map_or(level.max_depth(), |d| d.0.max(2))
            .min(level.max_depth());
        // The root moves' children are searched with the contempt seen from their side.
        let contempt = self.contempt;
        self.set_contempt(-contempt);
        let mut scored: Vec<Scored> = Vec::with_capacity(moves.len());
        let mut used = 0u64;
        let mut db_hits = 0u64;
        'depths: for depth in 2..=max_depth {
            let mut this: Vec<Scored> = Vec::with_capacity(moves.len());
            for &mv in moves.iter() {
                let child = G::make(root, &mv);
                let mut child_history = Vec::new();
                if !G::is_irreversible(root, &mv) {
                    child_history.extend_from_slice(history);
                    child_history.push(G::key(root));
                }
                let sub = Limits {
                    depth: Some(Depth(depth - 1)),
                    // The first depth always completes; later ones stop at the budget.
                    nodes: (depth > 2).then(|| budget.saturating_sub(used).max(1)),
                    infinite: false,
                    return_when_done: true,
                    ..limits.clone()
                };
                let mut line = LastLine::default();
                let r = self.think(&child, &child_history, &sub, control, &mut line);
                used += r.nodes;
                db_hits += r.db_hits;
                let out_of_time = !control.pondering.load(Ordering::Relaxed)
                    && plan.hard.is_some_and(|h| control.clock_ms() >= h);
                let over = (depth > 2 && used >= budget) || out_of_time;
                if control.stop.load(Ordering::Relaxed) || (over && !scored.is_empty()) {
                    break 'depths;
                }
                let mut pv = vec![mv];
                pv.extend(line.pv);
                this.push(Scored {
                    mv,
                    score: -r.score.to_search(),
                    line: pv,
                    seldepth: line.seldepth + 1,
                });
            }
            scored = this;
            result.depth = Depth(depth);
            let chosen = &scored[choose_scored(&scored, level, random)];
            reporter.iteration(&self.level_info(depth, chosen, used, db_hits, started));
            result.best = Some(chosen.mv);
            result.ponder = chosen.line.get(1).copied();
            result.score = Score::from_search(chosen.score);
            if used >= budget {
                break;
            }
        }
        self.set_contempt(contempt);
        if scored.is_empty() {
            // Stopped before the first depth ended: the first legal move.
            result.best = moves.first().copied();
        }
        result.nodes = used;
        result.db_hits = db_hits;
        park_until_stop(limits, control);
        result
    }

    /// The report of a level's completed `depth` with the line of root move `s`.
    fn level_info(&self, depth: u32, s: &Scored, nodes: u64, db_hits: u64, t: Instant) -> Info {
        Info {
            depth: Depth(depth),
            seldepth: Depth(s.seldepth.max(depth)),
            score: Score::from_search(s.score),
            nodes,
            time_ms: t.elapsed().as_millis() as u64,
            hashfull: self.hashfull(),
            db_hits,
            pv: s.line.clone(),
        }
    }
}

/// The index in `scored` of the move the level plays ([`choose`] over their scores).
fn choose_scored(scored: &[Scored], level: Level, random: u64) -> usize {
    let scores: Vec<i32> = scored.iter().map(|s| s.score).collect();
    choose(&scores, level, random)
}

/// A uniform index below `n` from `random`.
fn choose_index(n: usize, random: u64) -> usize {
    (random % n as u64) as usize
}

#[cfg(test)]
mod tests {
    use super::{choose, level_random, Level, MAX_LEVEL};

    #[test]
    fn levels_are_zero_to_twenty() {
        assert!(Level::new(0).is_some() && Level::new(MAX_LEVEL).is_some());
        assert!(Level::new(MAX_LEVEL + 1).is_none());
        assert!(Level::FULL.is_full() && !Level::new(19).unwrap().is_full());
    }

    #[test]
    fn the_budget_and_depth_grow_and_the_temperature_falls_with_the_level() {
        for n in 1..MAX_LEVEL - 1 {
            let (a, b) = (Level::new(n).unwrap(), Level::new(n + 1).unwrap());
            assert!(a.node_budget() < b.node_budget());
            assert!(a.max_depth() <= b.max_depth());
            assert!(a.temperature_cm() > b.temperature_cm());
        }
        assert_eq!(Level::new(1).unwrap().node_budget(), 200);
        assert_eq!(Level::FULL.temperature_cm(), 0);
    }

    #[test]
    fn a_move_three_temperatures_worse_is_never_chosen() {
        let level = Level::new(5).unwrap();
        let t = level.temperature_cm();
        let scores = [0, -3 * t - 1, -t, 10];
        for seed in 0..2_000u64 {
            let i = choose(&scores, level, level_random(seed, 1, 0));
            assert_ne!(i, 1, "seed {seed}");
        }
    }

    #[test]
    fn better_moves_are_chosen_more_often_and_lower_levels_vary_more() {
        let scores = [50, 0, -40, 20];
        let count_best = |n: u32| {
            let level = Level::new(n).unwrap();
            (0..4_000u64)
                .filter(|&s| choose(&scores, level, level_random(s, 7, 3)) == 0)
                .count()
        };
        let (low, high) = (count_best(2), count_best(17));
        // The best move is the most likely at every level, and likelier at a higher one.
        assert!(low > 4_000 / 4, "{low}");
        assert!(high > low, "{high} <= {low}");
    }

    #[test]
    fn the_choice_is_a_function_of_seed_position_and_game() {
        let scores = [10, 5, 0, -5, 8];
        let level = Level::new(3).unwrap();
        let a: Vec<usize> = (0..50)
            .map(|k| choose(&scores, level, level_random(9, k, 1)))
            .collect();
        let b: Vec<usize> = (0..50)
            .map(|k| choose(&scores, level, level_random(9, k, 1)))
            .collect();
        let c: Vec<usize> = (0..50)
            .map(|k| choose(&scores, level, level_random(10, k, 1)))
            .collect();
        assert_eq!(a, b);
        assert_ne!(a, c);
    }

    #[test]
    fn level_zero_draws_uniformly() {
        let mut seen = [0usize; 5];
        for s in 0..5_000u64 {
            seen[choose(
                &[0, 0, 0, 0, 0],
                Level::new(0).unwrap(),
                level_random(s, 0, 0),
            )] += 1;
        }
        assert!(seen.iter().all(|&n| (800..1200).contains(&n)), "{seen:?}");
    }
}
