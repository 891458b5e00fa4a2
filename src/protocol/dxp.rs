//! DXP, the DamExchange Protocol (Frank Mesander), over TCP: International draughts matches
//! between programs. `damiera dxp --listen HOST:PORT` is the follower (it waits for game
//! requests), `damiera dxp --connect HOST:PORT` the initiator (it sends one). docs/dxp.md
//! describes the behaviour, rulings included.
//!
//! Messages (`../shared/reference/protocols.md` §2, after the DXP specification and Scan 3.1's
//! dxp.cpp): 1 to 127 ASCII characters, each followed by a `\0`; the first character names the
//! message, the fields after it have fixed widths and zero-padded decimals:
//! - `R` GAMEREQ: version `01`, initiator name (32), follower colour `W`/`Z`, thinking time in
//!   minutes (3), number of moves (3, the game's length; `000`: no limit), `A` (the start
//!   position, White to move) or `B` followed by the colour to move and 50 squares
//!   (`e w z W Z`);
//! - `A` GAMEACC: follower name (32), code (`0` accepted, `1` version not supported, `2` not
//!   this game, `3` no games);
//! - `M` MOVE: seconds used (4), from (2), to (2), number captured (2), captured squares (2
//!   each);
//! - `E` GAMEEND: reason (`0` none, `1` I lose, `2` draw, `3` I win), stop code (`0` another
//!   game is welcome, `1` no more games);
//! - `C` CHAT: free text; `B` BACKREQ: move number (3), colour to move; `K` BACKACC: code
//!   (`0` yes, `1` no, `2` continue the game).

use crate::engine::{Engine, Event, Naming, Outcome};
use crate::rules::Color;
use crate::search::Limits;
use crate::variant::Variant;
use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, Sender};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// The longest message, in characters, without its `\0` (DXP specification).
pub const MAX_MESSAGE: usize = 127;

/// The normal start (GAMEREQ `A`): FMJD 2.6, White on 31-50 to move.
const START_FEN: &str = "W:W31-50:B1-20";

/// The DXP standard port (protocols.md §2.1).
pub const DEFAULT_PORT: u16 = 27531;

/// One DXP message.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Message {
    /// `R`: a game request from the initiator.
    GameReq {
        /// Protocol version (`01`).
        version: u32,
        /// The initiator's name (trimmed).
        name: String,
        /// The colour the follower plays.
        follower: Color,
        /// Thinking time per player, in minutes.
        minutes: u32,
        /// The game's length in moves a side (0: no limit): Moby Dam and Scan end the game
        /// there, and so does damiera (docs/dxp.md).
        moves: u32,
        /// The start position: `None` for the normal start (White to move), or the side to
        /// move and the 50 squares (`e`, `w`, `z`, `W`, `Z`, square 1 first).
        position: Option<(Color, String)>,
    },
    /// `A`: the follower's answer to a game request.
    GameAcc {
        /// The follower's name (trimmed).
        name: String,
        /// `0` accepted, `1` version not supported, `2` not this game, `3` no games.
        code: u8,
    },
    /// `M`: a move.
    Move {
        /// Seconds used for it (informational).
        seconds: u32,
        /// From square, 1-50.
        from: u8,
        /// To square, 1-50.
        to: u8,
        /// Captured squares, in any order.
        captured: Vec<u8>,
    },
    /// `E`: the end of the game.
    GameEnd {
        /// `0` no reason, `1` I lose, `2` draw, `3` I win.
        reason: u8,
        /// `0` another game is welcome, `1` no more games.
        stop: u8,
    },
    /// `C`: a chat line.
    Chat(String),
    /// `B`: a request to take moves back to move `number` with `color` to move.
    BackReq {
        /// The move number, 1-999.
        number: u32,
        /// The side to move there.
        color: Color,
    },
    /// `K`: the answer to a take-back request: `0` yes, `1` no, `2` continue the game.
    BackAcc {
        /// The code.
        code: u8,
    },
}

fn color_char(c: Color) -> char {
    match c {
        Color::White => 'W',
        Color::Black => 'Z',
    }
}

fn parse_color(c: u8) -> Result<Color, String> {
    match c {
        b'W' | b'w' => Ok(Color::White),
        b'Z' | b'z' => Ok(Color::Black),
        _ => Err(format!("bad colour '{}' (expected W or Z)", c as char)),
    }
}

/// A fixed-width decimal field.
fn num(text: &str, at: usize, width: usize) -> Result<u32, String> {
    let field = text
        .get(at..at + width)
        .ok_or_else(|| format!("message too short: '{text}'"))?;
    if !field.bytes().all(|b| b.is_ascii_digit()) {
        return Err(format!("bad number '{field}' in '{text}'"));
    }
    field.parse().map_err(|_| format!("bad number '{field}'"))
}

fn byte(text: &str, at: usize) -> Result<u8, String> {
    text.as_bytes()
        .get(at)
        .copied()
        .ok_or_else(|| format!("message too short: '{text}'"))
}

fn name_field(text: &str, at: usize) -> Result<String, String> {
    text.get(at..at + 32)
        .map(|s| s.trim().to_string())
        .ok_or_else(|| format!("message too short: '{text}'"))
}

fn padded_name(name: &str) -> String {
    let mut n: String = name
        .chars()
        .filter(|c| c.is_ascii() && *c != '\0')
        .take(32)
        .collect();
    while n.len() < 32 {
        n.push(' ');
    }
    n
}

