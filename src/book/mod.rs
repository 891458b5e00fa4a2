//! Opening books in the open DMBK format (docs/book.md): a position's key any program can
//! compute, fixed-size entries sorted by key, and the probe that turns a book's entries into
//! legal moves of a position.
//!
//! A layer over [`crate::core`] only, beside [`crate::egdb`]: it needs positions, their legal
//! moves and their square numbers, nothing of the search, so the engine (which plays from
//! a book) and the shell tools (which build and print books) can both use it, and it builds
//! without default features. Parts:
//!
//! - [`key`]: the book key (SplitMix64 table, square numbers, [`book_key`]);
//! - [`entry`]: an entry ([`Entry`]) and its 32-byte record, the move as squares
//!   ([`BookMove`]);
//! - [`file`](mod@file): the header, [`write`](fn@write) (sorted, atomic) and [`read`] with
//!   one-line errors;
//! - [`probe`]: [`Book`], the entries in memory: probe a position, describe the book.
//!
//! Everything lives in the parts; this module only declares and re-exports.

pub mod entry;
pub mod file;
pub mod key;
pub mod probe;

pub use self::entry::{BookMove, Entry, RECORD_SIZE};
pub use self::file::{read, write, BookError, HEADER_SIZE, MAGIC, VERSION};
pub use self::key::{book_key, book_number, square_numbers, KEY_SEED};
pub use self::probe::{Book, BookInfo, ProbedMove};
