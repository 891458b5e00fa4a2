//! `damiera match`: an engine-vs-engine match runner (like cutechess-cli or fastchess, for
//! draughts). Usage, options and conventions: docs/match.md.
//!
//! Layout: [`engine_spec`] (how to start an engine, the limits of a `go`, why a move did not
//! come), [`process`] (child engines and their protocols) and [`dxp_engine`] (DXP followers),
//! each using `engine_spec` and not the other, and [`player`] above both; [`openings`]
//! (opening files and random openings), [`stats`] (Elo, pentanomial interval, GSPRT), [`pdn`]
//! (PDN output), `game` (one game, with one [`Engine`](crate::engine::Engine) as the arbiter,
//! never searched), `report` (the totals, the progress line and the final report); this module
//! holds the match's types and runs the match on worker threads.

pub mod dxp_engine;
pub mod engine_spec;
mod game;
pub mod openings;
pub mod pdn;
pub mod player;
pub mod process;
mod report;
pub mod stats;

use game::{play_game, Seat};
pub use report::{progress_line, report_text, MatchReport, Tally};

use crate::rules::Color;
use crate::variant::Variant;
use engine_spec::{EngineSpec, Protocol};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use openings::Opening;
use stats::{Sprt, SprtState};
use std::io::IsTerminal;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{mpsc, Arc};
use std::time::Duration;

/// The time control of every move.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct TimeControl {
    /// Fixed time per move in milliseconds (`--movetime`).
    pub movetime: Option<u64>,
    /// Fischer clock: base and increment in milliseconds (`--tc BASE+INC`, given in seconds).
    pub fischer: Option<(u64, u64)>,
    /// Depth limit per move in plies (`--depth`), alone or with the others.
    pub depth: Option<u32>,
}

/// The no-answer limit for a `--depth`-only move, in milliseconds.
pub const DEPTH_ONLY_TIMEOUT_MS: u64 = 60_000;
/// Under `--tc`, how long past the flag the runner still waits before killing the engine, in
/// milliseconds (the move is lost on time either way).
pub const TC_GRACE_MS: u64 = 1_000;

impl TimeControl {
    /// Parses `BASE+INC` in seconds (`2+0.02`, `60`): base and increment in milliseconds.
    ///
    /// # Errors
    /// A malformed or negative value.
    pub fn parse_tc(text: &str) -> Result<(u64, u64), String> {
        let (b, i) = text.split_once('+').unwrap_or((text, "0"));
        let secs = |t: &str| -> Result<u64, String> {
            match t.trim().parse::<f64>() {
                Ok(s) if s >= 0.0 && s.is_finite() => Ok((s * 1000.0).round() as u64),
                _ => Err(format!(
                    "--tc '{text}': expected BASE+INC in seconds, e.g. 2+0.02"
                )),
            }
        };
        let base = secs(b)?;
        if base == 0 {
            return Err(format!("--tc '{text}': the base time must be positive"));
        }
        Ok((base, secs(i)?))
    }

    /// The no-answer limit for a move with `movetime` ms asked (`movetime + max(1000,
    /// movetime)` ms): the margin documented in docs/match.md.
    pub fn movetime_limit(movetime: u64) -> u64 {
        movetime + movetime.max(1000)
    }

    /// A readable form (`movetime 20 ms`, `tc 2+0.02`, `depth 6`).
    pub fn describe(&self) -> String {
        let mut parts = Vec::new();
        if let Some(ms) = self.movetime {
            parts.push(format!("movetime {ms} ms"));
        }
        if let Some((b, i)) = self.fischer {
            parts.push(format!("tc {}+{}", b as f64 / 1000.0, i as f64 / 1000.0));
        }
        if let Some(d) = self.depth {
            parts.push(format!("depth {d}"));
        }
        parts.join(", ")
    }
}

