//! The search: iterative deepening over a principal-variation (PVS) alpha-beta search with
//! aspiration windows, a transposition table, move ordering (hash move, killers, history),
//! late-move reductions, a forced-move extension and a quiescence search that resolves pending
//! captures. Draws by repetition and by the variant's no-progress counter score 0; wins and
//! losses score `WIN - plies` so that shorter wins are preferred.
//!
//! It reports through a [`Reporter`] and never prints. It polls a shared [`Control`] every 1024
//! nodes, so `stop` is answered within a fraction of a millisecond. Nothing in the tree search
//! allocates: move lists are on the stack, the PV table, killers and history are allocated once.

use crate::game::Game;
use crate::movegen::Duplicates;
use crate::moves::{Move, MoveList, MAX_MOVES};
use crate::tt::{from_tt, to_tt, Bound, TranspositionTable};
use std::marker::PhantomData;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::Instant;

/// A score beyond every evaluation (centi-men).
pub const INF: i32 = 32_000;
/// The score of a win now; a win in `n` plies scores `WIN - n` (a loss, the negation).
pub const WIN: i32 = 31_000;
/// Scores at least this large (in absolute value) are wins or losses.
pub const WIN_BOUND: i32 = 30_000;
/// The deepest ply the search reaches (iterations, extensions and quiescence included).
pub const MAX_PLY: usize = 120;

/// What a search may use. Times are in milliseconds.
#[derive(Clone, Debug, Default)]
pub struct Limits {
    /// Stop after this many plies of iterative deepening.
    pub depth: Option<u32>,
    /// Stop after about this many nodes.
    pub nodes: Option<u64>,
    /// Search exactly this long (minus the move overhead).
    pub movetime: Option<u64>,
    /// Time left on the side to move's clock.
    pub time: Option<u64>,
    /// Increment per move for the side to move.
    pub inc: u64,
    /// Moves until the next time control (none: sudden death or increment).
    pub movestogo: Option<u32>,
    /// Search until told to stop.
    pub infinite: bool,
    /// Time kept back per move for communication delays.
    pub move_overhead: u64,
}

/// Shared with the thread that reads commands: stop, ponder state and the clock.
#[derive(Debug)]
pub struct Control {
    /// Set to end the search at once.
    pub stop: AtomicBool,
    /// Set while pondering: no time limit applies until it is cleared (ponder-hit).
    pub pondering: AtomicBool,
    /// Milliseconds after `created` at which the clock started (the ponder-hit).
    pub clock_start_ms: AtomicU64,
    /// When this control (and so the search) was created.
    pub created: Instant,
}

impl Default for Control {
    fn default() -> Control {
        Control {
            stop: AtomicBool::new(false),
            pondering: AtomicBool::new(false),
            clock_start_ms: AtomicU64::new(0),
            created: Instant::now(),
        }
    }
}

impl Control {
    /// The opponent played the expected move: start the clock now and stop pondering.
    pub fn ponderhit(&self) {
        if self.pondering.load(Ordering::SeqCst) {
            let now = self.created.elapsed().as_millis() as u64;
            self.clock_start_ms.store(now, Ordering::SeqCst);
            self.pondering.store(false, Ordering::SeqCst);
        }
    }
}

/// One completed iteration.
#[derive(Clone, Debug)]
pub struct Info {
    /// Nominal depth in plies.
    pub depth: u32,
    /// Deepest ply reached, extensions and quiescence included.
    pub seldepth: u32,
    /// Score in centi-men from the side to move's view; `WIN - n` is a win in `n` plies.
    pub score: i32,
    /// Nodes searched so far.
    pub nodes: u64,
    /// Milliseconds since the search started.
    pub time_ms: u64,
    /// Transposition-table occupancy, per mille.
    pub hashfull: u32,
    /// The principal variation from the root.
    pub pv: Vec<Move>,
}

impl Info {
    /// Nodes per second.
    pub fn nps(&self) -> u64 {
        self.nodes * 1000 / self.time_ms.max(1)
    }
}

