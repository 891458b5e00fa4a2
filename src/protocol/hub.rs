//! The Hub protocol (Scan 3.1 `protocol.txt`, version 2) as pydraughts' `HubEngine` and
//! lidraughts-bot speak it, for the 8x8 variants, International, Antidraughts and Breakthrough
//! (10x10, 51-character positions).
//!
//! - Lines are `command name=value ...`; values with a space or `=`, or empty, are quoted.
//!   Every token this engine writes is `key=value` (pydraughts crashes on bare flags).
//! - Positions: `pos pos=<side><32 squares>` in pydraughts' internal numbering (square 1 at
//!   the top-left as the first mover sees it, the first mover's pieces `w`/`W` on 21-32);
//!   for English the internal board is the real one turned round with the colors swapped.
//! - Moves: pydraughts 0.6.x writes `moves` and reads `done` in the variant's own numbering
//!   (English 1-32, Italian FID, Russian/Brazilian numbered from a1 = 1); 0.5.7, which
//!   lidraughts-bot pins, uses the internal numbering throughout. The engine takes whichever
//!   numbering makes the `moves` list legal (or the `notation` param if set) and answers in it.
//! - Captures are written `from x to x captured x captured ...` (every captured square).
//! - Scores are in men; a win in n plies is `100 - n/100`; time in seconds; nps in millions.

use super::lines::{Input, InputError, Output};
use crate::core::rules::{Color, Numbering};
use crate::core::variant::Variant;
use crate::core::variant_position::VariantPosition;
use crate::engine::search::max_threads;
use crate::engine::search::Limits;
use crate::engine::Outcome;
use crate::engine::{BookMode, MAX_BOOK_PLY};
use crate::engine::{
    Depth, Engine, Event, GoRequest, MoveForm, Score, DEFAULT_HASH_MIB, MAX_HASH_MIB,
};
use crate::engine::{Level, MAX_EGDB_PIECES, MAX_LEVEL};
use crate::engine::{DEFAULT_CONTEMPT_CM, DEFAULT_MOVE_OVERHEAD_MS, MAX_CONTEMPT_CM};

/// Which of pydraughts' two square conventions a Hub peer speaks. Each picks, per variant, a
/// [`Numbering`] (the one square-numbering enum, [`Dialect::numbering`]).
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub enum Dialect {
    /// The variant's own numbering (pydraughts 0.6.x).
    Variant,
    /// pydraughts' internal numbering (pydraughts 0.5.7, lidraughts-bot).
    Internal,
}

impl Dialect {
    /// The numbering of this dialect's square numbers in `v` (protocols.md §4.2-4.3):
    /// variant: English, Italian and International their own ([`Numbering::TopLeft`]),
    /// Russian and Brazilian from a1 ([`Numbering::BottomLeft`], pydraughts convert.py);
    /// internal: 1 at the top-left as the first mover sees it ([`Numbering::TopLeft`]; English
    /// turned round, [`Numbering::BottomRight`]).
    pub fn numbering(self, v: Variant) -> Numbering {
        match (self, v) {
            (Dialect::Variant, Variant::Russian | Variant::Brazilian) => Numbering::BottomLeft,
            (Dialect::Internal, Variant::English) => Numbering::BottomRight,
            _ => Numbering::TopLeft,
        }
    }
}

/// The `notation` param: a fixed numbering, or detection from the `moves` list.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
enum NotationParam {
    Auto,
    Fixed(Dialect),
}

/// A parsed Hub line: the command and its `name=value` arguments.
struct Line {
    command: String,
    args: Vec<(String, String)>,
}

impl Line {
    fn get(&self, name: &str) -> Option<&str> {
        self.args
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }
    fn has(&self, name: &str) -> bool {
        self.args.iter().any(|(n, _)| n == name)
    }
}

