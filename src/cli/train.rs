//! `damiera train`: moved. Training is one command in the trainer crate, `damiera-train`
//! (`trainer/`, docs/training.md): `damiera-train network` for a network, `damiera-train
//! patterns` for pattern weights (what `damiera train` fitted).

use clap::Args;
use std::process::ExitCode;

/// `damiera train`'s arguments: any, all ignored.
#[derive(Args)]
pub struct TrainArgs {
    /// Ignored: `damiera train` only says where training went.
    #[arg(trailing_var_arg = true, allow_hyphen_values = true)]
    pub args: Vec<String>,
}

/// Runs `damiera train`: prints a one-line pointer to `damiera-train` on stderr and exits 2.
pub fn run(_: TrainArgs) -> ExitCode {
    eprintln!(
        "damiera train moved: use `damiera-train patterns ...` (or `damiera-train network ...`), \
         built by `cargo build --release -p damiera-trainer` (docs/training.md)"
    );
    ExitCode::from(2)
}