/// Receives the search's progress.
pub trait Reporter {
    /// Called after each completed iteration.
    fn iteration(&mut self, info: &Info);
}

/// A reporter that ignores everything.
pub struct Silent;

impl Reporter for Silent {
    fn iteration(&mut self, _info: &Info) {}
}

/// The outcome of a search.
#[derive(Clone, Debug)]
pub struct SearchResult {
    /// The move to play (`None` when the side to move has no legal move).
    pub best: Option<Move>,
    /// The expected reply.
    pub ponder: Option<Move>,
    /// The score of the last completed iteration (centi-men).
    pub score: i32,
    /// The last completed depth.
    pub depth: u32,
    /// Nodes searched.
    pub nodes: u64,
}

/// Search state kept between searches: the transposition table and the ordering tables.
pub struct Searcher<G: Game> {
    /// The transposition table.
    pub tt: TranspositionTable,
    killers: Box<[[Option<Move>; 2]; MAX_PLY + 2]>,
    history: Box<[[i32; 64]; 64]>,
    pv: Box<[[Move; MAX_PLY + 2]; MAX_PLY + 2]>,
    pv_len: Box<[usize; MAX_PLY + 2]>,
    keys: Vec<u64>,
    /// Index in `keys` of the last position after an irreversible move, per ply.
    irreversible: Box<[usize; MAX_PLY + 2]>,
    base: usize,
    nodes: u64,
    seldepth: usize,
    stopped: bool,
    start: Instant,
    soft_ms: Option<u64>,
    hard_ms: Option<u64>,
    node_limit: Option<u64>,
    control: std::sync::Arc<Control>,
    _g: PhantomData<G>,
}

const NO_MOVE: Move = Move::quiet(crate::Square(0), crate::Square(0), false);

impl<G: Game> Searcher<G> {
    /// A searcher with a transposition table of `hash_mib` MiB.
    pub fn new(hash_mib: usize) -> Self {
        Searcher {
            tt: TranspositionTable::new(hash_mib),
            killers: Box::new([[None; 2]; MAX_PLY + 2]),
            history: Box::new([[0; 64]; 64]),
            pv: Box::new([[NO_MOVE; MAX_PLY + 2]; MAX_PLY + 2]),
            pv_len: Box::new([0; MAX_PLY + 2]),
            keys: Vec::new(),
            irreversible: Box::new([0; MAX_PLY + 2]),
            base: 0,
            nodes: 0,
            seldepth: 0,
            stopped: false,
            start: Instant::now(),
            soft_ms: None,
            hard_ms: None,
            node_limit: None,
            control: std::sync::Arc::new(Control::default()),
            _g: PhantomData,
        }
    }

    /// Forgets everything learnt (a new game).
    pub fn clear(&mut self) {
        self.tt.clear();
        self.history.iter_mut().for_each(|r| r.fill(0));
        self.killers.fill([None; 2]);
    }

