//! A child engine process and the two protocols the match runner speaks to it: damiera's
//! native UCI-style protocol and the Hub protocol (docs/protocol.md).
//!
//! stdout is read on a reader thread per process, which sends each line (with the instant it
//! arrived) over a channel; waits use `recv_timeout`, so a hung engine is timed out and
//! killed. stderr is read on a second thread that keeps its last lines, shown with a failure
//! (Scan's `error: variant = "international"` is the reason it exits). The child runs in its
//! own process group, so a Ctrl-C in the terminal reaches only the match runner, and an engine
//! that is ended (timed out, aborted, or done) is ended with its whole group: a wrapper
//! script's own children (`sh -c 'scan hub'`) go with it.
//!
//! Three dialects: the native protocol, Hub 2 (Scan 3.x, pydraughts) and Hub 1, the first Hub
//! dialect that Scan 2.0 speaks (`../shared/reference/protocols.md` §8.2; Scan 2.0's
//! `main.cpp` `hub_loop`): `pos <w|b><50 squares>`, one `move M` line per move played, `time
//! MS` / `level MOVES MS INC_MS` / `depth N`, `go`, answered `move M [P]`.

use crate::core::variant::Variant;
use crate::protocol::printable;
use std::collections::VecDeque;
use std::io::{BufRead, BufReader, Read, Write};
use std::os::unix::process::CommandExt;
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

// The engine types shared with the DXP engines, also reachable at their former home here.
pub use super::engine_spec::{
    EngineSpec, Failure, GoLimits, MoveRequest, Protocol, HANDSHAKE_TIMEOUT,
};

enum ReadEvent {
    Line(Instant, String),
    Eof,
}

/// How many of an engine's last stderr lines are kept.
const STDERR_LINES: usize = 20;
/// How many of them a failure message shows.
const STDERR_SHOWN: usize = 3;
/// The longest stderr line kept, in characters (longer ones are cut).
const STDERR_LINE_CHARS: usize = 200;

/// The last lines an engine wrote to stderr, filled by a reader thread.
#[derive(Default)]
struct StderrTail {
    lines: VecDeque<String>,
    /// The reader saw the end of the stream.
    closed: bool,
}

/// Starts the thread that keeps the last [`STDERR_LINES`] lines of `stderr`.
fn keep_stderr(stderr: std::process::ChildStderr) -> Arc<Mutex<StderrTail>> {
    let tail = Arc::new(Mutex::new(StderrTail::default()));
    let t = Arc::clone(&tail);
    let spawned = std::thread::Builder::new()
        .name("engine-stderr".into())
        .spawn(move || {
            // At most 64 KiB a line is read; the rest of a longer one is dropped with it.
            let mut r = BufReader::new(stderr);
            let mut buf = Vec::new();
            loop {
                buf.clear();
                let n = (&mut r)
                    .take(64 * 1024)
                    .read_until(b'\n', &mut buf)
                    .unwrap_or(0);
                let mut g = t.lock().unwrap_or_else(|p| p.into_inner());
                if n == 0 {
                    g.closed = true;
                    return;
                }
                let line = printable(String::from_utf8_lossy(&buf).trim(), STDERR_LINE_CHARS);
                if !line.is_empty() {
                    if g.lines.len() == STDERR_LINES {
                        g.lines.pop_front();
                    }
                    g.lines.push_back(line);
                }
            }
        });
    if spawned.is_err() {
        tail.lock().unwrap_or_else(|p| p.into_inner()).closed = true;
    }
    tail
}

/// A running engine process.
pub struct EngineProcess {
    /// What it was started from.
    pub spec: EngineSpec,
    variant: Variant,
    child: Child,
    stdin: ChildStdin,
    rx: Receiver<ReadEvent>,
    stderr: Arc<Mutex<StderrTail>>,
    alive: bool,
    /// The child has been waited for (its process id may belong to another process now).
    reaped: bool,
    abort: Arc<AtomicBool>,
    /// The score of the last `info` line before the last move ([`info_score`]).
    last_score: Option<i32>,
    /// Whether the last move came with an `info string book` line (native protocol).
    last_from_book: bool,
}

