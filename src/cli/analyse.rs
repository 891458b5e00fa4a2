//! `damiera analyse`: a search from the shell, printed for a person to read; with `--pdn`,
//! every position of a file's games ([`super::analyse_pdn`]).

use super::analyse_pdn;
use super::shared::{evaluations, fail, hash_mib};
use damiera::book::{Book, ProbedMove};
use damiera::core::variant::Variant;
use damiera::core::variant_position::VariantPosition;
use damiera::egdb::default_dir;
use damiera::engine::eval::Evaluation;
use damiera::engine::search::Limits;
use damiera::engine::{Depth, Engine, Event, MoveForm, Score, MAX_EGDB_PIECES};
use damiera::tools::analysis::{book_score, db_score, db_text};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// The `analyse` subcommand's arguments.
#[derive(clap::Args)]
pub struct AnalyseArgs {
    /// english (american, checkers), italian, brazilian, russian, damone, international, antidraughts (losing), breakthrough (bt), frisian or frysk (frysk!);
    /// with --pdn, the variant of games without a [GameType] tag.
    #[arg(long, short, required_unless_present = "pdn")]
    pub variant: Option<String>,
    /// PDN FEN in the variant's notation (default: the start position).
    #[arg(long, short, conflicts_with = "pdn")]
    pub fen: Option<String>,
    /// Moves played from that position, space-separated, in the variant's notation.
    #[arg(long, short, conflicts_with = "pdn")]
    pub moves: Option<String>,
    /// A PDN file: analyse its games move by move, print a report per game.
    #[arg(long)]
    pub pdn: Option<String>,
    /// With --pdn: only this game (1 = the first in the file).
    #[arg(long, requires = "pdn", conflicts_with = "all")]
    pub game: Option<usize>,
    /// With --pdn: every game of the file (the default).
    #[arg(long, requires = "pdn")]
    pub all: bool,
    /// With --pdn: write the games with a comment per move to this PDN file.
    #[arg(long, requires = "pdn")]
    pub out: Option<String>,
    /// Depth in plies.
    #[arg(long, short, required_unless_present = "movetime")]
    pub depth: Option<u32>,
    /// Thinking time in milliseconds.
    #[arg(long, short = 't')]
    pub movetime: Option<u64>,
    /// Transposition table size in MiB, 1 to 65536.
    #[arg(long, default_value_t = damiera::engine::DEFAULT_HASH_MIB as u64)]
    pub hash: u64,
    /// Evaluation weights file (`hand`: the hand-set evaluation; default: built in).
    #[arg(long)]
    pub eval_file: Option<String>,
    /// Use the endgame databases under DIR (without DIR: the default data directory, as
    /// `damiera egdb` uses): the search probes them, and a position they hold is printed as
    /// `db win`/`db draw`/`db loss`.
    #[arg(long, value_name = "DIR")]
    pub egdb: Option<Option<PathBuf>>,
    /// An opening book (DMBK, docs/book.md): the position's book moves are printed before the
    /// search (`book: 11-15 +0.19 (depth 8, count 1), ...` or `book: none`); with --pdn, each
    /// move that was a book move is marked `book` and the report says where the game left the
    /// book.
    #[arg(long, value_name = "FILE")]
    pub book: Option<PathBuf>,
}

