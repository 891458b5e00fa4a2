//! The native protocol: UCI-style text commands on stdin, answers on stdout (specified in
//! docs/protocol.md). Lines are parsed and printed only here; the [`Engine`] does the work.
//! The search runs on its own thread, so this loop keeps reading: `stop`, `isready`,
//! `ponderhit` and `quit` are answered at once during a search.

use super::lines::{Input, InputError, Output};
use crate::core::damone::DamoneWin;
use crate::core::rules::Color;
use crate::core::variant::UnknownVariant;
use crate::core::variant::Variant;
use crate::engine::search::max_threads;
use crate::engine::search::Limits;
use crate::engine::MAX_EGDB_PIECES;
use crate::engine::{BookMode, DEFAULT_BOOK_PLY, MAX_BOOK_PLY};
use crate::engine::{
    Depth, Engine, Event, GoRequest, Level, MoveForm, PerftEvent, Score, DEFAULT_HASH_MIB,
    MAX_HASH_MIB, MAX_LEVEL,
};
use crate::engine::{DEFAULT_CONTEMPT_CM, DEFAULT_MOVE_OVERHEAD_MS, MAX_CONTEMPT_CM};

/// The options the engine announces and accepts.
struct Options {
    move_overhead: u64,
}

/// Runs the native protocol until `quit` or the end of input.
pub fn run(lines: Input, out: Output) {
    let mut session = Session::new(out);
    for item in lines {
        if !session.handle(item) {
            return;
        }
    }
    session.finish();
}

/// One native-protocol session: the engine, the options and where answers go. [`run`] feeds
/// it the input lines; the fuzz targets drive it directly.
pub struct Session {
    engine: Engine,
    options: Options,
    out: Output,
}

impl Session {
    /// A new session: English at its start position, default options (`Contempt`
    /// [`DEFAULT_CONTEMPT_CM`]).
    pub fn new(out: Output) -> Session {
        let mut engine = Engine::new(Variant::English, DEFAULT_HASH_MIB);
        engine.set_contempt(DEFAULT_CONTEMPT_CM);
        Session {
            engine,
            options: Options {
                move_overhead: DEFAULT_MOVE_OVERHEAD_MS,
            },
            out,
        }
    }

    /// Handles one input line (or a line that could not be read); `false` after `quit`, when
    /// the session is over.
    pub fn handle(&mut self, item: Result<String, InputError>) -> bool {
        let (engine, options, out) = (&mut self.engine, &mut self.options, &self.out);
        let line = match item {
            Ok(l) => l,
            Err(e) => {
                error(out, &e.to_string());
                return true;
            }
        };
        let line = line.trim();
        if line.is_empty() {
            return true;
        }
        log::debug!("< {line}");
        let mut words = line.split_whitespace();
        let command = words.next().unwrap_or_default();
        let args: Vec<&str> = words.collect();
        match command {
            "uci" => handshake(out),
            "isready" => out.line("readyok"),
            "setoption" => {
                if let Err(e) = set_option(engine, options, &args) {
                    error(out, &e.to_string());
                }
            }
            "ucinewgame" => {
                engine.new_game();
                let _ = engine.set_position(None, &[]);
            }
            "position" => {
                if let Err(e) = position(engine, &args) {
                    error(out, &format!("{e}; position unchanged"));
                }
            }
            "go" => go(engine, options, &args, out),
            "stop" => engine.stop(),
            "ponderhit" => engine.ponderhit(),
            "perft" => perft(engine, &args, out),
            "d" => {
                for l in engine.diagram().lines() {
                    out.line(l);
                }
                out.line(&format!("Fen: {}", engine.fen()));
            }
            "quit" => {
                engine.stop();
                return false;
            }
            other => error(out, &format!("unknown command '{other}'")),
        }
        true
    }

    /// The end of input: a running perft finishes, a search stops (docs/protocol.md).
    pub fn finish(&mut self) {
        self.engine.finish();
    }

    /// The variant being played.
    pub fn variant(&self) -> Variant {
        self.engine.variant()
    }
}

/// Writes `info string error: MESSAGE`, the message cleaned by [`super::clean_error`].
fn error(out: &Output, message: &str) {
    out.line(&format!(
        "info string error: {}",
        super::clean_error(message)
    ));
}