/// Splits `command name=value name="quoted value" flag ...`.
fn parse_line(text: &str) -> Result<Line, String> {
    let mut chars = text.trim().chars().peekable();
    let mut words: Vec<(String, Option<String>)> = Vec::new();
    loop {
        while chars.peek().is_some_and(|c| c.is_whitespace()) {
            chars.next();
        }
        if chars.peek().is_none() {
            break;
        }
        let mut name = String::new();
        while let Some(&c) = chars.peek() {
            if c.is_whitespace() || c == '=' {
                break;
            }
            name.push(c);
            chars.next();
        }
        let mut value = None;
        if chars.peek() == Some(&'=') {
            chars.next();
            let mut v = String::new();
            if chars.peek() == Some(&'"') {
                chars.next();
                let mut closed = false;
                for c in chars.by_ref() {
                    if c == '"' {
                        closed = true;
                        break;
                    }
                    v.push(c);
                }
                if !closed {
                    return Err(format!("unterminated quote after {name}="));
                }
            } else {
                while let Some(&c) = chars.peek() {
                    if c.is_whitespace() {
                        break;
                    }
                    v.push(c);
                    chars.next();
                }
            }
            value = Some(v);
        }
        words.push((name, value));
    }
    let mut it = words.into_iter();
    let (command, _) = it.next().ok_or("empty line")?;
    Ok(Line {
        command,
        args: it.map(|(n, v)| (n, v.unwrap_or_default())).collect(),
    })
}

/// Quotes a value when the protocol requires it.
fn quote(v: &str) -> String {
    if v.is_empty() || v.contains(' ') || v.contains('=') {
        format!("\"{v}\"")
    } else {
        v.to_string()
    }
}

/// Square number conversions between the Hub numberings and the variant's own notation
/// (also used by `damiera match` to drive Hub engines).
pub mod squares {
    use super::Dialect;
    use crate::core::dispatch::Dispatch;
    use crate::core::variant::Variant;

    /// The number of squares of the variant's board (32, or 50 for International).
    pub fn squares(v: Variant) -> u32 {
        v.squares()
    }

    /// The native name of Hub square `n` (1-32, or 1-50 for International, whose Hub, internal
    /// and FMJD numberings are the same).
    pub fn to_native(v: Variant, dialect: Dialect, n: u32) -> Option<String> {
        v.numbered_square_name(dialect.numbering(v), n)
    }

    /// The Hub number of a native square name.
    pub fn to_hub(v: Variant, dialect: Dialect, name: &str) -> Option<u32> {
        v.square_number_in(dialect.numbering(v), name)
    }

    /// The native name of internal square `i`.
    pub fn internal_square(v: Variant, i: u32) -> Option<String> {
        to_native(v, Dialect::Internal, i)
    }
}

struct Hub {
    engine: Engine,
    out: Output,
    variant: Variant,
    notation: NotationParam,
    /// The dialect of the current game (detected or fixed).
    dialect: Dialect,
    limits: Limits,
    has_level: bool,
    move_overhead: u64,
    hash_mib: usize,
    threads: usize,
}

/// Runs the Hub protocol: waits for the `hub` command first.
pub fn run(lines: Input, out: Output) {
    while let Some(item) = lines.next() {
        match item {
            Ok(line) if line.trim() == "hub" => {
                run_after_hub(lines, out);
                return;
            }
            Ok(line) if line.trim().is_empty() => {}
            _ => out.line("error message=\"send hub first\""),
        }
    }
}

/// Runs the Hub protocol after a `hub` command was read: answers it, then serves commands until
/// `quit` or the end of input.
pub fn run_after_hub(lines: Input, out: Output) {
    let mut session = Session::new(out);
    for item in lines {
        if !session.handle(item) {
            return;
        }
    }
    session.finish();
}

/// One Hub session after its `hub` command. [`run_after_hub`] feeds it the input lines; the
/// fuzz targets drive it directly. Unknown commands are ignored (protocols.md §1.1: both
/// sides "should ignore commands and arguments that they don't understand"), and logged at
/// debug level.
pub struct Session {
    hub: Hub,
}

