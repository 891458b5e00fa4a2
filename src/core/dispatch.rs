//! From a runtime variant to its type: the one `match` that turns a [`Variant`] value (chosen
//! at the edge: CLI, protocols) into code generic over [`Game`] (as shakmaty's
//! `VariantPosition` does). It sits above the rules, [`crate::core::game`] and
//! [`crate::core::damone`], so that [`Variant`] itself stays a plain value.
//!
//! The value dispatched is a [`RuleSet`]: the variant and its rule options. Today the only
//! option is Italian Damone's end of game (ruling I.4, [`DamoneWin`]); a bare [`Variant`]
//! dispatches with the default options.

use crate::core::damone::{DamoneGame, DamoneWin};
use crate::core::game::Game;
use crate::core::rules::{Brazilian, English, International, Italian, Rules, Russian};
use crate::core::variant::Variant;

/// A variant with its rule options: what decides the [`Game`] type a computation runs with.
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
    fn call<G: Game>(self) -> Self::Output;
}

/// Runs a [`VariantFn`] with the type of a runtime variant: `variant.dispatch(f)`.
pub trait Dispatch: Copy {
    /// Runs `f` with the variant's [`Game`] type.
    fn dispatch<F: VariantFn>(self, f: F) -> F::Output;

    /// The number of playable squares of the variant's board
    /// ([`crate::core::play::Play::SQUARES`]: 32 on 8x8, 50 on 10x10).
    fn squares(self) -> u32 {
        struct Squares;
        impl VariantFn for Squares {
            type Output = u32;
            fn call<G: Game>(self) -> u32 {
                G::SQUARES as u32
            }
        }
        self.dispatch(Squares)
    }
}

impl Dispatch for RuleSet {
    /// The one `match` from a runtime variant and its options to a [`Game`] type.
    fn dispatch<F: VariantFn>(self, f: F) -> F::Output {
        match self.variant {
            Variant::English => f.call::<English>(),
            Variant::Italian => f.call::<Italian>(),
            Variant::Brazilian => f.call::<Brazilian>(),
            Variant::Russian => f.call::<Russian>(),
            Variant::Damone => match self.damone_win {
                DamoneWin::All => f.call::<DamoneGame<false>>(),
                DamoneWin::Damones => f.call::<DamoneGame<true>>(),
            },
            Variant::International => f.call::<International>(),
        }
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

/// Runs `f` with the [`Rules`] type of `variant`; `None` for Italian Damone, which has no
/// `Rules` type (the endgame databases cover the five others).
pub fn dispatch_rules<F: RulesFn>(variant: Variant, f: F) -> Option<F::Output> {
    match variant {
        Variant::English => Some(f.call::<English>()),
        Variant::Italian => Some(f.call::<Italian>()),
        Variant::Brazilian => Some(f.call::<Brazilian>()),
        Variant::Russian => Some(f.call::<Russian>()),
        Variant::Damone => None,
        Variant::International => Some(f.call::<International>()),
    }
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
            fn call<G: Game>(self) -> (&'static str, Variant) {
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
