//! `damiera selfplay`: the command-line side of [`damiera::tools::learn::selfplay`].

use super::shared::{fail, variant};
use clap::Args;
use damiera::engine::eval::Evaluation;
use damiera::engine::Depth;
use damiera::tools::learn::selfplay::{self, SelfplayConfig};
use std::process::ExitCode;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Instant;

/// `damiera selfplay`'s arguments.
#[derive(Args)]
pub struct SelfplayArgs {
    /// english, italian, brazilian, russian, damone, international, antidraughts (losing), breakthrough (bt), frisian or frysk (frysk!).
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

/// Runs `damiera selfplay`.
pub fn run(a: SelfplayArgs) -> ExitCode {
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
        depth: Depth(a.depth),
        nodes: a.nodes,
        opening_plies: a.opening_plies,
        seed: a.seed,
        concurrency: a.concurrency.max(1),
        hash_mib: match super::hash_mib(a.hash) {
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
            // `a.first_game < a.games` was checked above.
            let wanted = a.games - a.first_game;
            if stop.load(Ordering::SeqCst) && s.games < wanted {
                // Interrupted: the file holds whole games only, but not all of them. A script
                // must not take it for a finished run (exit status 130, as for SIGINT).
                eprintln!(
                    "error: interrupted after {} of {} games; go on with --first-game {}",
                    s.games,
                    wanted,
                    a.first_game + s.games
                );
                return ExitCode::from(130);
            }
            ExitCode::SUCCESS
        }
        Err(e) => fail(&e),
    }
}
