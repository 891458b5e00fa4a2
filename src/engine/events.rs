//! What the engine sends out: the events of a search and of a perft, the sinks they go to, and
//! the form its moves are named in.

use crate::core::moves::Move;
use crate::engine::eval::Evaluate;
use crate::engine::search::{Depth, Info, Reporter, Score};

/// How a move is written: which squares a capture lists, and its separators. Not a square
/// numbering (that is [`crate::core::rules::Numbering`]): every form names squares in the
/// variant's own notation.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub enum MoveForm {
    /// The variant's notation with every landing square of a capture (`11x18x25`), the
    /// native protocol's form.
    Native,
    /// The Hub form (`from x to x captured...`).
    Hub,
    /// The shortest unambiguous PDN form (`11x25`; every landing square only when two legal
    /// captures share from and to), as PDN files are written ([`crate::core::notation::move_name_pdn`]).
    Pdn,
}

/// What a search reports.
#[derive(Clone, Debug, PartialEq)]
pub enum Event {
    /// One completed iteration.
    Info {
        /// Depth.
        depth: Depth,
        /// Deepest ply reached.
        seldepth: Depth,
        /// The score.
        score: Score,
        /// Nodes searched.
        nodes: u64,
        /// Nodes per second.
        nps: u64,
        /// Milliseconds since the search started.
        time_ms: u64,
        /// Transposition-table use, per mille.
        hashfull: u32,
        /// Endgame-database probes that decided a node (UCI's `tbhits`).
        db_hits: u64,
        /// The principal variation.
        pv: Vec<String>,
    },
    /// The move comes from the opening book (`OwnBook`), before its [`Event::BestMove`]: the
    /// move in the request's form and its book score in centi-men (docs/book.md, "In the
    /// engine").
    Book {
        /// The book move.
        mv: String,
        /// Its score in the book, centi-men for the side to move.
        score: i16,
    },
    /// The search is over: the move to play (`None` if there is no legal move) and the
    /// expected reply.
    BestMove {
        /// The move.
        best: Option<String>,
        /// The expected reply.
        ponder: Option<String>,
    },
}

/// Where events go (called from the search thread).
pub type Sink = Box<dyn FnMut(Event) + Send>;

/// What a perft run reports, in order: one [`PerftEvent::Move`] per root move, then
/// [`PerftEvent::Done`] or [`PerftEvent::Stopped`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PerftEvent {
    /// A root move (native notation) and the leaves below it.
    Move(String, u64),
    /// The total number of leaves.
    Done(u64),
    /// Interrupted by a stop: root moves counted, of how many.
    Stopped {
        /// Root moves whose counts were reported.
        counted: usize,
        /// Legal root moves.
        of: usize,
    },
}

/// Where perft events go (called from the perft thread).
pub type PerftSink = Box<dyn FnMut(PerftEvent) + Send>;

/// The names in form `form` of `moves` played in order from `pos` (one name per move).
pub(super) fn move_names<G: Evaluate>(
    pos: &G::Position,
    moves: &[Move],
    form: MoveForm,
) -> Vec<String> {
    let mut p = *pos;
    let mut out = Vec::with_capacity(moves.len());
    for mv in moves {
        out.push(match form {
            MoveForm::Native => G::move_name(&p, mv),
            MoveForm::Hub => G::move_name_hub(mv),
            MoveForm::Pdn => G::move_name_pdn(&p, mv),
        });
        p = G::make(&p, mv);
    }
    out
}

/// Turns the search's iterations into [`Event::Info`]s for a sink.
pub(super) struct EventReporter<'a, G: Evaluate> {
    /// The position searched (the principal variations are named from it).
    pub(super) root: G::Position,
    /// How the moves are named.
    pub(super) form: MoveForm,
    /// Where the events go.
    pub(super) sink: &'a mut Sink,
}

impl<G: Evaluate> Reporter for EventReporter<'_, G> {
    fn iteration(&mut self, info: &Info) {
        (self.sink)(Event::Info {
            depth: info.depth,
            seldepth: info.seldepth,
            score: info.score,
            nodes: info.nodes,
            nps: info.nps(),
            time_ms: info.time_ms,
            hashfull: info.hashfull,
            db_hits: info.db_hits,
            pv: move_names::<G>(&self.root, &info.pv, self.form),
        });
    }
}