/// Everything a match needs.
#[derive(Clone, Debug)]
pub struct MatchConfig {
    /// The variant.
    pub variant: Variant,
    /// The two engines; results are given from the first one's view.
    pub engines: [EngineSpec; 2],
    /// The openings, in the order they are played.
    pub openings: Vec<Opening>,
    /// Where the openings come from (a path or a description), for the report.
    pub openings_source: String,
    /// Games to play (a multiple of 2: each opening twice, colours reversed).
    pub games: usize,
    /// The time control.
    pub tc: TimeControl,
    /// Games played at once (each with its own two engine processes).
    pub concurrency: usize,
    /// Stop when the GSPRT decides.
    pub sprt: Option<Sprt>,
    /// Draw by adjudication after this many plies of the game (opening moves not counted).
    pub max_plies: usize,
    /// `[Event]` of the PDN.
    pub event: String,
}

/// A game's result.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum GameResult {
    /// White won.
    WhiteWin,
    /// Black won.
    BlackWin,
    /// A draw.
    Draw,
}

impl GameResult {
    /// The winner, `None` for a draw.
    pub fn winner(self) -> Option<Color> {
        match self {
            GameResult::WhiteWin => Some(Color::White),
            GameResult::Draw => None,
            GameResult::BlackWin => Some(Color::Black),
        }
    }

    /// The variant's PDN result token ([`crate::pdn::result_token`]: `2-0`, `1-1`, `0-2`; in
    /// English `1-0` Black won, `1/2-1/2`, `0-1` White won).
    pub fn token(self, v: Variant) -> &'static str {
        crate::pdn::result_token(v, self.winner())
    }

    fn win_for(c: Color) -> GameResult {
        match c {
            Color::White => GameResult::WhiteWin,
            Color::Black => GameResult::BlackWin,
        }
    }
}

/// Why a game ended.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Reason {
    /// The side to move had no legal move and lost.
    NoLegalMove,
    /// Draw by threefold repetition.
    Repetition,
    /// Draw by the variant's no-progress rule.
    NoProgress,
    /// Draw by adjudication at `--max-plies`.
    MaxPlies,
    /// A loss by an illegal or unparsable move.
    IllegalMove,
    /// A loss on time (`--tc`).
    TimeForfeit,
    /// A loss by the engine process exiting or closing its output.
    Crash,
    /// A loss by no answer in time (`--movetime` / `--depth`).
    NoAnswer,
    /// A DXP engine resigned: GAMEEND reason 1 ("I lose") instead of a move.
    Resignation,
    /// A DXP engine ended the game with GAMEEND reason 0, 2 or 3 instead of a move (Moby Dam
    /// and Scan do at the GAMEREQ's move count): adjudicated by the rules, a draw when they do
    /// not decide the position.
    PeerEnded,
}

impl Reason {
    /// The reason as the report and the PDN write it.
    pub fn text(self) -> &'static str {
        match self {
            Reason::NoLegalMove => "no legal move",
            Reason::Repetition => "threefold repetition",
            Reason::NoProgress => "no-progress rule",
            Reason::MaxPlies => "max plies",
            Reason::IllegalMove => "illegal move",
            Reason::TimeForfeit => "time forfeit",
            Reason::Crash => "crash",
            Reason::NoAnswer => "no answer",
            Reason::Resignation => "resignation",
            Reason::PeerEnded => "peer ended the game",
        }
    }

    /// Every reason, in report order.
    pub const ALL: [Reason; 10] = [
        Reason::NoLegalMove,
        Reason::Repetition,
        Reason::NoProgress,
        Reason::MaxPlies,
        Reason::IllegalMove,
        Reason::TimeForfeit,
        Reason::Crash,
        Reason::NoAnswer,
        Reason::Resignation,
        Reason::PeerEnded,
    ];
}

/// Time statistics of one engine: total and maximum milliseconds and the number of moves.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct MoveTimes {
    /// Sum of the move times in milliseconds.
    pub total_ms: f64,
    /// Longest move in milliseconds.
    pub max_ms: f64,
    /// Moves timed.
    pub moves: u64,
}

