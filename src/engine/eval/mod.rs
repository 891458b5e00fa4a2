//! Static evaluation, in centi-men from the side to move's point of view.
//!
//! [`Evaluate`] is a variant's evaluation side: its static evaluation and its [`Planes`] (the
//! square sets the learned evaluation and the training data share). Every [`Rules`](crate::Rules)
//! variant
//! implements it here, Italian Damone in [`damone`]. The search asks for `G: Evaluate`.
//!
//! The evaluation is the [`network`] (NNUE-style, `DMNN`), trained from self-play games by
//! `damiera-train network` (the trainer crate, docs/training.md): every variant plays with it.
//! Besides it:
//! - [`learned`]: pattern weights (`DMEV`, the evaluation before the networks) and a few
//!   draughts terms, fitted by `damiera-train patterns`; a [`Net`] holds either these or a
//!   network. Each variant's
//!   weights are a file in `data/weights/`, embedded at build time and replaceable at run time
//!   ([`weights`]: the `EvalFile` option, an option of the [`crate::engine::Engine`], which
//!   hands the weights to its search).
//! - [`hand`]: the hand-set evaluation the project started with (Damone's in [`damone`]): what
//!   the first self-play games of a new evaluation are played with (`EvalFile hand`).
//!
//! [`header`] is the magic, version and variant header of the binary formats.
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

pub use evaluate::{
    dispatch, drawish_planes, evaluate10, probe_position, DbProbe, Evaluate, EvaluateFn,
};
pub use learned::Net;
pub use planes::{dense, dense10, dense_of, padded, padded10, padded_of, planes, unpack, Planes};
pub use weights::{built_in, read_weights, variant_index, Evaluation, HAND_SET};
