//! The DXP initiator (`damiera dxp --connect HOST:PORT`): one game, asked for with a GAMEREQ,
//! then played by a session as the follower's are.

use super::io::Input;
use super::message::Message;
use super::position::{squares_of, START_FEN};
use super::session::{session, Options, Report};
use crate::core::rules::Color;
use std::io::Write;
use std::net::TcpStream;
use std::sync::mpsc::RecvTimeoutError;
use std::time::{Duration, Instant};

/// A game request from the initiator's side.
#[derive(Clone, Debug)]
pub struct GameRequest {
    /// damiera's color (the follower gets the other).
    pub color: Color,
    /// Thinking time per player, in minutes.
    pub minutes: u32,
    /// The game's length in moves a side (0: no limit).
    pub moves: u32,
    /// A start position (FEN); `None`: the normal start.
    pub fen: Option<String>,
}

/// Plays one game as the initiator on `stream`: sends the GAMEREQ, waits for the GAMEACC,
/// plays, and ends with GAMEEND. Errors: refused or unanswered request, bad FEN.
pub fn initiate(
    stream: TcpStream,
    opts: &Options,
    req: &GameRequest,
    log: &mut dyn Write,
) -> Result<Report, String> {
    let mut s = session(stream, opts, true, log)?;
    let fen = req.fen.clone().unwrap_or_else(|| START_FEN.to_string());
    // The game is set up before the request (the FEN checked, the squares derived); the
    // messages before the GAMEACC are handled below, so nothing plays until it comes.
    s.new_game(fen, req.color, req.minutes, req.moves, None)?;
    let position = req.fen.as_ref().map(|_| squares_of(&s.engine));
    let name = opts.name.clone();
    s.send(&Message::GameReq {
        version: 1,
        name,
        follower: req.color.opponent(),
        minutes: req.minutes,
        moves: req.moves,
        position,
    });
    let deadline = Instant::now() + Duration::from_millis(opts.answer_timeout_ms.max(1));
    loop {
        let left = deadline.saturating_duration_since(Instant::now());
        match s.rx.recv_timeout(left) {
            Ok(Input::Peer(Ok(Message::GameAcc { name, code: 0 }))) => {
                s.say(&format!("game accepted by {name}"));
                if let Some(g) = s.game.as_mut() {
                    g.turn_started = Instant::now();
                }
                break;
            }
            Ok(Input::Peer(Ok(Message::GameAcc { name, code }))) => {
                return Err(format!("{name} refused the game (GAMEACC code {code})"));
            }
            Ok(Input::Peer(Ok(Message::Chat(t)))) => s.say(&format!("chat: {t}")),
            Ok(Input::Peer(Ok(m))) => log::warn!("dxp: before GAMEACC, ignored: {}", m.text()),
            Ok(Input::Peer(Err(e))) => log::warn!("dxp: malformed message before GAMEACC: {e}"),
            Ok(Input::Best(_)) => {}
            Ok(Input::Closed) | Err(RecvTimeoutError::Disconnected) => {
                return Err("the connection was closed before a GAMEACC".into())
            }
            Err(RecvTimeoutError::Timeout) => return Err("no GAMEACC in time".into()),
        }
    }
    s.our_turn();
    s.run();
    Ok(s.close())
}