impl Session {
    /// A new session: answers `hub` (the engine's id and params, then `wait`).
    pub fn new(out: Output) -> Session {
        let mut engine = Engine::new(Variant::English, DEFAULT_HASH_MIB);
        engine.set_contempt(DEFAULT_CONTEMPT_CM);
        let hub = Hub {
            engine,
            out,
            variant: Variant::English,
            notation: NotationParam::Auto,
            dialect: Dialect::Variant,
            limits: Limits::default(),
            has_level: false,
            move_overhead: DEFAULT_MOVE_OVERHEAD_MS,
            hash_mib: DEFAULT_HASH_MIB,
            threads: 1,
        };
        hub.hello();
        Session { hub }
    }

    /// Handles one input line (or a line that could not be read); `false` after `quit`.
    pub fn handle(&mut self, item: Result<String, InputError>) -> bool {
        let hub = &mut self.hub;
        let text = match item {
            Ok(t) => t,
            Err(e) => {
                hub.error(&e.to_string());
                return true;
            }
        };
        if text.trim().is_empty() {
            return true;
        }
        log::debug!("hub < {text}");
        let line = match parse_line(&text) {
            Ok(l) => l,
            Err(e) => {
                hub.error(&e);
                return true;
            }
        };
        match line.command.as_str() {
            "quit" => {
                hub.engine.stop();
                return false;
            }
            "hub" => hub.hello(),
            "init" => hub.out.line("ready"),
            "ping" => hub.out.line("pong"),
            "set-param" => hub.set_param(&line),
            "new-game" => hub.engine.new_game(),
            "pos" => hub.pos(&line),
            "level" => hub.level(&line),
            "go" => hub.go(&line),
            "ponder-hit" => hub.engine.ponderhit(),
            "stop" => hub.engine.stop(),
            other => log::debug!("hub: ignoring unknown command {other}"),
        }
        true
    }

    /// The end of input: stops any search (protocols.md §1.1: quit at once).
    pub fn finish(&mut self) {
        self.hub.engine.stop();
    }

    /// The variant being played.
    pub fn variant(&self) -> Variant {
        self.hub.variant
    }
}

impl Hub {
    fn error(&self, message: &str) {
        self.out.line(&format!(
            "error message={}",
            quote(&super::clean_error(&message.replace('"', "'")))
        ));
    }

    fn hello(&self) {
        self.out.line(&format!(
            "id name=damiera version={} author={}",
            env!("CARGO_PKG_VERSION"),
            quote("the damiera developers")
        ));
        self.out.line(&format!(
            "param name=variant value={} type=enum values={}",
            self.variant.name(),
            // `normal` is International in Scan's naming (lidraughts-bot sends it), `standard` in
            // pydraughts' and lidraughts'; `losing` and `bt` are Scan's names of Antidraughts
            // and Breakthrough (lidraughts-bot maps `antidraughts` and `breakthrough` to them);
            // `frisian` is Scan's and lidraughts', `frysk` lidraughts' (lidraughts-bot sends
            // Scan `frisian` for it, with the position).
            quote("english american italian russian brazilian international normal standard antidraughts losing breakthrough bt frisian frysk frysk!")
        ));
        self.out.line(&format!(
            "param name=hash value={} type=int min=1 max={MAX_HASH_MIB}",
            self.hash_mib
        ));
        self.out.line(&format!(
            "param name=threads value={} type=int min=1 max={}",
            self.threads,
            max_threads()
        ));
        self.out.line(&format!(
            "param name=move-overhead value={} type=int min=0 max=5000",
            self.move_overhead
        ));
        self.out.line(&format!(
            "param name=contempt value={} type=int min=-{MAX_CONTEMPT_CM} max={MAX_CONTEMPT_CM}",
            self.engine.contempt()
        ));
        self.out.line(&format!(
            "param name=notation value=auto type=enum values={}",
            quote("auto variant internal")
        ));
        self.out.line(&format!(
            "param name=skill value={} type=int min=0 max={MAX_LEVEL}",
            self.engine.level().get()
        ));
        self.out.line(&format!(
            "param name=seed value={} type=int min=0 max={}",
            self.engine.seed(),
            u32::MAX
        ));
        self.out.line("param name=eval-file value=\"\" type=string");
        self.out.line("param name=egdb-path value=\"\" type=string");
        self.out.line(&format!(
            "param name=egdb-pieces value={MAX_EGDB_PIECES} type=int min=0 max={MAX_EGDB_PIECES}"
        ));
        self.out.line(&format!(
            "param name=book value={} type=bool",
            self.engine.own_book()
        ));
        self.out.line("param name=book-file value=\"\" type=string");
        self.out.line(&format!(
            "param name=book-mode value={} type=enum values={}",
            self.engine.book_mode().name(),
            quote("best good random")
        ));
        self.out.line(&format!(
            "param name=book-ply value={} type=int min=0 max={MAX_BOOK_PLY}",
            self.engine.book_ply()
        ));
        self.out.line("wait");
    }

