//! Notation at the I/O boundary: square names, PDN FEN, and moves in each variant's notation.
//!
//! - [`squares`]: square names of the [`crate::core::rules::Rules`] variants (numbers or
//!   algebraic).
//! - [`fen`]: PDN FEN of the rules variants, and the cutting of any FEN into its fields.
//! - [`moves`]: move names, move parsing and diagrams, written once for every game over
//!   [`crate::core::play::Play`] (Damone's squares and FEN are in
//!   [`crate::core::damone::notation`]).
//!
//! Notation depends on positions and move generation, never the reverse.

pub mod fen;
pub mod moves;
pub mod squares;

pub use fen::{fen, fen_counters, parse_fen, parse_fen_in, FenCounters, FenError};
pub use moves::{
    capture_paths, diagram, move_name, move_name_hub, move_name_nth, move_name_pdn, parse_move,
    MoveError,
};
pub use squares::{
    file_rank, from_file_rank, parse_square, square_from_number, square_name, square_number,
    SquareError,
};
