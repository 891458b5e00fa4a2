//! The engine façade between the protocol front ends and the search (after Stockfish's
//! `Engine`): it keeps the game (position and history), runs one search at a time on its own
//! thread, and reports through a callback. It knows nothing of protocol text: front ends turn
//! commands into calls and [`Event`]s into lines.
//!
//! The façade owns the engine's options, the evaluation's weights among them (`EvalFile`,
//! [`Engine::set_eval_file`]): each variant's [`Evaluation`] is kept here and its weights are
//! handed to the search at every `go`; nothing process-wide is changed.
//!
//! Below the façade: [`eval`] (static evaluation), [`search`] (iterative deepening, PVS,
//! quiescence, Lazy SMP, time management) and [`tt`] (the transposition table).

pub mod eval;
pub mod search;
pub mod tt;

use crate::core::damone::DamoneWin;
use crate::core::dispatch::RuleSet;
use crate::core::movegen::Duplicates;
use crate::core::moves::{Move, MoveList};
use crate::core::perft::divide_until;
use crate::core::rules::Color;
use crate::core::variant::Variant;
pub use crate::core::variant_position::Outcome;
use crate::core::variant_position::{outcome, MAX_HISTORY};
use crate::egdb::file::file_name;
use crate::egdb::material::{Material, MAX_KIND};
use crate::egdb::{variant_dir, Egdb};
use crate::engine::eval::Evaluate;
use crate::engine::eval::{DbProbe, EvaluateFn, Evaluation, Net};
use crate::engine::search::MAX_THREADS;
use crate::engine::search::{level_random, LevelChoice};
use crate::engine::search::{Control, Info, Limits, Reporter, Searcher};
pub use crate::engine::search::{Depth, Level, Score, MAX_LEVEL};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc;
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::Duration;

/// A job for the [`Runner`]'s thread: a search or a perft.
type Job = Box<dyn FnOnce() + Send>;

/// The thread that runs searches and perfts, one job at a time. It is made at the first job
/// and kept, so that a `go` costs no thread creation (a front end sends thousands).
#[derive(Default)]
struct Runner {
    thread: Option<RunnerThread>,
    /// Whether a job was sent and not yet waited for.
    busy: bool,
}

struct RunnerThread {
    jobs: mpsc::Sender<Job>,
    done: mpsc::Receiver<()>,
    handle: JoinHandle<()>,
}

impl Runner {
    /// Runs `job` on the thread (after the previous job has ended).
    fn run(&mut self, job: Job) {
        self.wait();
        let mut job = Some(job);
        for _ in 0..2 {
            if self.thread.is_none() {
                self.thread = RunnerThread::start();
            }
            let Some(t) = &self.thread else { break };
            match t.jobs.send(job.take().expect("sent once")) {
                Ok(()) => {
                    self.busy = true;
                    return;
                }
                // The thread is gone (a job panicked): start another.
                Err(mpsc::SendError(j)) => {
                    job = Some(j);
                    self.thread = None;
                }
            }
        }
        log::error!("cannot start the search thread");
    }

    /// Waits for the running job to end (a search waiting for `stop` is woken to see it).
    fn wait(&mut self) {
        if !self.busy {
            return;
        }
        self.busy = false;
        if let Some(t) = &self.thread {
            // A search waiting for `stop` (infinite or ponder) sleeps parked: wake it.
            t.handle.thread().unpark();
            if t.done.recv().is_err() {
                // The job panicked and took the thread with it.
                self.thread = None;
            }
        }
    }
}

impl RunnerThread {
    fn start() -> Option<RunnerThread> {
        let (jobs, rx) = mpsc::channel::<Job>();
        let (tx, done) = mpsc::channel();
        let handle = std::thread::Builder::new()
            .name("search".into())
            .stack_size(32 << 20)
            .spawn(move || {
                for job in rx {
                    job();
                    if tx.send(()).is_err() {
                        break;
                    }
                }
            });
        match handle {
            Ok(handle) => Some(RunnerThread { jobs, done, handle }),
            Err(e) => {
                log::error!("cannot start the search thread: {e}");
                None
            }
        }
    }
}

impl Drop for Runner {
    fn drop(&mut self) {
        self.wait();
        if let Some(t) = self.thread.take() {
            drop(t.jobs);
            let _ = t.handle.join();
        }
    }
}

