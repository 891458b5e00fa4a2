//! `damiera-train`: the one training command (docs/training.md). `damiera-train network`
//! trains an evaluation network (candle, CPU) and writes it as DMNN, the evaluation of every
//! variant; `damiera-train patterns` fits pattern weights (DMEV), the evaluation before the
//! networks.
//! Both read the self-play data `damiera selfplay` writes (DMSP).

mod network_cmd;
mod patterns_cmd;

use clap::{Parser, Subcommand};
use std::process::ExitCode;

/// Trains damiera's evaluation from self-play data (`damiera selfplay`).
#[derive(Parser, Debug)]
#[command(name = "damiera-train")]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

/// What to train.
#[derive(Subcommand, Debug)]
enum Command {
    /// An evaluation network (DMNN), the evaluation of every variant.
    Network(network_cmd::NetworkArgs),
    /// Pattern weights (DMEV), the evaluation before the networks (loads with EvalFile).
    Patterns(patterns_cmd::PatternsArgs),
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match &cli.command {
        Command::Network(a) => network_cmd::run(a),
        Command::Patterns(a) => patterns_cmd::run(a),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("damiera-train: {e}");
            ExitCode::FAILURE
        }
    }
}
