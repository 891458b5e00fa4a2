//! The subcommands' arguments and printing, one file per subcommand; the work itself is done
//! by the library (`damiera::tools`, `damiera::engine`).

pub mod analyse;
pub mod analyse_pdn;
pub mod arena;
pub mod bench;
pub mod learn;