    fn set_param(&mut self, line: &Line) {
        let (Some(name), Some(value)) = (line.get("name"), line.get("value")) else {
            return self.error("set-param needs name= and value=");
        };
        let number = |lo: u64, hi: u64| value.parse::<u64>().ok().filter(|n| (lo..=hi).contains(n));
        match name {
            "variant" => match value.parse::<Variant>() {
                Ok(Variant::English)
                | Ok(Variant::Italian)
                | Ok(Variant::Russian)
                | Ok(Variant::Brazilian)
                | Ok(Variant::International)
                | Ok(Variant::Antidraughts)
                | Ok(Variant::Breakthrough)
                | Ok(Variant::Frisian)
                | Ok(Variant::Frysk) => {
                    let v: Variant = value.parse().expect("checked");
                    self.variant = v;
                    self.engine.set_variant(v);
                }
                _ => self.error(&format!("unsupported variant {value}")),
            },
            "hash" => match number(1, MAX_HASH_MIB as u64) {
                Some(n) => match self.engine.set_hash(n as usize) {
                    Ok(()) => self.hash_mib = n as usize,
                    Err(e) => {
                        self.hash_mib = DEFAULT_HASH_MIB;
                        self.error(&format!("{e}; using {DEFAULT_HASH_MIB} MiB"));
                    }
                },
                None => self.error(&format!("bad value {value} for hash")),
            },
            "threads" => match number(1, max_threads() as u64) {
                Some(n) => {
                    self.threads = n as usize;
                    self.engine.set_threads(n as usize);
                }
                None => self.error(&format!("bad value {value} for threads")),
            },
            "contempt" => match value.parse::<i32>() {
                Ok(n) if n.abs() <= MAX_CONTEMPT_CM => self.engine.set_contempt(n),
                _ => self.error(&format!("bad value {value} for contempt")),
            },
            "move-overhead" => match number(0, 5000) {
                Some(n) => self.move_overhead = n,
                None => self.error(&format!("bad value {value} for move-overhead")),
            },
            // The strength level (`Level` in the native protocol; `level` is Hub's time command).
            "skill" => match number(0, u64::from(MAX_LEVEL)).and_then(|n| Level::new(n as u32)) {
                Some(l) => self.engine.set_level(l),
                None => self.error(&format!("bad value {value} for skill")),
            },
            "seed" => match number(0, u64::from(u32::MAX)) {
                Some(n) => self.engine.set_seed(n),
                None => self.error(&format!("bad value {value} for seed")),
            },
            "notation" => match value {
                "auto" => self.notation = NotationParam::Auto,
                "variant" => self.notation = NotationParam::Fixed(Dialect::Variant),
                "internal" => self.notation = NotationParam::Fixed(Dialect::Internal),
                _ => self.error(&format!("bad value {value} for notation")),
            },
            // A weights file for the current variant (docs/training.md); empty: built-in.
            "eval-file" => {
                if let Err(e) = self.engine.set_eval_file(value) {
                    self.error(&format!("eval-file: {e}"));
                }
            }
            // The endgame databases' root (docs/egdb.md); empty: none.
            "egdb-path" => {
                if let Err(e) = self.engine.set_egdb_path(value) {
                    self.error(&format!("egdb-path: {e}"));
                }
            }
            "egdb-pieces" => match number(0, u64::from(MAX_EGDB_PIECES)) {
                Some(n) => {
                    if let Err(e) = self.engine.set_egdb_pieces(n as u32) {
                        self.error(&format!("egdb-pieces: {e}"));
                    }
                }
                None => self.error(&format!("bad value {value} for egdb-pieces")),
            },
            // The opening book (`OwnBook`, `BookFile`, `BookMode`, `BookPly`; docs/book.md).
            "book" => match value {
                "true" => self.engine.set_own_book(true),
                "false" => self.engine.set_own_book(false),
                _ => self.error(&format!("bad value {value} for book")),
            },
            "book-file" => {
                if let Err(e) = self.engine.set_book_file(value) {
                    self.error(&format!("book-file: {e}"));
                }
            }
            "book-mode" => match BookMode::from_name(value) {
                Some(m) => self.engine.set_book_mode(m),
                None => self.error(&format!("bad value {value} for book-mode")),
            },
            "book-ply" => match number(0, u64::from(MAX_BOOK_PLY)) {
                Some(n) => self.engine.set_book_ply(n as u32),
                None => self.error(&format!("bad value {value} for book-ply")),
            },
            _ => self.error(&format!("unknown param {name}")),
        }
    }

