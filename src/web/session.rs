//! One page's session: its own [`Engine`] and game on its own thread, driven by the messages the
//! page sends ([`ClientMessage`]) and by its searches' results. Searches run on the engine's
//! thread (`go`, `analyse`), so the session keeps reading; a game analysis runs on the session's
//! thread and is ended by the cancel flag, which the WebSocket task sets on `stop` without
//! waiting for the session.

use crate::book::Book;
use crate::core::damone::DamoneWin;
use crate::core::variant::Variant;
use crate::core::variant_position::{Outcome, Piece, VariantPosition};
use crate::engine::eval::Evaluation;
use crate::engine::search::Limits;
use crate::engine::{Depth, Engine, Event, GoRequest, Level, MoveForm, MAX_EGDB_PIECES, MAX_LEVEL};
use crate::tools::analysis::{analyse_game, annotated_pdn, report};
use crate::tools::pdn;
use crate::web::messages::{self, ClientMessage};
use serde_json::Value;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{Receiver, SyncSender};
use std::sync::{Arc, Mutex};
use tokio::sync::mpsc::error::TrySendError;
use tokio::sync::{mpsc as queue, Notify};

/// The deepest search a page may ask for, in plies.
pub const MAX_DEPTH: u32 = 40;
/// The longest time per move or per position a page may ask for, in milliseconds (a minute).
pub const MAX_MOVETIME_MS: u64 = 60_000;
/// The depth of a game analysis when the page gives neither depth nor time, in plies.
pub const DEFAULT_ANALYSIS_DEPTH: u32 = 6;
/// The most messages waiting to be sent to one page, in messages. A page that lets more pile
/// up has stopped reading: its connection is dropped (see [`Outbox::send`]).
pub const OUT_QUEUE_MESSAGES: usize = 256;
/// The most inputs waiting for one session, in messages (the page's requests and its
/// searches' results). A page whose requests would pile up beyond it (it sends faster than
/// its session answers, e.g. during a game analysis) has its connection dropped by the
/// WebSocket task.
pub const IN_QUEUE_MESSAGES: usize = 64;

/// What every session's engine is made with (`damiera serve`'s options).
#[derive(Clone, Debug)]
pub struct SessionConfig {
    /// The transposition table of each session, in MiB.
    pub hash_mib: usize,
    /// The evaluation of the variants `--eval-file` set (the others use their built-in one).
    pub evaluations: Vec<(Variant, Evaluation)>,
    /// The endgame databases' root, if used.
    pub egdb: Option<PathBuf>,
    /// The opening books (`--book`), at most one per variant, shared by every session: the
    /// engine plays from the book of the game's variant (its `BookFile` option, at the
    /// engine's `BookPly`), each `position` lists the position's book moves, and a game's
    /// analysis marks the moves that were in the book.
    pub books: Vec<Arc<Book>>,
}

/// What reaches a session: a page's message, a search's result, or the end of the page.
#[derive(Debug)]
pub enum Input {
    /// A message from the page.
    Client(ClientMessage),
    /// A search ended (its best move is in the session's result slot).
    BestMove {
        /// The search's number in this session.
        id: u64,
    },
    /// The page went away: the session ends.
    Close,
}

/// The end of one page's connection, shared by its WebSocket task, its session and the
/// session's searches: once hung up, the WebSocket task drops the connection and the session
/// ends at its next input.
#[derive(Debug, Default)]
pub struct Hangup {
    done: AtomicBool,
    wake: Notify,
}

impl Hangup {
    /// Hangs up (again is harmless). Returns whether this call was the first.
    pub fn hang_up(&self) -> bool {
        let first = !self.done.swap(true, Ordering::SeqCst);
        self.wake.notify_one();
        first
    }

    /// Whether the connection was hung up.
    pub fn is_hung_up(&self) -> bool {
        self.done.load(Ordering::SeqCst)
    }

    /// Waits until the connection is hung up (at once if it already is).
    pub async fn hung_up(&self) {
        let woken = self.wake.notified();
        if self.is_hung_up() {
            return;
        }
        woken.await;
    }
}

/// Where a session's messages go: a queue of at most [`OUT_QUEUE_MESSAGES`] messages, which
/// the page's WebSocket task sends to the page in order.
#[derive(Clone, Debug)]
pub struct Outbox {
    queue: queue::Sender<String>,
    hangup: Arc<Hangup>,
}