impl Message {
    /// Parses one message (without its `\0`). Errors name what is wrong, in one line.
    pub fn parse(text: &str) -> Result<Message, String> {
        if text.is_empty() {
            return Err("empty message".into());
        }
        let header = text.as_bytes()[0];
        let named = |e: String| match header {
            b'R' => format!("GAMEREQ: {e}"),
            b'M' => format!("MOVE: {e}"),
            _ => e,
        };
        if text.len() > MAX_MESSAGE {
            return Err(named(format!(
                "{} characters, more than 127",
                text.chars().count()
            )));
        }
        if let Some(c) = text.chars().find(|c| !c.is_ascii()) {
            return Err(named(format!(
                "not ASCII (character U+{:04X} at byte {})",
                u32::from(c),
                text.find(c).unwrap_or(0)
            )));
        }
        let exact = |len: usize| {
            if text.len() == len {
                Ok(())
            } else {
                Err(format!(
                    "'{text}': {} characters, expected {len}",
                    text.len()
                ))
            }
        };
        Message::parse_fields(text, header, exact).map_err(named)
    }

    fn parse_fields(
        text: &str,
        header: u8,
        exact: impl Fn(usize) -> Result<(), String>,
    ) -> Result<Message, String> {
        match header {
            b'R' => {
                let version = num(text, 1, 2)?;
                let name = name_field(text, 3)?;
                let follower = parse_color(byte(text, 35)?)?;
                let minutes = num(text, 36, 3)?;
                let moves = num(text, 39, 3)?;
                let position = match byte(text, 42)? {
                    b'A' => {
                        exact(43)?;
                        None
                    }
                    b'B' => {
                        let side = parse_color(byte(text, 43)?)?;
                        let squares = &text[44.min(text.len())..];
                        if squares.len() != 50 {
                            return Err(format!(
                                "position of {} squares (DXP is International: 50)",
                                squares.len()
                            ));
                        }
                        if let Some(c) = squares.chars().find(|c| !"ewzWZ".contains(*c)) {
                            return Err(format!("bad square '{c}' in the position"));
                        }
                        Some((side, squares.to_string()))
                    }
                    c => return Err(format!("bad start '{}' (expected A or B)", c as char)),
                };
                Ok(Message::GameReq {
                    version,
                    name,
                    follower,
                    minutes,
                    moves,
                    position,
                })
            }
            b'A' => {
                exact(34)?;
                let name = name_field(text, 1)?;
                let code = num(text, 33, 1)? as u8;
                Ok(Message::GameAcc { name, code })
            }
            b'M' => {
                let seconds = num(text, 1, 4)?;
                let from = num(text, 5, 2)? as u8;
                let to = num(text, 7, 2)? as u8;
                let n = num(text, 9, 2)? as usize;
                exact(11 + 2 * n)?;
                let captured = (0..n)
                    .map(|i| num(text, 11 + 2 * i, 2).map(|v| v as u8))
                    .collect::<Result<Vec<u8>, String>>()?;
                for sq in std::iter::once(&from).chain(&[to]).chain(&captured) {
                    if !(1..=50).contains(sq) {
                        return Err(format!("square {sq} out of 1-50 in '{text}'"));
                    }
                }
                Ok(Message::Move {
                    seconds,
                    from,
                    to,
                    captured,
                })
            }
            b'E' => {
                exact(3)?;
                let reason = num(text, 1, 1)? as u8;
                let stop = num(text, 2, 1)? as u8;
                if reason > 3 || stop > 1 {
                    return Err(format!("bad GAMEEND '{text}'"));
                }
                Ok(Message::GameEnd { reason, stop })
            }
            b'C' => Ok(Message::Chat(text[1..].to_string())),
            b'B' => {
                exact(5)?;
                Ok(Message::BackReq {
                    number: num(text, 1, 3)?,
                    color: parse_color(byte(text, 4)?)?,
                })
            }
            b'K' => {
                exact(2)?;
                Ok(Message::BackAcc {
                    code: num(text, 1, 1)? as u8,
                })
            }
            c => Err(format!("unknown message type '{}'", c as char)),
        }
    }

    /// The message as sent (without its `\0`).
    pub fn text(&self) -> String {
        match self {
            Message::GameReq {
                version,
                name,
                follower,
                minutes,
                moves,
                position,
            } => {
                let mut s = format!(
                    "R{:02}{}{}{:03}{:03}",
                    version % 100,
                    padded_name(name),
                    color_char(*follower),
                    minutes % 1000,
                    moves % 1000
                );
                match position {
                    None => s.push('A'),
                    Some((side, squares)) => {
                        s.push('B');
                        s.push(color_char(*side));
                        s.push_str(squares);
                    }
                }
                s
            }
            Message::GameAcc { name, code } => format!("A{}{}", padded_name(name), code % 10),
            Message::Move {
                seconds,
                from,
                to,
                captured,
            } => {
                let mut s = format!(
                    "M{:04}{:02}{:02}{:02}",
                    seconds % 10000,
                    from,
                    to,
                    captured.len()
                );
                for c in captured {
                    s.push_str(&format!("{c:02}"));
                }
                s
            }
            Message::GameEnd { reason, stop } => format!("E{reason}{stop}"),
            Message::Chat(t) => {
                let t: String = t
                    .chars()
                    .map(|c| if c.is_ascii() && c != '\0' { c } else { '?' })
                    .take(MAX_MESSAGE - 1)
                    .collect();
                format!("C{t}")
            }
            Message::BackReq { number, color } => {
                format!("B{:03}{}", number % 1000, color_char(*color))
            }
            Message::BackAcc { code } => format!("K{code}"),
        }
    }
}

