//! `damiera serve`: the board in the browser (docs/serve.md); the server is
//! [`damiera::web`].

use super::shared::{evaluations, fail, hash_mib};
use damiera::egdb::default_dir;
use damiera::web::{serve, ServeConfig, SessionConfig};
use std::net::IpAddr;
use std::path::PathBuf;
use std::process::ExitCode;

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
}

/// Runs the server until the process is stopped; prints the page's address on stdout. Exit
/// status 2 on a bad option or an address that cannot be bound.
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
    let config = ServeConfig {
        host: a.host,
        port: a.port,
        max_sessions: a.max_sessions,
        session: SessionConfig {
            hash_mib: hash,
            evaluations,
            egdb: a.egdb.map(|d| d.unwrap_or_else(default_dir)),
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