impl Outbox {
    /// An outbox for the connection `hangup` ends, and the receiving end of its queue.
    pub fn new(hangup: Arc<Hangup>) -> (Outbox, queue::Receiver<String>) {
        let (queue, receiver) = queue::channel(OUT_QUEUE_MESSAGES);
        (Outbox { queue, hangup }, receiver)
    }

    /// Queues a message for the page without waiting. When [`OUT_QUEUE_MESSAGES`] messages are
    /// already waiting the page has stopped reading: the message is dropped and so is the
    /// connection (hung up, with a warning in the log), so an unread page never grows the
    /// server's memory. A closed page is noticed by the WebSocket task, which ends the session.
    pub fn send(&self, text: String) {
        if let Err(TrySendError::Full(_)) = self.queue.try_send(text) {
            if self.hangup.hang_up() {
                log::warn!(
                    "damiera serve: a page stopped reading ({OUT_QUEUE_MESSAGES} messages \
                     waiting): its connection is dropped"
                );
            }
        }
    }

    /// Whether the page's connection was hung up (the session then ends).
    pub fn is_hung_up(&self) -> bool {
        self.hangup.is_hung_up()
    }
}

/// A search's number, best move (native notation) and whether the move came from the book, as
/// its thread leaves them.
type SearchResult = Option<(u64, Option<String>, bool)>;

fn send(out: &Outbox, v: Value) {
    out.send(v.to_string());
}

/// A running search: its number and whether its move is played (`go`) or only shown
/// (`analyse`).
#[derive(Copy, Clone, Debug)]
struct Running {
    id: u64,
    plays: bool,
}

struct Session {
    engine: Engine,
    variant: Variant,
    start_fen: Option<String>,
    /// The moves played from the start, in the variant's notation.
    moves: Vec<String>,
    running: Option<Running>,
    next_id: u64,
    /// The last search's number and best move (native notation), written by the search's
    /// thread before it reports [`Input::BestMove`], so that `stop` can act on it at once.
    result: Arc<Mutex<SearchResult>>,
    out: Outbox,
    inbox: SyncSender<Input>,
    cancel: Arc<AtomicBool>,
    /// The `type` of the page's message being handled, which an `error` answers.
    request: Option<&'static str>,
    /// The opening books ([`SessionConfig::books`]).
    books: Vec<Arc<Book>>,
}

/// Runs a session until [`Input::Close`], until its connection is hung up (see [`Outbox`]) or
/// until every sender is gone: sends `hello` and the English start position, then answers
/// each input. `inbox` is a sender to the session's own `input` (a queue of
/// [`IN_QUEUE_MESSAGES`]), which its searches report to; `cancel` is set by the WebSocket task
/// on `stop`.
pub fn run(
    config: &SessionConfig,
    input: Receiver<Input>,
    inbox: SyncSender<Input>,
    out: Outbox,
    cancel: Arc<AtomicBool>,
) {
    let mut engine = Engine::new(Variant::English, 1);
    if let Err(e) = engine.set_hash(config.hash_mib) {
        send(&out, messages::error(None, &format!("hash table: {e}")));
    }
    for (v, e) in &config.evaluations {
        engine.set_evaluation(*v, e.clone());
    }
    if let Some(root) = &config.egdb {
        if let Err(e) = engine.set_egdb(Some(root), MAX_EGDB_PIECES) {
            send(
                &out,
                messages::error(None, &format!("endgame databases: {e}")),
            );
        }
    }
    let mut s = Session {
        engine,
        variant: Variant::English,
        start_fen: None,
        moves: Vec::new(),
        running: None,
        next_id: 0,
        result: Arc::new(Mutex::new(None)),
        out,
        inbox,
        cancel,
        request: None,
        books: config.books.clone(),
    };
    s.engine.set_book(s.book().cloned());
    send(&s.out, messages::hello());
    s.send_position();
    while let Ok(msg) = input.recv() {
        if s.out.is_hung_up() {
            break;
        }
        match msg {
            Input::Close => break,
            Input::BestMove { id } => s.best_move(id),
            Input::Client(m) => s.handle(m),
        }
        // A search whose `Input::BestMove` found the queue full is acted on here (its result
        // is in the slot; the queue held at least the input just handled).
        if let Some(r) = s.running {
            s.best_move(r.id);
        }
    }
    s.engine.stop();
}

