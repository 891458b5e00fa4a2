//! Notation at the I/O boundary: square names, PDN FEN, and moves in each variant's notation.
//!
//! - [`fen`](mod@fen): PDN FEN of the rules variants, and the cutting of any FEN into its fields.
//! - [`moves`]: move names, move parsing and diagrams, written once for every game over
//!   [`crate::core::play::Play`] (Damone's squares and FEN are in
//!   [`crate::core::damone::notation`]).
//!
//! Notation depends on positions, move generation and [`crate::core::play`], never the reverse;
//! square names ([`crate::core::squares`], numbers or algebraic) sit below `play`, which names
//! squares too, and are re-exported here.

pub mod fen;
pub mod moves;

pub use crate::core::squares::{
    file_rank, from_file_rank, parse_square, square_from_number, square_name, square_number,
    SquareError,
};
pub use fen::{fen, fen_counters, parse_fen, parse_fen_in, FenCounters, FenError};
pub use moves::{
    capture_paths, diagram, move_name, move_name_hub, move_name_nth, move_name_pdn, parse_move,
    MoveError,
};