    /// Searches `root` and returns the best move. `history` holds the keys of the game's
    /// earlier positions back to the last irreversible move (oldest first, the root excluded),
    /// for repetition detection.
    pub fn think(
        &mut self,
        root: &G::Position,
        history: &[u64],
        limits: &Limits,
        control: &std::sync::Arc<Control>,
        reporter: &mut dyn Reporter,
    ) -> SearchResult {
        self.control = std::sync::Arc::clone(control);
        self.start = Instant::now();
        self.nodes = 0;
        self.seldepth = 0;
        self.stopped = false;
        self.tt.new_search();
        self.killers.fill([None; 2]);
        for row in self.history.iter_mut() {
            for h in row.iter_mut() {
                *h /= 8;
            }
        }
        self.set_time(limits);
        self.node_limit = limits.nodes;
        self.keys.clear();
        self.keys.reserve(history.len() + MAX_PLY + 4);
        self.keys.extend_from_slice(history);
        self.keys.push(G::key(root));
        self.base = history.len();
        self.irreversible[0] = 0;

        let mut root_moves = MoveList::new();
        G::generate(root, &mut root_moves, Duplicates::Drop);
        let mut result = SearchResult {
            best: root_moves.first().copied(),
            ponder: None,
            score: 0,
            depth: 0,
            nodes: 0,
        };
        if root_moves.is_empty() {
            result.score = -WIN;
            return result;
        }
        let max_depth = limits
            .depth
            .unwrap_or(MAX_PLY as u32 - 20)
            .clamp(1, MAX_PLY as u32 - 20);
        let mut score = 0;
        for depth in 1..=max_depth {
            let s = self.aspiration(root, depth as i32, score);
            if self.stopped {
                break;
            }
            score = s;
            let pv: Vec<Move> = self.pv[0][..self.pv_len[0]].to_vec();
            if let Some(&best) = pv.first() {
                result.best = Some(best);
                result.ponder = pv.get(1).copied();
            }
            result.score = score;
            result.depth = depth;
            reporter.iteration(&Info {
                depth,
                seldepth: self.seldepth as u32,
                score,
                nodes: self.nodes,
                time_ms: self.start.elapsed().as_millis() as u64,
                hashfull: self.tt.hashfull(),
                pv,
            });
            if self.should_stop_iterating(depth, score, root_moves.len(), control) {
                break;
            }
        }
        // UCI: in infinite or ponder mode the best move waits for stop (or a ponder-hit).
        while (limits.infinite || control.pondering.load(Ordering::Relaxed))
            && !control.stop.load(Ordering::Relaxed)
        {
            if !limits.infinite && !control.pondering.load(Ordering::Relaxed) {
                break;
            }
            std::thread::sleep(std::time::Duration::from_millis(1));
        }
        result.nodes = self.nodes;
        result
    }

    fn set_time(&mut self, limits: &Limits) {
        let overhead = limits.move_overhead;
        self.soft_ms = None;
        self.hard_ms = None;
        if limits.infinite {
            return;
        }
        if let Some(mt) = limits.movetime {
            let t = mt.saturating_sub(overhead).max(1);
            self.soft_ms = Some(t);
            self.hard_ms = Some(t);
        } else if let Some(left) = limits.time {
            // Spread the clock over the moves to come (30 when unknown) plus most of the
            // increment; never plan to use more than a third of what is left, and keep the
            // overhead and a small margin in hand so the flag never falls.
            let usable = left.saturating_sub(overhead + 10);
            let moves = limits.movestogo.unwrap_or(30).clamp(1, 50) as u64;
            let soft = usable / moves + limits.inc * 3 / 4;
            let hard = (soft * 3).min(usable / 3 + limits.inc / 2).min(usable);
            self.soft_ms = Some(soft.min(hard).max(1));
            self.hard_ms = Some(hard.max(1));
        }
    }

    /// Milliseconds on the clock: since the ponder-hit when pondering was switched off.
    fn clock_ms(&self, control: &Control) -> u64 {
        let elapsed = control.created.elapsed().as_millis() as u64;
        elapsed.saturating_sub(control.clock_start_ms.load(Ordering::Relaxed))
    }

    fn should_stop_iterating(
        &self,
        depth: u32,
        score: i32,
        n_root: usize,
        control: &Control,
    ) -> bool {
        if control.stop.load(Ordering::Relaxed) {
            return true;
        }
        if control.pondering.load(Ordering::Relaxed) {
            return false;
        }
        if self.node_limit.is_some_and(|n| self.nodes >= n) {
            return true;
        }
        if let Some(soft) = self.soft_ms {
            let t = self.clock_ms(control);
            // A forced move needs no thought; a new iteration costs more than all before it.
            if n_root == 1 && depth >= 4 || t * 2 >= soft {
                return true;
            }
        }
        // A win or loss found within the horizon will not change.
        score.abs() >= WIN_BOUND && (WIN - score.abs()) < depth as i32
    }

