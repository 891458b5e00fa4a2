//! `damiera-train patterns`: the command-line side of [`damiera_trainer::patterns`] (Italian
//! Damone's pattern weights, a DMEV file; docs/training.md, "Pattern weights").

use clap::Args;
use damiera::Variant;
use damiera_trainer::patterns::{self, TrainConfig};
use std::time::Instant;

/// `damiera-train patterns`'s arguments.
#[derive(Args, Debug)]
pub struct PatternsArgs {
    /// damone, english, italian, brazilian, russian or international.
    #[arg(long, short)]
    pub variant: Variant,
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

/// Runs `damiera-train patterns`: reads the data, fits, writes the weights and prints the
/// report.
///
/// # Errors
/// An unreadable `--init` or data file, a network as `--init`, no training positions, or an
/// unwritable output: a one-line message.
pub fn run(a: &PatternsArgs) -> Result<(), String> {
    let v = a.variant;
    let init = match a
        .init
        .as_deref()
        .map(|path| damiera::engine::eval::read_weights(v, path))
    {
        None => None,
        Some(Ok(net)) if net.network().is_some() => {
            return Err("--init: an evaluation network (DMNN) cannot start a pattern fit".into())
        }
        Some(Ok(net)) => Some(net.to_centi_men()),
        Some(Err(e)) => return Err(e),
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
                    patterns::game_starts(&s)
                        .into_iter()
                        .map(|g| g + samples.len()),
                );
                samples.extend(s);
            }
            Err(e) => return Err(e),
        }
    }
    let start = Instant::now();
    let report = patterns::train(&cfg, &samples, &games)?;
    let bytes = report.net.to_bytes(v);
    std::fs::write(&a.out, &bytes).map_err(|e| format!("cannot write {}: {e}", a.out))?;
    print!("{}", report.text());
    println!(
        "wrote {} ({} bytes) in {:.1} s",
        a.out,
        bytes.len(),
        start.elapsed().as_secs_f64()
    );
    Ok(())
}
