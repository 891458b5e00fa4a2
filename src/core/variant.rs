//! `Variant`: the variant chosen at the edge (CLI, protocols), as a plain value with its names.
//!
//! A leaf: it knows nothing of the rules. The one `match` from a value to the variant's type
//! (the rules, or Damone's position and walker) lives above them, in
//! [`crate::core::dispatch`].

use std::fmt;
use std::str::FromStr;

/// A supported variant.
#[derive(Copy, Clone, PartialEq, Eq, Debug, Hash)]
pub enum Variant {
    /// English draughts / American checkers ([`crate::core::rules::English`]).
    English,
    /// Italian draughts ([`crate::core::rules::Italian`]).
    Italian,
    /// Brazilian draughts ([`crate::core::rules::Brazilian`]).
    Brazilian,
    /// Russian draughts ([`crate::core::rules::Russian`]).
    Russian,
    /// Italian Damone ([`crate::core::damone::Damone`]): three ranks of pieces on the Italian
    /// board.
    Damone,
    /// International draughts ([`crate::core::rules::International`]): FMJD rules on 10x10.
    International,
    /// Antidraughts ([`crate::core::rules::Antidraughts`]): International moves, the side that
    /// cannot move wins (lidraughts).
    Antidraughts,
    /// Breakthrough ([`crate::core::rules::Breakthrough`]): International moves, the first
    /// king wins (lidraughts; Scan's `bt`).
    Breakthrough,
    /// Frisian draughts ([`crate::core::rules::Frisian`]): 10x10, captures along diagonals,
    /// files and ranks, the capture of the highest value (the Frisian federation's rules).
    Frisian,
    /// Frysk! ([`crate::core::rules::Frysk`]): Frisian rules from five men a side.
    Frysk,
}

impl Variant {
    /// Every variant, in the order the CLI and protocols list them.
    pub const ALL: [Variant; 10] = [
        Variant::English,
        Variant::Italian,
        Variant::Brazilian,
        Variant::Russian,
        Variant::Damone,
        Variant::International,
        Variant::Antidraughts,
        Variant::Breakthrough,
        Variant::Frisian,
        Variant::Frysk,
    ];

    /// The canonical name (`english`, `italian`, `brazilian`, `russian`, `damone`,
    /// `international`, `antidraughts`, `breakthrough`, `frisian`, `frysk`): the `NAME` of the variant's rules ([`crate::core::rules::Rules::NAME`],
    /// checked by a test).
    pub const fn name(self) -> &'static str {
        match self {
            Variant::English => "english",
            Variant::Italian => "italian",
            Variant::Brazilian => "brazilian",
            Variant::Russian => "russian",
            Variant::Damone => "damone",
            Variant::International => "international",
            Variant::Antidraughts => "antidraughts",
            Variant::Breakthrough => "breakthrough",
            Variant::Frisian => "frisian",
            Variant::Frysk => "frysk",
        }
    }
}

/// An unknown variant name.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnknownVariant(pub String);

impl fmt::Display for UnknownVariant {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "unknown variant '{}' (expected english, american, checkers, italian, brazilian, russian, damone, italian-damone, international, standard, normal, antidraughts, losing, breakthrough, bt, frisian or frysk)", self.0)
    }
}

impl std::error::Error for UnknownVariant {}

impl FromStr for Variant {
    type Err = UnknownVariant;
    /// Parses `english` (aliases `american`, `checkers`), `italian`, `brazilian`, `russian`,
    /// `damone` (alias `italian-damone`), `international` (aliases `standard`, `normal`,
    /// `10x10`), `antidraughts` (alias `losing`, Scan's Hub name), `breakthrough` (alias `bt`,
    /// Scan's), `frisian`, `frysk` (alias `frysk!`, lidraughts' and pydraughts' name),
    /// ignoring case.
    fn from_str(s: &str) -> Result<Variant, UnknownVariant> {
        match s.trim().to_ascii_lowercase().as_str() {
            "english" | "american" | "checkers" => Ok(Variant::English),
            "italian" => Ok(Variant::Italian),
            "brazilian" => Ok(Variant::Brazilian),
            "russian" => Ok(Variant::Russian),
            "damone" | "italian-damone" => Ok(Variant::Damone),
            // `normal` is Scan's Hub name, `standard` lidraughts' and pydraughts'.
            "international" | "standard" | "normal" | "10x10" => Ok(Variant::International),
            // `losing` and `bt` are Scan's Hub names (lidraughts-bot maps to them).
            "antidraughts" | "losing" => Ok(Variant::Antidraughts),
            "breakthrough" | "bt" => Ok(Variant::Breakthrough),
            "frisian" => Ok(Variant::Frisian),
            "frysk" | "frysk!" => Ok(Variant::Frysk),
            _ => Err(UnknownVariant(s.trim().to_string())),
        }
    }
}

impl fmt::Display for Variant {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}