/// The FEN of a DXP position (side to move, 50 squares `e w z W Z`).
pub fn fen_of(side: Color, squares: &str) -> String {
    let (mut white, mut black) = (Vec::new(), Vec::new());
    for (i, c) in squares.chars().enumerate() {
        let sq = i + 1;
        match c {
            'w' => white.push(sq.to_string()),
            'W' => white.push(format!("K{sq}")),
            'z' => black.push(sq.to_string()),
            'Z' => black.push(format!("K{sq}")),
            _ => {}
        }
    }
    format!(
        "{}:W{}:B{}",
        side.letter(),
        white.join(","),
        black.join(",")
    )
}

/// The DXP side to move and squares of the engine's position (for a GAMEREQ `B`).
pub fn squares_of(engine: &Engine) -> (Color, String) {
    let fen = engine.fen();
    let mut squares = vec!['e'; 50];
    let mut fields = fen.split(':');
    let side = if fields.next() == Some("B") {
        Color::Black
    } else {
        Color::White
    };
    for field in fields {
        let (white, items) = match field.as_bytes().first() {
            Some(b'W') => (true, &field[1..]),
            Some(b'B') => (false, &field[1..]),
            _ => continue,
        };
        for item in items.split(',').filter(|s| !s.is_empty()) {
            let king = item.starts_with('K');
            let n: usize = item.trim_start_matches('K').parse().unwrap_or(0);
            if (1..=50).contains(&n) {
                squares[n - 1] = match (white, king) {
                    (true, false) => 'w',
                    (true, true) => 'W',
                    (false, false) => 'z',
                    (false, true) => 'Z',
                };
            }
        }
    }
    (side, squares.into_iter().collect())
}

/// The Hub form of a DXP move (`from-to`, or `from x to x captured...` ascending), the form
/// [`Engine::legal_moves`] gives with [`Naming::Hub`].
pub fn hub_form(from: u8, to: u8, captured: &[u8]) -> String {
    if captured.is_empty() {
        return format!("{from}-{to}");
    }
    let mut caps = captured.to_vec();
    caps.sort_unstable();
    let mut s = format!("{from}x{to}");
    for c in caps {
        s.push_str(&format!("x{c}"));
    }
    s
}

/// The MOVE of a move in Hub form (`None` if the text is not one).
pub fn move_message(hub: &str, seconds: u32) -> Option<Message> {
    let (sep, quiet) = if hub.contains('-') {
        ('-', true)
    } else {
        ('x', false)
    };
    let squares: Vec<u8> = hub
        .split(sep)
        .map(|s| s.parse().ok())
        .collect::<Option<_>>()?;
    if squares.len() < 2 || (quiet && squares.len() != 2) {
        return None;
    }
    Some(Message::Move {
        seconds,
        from: squares[0],
        to: squares[1],
        captured: squares[2..].to_vec(),
    })
}

/// The search limits for one move from a DXP clock: `minutes` per player for the game, which
/// lasts `moves` moves a side (0: no move limit; Moby Dam and Scan end the game there, and so
/// does damiera, docs/dxp.md), `used_ms` milliseconds already used and `made` moves already
/// made by this side. A fixed `movetime` (ms) overrides the clock; a clock of 0 minutes
/// without one gets 1,000 ms a move.
pub fn clock_limits(
    minutes: u32,
    moves: u32,
    made: u32,
    used_ms: u64,
    movetime: Option<u64>,
) -> Limits {
    let mut limits = Limits::default();
    if let Some(ms) = movetime {
        limits.movetime = Some(ms);
    } else if minutes == 0 {
        limits.movetime = Some(1000);
    } else {
        let game = u64::from(minutes) * 60_000;
        limits.time = Some(game.saturating_sub(used_ms).max(1));
        if moves > 0 {
            limits.movestogo = Some(moves.saturating_sub(made).max(1));
        }
    }
    limits
}

/// What the session loop waits on: a message (or a malformed one), the end of the
/// connection, or the search's move.
enum Input {
    Peer(Result<Message, String>),
    Closed,
    Best(Option<String>),
}

/// Sends one message followed by its `\0`.
///
/// # Errors
/// The connection's write error.
pub fn send_message(stream: &mut TcpStream, m: &Message) -> std::io::Result<()> {
    let mut bytes = m.text().into_bytes();
    bytes.push(0);
    stream.write_all(&bytes)?;
    stream.flush()
}

/// Reads the messages of `stream` on a thread: each as it arrives (`Err` for a malformed
/// one), then `None` when the connection ends.
pub fn message_reader(stream: TcpStream) -> Receiver<Option<Result<Message, String>>> {
    let (tx, rx) = mpsc::channel();
    let (itx, irx) = mpsc::channel();
    spawn_reader(stream, itx);
    std::thread::spawn(move || {
        for input in irx {
            let item = match input {
                Input::Peer(m) => Some(m),
                Input::Closed => None,
                Input::Best(_) => continue,
            };
            let end = item.is_none();
            if tx.send(item).is_err() || end {
                return;
            }
        }
    });
    rx
}