/// Runs `damiera analyse`: loads `--eval-file`, then analyses the position or, with `--pdn`,
/// the file's games. Exit status 2 on a bad variant, weights file, FEN or move, or a hash
/// table that cannot be had.
pub fn run(a: AnalyseArgs) -> ExitCode {
    let hash = match hash_mib(a.hash) {
        Ok(m) => m,
        Err(code) => return code,
    };
    let variant: Option<Variant> = match a.variant.map(|v| v.parse()).transpose() {
        Ok(v) => v,
        Err(e) => return fail(&e.to_string()),
    };
    let evaluations = match a.eval_file {
        Some(path) => match evaluations(variant, &path) {
            Ok(e) => e,
            Err(e) => return fail(&e),
        },
        None => Vec::new(),
    };
    let egdb = a.egdb.map(|d| d.unwrap_or_else(default_dir));
    let book = match a.book.as_deref().map(Book::open).transpose() {
        Ok(b) => b,
        Err(e) => return fail(&format!("--book {e}")),
    };
    if let Some(path) = a.pdn {
        return analyse_pdn::run(analyse_pdn::PdnArgs {
            path,
            game: a.game,
            default_variant: variant,
            depth: a.depth,
            movetime: a.movetime,
            out: a.out,
            hash,
            evaluations,
            egdb,
            book,
        });
    }
    let Some(variant) = variant else {
        return fail("--variant is needed without --pdn");
    };
    if let (Some(b), Some(path)) = (&book, &a.book) {
        if b.variant() != variant {
            return fail(&format!(
                "--book {}: its variant is {}, not {variant}",
                path.display(),
                b.variant().name()
            ));
        }
    }
    run_position(
        variant,
        a.fen.as_deref(),
        a.moves.as_deref(),
        Limits {
            depth: a.depth.map(Depth),
            movetime: a.movetime,
            ..Limits::default()
        },
        hash,
        egdb.as_deref(),
        book.as_ref(),
        evaluations
            .into_iter()
            .next()
            .map_or(Evaluation::BuiltIn, |(_, e)| e),
    )
}

/// Analyses one position (with `book`, printing its book moves first); exit status 2 on a bad
/// FEN or move, or a hash table that cannot be had.
#[allow(clippy::too_many_arguments)]
fn run_position(
    variant: Variant,
    fen: Option<&str>,
    moves: Option<&str>,
    limits: Limits,
    hash: usize,
    egdb: Option<&Path>,
    book: Option<&Book>,
    evaluation: Evaluation,
) -> ExitCode {
    // A 1 MiB table first, then the one asked for (1 to MAX_HASH_MIB, checked by clap), so
    // that a size beyond the machine's memory is a one-line error rather than a failed
    // allocation.
    let mut engine = Engine::new(variant, 1);
    if let Err(e) = engine.set_hash(hash) {
        eprintln!("error: --hash {hash}: {e}");
        return ExitCode::from(2);
    }
    engine.set_evaluation(variant, evaluation);
    if let Some(root) = egdb {
        if let Err(e) = engine.set_egdb(Some(root), MAX_EGDB_PIECES) {
            return fail(&format!("--egdb: {e}"));
        }
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
    if let Some(p) = engine.probe_egdb() {
        println!("{}", db_text(&p.probe));
    }
    if let Some(book) = book {
        let probed = VariantPosition::from_fen(variant, &engine.fen())
            .map(|pos| book.probe(&pos))
            .unwrap_or_default();
        println!("book: {}", book_text(&probed));
    }
    println!(
        "{:>5} {:>9} {:>12} {:>8} {:>7}  principal variation",
        "depth", "score", "nodes", "time s", "Mn/s"
    );
    let best = engine.search(limits, MoveForm::Native, |ev| {
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

/// A position's book moves as `analyse` prints them, best first: `11-15 +0.19 (depth 8,
/// count 1), 9-13 +0.05 (depth 8, count 0)` (scores from the side to move's view, as the
/// search's), or `none`.
fn book_text(moves: &[ProbedMove]) -> String {
    if moves.is_empty() {
        return "none".into();
    }
    let each: Vec<String> = moves
        .iter()
        .map(|m| {
            let e = &m.entry;
            format!(
                "{} {} (depth {}, count {})",
                m.name,
                score_text(book_score(e.score)),
                e.depth,
                e.count
            )
        })
        .collect();
    each.join(", ")
}

/// A score as a person reads it: men with a sign, a win/loss in plies, or a database
/// win/loss in plies to conversion.
fn score_text(s: Score) -> String {
    if let Some(d) = db_score(s) {
        return if d >= 0 {
            format!("db win {d}")
        } else {
            format!("db loss {}", -d)
        };
    }
    match s {
        Score::Cp(c) => format!("{:+.2}", c as f64 / 100.0),
        Score::Win(p) => format!("win {p}"),
        Score::Loss(p) => format!("loss {p}"),
    }
}
