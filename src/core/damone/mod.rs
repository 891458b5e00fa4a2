//! Italian Damone: draughts with three ranks of pieces (Pedine < Dama < Damone) on the Italian
//! board (h1 dark). It does not fit "men and kings", so it has its own position type, move
//! generator and notation beside the [`crate::core::rules::Rules`] variants, and plugs into the
//! engine through [`Draughts`](crate::Draughts) (design.md, "Variants").
//!
//! Sources (rules.md §D, with the project's rulings §I 1-5, which win where they speak):
//! Wikipedia "Italian Damone" (intro), pergioco.net/2/damone.html (coordinates),
//! boardgamesoftheworld.com/damone.html, Mats Winther's Zillions notes, and the Dagaz
//! implementation (`DagazProject` `checkers/scripts/italian-damone*.js`) for set-up squares.
//! The rules are documented, each with its source, in `docs/rules.md` ("Italian Damone").
//!
//! Modules: [`rules`] (the rules as constants: ranks, set-up, promotion squares, draw and
//! end-of-game rulings), [`position`] (the `Copy` position with its Zobrist key), [`movegen`]
//! (tiered move generation: the walker and the precedence key), [`notation`] (squares and
//! FEN); `game.rs`, Damone as a [`Draughts`](crate::Draughts). Its evaluation is the engine's (`engine::eval::damone`). What is not its own
//! (move names and parsing, diagrams, perft, the capture list) it shares with the
//! [`crate::core::rules::Rules`] variants through [`Play`](crate::Play).

pub mod movegen;
pub mod notation;
pub mod position;
pub mod rules;

mod game;

pub use game::{is_lost, Damone, DamoneDraughts};
pub use position::Position;
pub use rules::*;
