//! `damiera match`: an engine-vs-engine match runner (like cutechess-cli or fastchess, for
//! draughts). Usage, options and conventions: docs/match.md.
//!
//! Layout: [`engine_spec`] (how to start an engine, the limits of a `go`, why a move did not
//! come), [`process`] (child engines and their protocols) and [`dxp_engine`] (DXP followers),
//! each using `engine_spec` and not the other, and [`player`] above both; [`openings`]
//! (opening files and random openings), [`stats`] (Elo, pentanomial interval, GSPRT), [`pdn`]
//! (PDN output), `report` (the totals, the progress line and the final report); this module
//! plays the games (one [`Engine`] per game as the arbiter, never searched) and runs the match
//! on worker threads.

pub mod dxp_engine;
pub mod engine_spec;
pub mod openings;
pub mod pdn;
pub mod player;
pub mod process;
mod report;
pub mod stats;

pub use report::{progress_line, report_text, MatchReport, Tally};

use crate::engine::{Engine, Naming, Outcome};
use crate::rules::Color;
use crate::variant::Variant;
use engine_spec::{EngineSpec, Failure, GoLimits, Protocol};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use openings::Opening;
use player::Player;
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

/// The two engine processes of one worker, restarted when they die.
struct Seat {
    spec: EngineSpec,
    proc: Option<Player>,
}

impl Seat {
    fn ensure(&mut self, variant: Variant, abort: &Arc<AtomicBool>) -> Result<(), String> {
        if self.proc.as_ref().is_some_and(|p| p.alive()) {
            return Ok(());
        }
        self.proc = None;
        self.proc = Some(Player::start(&self.spec, variant, Arc::clone(abort))?);
        Ok(())
    }
}

/// Plays one game. `seats[e]` is engine `e`; `white` is the engine playing White. Returns
/// `None` if the match was aborted during the game. A DXP engine is told how the game ended
/// (GAMEEND with the result).
fn play_game(
    cfg: &MatchConfig,
    index: usize,
    opening: &Opening,
    seats: &mut [Seat; 2],
    abort: &Arc<AtomicBool>,
) -> Option<GameRecord> {
    let mut hub_moves = Vec::new();
    let rec = play_moves(cfg, index, opening, seats, abort, &mut hub_moves)?;
    for s in seats.iter_mut() {
        if let Some(p) = s.proc.as_mut() {
            p.game_over(&hub_moves, rec.result, rec.reason);
        }
    }
    Some(rec)
}