impl EngineProcess {
    /// Starts the engine and performs the handshake for `variant` (with the options).
    ///
    /// # Errors
    /// One line naming the engine: the command does not start, the engine cannot play the
    /// variant (its announced variant list lacks it, or it speaks Hub 1 and the variant is not
    /// International), or the handshake fails (no `uciok`/`readyok` or `wait`/`ready` within
    /// [`HANDSHAKE_TIMEOUT`], an error reply, or the process exits: with its last stderr
    /// lines).
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
            .stderr(Stdio::piped())
            .process_group(0)
            .spawn()
            .map_err(|e| format!("{who}: cannot start: {e}"))?;
        let stdin = child.stdin.take().expect("piped");
        let stdout = child.stdout.take().expect("piped");
        let stderr = keep_stderr(child.stderr.take().expect("piped"));
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
            stderr,
            alive: true,
            reaped: false,
            abort,
            last_score: None,
            last_from_book: false,
        };
        p.handshake().map_err(|e| format!("{who}: {e}"))?;
        Ok(p)
    }

    /// Whether the process is believed to be running and usable.
    pub fn alive(&self) -> bool {
        self.alive
    }

    fn handshake(&mut self) -> Result<(), String> {
        let fail = |f: Failure| match f {
            Failure::Crash(m) => format!("handshake failed: the engine exited ({m})"),
            Failure::Timeout(d) => {
                format!("handshake failed: no answer within {} ms", d.as_millis())
            }
            Failure::Aborted => "handshake failed: interrupted".to_string(),
            Failure::GameEnd { note, .. } => format!("handshake failed: {note}"),
        };
        let deadline = Instant::now() + HANDSHAKE_TIMEOUT;
        // The protocol's greeting and its answer, the form of an option command, the command
        // that confirms the options and its answer, and the prefix of an error line.
        let (greeting, welcome, set, confirm, done, error) = match self.spec.protocol {
            Protocol::Native => (
                "uci",
                "uciok",
                "setoption name {n} value {v}",
                "isready",
                "readyok",
                "info string error",
            ),
            // DXP engines never get here (`Player::start` connects them).
            Protocol::Hub | Protocol::Dxp => (
                "hub",
                "wait",
                "set-param name={n} value={v}",
                "init",
                "ready",
                "error",
            ),
            Protocol::Hub1 => ("hub", "wait", "set {n} {v}", "init", "ready", "error"),
        };
        if self.spec.protocol == Protocol::Hub1 && self.variant != Variant::International {
            return Err(format!(
                "speaks Hub 1 (Scan 2.0's dialect), which plays International only, not {}",
                self.variant
            ));
        }
        self.send(greeting).map_err(fail)?;
        let mut announced = Vec::new();
        self.wait_line(deadline, |l| {
            announced.push(l.to_string());
            l == welcome
        })
        .map_err(fail)?;
        let mut cmds = Vec::new();
        let user_sets_variant = self
            .spec
            .options
            .iter()
            .any(|(n, _)| n.eq_ignore_ascii_case("variant"));
        if !user_sets_variant && self.spec.protocol != Protocol::Hub1 {
            let setting = variant_setting(self.spec.protocol, &announced, self.variant).map_err(
                |values| {
                    format!(
                        "cannot play {}: its variants are {}",
                        self.variant,
                        values.join(" ")
                    )
                },
            )?;
            if let Some((n, v)) = setting {
                cmds.push(set.replace("{n}", &n).replace("{v}", &v));
            }
        }
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
            return Err(format!("handshake failed: '{e}'"));
        }
        Ok(())
    }

    /// The engine's last stderr lines (at most [`STDERR_SHOWN`]) as `; stderr: 'a' 'b'`, or
    /// nothing. Waits up to 200 ms for the stream's end when the process has exited, so the
    /// lines it wrote just before are there.
    fn stderr_note(&self) -> String {
        let until = Instant::now() + Duration::from_millis(200);
        loop {
            let g = self.stderr.lock().unwrap_or_else(|p| p.into_inner());
            if g.closed || Instant::now() >= until {
                if g.lines.is_empty() {
                    return String::new();
                }
                let shown: Vec<String> = g
                    .lines
                    .iter()
                    .skip(g.lines.len().saturating_sub(STDERR_SHOWN))
                    .map(|l| format!("'{l}'"))
                    .collect();
                return format!("; stderr: {}", shown.join(" "));
            }
            drop(g);
            std::thread::sleep(Duration::from_millis(10));
        }
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
                    let status = self.end_process(Duration::from_millis(300));
                    let note = self.stderr_note();
                    return Err(Failure::Crash(format!("end of output, {status}{note}")));
                }
                Err(RecvTimeoutError::Timeout) => {}
            }
        }
    }

    /// Starts a new game (`ucinewgame` + `isready`, `new-game` + `ping`, or Hub 1's `new` +
    /// `ping`) and waits for the engine to be ready.
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
            Protocol::Hub1 => {
                self.send("new")?;
                self.send("ping")?;
                self.wait_line(deadline, |l| l == "pong")?;
            }
        }
        Ok(())
    }

    /// Asks for a move ([`MoveRequest`]: the game so far, the limits, the longest wait).
    /// Returns the move text as the engine wrote it and the wall time from sending `go` to
    /// receiving the answer.
    ///
    /// # Errors
    /// A [`Failure`]: crash, timeout (the engine has been killed) or abort.
    pub fn go(&mut self, request: MoveRequest<'_>) -> Result<(String, Duration), Failure> {
        let MoveRequest {
            start_fen,
            moves,
            hub_start,
            hub_moves,
            limits,
            deadline_after,
        } = request;
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
            Protocol::Hub1 => {
                // Scan 2.0 resets its limits on `pos`, so the limits come after the moves.
                self.send(&format!("pos {}", hub_start.to_ascii_lowercase()))?;
                for m in hub_moves {
                    self.send(&format!("move {m}"))?;
                }
                if let Some(d) = limits.depth {
                    self.send(&format!("depth {d}"))?;
                }
                if let Some(ms) = limits.movetime {
                    self.send(&format!("time {ms}"))?;
                }
                if let Some((w, b, inc)) = limits.clock {
                    // As in Hub 2, the engine adds the increment before the move.
                    let t = if limits.white_to_move { w } else { b };
                    self.send(&format!("level 0 {} {inc}", t.saturating_sub(inc)))?;
                }
                self.send("go")?;
            }
        }
        let sent = Instant::now();
        let deadline = sent + deadline_after;
        let protocol = self.spec.protocol;
        let mut score = None;
        let mut from_book = false;
        self.last_score = None;
        self.last_from_book = false;
        let (t, line) = self.wait_line(deadline, |l| {
            let word = l.split_whitespace().next().unwrap_or("");
            if word == "info" {
                if let Some(s) = info_score(protocol, l) {
                    score = Some(s);
                }
                from_book |= protocol == Protocol::Native && l.starts_with("info string book ");
            }
            match protocol {
                Protocol::Native => word == "bestmove",
                Protocol::Hub | Protocol::Dxp => word == "done",
                Protocol::Hub1 => word == "move",
            }
        })?;
        let text = match protocol {
            Protocol::Hub | Protocol::Dxp => hub_field(&line, "move").unwrap_or_default(),
            Protocol::Native | Protocol::Hub1 => {
                line.split_whitespace().nth(1).unwrap_or("").to_string()
            }
        };
        self.last_score = score;
        self.last_from_book = from_book;
        Ok((text, t.saturating_duration_since(sent)))
    }

    /// The score of the last `info` line the engine wrote before its last move, in
    /// centi-men from its own view ([`info_score`]); `None` if it gave none.
    pub fn last_score(&self) -> Option<i32> {
        self.last_score
    }

    /// Whether the engine's last move came from its opening book: it wrote an `info string
    /// book MOVE` line before its `bestmove` (damiera's native protocol, docs/book.md, "In the
    /// engine"; other protocols carry no such line, so `false`).
    pub fn last_from_book(&self) -> bool {
        self.last_from_book
    }

    /// Whether the child has exited, without reaping it (its process id stays its own until
    /// it is waited for, so its process group can still be signalled safely).
    fn has_exited(&self) -> bool {
        let pid: libc::id_t = self.child.id();
        // SAFETY: `waitid` writes into the zeroed `siginfo_t` we own; WNOWAIT leaves the child
        // waitable, WNOHANG makes the call return at once.
        unsafe {
            let mut info: libc::siginfo_t = std::mem::zeroed();
            let r = libc::waitid(
                libc::P_PID,
                pid,
                &mut info,
                libc::WEXITED | libc::WNOHANG | libc::WNOWAIT,
            );
            r != 0 || info.si_pid() != 0
        }
    }

    /// Gives the child up to `grace` to exit on its own, then kills its whole process group
    /// (the child's own children included) and reaps it. Returns the exit status as text.
    fn end_process(&mut self, grace: Duration) -> String {
        self.alive = false;
        if self.reaped {
            return "already ended".to_string();
        }
        let until = Instant::now() + grace;
        while !self.has_exited() && Instant::now() < until {
            std::thread::sleep(Duration::from_millis(10));
        }
        if let Ok(pgid) = libc::pid_t::try_from(self.child.id()) {
            // SAFETY: the child is not reaped yet, so `pgid` is still its process group (it was
            // started as the leader of its own group) and no other process's.
            unsafe {
                libc::killpg(pgid, libc::SIGKILL);
            }
        }
        self.reaped = true;
        self.child
            .wait()
            .map(|s| s.to_string())
            .unwrap_or_else(|e| e.to_string())
    }

    /// Kills the process and its process group (no-op if it is already gone).
    pub fn kill(&mut self) {
        self.end_process(Duration::ZERO);
    }

    /// Asks the engine to quit, waits up to 300 ms, then kills what is left of its process
    /// group.
    pub fn quit(&mut self) {
        if self.alive {
            let _ = writeln!(self.stdin, "quit").and_then(|_| self.stdin.flush());
        }
        self.end_process(Duration::from_millis(300));
    }
}