impl MoveTimes {
    fn add(&mut self, d: Duration) {
        let ms = d.as_secs_f64() * 1000.0;
        self.total_ms += ms;
        self.max_ms = self.max_ms.max(ms);
        self.moves += 1;
    }

    fn merge(&mut self, o: &MoveTimes) {
        self.total_ms += o.total_ms;
        self.max_ms = self.max_ms.max(o.max_ms);
        self.moves += o.moves;
    }

    /// Mean milliseconds per move (0 with no move).
    pub fn mean_ms(&self) -> f64 {
        if self.moves == 0 {
            0.0
        } else {
            self.total_ms / self.moves as f64
        }
    }
}

/// One finished game.
#[derive(Clone, Debug)]
pub struct GameRecord {
    /// Game number from 0 (games 2k and 2k+1 are a pair on one opening).
    pub index: usize,
    /// Which engine (0 or 1) played White.
    pub white_engine: usize,
    /// The opening's start FEN (`None`: the start position).
    pub start_fen: Option<String>,
    /// The side to move at the start FEN (or the start position).
    pub start_side: Color,
    /// The opening line as written.
    pub opening_text: String,
    /// The opening's moves (native names).
    pub opening_moves: Vec<String>,
    /// The moves played by the engines (native names).
    pub moves: Vec<String>,
    /// The result.
    pub result: GameResult,
    /// Why the game ended.
    pub reason: Reason,
    /// Details for forfeits: who, what, and the position (FEN).
    pub detail: String,
    /// Move times per engine (indexed by engine, not colour).
    pub times: [MoveTimes; 2],
}

impl GameRecord {
    /// Opening moves then game moves.
    pub fn all_moves(&self) -> impl Iterator<Item = &String> {
        self.opening_moves.iter().chain(self.moves.iter())
    }

    /// The first engine's score in this game (1, 0.5 or 0).
    pub fn first_engine_score(&self) -> f64 {
        match (self.result, self.white_engine) {
            (GameResult::Draw, _) => 0.5,
            (GameResult::WhiteWin, 0) | (GameResult::BlackWin, 1) => 1.0,
            _ => 0.0,
        }
    }

    /// The PDN comment: the reason, plus the details of a forfeit.
    pub fn comment(&self) -> String {
        if self.detail.is_empty() {
            self.reason.text().to_string()
        } else {
            format!("{}: {}", self.reason.text(), self.detail)
        }
    }
}

/// Starts `2 × concurrency` engine processes (the handshake of each), before any game.
///
/// # Errors
/// The first engine that does not start, as one line.
fn start_all(cfg: &MatchConfig, abort: &Arc<AtomicBool>) -> Result<Vec<[Seat; 2]>, String> {
    let mut out = Vec::new();
    for _ in 0..cfg.concurrency.max(1) {
        let mut pair = [
            Seat {
                spec: cfg.engines[0].clone(),
                proc: None,
            },
            Seat {
                spec: cfg.engines[1].clone(),
                proc: None,
            },
        ];
        for s in pair.iter_mut() {
            s.ensure(cfg.variant, abort)?;
        }
        out.push(pair);
    }
    Ok(out)
}

/// Refuses a match in which two connections would go to one DXP follower: a DXP address
/// serves one game at a time (Moby Dam drops the earlier connection when a second arrives,
/// Scan's `dxp` mode serves one), so `--concurrency` above 1 with a DXP engine, or both
/// engines at one address, cannot work.
///
/// # Errors
/// One line naming the address.
pub fn check_dxp_addresses(cfg: &MatchConfig) -> Result<(), String> {
    let dxp: Vec<&EngineSpec> = cfg
        .engines
        .iter()
        .filter(|s| s.protocol == Protocol::Dxp)
        .collect();
    if let Some(s) = dxp.first() {
        if cfg.concurrency > 1 {
            return Err(format!(
                "--concurrency {}: engine '{}' is the DXP follower at {}, which plays one game \
                 at a time; use --concurrency 1",
                cfg.concurrency,
                s.name,
                s.command.join(" ")
            ));
        }
    }
    if let [a, b] = dxp[..] {
        if a.command == b.command {
            return Err(format!(
                "both engines are the DXP follower at {}, which plays one game at a time",
                a.command.join(" ")
            ));
        }
    }
    Ok(())
}

