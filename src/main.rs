//! The `damiera` command: the shell tools (`perft`, `analyse`, `match`, ...) and, with no
//! subcommand, the protocol loop.

use clap::{CommandFactory, FromArgMatches, Parser, Subcommand, ValueEnum};
use damiera::core::dispatch::{Dispatch, VariantFn};
use damiera::core::movegen::Duplicates;
use damiera::core::perft;
use damiera::core::variant::Variant;
use damiera::Game;
use std::io::Write;
use std::process::ExitCode;
use std::time::{Duration, Instant};

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
    Perft {
        /// english (american, checkers), italian, brazilian, russian, damone or international.
        #[arg(long, short)]
        variant: String,
        /// PDN FEN in the variant's notation (default: the start position).
        #[arg(long, short)]
        fen: Option<String>,
        /// Depth in plies.
        #[arg(long, short)]
        depth: u32,
        /// One line `<move>: <count>` per legal root move.
        #[arg(long)]
        divide: bool,
        /// How identical captures reached by different paths count.
        #[arg(long, value_enum, default_value_t = DupArg::Drop)]
        duplicates: DupArg,
    },
    /// Analyse a position (the search's progress per depth, then the best move), or with
    /// --pdn every position of the games of a PDN file (docs/analysis.md).
    #[command(alias = "analyze")]
    Analyse {
        /// english (american, checkers), italian, brazilian, russian, damone or international;
        /// with --pdn, the variant of games without a [GameType] tag.
        #[arg(long, short, required_unless_present = "pdn")]
        variant: Option<String>,
        /// PDN FEN in the variant's notation (default: the start position).
        #[arg(long, short, conflicts_with = "pdn")]
        fen: Option<String>,
        /// Moves played from that position, space-separated, in the variant's notation.
        #[arg(long, short, conflicts_with = "pdn")]
        moves: Option<String>,
        /// A PDN file: analyse its games move by move, print a report per game.
        #[arg(long)]
        pdn: Option<String>,
        /// With --pdn: only this game (1 = the first in the file).
        #[arg(long, requires = "pdn", conflicts_with = "all")]
        game: Option<usize>,
        /// With --pdn: every game of the file (the default).
        #[arg(long, requires = "pdn")]
        all: bool,
        /// With --pdn: write the games with a comment per move to this PDN file.
        #[arg(long, requires = "pdn")]
        out: Option<String>,
        /// Depth in plies.
        #[arg(long, short, required_unless_present = "movetime")]
        depth: Option<u32>,
        /// Thinking time in milliseconds.
        #[arg(long, short = 't')]
        movetime: Option<u64>,
        /// Transposition table size in MiB, 1 to 65536.
        #[arg(long, default_value_t = damiera::engine::DEFAULT_HASH_MIB as u64)]
        hash: u64,
        /// Evaluation weights file (`hand`: the hand-set evaluation; default: built in).
        #[arg(long)]
        eval_file: Option<String>,
    },
    /// Search fixed positions of every variant to a fixed depth: total nodes (a signature of
    /// the search's behaviour) and nodes per second.
    Bench {
        /// Depth in plies.
        #[arg(long, short, default_value_t = cli::bench::DEPTH)]
        depth: u32,
    },
    /// The Hub protocol (Scan, pydraughts, lidraughts-bot) on stdin/stdout.
    Hub,
    /// DXP (DamExchange) over TCP, International only: wait for games (--listen) or request
    /// one (--connect). docs/dxp.md.
    Dxp(DxpArgs),
    /// Play a match between two engines (docs/match.md).
    Match(cli::arena::MatchArgs),
    /// Print random balanced openings (docs/match.md).
    Openings(cli::arena::OpeningsArgs),
    /// Play fast games against itself and write their quiet positions as training data
    /// (docs/training.md).
    Selfplay(cli::learn::SelfplayArgs),
    /// Fit the learned evaluation's weights to self-play data (docs/training.md).
    Train(cli::learn::TrainArgs),
}

