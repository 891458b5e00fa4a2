//! `damiera book`: describe and probe opening books in the DMBK format (docs/book.md). The
//! work is in `damiera::book`; this file holds the arguments and the printing.

use super::shared::fail;
use clap::Subcommand;
use damiera::book::{book_key, Book, BookMove};
use damiera::core::variant_position::VariantPosition;
use std::path::PathBuf;
use std::process::ExitCode;

/// `damiera book` and its subcommands.
#[derive(clap::Args)]
pub struct BookArgs {
    #[command(subcommand)]
    command: BookCommand,
}

#[derive(Subcommand)]
enum BookCommand {
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
