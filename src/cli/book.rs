//! `damiera book`: build, describe and probe opening books in the DMBK format (docs/book.md).
//! The work is in `damiera::book` and `damiera::tools::book`; this file holds the arguments
//! and the printing.

use super::shared::{fail, hash_mib, variant};
use clap::Subcommand;
use damiera::book::{book_key, Book, BookMove};
use damiera::core::variant::Variant;
use damiera::core::variant_position::VariantPosition;
use damiera::tools::arena::openings::read_openings;
use damiera::tools::book::{build, BuildSettings};
use damiera::tools::progress;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;

/// `damiera book` and its subcommands.
#[derive(clap::Args)]
pub struct BookArgs {
    #[command(subcommand)]
    command: BookCommand,
}

#[derive(Subcommand)]
enum BookCommand {
    /// Build a book by drop-out expansion, each leaf valued by a fixed-depth search; resumes
    /// from --out when it exists (the book file is the state).
    Build {
        /// english (american, checkers), italian, brazilian, russian, damone or international.
        #[arg(long, short)]
        variant: String,
        /// An openings file (one FEN and/or moves a line, `#` comments): its positions are the
        /// roots (default: the start position).
        #[arg(long)]
        from: Option<String>,
        /// Stop when the book holds this many positions.
        #[arg(long)]
        positions: usize,
        /// The leaf searches' depth in plies (1 to 64).
        #[arg(long)]
        depth: u8,
        /// Leaf searches at once (each an engine on its own thread).
        #[arg(long, default_value_t = 1)]
        threads: usize,
        /// Each engine's hash table in MiB.
        #[arg(long, default_value_t = 16)]
        hash: u64,
        /// Plies of depth one centi-man of drop-out costs in the priority (0.02: half a man
        /// equals one ply).
        #[arg(long, default_value_t = 0.02)]
        alpha: f64,
        /// The book file (written atomically; read first to resume).
        #[arg(long)]
        out: PathBuf,
    },
    /// The book's variant, entries (moves) and positions.
    Info {
        /// The book file.
        book: PathBuf,
    },
    /// A position's key and its book moves, best first: name, from, to, the taken squares
    /// (book numbers, `-` for none), score (centi-men), depth (plies), count.
    Probe {
        /// The book file.
        book: PathBuf,
        /// The position (default: the variant's start).
        #[arg(long)]
        fen: Option<String>,
    },
}

/// The taken squares of a book move as book numbers joined by commas, or `-`.
pub fn captured_list(mv: &BookMove) -> String {
    let squares: Vec<String> = (0..64)
        .filter(|i| mv.captured >> i & 1 == 1)
        .map(|i| (i + 1).to_string())
        .collect();
    if squares.is_empty() {
        "-".into()
    } else {
        squares.join(",")
    }
}

/// Runs `damiera book`: exit status 0, or 2 after a one-line error (an unreadable, foreign
/// or truncated book, a bad FEN).
pub fn run(a: BookArgs) -> ExitCode {
    let path = match &a.command {
        BookCommand::Info { book } | BookCommand::Probe { book, .. } => book,
        BookCommand::Build { .. } => return run_build(a.command),
    };
    let book = match Book::open(path) {
        Ok(b) => b,
        Err(e) => return fail(&e.to_string()),
    };
    match a.command {
        BookCommand::Info { .. } => {
            let info = book.info();
            println!("variant {}", info.variant.name());
            println!("entries {}", info.entries);
            println!("positions {}", info.positions);
        }
        BookCommand::Build { .. } => unreachable!("handled above"),
        BookCommand::Probe { fen, .. } => {
            let pos = match VariantPosition::new(book.variant(), fen.as_deref()) {
                Ok(p) => p,
                Err(e) => return fail(&format!("--fen: {e}")),
            };
            println!("key {:016x}", book_key(&pos));
            for m in book.probe(&pos) {
                let e = m.entry;
                println!(
                    "{} {} {} {} {} {} {}",
                    m.name,
                    e.mv.from,
                    e.mv.to,
                    captured_list(&e.mv),
                    e.score,
                    e.depth,
                    e.count
                );
            }
        }
    }
    ExitCode::SUCCESS
}

/// `damiera book build`: the settings checked, the roots read, the build with its bar.
fn run_build(command: BookCommand) -> ExitCode {
    let BookCommand::Build {
        variant: name,
        from,
        positions,
        depth,
        threads,
        hash,
        alpha,
        out,
    } = command
    else {
        unreachable!("run_build gets a build")
    };
    let v = match variant(&name) {
        Ok(v) => v,
        Err(e) => return fail(&e),
    };
    if !(1..=64).contains(&depth) {
        return fail(&format!("--depth {depth}: 1 to 64 plies"));
    }
    if threads == 0 || !(alpha.is_finite() && alpha >= 0.0) {
        return fail("--threads is at least 1 and --alpha a number at least 0");
    }
    let hash_mib = match hash_mib(hash) {
        Ok(m) => m,
        Err(code) => return code,
    };
    let roots = match from {
        None => vec![VariantPosition::start(v)],
        Some(path) => match roots_of(&path, v) {
            Ok(r) => r,
            Err(e) => return fail(&e),
        },
    };
    let settings = BuildSettings {
        variant: v,
        roots,
        positions,
        depth,
        threads,
        hash_mib,
        alpha,
    };
    let bar = progress::bar(
        positions as u64,
        "{bar:30} {pos}/{len} positions {msg} {elapsed_precise} left {eta}",
    );
    let started = Instant::now();
    let mut first = None;
    let result = build(&settings, &out, |n| {
        let base = *first.get_or_insert(n);
        bar.set_position(n as u64);
        let minutes = started.elapsed().as_secs_f64() / 60.0;
        if minutes > 0.0 {
            bar.set_message(format!("{:.0}/min", (n - base) as f64 / minutes));
        }
    });
    bar.finish_and_clear();
    match result {
        Ok(n) => {
            println!("{}: {n} positions ({} book)", out.display(), v.name());
            ExitCode::SUCCESS
        }
        Err(e) => fail(&e.to_string()),
    }
}

/// The roots an openings file names: each line's position after its moves.
fn roots_of(path: &str, v: Variant) -> Result<Vec<VariantPosition>, String> {
    let mut roots = Vec::new();
    for o in read_openings(path, v)? {
        let mut p =
            VariantPosition::new(v, o.fen.as_deref()).map_err(|e| format!("{path}: {e}"))?;
        for m in &o.moves {
            p.play_text(m).map_err(|e| format!("{path}: {e}"))?;
        }
        roots.push(p);
    }
    Ok(roots)
}