fn handshake(out: &Output) {
    out.line(&format!("id name damiera {}", env!("CARGO_PKG_VERSION")));
    out.line("id author the damiera developers");
    let vars: Vec<String> = Variant::ALL
        .iter()
        .map(|v| format!("var {}", v.name()))
        .collect();
    out.line(&format!(
        "option name Variant type combo default english {}",
        vars.join(" ")
    ));
    out.line(&format!(
        "option name Hash type spin default {DEFAULT_HASH_MIB} min 1 max {MAX_HASH_MIB}"
    ));
    out.line(&format!(
        "option name Threads type spin default 1 min 1 max {}",
        max_threads()
    ));
    out.line(&format!(
        "option name MoveOverhead type spin default {} min 0 max 5000",
        DEFAULT_MOVE_OVERHEAD_MS
    ));
    out.line(&format!(
        "option name Contempt type spin default {DEFAULT_CONTEMPT_CM} min -{MAX_CONTEMPT_CM} max {MAX_CONTEMPT_CM}"
    ));
    out.line(&format!(
        "option name Level type spin default {MAX_LEVEL} min 0 max {MAX_LEVEL}"
    ));
    out.line(&format!(
        "option name Seed type spin default 0 min 0 max {}",
        u32::MAX
    ));
    out.line("option name DamoneWin type combo default all var all var damones");
    out.line("option name EvalFile type string default <empty>");
    out.line("option name EgdbPath type string default <empty>");
    out.line(&format!(
        "option name EgdbPieces type spin default {MAX_EGDB_PIECES} min 0 max {MAX_EGDB_PIECES}"
    ));
    out.line("option name OwnBook type check default true");
    out.line("option name BookFile type string default <empty>");
    out.line("option name BookMode type combo default best var best var good var random");
    out.line(&format!(
        "option name BookPly type spin default {DEFAULT_BOOK_PLY} min 0 max {MAX_BOOK_PLY}"
    ));
    out.line("uciok");
}

fn set_option(engine: &mut Engine, options: &mut Options, args: &[&str]) -> Result<(), String> {
    // setoption name <N...> [value <V...>]: the words between `name` and `value` are the name.
    let usage = "setoption needs 'name <option> value <value>'";
    let rest = match args.split_first() {
        Some((&"name", rest)) if !rest.is_empty() && rest[0] != "value" => rest,
        _ => return Err(usage.into()),
    };
    let (name, value) = match rest.iter().position(|&w| w == "value") {
        Some(i) => (rest[..i].join(" "), rest[i + 1..].join(" ")),
        None => (rest.join(" "), String::new()),
    };
    let (name, value) = (name.as_str(), value.as_str());
    let number = |v: &str, lo: u64, hi: u64| -> Result<u64, String> {
        match v.parse::<u64>() {
            Ok(n) if (lo..=hi).contains(&n) => Ok(n),
            _ => Err(format!(
                "option {name} needs a number from {lo} to {hi}, not '{v}'"
            )),
        }
    };
    match name.to_ascii_lowercase().as_str() {
        "variant" => {
            let v: Variant = value.parse().map_err(|e: UnknownVariant| e.to_string())?;
            engine.set_variant(v);
        }
        "hash" => engine
            .set_hash(number(value, 1, MAX_HASH_MIB as u64)? as usize)
            .map_err(|e| format!("{e}; using {DEFAULT_HASH_MIB} MiB"))?,
        "threads" => engine.set_threads(number(value, 1, max_threads() as u64)? as usize),
        "moveoverhead" => options.move_overhead = number(value, 0, 5000)?,
        "contempt" => match value.parse::<i32>() {
            Ok(n) if n.abs() <= MAX_CONTEMPT_CM => engine.set_contempt(n),
            _ => {
                return Err(format!(
                    "option Contempt needs a number from -{MAX_CONTEMPT_CM} to {MAX_CONTEMPT_CM}, not '{value}'"
                ))
            }
        },
        "level" => engine.set_level(
            Level::new(number(value, 0, u64::from(MAX_LEVEL))? as u32).expect("in range"),
        ),
        "seed" => engine.set_seed(number(value, 0, u64::from(u32::MAX))?),
        "damonewin" => match DamoneWin::from_name(value) {
            Some(w) => engine.set_damone_win(w),
            None => return Err(format!("option DamoneWin is all or damones, not '{value}'")),
        },
        // A weights file for the current variant (docs/training.md); empty: the built-in one.
        "evalfile" => {
            let path = if value == "<empty>" { "" } else { value };
            engine
                .set_eval_file(path)
                .map_err(|e| format!("option EvalFile: {e}"))?
        }
        // The endgame databases' root (docs/egdb.md); empty: none.
        "egdbpath" => {
            let path = if value == "<empty>" { "" } else { value };
            engine
                .set_egdb_path(path)
                .map_err(|e| format!("option EgdbPath: {e}"))?
        }
        "egdbpieces" => engine
            .set_egdb_pieces(number(value, 0, u64::from(MAX_EGDB_PIECES))? as u32)
            .map_err(|e| format!("option EgdbPieces: {e}"))?,
        "ownbook" => match value.to_ascii_lowercase().as_str() {
            "true" => engine.set_own_book(true),
            "false" => engine.set_own_book(false),
            _ => return Err(format!("option OwnBook is true or false, not '{value}'")),
        },
        // An opening book (docs/book.md); empty: none.
        "bookfile" => engine
            .set_book_file(value)
            .map_err(|e| format!("option BookFile: {e}"))?,
        "bookmode" => match BookMode::from_name(value) {
            Some(m) => engine.set_book_mode(m),
            None => {
                return Err(format!(
                    "option BookMode is best, good or random, not '{value}'"
                ))
            }
        },
        "bookply" => engine.set_book_ply(number(value, 0, u64::from(MAX_BOOK_PLY))? as u32),
        _ => return Err(format!("unknown option '{name}'")),
    }
    Ok(())
}

