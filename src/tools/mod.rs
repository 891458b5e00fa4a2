//! What a shell user runs beside the engine: PDN files ([`pdn`]), engine matches ([`arena`]),
//! self-play and training ([`learn`]).

pub mod arena;
pub mod learn;
pub mod pdn;
