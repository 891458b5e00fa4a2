//! What a shell user runs beside the engine: PDN files ([`pdn`]), engine matches ([`arena`]),
//! self-play and training ([`learn`]), the databases' conversion check ([`convert`]), a game's
//! analysis ([`analysis`]), opening books' construction ([`book`]), and their progress bars
//! ([`progress`]).

pub mod analysis;
pub mod arena;
pub mod book;
pub mod convert;
pub mod learn;
pub mod pdn;
pub mod progress;