fn position(engine: &mut Engine, args: &[&str]) -> Result<(), String> {
    let moves_at = args.iter().position(|&a| a == "moves");
    let (head, moves) = match moves_at {
        Some(i) => (&args[..i], &args[i + 1..]),
        None => (args, &[][..]),
    };
    match head.first() {
        Some(&"startpos") if head.len() == 1 => engine.set_position(None, moves),
        Some(&"fen") if head.len() >= 2 => engine.set_position(Some(&head[1..].join(" ")), moves),
        _ => Err("position needs 'startpos' or 'fen <FEN>', then optionally 'moves ...'".into()),
    }
}

fn go(engine: &mut Engine, options: &Options, args: &[&str], out: &Output) {
    let white = engine.side_to_move() == Color::White;
    let (limits, ponder) = match go_limits(args, white, options.move_overhead) {
        Ok(l) => l,
        Err(e) => {
            error(out, &format!("{e}; no search started"));
            return;
        }
    };
    let out = out.clone();
    engine.go(
        GoRequest {
            limits,
            ponder,
            form: MoveForm::Native,
        },
        Box::new(move |ev| out.line(&event_line(&ev))),
    );
}

/// The limits of `go <args>` for the side to move (`white`), and whether to ponder. A missing
/// or malformed value or an unknown parameter rejects the whole command.
fn go_limits(args: &[&str], white: bool, move_overhead: u64) -> Result<(Limits, bool), String> {
    let mut limits = Limits {
        move_overhead,
        ..Limits::default()
    };
    let (mut wtime, mut btime, mut winc, mut binc) = (None, None, 0, 0);
    let mut ponder = false;
    let mut words = args.iter().copied();
    while let Some(key) = words.next() {
        match key {
            "infinite" => limits.infinite = true,
            "ponder" => ponder = true,
            "depth" | "nodes" | "movetime" | "wtime" | "btime" | "winc" | "binc" | "movestogo" => {
                let text = words.next();
                let v = text
                    .and_then(|t| t.parse::<u64>().ok())
                    .ok_or_else(|| match text {
                        Some(t) => format!("go {key} needs a number, not '{t}'"),
                        None => format!("go {key} needs a number"),
                    })?;
                match key {
                    "depth" => limits.depth = Some(Depth(v.clamp(1, 100) as u32)),
                    "nodes" => limits.nodes = Some(v),
                    "movetime" => limits.movetime = Some(v),
                    "wtime" => wtime = Some(v),
                    "btime" => btime = Some(v),
                    "winc" => winc = v,
                    "binc" => binc = v,
                    _ => limits.movestogo = Some(v.min(u32::MAX as u64) as u32),
                }
            }
            other => return Err(format!("unknown go parameter '{other}'")),
        }
    }
    limits.time = if white { wtime } else { btime };
    limits.inc = if white { winc } else { binc };
    Ok((limits, ponder))
}

/// The protocol line of a search event.
pub fn event_line(ev: &Event) -> String {
    match ev {
        Event::Info {
            depth,
            seldepth,
            score,
            nodes,
            nps,
            time_ms,
            hashfull,
            db_hits,
            pv,
        } => {
            let score = match score {
                Score::Cp(c) => format!("cp {c}"),
                Score::Win(p) => format!("win {p}"),
                Score::Loss(p) => format!("loss {p}"),
            };
            // `tbhits` (UCI's word): endgame-database hits, shown once there are any, so
            // that lines without databases stay as they were.
            let tbhits = if *db_hits > 0 {
                format!(" tbhits {db_hits}")
            } else {
                String::new()
            };
            format!(
                "info depth {depth} seldepth {seldepth} score {score} nodes {nodes} nps {nps} time {time_ms} hashfull {hashfull}{tbhits} pv {}",
                pv.join(" ")
            )
        }
        Event::Book { mv, score } => format!("info string book {mv} score {score}"),
        Event::BestMove {
            best: Some(b),
            ponder: Some(p),
        } => format!("bestmove {b} ponder {p}"),
        Event::BestMove {
            best: Some(b),
            ponder: None,
        } => format!("bestmove {b}"),
        Event::BestMove { best: None, .. } => "bestmove (none)".to_string(),
    }
}

fn perft(engine: &mut Engine, args: &[&str], out: &Output) {
    let depth = match args.first().map(|d| d.parse::<u32>()) {
        Some(Ok(d)) if d <= 20 => d,
        _ => {
            out.line("info string error: perft needs a depth from 0 to 20");
            return;
        }
    };
    let out = out.clone();
    engine.perft(
        depth,
        Box::new(move |ev| match ev {
            PerftEvent::Move(name, n) => out.line(&format!("{name}: {n}")),
            PerftEvent::Done(total) => out.line(&format!("Nodes searched: {total}")),
            PerftEvent::Stopped { counted, of } => out.line(&format!(
                "info string perft stopped after {counted} of {of} root moves"
            )),
        }),
    );
}
