//! An engine of a match reached over DXP (docs/dxp.md): `--engine HOST:PORT
//! --engine-protocol dxp`. The match is the initiator, the engine a DXP follower already
//! listening there (Kingsrow International, Scan's `dxp` mode, `damiera dxp --listen`).
//!
//! DXP games are stateful where the match's requests are not: the first request of a game
//! sends a GAMEREQ with the position at that moment (after the opening) and the engine playing
//! the side to move; later requests send the opponent's moves as MOVE messages and wait for the
//! engine's MOVE. When the match's arbiter ends the game, [`DxpEngine::game_over`] sends
//! GAMEEND with the result from the match's side (the sender's view: `1` the follower won, `2`
//! draw, `3` the follower lost). A GAMEEND from the follower instead of a move is
//! [`Failure::GameEnd`]: the match adjudicates it, and `game_over` answers with the result.
//! [`DxpEngine::new_game`] and [`DxpEngine::quit`] end a game still in progress with reason 0
//! ("no reason", which the specification always allows).

use super::engine_spec::{EngineSpec, Failure, GoLimits, MoveRequest, HANDSHAKE_TIMEOUT};
use super::{GameResult, Reason};
use crate::core::rules::Color;
use crate::core::variant::Variant;
use crate::engine::Engine;
use crate::protocol::dxp::{self, Message};
use std::net::{TcpStream, ToSocketAddrs};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{Receiver, RecvTimeoutError};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// A DXP follower playing in a match.
pub struct DxpEngine {
    /// What it was started from (`command[0]` is HOST:PORT).
    pub spec: EngineSpec,
    stream: TcpStream,
    rx: Receiver<Option<Result<Message, String>>>,
    alive: bool,
    in_game: bool,
    /// Moves of the game the engine knows (sent to it or received from it).
    known: usize,
    /// The ply of the game at which the GAMEREQ was sent (the engine moved first there).
    req_ply: usize,
    /// The color the follower plays in the game in progress.
    follower: Color,
    /// The GAMEREQ's move count (moves a side; 0: no limit).
    req_moves: u32,
    /// Whether the follower is to move, as it sees the game.
    peer_to_move: bool,
    /// The follower ended the game with GAMEEND (its reason): our answer is due.
    peer_ended: Option<u8>,
    abort: Arc<AtomicBool>,
}

/// What a GAMEEND reason means (from its sender's view).
fn reason_text(reason: u8) -> &'static str {
    match reason {
        1 => "I lose",
        2 => "draw",
        3 => "I win",
        _ => "no reason",
    }
}

impl DxpEngine {
    /// Connects to the follower at `spec.command[0]` (HOST:PORT).
    ///
    /// # Errors
    /// One line: not International, a bad address, or no connection within
    /// [`HANDSHAKE_TIMEOUT`].
    pub fn connect(
        spec: &EngineSpec,
        variant: Variant,
        abort: Arc<AtomicBool>,
    ) -> Result<DxpEngine, String> {
        let who = format!("engine '{}' (DXP {})", spec.name, spec.command.join(" "));
        if variant != Variant::International {
            return Err(format!("{who}: DXP plays International only"));
        }
        let addr = spec
            .command
            .first()
            .ok_or_else(|| format!("{who}: no address"))?;
        let targets: Vec<_> = addr
            .to_socket_addrs()
            .map_err(|e| format!("{who}: bad address: {e}"))?
            .collect();
        let stream = targets
            .iter()
            .find_map(|t| TcpStream::connect_timeout(t, HANDSHAKE_TIMEOUT).ok())
            .ok_or_else(|| format!("{who}: cannot connect"))?;
        let _ = stream.set_nodelay(true);
        let reader = stream.try_clone().map_err(|e| format!("{who}: {e}"))?;
        Ok(DxpEngine {
            spec: spec.clone(),
            stream,
            rx: dxp::message_reader(reader),
            alive: true,
            in_game: false,
            known: 0,
            req_ply: 0,
            follower: Color::White,
            req_moves: 0,
            peer_to_move: false,
            peer_ended: None,
            abort,
        })
    }

    /// Whether the connection is still up.
    pub fn alive(&self) -> bool {
        self.alive
    }

    fn send(&mut self, m: &Message) -> Result<(), Failure> {
        dxp::send_message(&mut self.stream, m).map_err(|e| {
            self.alive = false;
            Failure::Crash(format!("DXP connection: {e}"))
        })
    }