/// How a move is written: which squares a capture lists, and its separators. Not a square
/// numbering (that is [`crate::core::rules::Numbering`]): every form names squares in the
/// variant's own notation.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub enum MoveForm {
    /// The variant's notation with every landing square of a capture (`11x18x25`), the
    /// native protocol's form.
    Native,
    /// The Hub form (`from x to x captured...`).
    Hub,
    /// The shortest unambiguous PDN form (`11x25`; every landing square only when two legal
    /// captures share from and to), as PDN files are written ([`crate::core::notation::move_name_pdn`]).
    Pdn,
}

/// What a search reports.
#[derive(Clone, Debug, PartialEq)]
pub enum Event {
    /// One completed iteration.
    Info {
        /// Depth.
        depth: Depth,
        /// Deepest ply reached.
        seldepth: Depth,
        /// The score.
        score: Score,
        /// Nodes searched.
        nodes: u64,
        /// Nodes per second.
        nps: u64,
        /// Milliseconds since the search started.
        time_ms: u64,
        /// Transposition-table use, per mille.
        hashfull: u32,
        /// Endgame-database probes that decided a node (UCI's `tbhits`).
        db_hits: u64,
        /// The principal variation.
        pv: Vec<String>,
    },
    /// The search is over: the move to play (`None` if there is no legal move) and the
    /// expected reply.
    BestMove {
        /// The move.
        best: Option<String>,
        /// The expected reply.
        ponder: Option<String>,
    },
}

/// Where events go (called from the search thread).
pub type Sink = Box<dyn FnMut(Event) + Send>;

/// What a perft run reports, in order: one [`PerftEvent::Move`] per root move, then
/// [`PerftEvent::Done`] or [`PerftEvent::Stopped`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PerftEvent {
    /// A root move (native notation) and the leaves below it.
    Move(String, u64),
    /// The total number of leaves.
    Done(u64),
    /// Interrupted by a stop: root moves counted, of how many.
    Stopped {
        /// Root moves whose counts were reported.
        counted: usize,
        /// Legal root moves.
        of: usize,
    },
}

/// Where perft events go (called from the perft thread).
pub type PerftSink = Box<dyn FnMut(PerftEvent) + Send>;

/// One variant's engine; the façade [`Engine`] holds one behind a `Box`.
trait VariantEngine: Send {
    fn set_position(&mut self, fen: Option<&str>, moves: &[&str]) -> Result<(), String>;
    fn fen(&self) -> String;
    fn diagram(&self) -> String;
    fn perft(&mut self, depth: u32, sink: PerftSink);
    fn go(&mut self, limits: Limits, ponder: bool, form: MoveForm, sink: Sink);
    fn control(&self) -> &Arc<Control>;
    fn wait(&mut self);
    fn new_game(&mut self);
    fn set_hash(&mut self, mib: usize) -> Result<(), String>;
    fn set_threads(&mut self, n: usize);
    fn set_contempt(&mut self, cm: i32);
    fn set_level(&mut self, level: Level, seed: u64);
    fn set_weights(&mut self, net: Option<Arc<Net>>);
    fn set_egdb(&mut self, egdb: Option<Arc<Egdb>>, pieces: u32);
    fn probe_egdb(&self) -> Option<DbProbe>;
    fn legal_moves(&self, form: MoveForm) -> Vec<String>;
    fn side_to_move(&self) -> Color;
    fn outcome(&self) -> Option<Outcome>;
    fn move_in_form(&self, text: &str, form: MoveForm) -> Result<String, String>;
}

struct GameEngine<G: Evaluate> {
    pos: G::Position,
    /// Keys of the earlier positions of the game since the last irreversible move.
    history: Vec<u64>,
    /// The learned weights the next search evaluates with (`None`: the hand-set evaluation).
    weights: Option<Arc<Net>>,
    /// The endgame databases the next search probes, and the most pieces probed.
    egdb: Option<Arc<Egdb>>,
    egdb_pieces: u32,
    searcher: Arc<Mutex<Searcher<G>>>,
    control: Arc<Control>,
    runner: Runner,
    /// The strength level (`Level`) and the `Seed` of its choices.
    level: Level,
    seed: u64,
    /// Games begun ([`VariantEngine::new_game`] calls): a level's choice varies with it.
    games: u64,
}

impl<G: Evaluate> GameEngine<G> {
    fn new(hash_mib: usize, weights: Option<Arc<Net>>) -> Self {
        GameEngine {
            pos: G::start(),
            history: Vec::new(),
            weights,
            egdb: None,
            egdb_pieces: 0,
            searcher: Arc::new(Mutex::new(Searcher::new(hash_mib))),
            control: Arc::new(Control::default()),
            runner: Runner::default(),
            level: Level::FULL,
            seed: 0,
            games: 0,
        }
    }