/// Runs a match. `abort` is set by Ctrl-C (or anything else) to stop starting games and kill
/// the engines; finished games are kept. Every engine is started and handshaken before the
/// first game.
///
/// # Errors
/// Two connections to one DXP follower ([`check_dxp_addresses`]), or an engine that does not
/// start or fails its handshake (one line naming it).
pub fn run_match(cfg: &MatchConfig, abort: Arc<AtomicBool>) -> Result<MatchReport, String> {
    check_dxp_addresses(cfg)?;
    let seats = start_all(cfg, &abort)?;
    let total = cfg.games;
    let next = Arc::new(AtomicUsize::new(0));
    let stop = Arc::new(AtomicBool::new(false));
    let (tx, rx) = mpsc::channel::<GameRecord>();
    let cfg_arc = Arc::new(cfg.clone());
    let mut handles = Vec::new();
    for mut seat_pair in seats {
        let (next, stop, abort, tx, cfg) = (
            Arc::clone(&next),
            Arc::clone(&stop),
            Arc::clone(&abort),
            tx.clone(),
            Arc::clone(&cfg_arc),
        );
        handles.push(std::thread::spawn(move || loop {
            if stop.load(Ordering::SeqCst) || abort.load(Ordering::SeqCst) {
                break;
            }
            let i = next.fetch_add(1, Ordering::SeqCst);
            if i >= total {
                break;
            }
            let opening = &cfg.openings[(i / 2) % cfg.openings.len()];
            match play_game(&cfg, i, opening, &mut seat_pair, &abort) {
                Some(g) => {
                    if tx.send(g).is_err() {
                        break;
                    }
                }
                None => break,
            }
        }));
    }
    drop(tx);
    let bar = ProgressBar::with_draw_target(Some(total as u64), ProgressDrawTarget::stderr());
    bar.set_style(
        ProgressStyle::with_template("[{elapsed_precise}] {bar:30} {pos}/{len} {msg}")
            .unwrap_or_else(|_| ProgressStyle::default_bar()),
    );
    let quiet_terminal = !std::io::stderr().is_terminal();
    let mut tally = Tally::default();
    let mut games = Vec::new();
    let mut sprt_state = None;
    for g in rx.iter() {
        tally.add(&g);
        let line = progress_line(cfg, &tally);
        if quiet_terminal {
            eprintln!(
                "game {} ({}/{}): {} {} ({}) | {line}",
                g.index + 1,
                tally.games(),
                total,
                if g.white_engine == 0 {
                    format!("{} vs {}", cfg.engines[0].name, cfg.engines[1].name)
                } else {
                    format!("{} vs {}", cfg.engines[1].name, cfg.engines[0].name)
                },
                g.result.token(cfg.variant),
                g.reason.text()
            );
        }
        bar.set_position(tally.games());
        bar.set_message(line);
        games.push(g);
        if let Some(sp) = &cfg.sprt {
            let llr = sp.llr(&tally.penta);
            let st = sp.state(llr);
            sprt_state = Some((llr, st));
            if st != SprtState::Continue && !stop.load(Ordering::SeqCst) {
                stop.store(true, Ordering::SeqCst);
                // Games still running are not needed: end them now.
                abort.store(true, Ordering::SeqCst);
            }
        }
    }
    bar.finish_and_clear();
    for h in handles {
        let _ = h.join();
    }
    let interrupted = abort.load(Ordering::SeqCst) && !stop.load(Ordering::SeqCst);
    games.sort_by_key(|g| g.index);
    Ok(MatchReport {
        tally,
        games,
        interrupted,
        sprt_state,
    })
}
