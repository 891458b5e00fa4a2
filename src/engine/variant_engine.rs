//! The engine of one variant: its game (position and history), its searcher and the options
//! the next search takes, behind the object-safe [`VariantEngine`] the façade holds.

use crate::core::damone::DamoneWin;
use crate::core::dispatch::RuleSet;
use crate::core::movegen::Duplicates;
use crate::core::moves::MoveList;
use crate::core::perft::divide_until;
use crate::core::rules::Color;
use crate::core::variant::Variant;
use crate::core::variant_position::{outcome, Outcome, MAX_HISTORY};
use crate::egdb::Egdb;
use crate::engine::eval::{self, DbProbe, Evaluate, EvaluateFn, Net};
use crate::engine::events::{
    move_names, Event, EventReporter, MoveForm, PerftEvent, PerftSink, Sink,
};
use crate::engine::options::DEFAULT_HASH_MIB;
use crate::engine::request::GoRequest;
use crate::engine::runner::Runner;
use crate::engine::search::{level_random, Control, Level, LevelChoice, Searcher};
use std::sync::atomic::Ordering;
use std::sync::{Arc, Mutex};

/// One variant's engine; the façade [`Engine`](super::facade::Engine) holds one behind a `Box`.
pub(super) trait VariantEngine: Send {
    fn set_position(&mut self, fen: Option<&str>, moves: &[&str]) -> Result<(), String>;
    fn fen(&self) -> String;
    fn diagram(&self) -> String;
    fn perft(&mut self, depth: u32, sink: PerftSink);
    fn go(&mut self, request: GoRequest, sink: Sink);
    /// Sends `events` to `sink` from the search thread, as a search would (a book move).
    fn emit(&mut self, events: Vec<Event>, sink: Sink);
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

    fn go(&mut self, request: GoRequest, mut sink: Sink) {
        let GoRequest {
            limits,
            ponder,
            form,
        } = request;
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
            let names = move_names::<G>(&root, &moves, form);
            sink(Event::BestMove {
                best: names.first().cloned(),
                ponder: names.get(1).cloned(),
            });
        }));
    }

    fn emit(&mut self, events: Vec<Event>, mut sink: Sink) {
        self.wait();
        self.control = Arc::new(Control::default());
        self.runner.run(Box::new(move || {
            for ev in events {
                sink(ev);
            }
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
            .map(|mv| move_names::<G>(&self.pos, std::slice::from_ref(mv), form).remove(0))
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
            .map(|mv| move_names::<G>(&self.pos, &[mv], form).remove(0))
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
pub(super) fn make_inner(
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
