//! `damiera selfplay`: fast games of the engine against itself, written as training positions
//! ([`super::data`]).
//!
//! Draughts `i` starts with [`SelfplayConfig::opening_plies`] uniformly random legal moves drawn
//! from a generator seeded with `seed` and `i`, then each move is a single-threaded search to a
//! fixed depth (or node count) with a table cleared at the start of the game, so a run is
//! reproducible from its seed whatever the concurrency: games are written in their order.
//! Every quiet position after the opening (no capture for the side to move, none threatened
//! by the other side) is recorded with the search's score and, once the game is over, its
//! result. A game ends by the rules (no move, the no-progress counter, threefold repetition),
//! when a search proves a win, or as a draw at [`SelfplayConfig::max_plies`].

use super::data::{self, Outcome, Sample, SCORE_CLAMP};
use crate::core::draughts::Draughts;
use crate::core::movegen::Duplicates;
use crate::core::moves::MoveList;
use crate::core::rules::Color;
use crate::core::variant::Variant;
use crate::core::variant_position;
use crate::engine::eval::{self, Evaluate, EvaluateFn, Net};
use crate::engine::search::{Control, Depth, Limits, Searcher, Silent, WIN_BOUND};
use crate::tools::progress;
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use std::collections::BTreeMap;
use std::io::{BufWriter, IsTerminal, Write};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{mpsc, Arc};
use std::time::Instant;

/// What `damiera selfplay` plays.
#[derive(Clone, Debug)]
pub struct SelfplayConfig {
    /// The variant.
    pub variant: Variant,
    /// Games to play: game numbers `first_game..games` (from 0).
    pub games: u64,
    /// The first game played; the games before it are left to another run, so two runs
    /// `0..k` and `k..n` write together (the second without its header) exactly the data of
    /// one run of `n` games.
    pub first_game: u64,
    /// Search depth per move (used when `nodes` is `None`).
    pub depth: Depth,
    /// Nodes per move instead of a depth.
    pub nodes: Option<u64>,
    /// Random plies at the start of each game.
    pub opening_plies: u32,
    /// Seed of the openings.
    pub seed: u64,
    /// Games played at once (one thread each).
    pub concurrency: usize,
    /// Transposition table per game, MiB.
    pub hash_mib: usize,
    /// The learned weights the games are played with, the variant's own (`None`: the
    /// hand-set evaluation); [`eval::Evaluation::weights`] gives them for an `--eval-file`,
    /// [`eval::built_in`] the built-in ones.
    pub weights: Option<Arc<Net>>,
    /// Plies after which a game is scored a draw.
    pub max_plies: u32,
    /// Where the positions go.
    pub out: String,
    /// Show a progress bar on stderr.
    pub progress: bool,
}

/// What a run produced.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Summary {
    /// Games finished.
    pub games: u64,
    /// Positions written.
    pub positions: u64,
    /// Results from White's view: White wins, draws, Black wins.
    pub white_wins: u64,
    /// Draws.
    pub draws: u64,
    /// Black wins.
    pub black_wins: u64,
}

/// The generator of game `i` of a run with `seed`.
fn game_rng(seed: u64, i: u64) -> StdRng {
    StdRng::seed_from_u64(seed ^ i.wrapping_add(1).wrapping_mul(0x9E37_79B9_7F4A_7C15))
}

/// The rules' verdict on `pos` (`history`: earlier keys since the last irreversible move), as
/// [`variant_position::outcome`] states it for every variant.
fn verdict<G: Draughts>(pos: &G::Position, history: &[u64]) -> Option<Outcome> {
    Some(match variant_position::outcome::<G>(pos, history)? {
        variant_position::Outcome::Win(Color::White, _) => Outcome::WhiteWin,
        variant_position::Outcome::Win(Color::Black, _) => Outcome::BlackWin,
        variant_position::Outcome::Draw(_) => Outcome::Draw,
    })
}

/// Plays game `index`; returns its positions (empty if the opening ended the game) and result.
fn play_game<G: Evaluate>(
    cfg: &SelfplayConfig,
    searcher: &mut Searcher<G>,
    index: u64,
    stop: &AtomicBool,
) -> Option<(Vec<Sample>, Outcome)> {
    let mut rng = game_rng(cfg.seed, index);
    searcher.clear();
    let control = Arc::new(Control::default());
    let limits = Limits {
        depth: if cfg.nodes.is_some() {
            None
        } else {
            Some(cfg.depth)
        },
        nodes: cfg.nodes,
        ..Limits::default()
    };
    let mut pos = G::start();
    let mut history: Vec<u64> = Vec::new();
    let mut list = MoveList::new();
    let play = |pos: &mut G::Position, history: &mut Vec<u64>, mv| {
        if G::is_irreversible(pos, &mv) {
            history.clear();
        } else {
            history.push(G::key(pos));
        }
        *pos = G::make(pos, &mv);
    };
    for _ in 0..cfg.opening_plies {
        if verdict::<G>(&pos, &history).is_some() {
            return Some((Vec::new(), Outcome::Draw));
        }
        G::generate(&pos, &mut list, Duplicates::Drop);
        let mv = list[rng.gen_range(0..list.len())];
        play(&mut pos, &mut history, mv);
    }
    let mut samples = Vec::new();
    let mut ply = cfg.opening_plies;
    let outcome = loop {
        if stop.load(Ordering::Relaxed) {
            return None;
        }
        if let Some(o) = verdict::<G>(&pos, &history) {
            break o;
        }
        if ply >= cfg.max_plies {
            break Outcome::Draw;
        }
        let r = searcher.think(&pos, &history, &limits, &control, &mut Silent);
        let white = G::side(&pos) == Color::White;
        let score = r.score.to_search();
        let score = if white { score } else { -score };
        G::generate_captures(&pos, &mut list);
        if list.is_empty() && !G::threatened(&pos) {
            samples.push(Sample {
                planes: G::planes(&pos),
                score: score.clamp(-SCORE_CLAMP, SCORE_CLAMP) as i16,
                outcome: Outcome::Draw,
                ply: ply.min(255) as u8,
            });
        }
        // A proven win ends the game.
        if score >= WIN_BOUND {
            break Outcome::WhiteWin;
        }
        if score <= -WIN_BOUND {
            break Outcome::BlackWin;
        }
        let Some(mv) = r.best else {
            break Outcome::Draw;
        };
        play(&mut pos, &mut history, mv);
        ply += 1;
    };
    for s in &mut samples {
        s.outcome = outcome;
    }
    Some((samples, outcome))
}

