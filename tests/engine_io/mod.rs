//! Shared by the protocol tests (`tests/protocol.rs`, `tests/selfplay.rs`): the `damiera`
//! binary as a child process with piped stdin and stdout, read by a thread that timestamps
//! every line, so a hang fails the test (a timeout) instead of blocking it forever; a
//! recogniser for every line the native protocol may print (docs/protocol.md); a parser for
//! `info` lines; and legality checks of the engine's moves against the library.

#![allow(dead_code)]

use damiera::core::dispatch::{Dispatch, VariantFn};
use damiera::core::variant::Variant;
use damiera::{Draughts, Duplicates, MoveList};
use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, ExitStatus, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::time::{Duration, Instant};

/// How long any single reply may take before the test calls it a hang.
pub const HANG: Duration = Duration::from_secs(20);

/// A line from the engine and when the reader thread received it.
#[derive(Clone, Debug)]
pub struct Line {
    /// The text, without the line end.
    pub text: String,
    /// When it arrived.
    pub at: Instant,
}

/// The engine process.
pub struct EngineProcess {
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<Line>,
    /// Everything sent and received so far (`> ` sent, `< ` received), for failure messages.
    pub transcript: Vec<String>,
    eof: bool,
}

impl EngineProcess {
    /// Starts `damiera` with no subcommand (the native protocol); logging off, stderr dropped.
    pub fn spawn() -> EngineProcess {
        Self::spawn_with(&[], Stdio::null())
    }

