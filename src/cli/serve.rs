//! `damiera serve`: the board in the browser (docs/serve.md); the server is
//! [`damiera::web`].

use super::shared::{evaluations, fail, hash_mib};
use damiera::book::Book;
use damiera::egdb::default_dir;
use damiera::web::{serve, ServeConfig, SessionConfig};
use std::net::IpAddr;
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::Arc;

/// The `serve` subcommand's arguments.
#[derive(clap::Args)]
pub struct ServeArgs {
    /// The address to listen on. The default is this machine only; another address lets
    /// other machines play on this one.
    #[arg(long, default_value = "127.0.0.1")]
    pub host: IpAddr,
    /// The port (0: any free port).
    #[arg(long, default_value_t = 8080)]
    pub port: u16,
    /// Transposition table size of each page's engine in MiB, 1 to 65536.
    #[arg(long, default_value_t = damiera::engine::DEFAULT_HASH_MIB as u64)]
    pub hash: u64,
    /// The most pages open at once (each has its own engine and table).
    #[arg(long, default_value_t = damiera::web::server::DEFAULT_MAX_SESSIONS,
          value_parser = clap::value_parser!(usize))]
    pub max_sessions: usize,
    /// Evaluation weights file for the variants it fits (`hand`: the hand-set evaluation;
    /// default: built in).
    #[arg(long)]
    pub eval_file: Option<String>,
    /// Use the endgame databases under DIR (without DIR: the default data directory).
    #[arg(long, value_name = "DIR")]
    pub egdb: Option<Option<PathBuf>>,
    /// An opening book (DMBK, docs/book.md), read at start; repeat it for other variants, one
    /// book a variant (each file names its own). The engine plays from the game's variant's
    /// book and the page lists each position's book moves.
    #[arg(long, value_name = "FILE")]
    pub book: Vec<PathBuf>,
}

/// The `--book` files, read: at most one a variant.
///
/// # Errors
/// One line: a file that is not a readable DMBK book, or a second book of one variant.
fn read_books(paths: &[PathBuf]) -> Result<Vec<Arc<Book>>, String> {
    let mut books: Vec<(Arc<Book>, &PathBuf)> = Vec::new();
    for path in paths {
        let book = Book::open(path).map_err(|e| format!("--book {e}"))?;
        if let Some((_, first)) = books.iter().find(|(b, _)| b.variant() == book.variant()) {
            return Err(format!(
                "--book {}: a second {} book ({} is one); give one book a variant",
                path.display(),
                book.variant().name(),
                first.display()
            ));
        }
        books.push((Arc::new(book), path));
    }
    Ok(books.into_iter().map(|(b, _)| b).collect())
}

/// Runs the server until the process is stopped; prints the page's address on stdout. Exit
/// status 2 on a bad option, a bad `--book` or an address that cannot be bound.
pub fn run(a: ServeArgs) -> ExitCode {
    let hash = match hash_mib(a.hash) {
        Ok(m) => m,
        Err(code) => return code,
    };
    if a.max_sessions == 0 {
        return fail("--max-sessions 0: at least one page must be able to play");
    }
    let evaluations = match a.eval_file {
        Some(path) => match evaluations(None, &path) {
            Ok(e) => e,
            Err(e) => return fail(&e),
        },
        None => Vec::new(),
    };
    let books = match read_books(&a.book) {
        Ok(b) => b,
        Err(e) => return fail(&e),
    };
    let config = ServeConfig {
        host: a.host,
        port: a.port,
        max_sessions: a.max_sessions,
        session: SessionConfig {
            hash_mib: hash,
            evaluations,
            egdb: a.egdb.map(|d| d.unwrap_or_else(default_dir)),
            books,
        },
    };
    let result = serve(config, |addr| {
        println!("damiera serve: open http://{addr}/ in a browser (Ctrl-C ends)");
    });
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => fail(&e),
    }
}