struct Job<'a> {
    cfg: &'a SelfplayConfig,
    stop: &'a AtomicBool,
}

impl EvaluateFn for Job<'_> {
    type Output = Result<Summary, String>;
    fn call<G: Evaluate>(self) -> Result<Summary, String> {
        run_game::<G>(self.cfg, self.stop)
    }
}

/// Plays the games of `cfg` and writes their positions to `cfg.out`. `stop` ends the run early
/// (games finished so far are kept, in order).
///
/// # Errors
/// The output file cannot be created or written: one line.
pub fn run(cfg: &SelfplayConfig, stop: &AtomicBool) -> Result<Summary, String> {
    eval::dispatch(cfg.variant, Job { cfg, stop })
}

fn run_game<G: Evaluate>(cfg: &SelfplayConfig, stop: &AtomicBool) -> Result<Summary, String> {
    let file =
        std::fs::File::create(&cfg.out).map_err(|e| format!("cannot create {}: {e}", cfg.out))?;
    let mut out = BufWriter::new(file);
    let werr = |e: std::io::Error| format!("cannot write {}: {e}", cfg.out);
    data::write_header(&mut out, cfg.variant).map_err(werr)?;
    let bar = progress::hidden_bar(
        cfg.games.saturating_sub(cfg.first_game),
        "[{elapsed_precise}] {bar:30} {pos}/{len} games, eta {eta} {msg}",
    );
    if cfg.progress {
        progress::show(&bar);
    }
    // Without a terminal (output redirected, a pipeline in the background) the bar is not
    // drawn: a plain progress line goes to stderr once a minute instead.
    let log_lines = cfg.progress && !std::io::stderr().is_terminal();
    let mut last_line = Instant::now();
    let next = AtomicU64::new(cfg.first_game);
    let (tx, rx) = mpsc::channel::<(u64, Option<(Vec<Sample>, Outcome)>)>();
    let mut summary = Summary::default();
    let start = Instant::now();
    let result = std::thread::scope(|s| -> Result<(), String> {
        for _ in 0..cfg.concurrency.max(1) {
            let tx = tx.clone();
            let next = &next;
            let spawned = std::thread::Builder::new()
                .stack_size(32 << 20)
                .spawn_scoped(s, move || {
                    let mut searcher = Searcher::<G>::new(cfg.hash_mib);
                    searcher.set_weights(cfg.weights.clone());
                    loop {
                        let i = next.fetch_add(1, Ordering::SeqCst);
                        if i >= cfg.games || stop.load(Ordering::Relaxed) {
                            break;
                        }
                        let game = play_game::<G>(cfg, &mut searcher, i, stop);
                        if tx.send((i, game)).is_err() {
                            break;
                        }
                    }
                });
            if let Err(e) = spawned {
                return Err(format!("cannot start a self-play thread: {e}"));
            }
        }
        drop(tx);
        let mut pending = BTreeMap::new();
        let mut expected = cfg.first_game;
        for (i, game) in rx {
            pending.insert(i, game);
            while let Some(game) = pending.remove(&expected) {
                expected += 1;
                let Some((samples, outcome)) = game else {
                    // Interrupted: nothing after this game is written, so the file stays the
                    // prefix of the full run.
                    stop.store(true, Ordering::SeqCst);
                    pending.clear();
                    break;
                };
                for smp in &samples {
                    let (bytes, n) = smp.to_bytes(G::SQUARES == 50);
                    out.write_all(&bytes[..n]).map_err(werr)?;
                }
                summary.games += 1;
                summary.positions += samples.len() as u64;
                match outcome {
                    Outcome::WhiteWin => summary.white_wins += 1,
                    Outcome::Draw => summary.draws += 1,
                    Outcome::BlackWin => summary.black_wins += 1,
                }
                bar.inc(1);
                let msg = format!(
                    "{} positions, +{} ={} -{} (White's view), {:.0} positions/s",
                    summary.positions,
                    summary.white_wins,
                    summary.draws,
                    summary.black_wins,
                    summary.positions as f64 / start.elapsed().as_secs_f64().max(1e-3)
                );
                if log_lines && last_line.elapsed().as_secs() >= 60 {
                    last_line = Instant::now();
                    eprintln!(
                        "selfplay: {}/{} games in {:.0} s, {msg}",
                        summary.games,
                        cfg.games.saturating_sub(cfg.first_game),
                        start.elapsed().as_secs_f64()
                    );
                }
                bar.set_message(msg);
            }
            if stop.load(Ordering::Relaxed) {
                pending.clear();
            }
        }
        Ok(())
    });
    bar.finish_and_clear();
    result?;
    out.flush().map_err(werr)?;
    Ok(summary)
}
