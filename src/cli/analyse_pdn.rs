//! `damiera analyse --pdn FILE`: every position of every game searched, the games written back
//! with a comment per move, and a short report per game (docs/analysis.md).
//!
//! The analysis itself is [`damiera::tools::analysis`].

use damiera::book::Book;
use damiera::core::variant::Variant;
use damiera::engine::eval::Evaluation;
use damiera::engine::search::Limits;
use damiera::engine::{Depth, Engine, MAX_EGDB_PIECES};
use damiera::tools::analysis::{analyse_game, annotated_pdn, report};
use damiera::tools::pdn;
use damiera::tools::progress;
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::atomic::AtomicBool;

/// What `analyse --pdn` was asked for.
pub struct PdnArgs {
    /// The PDN file.
    pub path: String,
    /// One game (1-based), or all of them.
    pub game: Option<usize>,
    /// The variant of games without a `[GameType]` tag.
    pub default_variant: Option<Variant>,
    /// Depth per position, in plies.
    pub depth: Option<u32>,
    /// Time per position, in milliseconds.
    pub movetime: Option<u64>,
    /// Where to write the annotated games.
    pub out: Option<String>,
    /// Transposition table size in MiB.
    pub hash: usize,
    /// The evaluation of each variant `--eval-file` set (the others play with their
    /// built-in weights).
    pub evaluations: Vec<(Variant, Evaluation)>,
    /// The endgame databases' root (`--egdb`), if used.
    pub egdb: Option<PathBuf>,
    /// The opening book (`--book`), if used: each game's book moves are marked.
    pub book: Option<Book>,
}

/// Runs the analysis of a PDN file; exit status 0 when every game was analysed, 1 when a game
/// could not be read or replayed (reported with its line and column), 2 for a file that cannot
/// be read, a bad `--game` or a hash table that cannot be had.
pub fn run(args: PdnArgs) -> ExitCode {
    let bytes = match std::fs::read(&args.path) {
        Ok(b) => b,
        Err(e) => {
            eprintln!("error: {}: {e}", args.path);
            return ExitCode::from(2);
        }
    };
    // Old PDN collections are often Latin-1: undecodable bytes become U+FFFD.
    let text = String::from_utf8_lossy(&bytes);
    let games = pdn::read_games(&text);
    let selected: Vec<usize> = match args.game {
        Some(n) if n == 0 || n > games.len() => {
            eprintln!(
                "error: --game {n}: {} holds {} game{}",
                args.path,
                games.len(),
                if games.len() == 1 { "" } else { "s" }
            );
            return ExitCode::from(2);
        }
        Some(n) => vec![n - 1],
        None => (0..games.len()).collect(),
    };
    let mut failed = 0;
    let mut jobs = Vec::new();
    for &i in &selected {
        let g = &games[i];
        let replayed = pdn::variant_of(g, args.default_variant)
            .map_err(|m| pdn::PdnError {
                span: g.tag_span("GameType"),
                message: m,
            })
            .and_then(|v| pdn::replay(g, v));
        match replayed {
            Ok(r) => jobs.push((i, r)),
            Err(e) => {
                eprintln!(
                    "error: {}:{}: game {}: {}",
                    args.path,
                    e.span,
                    i + 1,
                    e.message
                );
                failed += 1;
            }
        }
    }
    let first_variant = jobs.first().map_or(Variant::English, |(_, r)| r.variant);
    let mut engine = Engine::new(first_variant, 1);
    if let Err(e) = engine.set_hash(args.hash) {
        eprintln!("error: --hash {}: {e}", args.hash);
        return ExitCode::from(2);
    }
    for (v, e) in &args.evaluations {
        engine.set_evaluation(*v, e.clone());
    }
    if let Some(root) = &args.egdb {
        if let Err(e) = engine.set_egdb(Some(root), MAX_EGDB_PIECES) {
            eprintln!("error: --egdb: {e}");
            return ExitCode::from(2);
        }
    }
    let limits = Limits {
        depth: args.depth.map(Depth),
        movetime: args.movetime,
        ..Limits::default()
    };
    let total: u64 = jobs.iter().map(|(_, r)| r.moves.len() as u64 + 1).sum();
    let bar = progress::bar(
        total,
        "{bar:40} {pos}/{len} positions, {elapsed} elapsed, about {eta} left",
    );
    let annotator = match (args.depth, args.movetime) {
        (Some(d), _) => format!("damiera {}, depth {d}", env!("CARGO_PKG_VERSION")),
        (None, Some(t)) => format!("damiera {}, {t} ms per position", env!("CARGO_PKG_VERSION")),
        (None, None) => format!("damiera {}", env!("CARGO_PKG_VERSION")),
    };
    let mut written = String::new();
    for (i, replay) in jobs {
        let never = AtomicBool::new(false);
        let progress = |_, _| bar.inc(1);
        let Some(mut a) = analyse_game(&mut engine, replay, limits.clone(), &never, progress)
        else {
            unreachable!("an analysis ends early only when cancelled");
        };
        if let Some(book) = &args.book {
            a.mark_book(book);
        }
        bar.suspend(|| print!("{}", report(i + 1, &games[i], &a)));
        written.push_str(&annotated_pdn(&games[i], &a, &annotator));
    }
    bar.finish_and_clear();
    if let Some(out) = &args.out {
        if let Err(e) = std::fs::write(out, written) {
            eprintln!("error: {out}: {e}");
            return ExitCode::from(2);
        }
    }
    if failed > 0 {
        eprintln!(
            "{failed} of {} game{} could not be analysed",
            selected.len(),
            if selected.len() == 1 { "" } else { "s" }
        );
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    }
}