/// The moves of [`play_game`]; `hub_moves` gets the game's moves in Hub form when an engine
/// speaks Hub or DXP.
fn play_moves(
    cfg: &MatchConfig,
    index: usize,
    opening: &Opening,
    seats: &mut [Seat; 2],
    abort: &Arc<AtomicBool>,
    hub_moves: &mut Vec<String>,
) -> Option<GameRecord> {
    let white = index % 2;
    let v = cfg.variant;
    let mut arb = Engine::new(v, 1);
    let fen = opening.fen.as_deref();
    arb.set_position(fen, &[]).expect("checked opening");
    let start_side = arb.side_to_move();
    let hub_start = process::hubsq::position(v, &arb.fen()).unwrap_or_default();
    let mut all: Vec<String> = opening.moves.clone();
    // Hub forms of the moves so far (computed only when a Hub engine plays).
    let needs_hub = seats.iter().any(|s| s.spec.protocol != Protocol::Native);
    if needs_hub {
        let mut e = Engine::new(v, 1);
        for (i, m) in all.iter().enumerate() {
            let refs: Vec<&str> = all[..i].iter().map(String::as_str).collect();
            e.set_position(fen, &refs).expect("checked opening");
            hub_moves.push(hub_form(&e, v, m));
        }
    }
    let refs: Vec<&str> = all.iter().map(String::as_str).collect();
    arb.set_position(fen, &refs).expect("checked opening");
    let mut rec = GameRecord {
        index,
        white_engine: white,
        start_fen: opening.fen.clone(),
        start_side,
        opening_text: opening.text.clone(),
        opening_moves: opening.moves.clone(),
        moves: Vec::new(),
        result: GameResult::Draw,
        reason: Reason::MaxPlies,
        detail: String::new(),
        times: [MoveTimes::default(); 2],
    };
    let engine_of = |c: Color| if c == Color::White { white } else { 1 - white };
    let finish = |mut rec: GameRecord, r: GameResult, reason: Reason, detail: String| {
        rec.result = r;
        rec.reason = reason;
        rec.detail = detail;
        Some(rec)
    };
    // New game for both engines (restarting dead ones).
    for c in [Color::White, Color::Black] {
        let e = engine_of(c);
        let ok = seats[e]
            .ensure(v, abort)
            .map_err(|err| err.to_string())
            .and_then(|_| {
                seats[e]
                    .proc
                    .as_mut()
                    .expect("started")
                    .new_game()
                    .map_err(|f| format!("{f:?}"))
            });
        if abort.load(Ordering::SeqCst) {
            return None;
        }
        if let Err(err) = ok {
            let detail = format!("{} could not start a game: {err}", seats[e].spec.name);
            return finish(
                rec,
                GameResult::win_for(c.opponent()),
                Reason::Crash,
                detail,
            );
        }
    }
    let mut clocks = cfg.tc.fischer.map(|(b, _)| [b as i64, b as i64]);
    let inc = cfg.tc.fischer.map(|(_, i)| i).unwrap_or(0);
    loop {
        if abort.load(Ordering::SeqCst) {
            return None;
        }
        match arb.outcome() {
            Some(Outcome::Win(c)) => {
                return finish(
                    rec,
                    GameResult::win_for(c),
                    Reason::NoLegalMove,
                    String::new(),
                )
            }
            Some(Outcome::Draw(why)) => {
                let reason = if why.contains("repetition") {
                    Reason::Repetition
                } else {
                    Reason::NoProgress
                };
                return finish(rec, GameResult::Draw, reason, String::new());
            }
            None => {}
        }
        if rec.moves.len() >= cfg.max_plies {
            return finish(rec, GameResult::Draw, Reason::MaxPlies, String::new());
        }
        let side = arb.side_to_move();
        let e = engine_of(side);
        let name = seats[e].spec.name.clone();
        let lose = GameResult::win_for(side.opponent());
        let fen_now = arb.fen();
        let limits = GoLimits {
            movetime: cfg.tc.movetime,
            depth: cfg.tc.depth,
            clock: clocks.map(|c| (c[0].max(0) as u64, c[1].max(0) as u64, inc)),
            white_to_move: side == Color::White,
            plies_left: Some(cfg.max_plies.saturating_sub(rec.moves.len())),
        };
        let limit_ms = if let Some(c) = clocks {
            c[side as usize].max(0) as u64 + TC_GRACE_MS
        } else if let Some(ms) = cfg.tc.movetime {
            TimeControl::movetime_limit(ms)
        } else {
            DEPTH_ONLY_TIMEOUT_MS
        };
        if let Err(err) = seats[e].ensure(v, abort) {
            return finish(
                rec,
                lose,
                Reason::Crash,
                format!("{name}: {err}; FEN {fen_now}"),
            );
        }
        let proc = seats[e].proc.as_mut().expect("started");
        let answer = proc.go(
            fen,
            &all,
            &hub_start,
            hub_moves,
            &limits,
            Duration::from_millis(limit_ms),
        );
        let (text, took) = match answer {
            Ok(a) => a,
            Err(Failure::Aborted) => return None,
            Err(Failure::Crash(m)) => {
                return finish(
                    rec,
                    lose,
                    Reason::Crash,
                    format!("{name} ({m}); FEN {fen_now}"),
                )
            }
            Err(Failure::Timeout(d)) => {
                let reason = if clocks.is_some() {
                    Reason::TimeForfeit
                } else {
                    Reason::NoAnswer
                };
                let detail = format!(
                    "{name} gave no move in {} ms (killed); FEN {fen_now}",
                    d.as_millis()
                );
                return finish(rec, lose, reason, detail);
            }
            Err(Failure::GameEnd { reason, note }) => {
                // An orderly end, not a crash. A resignation loses; anything else is what
                // the rules make of the position, which they did not decide (the game would
                // not have gone on): a draw, a claimed win included (docs/match.md).
                if reason == 1 {
                    let detail = format!("{name} resigned: {note}; FEN {fen_now}");
                    return finish(rec, lose, Reason::Resignation, detail);
                }
                let detail = format!(
                    "{name}: {note}; the rules do not decide the position: a draw; FEN {fen_now}"
                );
                return finish(rec, GameResult::Draw, Reason::PeerEnded, detail);
            }
        };
        rec.times[e].add(took);
        if let Some(c) = clocks.as_mut() {
            let left = c[side as usize] - took.as_millis() as i64;
            if left < 0 {
                let detail = format!(
                    "{name} took {} ms with {} ms left; FEN {fen_now}",
                    took.as_millis(),
                    c[side as usize]
                );
                return finish(rec, lose, Reason::TimeForfeit, detail);
            }
            c[side as usize] = left + inc as i64;
        } else if let Some(ms) = cfg.tc.movetime {
            if took.as_millis() as u64 > TimeControl::movetime_limit(ms) {
                let detail = format!("{name} took {} ms; FEN {fen_now}", took.as_millis());
                return finish(rec, lose, Reason::NoAnswer, detail);
            }
        }
        let as_native = if seats[e].spec.protocol != Protocol::Native {
            process::hubsq::move_from_numbers(v, &text)
        } else {
            text.clone()
        };
        let native = match arb.move_name(&as_native) {
            Ok(n) if !text.is_empty() => n,
            Ok(_) | Err(_) => {
                let why = arb.move_name(&as_native).err().unwrap_or_default();
                let detail = format!("{name} played '{text}' ({why}); FEN {fen_now}");
                return finish(rec, lose, Reason::IllegalMove, detail);
            }
        };
        if needs_hub {
            hub_moves.push(hub_form(&arb, v, &native));
        }
        all.push(native.clone());
        rec.moves.push(native);
        let refs: Vec<&str> = all.iter().map(String::as_str).collect();
        arb.set_position(fen, &refs).expect("legal move");
    }
}

/// The Hub form (0.6 numbers) of the legal native move `m` in the engine's position.
fn hub_form(e: &Engine, v: Variant, m: &str) -> String {
    let native = e.legal_moves(Naming::Native);
    let hub = e.legal_moves(Naming::Hub);
    let i = native.iter().position(|n| n == m).unwrap_or(0);
    process::hubsq::move_to_numbers(v, &hub[i])
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