/// Reads `\0`-terminated messages from `stream` into `tx` until the connection ends.
fn spawn_reader(stream: TcpStream, tx: Sender<Input>) {
    std::thread::spawn(move || {
        let mut reader = BufReader::new(stream);
        loop {
            let mut buf = Vec::new();
            // Bounded: a peer that never sends `\0` cannot make us buffer without end.
            match (&mut reader).take(4096).read_until(0, &mut buf) {
                Ok(0) | Err(_) => break,
                Ok(_) => {}
            }
            if buf.last() != Some(&0) {
                if buf.len() >= 4096 {
                    let _ = tx.send(Input::Peer(Err(
                        "message longer than 127 characters (no \\0 in 4096 bytes)".into(),
                    )));
                    // Skip to the next `\0`.
                    let mut skip = Vec::new();
                    if reader
                        .read_until(0, &mut skip)
                        .map(|n| n == 0)
                        .unwrap_or(true)
                    {
                        break;
                    }
                    continue;
                }
                break; // the connection ended inside a message
            }
            buf.pop();
            let text = String::from_utf8_lossy(&buf).to_string();
            // Tolerate line ends some clients add.
            let text = text.trim_matches(|c| c == '\r' || c == '\n');
            if text.is_empty() {
                continue;
            }
            if tx.send(Input::Peer(Message::parse(text))).is_err() {
                return;
            }
        }
        let _ = tx.send(Input::Closed);
    });
}

/// How a session ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Report {
    /// Games finished on this connection.
    pub games: u32,
    /// The last game's result from damiera's view (`1-0`-style from White's view, `*` if
    /// unfinished) and why.
    pub last: Option<String>,
}

/// How long a GAMEREQ waits for the game of another connection to end before it is refused
/// (GAMEACC code 2), in milliseconds.
pub const SLOT_WAIT_MS: u64 = 10_000;

/// The default idle timeout ([`Options::idle_timeout_ms`]), in milliseconds.
pub const DEFAULT_IDLE_TIMEOUT_MS: u64 = 60_000;

/// One game at a time: the connections of one follower (`damiera dxp --listen` serves them at
/// once) share a slot, which a game holds from its GAMEACC to its end. Clones share the slot.
#[derive(Clone, Debug, Default)]
pub struct GameSlot(Arc<AtomicBool>);

/// A game's hold on its [`GameSlot`], given back when dropped.
struct SlotHold(Arc<AtomicBool>);

impl Drop for SlotHold {
    fn drop(&mut self) {
        self.0.store(false, Ordering::SeqCst);
    }
}

impl GameSlot {
    /// Takes the slot, waiting up to `wait` for another game to end.
    fn take(&self, wait: Duration) -> Option<SlotHold> {
        let deadline = Instant::now() + wait;
        loop {
            if self
                .0
                .compare_exchange(false, true, Ordering::SeqCst, Ordering::SeqCst)
                .is_ok()
            {
                return Some(SlotHold(Arc::clone(&self.0)));
            }
            if Instant::now() >= deadline {
                return None;
            }
            std::thread::sleep(Duration::from_millis(20));
        }
    }
}

/// Options of a session.
#[derive(Clone, Debug)]
pub struct Options {
    /// Name sent in GAMEREQ/GAMEACC.
    pub name: String,
    /// Transposition table size in MiB.
    pub hash_mib: usize,
    /// Fixed time per move in ms, overriding the clock.
    pub movetime: Option<u64>,
    /// How long to wait for the peer's answer to a GAMEREQ, a GAMEEND or a move, in ms
    /// (0: forever for moves; GAMEACC and GAMEEND answers always time out).
    pub answer_timeout_ms: u64,
    /// Closes the connection when the peer sends nothing for this long, in milliseconds (0:
    /// never): with no game in progress (before a GAMEREQ, between games), and on the peer's
    /// turn with its whole thinking time for the game (the GAMEREQ's minutes) on top. Never
    /// while damiera thinks.
    pub idle_timeout_ms: u64,
    /// Prints a line per move on stderr (`ply 12: 32-28 (white, 0.8 s)`); the initiator does.
    pub moves_to_stderr: bool,
    /// The game slot this session shares with the other connections of its follower.
    pub slot: GameSlot,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            name: format!("damiera {}", env!("CARGO_PKG_VERSION")),
            hash_mib: 64,
            movetime: None,
            answer_timeout_ms: 30_000,
            idle_timeout_ms: DEFAULT_IDLE_TIMEOUT_MS,
            moves_to_stderr: false,
            slot: GameSlot::default(),
        }
    }
}

/// One game in progress.
struct GameState {
    start_fen: String,
    start_side: Color,
    moves: Vec<String>,
    us: Color,
    /// Thinking time per player for the game, in minutes (GAMEREQ).
    minutes: u32,
    /// The game's length in moves a side (GAMEREQ; 0: no limit).
    moves_per_game: u32,
    /// Milliseconds damiera has thought in this game.
    used_ms: u64,
    searching: bool,
    search_started: Instant,
    /// When the side to move got the move (for the move lines on stderr).
    turn_started: Instant,
    /// Our GAMEEND was sent and the peer's is awaited (since when).
    end_sent: Option<Instant>,
    /// The follower's game slot, held for the game.
    _hold: Option<SlotHold>,
}

impl GameState {
    /// Moves made by `side` since the game's start position.
    fn made_by(&self, side: Color) -> u32 {
        let plies = self.moves.len() as u32;
        if side == self.start_side {
            plies.div_ceil(2)
        } else {
            plies / 2
        }
    }