    /// Starts it with extra environment variables and a given stderr.
    pub fn spawn_with(env: &[(&str, &str)], stderr: Stdio) -> EngineProcess {
        let mut cmd = Command::new(env!("CARGO_BIN_EXE_damiera"));
        cmd.env_remove("RUST_LOG")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(stderr);
        for (k, v) in env {
            cmd.env(k, v);
        }
        let mut child = cmd.spawn().expect("the damiera binary starts");
        let stdout = child.stdout.take().expect("piped stdout");
        let stdin = child.stdin.take();
        let (tx, rx) = mpsc::channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(text) = line else { break };
                let at = Instant::now();
                if tx.send(Line { text, at }).is_err() {
                    break;
                }
            }
        });
        EngineProcess {
            child,
            stdin,
            lines: rx,
            transcript: Vec::new(),
            eof: false,
        }
    }

    /// The process id.
    pub fn pid(&self) -> u32 {
        self.child.id()
    }

    /// The transcript so far, for failure messages.
    pub fn dump(&self) -> String {
        self.transcript.join("\n")
    }

    /// Sends one command line; returns when it was written.
    pub fn send(&mut self, line: &str) -> Instant {
        self.transcript.push(format!("> {line}"));
        let stdin = self.stdin.as_mut().expect("stdin is open");
        writeln!(stdin, "{line}").expect("the engine reads its input");
        stdin.flush().expect("flush");
        Instant::now()
    }

    /// Sends raw bytes (a line that need not be UTF-8), then a line end.
    pub fn send_bytes(&mut self, bytes: &[u8]) -> Instant {
        self.transcript
            .push(format!("> {}", String::from_utf8_lossy(bytes)));
        let stdin = self.stdin.as_mut().expect("stdin is open");
        stdin.write_all(bytes).expect("the engine reads its input");
        stdin.write_all(b"\n").expect("the engine reads its input");
        stdin.flush().expect("flush");
        Instant::now()
    }

    /// Closes the engine's stdin (end of input).
    pub fn close_stdin(&mut self) -> Instant {
        self.transcript.push("> <end of input>".into());
        self.stdin = None;
        Instant::now()
    }

    /// The next line within `timeout`, or `None` if none came. Panics at the end of output or
    /// on a line the protocol does not allow.
    pub fn recv_within(&mut self, timeout: Duration) -> Option<Line> {
        match self.lines.recv_timeout(timeout) {
            Ok(line) => {
                self.transcript.push(format!("< {}", line.text));
                assert!(
                    is_protocol_line(&line.text),
                    "not a protocol line on stdout: {:?}\n{}",
                    line.text,
                    self.dump()
                );
                Some(line)
            }
            Err(RecvTimeoutError::Timeout) => None,
            Err(RecvTimeoutError::Disconnected) => {
                self.eof = true;
                panic!("the engine closed its output\n{}", self.dump())
            }
        }
    }

    /// The next line; a hang ([`HANG`]) fails the test.
    pub fn recv(&mut self) -> Line {
        match self.recv_within(HANG) {
            Some(l) => l,
            None => panic!("no reply within {HANG:?}\n{}", self.dump()),
        }
    }

    /// Lines up to and including the first that starts with `prefix`, which must come within
    /// `timeout`.
    pub fn until_within(&mut self, prefix: &str, timeout: Duration) -> Vec<Line> {
        let deadline = Instant::now() + timeout;
        let mut out = Vec::new();
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.recv_within(left) {
                Some(l) => {
                    let done = l.text.starts_with(prefix);
                    out.push(l);
                    if done {
                        return out;
                    }
                }
                None => panic!(
                    "no line starting with {prefix:?} within {timeout:?}\n{}",
                    self.dump()
                ),
            }
        }
    }

    /// Lines up to and including the first that starts with `prefix` (texts only).
    pub fn until(&mut self, prefix: &str) -> Vec<String> {
        self.until_within(prefix, HANG)
            .into_iter()
            .map(|l| l.text)
            .collect()
    }

    /// Sends `isready` and returns the lines that came before `readyok`.
    pub fn sync(&mut self) -> Vec<String> {
        self.send("isready");
        let mut lines = self.until("readyok");
        lines.pop();
        lines
    }

    /// Sends `command`, then `isready`; returns the lines before `readyok`.
    pub fn ask(&mut self, command: &str) -> Vec<String> {
        self.send(command);
        self.sync()
    }

    /// Sends `command` and returns the lines up to and including the first that starts with
    /// `last` (for a command whose answer comes from another thread, as perft's does); then
    /// checks with `isready` that nothing else came.
    pub fn ask_until(&mut self, command: &str, last: &str) -> Vec<String> {
        self.send(command);
        let lines = self.until(last);
        let rest = self.sync();
        assert!(rest.is_empty(), "{rest:?}\n{}", self.dump());
        lines
    }

    /// Asserts that nothing arrives for `d`.
    pub fn silent_for(&mut self, d: Duration) {
        if let Some(l) = self.recv_within(d) {
            panic!("unexpected line {:?}\n{}", l.text, self.dump());
        }
    }

    /// Reads for `d`; any line may come but `bestmove`. Returns the lines.
    pub fn silent_for_bestmove(&mut self, d: Duration) -> Vec<String> {
        let deadline = Instant::now() + d;
        let mut out = Vec::new();
        while let Some(l) = self.recv_within(deadline.saturating_duration_since(Instant::now())) {
            assert!(
                !l.text.starts_with("bestmove"),
                "unexpected bestmove\n{}",
                self.dump()
            );
            out.push(l.text);
        }
        out
    }

    /// The FEN that `d` shows.
    pub fn fen(&mut self) -> String {
        let lines = self.ask("d");
        let fens: Vec<&String> = lines.iter().filter(|l| l.starts_with("Fen: ")).collect();
        assert_eq!(fens.len(), 1, "one Fen line\n{}", self.dump());
        fens[0]["Fen: ".len()..].to_string()
    }

    /// Waits up to `timeout` for the process to exit; drains its output meanwhile.
    pub fn wait_exit(&mut self, timeout: Duration) -> Option<ExitStatus> {
        let deadline = Instant::now() + timeout;
        loop {
            if let Some(status) = self.child.try_wait().expect("try_wait") {
                return Some(status);
            }
            if Instant::now() >= deadline {
                return None;
            }
            if !self.eof {
                match self.lines.recv_timeout(Duration::from_millis(5)) {
                    Ok(l) => {
                        self.transcript.push(format!("< {}", l.text));
                        assert!(is_protocol_line(&l.text), "not a protocol line: {l:?}");
                    }
                    Err(RecvTimeoutError::Timeout) => {}
                    Err(RecvTimeoutError::Disconnected) => self.eof = true,
                }
            } else {
                std::thread::sleep(Duration::from_millis(5));
            }
        }
    }

    /// The lines received since the process ended (after [`Self::wait_exit`]).
    pub fn remaining(&mut self) -> Vec<String> {
        let mut out = Vec::new();
        while let Ok(l) = self.lines.recv_timeout(Duration::from_millis(200)) {
            self.transcript.push(format!("< {}", l.text));
            out.push(l.text);
        }
        out
    }
}

impl Drop for EngineProcess {
    fn drop(&mut self) {
        self.stdin = None;
        if self.child.try_wait().ok().flatten().is_none() {
            // Give it the chance to leave on end of input, then make sure it is gone.
            let deadline = Instant::now() + Duration::from_secs(2);
            while Instant::now() < deadline {
                if self.child.try_wait().ok().flatten().is_some() {
                    return;
                }
                std::thread::sleep(Duration::from_millis(10));
            }
            let _ = self.child.kill();
            let _ = self.child.wait();
        }
    }
}

fn is_number(s: &str) -> bool {
    !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit())
}

/// A move as the engine writes it: squares joined by `-`, `x` or `:`.
pub fn is_move_text(s: &str) -> bool {
    let parts: Vec<&str> = s.split(['-', 'x', ':']).collect();
    parts.len() >= 2
        && parts.iter().all(|p| {
            is_number(p)
                || (p.len() >= 2 && p.as_bytes()[0].is_ascii_lowercase() && is_number(&p[1..]))
        })
}

