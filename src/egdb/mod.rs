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
//! - [`file`]: the file format (header, checksum, block offsets, zstd blocks), written
//!   atomically and refused with a one-line error when wrong;
//! - [`build`]: the retrograde builder, one unit (a material and its swap) at a time, each a
//!   pure function of the files it depends on;
//! - [`probe`]: [`Egdb`], the engine's handle, with its bounded cache of decompressed blocks;
//! - [`verify`]: every stored value recomputed from its successors by the move generator.
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

pub use self::probe::{Egdb, ProbeCache};

use crate::core::variant::Variant;
use directories::ProjectDirs;
use std::fmt;
use std::path::PathBuf;

/// A game-theoretic value for the side to move.
#[derive(Copy, Clone, PartialEq, Eq, Debug, Hash)]
pub enum Wld {
    /// The side to move wins.
    Win,
    /// Neither side can force a win.
    Draw,
    /// The side to move loses.
    Loss,
}

impl Wld {
    /// The value for the other side.
    pub const fn opposite(self) -> Wld {
        match self {
            Wld::Win => Wld::Loss,
            Wld::Draw => Wld::Draw,
            Wld::Loss => Wld::Win,
        }
    }

    /// `win`, `draw` or `loss`.
    pub const fn name(self) -> &'static str {
        match self {
            Wld::Win => "win",
            Wld::Draw => "draw",
            Wld::Loss => "loss",
        }
    }
}

/// What a probe returns: the value for the side to move and, for a win or a loss, the plies
/// to the next conversion (capture or promotion) with best play (DTC; 0 for a side that has
/// no move, 1 for a win by a conversion now).
#[derive(Copy, Clone, PartialEq, Eq, Debug, Hash)]
pub struct Probe {
    /// Win, draw or loss for the side to move, without the draw counters.
    pub value: Wld,
    /// Plies to the next conversion for a win or a loss; `None` for a draw.
    pub distance: Option<u16>,
}

/// A stored entry: `distance << 2 | value` with value 0 draw, 1 win, 2 loss (16 bits).
pub type Entry = u16;

/// The entry of a draw.
pub const DRAW: Entry = 0;

/// The entry of a win in `d` plies.
#[inline(always)]
pub const fn win(d: u16) -> Entry {
    (d << 2) | 1
}

/// The entry of a loss in `d` plies.
#[inline(always)]
pub const fn loss(d: u16) -> Entry {
    (d << 2) | 2
}

/// A [`Probe`] as an entry: the inverse of [`decode`].
#[inline(always)]
pub const fn encode(p: Probe) -> Entry {
    match (p.value, p.distance) {
        (Wld::Win, Some(d)) => win(d),
        (Wld::Loss, Some(d)) => loss(d),
        (Wld::Win, None) => win(0),
        (Wld::Loss, None) => loss(0),
        (Wld::Draw, _) => DRAW,
    }
}

/// An entry as a [`Probe`].
#[inline(always)]
pub const fn decode(e: Entry) -> Probe {
    match e & 3 {
        1 => Probe {
            value: Wld::Win,
            distance: Some(e >> 2),
        },
        2 => Probe {
            value: Wld::Loss,
            distance: Some(e >> 2),
        },
        _ => Probe {
            value: Wld::Draw,
            distance: None,
        },
    }
}

/// Why a database could not be built, opened or read: one line naming the file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EgdbError(pub String);

impl fmt::Display for EgdbError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for EgdbError {}

/// The default root of the databases: `egdb` in the user's data directory
/// (`~/.local/share/damiera/egdb` on Linux), or `./egdb` if there is none. A variant's files
/// are in `<root>/<variant>/`.
pub fn default_dir() -> PathBuf {
    ProjectDirs::from("", "", "damiera")
        .map(|d| d.data_dir().join("egdb"))
        .unwrap_or_else(|| PathBuf::from("egdb"))
}

/// Where a variant's tables live under a root directory.
pub fn variant_dir(root: &std::path::Path, variant: Variant) -> PathBuf {
    root.join(variant.name())
}