    /// The next message before `deadline` (CHATs and malformed messages are logged and
    /// skipped).
    fn recv(&mut self, deadline: Instant) -> Result<Message, Failure> {
        loop {
            if self.abort.load(Ordering::SeqCst) {
                return Err(Failure::Aborted);
            }
            let now = Instant::now();
            if now >= deadline {
                return Err(Failure::Timeout(Duration::ZERO));
            }
            match self
                .rx
                .recv_timeout((deadline - now).min(Duration::from_millis(100)))
            {
                Ok(Some(Ok(Message::Chat(t)))) => log::info!("{}: chat: {t}", self.spec.name),
                Ok(Some(Ok(m))) => return Ok(m),
                Ok(Some(Err(e))) => log::warn!("{}: malformed DXP message: {e}", self.spec.name),
                Ok(None) | Err(RecvTimeoutError::Disconnected) => {
                    self.alive = false;
                    return Err(Failure::Crash("DXP connection closed".into()));
                }
                Err(RecvTimeoutError::Timeout) => {}
            }
        }
    }

    /// Ends a game in progress with GAMEEND `reason` (the match side's view) and `stop`: the
    /// answer to the follower's GAMEEND if it sent one, else a GAMEEND whose answer is awaited
    /// for up to 10 s.
    fn end_game(&mut self, reason: u8, stop: u8) {
        let answering = self.peer_ended.take().is_some();
        if !self.in_game || !self.alive {
            self.in_game = false;
            return;
        }
        self.in_game = false;
        if self.send(&Message::GameEnd { reason, stop }).is_err() || answering {
            return;
        }
        let deadline = Instant::now() + Duration::from_secs(10);
        while let Ok(m) = self.recv(deadline) {
            if matches!(m, Message::GameEnd { .. }) {
                return;
            }
        }
    }

    /// The GAMEEND reason of `result` from the match's side, the initiator, which plays the
    /// follower's opponent: `3` (I win) when the follower lost, `1` (I lose) when it won, `2`
    /// for a draw.
    pub fn reason_for(&self, result: GameResult) -> u8 {
        let initiator_won = match result {
            GameResult::Draw => return 2,
            GameResult::WhiteWin => self.follower == Color::Black,
            GameResult::BlackWin => self.follower == Color::White,
        };
        if initiator_won {
            3
        } else {
            1
        }
    }

    /// The game is over after `hub_moves` with `result`, for `why`: sends the moves the
    /// follower has not seen and a GAMEEND with the result's reason ([`Self::reason_for`]), or
    /// that answer to the follower's own GAMEEND. When the rules ended the game on the
    /// follower's turn, it is first given 2 s to send its GAMEEND (a DXP player ends the game
    /// on its own turn); an adjudicated game (`--max-plies`, the other engine's forfeit) is
    /// ended at once.
    pub fn game_over(&mut self, hub_moves: &[String], result: GameResult, why: Reason) {
        if !self.in_game || !self.alive {
            return;
        }
        let reason = self.reason_for(result);
        if self.peer_ended.is_none() {
            if hub_moves.len() > self.known {
                for hub in &hub_moves[self.known..] {
                    let Some(m) = dxp::move_message(hub, 0) else {
                        break;
                    };
                    if self.send(&m).is_err() {
                        return;
                    }
                }
                self.known = hub_moves.len();
                self.peer_to_move = true;
            }
            let by_rules = matches!(
                why,
                Reason::NoLegalMove
                    | Reason::NoMoveLeft
                    | Reason::FirstKing
                    | Reason::Repetition
                    | Reason::NoProgress
                    | Reason::EndgameRule
            );
            if self.peer_to_move && by_rules {
                let deadline = Instant::now() + Duration::from_secs(2);
                loop {
                    match self.recv(deadline) {
                        Ok(Message::GameEnd { reason, .. }) => {
                            self.peer_ended = Some(reason);
                            break;
                        }
                        Ok(Message::Move { .. }) => {
                            // It played on: now it waits for us.
                            self.peer_to_move = false;
                            break;
                        }
                        Ok(_) => {}
                        Err(_) => break,
                    }
                }
            }
        }
        self.end_game(reason, 0);
    }

    /// Prepares for a new game (ends the previous one if it is still in progress).
    ///
    /// # Errors
    /// None in practice; the signature matches the process engines'.
    pub fn new_game(&mut self) -> Result<(), Failure> {
        self.end_game(0, 0);
        Ok(())
    }

