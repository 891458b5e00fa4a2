//! What a `go` asks of the engine.

use crate::engine::events::MoveForm;
use crate::engine::search::Limits;

/// One search asked of [`Engine::go`](super::facade::Engine::go): how long or deep it may
/// search, whether it starts pondering, and the form its moves are reported in.
#[derive(Clone, Debug)]
pub struct GoRequest {
    /// What the search may use (depth, nodes, milliseconds of time or clock).
    pub limits: Limits,
    /// Whether it starts pondering: no time limit applies until
    /// [`Engine::ponderhit`](super::facade::Engine::ponderhit).
    pub ponder: bool,
    /// How the moves of its events are named.
    pub form: MoveForm,
}

impl GoRequest {
    /// A search within `limits` (not pondering) reporting moves in `form`.
    pub fn new(limits: Limits, form: MoveForm) -> GoRequest {
        GoRequest {
            limits,
            ponder: false,
            form,
        }
    }
}