    fn names(pos: &G::Position, moves: &[Move], form: MoveForm) -> Vec<String> {
        let mut p = *pos;
        let mut out = Vec::with_capacity(moves.len());
        for mv in moves {
            out.push(match form {
                MoveForm::Native => G::move_name(&p, mv),
                MoveForm::Hub => G::move_name_hub(mv),
                MoveForm::Pdn => G::move_name_pdn(&p, mv),
            });
            p = G::make(&p, mv);
        }
        out
    }
}

struct EventReporter<'a, G: Evaluate> {
    root: G::Position,
    form: MoveForm,
    sink: &'a mut Sink,
}

impl<G: Evaluate> Reporter for EventReporter<'_, G> {
    fn iteration(&mut self, info: &Info) {
        (self.sink)(Event::Info {
            depth: info.depth,
            seldepth: info.seldepth,
            score: info.score,
            nodes: info.nodes,
            nps: info.nps(),
            time_ms: info.time_ms,
            hashfull: info.hashfull,
            db_hits: info.db_hits,
            pv: GameEngine::<G>::names(&self.root, &info.pv, self.form),
        });
    }
}

impl<G: Evaluate> VariantEngine for GameEngine<G> {
    fn set_position(&mut self, fen: Option<&str>, moves: &[&str]) -> Result<(), String> {
        let mut pos = match fen {
            None => G::start(),
            Some(f) => G::parse_fen(f).map_err(|e| e.to_string())?,
        };
        let mut history = Vec::new();
        for (i, text) in moves.iter().enumerate() {
            let mv = G::parse_move(&pos, text)
                .map_err(|e| format!("{e} (move {} of the list)", i + 1))?;
            if G::is_irreversible(&pos, &mv) {
                history.clear();
            } else {
                history.push(G::key(&pos));
            }
            pos = G::make(&pos, &mv);
        }
        // Only the last plies can matter: beyond every variant's no-progress limit (at most
        // 80 plies, rules.md §I) the game is drawn anyway, so that a list of thousands of
        // reversible moves does not make each node scan them all for repetitions.
        if history.len() > MAX_HISTORY {
            history.drain(..history.len() - MAX_HISTORY);
        }
        self.pos = pos;
        self.history = history;
        Ok(())
    }

    fn fen(&self) -> String {
        G::fen(&self.pos)
    }

    fn diagram(&self) -> String {
        G::diagram(&self.pos)
    }

    fn perft(&mut self, depth: u32, mut sink: PerftSink) {
        self.wait();
        let control = Arc::new(Control::default());
        self.control = Arc::clone(&control);
        let root = self.pos;
        self.runner.run(Box::new(move || {
            let mut counted = 0;
            let total = if depth == 0 {
                Some(1)
            } else {
                divide_until::<G>(
                    &root,
                    depth,
                    Duplicates::Drop,
                    &control.stop,
                    |_, name, n| {
                        counted += 1;
                        sink(PerftEvent::Move(name.to_string(), n));
                    },
                )
            };
            sink(match total {
                Some(t) => PerftEvent::Done(t),
                None => PerftEvent::Stopped {
                    counted,
                    of: G::count(&root, Duplicates::Drop) as usize,
                },
            });
        }));
    }

    fn go(&mut self, limits: Limits, ponder: bool, form: MoveForm, mut sink: Sink) {
        self.wait();
        let control = Arc::new(Control::default());
        control.pondering.store(ponder, Ordering::SeqCst);
        self.control = Arc::clone(&control);
        let searcher = Arc::clone(&self.searcher);
        let (root, history) = (self.pos, self.history.clone());
        let weights = self.weights.clone();
        let (egdb, egdb_pieces) = (self.egdb.clone(), self.egdb_pieces);
        let level = self.level;
        let random = level_random(self.seed, G::key(&root), self.games);
        self.runner.run(Box::new(move || {
            let mut s = searcher.lock().unwrap_or_else(|p| p.into_inner());
            s.set_weights(weights);
            s.set_egdb(egdb, egdb_pieces);
            let mut reporter = EventReporter::<G> {
                root,
                form,
                sink: &mut sink,
            };
            let result = if level.is_full() {
                s.think(&root, &history, &limits, &control, &mut reporter)
            } else {
                s.think_at_level(
                    &root,
                    &history,
                    &limits,
                    &control,
                    LevelChoice { level, random },
                    &mut reporter,
                )
            };
            let mut moves = Vec::new();
            moves.extend(result.best);
            moves.extend(result.ponder);
            let names = GameEngine::<G>::names(&root, &moves, form);
            sink(Event::BestMove {
                best: names.first().cloned(),
                ponder: names.get(1).cloned(),
            });
        }));
    }

