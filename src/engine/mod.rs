//! The engine façade between the protocol front ends and the search (after Stockfish's
//! `Engine`): it keeps the game (position and history), runs one search at a time on its own
//! thread, and reports through a callback. It knows nothing of protocol text: front ends turn
//! commands into calls and [`Event`]s into lines.
//!
//! The façade owns the engine's options, the evaluation's weights among them (`EvalFile`,
//! [`Engine::set_eval_file`]): each variant's [`eval::Evaluation`] is kept here and its
//! weights are handed to the search at every `go`; nothing process-wide is changed.
//!
//! Its files: `facade` (the public [`Engine`]), `request` (a `go`'s [`GoRequest`]), `events`
//! (what a search or perft reports, [`Event`], [`PerftEvent`], and the [`MoveForm`] of its
//! moves), `variant_engine` (one variant's game and searcher behind an object-safe trait),
//! `runner` (the thread searches run on), `blocking` (a search that waits for its move, for
//! the shell tools), `egdb_dir` (finding and opening the endgame databases) and `options` (the
//! options' defaults and ranges).
//!
//! Below the façade: [`eval`] (static evaluation), [`search`] (iterative deepening, PVS,
//! quiescence, Lazy SMP, time management) and [`tt`] (the transposition table).

pub mod eval;
pub mod search;
pub mod tt;

mod blocking;
mod book_play;
mod egdb_dir;
mod events;
mod facade;
mod options;
mod request;
mod runner;
mod variant_engine;

pub use self::blocking::CANCEL_POLL_MS;
pub use self::book_play::{
    choose_book_move, BookMode, DEFAULT_BOOK_PLY, GOOD_MARGIN_CM, MAX_BOOK_PLY, RANDOM_MARGIN_CM,
};
pub use self::egdb_dir::open_egdb;
pub use self::events::{Event, MoveForm, PerftEvent, PerftSink, Sink};
pub use self::facade::Engine;
pub use self::options::{
    DEFAULT_CONTEMPT_CM, DEFAULT_HASH_MIB, DEFAULT_MOVE_OVERHEAD_MS, MAX_CONTEMPT_CM,
    MAX_EGDB_PIECES, MAX_HASH_MIB,
};
pub use self::request::GoRequest;
pub use crate::core::variant_position::Outcome;
pub use crate::engine::search::{Depth, Level, Score, MAX_LEVEL};
