//! `damiera analyse`: a search from the shell, printed for a person to read.

use damiera::core::variant::Variant;
use damiera::engine::search::Limits;
use damiera::engine::{Engine, Event, Naming, Score};
use std::process::ExitCode;

/// Runs the analysis; exit status 2 on a bad FEN or move, or a hash table that cannot be had.
pub fn run(
    variant: Variant,
    fen: Option<&str>,
    moves: Option<&str>,
    depth: Option<u32>,
    movetime: Option<u64>,
    hash: usize,
) -> ExitCode {
    // A 1 MiB table first, then the one asked for (1 to MAX_HASH_MIB, checked by clap), so
    // that a size beyond the machine's memory is a one-line error rather than a failed
    // allocation.
    let mut engine = Engine::new(variant, 1);
    if let Err(e) = engine.set_hash(hash) {
        eprintln!("error: --hash {hash}: {e}");
        return ExitCode::from(2);
    }
    let moves: Vec<&str> = moves
        .map(|m| m.split_whitespace().collect())
        .unwrap_or_default();
    if let Err(e) = engine.set_position(fen, &moves) {
        eprintln!("error: {e}");
        return ExitCode::from(2);
    }
    println!("{} {}", variant, engine.fen());
    print!("{}", engine.diagram());
    if let Some(outcome) = engine.outcome() {
        println!("game over: {outcome}");
        return ExitCode::SUCCESS;
    }
    let limits = Limits {
        depth,
        movetime,
        ..Limits::default()
    };
    println!(
        "{:>5} {:>9} {:>12} {:>8} {:>7}  principal variation",
        "depth", "score", "nodes", "time s", "Mn/s"
    );
    let best = engine.search(limits, Naming::Native, |ev| {
        if let Event::Info {
            depth,
            seldepth,
            score,
            nodes,
            nps,
            time_ms,
            pv,
            ..
        } = ev
        {
            println!(
                "{:>2}/{:<2} {:>9} {:>12} {:>8.2} {:>7.2}  {}",
                depth,
                seldepth,
                score_text(score),
                nodes,
                time_ms as f64 / 1000.0,
                nps as f64 / 1e6,
                pv.join(" ")
            );
        }
    });
    match best {
        (Some(b), Some(p)) => println!("best move: {b} (expected reply {p})"),
        (Some(b), None) => println!("best move: {b}"),
        (None, _) => println!("no legal move"),
    }
    ExitCode::SUCCESS
}

/// A score as a person reads it: men with a sign, or a win/loss in plies.
fn score_text(s: Score) -> String {
    match s {
        Score::Cp(c) => format!("{:+.2}", c as f64 / 100.0),
        Score::Win(p) => format!("win {p}"),
        Score::Loss(p) => format!("loss {p}"),
    }
}
