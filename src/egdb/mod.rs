//! Endgame databases: every position with few pieces solved by retrograde analysis, stored in
//! compressed files and probed by the engine (docs/egdb.md).
//!
//! A layer between [`crate::core`] (whose move generator gives every successor, so each
//! variant's capture precedence and promotion rules hold as they do in play) and the engine,
//! which probes through [`Egdb`]. Parts:
//!
//! - [`material`]: the tables (men and kings of the side to move and of the other side), their
//!   names and dependencies, and the colour flip that stores only White-to-move positions;
//! - [`index`]: the dense combinatorial index of a table;
//! - [`file`](mod@file): the file format (header, checksum, block offsets, zstd blocks), written
//!   atomically and refused with a one-line error when wrong;
//! - [`build`]: the retrograde builder, one unit (a material and its swap) at a time, each a
//!   pure function of the files it depends on;
//! - [`probe`]: [`Egdb`], the engine's handle, with its bounded cache of decompressed blocks;
//! - [`verify`]: every stored value recomputed from its successors by the move generator;
//! - [`value`]: a position's value ([`Wld`], [`Probe`]) and its 16-bit stored form ([`Entry`]).
//!
//! Everything lives in the parts; this module only re-exports (so no part depends on it and it
//! on the part: `cargo-cycles` in `.ci/run`).
//!
//! Values ([`Wld`]) are for the side to move and ignore the draw counters; the distance is
//! plies to the next conversion (capture or promotion) for the side that wins, and for the
//! losing side the longest it can delay it (DTC). docs/egdb.md states the rulings.

pub mod build;
pub mod file;
pub mod index;
pub mod material;
pub mod probe;
pub mod verify;

pub mod value;

pub use self::file::{default_dir, table_variant, variant_dir, EgdbError};
pub use self::probe::{Egdb, ProbeCache};
pub use self::value::{decode, encode, loss, win, Entry, Probe, Wld, DRAW};