#[derive(clap::Args)]
#[command(group(clap::ArgGroup::new("role").required(true).args(["listen", "connect"])))]
struct DxpArgs {
    /// Follower: accept connections on HOST:PORT (port 0: any free port, printed) and play the
    /// games they request: up to 8 connections at once, one game at a time.
    #[arg(long, value_name = "HOST:PORT")]
    listen: Option<String>,
    /// Initiator: connect to HOST:PORT, request one game and play it.
    #[arg(long, value_name = "HOST:PORT")]
    connect: Option<String>,
    /// Initiator: thinking time per player for the game, in minutes (GAMEREQ).
    #[arg(long, default_value_t = 5, value_parser = clap::value_parser!(u32).range(0..=999))]
    time: u32,
    /// Initiator: the game's length in moves a side (GAMEREQ): the game ends there, a draw
    /// unless the rules decide it; 0 = no limit.
    #[arg(long, default_value_t = 0, value_parser = clap::value_parser!(u32).range(0..=999))]
    moves: u32,
    /// Initiator: damiera's colour; the follower gets the other.
    #[arg(long, value_enum, default_value_t = ColorArg::White)]
    color: ColorArg,
    /// Initiator: start from this FEN (FMJD numbering) instead of the normal start.
    #[arg(long)]
    fen: Option<String>,
    /// Search this many milliseconds per move, ignoring the game's clock.
    #[arg(long, value_name = "MS")]
    movetime: Option<u64>,
    /// Transposition table size in MiB, 1 to 65536.
    #[arg(long, default_value_t = damiera::engine::DEFAULT_HASH_MIB as u64)]
    hash: u64,
    /// Follower: stop after the first connection ends.
    #[arg(long)]
    once: bool,
    /// Close a connection whose peer sends nothing for SECS seconds (0: never): with no game in
    /// progress, or on the peer's turn after its whole thinking time for the game on top.
    /// Never while damiera thinks.
    #[arg(long, value_name = "SECS", default_value_t = 60)]
    idle_timeout: u64,
}

/// The `--hash` of every shell tool: MiB from 1 to [`damiera::engine::MAX_HASH_MIB`], the
/// range the protocols' `Hash` option takes too; outside it a one-line error (printed here)
/// and exit status 2.
pub(crate) fn hash_mib(mib: u64) -> Result<usize, ExitCode> {
    let max = damiera::engine::MAX_HASH_MIB;
    match usize::try_from(mib) {
        Ok(m) if (1..=max).contains(&m) => Ok(m),
        _ => {
            eprintln!("error: --hash {mib}: a hash table is 1 to {max} MiB");
            Err(ExitCode::from(2))
        }
    }
}

/// The most connections `damiera dxp --listen` serves at once; more are told so and closed.
const MAX_DXP_CONNECTIONS: usize = 8;

#[derive(Copy, Clone, ValueEnum)]
enum ColorArg {
    White,
    Black,
}

