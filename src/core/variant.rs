//! `Variant`: the variant chosen at the edge (CLI, protocols), dispatched once into code that is
//! generic over [`Rules`] (as shakmaty's `VariantPosition` does).

use crate::core::damone::Damone;
use crate::core::game::Game;
use crate::core::rules::{Brazilian, English, International, Italian, Russian};
use std::fmt;
use std::str::FromStr;

/// A supported variant.
#[derive(Copy, Clone, PartialEq, Eq, Debug, Hash)]
pub enum Variant {
    /// English draughts / American checkers ([`English`]).
    English,
    /// Italian draughts ([`Italian`]).
    Italian,
    /// Brazilian draughts ([`Brazilian`]).
    Brazilian,
    /// Russian draughts ([`Russian`]).
    Russian,
    /// Italian Damone ([`Damone`]): three ranks of pieces on the Italian board.
    Damone,
    /// International draughts ([`International`]): FMJD rules on 10x10.
    International,
}

impl Variant {
    /// Every variant, in the order the CLI and protocols list them.
    pub const ALL: [Variant; 6] = [
        Variant::English,
        Variant::Italian,
        Variant::Brazilian,
        Variant::Russian,
        Variant::Damone,
        Variant::International,
    ];

    /// Whether the variant is played on an 8x8 board (the learned evaluation's and the
    /// training pipeline's boards; International is 10x10).
    pub fn is_8x8(self) -> bool {
        self != Variant::International
    }

    /// The canonical name (`english`, `italian`, `brazilian`, `russian`, `damone`,
    /// `international`).
    pub fn name(self) -> &'static str {
        struct Name;
        impl VariantFn for Name {
            type Output = &'static str;
            fn call<G: Game>(self) -> &'static str {
                G::NAME
            }
        }
        self.dispatch(Name)
    }

    /// Runs `f` with the variant's type: the one `match` from a runtime variant into generic
    /// code.
    pub fn dispatch<F: VariantFn>(self, f: F) -> F::Output {
        match self {
            Variant::English => f.call::<English>(),
            Variant::Italian => f.call::<Italian>(),
            Variant::Brazilian => f.call::<Brazilian>(),
            Variant::Russian => f.call::<Russian>(),
            Variant::Damone => f.call::<Damone>(),
            Variant::International => f.call::<International>(),
        }
    }
}

/// A computation generic over the variant, run by [`Variant::dispatch`].
pub trait VariantFn {
    /// What the computation returns.
    type Output;
    /// Runs it for variant `G`.
    fn call<G: Game>(self) -> Self::Output;
}

/// An unknown variant name.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnknownVariant(pub String);

impl fmt::Display for UnknownVariant {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "unknown variant '{}' (expected english, american, checkers, italian, brazilian, russian, damone, italian-damone, international, standard or normal)", self.0)
    }
}

impl std::error::Error for UnknownVariant {}

impl FromStr for Variant {
    type Err = UnknownVariant;
    /// Parses `english` (aliases `american`, `checkers`), `italian`, `brazilian`, `russian`,
    /// `damone` (alias `italian-damone`), ignoring case.
    fn from_str(s: &str) -> Result<Variant, UnknownVariant> {
        match s.trim().to_ascii_lowercase().as_str() {
            "english" | "american" | "checkers" => Ok(Variant::English),
            "italian" => Ok(Variant::Italian),
            "brazilian" => Ok(Variant::Brazilian),
            "russian" => Ok(Variant::Russian),
            "damone" | "italian-damone" => Ok(Variant::Damone),
            // `normal` is Scan's Hub name, `standard` lidraughts' and pydraughts'.
            "international" | "standard" | "normal" | "10x10" => Ok(Variant::International),
            _ => Err(UnknownVariant(s.trim().to_string())),
        }
    }
}

impl fmt::Display for Variant {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}
