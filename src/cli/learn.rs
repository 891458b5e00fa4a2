//! `damiera selfplay` and `damiera train`: the command-line side of [`damiera::tools::learn`].

use clap::Args;
use damiera::core::variant::Variant;
use damiera::engine::eval::Evaluation;
use damiera::tools::learn::selfplay::{self, SelfplayConfig};
use damiera::tools::learn::train::{self, TrainConfig};
use std::process::ExitCode;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Instant;

/// `damiera selfplay`'s arguments.
#[derive(Args)]
pub struct SelfplayArgs {
    /// english, italian, brazilian, russian, damone or international.
    #[arg(long, short)]
    pub variant: String,
    /// Games to play.
    #[arg(long)]
    pub games: u64,
    /// Start at this game (from 0) instead of the first, to finish a stopped run: the games
    /// `FIRST..GAMES` are played and written after a header, so the stopped file followed by
    /// this one without its header is the data of one uninterrupted run.
    #[arg(long, default_value_t = 0)]
    pub first_game: u64,
    /// Search depth per move, plies.
    #[arg(long, short, default_value_t = 8)]
    pub depth: u32,
    /// Nodes per move instead of a depth.
    #[arg(long)]
    pub nodes: Option<u64>,
    /// Random plies at the start of each game.
    #[arg(long, default_value_t = 8)]
    pub opening_plies: u32,
    /// Seed of the random openings.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Games played at once.
    #[arg(long, default_value_t = 1)]
    pub concurrency: usize,
    /// Transposition table of each game, MiB (1 to 65536).
    #[arg(long, default_value_t = 16)]
    pub hash: u64,
    /// Plies after which a game is a draw.
    #[arg(long, default_value_t = 300)]
    pub max_plies: u32,
    /// Weights file to play with instead of the built-in evaluation (`hand`: the hand-set
    /// evaluation, for the first generation of a variant).
    #[arg(long)]
    pub eval_file: Option<String>,
    /// The output file (docs/training.md, "Data format").
    #[arg(long, short)]
    pub out: String,
}

/// `damiera train`'s arguments.
#[derive(Args)]
pub struct TrainArgs {
    /// english, italian, brazilian, russian, damone or international.
    #[arg(long, short)]
    pub variant: String,
    /// Self-play data files (`damiera selfplay --out`).
    #[arg(long, short, required = true, num_args = 1..)]
    pub data: Vec<String>,
    /// The weights file to write.
    #[arg(long, short)]
    pub out: String,
    /// Passes over the training positions.
    #[arg(long, default_value_t = 20)]
    pub epochs: u32,
    /// Positions per gradient step.
    #[arg(long, default_value_t = 4096)]
    pub batch: usize,
    /// Adam's step size (centi-men).
    #[arg(long, default_value_t = 1.0)]
    pub lr: f32,
    /// Weight of the game result in the target (the rest is the search score).
    #[arg(long, default_value_t = 0.7)]
    pub lambda: f32,
    /// Share of the games held out to measure the loss.
    #[arg(long, default_value_t = 0.05)]
    pub holdout: f64,
    /// L2 penalty per pattern weight.
    #[arg(long, default_value_t = 1e-6)]
    pub l2: f32,
    /// Score a game as won by a side whose search score is at least this many centi-men for
    /// 4 recorded positions in a row (0: use the recorded results as they are).
    #[arg(long, default_value_t = 0)]
    pub adjudicate: i32,
    /// Threads.
    #[arg(long, default_value_t = 2)]
    pub threads: usize,
    /// Start from this weights file (a variant's `.dmev`) instead of the material values:
    /// train earlier weights further on new data.
    #[arg(long)]
    pub init: Option<String>,
}

fn fail(msg: &str) -> ExitCode {
    eprintln!("error: {msg}");
    ExitCode::from(2)
}

/// A variant by name (every variant has the training pipeline).
fn variant(name: &str) -> Result<Variant, String> {
    name.parse::<Variant>().map_err(|e| e.to_string())
}