fn run_dxp(a: DxpArgs) -> ExitCode {
    use damiera::protocol::dxp;
    use std::net::{TcpListener, TcpStream, ToSocketAddrs};
    use std::sync::atomic::{AtomicUsize, Ordering};
    use std::sync::Arc;
    let opts = dxp::Options {
        hash_mib: match hash_mib(a.hash) {
            Ok(m) => m,
            Err(code) => return code,
        },
        movetime: a.movetime,
        idle_timeout_ms: a.idle_timeout.saturating_mul(1000),
        moves_to_stderr: a.connect.is_some(),
        ..dxp::Options::default()
    };
    let mut out = std::io::stdout();
    if let Some(addr) = a.listen {
        let listener = match TcpListener::bind(&addr) {
            Ok(l) => l,
            Err(e) => {
                eprintln!("error: cannot listen on {addr}: {e}");
                return ExitCode::from(2);
            }
        };
        match listener.local_addr() {
            Ok(local) => println!("listening on {local}"),
            Err(_) => println!("listening on {addr}"),
        }
        // Every connection has its own thread, so that a silent one blocks nobody; the
        // sessions share one game slot (one game at a time).
        let opts = Arc::new(opts);
        let live = Arc::new(AtomicUsize::new(0));
        loop {
            let (mut stream, peer) = match listener.accept() {
                Ok(c) => c,
                Err(e) => {
                    eprintln!("error: accept: {e}");
                    continue;
                }
            };
            if live.load(Ordering::SeqCst) >= MAX_DXP_CONNECTIONS {
                println!("connection from {peer} refused: {MAX_DXP_CONNECTIONS} connections open");
                let _ = dxp::send_message(
                    &mut stream,
                    &dxp::Message::Chat(format!(
                        "error: {MAX_DXP_CONNECTIONS} connections open already; try again later"
                    )),
                );
                continue;
            }
            println!("connection from {peer}");
            live.fetch_add(1, Ordering::SeqCst);
            let (opts, live) = (Arc::clone(&opts), Arc::clone(&live));
            let session = std::thread::spawn(move || {
                let mut out = std::io::stdout();
                match dxp::follow(stream, &opts, &mut out) {
                    Ok(r) => println!("connection closed: {} game(s)", r.games),
                    Err(e) => eprintln!("error: {e}"),
                }
                live.fetch_sub(1, Ordering::SeqCst);
            });
            if a.once {
                let _ = session.join();
                return ExitCode::SUCCESS;
            }
        }
    }
    let addr = a.connect.expect("clap requires --listen or --connect");
    if let Some(fen) = &a.fen {
        if let Err(e) = damiera::core::notation::parse_fen::<damiera::International>(fen) {
            eprintln!("error: --fen: {e}");
            return ExitCode::from(2);
        }
    }
    let targets: Vec<_> = match addr.to_socket_addrs() {
        Ok(t) => t.collect(),
        Err(e) => {
            eprintln!("error: bad address {addr}: {e}");
            return ExitCode::from(2);
        }
    };
    // The follower may still be starting: retry for a few seconds.
    let deadline = Instant::now() + Duration::from_secs(10);
    let stream = loop {
        match targets
            .iter()
            .find_map(|t| TcpStream::connect_timeout(t, Duration::from_secs(2)).ok())
        {
            Some(s) => break s,
            None if Instant::now() < deadline => std::thread::sleep(Duration::from_millis(200)),
            None => {
                eprintln!("error: cannot connect to {addr}");
                return ExitCode::from(2);
            }
        }
    };
    let req = dxp::GameRequest {
        color: match a.color {
            ColorArg::White => damiera::Color::White,
            ColorArg::Black => damiera::Color::Black,
        },
        minutes: a.time,
        moves: a.moves,
        fen: a.fen,
    };
    match dxp::initiate(stream, &opts, &req, &mut out) {
        Ok(r) => {
            println!("result: {}", r.last.unwrap_or_else(|| "*".into()));
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::from(1)
        }
    }
}

#[derive(Copy, Clone, ValueEnum)]
enum DupArg {
    /// Once per distinct move (from, to, captured set, promotion).
    Drop,
    /// Once per path of landing squares.
    Keep,
}

struct PerftJob {
    fen: Option<String>,
    depth: u32,
    divide: bool,
    dups: Duplicates,
}

impl VariantFn for PerftJob {
    type Output = ExitCode;
    fn call<G: Game>(self) -> ExitCode {
        let pos = match &self.fen {
            None => G::start(),
            Some(f) => match G::parse_fen(f) {
                Ok(p) => p,
                Err(e) => {
                    eprintln!("error: {e}");
                    return ExitCode::from(2);
                }
            },
        };
        run_perft::<G>(&pos, self.depth, self.divide, self.dups);
        ExitCode::SUCCESS
    }
}

