//! The defaults and ranges of the engine's options, shared by every front end.

use crate::egdb::material::MAX_KIND;

/// The default `MoveOverhead`: milliseconds kept back on every timed move for the transport
/// between engine and front end. Measured (docs/protocol.md, "MoveOverhead: what the transport
/// costs"): a best move reaches the front end 0.5 ms after the time asked on average, 3.5 ms
/// at the 99th percentile, with both cores busy (scripts/move-overhead.py). Under a clock the
/// search keeps a further reserve for the scheduler (`time.rs`).
pub const DEFAULT_MOVE_OVERHEAD_MS: u64 = 5;

/// The `Contempt` the protocols (native, Hub, DXP) play with, in centi-men: a draw is worth
/// this much less than level to the engine. Chosen by match (docs/strength.md, "Contempt").
pub const DEFAULT_CONTEMPT_CM: i32 = 15;

/// The largest contempt either way, in centi-men (a man).
pub const MAX_CONTEMPT_CM: i32 = 100;

/// The default transposition-table size in MiB.
pub const DEFAULT_HASH_MIB: usize = 64;

/// The largest transposition table asked for, in MiB (64 GiB); the smallest is 1 MiB. Every
/// front end takes the same range (`Hash`, Hub `hash`, the `--hash` of the shell tools): a
/// size outside it is refused as a usage error, a size inside it that the machine's memory
/// cannot hold is refused by [`Engine::set_hash`](crate::engine::Engine::set_hash).
pub const MAX_HASH_MIB: usize = 65_536;

/// The largest `EgdbPieces` (pieces on the board, both sides): what a material key can hold;
/// also the default, meaning every table found under `EgdbPath`.
pub const MAX_EGDB_PIECES: u32 = MAX_KIND as u32;
