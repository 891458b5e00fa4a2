//! The subcommands' arguments and printing, one file per subcommand; the work itself is done
//! by the library (`damiera::tools`, `damiera::engine`). What they share (the one-line
//! usage errors, variant names, the `--hash` range, `--eval-file`) is in `shared.rs`.

pub mod analyse;
pub mod analyse_pdn;
pub mod bench;
pub mod book;
pub mod dxp;
pub mod egdb;
pub mod r#match;
pub mod openings;
pub mod perft;
pub mod selfplay;
pub mod serve;
pub mod train;

mod shared;

pub use shared::hash_mib;
