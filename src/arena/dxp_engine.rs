//! An engine of a match reached over DXP (docs/dxp.md): `--engine HOST:PORT
//! --engine-protocol dxp`. The match is the initiator, the engine a DXP follower already
//! listening there (Kingsrow International, Scan's `dxp` mode, `damiera dxp --listen`).
//!
//! DXP games are stateful where the match's requests are not: the first request of a game
//! sends a GAMEREQ with the position at that moment (after the opening) and the engine playing
//! the side to move; later requests send the opponent's moves as MOVE messages and wait for the
//! engine's MOVE. [`DxpEngine::new_game`] and [`DxpEngine::quit`] end a game in progress with
//! GAMEEND (reason 0, "no reason", which the specification always allows).

use super::process::{EngineSpec, Failure, GoLimits, HANDSHAKE_TIMEOUT};
use crate::engine::Engine;
use crate::protocol::dxp::{self, Message};
use crate::variant::Variant;
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
    abort: Arc<AtomicBool>,
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

    /// Ends a game in progress: GAMEEND with `stop`, then waits up to 10 s for the answer.
    fn end_game(&mut self, stop: u8) {
        if !self.in_game || !self.alive {
            self.in_game = false;
            return;
        }
        self.in_game = false;
        if self.send(&Message::GameEnd { reason: 0, stop }).is_err() {
            return;
        }
        let deadline = Instant::now() + Duration::from_secs(10);
        while let Ok(m) = self.recv(deadline) {
            if matches!(m, Message::GameEnd { .. }) {
                return;
            }
        }
    }

    /// The game is over by the match's rules after `hub_moves`: sends the moves the engine has
    /// not seen; if it is then the engine's turn, waits up to 2 s for its GAMEEND (a DXP
    /// player ends the game on its own turn) and answers it, else ends the game itself.
    pub fn game_over(&mut self, hub_moves: &[String]) {
        if !self.in_game || !self.alive {
            return;
        }
        for hub in hub_moves.iter().skip(self.known) {
            let Some(m) = dxp::move_message(hub, 0) else {
                break;
            };
            if self.send(&m).is_err() {
                return;
            }
        }
        self.known = hub_moves.len();
        if (hub_moves.len() - self.req_ply).is_multiple_of(2) {
            let deadline = Instant::now() + Duration::from_secs(2);
            while let Ok(m) = self.recv(deadline) {
                if matches!(m, Message::GameEnd { .. }) {
                    self.in_game = false;
                    let _ = self.send(&Message::GameEnd { reason: 0, stop: 0 });
                    return;
                }
            }
        }
        self.end_game(0);
    }

    /// Prepares for a new game (ends the previous one).
    ///
    /// # Errors
    /// None in practice; the signature matches the process engines'.
    pub fn new_game(&mut self) -> Result<(), Failure> {
        self.end_game(0);
        Ok(())
    }

    /// Asks for a move; see [`super::process::EngineProcess::go`] for the arguments. The
    /// answer is in Hub form (`from x to x captured...`).
    ///
    /// # Errors
    /// A [`Failure`]: the connection closed, the game was refused, the engine ended the game
    /// with GAMEEND instead of moving, a timeout, or an abort.
    pub fn go(
        &mut self,
        start_fen: Option<&str>,
        moves: &[String],
        hub_moves: &[String],
        limits: &GoLimits,
        deadline_after: Duration,
    ) -> Result<(String, Duration), Failure> {
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
        }
        let sent = Instant::now();
        for hub in hub_moves.iter().skip(self.known) {
            let m = dxp::move_message(hub, 0)
                .ok_or_else(|| Failure::Crash(format!("cannot write move {hub} in DXP")))?;
            self.send(&m)?;
        }
        self.known = moves.len();
        let deadline = sent + deadline_after;
        loop {
            match self.recv(deadline) {
                Ok(Message::Move {
                    from, to, captured, ..
                }) => {
                    self.known += 1;
                    return Ok((dxp::hub_form(from, to, &captured), sent.elapsed()));
                }
                Ok(Message::GameEnd { reason, .. }) => {
                    self.in_game = false;
                    let _ = self.send(&Message::GameEnd { reason: 0, stop: 0 });
                    return Err(Failure::Crash(format!(
                        "GAMEEND (reason {reason}) instead of a move"
                    )));
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
        self.end_game(1);
        self.kill();
    }
}

/// The GAMEREQ clock for the match's limits: (minutes per player, moves in them). DXP carries
/// whole minutes only. `--tc BASE+INC`: BASE rounded up to minutes for the whole game (the
/// increment cannot be said); `--movetime MS`: MS × 100 rounded up to minutes for 100 moves;
/// `--depth`: 1 minute for 100 moves. Start a damiera follower with `--movetime` for a fixed
/// time per move.
pub fn gamereq_clock(limits: &GoLimits) -> (u32, u32) {
    let minutes = |ms: u64| (ms.div_ceil(60_000)).clamp(1, 999) as u32;
    match (limits.clock, limits.movetime) {
        (Some((w, b, _)), _) => (minutes(w.max(b)), 0),
        (None, Some(ms)) => (minutes(ms.saturating_mul(100)), 100),
        (None, None) => (1, 100),
    }
}
