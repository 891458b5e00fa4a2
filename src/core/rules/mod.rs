//! The rules of each variant as declarative constants, one zero-sized type per variant.
//!
//! Generic code asks `if R::FLYING_KINGS { .. }` and the compiler folds the branch away. Every
//! constant in a variant's file is commented with the rulebook article it implements; the
//! sources are listed in `docs/rules.md` (after DCTL's rules-as-data headers).

mod antidraughts;
mod brazilian;
mod breakthrough;
mod english;
mod frisian;
mod frysk;
mod international;
mod italian;
mod rule_set;
mod russian;

pub use antidraughts::Antidraughts;
pub use brazilian::Brazilian;
pub use breakthrough::Breakthrough;
pub use english::English;
pub use frisian::Frisian;
pub use frysk::Frysk;
pub use international::International;
pub use italian::Italian;
pub use rule_set::{Color, Goal, Numbering, Precedence, Promotion, Rules};
pub use russian::Russian;
