//! Learning the evaluation from self-play (docs/training.md): [`selfplay`] plays and records
//! positions in the [`data`] format, [`train`] fits [`crate::engine::eval::learned`] weights to them.

pub mod data;
pub mod selfplay;
pub mod train;