    fn control(&self) -> &Arc<Control> {
        &self.control
    }

    fn wait(&mut self) {
        self.runner.wait();
    }

    fn new_game(&mut self) {
        self.wait();
        self.games = self.games.wrapping_add(1);
        self.searcher
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .clear();
    }

    fn set_hash(&mut self, mib: usize) -> Result<(), String> {
        self.wait();
        let mut s = self.searcher.lock().unwrap_or_else(|p| p.into_inner());
        s.set_hash(mib, DEFAULT_HASH_MIB)
    }

    fn set_threads(&mut self, n: usize) {
        self.wait();
        let mut s = self.searcher.lock().unwrap_or_else(|p| p.into_inner());
        s.set_threads(n);
    }

    fn set_contempt(&mut self, cm: i32) {
        self.wait();
        let mut s = self.searcher.lock().unwrap_or_else(|p| p.into_inner());
        s.set_contempt(cm);
    }

    fn set_level(&mut self, level: Level, seed: u64) {
        // Taken by the next search.
        self.level = level;
        self.seed = seed;
    }

    fn set_weights(&mut self, net: Option<Arc<Net>>) {
        // Taken by the next search: one running now keeps the weights it started with.
        self.weights = net;
    }

    fn set_egdb(&mut self, egdb: Option<Arc<Egdb>>, pieces: u32) {
        // Taken by the next search, as the weights are.
        self.egdb = egdb;
        self.egdb_pieces = pieces;
    }

    fn probe_egdb(&self) -> Option<DbProbe> {
        let db = self.egdb.as_deref()?;
        if G::piece_count(&self.pos) > self.egdb_pieces {
            return None;
        }
        G::probe_egdb(db, &self.pos)
    }

    fn legal_moves(&self, form: MoveForm) -> Vec<String> {
        let mut list = MoveList::new();
        G::generate(&self.pos, &mut list, Duplicates::Drop);
        list.iter()
            .map(|mv| Self::names(&self.pos, std::slice::from_ref(mv), form).remove(0))
            .collect()
    }

    fn side_to_move(&self) -> Color {
        G::side(&self.pos)
    }

    fn outcome(&self) -> Option<Outcome> {
        outcome::<G>(&self.pos, &self.history)
    }

    fn move_in_form(&self, text: &str, form: MoveForm) -> Result<String, String> {
        G::parse_move(&self.pos, text)
            .map(|mv| Self::names(&self.pos, &[mv], form).remove(0))
            .map_err(|e| e.to_string())
    }
}

struct Make {
    hash_mib: usize,
    weights: Option<Arc<Net>>,
}

impl EvaluateFn for Make {
    type Output = Box<dyn VariantEngine>;
    fn call<G: Evaluate>(self) -> Box<dyn VariantEngine> {
        Box::new(GameEngine::<G>::new(self.hash_mib, self.weights))
    }
}

/// One variant's engine evaluating with `weights`, under its rule options (`damone_win`:
/// Damone's ruling I.4).
fn make_inner(
    variant: Variant,
    hash_mib: usize,
    damone_win: DamoneWin,
    weights: Option<Arc<Net>>,
) -> Box<dyn VariantEngine> {
    let rules = RuleSet {
        variant,
        damone_win,
    };
    eval::dispatch(rules, Make { hash_mib, weights })
}

/// The engine: the variant, the game, the options and at most one running search.
pub struct Engine {
    variant: Variant,
    hash_mib: usize,
    threads: usize,
    /// `Contempt` in centi-men ([`Engine::set_contempt`]).
    contempt: i32,
    /// `Level` and `Seed` ([`Engine::set_level`]).
    level: Level,
    seed: u64,
    damone_win: DamoneWin,
    /// Each variant's evaluation (`EvalFile`), in [`Variant::ALL`] order: kept when the
    /// variant changes, as a front end sets it for the variant it is playing.
    evaluations: [Evaluation; Variant::ALL.len()],
    /// `EgdbPath`: the root of the endgame databases (`None`: none used).
    egdb_path: Option<PathBuf>,
    /// `EgdbPieces`: the most pieces of a position probed.
    egdb_pieces: u32,
    /// The current variant's databases, opened from `egdb_path`.
    egdb: Option<Arc<Egdb>>,
    inner: Box<dyn VariantEngine>,
    /// Whether a search or perft thread may be running.
    searching: bool,
    /// Whether that thread is a perft.
    perft_running: bool,
}

