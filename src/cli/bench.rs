//! `damiera bench`: fixed positions of every variant searched to a fixed depth with a fresh
//! transposition table each. The node total is a signature: any change to the search's
//! behaviour changes it. Positions: each start position and one middle game per variant
//! (ply 11 of a pydraughts random game, seed 5, `tests/pydraughts/walk.py`; for Damone, ply 8 of an
//! engine line). `--threads` and `--variant` measure the time to a depth with more threads
//! (docs/strength.md, "Threads") and one variant's speed; with more than one thread the node
//! total is no signature (the threads race).

use super::shared::{fail, variant};
use damiera::core::variant::Variant;
use damiera::engine::search::Limits;
use damiera::engine::search::MAX_THREADS;
use damiera::engine::{Depth, Engine, Event, MoveForm, MAX_EGDB_PIECES};
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;

/// The default depth in plies.
pub const DEPTH: u32 = 13;

const POSITIONS: [(Variant, Option<&str>); 12] = [
    (Variant::English, None),
    (
        Variant::English,
        Some("W:W17,23,24,25,26,28,29,30,31,32:B1,2,3,4,5,6,9,11,15,16,21"),
    ),
    (Variant::Italian, None),
    (
        Variant::Italian,
        Some("B:W19,22,24,25,27,29,30,31,32:B1,2,3,6,7,8,9,11,16"),
    ),
    (Variant::Brazilian, None),
    (
        Variant::Brazilian,
        Some("B:Wa1,a3,c1,d2,d4,f2,g1,g3,h2:Ba7,b6,b8,c7,d8,e5,e7,f6,f8,h6,h8"),
    ),
    (Variant::Russian, None),
    (
        Variant::Russian,
        Some("B:Wa1,b2,b4,c1,c3,e1,e3,g1,g3,h2,h4:Ba5,a7,b8,d6,d8,e7,f6,g5,g7,h6,h8"),
    ),
    (Variant::Damone, None),
    (
        Variant::Damone,
        Some("W:WIh1,Kf1,Kf5,d1,e2,e4,g6:BIa8,Kd7,Ka6,e8,c6,b5,b3"),
    ),
    (Variant::International, None),
    (
        Variant::International,
        Some("B:W27,31,34,36,37,38,41,42,43,44,45,46,47,48,49,50:B1,2,3,4,5,6,7,8,10,11,12,14,15,16,17,18,20"),
    ),
];

/// The `bench` subcommand's arguments.
#[derive(clap::Args)]
pub struct BenchArgs {
    /// Depth in plies.
    #[arg(long, short, default_value_t = DEPTH)]
    pub depth: u32,
    /// Load the endgame databases under DIR for every variant that has them there (to
    /// measure the search speed with them; the node counts are then no signature).
    #[arg(long, value_name = "DIR")]
    pub egdb: Option<PathBuf>,
    /// Search threads (Lazy SMP) for every position, from 1 to the engine's maximum; with
    /// more than one the node total varies from run to run.
    #[arg(long, default_value_t = 1)]
    pub threads: usize,
    /// Only this variant's positions (english, italian, brazilian, russian, damone or
    /// international).
    #[arg(long, short)]
    pub variant: Option<String>,
}

/// Runs the bench and prints one line per position, then the totals.
pub fn run(a: BenchArgs) -> ExitCode {
    let depth = a.depth;
    if !(1..=MAX_THREADS).contains(&a.threads) {
        return fail(&format!("--threads must be 1 to {MAX_THREADS}"));
    }
    let only = match a.variant.as_deref().map(variant).transpose() {
        Ok(v) => v,
        Err(e) => return fail(&e),
    };
    let start = Instant::now();
    let mut total = 0u64;
    // Time spent opening databases, left out of the total time.
    let mut opening = 0.0;
    for (variant, fen) in POSITIONS {
        if only.is_some_and(|v| v != variant) {
            continue;
        }
        let mut engine = Engine::new(variant, 16);
        engine.set_threads(a.threads);
        if let Err(e) = engine.set_position(fen, &[]) {
            eprintln!("error: bench position: {e}");
            return ExitCode::from(2);
        }
        if let Some(root) = &a.egdb {
            let t = Instant::now();
            let r = engine.set_egdb(Some(root), MAX_EGDB_PIECES);
            opening += t.elapsed().as_secs_f64();
            if let Err(e) = r {
                eprintln!("bench: {variant}: no databases ({e})");
            }
        }
        let limits = Limits {
            depth: Some(Depth(depth)),
            ..Limits::default()
        };
        let t = Instant::now();
        let mut nodes = 0;
        let (best, _) = engine.search(limits, MoveForm::Native, |ev| {
            if let Event::Info { nodes: n, .. } = ev {
                nodes = n;
            }
        });
        let best = best.unwrap_or_default();
        total += nodes;
        println!(
            "{:<10} {:<70} {:>11} nodes {:>7.3} s  {}",
            variant,
            engine.fen(),
            nodes,
            t.elapsed().as_secs_f64(),
            best
        );
    }
    let secs = start.elapsed().as_secs_f64() - opening;
    println!("Total nodes: {total}");
    println!("Time: {secs:.3} s");
    println!("Nodes/second: {:.0}", total as f64 / secs.max(1e-9));
    ExitCode::SUCCESS
}
