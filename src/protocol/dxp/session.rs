//! A DXP session: one connection, its state (the game in progress, the games played, the last
//! result) and what the session does on its own: send, report, start a game, search on
//! damiera's turn, judge and end a game. `events.rs` drives it from the peer's messages;
//! the follower ([`super::follow`]) and the initiator ([`super::initiate`]) both run one.

use super::game::{clock_limits, GameSlot, GameState, SlotHold};
use super::io::{spawn_reader, Input, CLOSE_WAIT_MS};
use super::message::Message;
use crate::core::rules::Color;
use crate::core::variant::Variant;
use crate::engine::{Engine, Event, GoRequest, MoveForm, Outcome, DEFAULT_CONTEMPT_CM};
use std::io::Write;
use std::net::{Shutdown, TcpStream};
use std::sync::mpsc::{self, Receiver, Sender};
use std::time::{Duration, Instant};

/// How a session ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Report {
    /// Games finished on this connection.
    pub games: u32,
    /// The last game's result from damiera's view (`1-0`-style from White's view, `*` if
    /// unfinished) and why.
    pub last: Option<String>,
}

/// The default idle timeout ([`Options::idle_timeout_ms`]), in milliseconds.
pub const DEFAULT_IDLE_TIMEOUT_MS: u64 = 60_000;

/// Options of a session.
#[derive(Clone, Debug)]
pub struct Options {
    /// Name sent in GAMEREQ/GAMEACC.
    pub name: String,
    /// Transposition table size in MiB.
    pub hash_mib: usize,
    /// Fixed time per move in ms, overriding the clock.
    pub movetime: Option<u64>,
    /// How long to wait for the peer's answer to a GAMEREQ, a GAMEEND or a move, in ms
    /// (0: forever for moves; GAMEACC and GAMEEND answers always time out).
    pub answer_timeout_ms: u64,
    /// Closes the connection when the peer sends nothing for this long, in milliseconds (0:
    /// never): with no game in progress (before a GAMEREQ, between games), and on the peer's
    /// turn with its whole thinking time for the game (the GAMEREQ's minutes) on top. Never
    /// while damiera thinks.
    pub idle_timeout_ms: u64,
    /// Prints a line per move on stderr (`ply 12: 32-28 (white, 0.8 s)`); the initiator does.
    pub moves_to_stderr: bool,
    /// The game slot this session shares with the other connections of its follower.
    pub slot: GameSlot,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            name: format!("damiera {}", env!("CARGO_PKG_VERSION")),
            hash_mib: 64,
            movetime: None,
            answer_timeout_ms: 30_000,
            idle_timeout_ms: DEFAULT_IDLE_TIMEOUT_MS,
            moves_to_stderr: false,
            slot: GameSlot::default(),
        }
    }
}

/// One connection's session, the follower's or the initiator's.
pub(super) struct Session<'a> {
    pub(super) stream: TcpStream,
    pub(super) engine: Engine,
    pub(super) opts: &'a Options,
    pub(super) rx: Receiver<Input>,
    pub(super) tx: Sender<Input>,
    pub(super) game: Option<GameState>,
    pub(super) games: u32,
    pub(super) last: Option<String>,
    pub(super) initiator: bool,
    pub(super) stop_after: bool,
    /// The peer closed its side (the reader thread said so).
    pub(super) peer_closed: bool,
    /// When the peer last sent a message or we last sent one (for the idle timeout).
    pub(super) last_heard: Instant,
    pub(super) log: &'a mut dyn Write,
}