/// A row of the `d` diagram: a right-aligned rank number, then one ` c` per file; or the file
/// letters under it.
fn is_diagram_row(l: &str) -> bool {
    if let Some(files) = l.strip_prefix("   ") {
        let letters: Vec<&str> = files.split(' ').skip(1).collect();
        if !letters.is_empty()
            && files.starts_with(' ')
            && letters
                .iter()
                .enumerate()
                .all(|(i, f)| f.len() == 1 && f.as_bytes()[0] == b'a' + i as u8)
        {
            return true;
        }
    }
    if l.len() < 5 || !l.is_char_boundary(2) {
        return false;
    }
    let (rank, rest) = l.split_at(2);
    if !is_number(rank.trim_start()) || !rest.starts_with(' ') {
        return false;
    }
    let cells = &rest.as_bytes()[1..];
    cells.len() % 2 == 0
        && cells
            .chunks(2)
            .all(|c| c[0] == b' ' && (c[1] == b' ' || c[1] == b'.' || c[1].is_ascii_alphabetic()))
}

/// Whether `l` is a line the native protocol may print (docs/protocol.md).
pub fn is_protocol_line(l: &str) -> bool {
    if l == "uciok" || l == "readyok" || l.starts_with("id name ") || l.starts_with("id author ") {
        return true;
    }
    if let Some(rest) = l.strip_prefix("option name ") {
        return rest.contains(" type ");
    }
    if let Some(rest) = l.strip_prefix("info string ") {
        return !rest.is_empty();
    }
    if l.starts_with("info ") {
        return parse_info(l).is_ok();
    }
    if let Some(rest) = l.strip_prefix("bestmove ") {
        let w: Vec<&str> = rest.split(' ').collect();
        return match w.as_slice() {
            ["(none)"] => true,
            [m] => is_move_text(m),
            [m, "ponder", p] => is_move_text(m) && is_move_text(p),
            _ => false,
        };
    }
    if let Some(n) = l.strip_prefix("Nodes searched: ") {
        return is_number(n);
    }
    if let Some(fen) = l.strip_prefix("Fen: ") {
        return fen.starts_with("W:") || fen.starts_with("B:");
    }
    if let Some((mv, n)) = l.split_once(": ") {
        return is_move_text(mv) && is_number(n);
    }
    is_diagram_row(l)
}

/// A score as `info` reports it.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Score {
    /// Centi-men, side to move's view.
    Cp(i32),
    /// The side to move wins in this many plies.
    Win(u32),
    /// The side to move loses in this many plies.
    Loss(u32),
}

/// One `info` line.
#[derive(Clone, Debug)]
pub struct Info {
    /// depth
    pub depth: u32,
    /// seldepth
    pub seldepth: u32,
    /// score
    pub score: Score,
    /// nodes
    pub nodes: u64,
    /// nps
    pub nps: u64,
    /// time in ms
    pub time: u64,
    /// hashfull, per mille
    pub hashfull: u32,
    /// tbhits: endgame-database hits (printed once there are any; else 0)
    pub tbhits: u64,
    /// pv
    pub pv: Vec<String>,
}

/// Parses `info depth D seldepth S score cp X|win P|loss P nodes N nps N time MS hashfull H
/// [tbhits T] pv ...`, every field present (`tbhits` once there are database hits) and in that
/// order.
pub fn parse_info(l: &str) -> Result<Info, String> {
    let w: Vec<&str> = l.split(' ').collect();
    let num = |i: usize, key: &str| -> Result<u64, String> {
        if w.get(i) != Some(&key) {
            return Err(format!("expected '{key}' at word {i} of {l:?}"));
        }
        w.get(i + 1)
            .and_then(|v| v.parse::<u64>().ok())
            .ok_or_else(|| format!("'{key}' needs a number in {l:?}"))
    };
    if w.first() != Some(&"info") {
        return Err(format!("not an info line: {l:?}"));
    }
    let depth = num(1, "depth")? as u32;
    let seldepth = num(3, "seldepth")? as u32;
    if w.get(5) != Some(&"score") {
        return Err(format!("expected 'score' in {l:?}"));
    }
    let value = w
        .get(7)
        .ok_or_else(|| format!("score needs a value in {l:?}"))?;
    let score = match w.get(6) {
        Some(&"cp") => Score::Cp(value.parse().map_err(|_| format!("bad cp in {l:?}"))?),
        Some(&"win") => Score::Win(value.parse().map_err(|_| format!("bad win in {l:?}"))?),
        Some(&"loss") => Score::Loss(value.parse().map_err(|_| format!("bad loss in {l:?}"))?),
        _ => return Err(format!("score must be cp, win or loss in {l:?}")),
    };
    let nodes = num(8, "nodes")?;
    let nps = num(10, "nps")?;
    let time = num(12, "time")?;
    let hashfull = num(14, "hashfull")? as u32;
    if hashfull > 1000 {
        return Err(format!("hashfull is per mille: {l:?}"));
    }
    let (tbhits, at) = if w.get(16) == Some(&"tbhits") {
        (num(16, "tbhits")?, 18)
    } else {
        (0, 16)
    };
    if w.get(at) != Some(&"pv") {
        return Err(format!("expected 'pv' in {l:?}"));
    }
    let pv: Vec<String> = w[at + 1..].iter().map(|s| s.to_string()).collect();
    if pv.is_empty() || !pv.iter().all(|m| is_move_text(m)) {
        return Err(format!("pv must list moves: {l:?}"));
    }
    Ok(Info {
        depth,
        seldepth,
        score,
        nodes,
        nps,
        time,
        hashfull,
        tbhits,
        pv,
    })
}

