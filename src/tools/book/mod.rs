//! Building opening books (docs/book.md, "Building"): drop-out expansion over a DAG of
//! positions ([`dag`], generic over the game so a synthetic tree tests it), and the build over
//! a variant's positions valued by damiera's search, resumable from its book file ([`build`](mod@build)).
//! The format, keys and probe are [`crate::book`]'s.

pub mod build;
pub mod dag;

pub use self::build::{
    book_value, build, build_with, leaf_value, line_entries, BuildSettings, ExternalValuer,
    GameTree, LeafLimit, Root, SAVE_EVERY,
};
pub use self::dag::{Dag, Tree, Valued};
