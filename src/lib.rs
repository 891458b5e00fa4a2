//! damiera: a draughts (checkers) engine.
//!
//! Exact bitboard move generation, perft, search and protocols for six variants: English
//! (American checkers), Italian, Brazilian, Russian, Italian Damone and International (10x10)
//! draughts. Six layers, each using only the ones below it (docs/architecture.md):
//!
//! - [`core`]: the game itself: bitboards and geometry, the rules of each variant as data,
//!   positions, move generation, notation, perft, and the runtime choice of variant.
//! - [`egdb`]: endgame databases: retrograde builder, table files, the probe handle.
//! - [`book`]: opening books in the open DMBK format (docs/book.md): keys, files, probes;
//!   beside `egdb`, over `core` only.
//! - [`engine`]: evaluation, search, transposition table, and the [`engine::Engine`] façade.
//! - [`protocol`]: the text front ends (the native UCI-style loop, Hub, DXP) over the façade.
//! - `tools`: what a shell user runs beside the engine: PDN files, a game's analysis,
//!   matches, self-play and training (cargo feature `tools`).
//! - `web`: `damiera serve`, the board in the browser (docs/serve.md; feature `web`).
//!
//! Without default features the library is the engine alone: `core`, `egdb`, `book`,
//! `engine` and `protocol`.

#![deny(missing_docs)]
#![warn(clippy::absolute_paths)]

pub mod book;
pub mod core;
pub mod egdb;
pub mod engine;
pub mod protocol;
#[cfg(feature = "tools")]
pub mod tools;
#[cfg(feature = "web")]
pub mod web;

pub use self::core::bitboard::{Bitboard, Square};
pub use self::core::draughts::{Draughts, DrawRules, Notation};
pub use self::core::movegen::Duplicates;
pub use self::core::moves::{Move, MoveList};
pub use self::core::play::Play;
pub use self::core::position::Position;
pub use self::core::rules::{
    Antidraughts, Brazilian, Breakthrough, Color, English, Frisian, Frysk, International, Italian,
    Rules, Russian,
};
pub use self::core::variant::Variant;