/// The default `MoveOverhead`: milliseconds kept back on every timed move for the transport
/// between engine and front end. Measured (docs/protocol.md, "MoveOverhead: what the transport
/// costs"): a best move reaches the front end 0.5 ms after the time asked on average, 3.5 ms
/// at the 99th percentile, with both cores busy (scripts/move-overhead.py). Under a clock the
/// search keeps a further reserve for the scheduler (`time.rs`).
pub const DEFAULT_MOVE_OVERHEAD_MS: u64 = 5;

/// The `Contempt` the protocols (native, Hub, DXP) play with, in centi-men: a draw is worth
/// this much less than level to the engine. Chosen by match (docs/strength.md, "Contempt").
pub const DEFAULT_CONTEMPT_CM: i32 = 15;

/// The largest contempt either way, in centi-men (a man).
pub const MAX_CONTEMPT_CM: i32 = 100;

/// The default transposition-table size in MiB.
pub const DEFAULT_HASH_MIB: usize = 64;

/// The largest transposition table asked for, in MiB (64 GiB); the smallest is 1 MiB. Every
/// front end takes the same range (`Hash`, Hub `hash`, the `--hash` of the shell tools): a
/// size outside it is refused as a usage error, a size inside it that the machine's memory
/// cannot hold is refused by [`Engine::set_hash`].
pub const MAX_HASH_MIB: usize = 65_536;

/// The largest `EgdbPieces` (pieces on the board, both sides): what a material key can hold;
/// also the default, meaning every table found under `EgdbPath`.
pub const MAX_EGDB_PIECES: u32 = MAX_KIND as u32;

/// The most pieces for which every table of `variant` is present under `root` (0: none).
fn egdb_pieces_present(root: &Path, variant: Variant, cap: u32) -> u32 {
    let dir = variant_dir(root, variant);
    let mut n = 0;
    for pieces in 2..=cap.min(MAX_EGDB_PIECES) {
        let complete = Material::all(pieces)
            .into_iter()
            .filter(|m| m.pieces() == pieces)
            .all(|m| dir.join(file_name(m)).is_file());
        if !complete {
            break;
        }
        n = pieces;
    }
    n
}

/// Opens `variant`'s databases under `root`: every table up to `pieces` pieces that is
/// present (the largest complete piece count).
///
/// # Errors
/// Italian Damone (no databases), no complete table set, or a bad file: one line.
pub fn open_egdb(root: &Path, variant: Variant, pieces: u32) -> Result<Egdb, String> {
    if variant == Variant::Damone {
        return Err("Italian Damone has no endgame databases".into());
    }
    let n = egdb_pieces_present(root, variant, pieces);
    if n < 2 {
        return Err(format!(
            "no endgame databases in {} (damiera egdb build --variant {})",
            variant_dir(root, variant).display(),
            variant.name()
        ));
    }
    Egdb::open(root, variant, n).map_err(|e| e.to_string())
}

impl Engine {
    /// An engine for `variant` at its start position, with a `hash_mib` MiB table.
    ///
    /// # Panics
    /// If the table cannot be had; start with a small table and call [`Engine::set_hash`]
    /// to get that as an error.
    pub fn new(variant: Variant, hash_mib: usize) -> Engine {
        Engine {
            variant,
            hash_mib,
            threads: 1,
            contempt: 0,
            level: Level::FULL,
            seed: 0,
            damone_win: DamoneWin::All,
            evaluations: Default::default(),
            egdb_path: None,
            egdb_pieces: MAX_EGDB_PIECES,
            egdb: None,
            inner: make_inner(variant, hash_mib, DamoneWin::All, eval::built_in(variant)),
            searching: false,
            perft_running: false,
        }
    }

    /// The variant played.
    pub fn variant(&self) -> Variant {
        self.variant
    }