impl Session<'_> {
    pub(super) fn send(&mut self, m: &Message) -> bool {
        let mut bytes = m.text().into_bytes();
        bytes.push(0);
        log::debug!("dxp send {}", m.text());
        self.last_heard = Instant::now();
        self.stream
            .write_all(&bytes)
            .and_then(|_| self.stream.flush())
            .is_ok()
    }

    pub(super) fn say(&mut self, text: &str) {
        let _ = writeln!(self.log, "{text}");
        let _ = self.log.flush();
    }

    /// Loads the game's moves into the engine.
    pub(super) fn sync(&mut self) -> bool {
        let g = self.game.as_ref().expect("a game");
        let refs: Vec<&str> = g.moves.iter().map(String::as_str).collect();
        match self.engine.set_position(Some(&g.start_fen), &refs) {
            Ok(()) => true,
            Err(e) => {
                log::error!("dxp: cannot replay the game: {e}");
                false
            }
        }
    }

    /// Closes the connection and reports the session. The close is one the peer reads as the
    /// end of the connection, not a reset (as [`super::io::close_gracefully`] does): our write
    /// side is shut first, then the reader thread reads and drops what the peer still sends
    /// until it closes its side, at most [`CLOSE_WAIT_MS`].
    pub(super) fn close(self) -> Report {
        let _ = self.stream.shutdown(Shutdown::Write);
        if !self.peer_closed {
            let deadline = Instant::now() + Duration::from_millis(CLOSE_WAIT_MS);
            loop {
                let left = deadline.saturating_duration_since(Instant::now());
                match self.rx.recv_timeout(left) {
                    Ok(Input::Closed) | Err(_) => break,
                    Ok(_) => {}
                }
            }
        }
        let _ = self.stream.shutdown(Shutdown::Both);
        Report {
            games: self.games,
            last: self.last,
        }
    }

    pub(super) fn plies(&self) -> usize {
        self.game.as_ref().map_or(0, |g| g.moves.len())
    }

    pub(super) fn side_to_move(&self) -> Color {
        self.engine.side_to_move()
    }

    /// Our view of the result: GAMEEND reason and a result line.
    pub(super) fn verdict(&self) -> (u8, String) {
        let us = self.game.as_ref().map(|g| g.us).unwrap_or(Color::White);
        match self.engine.outcome() {
            Some(Outcome::Win(c, _)) => {
                let score = if c == Color::White { "2-0" } else { "0-2" };
                let reason = if c == us { 3 } else { 1 };
                (reason, format!("{score} (no legal move)"))
            }
            Some(Outcome::Draw(why)) => (2, format!("1-1 ({why})")),
            None => (0, "* (ended before its end)".to_string()),
        }
    }

    /// Our answer to the peer's GAMEEND with `peer_reason` (from its view): the rules' result
    /// when they decide the position; otherwise a resignation (`1`) is our win (`3`), at the
    /// game's move count the game is a draw (`2`: a position the rules do not decide is a draw
    /// when the game's length is reached), a draw (`2`) is accepted; otherwise `0`.
    pub(super) fn answer_verdict(&self, peer_reason: u8) -> (u8, String) {
        let (ours, result) = self.verdict();
        let Some(g) = self.game.as_ref() else {
            return (ours, result);
        };
        if ours != 0 {
            return (ours, result);
        }
        let our_win = if g.us == Color::White { "2-0" } else { "0-2" };
        match peer_reason {
            1 => (3, format!("{our_win} (the opponent resigned)")),
            _ if g.at_move_limit() => (2, format!("1-1 (move limit: {} moves)", g.moves_per_game)),
            2 => (2, "1-1 (a draw by the opponent's GAMEEND)".to_string()),
            3 => (
                0,
                "* (the opponent claimed a win the rules do not give)".to_string(),
            ),
            _ => (0, "* (ended by the opponent before its end)".to_string()),
        }
    }

    /// Adds the side to move's move `name` (native) to the game, then prints the initiator's
    /// move line on stderr: ply (from the game's start), move, the mover's color and its time
    /// in seconds.
    pub(super) fn record_move(&mut self, name: String) {
        let mover = self.side_to_move();
        let Some(g) = self.game.as_mut() else { return };
        g.moves.push(name.clone());
        let secs = g.turn_started.elapsed().as_secs_f64();
        g.turn_started = Instant::now();
        if self.opts.moves_to_stderr {
            eprintln!(
                "ply {}: {name} ({}, {secs:.1} s)",
                g.moves.len(),
                if mover == Color::White {
                    "white"
                } else {
                    "black"
                }
            );
        }
    }

    pub(super) fn start_search(&mut self) {
        let g = self.game.as_ref().expect("a game");
        let limits = clock_limits(
            g.minutes,
            g.moves_per_game,
            g.made_by(g.us),
            g.used_ms,
            self.opts.movetime,
        );
        let tx = self.tx.clone();
        self.engine.go(
            GoRequest::new(limits, MoveForm::Hub),
            Box::new(move |ev| {
                if let Event::BestMove { best, .. } = ev {
                    let _ = tx.send(Input::Best(best));
                }
            }),
        );
        let g = self.game.as_mut().expect("a game");
        g.searching = true;
        g.search_started = Instant::now();
    }

    /// Ends the game from our side (on our turn): sends GAMEEND and waits for the answer.
    pub(super) fn end_game(&mut self, reason: u8, result: String) {
        self.engine.stop();
        let stop = u8::from(self.initiator || self.stop_after);
        self.send(&Message::GameEnd { reason, stop });
        let plies = self.plies();
        self.say(&format!("game over after {plies} plies: {result}"));
        self.last = Some(result);
        if let Some(g) = self.game.as_mut() {
            g.searching = false;
            g.end_sent = Some(Instant::now());
        }
    }

    pub(super) fn finish_game(&mut self) {
        self.engine.stop();
        self.game = None;
        self.games += 1;
    }

    /// On our turn with no search running: end the game if it is over, else search.
    pub(super) fn our_turn(&mut self) {
        let Some(g) = self.game.as_ref() else { return };
        if g.searching || g.end_sent.is_some() || self.side_to_move() != g.us {
            return;
        }
        if self.engine.outcome().is_some() {
            let (reason, result) = self.verdict();
            self.end_game(reason, result);
        } else if g.moves_per_game > 0 && g.made_by(g.us) >= g.moves_per_game {
            // The game's length is reached (as Moby Dam and Scan read the GAMEREQ): the game
            // ends here, a draw when the rules do not decide it. GAMEEND first, then the CHAT
            // (pydraughts keeps only the first of two messages that arrive together).
            let n = g.moves_per_game;
            self.end_game(2, format!("1-1 (move limit: {n} moves)"));
            self.send(&Message::Chat(format!(
                "game ended: all {n} moves played, a draw by the game's length"
            )));
        } else {
            self.start_search();
        }
    }

    pub(super) fn new_game(
        &mut self,
        fen: String,
        us: Color,
        minutes: u32,
        moves: u32,
        hold: Option<SlotHold>,
    ) -> Result<(), String> {
        self.engine.new_game();
        self.engine.set_position(Some(&fen), &[])?;
        let start_side = self.engine.side_to_move();
        self.game = Some(GameState {
            start_fen: fen,
            start_side,
            moves: Vec::new(),
            us,
            minutes,
            moves_per_game: moves,
            used_ms: 0,
            searching: false,
            search_started: Instant::now(),
            turn_started: Instant::now(),
            end_sent: None,
            _hold: hold,
        });
        Ok(())
    }

    pub(super) fn protocol_error(&mut self, what: &str) {
        log::warn!("dxp: {what}");
        self.say(&format!("error: {what}"));
        self.send(&Message::Chat(format!("error: {what}")));
    }
}

/// A session on `stream`: its reader thread started, a new International engine, no game.
pub(super) fn session<'a>(
    stream: TcpStream,
    opts: &'a Options,
    initiator: bool,
    log: &'a mut dyn Write,
) -> Result<Session<'a>, String> {
    let (tx, rx) = mpsc::channel();
    let reader = stream.try_clone().map_err(|e| e.to_string())?;
    let _ = stream.set_nodelay(true);
    spawn_reader(reader, tx.clone());
    let mut engine = Engine::new(Variant::International, opts.hash_mib);
    engine.set_contempt(DEFAULT_CONTEMPT_CM);
    Ok(Session {
        stream,
        engine,
        opts,
        rx,
        tx,
        game: None,
        games: 0,
        last: None,
        initiator,
        stop_after: false,
        peer_closed: false,
        last_heard: Instant::now(),
        log,
    })
}
