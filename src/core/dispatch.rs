//! From a runtime variant to its type: the one `match` that turns a [`Variant`] value (chosen
//! at the edge: CLI, protocols) into code generic over [`Draughts`] (as shakmaty's
//! `VariantPosition` does). It sits above the rules, [`crate::core::draughts`] and
//! [`crate::core::damone`], so that [`Variant`] itself stays a plain value.
//!
//! The value dispatched is a [`RuleSet`]: the variant and its rule options. Today the only
//! option is Italian Damone's end of game (ruling I.4, [`DamoneWin`]); a bare [`Variant`]
//! dispatches with the default options.

use crate::core::damone::DamoneWin;
use crate::core::draughts::Draughts;
use crate::core::rules::{Goal, Numbering, Rules};
use crate::core::variant::Variant;

/// The one `match` from a runtime variant to its type, written once for every dispatch
/// ([`Dispatch::dispatch`], [`dispatch_rules`], `engine::eval::dispatch`). `$T` names the type
/// in `$body`; with `damone_win`, Italian Damone's type follows its end-of-game rule
/// (ruling I.4, [`DamoneWin`]); with `damone: $none`, Damone (which has no [`Rules`] type)
/// gives `$none`.
macro_rules! variant_match {
    ($variant:expr, |$T:ident| $body:expr, damone_win: $win:expr) => {
        variant_match!(@arms $variant, |$T| $body, match $win {
            $crate::core::damone::DamoneWin::All => {
                type $T = $crate::core::damone::DamoneDraughts<false>;
                $body
            }
            $crate::core::damone::DamoneWin::Damones => {
                type $T = $crate::core::damone::DamoneDraughts<true>;
                $body
            }
        })
    };
    ($variant:expr, |$T:ident| $body:expr, damone: $none:expr) => {
        variant_match!(@arms $variant, |$T| $body, $none)
    };
    (@arms $variant:expr, |$T:ident| $body:expr, $damone:expr) => {
        match $variant {
            $crate::core::variant::Variant::English => {
                type $T = $crate::core::rules::English;
                $body
            }
            $crate::core::variant::Variant::Italian => {
                type $T = $crate::core::rules::Italian;
                $body
            }
            $crate::core::variant::Variant::Brazilian => {
                type $T = $crate::core::rules::Brazilian;
                $body
            }
            $crate::core::variant::Variant::Russian => {
                type $T = $crate::core::rules::Russian;
                $body
            }
            $crate::core::variant::Variant::Damone => $damone,
            $crate::core::variant::Variant::International => {
                type $T = $crate::core::rules::International;
                $body
            }
            $crate::core::variant::Variant::Antidraughts => {
                type $T = $crate::core::rules::Antidraughts;
                $body
            }
            $crate::core::variant::Variant::Breakthrough => {
                type $T = $crate::core::rules::Breakthrough;
                $body
            }
            $crate::core::variant::Variant::Frisian => {
                type $T = $crate::core::rules::Frisian;
                $body
            }
            $crate::core::variant::Variant::Frysk => {
                type $T = $crate::core::rules::Frysk;
                $body
            }
        }
    };
}
pub(crate) use variant_match;

/// A variant with its rule options: what decides the [`Draughts`] type a computation runs with.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub struct RuleSet {
    /// The variant.
    pub variant: Variant,
    /// Italian Damone's end-of-game rule (ruling I.4; the option `DamoneWin`). Ignored by the
    /// other variants.
    pub damone_win: DamoneWin,
}

impl From<Variant> for RuleSet {
    /// The variant with the default options ([`DamoneWin::All`]).
    fn from(variant: Variant) -> RuleSet {
        RuleSet {
            variant,
            damone_win: DamoneWin::default(),
        }
    }
}

/// A computation generic over the variant, run by [`Dispatch::dispatch`].
pub trait VariantFn {
    /// What the computation returns.
    type Output;
    /// Runs it for variant `G`.
    fn call<G: Draughts>(self) -> Self::Output;
}

