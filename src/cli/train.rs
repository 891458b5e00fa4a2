//! `damiera train`: the command-line side of [`damiera::tools::learn::train`].

use super::shared::{fail, variant};
use clap::Args;
use damiera::tools::learn::train::{self, TrainConfig};
use std::process::ExitCode;
use std::time::Instant;

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

/// Runs `damiera train`.
pub fn run(a: TrainArgs) -> ExitCode {
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
        Some(Ok(net)) if net.network().is_some() => {
            return fail("--init: an evaluation network (DMNN) cannot start a pattern fit")
        }
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
