//! The public façade [`Engine`]: the variant, the game, the options and at most one running
//! search or perft.

use crate::book::{book_key, Book};
use crate::core::damone::DamoneWin;
use crate::core::rules::Color;
use crate::core::variant::Variant;
use crate::core::variant_position::{Outcome, VariantPosition};
use crate::egdb::Egdb;
use crate::engine::book_play::{choose_book_move, BookMode, DEFAULT_BOOK_PLY, MAX_BOOK_PLY};
use crate::engine::egdb_dir::open_egdb;
use crate::engine::eval::{self, DbProbe, Evaluation};
use crate::engine::events::{Event, MoveForm, PerftSink, Sink};
use crate::engine::options::{DEFAULT_HASH_MIB, MAX_CONTEMPT_CM, MAX_EGDB_PIECES};
use crate::engine::request::GoRequest;
use crate::engine::search::{level_random, Level, MAX_THREADS};
use crate::engine::variant_engine::{make_inner, VariantEngine};
use std::path::{Path, PathBuf};
use std::sync::atomic::Ordering;
use std::sync::Arc;

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
    /// The opening book (`BookFile`), if one is loaded.
    book: Option<Arc<Book>>,
    /// `OwnBook`: whether `go` plays from the book when one is loaded.
    own_book: bool,
    /// `BookMode`: how a book move is chosen.
    book_mode: BookMode,
    /// `BookPly`: the last ply of the game at which the book is used.
    book_ply: u32,
    /// The ply of the current position: the moves played from the start position or FEN of
    /// the last [`Engine::set_position`].
    ply: u32,
    /// Games begun ([`Engine::new_game`]): a book choice varies with it, as a level's does.
    games: u64,
    inner: Box<dyn VariantEngine>,
    /// Whether a search or perft thread may be running.
    searching: bool,
    /// Whether that thread is a perft.
    perft_running: bool,
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
            book: None,
            own_book: true,
            book_mode: BookMode::Best,
            book_ply: DEFAULT_BOOK_PLY,
            ply: 0,
            games: 0,
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
        self.ply = 0;
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
    /// [`DEFAULT_CONTEMPT_CM`](super::options::DEFAULT_CONTEMPT_CM) for play
    /// (docs/protocol.md, `Contempt`).
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

    /// The `BookFile` option: reads the opening book at `value` (docs/book.md), played from
    /// in positions of its variant; empty (or `<empty>`) unloads it.
    ///
    /// # Errors
    /// An unreadable, foreign (not DMBK), truncated or unsorted file: one line naming the file;
    /// the book in use (if any) stays.
    pub fn set_book_file(&mut self, value: &str) -> Result<(), String> {
        if value.is_empty() || value == "<empty>" {
            self.book = None;
            return Ok(());
        }
        let book = Book::open(Path::new(value)).map_err(|e| e.to_string())?;
        self.book = Some(Arc::new(book));
        Ok(())
    }

    /// The `BookFile` option with a book already read (one book shared by many engines, as
    /// `damiera serve`'s pages share theirs); `None` unloads it. Played from in positions of
    /// its variant only, as [`Engine::set_book_file`]'s.
    pub fn set_book(&mut self, book: Option<Arc<Book>>) {
        self.book = book;
    }

    /// The opening book loaded (`BookFile`), if any.
    pub fn book(&self) -> Option<&Arc<Book>> {
        self.book.as_ref()
    }

    /// The `OwnBook` option: whether `go` plays from a loaded book (on until set).
    pub fn set_own_book(&mut self, on: bool) {
        self.own_book = on;
    }

    /// The `OwnBook` option ([`Engine::set_own_book`]).
    pub fn own_book(&self) -> bool {
        self.own_book
    }

    /// The `BookMode` option ([`BookMode::Best`] until set).
    pub fn set_book_mode(&mut self, mode: BookMode) {
        self.book_mode = mode;
    }

    /// The `BookMode` option ([`Engine::set_book_mode`]).
    pub fn book_mode(&self) -> BookMode {
        self.book_mode
    }

    /// The `BookPly` option: the last ply of the game (moves played from the start position,
    /// or the FEN, of the last `position`) at which the book is used; at most
    /// [`MAX_BOOK_PLY`], [`DEFAULT_BOOK_PLY`] until set.
    pub fn set_book_ply(&mut self, ply: u32) {
        self.book_ply = ply.min(MAX_BOOK_PLY);
    }

    /// The `BookPly` option ([`Engine::set_book_ply`]).
    pub fn book_ply(&self) -> u32 {
        self.book_ply
    }

    /// The move the book plays now, in `form`, and its score: `None` without a book, with
    /// `OwnBook` off, past `BookPly`, or when the position has no legal book move. The choice
    /// draws from the `Seed`, the position's key and the games begun.
    pub fn book_choice(&self, form: MoveForm) -> Option<(String, i16)> {
        let book = self.book.as_ref()?;
        if !self.own_book || self.ply > self.book_ply || book.variant() != self.variant {
            return None;
        }
        let pos = VariantPosition::from_fen(self.variant, &self.inner.fen()).ok()?;
        let moves = book.probe(&pos);
        let random = level_random(self.seed, book_key(&pos), self.games);
        let i = choose_book_move(&moves, self.book_mode, random)?;
        let name = self.inner.move_in_form(&moves[i].name, form).ok()?;
        Some((name, moves[i].entry.score))
    }

    /// Sets the position: `fen` (or the start position) and moves from it, each in the
    /// variant's notation. On error the previous position is kept and the error says which
    /// move or which part of the FEN is wrong.
    pub fn set_position(&mut self, fen: Option<&str>, moves: &[&str]) -> Result<(), String> {
        self.stop();
        self.inner.set_position(fen, moves)?;
        self.ply = u32::try_from(moves.len()).unwrap_or(u32::MAX);
        Ok(())
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
    /// runs): one [`PerftEvent::Move`](super::events::PerftEvent::Move) per root move, then
    /// the total, to `sink`. [`Engine::stop`] interrupts it
    /// ([`PerftEvent::Stopped`](super::events::PerftEvent::Stopped)); a running search or
    /// perft is stopped first.
    pub fn perft(&mut self, depth: u32, sink: PerftSink) {
        self.stop();
        self.inner.perft(depth, sink);
        self.searching = true;
        self.perft_running = true;
    }

    /// Starts the search `request` asks for on its own thread; events go to `sink`, the last
    /// being [`Event::BestMove`](super::events::Event::BestMove). A running search is stopped
    /// first.
    ///
    /// With `OwnBook` on, a book loaded, the game's ply at most `BookPly` and a legal book
    /// move in the position, a search that is neither pondering nor infinite is not run: the
    /// book's move ([`BookMode`]) is sent at once, as [`Event::Book`] then
    /// [`Event::BestMove`] (no ponder move).
    pub fn go(&mut self, request: GoRequest, sink: Sink) {
        self.stop();
        if !request.ponder && !request.limits.infinite {
            if let Some((mv, score)) = self.book_choice(request.form) {
                self.inner.emit(
                    vec![
                        Event::Book {
                            mv: mv.clone(),
                            score,
                        },
                        Event::BestMove {
                            best: Some(mv),
                            ponder: None,
                        },
                    ],
                    sink,
                );
                self.searching = true;
                self.perft_running = false;
                return;
            }
        }
        self.inner.go(request, sink);
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
        self.games += 1;
        self.ply = 0;
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
