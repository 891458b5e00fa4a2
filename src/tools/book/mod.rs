//! Building opening books (docs/book.md, "Building"): drop-out expansion over a DAG of
//! positions ([`dag`], generic over the game so a synthetic tree tests it), and the build over
//! a variant's positions valued by damiera's search, resumable from its book file ([`build`](mod@build)).
//! Also a book's tree written as PDN ([`export`](mod@export)), a book made from game
//! collections ([`import`](mod@import)) and the union of books ([`merge`](mod@merge)).
//! The format, keys and probe are [`crate::book`]'s.

pub mod build;
pub mod dag;
pub mod export;
pub mod import;
pub mod merge;

pub use self::build::{
    book_value, build, build_with, leaf_value, line_entries, BuildSettings, ExternalValuer,
    GameTree, LeafLimit, Root, SAVE_EVERY,
};
pub use self::dag::{Dag, Tree, Valued};
pub use self::export::{export_pdn, ExportError, ExportSettings, Exported};
pub use self::import::{Import, ImportSummary, Tally};
pub use self::merge::{merge, MergeError};