/// The variant option to send in the handshake, from the engine's announcement (the lines up
/// to `uciok` or `wait`): `Ok(Some((name, value)))`, `Ok(None)` when the engine announces no
/// variant option (nothing is sent), or `Err(values)` when its list lacks the variant.
///
/// The value is the first of the engine's own values that names the variant (any alias
/// [`Variant`]'s parser takes: Scan 3.1 lists International as `normal`), or the canonical
/// name when the option takes free text. Native: `option name Variant type combo ... var V
/// ...`; Hub: `param name=variant ... values="V ..."` (protocols.md §1.2, §8.1).
pub fn variant_setting(
    protocol: Protocol,
    announced: &[String],
    variant: Variant,
) -> Result<Option<(String, String)>, Vec<String>> {
    let mut found = None;
    for l in announced {
        let mut words = l.split_whitespace();
        match (protocol, words.next()) {
            (Protocol::Native, Some("option")) => {
                let rest: Vec<&str> = words.collect();
                let name = rest
                    .iter()
                    .position(|w| *w == "name")
                    .and_then(|i| rest.get(i + 1));
                if let Some(n) = name.filter(|n| n.eq_ignore_ascii_case("variant")) {
                    let values = rest
                        .windows(2)
                        .filter(|w| w[0] == "var")
                        .map(|w| w[1].to_string())
                        .collect::<Vec<_>>();
                    found = Some((n.to_string(), values));
                }
            }
            (Protocol::Hub | Protocol::Dxp, Some("param")) => {
                let name = hub_field(l, "name").unwrap_or_default();
                if name.eq_ignore_ascii_case("variant") {
                    let values = hub_field(l, "values")
                        .map(|v| v.split_whitespace().map(str::to_string).collect())
                        .unwrap_or_default();
                    found = Some((name, values));
                }
            }
            _ => {}
        }
    }
    let Some((name, values)) = found else {
        return Ok(None);
    };
    if values.is_empty() {
        return Ok(Some((name, variant.name().to_string())));
    }
    let named = |want: Variant| {
        values
            .iter()
            .find(|v| v.parse::<Variant>().ok() == Some(want))
    };
    // Frysk! is Frisian from another start: an engine that lists only `frisian` (Scan) plays
    // it as lidraughts-bot has it do, with the position sent.
    match named(variant).or_else(|| {
        (variant == Variant::Frysk)
            .then(|| named(Variant::Frisian))
            .flatten()
    }) {
        Some(v) => Ok(Some((name, v.clone()))),
        None => Err(values),
    }
}

