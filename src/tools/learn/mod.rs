//! Self-play data for training (docs/training.md): [`selfplay`] plays and records positions in
//! the [`data`] format, which the trainer (`trainer/`, `damiera-train network` and
//! `damiera-train patterns`) reads.

pub mod data;
pub mod selfplay;