/// perft from the shell. Progress on stderr once a run is long enough to want it (half a
/// second): on a terminal a bar (root moves done of all, leaves per second, time left), else
/// one line per root move.
fn run_perft<G: Game>(pos: &G::Position, depth: u32, divide: bool, dups: Duplicates) {
    use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
    use std::io::IsTerminal;
    let start = Instant::now();
    let mut out = std::io::stdout().lock();
    let total = if depth == 0 {
        1
    } else {
        let done = std::cell::Cell::new(0usize);
        let n_moves = G::count(pos, dups);
        let bar = std::io::stderr().is_terminal().then(|| {
            // Hidden until the run has lasted half a second; position in ten-thousandths.
            let b = ProgressBar::with_draw_target(Some(10_000), ProgressDrawTarget::hidden());
            b.set_style(
                ProgressStyle::with_template("[{elapsed_precise}] {bar:30} {msg}")
                    .unwrap_or_else(|_| ProgressStyle::default_bar()),
            );
            b
        });
        let mut leaves = 0u64;
        let mut shown = false;
        let total = perft::divide_with_progress::<G>(
            pos,
            depth,
            dups,
            |_, name, n| {
                done.set(done.get() + 1);
                if divide {
                    if let Some(b) = &bar {
                        b.suspend(|| {
                            let _ = writeln!(out, "{name}: {n}");
                        });
                    } else {
                        let _ = writeln!(out, "{name}: {n}");
                    }
                    let _ = out.flush();
                }
                let t = start.elapsed();
                if bar.is_none() && t > Duration::from_millis(500) {
                    eprintln!(
                        "[{}/{n_moves}] {name}: {n} ({:.1} s)",
                        done.get(),
                        t.as_secs_f64()
                    );
                }
            },
            |fraction, n| {
                leaves += n;
                let Some(b) = &bar else { return };
                let t = start.elapsed().as_secs_f64();
                if !shown && t > 0.5 {
                    b.set_draw_target(ProgressDrawTarget::stderr());
                    shown = true;
                }
                let left = if fraction > 0.0 {
                    format!("{:.0} s left", t * (1.0 - fraction) / fraction)
                } else {
                    "time left unknown".to_string()
                };
                b.set_position((fraction * 10_000.0) as u64);
                b.set_message(format!(
                    "{}/{n_moves} root moves, {:.1} M leaves/s, {left}",
                    done.get(),
                    leaves as f64 / t.max(1e-9) / 1e6
                ));
            },
        );
        if let Some(b) = bar {
            b.finish_and_clear();
        }
        total
    };
    let secs = start.elapsed().as_secs_f64();
    let _ = writeln!(out, "Nodes searched: {total}");
    let _ = writeln!(out, "Time: {secs:.3} s");
    let _ = writeln!(out, "Nodes/second: {:.0}", total as f64 / secs.max(1e-9));
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
            cli::arena::run_match(args, sub)
        }
        Some(Command::Openings(args)) => cli::arena::run_openings(args),
        Some(Command::Dxp(args)) => run_dxp(args),
        Some(Command::Selfplay(args)) => cli::learn::run_selfplay(args),
        Some(Command::Train(args)) => cli::learn::run_train(args),
        Some(Command::Perft {
            variant,
            fen,
            depth,
            divide,
            duplicates,
        }) => {
            // Parsed here rather than by clap so that a bad name is a one-line error.
            let variant: Variant = match variant.parse() {
                Ok(v) => v,
                Err(e) => {
                    eprintln!("error: {e}");
                    return ExitCode::from(2);
                }
            };
            let dups = match duplicates {
                DupArg::Drop => Duplicates::Drop,
                DupArg::Keep => Duplicates::Keep,
            };
            variant.dispatch(PerftJob {
                fen,
                depth,
                divide,
                dups,
            })
        }
        Some(Command::Analyse {
            variant,
            fen,
            moves,
            pdn,
            game,
            all: _,
            out,
            depth,
            movetime,
            hash,
            eval_file,
        }) => {
            let hash = match hash_mib(hash) {
                Ok(m) => m,
                Err(code) => return code,
            };
            let variant: Option<Variant> = match variant.map(|v| v.parse()).transpose() {
                Ok(v) => v,
                Err(e) => {
                    eprintln!("error: {e}");
                    return ExitCode::from(2);
                }
            };
            if let Some(path) = eval_file {
                // Without --variant (a PDN file's games say theirs), the file is for each
                // variant it fits.
                let results: Vec<_> = variant
                    .map_or(Variant::ALL.to_vec(), |v| vec![v])
                    .into_iter()
                    .map(|v| damiera::engine::eval::load_weights(v, &path))
                    .collect();
                if let Some(Err(e)) = results
                    .iter()
                    .find(|r| r.is_err())
                    .filter(|_| variant.is_some() || results.iter().all(Result::is_err))
                {
                    eprintln!("error: {e}");
                    return ExitCode::from(2);
                }
            }
            if let Some(path) = pdn {
                return cli::analyse_pdn::run(cli::analyse_pdn::PdnArgs {
                    path,
                    game,
                    default_variant: variant,
                    depth,
                    movetime,
                    out,
                    hash,
                });
            }
            let Some(variant) = variant else {
                eprintln!("error: --variant is needed without --pdn");
                return ExitCode::from(2);
            };
            cli::analyse::run(
                variant,
                fen.as_deref(),
                moves.as_deref(),
                depth,
                movetime,
                hash,
            )
        }
        Some(Command::Bench { depth }) => cli::bench::run(depth),
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
