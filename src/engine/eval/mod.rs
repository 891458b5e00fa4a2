//! Static evaluation, in centi-men from the side to move's point of view.
//!
//! [`Evaluate`] is a variant's evaluation side: its static evaluation and its [`Planes`] (the
//! square sets the learned evaluation and the training data share). Every [`Rules`] variant
//! implements it here, Italian Damone in [`damone`]. The search asks for `G: Evaluate`.
//!
//! Two evaluations live here:
//! - [`learned`]: pattern weights and a few draughts terms, all fitted to self-play games by
//!   `damiera train` (docs/training.md). Each variant's weights are a file in
//!   `data/weights/`, embedded at build time and replaceable at run time ([`weights`]: the
//!   `EvalFile` option, an option of the [`crate::engine::Engine`], which hands the weights to
//!   its search).
//! - [`hand`]: the hand-set evaluation the project started with (Damone's in [`damone`]): what
//!   a variant plays with until it has learned weights, and what the first self-play games are
//!   played with.
//!
//! [`finish`] adds a hand-written term to the learned score of English king endings with
//! unequal material (the side ahead closes in and exchanges), which a search without databases
//! does not see through to the conversion.
//!
//! The evaluation owns its weights: the rules know nothing of it.

pub mod damone;
mod evaluate;
pub mod finish;
pub mod hand;
pub mod header;
pub mod learned;
pub mod network;
mod planes;
pub mod weights;

pub(crate) use evaluate::drawish_planes;
#[cfg(test)]
pub(crate) use evaluate::evaluate10;
pub use evaluate::{dispatch, probe_position, DbProbe, Evaluate, EvaluateFn};
pub use learned::Net;
pub use planes::{dense, dense10, dense_of, padded, padded10, padded_of, planes, unpack, Planes};
pub use weights::{built_in, read_weights, variant_index, Evaluation, HAND_SET};