    /// Switches variant (a new game at the start position). Stops a running search first.
    pub fn set_variant(&mut self, variant: Variant) {
        self.stop();
        self.variant = variant;
        // The old engine and its table go before the new table is made, so that memory
        // never holds two tables: first a 1 MiB table, then the size set.
        let weights = self.evaluation(variant).weights(variant);
        self.inner = make_inner(variant, 1, self.damone_win, weights);
        if let Err(e) = self.inner.set_hash(self.hash_mib) {
            log::error!("{e}");
            self.hash_mib = DEFAULT_HASH_MIB;
        }
        self.inner.set_threads(self.threads);
        self.inner.set_contempt(self.contempt);
        self.inner.set_level(self.level, self.seed);
        // The databases are the variant's: reopen them for the new one.
        self.egdb = None;
        if let Some(root) = self.egdb_path.clone() {
            if variant != Variant::Damone {
                match open_egdb(&root, variant, self.egdb_pieces) {
                    Ok(db) => self.egdb = Some(Arc::new(db)),
                    Err(e) => log::error!("EgdbPath: {e}"),
                }
            }
        }
        self.inner.set_egdb(self.egdb.clone(), self.egdb_pieces);
    }

    /// Italian Damone's end-of-game rule (ruling I.4, option `DamoneWin`; [`DamoneWin::All`]
    /// until set).
    pub fn damone_win(&self) -> DamoneWin {
        self.damone_win
    }

    /// Sets Italian Damone's end-of-game rule (ruling I.4, option `DamoneWin`):
    /// [`DamoneWin::Damones`] when losing the last Damone loses the game. Starts a new game if
    /// Damone is being played.
    pub fn set_damone_win(&mut self, win: DamoneWin) {
        self.damone_win = win;
        if self.variant == Variant::Damone {
            self.set_variant(Variant::Damone);
        }
    }

    /// What variant `v` evaluates with ([`Evaluation::BuiltIn`] until set).
    pub fn evaluation(&self, v: Variant) -> &Evaluation {
        &self.evaluations[eval::variant_index(v)]
    }

    /// Sets what variant `v` evaluates with; kept when the variant changes. A search running
    /// now keeps the weights it started with: the next one uses these.
    pub fn set_evaluation(&mut self, v: Variant, e: Evaluation) {
        if v == self.variant {
            self.inner.set_weights(e.weights(v));
        }
        self.evaluations[eval::variant_index(v)] = e;
    }

    /// The `EvalFile` option for the current variant ([`Evaluation::from_eval_file`]): a
    /// weights file's path, empty for the built-in weights, `hand` for the hand-set
    /// evaluation. The weights are read now, once, and used from the next search on.
    ///
    /// # Errors
    /// A file that cannot be read or is not weights of this variant: one line naming the
    /// file; the evaluation in use stays.
    pub fn set_eval_file(&mut self, value: &str) -> Result<(), String> {
        let e = Evaluation::from_eval_file(self.variant, value)?;
        self.set_evaluation(self.variant, e);
        Ok(())
    }

    /// The endgame databases (`EgdbPath`, `EgdbPieces`): opens the current variant's tables
    /// under `root` up to `pieces` pieces (every complete piece count present; reopened for
    /// each variant played), which the next searches probe at quiet nodes. `None` (or 0
    /// pieces) unloads them. Nothing is probed unless this was called.
    ///
    /// # Errors
    /// Italian Damone, a directory without the variant's tables, or a bad file: one line; the
    /// databases in use (if any) stay.
    pub fn set_egdb(&mut self, root: Option<&Path>, pieces: u32) -> Result<(), String> {
        let pieces = pieces.min(MAX_EGDB_PIECES);
        let db = match root {
            Some(root) if pieces > 0 => Some(Arc::new(open_egdb(root, self.variant, pieces)?)),
            _ => None,
        };
        self.egdb_path = root.map(Path::to_path_buf);
        self.egdb_pieces = pieces;
        self.egdb = db;
        self.inner.set_egdb(self.egdb.clone(), self.egdb_pieces);
        Ok(())
    }

    /// The `EgdbPath` option: the root of the databases (`<root>/<variant>/*.egdb`), empty to
    /// unload them ([`Engine::set_egdb`] with the pieces set).
    ///
    /// # Errors
    /// As [`Engine::set_egdb`].
    pub fn set_egdb_path(&mut self, value: &str) -> Result<(), String> {
        let root = (!value.is_empty()).then(|| PathBuf::from(value));
        self.set_egdb(root.as_deref(), self.egdb_pieces)
    }

