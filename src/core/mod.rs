//! The game: bitboards and board geometry, each variant's rules as data, positions with
//! copy-make, move generation, notation (FEN, squares, moves), perft, and the runtime choice of
//! variant. Nothing here searches, evaluates or does I/O.

pub mod bitboard;
pub mod damone;
pub mod dispatch;
pub mod draughts;
pub mod geometry;
pub mod movegen;
pub mod moves;
pub mod notation;
pub mod perft;
pub mod play;
pub mod position;
pub mod rules;
pub mod squares;
pub mod variant;
pub mod variant_position;
pub mod zobrist;