/// A position given to the engine: the variant, a FEN (none: the start position) and moves.
#[derive(Clone, Debug)]
pub struct Setup {
    /// The variant.
    pub variant: Variant,
    /// The FEN, or the start position.
    pub fen: Option<String>,
    /// Moves played from it, in the engine's notation.
    pub moves: Vec<String>,
}

impl Setup {
    /// The start position of `variant` after `moves`.
    pub fn start(variant: Variant, moves: &[&str]) -> Setup {
        Setup {
            variant,
            fen: None,
            moves: moves.iter().map(|m| m.to_string()).collect(),
        }
    }

    /// `fen` in `variant` after `moves`.
    pub fn fen(variant: Variant, fen: &str, moves: &[&str]) -> Setup {
        Setup {
            variant,
            fen: Some(fen.to_string()),
            moves: moves.iter().map(|m| m.to_string()).collect(),
        }
    }

    /// The `position` command for it.
    pub fn command(&self) -> String {
        let mut c = match &self.fen {
            None => "position startpos".to_string(),
            Some(f) => format!("position fen {f}"),
        };
        if !self.moves.is_empty() {
            c.push_str(" moves ");
            c.push_str(&self.moves.join(" "));
        }
        c
    }

    /// The library's FEN of the position (an error if a move is illegal).
    pub fn library_fen(&self) -> Result<String, String> {
        self.variant.dispatch(Replay {
            setup: self,
            line: &[],
        })
    }

    /// Checks that `line` (a PV, or a best move and its ponder move) is a sequence of legal
    /// moves from the position, each written as the library names it (the variant's
    /// canonical notation). Returns the FEN after the setup.
    pub fn check_line(&self, line: &[&str]) -> Result<String, String> {
        self.variant.dispatch(Replay { setup: self, line })
    }

    /// The library's names of the legal moves of the position.
    pub fn legal_moves(&self) -> Vec<String> {
        self.variant.dispatch(Legal { setup: self })
    }
}

struct Replay<'a> {
    setup: &'a Setup,
    line: &'a [&'a str],
}

/// The position of a setup in game `G`.
pub fn position_of<G: Draughts>(setup: &Setup) -> Result<G::Position, String> {
    let mut pos = match &setup.fen {
        None => G::start(),
        Some(f) => G::parse_fen(f).map_err(|e| e.to_string())?,
    };
    for m in &setup.moves {
        let mv = G::parse_move(&pos, m).map_err(|e| format!("{m}: {e}"))?;
        pos = G::make(&pos, &mv);
    }
    Ok(pos)
}

impl VariantFn for Replay<'_> {
    type Output = Result<String, String>;
    fn call<G: Draughts>(self) -> Result<String, String> {
        let start = position_of::<G>(self.setup)?;
        let mut pos = start;
        for (i, m) in self.line.iter().enumerate() {
            let mv = G::parse_move(&pos, m)
                .map_err(|e| format!("move {} of {:?}: {e}", i + 1, self.line))?;
            let canonical = G::move_name(&pos, &mv);
            if canonical != *m {
                return Err(format!(
                    "move {} of {:?} is written {m}, the notation is {canonical}",
                    i + 1,
                    self.line
                ));
            }
            pos = G::make(&pos, &mv);
        }
        Ok(G::fen(&start))
    }
}

struct Legal<'a> {
    setup: &'a Setup,
}

impl VariantFn for Legal<'_> {
    type Output = Vec<String>;
    fn call<G: Draughts>(self) -> Vec<String> {
        let pos = position_of::<G>(self.setup).expect("a legal setup");
        let mut list = MoveList::new();
        G::generate(&pos, &mut list, Duplicates::Drop);
        list.iter().map(|mv| G::move_name(&pos, mv)).collect()
    }
}
