//! The `damiera` command: the top-level arguments, the dispatch to the subcommands (one file
//! each in `cli/`: arguments and printing) and, with no subcommand, the protocol loop.

use clap::{CommandFactory, FromArgMatches, Parser, Subcommand};
use std::process::ExitCode;

mod cli;

#[derive(Parser)]
#[command(
    name = "damiera",
    version,
    about = "A draughts engine: English (American checkers), Italian, Brazilian, Russian, Italian Damone and International (10x10) draughts"
)]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
}

#[derive(Subcommand)]
enum Command {
    /// Count the leaves of the legal-move tree (perft), optionally per root move (divide).
    Perft(cli::perft::PerftArgs),
    /// Analyse a position (the search's progress per depth, then the best move), or with
    /// --pdn every position of the games of a PDN file (docs/analysis.md).
    #[command(alias = "analyze")]
    Analyse(cli::analyse::AnalyseArgs),
    /// Search fixed positions of every variant to a fixed depth: total nodes (a signature of
    /// the search's behaviour) and nodes per second.
    Bench(cli::bench::BenchArgs),
    /// Opening books in the DMBK format: build, info, probe, export, import, merge (docs/book.md).
    Book(cli::book::BookArgs),
    /// The Hub protocol (Scan, pydraughts, lidraughts-bot) on stdin/stdout.
    Hub,
    /// DXP (DamExchange) over TCP, International only: wait for games (--listen) or request
    /// one (--connect). docs/dxp.md.
    Dxp(cli::dxp::DxpArgs),
    /// Endgame databases: build, probe, verify, info, bench (docs/egdb.md).
    Egdb(cli::egdb::EgdbArgs),
    /// Play a match between two engines (docs/match.md).
    Match(cli::r#match::MatchArgs),
    /// Print random balanced openings (docs/match.md).
    Openings(cli::openings::OpeningsArgs),
    /// Play fast games against itself and write their quiet positions as training data
    /// (docs/training.md).
    Selfplay(cli::selfplay::SelfplayArgs),
    /// Moved: training is `damiera-train` (the trainer crate, docs/training.md); prints where
    /// and exits 2.
    Train(cli::train::TrainArgs),
    /// A board in the browser: play, analyse a position or a PDN game (docs/serve.md).
    Serve(cli::serve::ServeArgs),
}

/// Restores the default action of SIGPIPE (end the process without a message).
fn restore_sigpipe() {
    #[cfg(unix)]
    // SAFETY: `signal` with a valid signal number and SIG_DFL only changes this process's
    // signal disposition; it is called before any other thread starts.
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_DFL);
    }
}

fn main() -> ExitCode {
    env_logger::Builder::from_env(env_logger::Env::default().default_filter_or("warn"))
        .target(env_logger::Target::Stderr)
        .init();
    let matches = Cli::command().get_matches();
    let cli = match Cli::from_arg_matches(&matches) {
        Ok(c) => c,
        Err(e) => e.exit(),
    };
    // The shell tools end quietly when their reader goes away (`damiera analyse ... | head`):
    // the default action of SIGPIPE, which Rust programs otherwise ignore (so that a write
    // to a closed pipe panics in `println!`). The protocol loops and `match` keep ignoring
    // it: a front end or an engine that dies is their business, not a reason to die.
    if !matches!(
        cli.command,
        None | Some(Command::Hub) | Some(Command::Match(_)) | Some(Command::Dxp(_))
    ) {
        restore_sigpipe();
    }
    match cli.command {
        Some(Command::Match(args)) => {
            let sub = matches
                .subcommand_matches("match")
                .expect("match subcommand");
            cli::r#match::run(args, sub)
        }
        Some(Command::Openings(args)) => cli::openings::run(args),
        Some(Command::Dxp(args)) => cli::dxp::run(args),
        Some(Command::Selfplay(args)) => cli::selfplay::run(args),
        Some(Command::Train(args)) => cli::train::run(args),
        Some(Command::Perft(args)) => cli::perft::run(args),
        Some(Command::Egdb(args)) => cli::egdb::run(args),
        Some(Command::Analyse(args)) => cli::analyse::run(args),
        Some(Command::Bench(args)) => cli::bench::run(args),
        Some(Command::Book(args)) => cli::book::run(args),
        Some(Command::Serve(args)) => cli::serve::run(args),
        Some(Command::Hub) => {
            let out = damiera::protocol::Output::stdout();
            let mut lines = damiera::protocol::input_lines(std::io::stdin().lock());
            damiera::protocol::hub::run(&mut lines, out);
            ExitCode::SUCCESS
        }
        None => {
            let out = damiera::protocol::Output::stdout();
            damiera::protocol::run(std::io::stdin().lock(), out);
            ExitCode::SUCCESS
        }
    }
}