impl Drop for EngineProcess {
    fn drop(&mut self) {
        self.quit();
    }
}

/// What [`info_score`] makes of a native `score win P`: this many centi-men less the plies,
/// beyond any adjudication margin (at most 10,000).
pub const WIN_SCORE_CM: i32 = 100_000;

/// The score of an `info` line in centi-men from the engine's view, `None` if it has none:
/// native `score cp X` (X), `score win P` ([`WIN_SCORE_CM`] − P) and `score loss P` (its
/// negation), docs/protocol.md; Hub 2 `score=S` in men (`round(100 S)`, Scan's unit,
/// `../shared/reference/protocols.md` §1.3). Hub 1 and DXP give no score that is read.
pub fn info_score(protocol: Protocol, line: &str) -> Option<i32> {
    match protocol {
        Protocol::Native => {
            let mut words = line
                .split_whitespace()
                .skip_while(|w| *w != "score")
                .skip(1);
            let kind = words.next()?;
            let n: i64 = words.next()?.parse().ok()?;
            let win = i64::from(WIN_SCORE_CM);
            let cm = match kind {
                "cp" => n.clamp(-win, win),
                "win" => win - n.clamp(0, win),
                "loss" => -(win - n.clamp(0, win)),
                _ => return None,
            };
            Some(cm as i32)
        }
        Protocol::Hub => {
            let men: f64 = hub_field(line, "score")?.parse().ok()?;
            if !men.is_finite() {
                return None;
            }
            Some((men * 100.0).round().clamp(-1e5, 1e5) as i32)
        }
        Protocol::Hub1 | Protocol::Dxp => None,
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
    use crate::core::rules::Color;
    use crate::core::variant::Variant;
    use crate::core::variant_position::{Piece, VariantPosition};
    use crate::protocol::hub::{squares, Dialect};

    /// The native square name of Hub square `n` (1..=32) in the 0.6 numbering.
    pub fn to_native(v: Variant, n: u32) -> Option<String> {
        squares::to_native(v, Dialect::Variant, n)
    }

    /// The native name of internal square `i` (the order of the 32 characters of a Hub
    /// position: square 1 top left as the first mover sees it).
    pub fn internal(v: Variant, i: u32) -> Option<String> {
        squares::internal_square(v, i)
    }

    /// A native move in Hub form (`from x to x captured...` with native square names, as
    /// `Engine::legal_moves(MoveForm::Hub)` gives it) with squares as 0.6 numbers.
    pub fn move_to_numbers(v: Variant, hub_form: &str) -> String {
        let sep = if hub_form.contains('-') { "-" } else { "x" };
        hub_form
            .split(['-', 'x', ':'])
            .map(|sq| {
                squares::to_hub(v, Dialect::Variant, sq)
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

    /// The Hub position string of a position: the side, then one character a square
    /// (`e`, `w`/`W` the first mover's men and kings, `b`/`B` the other's) in Hub order.
    ///
    /// # Errors
    /// A square the Hub numbering does not name in the variant's notation, or a piece Hub
    /// cannot write (Italian Damone's: Hub does not play it).
    pub fn position(pos: &VariantPosition) -> Result<String, String> {
        let v = pos.variant();
        // 'w' is the first mover: the side to move at the start (Black in English).
        let swap = VariantPosition::start(v).side() == Color::Black;
        // 32 squares on 8x8, 50 on International (Scan's 51-character form).
        let board = (1..=pos.square_count())
            .map(|i| {
                let name = internal(v, i).unwrap_or_default();
                let piece = pos
                    .piece_on(&name)
                    .map_err(|sq| format!("bad square '{sq}'"))?;
                Ok(match piece {
                    None => 'e',
                    Some((c, p)) => match ((c == Color::White) != swap, p) {
                        (true, Piece::Man) => 'w',
                        (true, Piece::King) => 'W',
                        (false, Piece::Man) => 'b',
                        (false, Piece::King) => 'B',
                        (_, Piece::Damone) => return Err(format!("a Damone on '{name}'")),
                    },
                })
            })
            .collect::<Result<String, String>>()?;
        let side = if (pos.side() == Color::White) != swap {
            'W'
        } else {
            'B'
        };
        Ok(std::iter::once(side).chain(board.chars()).collect())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::variant_position::VariantPosition;

    fn lines(ls: &[&str]) -> Vec<String> {
        ls.iter().map(|l| l.to_string()).collect()
    }

    /// Scores as the protocols write them (docs/protocol.md; Scan's Hub `info`,
    /// `../shared/reference/protocols.md` §1.3), in centi-men from the engine's view.
    #[test]
    fn info_scores_in_centi_men() {
        let native = |l: &str| info_score(Protocol::Native, l);
        assert_eq!(
            native("info depth 11 seldepth 23 score cp 7 nodes 217429 nps 2752265 time 79 hashfull 32 pv b2-c3"),
            Some(7)
        );
        assert_eq!(
            native("info depth 3 score cp -125 nodes 9 pv 9-13"),
            Some(-125)
        );
        assert_eq!(
            native("info depth 1 seldepth 1 score win 1 nodes 2 pv 14x23"),
            Some(WIN_SCORE_CM - 1)
        );
        assert_eq!(
            native("info depth 4 score loss 4 nodes 9"),
            Some(4 - WIN_SCORE_CM)
        );
        for none in [
            "info string hello",
            "info depth 2 score",
            "info depth 2 score cp",
            "info depth 2 score cp x",
            "info depth 2 score mate 3",
        ] {
            assert_eq!(native(none), None, "{none}");
        }
        let hub = |l: &str| info_score(Protocol::Hub, l);
        assert_eq!(
            hub("info depth=21 mean-depth=20.8 score=-0.01 nodes=31261613 time=3.906 nps=8.0 pv=\"32-28 17-22\""),
            Some(-1)
        );
        assert_eq!(hub("info depth=9 score=99.95 nodes=1"), Some(9995));
        assert_eq!(hub("info depth=9 score=1.26"), Some(126));
        assert_eq!(hub("info depth=9 nodes=1"), None);
        assert_eq!(hub("info depth=9 score=NaN"), None);
        assert_eq!(hub("info depth=9 score=inf"), None);
        assert_eq!(
            info_score(Protocol::Hub1, "info 9 9.0 0.25 1 0.1 1.0 32-28"),
            None
        );
    }

    #[test]
    fn the_variant_value_comes_from_the_engines_list() {
        // Scan 3.1's announcement (protocols.md §8.1): International is `normal` there.
        let scan = lines(&[
            "id name=Scan version=3.1",
            "param name=variant value=normal type=enum values=\"normal killer bt frisian losing\"",
            "param name=book value=true type=bool",
            "wait",
        ]);
        assert_eq!(
            variant_setting(Protocol::Hub, &scan, Variant::International),
            Ok(Some(("variant".to_string(), "normal".to_string())))
        );
        assert_eq!(
            variant_setting(Protocol::Hub, &scan, Variant::Russian),
            Err(lines(&["normal", "killer", "bt", "frisian", "losing"]))
        );
        // lidraughts' Antidraughts and Breakthrough by Scan's names.
        assert_eq!(
            variant_setting(Protocol::Hub, &scan, Variant::Antidraughts),
            Ok(Some(("variant".to_string(), "losing".to_string())))
        );
        assert_eq!(
            variant_setting(Protocol::Hub, &scan, Variant::Breakthrough),
            Ok(Some(("variant".to_string(), "bt".to_string())))
        );
        // Frisian by its name; Frysk! as Frisian (lidraughts-bot's mapping).
        for v in [Variant::Frisian, Variant::Frysk] {
            assert_eq!(
                variant_setting(Protocol::Hub, &scan, v),
                Ok(Some(("variant".to_string(), "frisian".to_string())))
            );
        }
        // No variant parameter: nothing is sent. A free-text one: the canonical name.
        assert_eq!(
            variant_setting(
                Protocol::Hub,
                &lines(&["id name=x", "wait"]),
                Variant::English
            ),
            Ok(None)
        );
        assert_eq!(
            variant_setting(
                Protocol::Hub,
                &lines(&["param name=variant value=x type=string"]),
                Variant::Italian
            ),
            Ok(Some(("variant".to_string(), "italian".to_string())))
        );
        // damiera's own announcements, both protocols: the first alias of the variant listed.
        let hub = lines(&[
            "param name=variant value=english type=enum values=\"english american italian russian brazilian international normal standard\"",
        ]);
        assert_eq!(
            variant_setting(Protocol::Hub, &hub, Variant::International),
            Ok(Some(("variant".to_string(), "international".to_string())))
        );
        let native = lines(&[
            "id name damiera",
            "option name Variant type combo default english var english var italian var damone",
            "option name Hash type spin default 64 min 1 max 65536",
            "uciok",
        ]);
        assert_eq!(
            variant_setting(Protocol::Native, &native, Variant::Damone),
            Ok(Some(("Variant".to_string(), "damone".to_string())))
        );
        assert!(variant_setting(Protocol::Native, &native, Variant::Russian).is_err());
    }

    #[test]
    fn hub_positions_and_moves() {
        let start = "Wbbbbbbbbbbbbeeeeeeeewwwwwwwwwwww";
        let at_start = |v| hubsq::position(&VariantPosition::start(v));
        assert_eq!(at_start(Variant::English).unwrap(), start);
        for v in [Variant::Italian, Variant::Russian, Variant::Brazilian] {
            assert_eq!(at_start(v).unwrap(), start, "{v}");
        }
        // International: Scan's 51 characters (protocols.md §1), Black's men on 1-20 first.
        let start10 = format!("W{}{}{}", "b".repeat(20), "e".repeat(10), "w".repeat(20));
        assert_eq!(at_start(Variant::International).unwrap(), start10);
        assert_eq!(
            hubsq::position(
                &VariantPosition::from_fen(Variant::International, "B:WK46:B5").unwrap()
            )
            .unwrap(),
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