    /// The FEN (variant notation) of a Hub position string in internal numbering.
    fn fen_of(&self, pos: &str) -> Result<String, String> {
        let chars: Vec<char> = pos.chars().collect();
        let expected = squares::squares(self.variant) as usize + 1;
        if chars.len() != expected {
            return Err(format!(
                "bad position: {} characters, expected {expected} for {}",
                chars.len(),
                self.variant
            ));
        }
        // Internal "w" is the first mover: the side to move at the start (Black in English).
        let swap = VariantPosition::start(self.variant).side() == Color::Black;
        let side = match (chars[0], swap) {
            ('W', false) | ('B', true) => 'W',
            ('B', false) | ('W', true) => 'B',
            (c, _) => return Err(format!("bad position: side to move '{c}'")),
        };
        let (mut white, mut black) = (Vec::new(), Vec::new());
        for (i, &c) in chars[1..].iter().enumerate() {
            let name =
                squares::internal_square(self.variant, i as u32 + 1).expect("a square number");
            let (first_mover, king) = match c {
                'e' => continue,
                'w' => (true, false),
                'W' => (true, true),
                'b' => (false, false),
                'B' => (false, true),
                other => return Err(format!("bad position: '{other}' on square {}", i + 1)),
            };
            let item = if king { format!("K{name}") } else { name };
            // Internal "w" is the first mover: White, except in English (Black).
            if first_mover != swap {
                white.push(item);
            } else {
                black.push(item);
            }
        }
        Ok(format!("{side}:W{}:B{}", white.join(","), black.join(",")))
    }

    /// A Hub move (`a-b`, `axb`, `axbxc...`) in native notation, in `dialect`.
    fn native_move(&self, dialect: Dialect, text: &str) -> Option<String> {
        let sep = if text.contains('-') { '-' } else { 'x' };
        let parts: Option<Vec<String>> = text
            .split(sep)
            .map(|n| {
                n.parse::<u32>()
                    .ok()
                    .and_then(|n| squares::to_native(self.variant, dialect, n))
            })
            .collect();
        let parts = parts?;
        (parts.len() >= 2).then(|| parts.join(&sep.to_string()))
    }