    /// The `EgdbPieces` option: the most pieces of a position probed (0: none; default
    /// [`MAX_EGDB_PIECES`], every table present). Reopens the databases of `EgdbPath`.
    ///
    /// # Errors
    /// As [`Engine::set_egdb`].
    pub fn set_egdb_pieces(&mut self, pieces: u32) -> Result<(), String> {
        let root = self.egdb_path.clone();
        if root.is_none() {
            self.egdb_pieces = pieces.min(MAX_EGDB_PIECES);
            return Ok(());
        }
        self.set_egdb(root.as_deref(), pieces)
    }

    /// The databases' value of the current position (quiet, within the pieces probed), with
    /// the plies the draw counters leave; `None` without databases or when not covered.
    pub fn probe_egdb(&self) -> Option<DbProbe> {
        self.inner.probe_egdb()
    }

    /// The endgame databases in use for the current variant, if any.
    pub fn egdb(&self) -> Option<&Arc<Egdb>> {
        self.egdb.as_ref()
    }

    /// Resizes the transposition table (MiB, at least 1).
    ///
    /// # Errors
    /// If that much memory cannot be allocated; the table is then [`DEFAULT_HASH_MIB`] MiB.
    pub fn set_hash(&mut self, mib: usize) -> Result<(), String> {
        self.stop();
        self.hash_mib = mib.max(1);
        let r = self.inner.set_hash(self.hash_mib);
        if r.is_err() {
            self.hash_mib = DEFAULT_HASH_MIB;
        }
        r
    }

    /// The number of search threads (Lazy SMP), from 1 to [`MAX_THREADS`].
    pub fn set_threads(&mut self, n: usize) {
        self.stop();
        self.threads = n.clamp(1, MAX_THREADS);
        self.inner.set_threads(self.threads);
    }

    /// Contempt in centi-men, clamped to ±[`MAX_CONTEMPT_CM`]: a draw found by the search
    /// (repetition, a draw counter, a database draw) scores `-cm` for the engine and `+cm`
    /// for its opponent, so with `cm > 0` it plays on where it stands no worse than `-cm`.
    /// 0 in a new engine (analysis, `bench`: objective scores); the protocols set
    /// [`DEFAULT_CONTEMPT_CM`] for play (docs/protocol.md, `Contempt`).
    pub fn set_contempt(&mut self, cm: i32) {
        self.stop();
        self.contempt = cm.clamp(-MAX_CONTEMPT_CM, MAX_CONTEMPT_CM);
        self.inner.set_contempt(self.contempt);
    }

    /// The strength level (`Level`, [`Level::FULL`] until set) the next searches play at:
    /// below full strength a search scores the root moves within the level's budget and
    /// plays one drawn by weight (engine::search::level, docs/protocol.md "Strength levels").
    pub fn set_level(&mut self, level: Level) {
        self.stop();
        self.level = level;
        self.inner.set_level(self.level, self.seed);
    }

    /// The strength level ([`Engine::set_level`]).
    pub fn level(&self) -> Level {
        self.level
    }

    /// The `Seed` of a level's choices (0 until set): with one thread, the same seed, position
    /// and number of games begun give the same move.
    pub fn set_seed(&mut self, seed: u64) {
        self.stop();
        self.seed = seed;
        self.inner.set_level(self.level, self.seed);
    }

    /// The `Seed` option ([`Engine::set_seed`]).
    pub fn seed(&self) -> u64 {
        self.seed
    }

    /// The contempt in centi-men ([`Engine::set_contempt`]).
    pub fn contempt(&self) -> i32 {
        self.contempt
    }

    /// Sets the position: `fen` (or the start position) and moves from it, each in the
    /// variant's notation. On error the previous position is kept and the error says which
    /// move or which part of the FEN is wrong.
    pub fn set_position(&mut self, fen: Option<&str>, moves: &[&str]) -> Result<(), String> {
        self.stop();
        self.inner.set_position(fen, moves)
    }

    /// The FEN of the current position.
    pub fn fen(&self) -> String {
        self.inner.fen()
    }

    /// An ASCII diagram of the current position.
    pub fn diagram(&self) -> String {
        self.inner.diagram()
    }

    /// Starts perft with divide from the current position on its own thread (as a search
    /// runs): one [`PerftEvent::Move`] per root move, then the total, to `sink`. [`Engine::stop`]
    /// interrupts it ([`PerftEvent::Stopped`]); a running search or perft is stopped first.
    pub fn perft(&mut self, depth: u32, sink: PerftSink) {
        self.stop();
        self.inner.perft(depth, sink);
        self.searching = true;
        self.perft_running = true;
    }