/// The limits of a `go` or of a game analysis's positions: a depth (plies) or a time (ms),
/// within bounds. With neither, `default_depth`; without one, neither is an error.
fn limits(
    depth: Option<u32>,
    movetime: Option<u64>,
    default_depth: Option<u32>,
) -> Result<Limits, String> {
    if let Some(d) = depth.filter(|d| !(1..=MAX_DEPTH).contains(d)) {
        return Err(format!("depth {d}: a depth is 1 to {MAX_DEPTH} plies"));
    }
    if let Some(t) = movetime.filter(|t| !(1..=MAX_MOVETIME_MS).contains(t)) {
        return Err(format!(
            "movetime {t}: a time per move is 1 to {MAX_MOVETIME_MS} ms"
        ));
    }
    let depth = match (depth, movetime) {
        (None, None) => {
            Some(default_depth.ok_or("go needs a depth (plies) or a movetime (ms)".to_string())?)
        }
        (d, _) => d,
    };
    Ok(Limits {
        depth: depth.map(Depth),
        movetime,
        ..Limits::default()
    })
}

/// The strength level of a `go` (none: full strength).
fn level_of(level: Option<u32>) -> Result<Level, String> {
    match level {
        None => Ok(Level::FULL),
        Some(n) => Level::new(n).ok_or_else(|| format!("level {n}: a level is 0 to {MAX_LEVEL}")),
    }
}

impl Session {
    /// The opening book of the game's variant, if `--book` gave one.
    fn book(&self) -> Option<&Arc<Book>> {
        self.books.iter().find(|b| b.variant() == self.variant)
    }

    fn error(&self, message: &str) {
        send(&self.out, messages::error(self.request, message));
    }

    fn handle(&mut self, m: ClientMessage) {
        self.request = Some(m.kind());
        self.dispatch(m);
        self.request = None;
    }

    fn dispatch(&mut self, m: ClientMessage) {
        match m {
            ClientMessage::New {
                variant,
                fen,
                damone_win,
            } => self.new_game(&variant, fen, damone_win.as_deref()),
            ClientMessage::Move { name } => self.play(&name),
            ClientMessage::Takeback { plies } => {
                self.stop_running();
                let n = plies.clamp(1, 2).min(self.moves.len());
                self.moves.truncate(self.moves.len() - n);
                self.sync_engine();
                self.send_position();
            }
            ClientMessage::Go {
                depth,
                movetime,
                level,
            } => match (limits(depth, movetime, None), level_of(level)) {
                (Ok(l), Ok(level)) => {
                    self.engine.set_level(level);
                    self.search(l, true)
                }
                (Err(e), _) | (_, Err(e)) => self.error(&e),
            },
            ClientMessage::Analyse => {
                // Analysis is always at full strength.
                self.engine.set_level(Level::FULL);
                self.search(
                    Limits {
                        infinite: true,
                        ..Limits::default()
                    },
                    false,
                )
            }
            ClientMessage::Stop => {
                // The search ends and its result is acted on now (a `go` plays what it found),
                // before any request the page sent after `stop`.
                if let Some(r) = self.running {
                    self.engine.stop();
                    self.best_move(r.id);
                }
            }
            ClientMessage::AnalysePdn {
                pdn,
                game,
                depth,
                movetime,
            } => match limits(depth, movetime, Some(DEFAULT_ANALYSIS_DEPTH)) {
                Ok(l) => {
                    self.engine.set_level(Level::FULL);
                    self.analyse_pdn(&pdn, game, l)
                }
                Err(e) => self.error(&e),
            },
        }
    }

    /// Ends a running search whose result no longer matters (its move is not played).
    fn stop_running(&mut self) {
        if self.running.take().is_some() {
            self.engine.stop();
        }
    }

    /// Sets the engine to the game's position (after a change of the move list).
    fn sync_engine(&mut self) {
        let moves: Vec<&str> = self.moves.iter().map(String::as_str).collect();
        if let Err(e) = self.engine.set_position(self.start_fen.as_deref(), &moves) {
            // The moves were each checked when played; this cannot happen.
            self.error(&format!("the game could not be set up: {e}"));
        }
    }

