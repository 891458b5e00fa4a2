//! `damiera openings`: random balanced openings, printed as an openings file
//! (`damiera::tools::arena::openings`).

use super::shared::fail;
use damiera::core::variant::Variant;
use damiera::engine::Depth;
use damiera::tools::arena::openings::{self, RandomOpenings};
use std::process::ExitCode;

/// The `openings` subcommand's arguments.
#[derive(clap::Args)]
pub struct OpeningsArgs {
    /// english (american, checkers), italian, brazilian, russian, damone, international, antidraughts (losing), breakthrough (bt), frisian or frysk (frysk!).
    #[arg(long, short)]
    pub variant: String,
    /// How many openings.
    #[arg(long)]
    pub count: usize,
    /// Random plies from the start position.
    #[arg(long)]
    pub plies: usize,
    /// Seed of the random generator.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Depth of the balance check (0: none).
    #[arg(long, default_value_t = 8)]
    pub depth: u32,
    /// Largest accepted |score| of the balance check, in centi-men.
    #[arg(long, default_value_t = 25)]
    pub margin: i32,
}

/// Runs `damiera openings`: prints random balanced openings, one a line, with a header.
pub fn run(a: OpeningsArgs) -> ExitCode {
    let variant: Variant = match a.variant.parse() {
        Ok(v) => v,
        Err(e) => return fail(&e.to_string()),
    };
    let p = RandomOpenings {
        count: a.count,
        plies: a.plies,
        seed: a.seed,
        depth: Depth(a.depth),
        margin: a.margin,
    };
    match openings::random_openings(variant, p) {
        Ok(o) => {
            println!(
                "# {} random {variant} openings: {} random legal plies from the start position,",
                a.count, a.plies
            );
            println!(
                "# kept when both sides have as many pieces and a depth-{} damiera search scores",
                a.depth
            );
            println!("# within ±{} centi-men. Made by:", a.margin);
            println!(
                "#   damiera openings --variant {variant} --count {} --plies {} --seed {} --depth {} --margin {}",
                a.count, a.plies, a.seed, a.depth, a.margin
            );
            println!("# (damiera {})", env!("CARGO_PKG_VERSION"));
            for op in o {
                println!("{}", op.text);
            }
            ExitCode::SUCCESS
        }
        Err(e) => fail(&e),
    }
}