    /// Whether a side has made the game's number of moves (GAMEREQ `moves` > 0).
    fn at_move_limit(&self) -> bool {
        self.moves_per_game > 0 && (self.moves.len() as u32).div_ceil(2) >= self.moves_per_game
    }
}

struct Session<'a> {
    stream: TcpStream,
    engine: Engine,
    opts: &'a Options,
    rx: Receiver<Input>,
    tx: Sender<Input>,
    game: Option<GameState>,
    games: u32,
    last: Option<String>,
    initiator: bool,
    stop_after: bool,
    /// When the peer last sent a message or we last sent one (for the idle timeout).
    last_heard: Instant,
    log: &'a mut dyn Write,
}

impl Session<'_> {
    fn send(&mut self, m: &Message) -> bool {
        let mut bytes = m.text().into_bytes();
        bytes.push(0);
        log::debug!("dxp send {}", m.text());
        self.last_heard = Instant::now();
        self.stream
            .write_all(&bytes)
            .and_then(|_| self.stream.flush())
            .is_ok()
    }

    fn say(&mut self, text: &str) {
        let _ = writeln!(self.log, "{text}");
        let _ = self.log.flush();
    }

    /// Loads the game's moves into the engine.
    fn sync(&mut self) -> bool {
        let g = self.game.as_ref().expect("a game");
        let refs: Vec<&str> = g.moves.iter().map(String::as_str).collect();
        match self.engine.set_position(Some(&g.start_fen), &refs) {
            Ok(()) => true,
            Err(e) => {
                log::error!("dxp: cannot replay the game: {e}");
                false
            }
        }
    }

    /// Closes the connection and reports the session.
    fn close(self) -> Report {
        let _ = self.stream.shutdown(std::net::Shutdown::Both);
        Report {
            games: self.games,
            last: self.last,
        }
    }

    fn plies(&self) -> usize {
        self.game.as_ref().map_or(0, |g| g.moves.len())
    }

    fn side_to_move(&self) -> Color {
        self.engine.side_to_move()
    }

    /// Our view of the result: GAMEEND reason and a result line.
    fn verdict(&self) -> (u8, String) {
        let us = self.game.as_ref().map(|g| g.us).unwrap_or(Color::White);
        match self.engine.outcome() {
            Some(Outcome::Win(c)) => {
                let score = if c == Color::White { "2-0" } else { "0-2" };
                let reason = if c == us { 3 } else { 1 };
                (reason, format!("{score} (no legal move)"))
            }
            Some(Outcome::Draw(why)) => (2, format!("1-1 ({why})")),
            None => (0, "* (ended before its end)".to_string()),
        }
    }

    /// Our answer to the peer's GAMEEND with `peer_reason` (from its view): the rules' result
    /// when they decide the position; otherwise a resignation (`1`) is our win (`3`), at the
    /// game's move count the game is a draw (`2`: a position the rules do not decide is a draw
    /// when the game's length is reached), a draw (`2`) is accepted; otherwise `0`.
    fn answer_verdict(&self, peer_reason: u8) -> (u8, String) {
        let (ours, result) = self.verdict();
        let Some(g) = self.game.as_ref() else {
            return (ours, result);
        };
        if ours != 0 {
            return (ours, result);
        }
        let our_win = if g.us == Color::White { "2-0" } else { "0-2" };
        match peer_reason {
            1 => (3, format!("{our_win} (the opponent resigned)")),
            _ if g.at_move_limit() => (2, format!("1-1 (move limit: {} moves)", g.moves_per_game)),
            2 => (2, "1-1 (a draw by the opponent's GAMEEND)".to_string()),
            3 => (
                0,
                "* (the opponent claimed a win the rules do not give)".to_string(),
            ),
            _ => (0, "* (ended by the opponent before its end)".to_string()),
        }
    }

    /// Prints the move line of the initiator on stderr: ply (from the game's start), move,
    /// the mover's colour and its time in seconds.
    fn move_line(&mut self, mover: Color, name: &str) {
        let Some(g) = self.game.as_mut() else { return };
        let secs = g.turn_started.elapsed().as_secs_f64();
        g.turn_started = Instant::now();
        if self.opts.moves_to_stderr {
            eprintln!(
                "ply {}: {name} ({}, {secs:.1} s)",
                g.moves.len(),
                if mover == Color::White {
                    "white"
                } else {
                    "black"
                }
            );
        }
    }

    fn start_search(&mut self) {
        let g = self.game.as_ref().expect("a game");
        let limits = clock_limits(
            g.minutes,
            g.moves_per_game,
            g.made_by(g.us),
            g.used_ms,
            self.opts.movetime,
        );
        let tx = self.tx.clone();
        self.engine.go(
            limits,
            false,
            Naming::Hub,
            Box::new(move |ev| {
                if let Event::BestMove { best, .. } = ev {
                    let _ = tx.send(Input::Best(best));
                }
            }),
        );
        let g = self.game.as_mut().expect("a game");
        g.searching = true;
        g.search_started = Instant::now();
    }

    /// Ends the game from our side (on our turn): sends GAMEEND and waits for the answer.
    fn end_game(&mut self, reason: u8, result: String) {
        self.engine.stop();
        let stop = u8::from(self.initiator || self.stop_after);
        self.send(&Message::GameEnd { reason, stop });
        let plies = self.plies();
        self.say(&format!("game over after {plies} plies: {result}"));
        self.last = Some(result);
        if let Some(g) = self.game.as_mut() {
            g.searching = false;
            g.end_sent = Some(Instant::now());
        }
    }

    fn finish_game(&mut self) {
        self.engine.stop();
        self.game = None;
        self.games += 1;
    }

    /// On our turn with no search running: end the game if it is over, else search.
    fn our_turn(&mut self) {
        let Some(g) = self.game.as_ref() else { return };
        if g.searching || g.end_sent.is_some() || self.side_to_move() != g.us {
            return;
        }
        if self.engine.outcome().is_some() {
            let (reason, result) = self.verdict();
            self.end_game(reason, result);
        } else if g.moves_per_game > 0 && g.made_by(g.us) >= g.moves_per_game {
            // The game's length is reached (as Moby Dam and Scan read the GAMEREQ): the game
            // ends here, a draw when the rules do not decide it. GAMEEND first, then the CHAT
            // (pydraughts keeps only the first of two messages that arrive together).
            let n = g.moves_per_game;
            self.end_game(2, format!("1-1 (move limit: {n} moves)"));
            self.send(&Message::Chat(format!(
                "game ended: all {n} moves played, a draw by the game's length"
            )));
        } else {
            self.start_search();
        }
    }

    fn new_game(
        &mut self,
        fen: String,
        us: Color,
        minutes: u32,
        moves: u32,
        hold: Option<SlotHold>,
    ) -> Result<(), String> {
        self.engine.new_game();
        self.engine.set_position(Some(&fen), &[])?;
        let start_side = self.engine.side_to_move();
        self.game = Some(GameState {
            start_fen: fen,
            start_side,
            moves: Vec::new(),
            us,
            minutes,
            moves_per_game: moves,
            used_ms: 0,
            searching: false,
            search_started: Instant::now(),
            turn_started: Instant::now(),
            end_sent: None,
            _hold: hold,
        });
        Ok(())
    }

    fn on_game_req(&mut self, m: Message) {
        let Message::GameReq {
            version,
            name,
            follower,
            minutes,
            moves,
            position,
        } = m
        else {
            return;
        };
        let me = self.opts.name.clone();
        if self.initiator {
            self.protocol_error("GAMEREQ from the follower ignored");
            return;
        }
        if self.game.is_some() {
            self.send(&Message::GameAcc { name: me, code: 2 });
            self.protocol_error("GAMEREQ during a game: refused (code 2), the game goes on");
            return;
        }
        if version != 1 {
            self.send(&Message::GameAcc { name: me, code: 1 });
            self.say(&format!(
                "refused a game from {name}: DXP version {version}"
            ));
            return;
        }
        let fen = match &position {
            None => START_FEN.to_string(),
            Some((side, squares)) => fen_of(*side, squares),
        };
        // One game at a time across the follower's connections.
        let Some(hold) = self.opts.slot.take(Duration::from_millis(SLOT_WAIT_MS)) else {
            self.protocol_error(&format!(
                "busy: a game on another connection is in progress; refused a game from {name}"
            ));
            self.send(&Message::GameAcc { name: me, code: 2 });
            return;
        };
        match self.new_game(fen.clone(), follower, minutes, moves, Some(hold)) {
            Ok(()) => {
                self.send(&Message::GameAcc { name: me, code: 0 });
                self.say(&format!(
                    "game accepted from {name}: damiera plays {}, {minutes} min for {} moves, from {fen}",
                    if follower == Color::White { "white" } else { "black" },
                    if moves == 0 { "all".to_string() } else { moves.to_string() }
                ));
                self.our_turn();
            }
            Err(e) => {
                self.send(&Message::GameAcc { name: me, code: 2 });
                self.say(&format!("refused a game from {name}: bad position: {e}"));
            }
        }
    }

    /// A message that does not parse: reported with a CHAT; a malformed GAMEREQ is refused
    /// (GAMEACC code 2) and a malformed MOVE on the peer's turn ends the game like an illegal
    /// move.
    fn on_malformed(&mut self, e: &str) {
        self.protocol_error(&format!("malformed message: {e}"));
        if e.starts_with("GAMEREQ") && !self.initiator && self.game.is_none() {
            let name = self.opts.name.clone();
            self.send(&Message::GameAcc { name, code: 2 });
        } else if e.starts_with("MOVE") {
            if let Some(g) = self.game.as_ref() {
                if g.end_sent.is_none() && !g.searching && self.side_to_move() != g.us {
                    let score = if g.us == Color::White { "2-0" } else { "0-2" };
                    self.end_game(3, format!("{score} (malformed move by the opponent)"));
                }
            }
        }
    }

    fn protocol_error(&mut self, what: &str) {
        log::warn!("dxp: {what}");
        self.say(&format!("error: {what}"));
        self.send(&Message::Chat(format!("error: {what}")));
    }

    fn on_move(&mut self, from: u8, to: u8, captured: Vec<u8>) {
        let Some(g) = self.game.as_ref() else {
            self.protocol_error("MOVE outside a game ignored");
            return;
        };
        if g.end_sent.is_some() {
            return; // crossed our GAMEEND
        }
        if self.side_to_move() == g.us {
            self.protocol_error(&format!(
                "MOVE {} on damiera's turn ignored",
                hub_form(from, to, &captured)
            ));
            return;
        }
        let want = hub_form(from, to, &captured);
        let hub = self.engine.legal_moves(Naming::Hub);
        let Some(i) = hub.iter().position(|m| *m == want) else {
            // An illegal move ends the game: we claim it (reason 3), with a CHAT saying why.
            let text = format!("illegal move {want} in {}", self.engine.fen());
            self.protocol_error(&text);
            self.end_game(
                3,
                format!(
                    "{} (illegal move by the opponent)",
                    match self.game.as_ref().map(|g| g.us) {
                        Some(Color::White) => "2-0",
                        _ => "0-2",
                    }
                ),
            );
            return;
        };
        let native = self.engine.legal_moves(Naming::Native)[i].clone();
        let mover = self.side_to_move();
        self.game
            .as_mut()
            .expect("a game")
            .moves
            .push(native.clone());
        self.move_line(mover, &native);
        if self.sync() {
            self.our_turn();
        }
    }

    fn on_best(&mut self, best: Option<String>) {
        let Some(g) = self.game.as_mut() else { return };
        if !g.searching {
            return;
        }
        g.searching = false;
        let spent = g.search_started.elapsed().as_millis() as u64;
        g.used_ms += spent;
        let Some(hub) = best else {
            let (reason, result) = self.verdict();
            self.end_game(reason, result);
            return;
        };
        let Some(msg) = move_message(&hub, (spent / 1000) as u32) else {
            log::error!("dxp: cannot write move {hub}");
            return;
        };
        let Some(i) = self
            .engine
            .legal_moves(Naming::Hub)
            .iter()
            .position(|m| *m == hub)
        else {
            log::error!("dxp: own move {hub} is not legal");
            return;
        };
        let native = self.engine.legal_moves(Naming::Native)[i].clone();
        if !self.send(&msg) {
            return;
        }
        let mover = self.side_to_move();
        self.game
            .as_mut()
            .expect("a game")
            .moves
            .push(native.clone());
        self.move_line(mover, &native);
        self.sync();
    }

    fn on_game_end(&mut self, reason: u8, stop: u8) {
        if stop == 1 {
            self.stop_after = true;
        }
        let Some(g) = self.game.as_ref() else {
            return; // a late confirmation
        };
        if g.end_sent.is_some() {
            // The answer to ours.
            self.finish_game();
            return;
        }
        self.engine.stop();
        if let Some(g) = self.game.as_mut() {
            g.searching = false;
        }
        let (ours, result) = self.answer_verdict(reason);
        let stop_ours = u8::from(self.initiator || self.stop_after);
        self.send(&Message::GameEnd {
            reason: ours,
            stop: stop_ours,
        });
        let plies = self.plies();
        self.say(&format!(
            "game over after {plies} plies: {result} (the opponent ended it: reason {reason})"
        ));
        self.last = Some(result);
        self.finish_game();
    }

    fn on_back_req(&mut self, number: u32, color: Color) {
        let Some(g) = self.game.as_ref() else {
            self.send(&Message::BackAcc { code: 1 });
            return;
        };
        // Ply of (move `number`, `color` to move) counted from the game's start.
        let first_black = g.start_side == Color::Black;
        let ply =
            (i64::from(number) - 1) * 2 + i64::from(color == Color::Black) - i64::from(first_black);
        if number == 0 || ply < 0 || ply as usize > g.moves.len() || g.end_sent.is_some() {
            self.send(&Message::BackAcc { code: 1 });
            return;
        }
        self.engine.stop();
        let g = self.game.as_mut().expect("a game");
        g.searching = false;
        g.moves.truncate(ply as usize);
        self.send(&Message::BackAcc { code: 0 });
        self.say(&format!(
            "took back to move {number}, {} to move",
            if color == Color::White {
                "white"
            } else {
                "black"
            }
        ));
        if self.sync() {
            self.our_turn();
        }
    }

    /// How long the peer may stay silent now (see [`Options::idle_timeout_ms`]): `None` while
    /// damiera thinks or is to move, or with no idle timeout.
    fn idle_limit(&self) -> Option<Duration> {
        if self.opts.idle_timeout_ms == 0 {
            return None;
        }
        let idle = Duration::from_millis(self.opts.idle_timeout_ms);
        match self.game.as_ref() {
            None => Some(idle),
            Some(g) if g.end_sent.is_some() || g.searching || self.side_to_move() == g.us => None,
            Some(g) => Some(idle + Duration::from_secs(u64::from(g.minutes) * 60)),
        }
    }

    /// Runs until the connection ends, or (initiator, or after a stop code 1) the game ends.
    fn run(&mut self) {
        loop {
            let timeout = match self.game.as_ref() {
                Some(g) if g.end_sent.is_some() => {
                    Duration::from_millis(self.opts.answer_timeout_ms.min(10_000))
                }
                _ => Duration::from_millis(500),
            };
            let input = match self.rx.recv_timeout(timeout) {
                Ok(i) => i,
                Err(RecvTimeoutError::Timeout) => {
                    if let Some(limit) = self.idle_limit() {
                        if self.last_heard.elapsed() >= limit {
                            self.protocol_error(&format!(
                                "nothing from the peer in {} s: connection closed",
                                limit.as_secs()
                            ));
                            if self.game.is_some() {
                                self.say("game over: * (the opponent went silent)");
                                self.last = Some("* (the opponent went silent)".into());
                                self.engine.stop();
                                self.game = None;
                            }
                            return;
                        }
                    }
                    if let Some(g) = self.game.as_ref() {
                        if let Some(t) = g.end_sent {
                            if t.elapsed()
                                >= Duration::from_millis(self.opts.answer_timeout_ms.min(10_000))
                            {
                                log::warn!("dxp: no GAMEEND answer; the game is over anyway");
                                self.finish_game();
                            }
                        }
                    }
                    if self.game.is_none() && (self.initiator || self.stop_after) && self.games > 0
                    {
                        return;
                    }
                    continue;
                }
                Err(RecvTimeoutError::Disconnected) => return,
            };
            match input {
                Input::Closed => {
                    if self.game.is_some() {
                        self.say("error: the connection was closed during the game");
                        self.last
                            .get_or_insert_with(|| "* (connection closed)".into());
                        self.engine.stop();
                        self.game = None;
                    }
                    return;
                }
                Input::Best(b) => self.on_best(b),
                Input::Peer(Err(e)) => {
                    self.last_heard = Instant::now();
                    self.on_malformed(&e)
                }
                Input::Peer(Ok(m)) => {
                    self.last_heard = Instant::now();
                    log::debug!("dxp recv {}", m.text());
                    match m {
                        Message::GameReq { .. } => self.on_game_req(m),
                        Message::GameAcc { .. } => {
                            self.protocol_error("unexpected GAMEACC ignored")
                        }
                        Message::Move {
                            from, to, captured, ..
                        } => self.on_move(from, to, captured),
                        Message::GameEnd { reason, stop } => self.on_game_end(reason, stop),
                        Message::Chat(t) => self.say(&format!("chat: {t}")),
                        Message::BackReq { number, color } => self.on_back_req(number, color),
                        Message::BackAcc { .. } => {
                            self.protocol_error("unexpected BACKACC ignored")
                        }
                    }
                }
            }
            if self.game.is_none() && self.games > 0 && (self.initiator || self.stop_after) {
                return;
            }
        }
    }
}