    fn new_game(&mut self, variant: &str, fen: Option<String>, damone_win: Option<&str>) {
        let variant: Variant = match variant.parse() {
            Ok(v) => v,
            Err(e) => return self.error(&e.to_string()),
        };
        let damone_win = match messages::parse_damone_win(damone_win) {
            Ok(w) => w,
            Err(e) => return self.error(&e),
        };
        let fen = fen.map(|f| f.trim().to_string()).filter(|f| !f.is_empty());
        if let Err(e) = VariantPosition::new(variant, fen.as_deref()) {
            return self.error(&fen_error(fen.as_deref().unwrap_or(""), &e.to_string()));
        }
        self.stop_running();
        if variant == Variant::Damone && damone_win != self.engine.damone_win() {
            self.engine.set_damone_win(damone_win);
        }
        if self.engine.variant() != variant {
            self.engine.set_variant(variant);
        }
        self.variant = variant;
        self.engine.set_book(self.book().cloned());
        self.engine.new_game();
        self.start_fen = fen;
        self.moves.clear();
        self.sync_engine();
        self.send_position();
    }

    fn play(&mut self, text: &str) {
        self.stop_running();
        if let Some(o) = self.engine.outcome() {
            return self.error(&format!("the game is over ({o})"));
        }
        match self.engine.move_name(text) {
            Ok(name) => {
                self.moves.push(name);
                self.sync_engine();
                self.send_position();
            }
            // The core's message names the move (`illegal move 9-14`, `no such square`).
            Err(e) if e.contains(text) => self.error(&e),
            Err(e) => self.error(&format!("{text}: {e}")),
        }
    }

    fn search(&mut self, limits: Limits, plays: bool) {
        self.stop_running();
        if let Some(o) = self.engine.outcome() {
            return self.error(&format!("the game is over ({o})"));
        }
        let id = self.next_id;
        self.next_id += 1;
        let (out, inbox) = (self.out.clone(), self.inbox.clone());
        let result = Arc::clone(&self.result);
        let side = self.engine.side_to_move();
        let mut from_book = false;
        let sink = Box::new(move |ev| match ev {
            Event::Info {
                depth,
                score,
                nodes,
                nps,
                time_ms,
                pv,
                ..
            } => send(
                &out,
                messages::info(depth.0, score, side, nodes, nps, time_ms, &pv),
            ),
            // The move follows as the best move, which the page is told came from the book.
            Event::Book { .. } => from_book = true,
            Event::BestMove { best, .. } => {
                *result.lock().unwrap_or_else(|p| p.into_inner()) = Some((id, best, from_book));
                // Never waits: the session may be waiting for this thread (`stop`). A full
                // queue is read on: `run` then finds the result in the slot.
                let _ = inbox.try_send(Input::BestMove { id });
            }
        });
        self.engine
            .go(GoRequest::new(limits, MoveForm::Native), sink);
        self.running = Some(Running { id, plays });
    }

    /// Acts on the end of search `id`: sends its best move, and plays it for a `go`. Nothing
    /// for a search already acted on or dropped by a later request.
    fn best_move(&mut self, id: u64) {
        let Some(r) = self.running.filter(|r| r.id == id) else {
            return;
        };
        let result = self.result.lock().unwrap_or_else(|p| p.into_inner()).take();
        let Some((_, best, from_book)) = result.filter(|(rid, _, _)| *rid == id) else {
            return; // not reported yet: its `Input::BestMove` will come
        };
        self.running = None;
        self.engine.wait();
        send(&self.out, messages::bestmove(best.as_deref(), from_book));
        if let (true, Some(mv)) = (r.plays, best) {
            self.moves.push(mv);
            self.sync_engine();
            self.send_position();
        }
    }