/// Runs a [`VariantFn`] with the type of a runtime variant: `variant.dispatch(f)`.
pub trait Dispatch: Copy {
    /// Runs `f` with the variant's [`Draughts`] type.
    fn dispatch<F: VariantFn>(self, f: F) -> F::Output;

    /// The number of playable squares of the variant's board
    /// ([`crate::core::play::Play::SQUARES`]: 32 on 8x8, 50 on 10x10).
    fn squares(self) -> u32 {
        struct Squares;
        impl VariantFn for Squares {
            type Output = u32;
            fn call<G: Draughts>(self) -> u32 {
                G::SQUARES as u32
            }
        }
        self.dispatch(Squares)
    }

    /// The name, in the variant's own notation, of the square numbered `n` in `numbering`
    /// ([`Play::numbered_square`](crate::Play::numbered_square)): `Numbering::BottomLeft` 1 is
    /// `"a1"` in Russian. `None` off
    /// the board.
    fn numbered_square_name(self, numbering: Numbering, n: u32) -> Option<String> {
        struct Name(Numbering, u32);
        impl VariantFn for Name {
            type Output = Option<String>;
            fn call<G: Draughts>(self) -> Option<String> {
                G::numbered_square(self.0, self.1).map(G::square_name)
            }
        }
        self.dispatch(Name(numbering, n))
    }

    /// The number in `numbering` of the square named `name` in the variant's notation (the
    /// inverse of [`Dispatch::numbered_square_name`]); `None` if it names no square.
    fn square_number_in(self, numbering: Numbering, name: &str) -> Option<u32> {
        struct Number<'a>(Numbering, &'a str);
        impl VariantFn for Number<'_> {
            type Output = Option<u32>;
            fn call<G: Draughts>(self) -> Option<u32> {
                let sq = G::parse_square(self.1).ok()?;
                (1..=G::SQUARES as u32).find(|&n| G::numbered_square(self.0, n) == Some(sq))
            }
        }
        self.dispatch(Number(numbering, name))
    }
}

impl Dispatch for RuleSet {
    /// The one `match` from a runtime variant and its options to a [`Draughts`] type.
    fn dispatch<F: VariantFn>(self, f: F) -> F::Output {
        variant_match!(self.variant, |G| f.call::<G>(), damone_win: self.damone_win)
    }
}

/// A computation generic over a variant's [`Rules`] (the men-and-kings variants; Italian
/// Damone, whose pieces have three ranks, is not one), run by [`dispatch_rules`].
pub trait RulesFn {
    /// What the computation returns.
    type Output;
    /// Runs it for the rules `R`.
    fn call<R: Rules>(self) -> Self::Output;
}

/// Runs `f` with the [`Rules`] type of `variant`, for the endgame databases and what reads
/// them; `None` for Italian Damone, which has no `Rules` type, and for Breakthrough
/// ([`Goal::FirstKingWins`]), where a promotion ends the game. Frisian and Frysk! are run too;
/// their databases hold kings only (`egdb::material::Material::covered`).
pub fn dispatch_rules<F: RulesFn>(variant: Variant, f: F) -> Option<F::Output> {
    variant_match!(
        variant,
        |R| (R::GOAL != Goal::FirstKingWins).then(|| f.call::<R>()),
        damone: None
    )
}

impl Dispatch for Variant {
    /// [`RuleSet::dispatch`] with the default options.
    fn dispatch<F: VariantFn>(self, f: F) -> F::Output {
        RuleSet::from(self).dispatch(f)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_the_games_names() {
        struct Name;
        impl VariantFn for Name {
            type Output = (&'static str, Variant);
            fn call<G: Draughts>(self) -> (&'static str, Variant) {
                (G::NAME, G::VARIANT)
            }
        }
        for v in Variant::ALL {
            assert_eq!(v.dispatch(Name), (v.name(), v));
            let damones = RuleSet {
                variant: v,
                damone_win: DamoneWin::Damones,
            };
            assert_eq!(damones.dispatch(Name), (v.name(), v));
        }
    }
}
