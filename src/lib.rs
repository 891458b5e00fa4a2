//! damiera: a draughts (checkers) engine.
//!
//! Exact bitboard move generation, perft, search and protocols for six variants: English
//! (American checkers), Italian, Brazilian, Russian, Italian Damone and International (10x10)
//! draughts. The layers, bottom up: [`bitboard`] and [`geometry`] (padded bitboards, 8x8 and
//! 10x10), [`rules`] (one zero-sized type per variant, every rule a constant), [`position`]
//! (a `Copy` position with copy-make and a Zobrist key), [`movegen`] (tiered move generation),
//! [`notation`] (FEN and moves at the I/O boundary), [`perft`], and [`variant`] (the runtime
//! choice of rules). See `docs/architecture.md`.

#![deny(missing_docs)]

pub mod arena;
pub mod bitboard;
pub mod damone;
pub mod engine;
pub mod eval;
pub mod fuzzing;
pub mod game;
pub mod geometry;
pub mod learn;
pub mod movegen;
pub mod moves;
pub mod notation;
pub mod pdn;
pub mod perft;
pub mod position;
pub mod protocol;
pub mod rules;
pub mod search;
pub mod tt;
pub mod variant;
pub mod zobrist;

pub use bitboard::{Bitboard, Square};
pub use game::Game;
pub use movegen::Duplicates;
pub use moves::{Move, MoveList};
pub use position::Position;
pub use rules::{Brazilian, Color, English, International, Italian, Rules, Russian};
pub use variant::Variant;