    fn analyse_pdn(&mut self, text: &str, number: usize, limits: Limits) {
        self.stop_running();
        let games = pdn::read_games(text);
        if games.is_empty() {
            return self.error("no game in the PDN");
        }
        if number == 0 || number > games.len() {
            let n = games.len();
            let s = if n == 1 { "" } else { "s" };
            return self.error(&format!("game {number}: the PDN holds {n} game{s}"));
        }
        let game = &games[number - 1];
        let replay = pdn::variant_of(game, Some(self.variant))
            .map_err(|m| pdn::PdnError {
                span: game.tag_span("GameType"),
                message: m,
            })
            .and_then(|v| pdn::replay(game, v));
        let replay = match replay {
            Ok(r) => r,
            Err(e) => {
                let at = e.span;
                return self.error(&format!(
                    "line {}, column {}: {}",
                    at.line, at.col, e.message
                ));
            }
        };
        self.cancel.store(false, Ordering::SeqCst);
        let out = self.out.clone();
        let progress = |done, total| send(&out, messages::progress(done, total));
        let game_variant = replay.variant;
        let analysed = analyse_game(&mut self.engine, replay, limits, &self.cancel, progress);
        let annotator = format!("damiera {}", env!("CARGO_PKG_VERSION"));
        match analysed {
            Some(mut a) => {
                if let Some(book) = self.books.iter().find(|b| b.variant() == game_variant) {
                    a.mark_book(book);
                }
                let text = report(number, game, &a);
                let written = annotated_pdn(game, &a, &annotator);
                send(
                    &self.out,
                    messages::analysis(number, games.len(), game, &a, text, written),
                );
            }
            None => self.error("the game's analysis was stopped"),
        }
        // The analysis used the engine: back to the game being played.
        if self.engine.variant() != self.variant {
            self.engine.set_variant(self.variant);
        }
        self.engine.new_game();
        self.sync_engine();
    }

    /// Sends the game's position, its legal moves, the last move and the outcome.
    fn send_position(&self) {
        let mut pos = match VariantPosition::new(self.variant, self.start_fen.as_deref()) {
            Ok(p) => p.with_damone_win(self.engine.damone_win()),
            Err(e) => return self.error(&e.to_string()),
        };
        let mut last = None;
        for m in &self.moves {
            let Ok(mv) = pos.parse_move(m) else { break };
            last = Some(pos.move_squares(&mv));
            pos.play(&mv);
        }
        let outcome = self.engine.outcome().map(|o| outcome_text(o, &pos));
        send(
            &self.out,
            messages::position(
                &pos,
                &self.moves,
                last.as_ref(),
                outcome,
                self.book().map(AsRef::as_ref),
            ),
        );
    }
}

/// A game's end in words (`Black wins: White has no legal move`); under Italian Damone's
/// `damones` rule a side that has lost every Damone has no legal move (ruling I.4), which the
/// text then says in a player's words.
fn outcome_text(o: Outcome, pos: &VariantPosition) -> String {
    match o {
        Outcome::Win(c, _)
            if pos.damone_win() == Some(DamoneWin::Damones)
                && !pos.pieces().contains(&Some((c.opponent(), Piece::Damone))) =>
        {
            format!(
                "{} wins: {} has lost its last Damone",
                c.name(),
                c.opponent().name()
            )
        }
        o => o.to_string(),
    }
}

/// A FEN error as the page shows it: the parser's message, with the column (from 1) of the
/// field it names when the FEN holds it.
fn fen_error(fen: &str, message: &str) -> String {
    // The parser quotes the offending part in backticks or quotes: find it in the FEN.
    let quoted = message
        .split(['`', '"', '\''])
        .nth(1)
        .filter(|q| !q.is_empty());
    match quoted.and_then(|q| fen.find(q)) {
        Some(at) => format!("column {}: {message}", at + 1),
        None => message.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_full_outbox_hangs_up_and_holds_no_more() {
        let hangup = Arc::new(Hangup::default());
        let (out, mut queue) = Outbox::new(Arc::clone(&hangup));
        for i in 0..OUT_QUEUE_MESSAGES {
            out.send(i.to_string());
        }
        assert!(!out.is_hung_up(), "a full queue is not yet an overflow");
        for _ in 0..1000 {
            out.send("unread".into());
        }
        assert!(hangup.is_hung_up());
        let mut held = 0;
        while let Ok(text) = queue.try_recv() {
            assert_eq!(text, held.to_string(), "the first messages, in order");
            held += 1;
        }
        assert_eq!(held, OUT_QUEUE_MESSAGES);
        assert!(!hangup.hang_up(), "hung up once");
    }
}
