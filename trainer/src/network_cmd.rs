//! `damiera-train network`: trains an evaluation network from self-play data and writes it as
//! a DMNN file (docs/training.md, "Training the network").

use clap::Args;
use damiera::engine::eval::read_weights;
use damiera::engine::open_egdb;
use damiera::tools::learn::data::read_file;
use damiera::Variant;
use damiera_trainer::{dedup, label_with_egdb, Config, Trainer};
use rand::rngs::StdRng;
use rand::seq::SliceRandom;
use rand::SeedableRng;
use std::path::PathBuf;
use std::time::Instant;

/// Trains damiera's evaluation network (candle, CPU) on self-play data (`damiera selfplay`)
/// and writes the quantised network (DMNN).
#[derive(Args, Debug)]
pub struct NetworkArgs {
    /// Variant (any: english, italian, brazilian, russian, international, damone, ...).
    #[arg(long)]
    variant: Variant,
    /// Self-play data files (DMSP) of that variant.
    #[arg(long, num_args = 1.., required = true)]
    data: Vec<String>,
    /// Output network file (DMNN).
    #[arg(long)]
    out: String,
    /// Passes over the training positions.
    #[arg(long, default_value_t = 10)]
    epochs: usize,
    /// Positions per mini-batch.
    #[arg(long, default_value_t = 1024)]
    batch: usize,
    /// AdamW's learning rate (of the first epoch).
    #[arg(long, default_value_t = 1e-3)]
    lr: f64,
    /// The learning rate of the last epoch: the rate falls geometrically from --lr to this
    /// (default: --lr throughout).
    #[arg(long)]
    lr_end: Option<f64>,
    /// Weight of the search score in the target (the rest: the game's result).
    #[arg(long, default_value_t = 0.7)]
    lambda: f32,
    /// Sigmoid scale K in centi-men (target and loss use sigmoid(cp / K)).
    #[arg(long, default_value_t = 200.0)]
    scale: f32,
    /// Seed of the initial weights, the shuffles and the validation split.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Fraction of the positions held out for validation (0 to 0.5).
    #[arg(long, default_value_t = 0.05)]
    validation: f64,
    /// Endgame databases (the directory `damiera egdb build` wrote): positions they hold are
    /// labelled by their value instead of the self-play search.
    #[arg(long)]
    egdb: Option<PathBuf>,
    /// Keep every copy of a position (by default only its first is kept).
    #[arg(long)]
    keep_duplicates: bool,
    /// Start from this network (a DMNN file of the variant, e.g. the shipped one) instead of
    /// random weights: training goes on from it (--seed still draws the shuffles and split),
    /// with its layer stacks; a network of one stack with --stacks N starts N stacks, each a
    /// copy of its one.
    #[arg(long)]
    init: Option<String>,
    /// Layer stacks after the first layer, one for each run of piece counts (1 to 8): with 4,
    /// 1-6, 7-12, 13-18 and 19-24 pieces on 8x8 (1-10 ... 31-40 on 10x10) each have their own
    /// second, third and output layers (docs/training.md).
    #[arg(long, default_value_t = 1)]
    stacks: usize,
}

/// Runs `damiera-train network`: reads the data, trains, writes the network.
///
/// # Errors
/// A bad argument, an unreadable data or `--init` file, no training positions, a candle
/// failure, or an unwritable output: a one-line message.
pub fn run(a: &NetworkArgs) -> Result<(), String> {
    if !(0.0..=0.5).contains(&a.validation) {
        return Err("--validation must be in [0, 0.5]".into());
    }
    if a.batch == 0 {
        return Err("--batch must be positive".into());
    }
    if !(0.0..=1.0).contains(&a.lambda) || a.scale <= 0.0 {
        return Err("--lambda must be in [0, 1] and --scale positive".into());
    }
    // The starting network first: a bad --init fails before the data is read.
    let init =
        match &a.init {
            Some(path) => Some(read_weights(a.variant, path)?.network().cloned().ok_or(
                format!("{path}: pattern weights (DMEV), not a network (DMNN)"),
            )?),
            None => None,
        };
    let mut samples = Vec::new();
    for path in &a.data {
        samples.extend(read_file(path, a.variant)?);
    }
    if !a.keep_duplicates {
        let dropped = dedup(&mut samples);
        eprintln!("{dropped} repeated positions dropped");
    }
    if let Some(dir) = &a.egdb {
        let db = open_egdb(dir, a.variant, u32::MAX)?;
        let n = label_with_egdb(a.variant, &db, &mut samples);
        eprintln!(
            "{n} positions labelled by the endgame databases (up to {} pieces)",
            db.max_pieces()
        );
    }
    let mut rng = StdRng::seed_from_u64(a.seed);
    samples.shuffle(&mut rng);
    let held = (samples.len() as f64 * a.validation).round() as usize;
    let (valid, train) = samples.split_at_mut(held);
    if train.is_empty() {
        return Err("no training positions".into());
    }
    eprintln!(
        "{} positions: {} training, {} validation",
        train.len() + valid.len(),
        train.len(),
        valid.len()
    );
    let cfg = Config {
        lr: a.lr,
        lambda: a.lambda,
        scale: a.scale,
        stacks: a.stacks,
    };
    let mut trainer = match &init {
        Some(net) => Trainer::from_network(net, cfg)?,
        None => Trainer::new(a.variant, cfg, a.seed)?,
    };
    let valid_loss = |t: &Trainer| -> Result<Option<f32>, String> {
        if valid.is_empty() {
            return Ok(None);
        }
        let (mut sum, mut n) = (0.0f64, 0usize);
        for chunk in valid.chunks(4096) {
            sum += f64::from(t.loss(&t.batch(chunk)?)?) * chunk.len() as f64;
            n += chunk.len();
        }
        Ok(Some((sum / n as f64) as f32))
    };
    if let Some(v) = valid_loss(&trainer)? {
        eprintln!("initial validation loss {v:.6}");
    }
    let lr_end = a.lr_end.unwrap_or(a.lr);
    if !(a.lr > 0.0 && lr_end > 0.0) {
        return Err("--lr and --lr-end must be positive".into());
    }
    for epoch in 1..=a.epochs {
        let start = Instant::now();
        let lr = if a.epochs > 1 {
            a.lr * (lr_end / a.lr).powf((epoch - 1) as f64 / (a.epochs - 1) as f64)
        } else {
            a.lr
        };
        trainer.set_learning_rate(lr);
        train.shuffle(&mut rng);
        let (mut sum, mut n) = (0.0f64, 0usize);
        for chunk in train.chunks(a.batch) {
            let b = trainer.batch(chunk)?;
            sum += f64::from(trainer.step(&b)?) * chunk.len() as f64;
            n += chunk.len();
        }
        let secs = start.elapsed().as_secs_f64();
        let v = valid_loss(&trainer)?.map_or("-".to_string(), |v| format!("{v:.6}"));
        println!(
            "epoch {epoch}/{} (lr {lr:.2e}): {:.0} positions/s, train loss {:.6}, validation loss {v}",
            a.epochs,
            n as f64 / secs,
            sum / n as f64
        );
    }
    let net = trainer.export()?;
    std::fs::write(&a.out, net.to_bytes()).map_err(|e| format!("cannot write {}: {e}", a.out))?;
    eprintln!("wrote {}", a.out);
    Ok(())
}
