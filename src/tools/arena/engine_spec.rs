//! What the match runner knows of an engine before it runs, and what one gives back: how to
//! start it ([`EngineSpec`], [`Protocol`]), the limits of one `go` ([`GoLimits`]), and why a
//! move did not come ([`Failure`]). The process engines (`process.rs`) and the DXP engines
//! (`dxp_engine.rs`) both speak in these terms; neither knows the other.

use crate::engine::Depth;
use std::time::Duration;

/// How long the handshake (and `isready` / `ping` between games) may take.
pub const HANDSHAKE_TIMEOUT: Duration = Duration::from_secs(10);

/// The protocol an engine speaks.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Protocol {
    /// damiera's native UCI-style protocol (`uci`, `position`, `go`, `bestmove`).
    Native,
    /// The Hub protocol, version 2 (`hub`, `pos`, `level`, `go think`, `done`): Scan 3.x,
    /// pydraughts, damiera.
    Hub,
    /// The first Hub dialect (Scan 2.0): `set N V`, `new`, `pos <w|b><50 squares>`, `move M`
    /// lines, `time MS`, `level MOVES MS INC_MS`, `depth N`, `go`, answered `move M [P]`.
    /// International only.
    Hub1,
    /// DXP over TCP: the "command" is the HOST:PORT of a follower (docs/dxp.md).
    Dxp,
}

impl std::str::FromStr for Protocol {
    type Err = String;
    fn from_str(s: &str) -> Result<Protocol, String> {
        match s.to_ascii_lowercase().as_str() {
            "native" | "uci" => Ok(Protocol::Native),
            "hub" | "hub2" => Ok(Protocol::Hub),
            "hub1" => Ok(Protocol::Hub1),
            "dxp" => Ok(Protocol::Dxp),
            _ => Err(format!(
                "unknown protocol '{s}' (expected native, hub, hub1 or dxp)"
            )),
        }
    }
}

/// How to start and configure one engine.
#[derive(Clone, Debug)]
pub struct EngineSpec {
    /// Display name (reports and PDN).
    pub name: String,
    /// The command line: program then arguments.
    pub command: Vec<String>,
    /// The protocol it speaks.
    pub protocol: Protocol,
    /// Options sent after the handshake, `(name, value)`: `setoption name N value V` (native),
    /// `set-param name=N value=V` (Hub) or `set N V` (Hub 1). A `variant` option (any case)
    /// replaces the variant value the match would choose from the engine's announced list.
    pub options: Vec<(String, String)>,
}

/// The limits of one `go`.
#[derive(Clone, Copy, Debug, Default)]
pub struct GoLimits {
    /// Milliseconds for this move.
    pub movetime: Option<u64>,
    /// Depth limit.
    pub depth: Option<Depth>,
    /// Clocks in milliseconds: (White's time, Black's time, increment per move).
    pub clock: Option<(u64, u64, u64)>,
    /// Whether White is to move (for the Hub form, which sends only the mover's clock).
    pub white_to_move: bool,
    /// Plies the match can still play before its `--max-plies` adjudication (`None`:
    /// unknown); a DXP GAMEREQ's move count is chosen not to end the game before that.
    pub plies_left: Option<usize>,
}

/// One move asked of a match engine ([`Player::go`](super::player::Player::go)): the game so
/// far in the forms each protocol takes, the limits, and the longest wait.
#[derive(Clone, Copy, Debug)]
pub struct MoveRequest<'a> {
    /// The game's start position as FEN (`None`: the variant's start).
    pub start_fen: Option<&'a str>,
    /// The native names of the moves played since the start.
    pub moves: &'a [String],
    /// The Hub position string of the start (used by Hub engines).
    pub hub_start: &'a str,
    /// The same moves in Hub form (used by Hub and DXP engines; empty when none plays).
    pub hub_moves: &'a [String],
    /// The limits of this move.
    pub limits: &'a GoLimits,
    /// The longest wait for the answer, from sending the request, before the engine is
    /// killed (a timeout).
    pub deadline_after: Duration,
}

/// Why an engine did not deliver a move.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Failure {
    /// The process exited or closed its output (or could not be written to).
    Crash(String),
    /// No answer before the deadline; the process has been killed.
    Timeout(Duration),
    /// The engine was interrupted by the match being aborted (Ctrl-C).
    Aborted,
    /// A DXP follower ended the game with GAMEEND instead of a move: its reason (`0` none,
    /// `1` I lose, `2` draw, `3` I win, from its own view) and a description (its moves, the
    /// GAMEREQ's move count).
    GameEnd {
        /// The GAMEEND reason, from the follower's view.
        reason: u8,
        /// What happened, for the PDN comment.
        note: String,
    },
}