    /// Starts a search on its own thread; events go to `sink`, the last being
    /// [`Event::BestMove`]. A running search is stopped first.
    pub fn go(&mut self, limits: Limits, ponder: bool, form: MoveForm, sink: Sink) {
        self.stop();
        self.inner.go(limits, ponder, form, sink);
        self.searching = true;
        self.perft_running = false;
    }

    /// Ends the running search (its best move is still reported) and waits for it.
    pub fn stop(&mut self) {
        if self.searching {
            self.inner.control().stop.store(true, Ordering::SeqCst);
            self.inner.wait();
            self.searching = false;
            self.perft_running = false;
        }
    }

    /// At the end of input: lets a running perft finish (its count is bounded and was asked
    /// for, as in `echo "perft 7" | damiera`), then stops a running search.
    pub fn finish(&mut self) {
        if self.perft_running {
            self.wait();
        }
        self.stop();
    }

    /// Waits for the running search to end by itself.
    pub fn wait(&mut self) {
        self.inner.wait();
        self.searching = false;
        self.perft_running = false;
    }

    /// Signals a stop without waiting (safe from the thread that reads commands).
    pub fn signal_stop(&self) {
        self.inner.control().stop.store(true, Ordering::SeqCst);
    }

    /// The opponent played the expected move: the clock starts now.
    pub fn ponderhit(&self) {
        self.inner.control().ponderhit();
    }

    /// Clears what the search learnt (a new game).
    pub fn new_game(&mut self) {
        self.stop();
        self.inner.new_game();
    }

    /// The legal moves of the current position.
    pub fn legal_moves(&self, form: MoveForm) -> Vec<String> {
        self.inner.legal_moves(form)
    }

    /// The side to move.
    pub fn side_to_move(&self) -> Color {
        self.inner.side_to_move()
    }

    /// Whether the game is over, and how.
    pub fn outcome(&self) -> Option<Outcome> {
        self.inner.outcome()
    }

    /// The native name of a move given in any accepted form (checks legality).
    pub fn move_name(&self, text: &str) -> Result<String, String> {
        self.inner.move_in_form(text, MoveForm::Native)
    }

    /// The name in form `form` of a move given in any accepted form (checks legality).
    pub fn move_name_as(&self, text: &str, form: MoveForm) -> Result<String, String> {
        self.inner.move_in_form(text, form)
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        self.stop();
    }
}

impl Engine {
    /// Searches the current position within `limits` and waits for the end (a blocking
    /// [`Engine::go`], for the shell tools): `info` gets each [`Event::Info`] on the calling
    /// thread as the search reports it. Returns the best move and the expected reply, named
    /// in `form` (`None`: no legal move, or no reply).
    pub fn search(
        &mut self,
        limits: Limits,
        form: MoveForm,
        info: impl FnMut(Event),
    ) -> (Option<String>, Option<String>) {
        self.search_cancellable(limits, form, info, &AtomicBool::new(false))
    }

    /// [`Engine::search`] that another thread can end early: when `cancel` is set (it is read
    /// every [`CANCEL_POLL_MS`] milliseconds), the search stops and reports what it has, as
    /// after [`Engine::stop`].
    pub fn search_cancellable(
        &mut self,
        limits: Limits,
        form: MoveForm,
        mut info: impl FnMut(Event),
        cancel: &AtomicBool,
    ) -> (Option<String>, Option<String>) {
        let (tx, rx) = mpsc::channel();
        self.go(
            limits,
            false,
            form,
            Box::new(move |ev| {
                let _ = tx.send(ev);
            }),
        );
        let mut best = (None, None);
        loop {
            if cancel.load(Ordering::SeqCst) {
                self.signal_stop();
            }
            match rx.recv_timeout(Duration::from_millis(CANCEL_POLL_MS)) {
                Ok(Event::BestMove { best: b, ponder }) => {
                    best = (b, ponder);
                    break;
                }
                Ok(ev) => info(ev),
                Err(mpsc::RecvTimeoutError::Timeout) => {}
                Err(mpsc::RecvTimeoutError::Disconnected) => break,
            }
        }
        self.wait();
        best
    }
}

/// How often (milliseconds) [`Engine::search_cancellable`] looks at its cancel flag.
pub const CANCEL_POLL_MS: u64 = 20;