    fn pos(&mut self, line: &Line) {
        self.engine.stop();
        self.limits = Limits::default();
        self.has_level = false;
        let fen = if line.has("start") && line.get("pos").is_none() {
            None
        } else {
            match line.get("pos").map(|p| self.fen_of(p)) {
                Some(Ok(f)) => Some(f),
                Some(Err(e)) => return self.error(&e),
                None => return self.error("pos needs pos=<position>"),
            }
        };
        let moves: Vec<&str> = line
            .get("moves")
            .map(|m| m.split_whitespace().collect())
            .unwrap_or_default();
        let order = match self.notation {
            NotationParam::Fixed(n) => vec![n],
            NotationParam::Auto => {
                let other = match self.dialect {
                    Dialect::Variant => Dialect::Internal,
                    Dialect::Internal => Dialect::Variant,
                };
                vec![self.dialect, other]
            }
        };
        let mut last_error = String::new();
        for dialect in order {
            let native: Option<Vec<String>> =
                moves.iter().map(|m| self.native_move(dialect, m)).collect();
            let Some(native) = native else {
                if last_error.is_empty() {
                    last_error = format!("bad move in moves=\"{}\"", moves.join(" "));
                }
                continue;
            };
            let refs: Vec<&str> = native.iter().map(String::as_str).collect();
            match self.engine.set_position(fen.as_deref(), &refs) {
                Ok(()) => {
                    // An empty list tells nothing: keep the game's numbering unless fixed.
                    if !moves.is_empty() || self.notation != NotationParam::Auto {
                        self.dialect = dialect;
                    }
                    return;
                }
                // Report the error in the preferred numbering, not the fallback's.
                Err(e) if last_error.is_empty() => last_error = e,
                Err(_) => {}
            }
        }
        self.error(&format!("illegal move: {last_error}"));
    }

    fn level(&mut self, line: &Line) {
        let secs = |name: &str| -> Result<Option<u64>, String> {
            match line.get(name) {
                None => Ok(None),
                Some(v) => match v.parse::<f64>() {
                    Ok(s) if s >= 0.0 && s.is_finite() => Ok(Some((s * 1000.0) as u64)),
                    _ => Err(format!("bad value {v} for {name}")),
                },
            }
        };
        let int = |name: &str| -> Result<Option<u64>, String> {
            match line.get(name) {
                None => Ok(None),
                Some(v) => v
                    .parse::<u64>()
                    .map(Some)
                    .map_err(|_| format!("bad value {v} for {name}")),
            }
        };
        let parsed = (|| -> Result<Limits, String> {
            let mut l = Limits {
                move_overhead: self.move_overhead,
                ..Limits::default()
            };
            l.depth = int("depth")?.map(|d| Depth(d.clamp(1, 100) as u32));
            l.nodes = int("nodes")?;
            l.movetime = secs("move-time")?;
            l.movestogo = int("moves")?.map(|m| m.min(1000) as u32);
            let inc = secs("inc")?.unwrap_or(0);
            // protocol.txt: the increment is added to the clock before every move.
            l.time = secs("time")?.map(|t| t.saturating_add(inc));
            l.inc = inc;
            l.infinite = line.has("infinite");
            if l.depth.is_none()
                && l.nodes.is_none()
                && l.movetime.is_none()
                && l.time.is_none()
                && !l.infinite
            {
                return Err("level needs depth=, nodes=, move-time=, time= or infinite".into());
            }
            Ok(l)
        })();
        match parsed {
            Ok(l) => {
                self.limits = l;
                self.has_level = true;
            }
            Err(e) => self.error(&e),
        }
    }