/// Runs `damiera selfplay`.
pub fn run_selfplay(a: SelfplayArgs) -> ExitCode {
    let v = match variant(&a.variant) {
        Ok(v) => v,
        Err(e) => return fail(&e),
    };
    let evaluation = match a
        .eval_file
        .as_deref()
        .map(|path| Evaluation::from_eval_file(v, path))
    {
        None => Evaluation::BuiltIn,
        Some(Ok(e)) => e,
        Some(Err(e)) => return fail(&e),
    };
    let weights = evaluation.weights(v);
    let learned = weights.is_some();
    if a.first_game >= a.games {
        return fail("--first-game must be below --games");
    }
    if a.depth == 0 && a.nodes.is_none() {
        return fail("--depth must be at least 1");
    }
    let cfg = SelfplayConfig {
        variant: v,
        games: a.games,
        first_game: a.first_game,
        depth: a.depth,
        nodes: a.nodes,
        opening_plies: a.opening_plies,
        seed: a.seed,
        concurrency: a.concurrency.max(1),
        hash_mib: match crate::hash_mib(a.hash) {
            Ok(m) => m,
            Err(code) => return code,
        },
        weights,
        max_plies: a.max_plies,
        out: a.out.clone(),
        progress: true,
    };
    let stop = Arc::new(AtomicBool::new(false));
    {
        let stop = Arc::clone(&stop);
        let _ = ctrlc::set_handler(move || stop.store(true, Ordering::SeqCst));
    }
    let start = Instant::now();
    match selfplay::run(&cfg, &stop) {
        Ok(s) => {
            println!(
                "{} games, {} positions to {} in {:.1} s; White +{} ={} -{}; evaluation: {}",
                s.games,
                s.positions,
                a.out,
                start.elapsed().as_secs_f64(),
                s.white_wins,
                s.draws,
                s.black_wins,
                if learned { "learned" } else { "hand-set" }
            );
            ExitCode::SUCCESS
        }
        Err(e) => fail(&e),
    }
}

/// Runs `damiera train`.
pub fn run_train(a: TrainArgs) -> ExitCode {
    let v = match variant(&a.variant) {
        Ok(v) => v,
        Err(e) => return fail(&e),
    };
    let init = match a
        .init
        .as_deref()
        .map(|path| damiera::engine::eval::read_weights(v, path))
    {
        None => None,
        Some(Ok(net)) => Some(net.to_centi_men()),
        Some(Err(e)) => return fail(&e),
    };
    let cfg = TrainConfig {
        variant: v,
        epochs: a.epochs,
        batch: a.batch.max(1),
        lr: a.lr,
        lambda: a.lambda.clamp(0.0, 1.0),
        holdout: a.holdout.clamp(0.0, 0.5),
        l2: a.l2.max(0.0),
        adjudicate: a.adjudicate.max(0),
        threads: a.threads.clamp(1, 64),
        progress: true,
        init,
    };
    let mut samples = Vec::new();
    let mut games = Vec::new();
    for path in &a.data {
        match damiera::tools::learn::data::read_file(path, v) {
            Ok(s) => {
                games.extend(
                    train::game_starts(&s)
                        .into_iter()
                        .map(|g| g + samples.len()),
                );
                samples.extend(s);
            }
            Err(e) => return fail(&e),
        }
    }
    let start = Instant::now();
    let report = match train::train(&cfg, &samples, &games) {
        Ok(r) => r,
        Err(e) => return fail(&e),
    };
    let bytes = report.net.to_bytes(v);
    if let Err(e) = std::fs::write(&a.out, &bytes) {
        return fail(&format!("cannot write {}: {e}", a.out));
    }
    print!("{}", report.text());
    println!(
        "wrote {} ({} bytes) in {:.1} s",
        a.out,
        bytes.len(),
        start.elapsed().as_secs_f64()
    );
    ExitCode::SUCCESS
}
