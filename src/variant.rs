//! `Variant`: the variant chosen at the edge (CLI, protocols), dispatched once into code that is
//! generic over [`Rules`] (as shakmaty's `VariantPosition` does).

use crate::damone::Damone;
use crate::game::Game;
use crate::rules::{Brazilian, English, Italian, Russian};
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
}

impl Variant {
    /// Every variant, in the order the CLI and protocols list them.
    pub const ALL: [Variant; 5] = [
        Variant::English,
        Variant::Italian,
        Variant::Brazilian,
        Variant::Russian,
        Variant::Damone,
    ];

    /// The canonical name (`english`, `italian`, `brazilian`, `russian`, `damone`).
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
        write!(f, "unknown variant '{}' (expected english, american, checkers, italian, brazilian, russian, damone or italian-damone)", self.0)
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
            _ => Err(UnknownVariant(s.trim().to_string())),
        }
    }
}

impl fmt::Display for Variant {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}
