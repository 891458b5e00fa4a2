//! The event loop of a DXP session: it waits for a message of the peer (or a malformed one),
//! the end of the connection or the search's move, answers each, and watches the timeouts.
//! [`follow`] is the follower: a session that waits for game requests.

use super::game::SLOT_WAIT_MS;
use super::io::Input;
use super::message::Message;
use super::position::{fen_of, hub_form, move_message, START_FEN};
use super::session::{session, Options, Report, Session};
use crate::core::rules::Color;
use crate::engine::MoveForm;
use std::io::Write;
use std::net::TcpStream;
use std::sync::mpsc::RecvTimeoutError;
use std::time::{Duration, Instant};

impl Session<'_> {
    /// How long the peer may stay silent now (see [`Options::idle_timeout_ms`]): `None` while
    /// damiera thinks or is to move, or with no idle timeout.
    fn idle_limit(&self) -> Option<Duration> {
        if self.opts.idle_timeout_ms == 0 {
            return None;
        }
        let idle = Duration::from_millis(self.opts.idle_timeout_ms);
        match self.game.as_ref() {
            None => Some(idle),
            Some(g) if g.end_sent.is_some() || g.searching || self.side_to_move() == g.us => None,
            Some(g) => Some(idle + Duration::from_secs(u64::from(g.minutes) * 60)),
        }
    }

    /// Runs until the connection ends, or (initiator, or after a stop code 1) the game ends.
    pub(super) fn run(&mut self) {
        loop {
            let timeout = match self.game.as_ref() {
                Some(g) if g.end_sent.is_some() => {
                    Duration::from_millis(self.opts.answer_timeout_ms.min(10_000))
                }
                _ => Duration::from_millis(500),
            };
            let input = match self.rx.recv_timeout(timeout) {
                Ok(i) => i,
                Err(RecvTimeoutError::Timeout) => {
                    if let Some(limit) = self.idle_limit() {
                        if self.last_heard.elapsed() >= limit {
                            self.protocol_error(&format!(
                                "nothing from the peer in {} s: connection closed",
                                limit.as_secs()
                            ));
                            if self.game.is_some() {
                                self.say("game over: * (the opponent went silent)");
                                self.last = Some("* (the opponent went silent)".into());
                                self.engine.stop();
                                self.game = None;
                            }
                            return;
                        }
                    }
                    if let Some(g) = self.game.as_ref() {
                        if let Some(t) = g.end_sent {
                            if t.elapsed()
                                >= Duration::from_millis(self.opts.answer_timeout_ms.min(10_000))
                            {
                                log::warn!("dxp: no GAMEEND answer; the game is over anyway");
                                self.finish_game();
                            }
                        }
                    }
                    if self.game.is_none() && (self.initiator || self.stop_after) && self.games > 0
                    {
                        return;
                    }
                    continue;
                }
                Err(RecvTimeoutError::Disconnected) => return,
            };
            match input {
                Input::Closed => {
                    self.peer_closed = true;
                    if self.game.is_some() {
                        self.say("error: the connection was closed during the game");
                        self.last
                            .get_or_insert_with(|| "* (connection closed)".into());
                        self.engine.stop();
                        self.game = None;
                    }
                    return;
                }
                Input::Best(b) => self.on_best(b),
                Input::Peer(Err(e)) => {
                    self.last_heard = Instant::now();
                    self.on_malformed(&e)
                }
                Input::Peer(Ok(m)) => {
                    self.last_heard = Instant::now();
                    log::debug!("dxp recv {}", m.text());
                    match m {
                        Message::GameReq { .. } => self.on_game_req(m),
                        Message::GameAcc { .. } => {
                            self.protocol_error("unexpected GAMEACC ignored")
                        }
                        Message::Move {
                            from, to, captured, ..
                        } => self.on_move(from, to, captured),
                        Message::GameEnd { reason, stop } => self.on_game_end(reason, stop),
                        Message::Chat(t) => self.say(&format!("chat: {t}")),
                        Message::BackReq { number, color } => self.on_back_req(number, color),
                        Message::BackAcc { .. } => {
                            self.protocol_error("unexpected BACKACC ignored")
                        }
                    }
                }
            }
            if self.game.is_none() && self.games > 0 && (self.initiator || self.stop_after) {
                return;
            }
        }
    }

    fn on_game_req(&mut self, m: Message) {
        let Message::GameReq {
            version,
            name,
            follower,
            minutes,
            moves,
            position,
        } = m
        else {
            return;
        };
        let me = self.opts.name.clone();
        if self.initiator {
            self.protocol_error("GAMEREQ from the follower ignored");
            return;
        }
        if self.game.is_some() {
            self.send(&Message::GameAcc { name: me, code: 2 });
            self.protocol_error("GAMEREQ during a game: refused (code 2), the game goes on");
            return;
        }
        if version != 1 {
            self.send(&Message::GameAcc { name: me, code: 1 });
            self.say(&format!(
                "refused a game from {name}: DXP version {version}"
            ));
            return;
        }
        let fen = match &position {
            None => START_FEN.to_string(),
            Some((side, squares)) => fen_of(*side, squares),
        };
        // One game at a time across the follower's connections.
        let Some(hold) = self.opts.slot.take(Duration::from_millis(SLOT_WAIT_MS)) else {
            self.protocol_error(&format!(
                "busy: a game on another connection is in progress; refused a game from {name}"
            ));
            self.send(&Message::GameAcc { name: me, code: 2 });
            return;
        };
        match self.new_game(fen.clone(), follower, minutes, moves, Some(hold)) {
            Ok(()) => {
                self.send(&Message::GameAcc { name: me, code: 0 });
                self.say(&format!(
                    "game accepted from {name}: damiera plays {}, {minutes} min for {} moves, from {fen}",
                    if follower == Color::White { "white" } else { "black" },
                    if moves == 0 { "all".to_string() } else { moves.to_string() }
                ));
                self.our_turn();
            }
            Err(e) => {
                self.send(&Message::GameAcc { name: me, code: 2 });
                self.say(&format!("refused a game from {name}: bad position: {e}"));
            }
        }
    }

    /// A message that does not parse: reported with a CHAT; a malformed GAMEREQ is refused
    /// (GAMEACC code 2) and a malformed MOVE on the peer's turn ends the game like an illegal
    /// move.
    fn on_malformed(&mut self, e: &str) {
        self.protocol_error(&format!("malformed message: {e}"));
        if e.starts_with("GAMEREQ") && !self.initiator && self.game.is_none() {
            let name = self.opts.name.clone();
            self.send(&Message::GameAcc { name, code: 2 });
        } else if e.starts_with("MOVE") {
            if let Some(g) = self.game.as_ref() {
                if g.end_sent.is_none() && !g.searching && self.side_to_move() != g.us {
                    let score = if g.us == Color::White { "2-0" } else { "0-2" };
                    self.end_game(3, format!("{score} (malformed move by the opponent)"));
                }
            }
        }
    }

    fn on_move(&mut self, from: u8, to: u8, captured: Vec<u8>) {
        let Some(g) = self.game.as_ref() else {
            self.protocol_error("MOVE outside a game ignored");
            return;
        };
        if g.end_sent.is_some() {
            return; // crossed our GAMEEND
        }
        if self.side_to_move() == g.us {
            self.protocol_error(&format!(
                "MOVE {} on damiera's turn ignored",
                hub_form(from, to, &captured)
            ));
            return;
        }
        let want = hub_form(from, to, &captured);
        let hub = self.engine.legal_moves(MoveForm::Hub);
        let Some(i) = hub.iter().position(|m| *m == want) else {
            // An illegal move ends the game: we claim it (reason 3), with a CHAT saying why.
            let text = format!("illegal move {want} in {}", self.engine.fen());
            self.protocol_error(&text);
            self.end_game(
                3,
                format!(
                    "{} (illegal move by the opponent)",
                    match self.game.as_ref().map(|g| g.us) {
                        Some(Color::White) => "2-0",
                        _ => "0-2",
                    }
                ),
            );
            return;
        };
        let native = self.engine.legal_moves(MoveForm::Native)[i].clone();
        self.record_move(native);
        if self.sync() {
            self.our_turn();
        }
    }

    fn on_best(&mut self, best: Option<String>) {
        let Some(g) = self.game.as_mut() else { return };
        if !g.searching {
            return;
        }
        g.searching = false;
        let spent = g.search_started.elapsed().as_millis() as u64;
        g.used_ms += spent;
        let Some(hub) = best else {
            let (reason, result) = self.verdict();
            self.end_game(reason, result);
            return;
        };
        let Some(msg) = move_message(&hub, (spent / 1000) as u32) else {
            log::error!("dxp: cannot write move {hub}");
            return;
        };
        let Some(i) = self
            .engine
            .legal_moves(MoveForm::Hub)
            .iter()
            .position(|m| *m == hub)
        else {
            log::error!("dxp: own move {hub} is not legal");
            return;
        };
        let native = self.engine.legal_moves(MoveForm::Native)[i].clone();
        if !self.send(&msg) {
            return;
        }
        self.record_move(native);
        self.sync();
    }

    fn on_game_end(&mut self, reason: u8, stop: u8) {
        if stop == 1 {
            self.stop_after = true;
        }
        let Some(g) = self.game.as_ref() else {
            return; // a late confirmation
        };
        if g.end_sent.is_some() {
            // The answer to ours.
            self.finish_game();
            return;
        }
        self.engine.stop();
        if let Some(g) = self.game.as_mut() {
            g.searching = false;
        }
        let (ours, result) = self.answer_verdict(reason);
        let stop_ours = u8::from(self.initiator || self.stop_after);
        self.send(&Message::GameEnd {
            reason: ours,
            stop: stop_ours,
        });
        let plies = self.plies();
        self.say(&format!(
            "game over after {plies} plies: {result} (the opponent ended it: reason {reason})"
        ));
        self.last = Some(result);
        self.finish_game();
    }

    fn on_back_req(&mut self, number: u32, color: Color) {
        let Some(g) = self.game.as_ref() else {
            self.send(&Message::BackAcc { code: 1 });
            return;
        };
        // Ply of (move `number`, `color` to move) counted from the game's start.
        let first_black = g.start_side == Color::Black;
        let ply =
            (i64::from(number) - 1) * 2 + i64::from(color == Color::Black) - i64::from(first_black);
        if number == 0 || ply < 0 || ply as usize > g.moves.len() || g.end_sent.is_some() {
            self.send(&Message::BackAcc { code: 1 });
            return;
        }
        self.engine.stop();
        let g = self.game.as_mut().expect("a game");
        g.searching = false;
        g.moves.truncate(ply as usize);
        self.send(&Message::BackAcc { code: 0 });
        self.say(&format!(
            "took back to move {number}, {} to move",
            if color == Color::White {
                "white"
            } else {
                "black"
            }
        ));
        if self.sync() {
            self.our_turn();
        }
    }
}

/// Serves one connection as the follower: answers game requests and plays until the peer
/// closes the connection (or ends a game with stop code 1). Progress lines go to `log`.
pub fn follow(stream: TcpStream, opts: &Options, log: &mut dyn Write) -> Result<Report, String> {
    let mut s = session(stream, opts, false, log)?;
    s.run();
    Ok(s.close())
}
