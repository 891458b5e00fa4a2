//! [`Player`], an engine of the match whatever it speaks: a child process
//! ([`EngineProcess`]) or a DXP follower ([`DxpEngine`]). The games (`mod.rs`) talk to a
//! `Player`; it sits above both kinds, which do not depend on each other.

use super::dxp_engine::DxpEngine;
use super::engine_spec::{EngineSpec, Failure, MoveRequest, Protocol};
use super::process::EngineProcess;
use super::{GameResult, Reason};
use crate::core::variant::Variant;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::Duration;

/// An engine of the match: a process speaking the native protocol or Hub, or a DXP follower.
pub enum Player {
    /// A process on stdin/stdout.
    Process(EngineProcess),
    /// A DXP follower over TCP.
    Dxp(DxpEngine),
}

impl Player {
    /// Starts the process, or connects to the DXP follower.
    ///
    /// # Errors
    /// As [`EngineProcess::start`] and [`DxpEngine::connect`].
    pub fn start(
        spec: &EngineSpec,
        variant: Variant,
        abort: Arc<AtomicBool>,
    ) -> Result<Player, String> {
        Ok(match spec.protocol {
            Protocol::Dxp => Player::Dxp(DxpEngine::connect(spec, variant, abort)?),
            _ => Player::Process(EngineProcess::start(spec, variant, abort)?),
        })
    }

    /// Whether it can still play.
    pub fn alive(&self) -> bool {
        match self {
            Player::Process(p) => p.alive(),
            Player::Dxp(d) => d.alive(),
        }
    }

    /// Prepares for a new game.
    ///
    /// # Errors
    /// As [`EngineProcess::new_game`].
    pub fn new_game(&mut self) -> Result<(), Failure> {
        match self {
            Player::Process(p) => p.new_game(),
            Player::Dxp(d) => d.new_game(),
        }
    }

    /// Asks for a move; see [`EngineProcess::go`].
    ///
    /// # Errors
    /// A [`Failure`].
    pub fn go(&mut self, request: MoveRequest<'_>) -> Result<(String, Duration), Failure> {
        match self {
            Player::Process(p) => p.go(request),
            Player::Dxp(d) => d.go(request),
        }
    }

    /// The score the engine gave with its last move, centi-men from its own view
    /// ([`EngineProcess::last_score`]); `None` without one, and always for a DXP follower
    /// (DXP carries no scores).
    pub fn last_score(&self) -> Option<i32> {
        match self {
            Player::Process(p) => p.last_score(),
            Player::Dxp(_) => None,
        }
    }

    /// Whether the engine's last move came from its book
    /// ([`EngineProcess::last_from_book`]); always `false` for a DXP follower.
    pub fn last_from_book(&self) -> bool {
        match self {
            Player::Process(p) => p.last_from_book(),
            Player::Dxp(_) => false,
        }
    }

    /// The game is over after `hub_moves` with `result` for `reason` (DXP: tell the follower,
    /// with the GAMEEND reason of that result).
    pub fn game_over(&mut self, hub_moves: &[String], result: GameResult, reason: Reason) {
        if let Player::Dxp(d) = self {
            d.game_over(hub_moves, result, reason);
        }
    }

    /// Kills the process or closes the connection.
    pub fn kill(&mut self) {
        match self {
            Player::Process(p) => p.kill(),
            Player::Dxp(d) => d.kill(),
        }
    }

    /// Asks the engine to quit (ends a DXP game in progress first).
    pub fn quit(&mut self) {
        match self {
            Player::Process(p) => p.quit(),
            Player::Dxp(d) => d.quit(),
        }
    }
}
