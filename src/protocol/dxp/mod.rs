//! DXP, the DamExchange Protocol (Frank Mesander), over TCP: International draughts matches
//! between programs. `damiera dxp --listen HOST:PORT` is the follower (it waits for game
//! requests), `damiera dxp --connect HOST:PORT` the initiator (it sends one). docs/dxp.md
//! describes the behaviour, rulings included.
//!
//! Layout, one concern per file, each using only the files above it:
//! - `message.rs`: the wire codec, [`Message`] and its fixed-width fields (the message
//!   formats are listed there);
//! - `position.rs`: DXP positions and moves in damiera's terms (FEN, Hub move names);
//! - `io.rs`: the transport, `\0`-terminated messages on a TCP stream read on a thread;
//! - `game.rs`: one game's clock and move counts, and the slot that keeps one game at a time
//!   across a follower's connections;
//! - `session.rs`: a connection's session, its state and what it does on its own (moves,
//!   verdicts, the end of a game);
//! - `events.rs`: the session's event loop, its answer to each message of the peer, and
//!   [`follow`], the follower;
//! - `initiator.rs`: [`initiate`], one game as the initiator.

mod events;
mod game;
mod initiator;
mod io;
mod message;
mod position;
mod session;

pub use events::follow;
pub use game::{clock_limits, GameSlot, SLOT_WAIT_MS};
pub use initiator::{initiate, GameRequest};
pub use io::{close_gracefully, message_reader, refuse, send_message, CLOSE_WAIT_MS, DEFAULT_PORT};
pub use message::{Message, MAX_MESSAGE};
pub use position::{fen_of, hub_form, move_message, squares_of};
pub use session::{Options, Report, DEFAULT_IDLE_TIMEOUT_MS};