    fn aspiration(&mut self, root: &G::Position, depth: i32, prev: i32) -> i32 {
        if depth < 4 || prev.abs() >= WIN_BOUND {
            return self.search(root, depth, -INF, INF, 0);
        }
        let mut window = 30;
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
            if window > 500 {
                alpha = -INF;
                beta = INF;
            }
        }
    }

    #[inline]
    fn poll(&mut self) {
        if self.nodes & 1023 == 0 {
            let control = std::sync::Arc::clone(&self.control);
            self.check_limits(&control);
        }
    }

    fn check_limits(&mut self, control: &Control) {
        if control.stop.load(Ordering::Relaxed) || self.node_limit.is_some_and(|n| self.nodes >= n)
        {
            self.stopped = true;
        } else if !control.pondering.load(Ordering::Relaxed) {
            if let Some(hard) = self.hard_ms {
                if self.clock_ms(control) >= hard {
                    self.stopped = true;
                }
            }
        }
    }

    /// Whether the position at `ply` repeats an earlier one with the same side to move since
    /// the last irreversible move.
    #[inline]
    fn is_repetition(&self, ply: usize) -> bool {
        let i = self.base + ply;
        let key = self.keys[i];
        let floor = self.irreversible[ply];
        let mut j = i;
        while j >= floor + 2 {
            j -= 2;
            if self.keys[j] == key {
                return true;
            }
        }
        false
    }

    /// Records the child reached by `mv` at `ply + 1` for repetition detection.
    #[inline]
    fn push_child(&mut self, pos: &G::Position, mv: &Move, child: &G::Position, ply: usize) {
        let i = self.base + ply + 1;
        self.keys.truncate(i);
        self.keys.push(G::key(child));
        self.irreversible[ply + 1] = if G::is_irreversible(pos, mv) {
            i
        } else {
            self.irreversible[ply]
        };
    }

    /// Orders `list` best first: hash move, captures (most pieces first), promotions, killers,
    /// history.
    fn order(&self, list: &mut MoveList, tt_move: Option<Move>, ply: usize) {
        let n = list.len();
        if n < 2 {
            return;
        }
        let mut keys = [0i32; MAX_MOVES];
        for (k, mv) in keys.iter_mut().zip(list.iter()) {
            *k = if Some(*mv) == tt_move {
                1 << 30
            } else if mv.is_capture() {
                (1 << 24) + (mv.captured.count() as i32) * 1024 + mv.promotes as i32 * 512
            } else if mv.promotes {
                1 << 23
            } else if self.killers[ply][0] == Some(*mv) {
                1 << 22
            } else if self.killers[ply][1] == Some(*mv) {
                (1 << 22) - 1
            } else {
                self.history[mv.from.index() & 63][mv.to.index() & 63]
            };
        }
        // Insertion sort, descending (lists are short).
        let moves = list.as_mut_slice();
        for i in 1..n {
            let (k, m) = (keys[i], moves[i]);
            let mut j = i;
            while j > 0 && keys[j - 1] < k {
                keys[j] = keys[j - 1];
                moves[j] = moves[j - 1];
                j -= 1;
            }
            keys[j] = k;
            moves[j] = m;
        }
    }

    /// PVS alpha-beta. Scores are from the side to move's view.
    fn search(
        &mut self,
        pos: &G::Position,
        mut depth: i32,
        mut alpha: i32,
        mut beta: i32,
        ply: usize,
    ) -> i32 {
        self.pv_len[ply] = 0;
        if depth <= 0 || ply >= MAX_PLY {
            return self.quiesce(pos, alpha, beta, ply);
        }
        self.nodes += 1;
        self.seldepth = self.seldepth.max(ply);
        self.poll();
        if self.stopped {
            return 0;
        }
        let pv_node = beta - alpha > 1;
        if ply > 0 {
            if self.is_repetition(ply) {
                return 0;
            }
            // Mate-distance pruning: nothing here beats a win already found nearer the root.
            alpha = alpha.max(-(WIN - ply as i32));
            beta = beta.min(WIN - ply as i32 - 1);
            if alpha >= beta {
                return alpha;
            }
        }
        let key = G::key(pos);
        let mut tt_move = None;
        if let Some(e) = self.tt.probe(key) {
            if e.has_move {
                tt_move = Some(e.mv);
            }
            if !pv_node && e.depth as i32 >= depth {
                let s = from_tt(e.score, ply);
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
        if list.is_empty() {
            return -(WIN - ply as i32);
        }
        if ply > 0 && G::draw_by_counter(pos) {
            return 0;
        }
        // A forced move (often a capture) costs no branching: look one ply further.
        if list.len() == 1 && ply < MAX_PLY / 2 {
            depth += 1;
        }
        self.order(&mut list, tt_move, ply);
        let old_alpha = alpha;
        let mut best = -INF;
        let mut best_move = None;
        for (i, mv) in list.iter().enumerate() {
            let child = G::make(pos, mv);
            self.push_child(pos, mv, &child, ply);
            let quiet = !mv.is_capture() && !mv.promotes;
            let mut score;
            if i == 0 {
                score = -self.search(&child, depth - 1, -beta, -alpha, ply + 1);
            } else {
                // Late quiet moves of a non-PV node are searched a ply shallower first.
                let r = if quiet
                    && !pv_node
                    && depth >= 3
                    && i >= 3
                    && self.killers[ply][0] != Some(*mv)
                {
                    1 + (depth >= 6 && i >= 8) as i32
                } else {
                    0
                };
                score = -self.search(&child, depth - 1 - r, -alpha - 1, -alpha, ply + 1);
                if score > alpha && r > 0 {
                    score = -self.search(&child, depth - 1, -alpha - 1, -alpha, ply + 1);
                }
                if score > alpha && score < beta {
                    score = -self.search(&child, depth - 1, -beta, -alpha, ply + 1);
                }
            }
            if self.stopped {
                return 0;
            }
            if score > best {
                best = score;
                best_move = Some(*mv);
                if score > alpha {
                    alpha = score;
                    self.update_pv(ply, *mv);
                    if score >= beta {
                        if quiet {
                            let k = &mut self.killers[ply];
                            if k[0] != Some(*mv) {
                                k[1] = k[0];
                                k[0] = Some(*mv);
                            }
                            let h = &mut self.history[mv.from.index() & 63][mv.to.index() & 63];
                            *h = (*h + depth * depth).min(1 << 20);
                        }
                        break;
                    }
                }
            }
        }
        let bound = if best >= beta {
            Bound::Lower
        } else if best > old_alpha {
            Bound::Exact
        } else {
            Bound::Upper
        };
        self.tt
            .store(key, depth, to_tt(best, ply), bound, best_move);
        best
    }

    fn update_pv(&mut self, ply: usize, mv: Move) {
        let child_len = self.pv_len[ply + 1];
        self.pv[ply][0] = mv;
        for k in 0..child_len.min(MAX_PLY) {
            self.pv[ply][k + 1] = self.pv[ply + 1][k];
        }
        self.pv_len[ply] = child_len + 1;
    }

    /// Resolves pending captures: a side with a capture must take (no standing pat); a side
    /// without one stands on the static evaluation.
    fn quiesce(&mut self, pos: &G::Position, mut alpha: i32, beta: i32, ply: usize) -> i32 {
        self.pv_len[ply] = 0;
        self.nodes += 1;
        self.seldepth = self.seldepth.max(ply);
        self.poll();
        if self.stopped {
            return 0;
        }
        let mut list = MoveList::new();
        G::generate_captures(pos, &mut list);
        if list.is_empty() {
            if !G::has_moves(pos) {
                return -(WIN - ply as i32);
            }
            return G::evaluate(pos);
        }
        if ply >= MAX_PLY {
            return G::evaluate(pos);
        }
        self.order(&mut list, None, ply);
        let mut best = -INF;
        for mv in list.iter() {
            let child = G::make(pos, mv);
            let score = -self.quiesce(&child, -beta, -alpha, ply + 1);
            if self.stopped {
                return 0;
            }
            if score > best {
                best = score;
                if score > alpha {
                    alpha = score;
                    self.update_pv(ply, *mv);
                    if score >= beta {
                        break;
                    }
                }
            }
        }
        best
    }
}
