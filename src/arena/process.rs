//! A child engine process and the two protocols the match runner speaks to it: damiera's
//! native UCI-style protocol and the Hub protocol (docs/protocol.md).
//!
//! stdout is read on a reader thread per process, which sends each line (with the instant it
//! arrived) over a channel; waits use `recv_timeout`, so a hung engine is timed out and
//! killed. The child runs in its own process group, so a Ctrl-C in the terminal reaches only
//! the match runner, which then kills its engines itself.

use crate::variant::Variant;
use std::io::{BufRead, BufReader, Write};
use std::os::unix::process::CommandExt;
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// How long the handshake (and `isready` / `ping` between games) may take.
pub const HANDSHAKE_TIMEOUT: Duration = Duration::from_secs(10);

/// The protocol an engine speaks.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Protocol {
    /// damiera's native UCI-style protocol (`uci`, `position`, `go`, `bestmove`).
    Native,
    /// The Hub protocol (`hub`, `pos`, `level`, `go think`, `done`).
    Hub,
    /// DXP over TCP: the "command" is the HOST:PORT of a follower (docs/dxp.md).
    Dxp,
}

impl std::str::FromStr for Protocol {
    type Err = String;
    fn from_str(s: &str) -> Result<Protocol, String> {
        match s.to_ascii_lowercase().as_str() {
            "native" | "uci" => Ok(Protocol::Native),
            "hub" => Ok(Protocol::Hub),
            "dxp" => Ok(Protocol::Dxp),
            _ => Err(format!(
                "unknown protocol '{s}' (expected native, hub or dxp)"
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
    /// Options sent after the handshake, `(name, value)`: `setoption name N value V` (native)
    /// or `set-param name=N value=V` (Hub).
    pub options: Vec<(String, String)>,
}

/// The limits of one `go`.
#[derive(Clone, Copy, Debug, Default)]
pub struct GoLimits {
    /// Milliseconds for this move.
    pub movetime: Option<u64>,
    /// Depth limit in plies.
    pub depth: Option<u32>,
    /// Clocks in milliseconds: (White's time, Black's time, increment per move).
    pub clock: Option<(u64, u64, u64)>,
    /// Whether White is to move (for the Hub form, which sends only the mover's clock).
    pub white_to_move: bool,
    /// Plies the match can still play before its `--max-plies` adjudication (`None`:
    /// unknown); a DXP GAMEREQ's move count is chosen not to end the game before that.
    pub plies_left: Option<usize>,
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

enum ReadEvent {
    Line(Instant, String),
    Eof,
}

/// A running engine process.
pub struct EngineProcess {
    /// What it was started from.
    pub spec: EngineSpec,
    variant: Variant,
    child: Child,
    stdin: ChildStdin,
    rx: Receiver<ReadEvent>,
    alive: bool,
    abort: Arc<AtomicBool>,
}

impl EngineProcess {
    /// Starts the engine and performs the handshake for `variant` (with the options).
    ///
    /// # Errors
    /// One line naming the engine: the command does not start, or the handshake fails (no
    /// `uciok`/`readyok` or `wait`/`ready` within [`HANDSHAKE_TIMEOUT`], an error reply, or the
    /// process exits).
    pub fn start(
        spec: &EngineSpec,
        variant: Variant,
        abort: Arc<AtomicBool>,
    ) -> Result<EngineProcess, String> {
        let who = format!("engine '{}' ({})", spec.name, spec.command.join(" "));
        let (prog, args) = spec
            .command
            .split_first()
            .ok_or_else(|| format!("{who}: empty command"))?;
        let mut child = Command::new(prog)
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .process_group(0)
            .spawn()
            .map_err(|e| format!("{who}: cannot start: {e}"))?;
        let stdin = child.stdin.take().expect("piped");
        let stdout = child.stdout.take().expect("piped");
        let (tx, rx) = mpsc::channel();
        std::thread::Builder::new()
            .name("engine-reader".into())
            .spawn(move || {
                let mut r = BufReader::new(stdout);
                let mut buf = Vec::new();
                loop {
                    buf.clear();
                    match r.read_until(b'\n', &mut buf) {
                        Ok(0) | Err(_) => {
                            let _ = tx.send(ReadEvent::Eof);
                            return;
                        }
                        Ok(_) => {
                            let line = String::from_utf8_lossy(&buf).trim().to_string();
                            if tx.send(ReadEvent::Line(Instant::now(), line)).is_err() {
                                return;
                            }
                        }
                    }
                }
            })
            .map_err(|e| format!("{who}: cannot start a reader thread: {e}"))?;
        let mut p = EngineProcess {
            spec: spec.clone(),
            variant,
            child,
            stdin,
            rx,
            alive: true,
            abort,
        };
        p.handshake()
            .map_err(|e| format!("{who}: handshake failed: {e}"))?;
        Ok(p)
    }

    /// Whether the process is believed to be running and usable.
    pub fn alive(&self) -> bool {
        self.alive
    }

    fn handshake(&mut self) -> Result<(), String> {
        let fail = |f: Failure| match f {
            Failure::Crash(m) => format!("the engine exited ({m})"),
            Failure::Timeout(d) => format!("no answer within {} ms", d.as_millis()),
            Failure::Aborted => "interrupted".to_string(),
            Failure::GameEnd { note, .. } => note,
        };
        let deadline = Instant::now() + HANDSHAKE_TIMEOUT;
        // The protocol's greeting and its answer, the form of an option command, the name of
        // the variant option, the command that confirms the options and its answer, and the
        // prefix of an error line.
        let (greeting, welcome, set, variant_name, confirm, done, error) = match self.spec.protocol
        {
            Protocol::Native => (
                "uci",
                "uciok",
                "setoption name {n} value {v}",
                "Variant",
                "isready",
                "readyok",
                "info string error",
            ),
            // DXP engines never get here (`Player::start` connects them).
            Protocol::Hub | Protocol::Dxp => (
                "hub",
                "wait",
                "set-param name={n} value={v}",
                "variant",
                "init",
                "ready",
                "error",
            ),
        };
        self.send(greeting).map_err(fail)?;
        self.wait_line(deadline, |l| l == welcome).map_err(fail)?;
        let variant = self.variant.to_string();
        let mut cmds = vec![set.replace("{n}", variant_name).replace("{v}", &variant)];
        for (n, v) in &self.spec.options {
            cmds.push(set.replace("{n}", n).replace("{v}", v));
        }
        cmds.push(confirm.to_string());
        for c in cmds {
            self.send(&c).map_err(fail)?;
        }
        let mut err = None;
        self.wait_line(deadline, |l| {
            if l.starts_with(error) && err.is_none() {
                err = Some(l.to_string());
            }
            l == done
        })
        .map_err(fail)?;
        if let Some(e) = err {
            return Err(format!("'{e}'"));
        }
        Ok(())
    }

    fn send(&mut self, line: &str) -> Result<(), Failure> {
        let r = writeln!(self.stdin, "{line}").and_then(|_| self.stdin.flush());
        r.map_err(|e| {
            self.alive = false;
            Failure::Crash(format!("cannot write to it: {e}"))
        })
    }

    /// Reads lines until `want` accepts one (returned with its arrival time) or the deadline.
    fn wait_line(
        &mut self,
        deadline: Instant,
        mut want: impl FnMut(&str) -> bool,
    ) -> Result<(Instant, String), Failure> {
        let start = Instant::now();
        loop {
            if self.abort.load(Ordering::SeqCst) {
                self.kill();
                return Err(Failure::Aborted);
            }
            let now = Instant::now();
            if now >= deadline {
                self.kill();
                return Err(Failure::Timeout(now - start));
            }
            let slice = (deadline - now).min(Duration::from_millis(50));
            match self.rx.recv_timeout(slice) {
                Ok(ReadEvent::Line(t, l)) => {
                    if want(&l) {
                        return Ok((t, l));
                    }
                }
                Ok(ReadEvent::Eof) | Err(RecvTimeoutError::Disconnected) => {
                    self.alive = false;
                    let status = self
                        .child
                        .wait()
                        .map(|s| s.to_string())
                        .unwrap_or_else(|e| e.to_string());
                    return Err(Failure::Crash(format!("end of output, {status}")));
                }
                Err(RecvTimeoutError::Timeout) => {}
            }
        }
    }

    /// Starts a new game (`ucinewgame` + `isready`, or `new-game` + `ping`) and waits for the
    /// engine to be ready.
    ///
    /// # Errors
    /// The engine crashed or did not answer within [`HANDSHAKE_TIMEOUT`].
    pub fn new_game(&mut self) -> Result<(), Failure> {
        let deadline = Instant::now() + HANDSHAKE_TIMEOUT;
        match self.spec.protocol {
            Protocol::Native => {
                self.send("ucinewgame")?;
                self.send("isready")?;
                self.wait_line(deadline, |l| l == "readyok")?;
            }
            Protocol::Hub | Protocol::Dxp => {
                self.send("new-game")?;
                self.send("ping")?;
                self.wait_line(deadline, |l| l == "pong")?;
            }
        }
        Ok(())
    }

    /// Asks for a move. `start_fen` is the game's start position (`None`: the variant's
    /// start), `moves` the native names of the moves played since, `hub_moves` the same moves
    /// in Hub form (used by Hub engines), `hub_start` the Hub position string of the start.
    /// Returns the move text as the engine wrote it and the wall time from sending `go` to
    /// receiving the answer. `deadline_after` is the longest wait before the engine is killed.
    ///
    /// # Errors
    /// A [`Failure`]: crash, timeout (the engine has been killed) or abort.
    pub fn go(
        &mut self,
        start_fen: Option<&str>,
        moves: &[String],
        hub_start: &str,
        hub_moves: &[String],
        limits: &GoLimits,
        deadline_after: Duration,
    ) -> Result<(String, Duration), Failure> {
        // Drop stale lines (e.g. late info lines) before a new request.
        while let Ok(ev) = self.rx.try_recv() {
            if let ReadEvent::Eof = ev {
                self.alive = false;
                return Err(Failure::Crash("end of output".into()));
            }
        }
        match self.spec.protocol {
            Protocol::Native => {
                let mut pos = match start_fen {
                    None => "position startpos".to_string(),
                    Some(f) => format!("position fen {f}"),
                };
                if !moves.is_empty() {
                    pos.push_str(" moves ");
                    pos.push_str(&moves.join(" "));
                }
                let mut go = "go".to_string();
                if let Some(d) = limits.depth {
                    go.push_str(&format!(" depth {d}"));
                }
                if let Some(ms) = limits.movetime {
                    go.push_str(&format!(" movetime {ms}"));
                }
                if let Some((w, b, inc)) = limits.clock {
                    go.push_str(&format!(" wtime {w} btime {b} winc {inc} binc {inc}"));
                }
                self.send(&pos)?;
                self.send(&go)?;
            }
            Protocol::Hub | Protocol::Dxp => {
                let mut pos = format!("pos pos={hub_start}");
                if !hub_moves.is_empty() {
                    pos.push_str(&format!(" moves=\"{}\"", hub_moves.join(" ")));
                }
                let mut level = "level".to_string();
                if let Some(d) = limits.depth {
                    level.push_str(&format!(" depth={d}"));
                }
                if let Some(ms) = limits.movetime {
                    level.push_str(&format!(" move-time={:.3}", ms as f64 / 1000.0));
                }
                if let Some((w, b, inc)) = limits.clock {
                    // Hub: `time` excludes the increment, which the engine adds before the
                    // move; our clock already holds what is available for this move.
                    let t = if limits.white_to_move { w } else { b };
                    level.push_str(&format!(
                        " time={:.3} inc={:.3}",
                        t.saturating_sub(inc) as f64 / 1000.0,
                        inc as f64 / 1000.0
                    ));
                }
                self.send(&pos)?;
                self.send(&level)?;
                self.send("go think")?;
            }
        }
        let sent = Instant::now();
        let deadline = sent + deadline_after;
        let hub = self.spec.protocol == Protocol::Hub;
        let (t, line) = self.wait_line(deadline, |l| {
            if hub {
                l.starts_with("done")
            } else {
                l.starts_with("bestmove")
            }
        })?;
        let text = if hub {
            hub_field(&line, "move").unwrap_or_default()
        } else {
            line.split_whitespace().nth(1).unwrap_or("").to_string()
        };
        Ok((text, t.saturating_duration_since(sent)))
    }

    /// Kills the process (no-op if it is already gone).
    pub fn kill(&mut self) {
        self.alive = false;
        let _ = self.child.kill();
        let _ = self.child.wait();
    }

    /// Asks the engine to quit, waits briefly, then kills it.
    pub fn quit(&mut self) {
        if self.alive {
            let _ = writeln!(self.stdin, "quit").and_then(|_| self.stdin.flush());
            let until = Instant::now() + Duration::from_millis(300);
            while Instant::now() < until {
                if let Ok(Some(_)) = self.child.try_wait() {
                    self.alive = false;
                    return;
                }
                std::thread::sleep(Duration::from_millis(10));
            }
        }
        self.kill();
    }
}

impl Drop for EngineProcess {
    fn drop(&mut self) {
        self.quit();
    }
}

/// The value of `name=value` in a Hub line (quotes removed).
pub fn hub_field(line: &str, name: &str) -> Option<String> {
    let key = format!("{name}=");
    let start = line
        .match_indices(&key)
        .find(|(i, _)| *i == 0 || line.as_bytes()[i - 1] == b' ')?
        .0
        + key.len();
    let rest = &line[start..];
    if let Some(q) = rest.strip_prefix('"') {
        Some(q.split('"').next().unwrap_or("").to_string())
    } else {
        Some(rest.split_whitespace().next().unwrap_or("").to_string())
    }
}

/// Hub square numbers (pydraughts 0.6 numbering, docs/protocol.md "Positions and moves").
pub mod hubsq {
    use crate::variant::Variant;

    use crate::protocol::hub::{squares, Numbering};

    /// The native square name of Hub square `n` (1..=32) in the 0.6 numbering.
    pub fn to_native(v: Variant, n: u32) -> Option<String> {
        squares::to_native(v, Numbering::Variant, n)
    }

    /// The native name of internal square `i` (the order of the 32 characters of a Hub
    /// position: square 1 top left as the first mover sees it).
    pub fn internal(v: Variant, i: u32) -> Option<String> {
        squares::internal_square(v, i)
    }

    /// A native move in Hub form (`from x to x captured...` with native square names, as
    /// `Engine::legal_moves(Naming::Hub)` gives it) with squares as 0.6 numbers.
    pub fn move_to_numbers(v: Variant, hub_form: &str) -> String {
        let sep = if hub_form.contains('-') { "-" } else { "x" };
        hub_form
            .split(['-', 'x', ':'])
            .map(|sq| {
                squares::to_hub(v, Numbering::Variant, sq)
                    .map(|n| n.to_string())
                    .unwrap_or_else(|| sq.to_string())
            })
            .collect::<Vec<_>>()
            .join(sep)
    }

    /// A Hub move as the engine wrote it (0.6 numbers) with native square names, ready for
    /// `Engine::move_name`. Tokens that are not numbers are kept.
    pub fn move_from_numbers(v: Variant, text: &str) -> String {
        let sep = if text.contains('-') { "-" } else { "x" };
        text.split(['-', 'x'])
            .map(|t| {
                t.parse::<u32>()
                    .ok()
                    .and_then(|n| to_native(v, n))
                    .unwrap_or_else(|| t.to_string())
            })
            .collect::<Vec<_>>()
            .join(sep)
    }

    /// The Hub position string of a FEN as damiera writes it (explicit squares, `K` kings).
    ///
    /// # Errors
    /// A square that is not on the board or a malformed FEN.
    pub fn position(v: Variant, fen: &str) -> Result<String, String> {
        let mut fields = fen.trim().split(':');
        let side = fields.next().unwrap_or("");
        let swap = v == Variant::English;
        // 32 squares on 8x8, 50 on International (Scan's 51-character form).
        let n = squares::squares(v);
        let mut board = vec!['e'; n as usize];
        for f in fields {
            let (colour, list) = f.split_at(f.len().min(1));
            let white = match colour {
                "W" => true,
                "B" => false,
                _ => return Err(format!("bad FEN field '{f}'")),
            };
            for item in list.split(',').filter(|s| !s.is_empty()) {
                let (king, sq) = match item.strip_prefix('K') {
                    Some(s) => (true, s),
                    None => (false, item),
                };
                let i = (1..=n)
                    .find(|&i| internal(v, i).as_deref() == Some(sq))
                    .ok_or_else(|| format!("bad square '{sq}' in FEN"))?;
                // 'w' is the first mover: White, except in English.
                let first_mover = white != swap;
                board[i as usize - 1] = match (first_mover, king) {
                    (true, false) => 'w',
                    (true, true) => 'W',
                    (false, false) => 'b',
                    (false, true) => 'B',
                };
            }
        }
        let side = match (side, swap) {
            ("W", false) | ("B", true) => 'W',
            ("B", false) | ("W", true) => 'B',
            _ => return Err(format!("bad side to move '{side}'")),
        };
        Ok(std::iter::once(side).chain(board).collect())
    }
}

/// An engine of the match: a process speaking the native protocol or Hub, or a DXP follower.
pub enum Player {
    /// A process on stdin/stdout.
    Process(EngineProcess),
    /// A DXP follower over TCP.
    Dxp(super::dxp_engine::DxpEngine),
}

impl Player {
    /// Starts the process, or connects to the DXP follower.
    ///
    /// # Errors
    /// As [`EngineProcess::start`] and [`super::dxp_engine::DxpEngine::connect`].
    pub fn start(
        spec: &EngineSpec,
        variant: Variant,
        abort: Arc<AtomicBool>,
    ) -> Result<Player, String> {
        Ok(match spec.protocol {
            Protocol::Dxp => {
                Player::Dxp(super::dxp_engine::DxpEngine::connect(spec, variant, abort)?)
            }
            _ => Player::Process(EngineProcess::start(spec, variant, abort)?),
        })
    }

    /// Whether it can still play.
    pub fn alive(&self) -> bool {
        match self {
            Player::Process(p) => p.alive(),
            Player::Dxp(d) => d.alive(),
        }
    }

    /// Prepares for a new game.
    ///
    /// # Errors
    /// As [`EngineProcess::new_game`].
    pub fn new_game(&mut self) -> Result<(), Failure> {
        match self {
            Player::Process(p) => p.new_game(),
            Player::Dxp(d) => d.new_game(),
        }
    }

    /// Asks for a move; see [`EngineProcess::go`].
    ///
    /// # Errors
    /// A [`Failure`].
    pub fn go(
        &mut self,
        start_fen: Option<&str>,
        moves: &[String],
        hub_start: &str,
        hub_moves: &[String],
        limits: &GoLimits,
        deadline_after: Duration,
    ) -> Result<(String, Duration), Failure> {
        match self {
            Player::Process(p) => p.go(
                start_fen,
                moves,
                hub_start,
                hub_moves,
                limits,
                deadline_after,
            ),
            Player::Dxp(d) => d.go(start_fen, moves, hub_moves, limits, deadline_after),
        }
    }

    /// The game is over after `hub_moves` with `result` for `reason` (DXP: tell the follower,
    /// with the GAMEEND reason of that result).
    pub fn game_over(
        &mut self,
        hub_moves: &[String],
        result: super::GameResult,
        reason: super::Reason,
    ) {
        if let Player::Dxp(d) = self {
            d.game_over(hub_moves, result, reason);
        }
    }

    /// Kills the process or closes the connection.
    pub fn kill(&mut self) {
        match self {
            Player::Process(p) => p.kill(),
            Player::Dxp(d) => d.kill(),
        }
    }

    /// Asks the engine to quit (ends a DXP game in progress first).
    pub fn quit(&mut self) {
        match self {
            Player::Process(p) => p.quit(),
            Player::Dxp(d) => d.quit(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hub_positions_and_moves() {
        let start = "Wbbbbbbbbbbbbeeeeeeeewwwwwwwwwwww";
        let e = crate::engine::Engine::new(Variant::English, 1);
        assert_eq!(hubsq::position(Variant::English, &e.fen()).unwrap(), start);
        for v in [Variant::Italian, Variant::Russian, Variant::Brazilian] {
            let e = crate::engine::Engine::new(v, 1);
            assert_eq!(hubsq::position(v, &e.fen()).unwrap(), start, "{v}");
        }
        // International: Scan's 51 characters (protocols.md §1), Black's men on 1-20 first.
        let e = crate::engine::Engine::new(Variant::International, 1);
        let start10 = format!("W{}{}{}", "b".repeat(20), "e".repeat(10), "w".repeat(20));
        assert_eq!(
            hubsq::position(Variant::International, &e.fen()).unwrap(),
            start10
        );
        assert_eq!(
            hubsq::position(Variant::International, "B:WK46:B5").unwrap(),
            format!("B{}b{}W{}", "e".repeat(4), "e".repeat(40), "e".repeat(4))
        );
        // docs/protocol.md: Russian 10-14 is c3-d4.
        assert_eq!(hubsq::move_from_numbers(Variant::Russian, "10-14"), "c3-d4");
        assert_eq!(hubsq::move_to_numbers(Variant::Russian, "c3-d4"), "10-14");
        assert_eq!(
            hub_field("done move=\"14x23x19\" ponder=1-2", "move").as_deref(),
            Some("14x23x19")
        );
        assert_eq!(hub_field("done move=9-13", "move").as_deref(), Some("9-13"));
    }
}