fn session<'a>(
    stream: TcpStream,
    opts: &'a Options,
    initiator: bool,
    log: &'a mut dyn Write,
) -> Result<Session<'a>, String> {
    let (tx, rx) = mpsc::channel();
    let reader = stream.try_clone().map_err(|e| e.to_string())?;
    let _ = stream.set_nodelay(true);
    spawn_reader(reader, tx.clone());
    let engine = Engine::new(Variant::International, opts.hash_mib);
    Ok(Session {
        stream,
        engine,
        opts,
        rx,
        tx,
        game: None,
        games: 0,
        last: None,
        initiator,
        stop_after: false,
        last_heard: Instant::now(),
        log,
    })
}

/// Serves one connection as the follower: answers game requests and plays until the peer
/// closes the connection (or ends a game with stop code 1). Progress lines go to `log`.
pub fn follow(stream: TcpStream, opts: &Options, log: &mut dyn Write) -> Result<Report, String> {
    let mut s = session(stream, opts, false, log)?;
    s.run();
    Ok(s.close())
}

/// A game request from the initiator's side.
#[derive(Clone, Debug)]
pub struct GameRequest {
    /// damiera's colour (the follower gets the other).
    pub color: Color,
    /// Thinking time per player, in minutes.
    pub minutes: u32,
    /// The game's length in moves a side (0: no limit).
    pub moves: u32,
    /// A start position (FEN); `None`: the normal start.
    pub fen: Option<String>,
}

