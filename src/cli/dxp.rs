//! `damiera dxp`: DXP (DamExchange) over TCP, as follower (`--listen`) or initiator
//! (`--connect`); the protocol is in `damiera::protocol::dxp`.

use super::shared::hash_mib;
use clap::ValueEnum;
use damiera::protocol::dxp;
use std::process::ExitCode;
use std::time::{Duration, Instant};

/// The `dxp` subcommand's arguments.
#[derive(clap::Args)]
#[command(group(clap::ArgGroup::new("role").required(true).args(["listen", "connect"])))]
pub struct DxpArgs {
    /// Follower: accept connections on HOST:PORT (port 0: any free port, printed) and play the
    /// games they request: up to 8 connections at once, one game at a time.
    #[arg(long, value_name = "HOST:PORT")]
    pub listen: Option<String>,
    /// Initiator: connect to HOST:PORT, request one game and play it.
    #[arg(long, value_name = "HOST:PORT")]
    pub connect: Option<String>,
    /// Initiator: thinking time per player for the game, in minutes (GAMEREQ).
    #[arg(long, default_value_t = 5, value_parser = clap::value_parser!(u32).range(0..=999))]
    pub time: u32,
    /// Initiator: the game's length in moves a side (GAMEREQ): the game ends there, a draw
    /// unless the rules decide it; 0 = no limit.
    #[arg(long, default_value_t = 0, value_parser = clap::value_parser!(u32).range(0..=999))]
    pub moves: u32,
    /// Initiator: damiera's color; the follower gets the other.
    #[arg(long, value_enum, default_value_t = ColorArg::White)]
    pub color: ColorArg,
    /// Initiator: start from this FEN (FMJD numbering) instead of the normal start.
    #[arg(long)]
    pub fen: Option<String>,
    /// Search this many milliseconds per move, ignoring the game's clock.
    #[arg(long, value_name = "MS")]
    pub movetime: Option<u64>,
    /// Transposition table size in MiB, 1 to 65536.
    #[arg(long, default_value_t = damiera::engine::DEFAULT_HASH_MIB as u64)]
    pub hash: u64,
    /// Follower: stop after the first connection ends.
    #[arg(long)]
    pub once: bool,
    /// Close a connection whose peer sends nothing for SECS seconds (0: never): with no game in
    /// progress, or on the peer's turn after its whole thinking time for the game on top.
    /// Never while damiera thinks.
    #[arg(long, value_name = "SECS", default_value_t = 60)]
    pub idle_timeout: u64,
}

/// The most connections `damiera dxp --listen` serves at once; more are refused
/// (`dxp::refuse`: a CHAT, GAMEACC code 2 to a GAMEREQ, a clean close).
const MAX_DXP_CONNECTIONS: usize = 8;

/// The most refusals in progress at once (each lasts at most twice `dxp::CLOSE_WAIT_MS`);
/// connections beyond get the CHAT and are closed at once.
const MAX_DXP_REFUSALS: usize = 16;

/// The initiator's color.
#[derive(Copy, Clone, ValueEnum)]
pub enum ColorArg {
    // No doc comments: they would change `--help`'s list of values.
    White,
    Black,
}

/// Runs `damiera dxp`: the follower's accept loop, or the initiator's one game. Exit status 2
/// on a bad address, FEN or hash size, 1 when the game fails.
pub fn run(mut a: DxpArgs) -> ExitCode {
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
    match a.listen.take() {
        Some(addr) => listen(&addr, opts, a.once),
        None => connect(a, &opts),
    }
}

/// The follower: accepts connections on `addr` (each on its own thread, one game at a time),
/// refusing those over [`MAX_DXP_CONNECTIONS`]; with `once`, returns after the first
/// connection closes. Exit status 2 when it cannot listen.
fn listen(addr: &str, opts: dxp::Options, once: bool) -> ExitCode {
    use std::net::TcpListener;
    use std::sync::atomic::{AtomicUsize, Ordering};
    use std::sync::Arc;
    let listener = match TcpListener::bind(addr) {
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
    let refusing = Arc::new(AtomicUsize::new(0));
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
            let text = format!("{MAX_DXP_CONNECTIONS} connections open already; try again later");
            if refusing.load(Ordering::SeqCst) >= MAX_DXP_REFUSALS {
                // A flood: told and closed at once (its unread input may reset it).
                let _ =
                    dxp::send_message(&mut stream, &dxp::Message::Chat(format!("error: {text}")));
                let _ = stream.shutdown(std::net::Shutdown::Write);
                continue;
            }
            // On its own thread: the refusal waits for the peer (its GAMEREQ, its close).
            refusing.fetch_add(1, Ordering::SeqCst);
            let (refusing, name) = (Arc::clone(&refusing), opts.name.clone());
            std::thread::spawn(move || {
                dxp::refuse(stream, &name, &text);
                refusing.fetch_sub(1, Ordering::SeqCst);
            });
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
        if once {
            let _ = session.join();
            return ExitCode::SUCCESS;
        }
    }
}

/// The initiator: connects to `a.connect` (retrying for 10 s while the follower starts), asks
/// for one game and plays it. Exit status 2 on a bad address or FEN, 1 when the game fails.
fn connect(a: DxpArgs, opts: &dxp::Options) -> ExitCode {
    use std::net::{TcpStream, ToSocketAddrs};
    let mut out = std::io::stdout();
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
    match dxp::initiate(stream, opts, &req, &mut out) {
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