    /// Asks for a move ([`MoveRequest`]; the Hub start position is not used: GAMEREQ sends
    /// the position itself). The answer is in Hub form (`from x to x captured...`).
    ///
    /// # Errors
    /// A [`Failure`]: the connection closed, the game was refused, a timeout, an abort, or
    /// [`Failure::GameEnd`]: the engine ended the game with GAMEEND instead of moving (it is
    /// answered by [`Self::game_over`] with the match's result).
    pub fn go(&mut self, request: MoveRequest<'_>) -> Result<(String, Duration), Failure> {
        let MoveRequest {
            start_fen,
            moves,
            hub_moves,
            limits,
            deadline_after,
            ..
        } = request;
        if !self.in_game {
            // The position now, with the engine playing the side to move.
            let mut e = Engine::new(Variant::International, 1);
            let refs: Vec<&str> = moves.iter().map(String::as_str).collect();
            e.set_position(start_fen, &refs)
                .map_err(|err| Failure::Crash(format!("position for GAMEREQ: {err}")))?;
            let (side, squares) = dxp::squares_of(&e);
            let (minutes, per) = gamereq_clock(limits);
            let name = "damiera match".to_string();
            self.send(&Message::GameReq {
                version: 1,
                name,
                follower: side,
                minutes,
                moves: per,
                position: Some((side, squares)),
            })?;
            let deadline = Instant::now() + HANDSHAKE_TIMEOUT;
            loop {
                match self.recv(deadline)? {
                    Message::GameAcc { code: 0, .. } => break,
                    Message::GameAcc { name, code } => {
                        return Err(Failure::Crash(format!(
                            "{name} refused the game (GAMEACC code {code})"
                        )))
                    }
                    other => log::warn!("{}: before GAMEACC: {}", self.spec.name, other.text()),
                }
            }
            self.in_game = true;
            self.known = moves.len();
            self.req_ply = moves.len();
            self.follower = side;
            self.req_moves = per;
            self.peer_ended = None;
        }
        let sent = Instant::now();
        for hub in hub_moves.iter().skip(self.known) {
            let m = dxp::move_message(hub, 0)
                .ok_or_else(|| Failure::Crash(format!("cannot write move {hub} in DXP")))?;
            self.send(&m)?;
        }
        self.known = moves.len();
        self.peer_to_move = true;
        let deadline = sent + deadline_after;
        loop {
            match self.recv(deadline) {
                Ok(Message::Move {
                    from, to, captured, ..
                }) => {
                    self.known += 1;
                    self.peer_to_move = false;
                    return Ok((dxp::hub_form(from, to, &captured), sent.elapsed()));
                }
                Ok(Message::GameEnd { reason, .. }) => {
                    // An orderly end (Moby Dam and Scan end the game at the GAMEREQ's move
                    // count): the match adjudicates it; `game_over` answers.
                    self.peer_ended = Some(reason);
                    let made = (moves.len() - self.req_ply) / 2;
                    let at_count = self.req_moves > 0 && made >= self.req_moves as usize;
                    let note = format!(
                        "DXP GAMEEND reason {reason} ({}) after {made} of its moves (GAMEREQ: {}){}",
                        reason_text(reason),
                        if self.req_moves == 0 {
                            "no move limit".to_string()
                        } else {
                            format!("{} moves", self.req_moves)
                        },
                        if at_count {
                            ", at the GAMEREQ's move count"
                        } else {
                            ""
                        }
                    );
                    return Err(Failure::GameEnd { reason, note });
                }
                Ok(Message::BackReq { .. }) => self.send(&Message::BackAcc { code: 1 })?,
                Ok(other) => log::warn!("{}: ignored {}", self.spec.name, other.text()),
                Err(Failure::Timeout(_)) => {
                    self.kill();
                    return Err(Failure::Timeout(deadline_after));
                }
                Err(e) => return Err(e),
            }
        }
    }

    /// Closes the connection.
    pub fn kill(&mut self) {
        self.alive = false;
        self.in_game = false;
        let _ = self.stream.shutdown(std::net::Shutdown::Both);
    }

    /// Ends a game in progress (stop code 1) and closes the connection.
    pub fn quit(&mut self) {
        self.end_game(0, 1);
        self.kill();
    }
}

/// The GAMEREQ's move count when the plies left in the match are unknown.
const DEFAULT_GAMEREQ_MOVES: u32 = 100;

/// The GAMEREQ clock for the match's limits: (minutes per player, the game's length in moves a
/// side). Moby Dam and Scan end the game at the move count (docs/dxp.md), so it is never
/// smaller than the moves the follower can still make before the match's `--max-plies`
/// adjudication: half the plies left, rounded up (at most 999, the field's width). DXP carries
/// whole minutes only:
/// - `--tc BASE+INC`: the larger clock rounded down to whole minutes (at least 1) for the whole
///   game (move count 0, no limit); the increment cannot be said, the match's clock applies it;
/// - `--movetime MS`: MS times the move count, rounded up to minutes (about MS a move, more
///   when rounded up);
/// - `--depth` alone: 1 s times the move count, rounded up to minutes.
///
/// Start a damiera follower with `--movetime` for a fixed time per move.
pub fn gamereq_clock(limits: &GoLimits) -> (u32, u32) {
    let minutes = |ms: u64| (ms.div_ceil(60_000)).clamp(1, 999) as u32;
    let moves = limits.plies_left.map_or(DEFAULT_GAMEREQ_MOVES, |p| {
        p.div_ceil(2).clamp(1, 999) as u32
    });
    match (limits.clock, limits.movetime) {
        (Some((w, b, _)), _) => ((w.max(b) / 60_000).clamp(1, 999) as u32, 0),
        (None, Some(ms)) => (minutes(ms.saturating_mul(u64::from(moves))), moves),
        (None, None) => (minutes(1000 * u64::from(moves)), moves),
    }
}