/// Plays one game as the initiator on `stream`: sends the GAMEREQ, waits for the GAMEACC,
/// plays, and ends with GAMEEND. Errors: refused or unanswered request, bad FEN.
pub fn initiate(
    stream: TcpStream,
    opts: &Options,
    req: &GameRequest,
    log: &mut dyn Write,
) -> Result<Report, String> {
    let mut s = session(stream, opts, true, log)?;
    let fen = req.fen.clone().unwrap_or_else(|| START_FEN.to_string());
    // The game is set up before the request (the FEN checked, the squares derived); the
    // messages before the GAMEACC are handled below, so nothing plays until it comes.
    s.new_game(fen, req.color, req.minutes, req.moves, None)?;
    let position = req.fen.as_ref().map(|_| squares_of(&s.engine));
    let name = opts.name.clone();
    s.send(&Message::GameReq {
        version: 1,
        name,
        follower: req.color.opponent(),
        minutes: req.minutes,
        moves: req.moves,
        position,
    });
    let deadline = Instant::now() + Duration::from_millis(opts.answer_timeout_ms.max(1));
    loop {
        let left = deadline.saturating_duration_since(Instant::now());
        match s.rx.recv_timeout(left) {
            Ok(Input::Peer(Ok(Message::GameAcc { name, code: 0 }))) => {
                s.say(&format!("game accepted by {name}"));
                if let Some(g) = s.game.as_mut() {
                    g.turn_started = Instant::now();
                }
                break;
            }
            Ok(Input::Peer(Ok(Message::GameAcc { name, code }))) => {
                return Err(format!("{name} refused the game (GAMEACC code {code})"));
            }
            Ok(Input::Peer(Ok(Message::Chat(t)))) => s.say(&format!("chat: {t}")),
            Ok(Input::Peer(Ok(m))) => log::warn!("dxp: before GAMEACC, ignored: {}", m.text()),
            Ok(Input::Peer(Err(e))) => log::warn!("dxp: malformed message before GAMEACC: {e}"),
            Ok(Input::Best(_)) => {}
            Ok(Input::Closed) | Err(RecvTimeoutError::Disconnected) => {
                return Err("the connection was closed before a GAMEACC".into())
            }
            Err(RecvTimeoutError::Timeout) => return Err("no GAMEACC in time".into()),
        }
    }
    s.our_turn();
    s.run();
    Ok(s.close())
}