    fn go(&mut self, line: &Line) {
        let mode = line
            .args
            .first()
            .map(|(n, _)| n.as_str())
            .unwrap_or("think");
        let ponder = match mode {
            "think" | "analyze" | "analyse" => false,
            "ponder" => true,
            other => return self.error(&format!("unknown go mode {other}")),
        };
        let mut limits = self.limits.clone();
        if !self.has_level {
            limits = if mode == "think" {
                Limits {
                    movetime: Some(1000),
                    move_overhead: self.move_overhead,
                    ..Limits::default()
                }
            } else {
                Limits {
                    infinite: true,
                    ..Limits::default()
                }
            };
        }
        if self
            .engine
            .outcome()
            .is_some_and(|o| matches!(o, Outcome::Win(..)))
        {
            self.error("no legal move in this position");
            self.out.line("done move=\"\"");
            return;
        }
        let out = self.out.clone();
        let variant = self.variant;
        let dialect = self.dialect;
        let to_hub = move |native: &str| Hub::hub_move_static(variant, dialect, native);
        self.engine.go(
            GoRequest {
                limits,
                ponder,
                form: MoveForm::Hub,
            },
            Box::new(move |ev| match ev {
                Event::Info { depth, seldepth, score, nodes, nps, time_ms, pv, .. } => {
                    let score = match score {
                        Score::Cp(c) => c as f64 / 100.0,
                        Score::Win(p) => 100.0 - p as f64 / 100.0,
                        Score::Loss(p) => -(100.0 - p as f64 / 100.0),
                    };
                    let pv: Vec<String> = pv.iter().map(|m| to_hub(m)).collect();
                    out.line(&format!(
                        "info depth={depth} mean-depth={:.1} score={score:.2} nodes={nodes} time={:.3} nps={:.2} pv={}",
                        (depth.0 + seldepth.0) as f64 / 2.0,
                        time_ms as f64 / 1000.0,
                        nps as f64 / 1e6,
                        quote(&pv.join(" "))
                    ));
                }
                Event::Book { mv, score } => {
                    let mv = to_hub(&mv);
                    out.line(&format!(
                        "info book={} score={:.2} pv={}",
                        quote(&mv),
                        score as f64 / 100.0,
                        quote(&mv)
                    ));
                }
                Event::BestMove { best, ponder } => {
                    let best = best.map(|m| to_hub(&m)).unwrap_or_default();
                    match ponder {
                        Some(p) => out.line(&format!("done move={} ponder={}", quote(&best), to_hub(&p))),
                        None => out.line(&format!("done move={}", quote(&best))),
                    }
                }
            }),
        );
    }

    /// A native move name (native or Hub form) in a Hub dialect's numbers.
    fn hub_move_static(variant: Variant, dialect: Dialect, native: &str) -> String {
        let sep = if native.contains('-') { "-" } else { "x" };
        native
            .split(['-', 'x', ':'])
            .map(|sq| match squares::to_hub(variant, dialect, sq) {
                Some(n) => n.to_string(),
                None => sq.to_string(),
            })
            .collect::<Vec<_>>()
            .join(sep)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_quoted_values_and_flags() {
        let l = parse_line("pos pos=Wbbbbbbbbbbbbeeeeeeeewwwwwwwwwwww moves=\"12-16 24-20\" start")
            .unwrap();
        assert_eq!(l.command, "pos");
        assert_eq!(l.get("moves"), Some("12-16 24-20"));
        assert!(l.has("start"));
        assert!(parse_line("level time=\"3").is_err());
    }

    #[test]
    fn square_numberings() {
        // protocols.md §4.2/4.3: Russian numeric a1 = 1, c1 = 2, b2 = 5, h8 = 32; internal
        // 1 = b8, 29 = a1; English internal i = 33 - i.
        let v = |n| squares::to_native(Variant::Russian, Dialect::Variant, n).unwrap();
        assert_eq!(
            (v(1), v(2), v(5), v(9), v(13), v(32)),
            (
                "a1".into(),
                "c1".into(),
                "b2".into(),
                "a3".into(),
                "b4".into(),
                "h8".into()
            )
        );
        let i = |n| squares::to_native(Variant::Brazilian, Dialect::Internal, n).unwrap();
        assert_eq!(
            (i(1), i(21), i(29), i(32)),
            ("b8".into(), "a3".into(), "a1".into(), "g1".into())
        );
        assert_eq!(
            squares::to_native(Variant::English, Dialect::Internal, 1).unwrap(),
            "32"
        );
        assert_eq!(
            squares::to_hub(Variant::Russian, Dialect::Variant, "b4"),
            Some(13)
        );
    }
}
