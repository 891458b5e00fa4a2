//! `damiera match`: argument handling and the report; the work is in `damiera::tools::arena`.

use super::shared::fail;
use clap::ArgMatches;
use damiera::core::variant::Variant;
use damiera::egdb::default_dir;
use damiera::engine::{open_egdb, Depth, MAX_EGDB_PIECES};
use damiera::tools::arena::openings::{self, Opening, RandomOpenings};
use damiera::tools::arena::pdn::FinishedGame;
use damiera::tools::arena::process::{EngineSpec, Protocol};
use damiera::tools::arena::stats::Sprt;
use damiera::tools::arena::{self, DrawAdjudication, MatchConfig, TimeControl, WinAdjudication};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

/// The `match` subcommand's arguments.
#[derive(clap::Args)]
pub struct MatchArgs {
    /// english (american, checkers), italian, brazilian, russian, damone, international, antidraughts (losing), breakthrough (bt), frisian or frysk (frysk!).
    #[arg(long, short)]
    pub variant: String,
    /// An engine command line (split on white space). Give exactly two; `--name`,
    /// `--engine-protocol` and `--option` apply to the `--engine` given just before them.
    #[arg(long = "engine", required = true)]
    pub engine: Vec<String>,
    /// Display name of the engine given just before (default: its program name).
    #[arg(long = "name")]
    pub name: Vec<String>,
    /// Protocol of the engine given just before: native (default), hub (Hub 2: Scan 3.x,
    /// pydraughts), hub1 (Scan 2.0's first Hub dialect, International), or dxp (International;
    /// the engine is then HOST:PORT of a DXP follower, docs/dxp.md).
    #[arg(long = "engine-protocol", alias = "protocol")]
    pub protocol: Vec<String>,
    /// An engine option NAME=VALUE for the engine given just before (repeatable).
    #[arg(long = "option")]
    pub option: Vec<String>,
    /// Openings file: one opening a line (moves, or a FEN then moves), `#` comments.
    #[arg(long, conflicts_with = "random_openings")]
    pub openings: Option<String>,
    /// Use N random openings instead of a file (see --opening-plies, --seed).
    #[arg(long)]
    pub random_openings: Option<usize>,
    /// Plies of each random opening.
    #[arg(long, default_value_t = 6)]
    pub opening_plies: usize,
    /// Seed of the random openings and of --shuffle.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Play the file's openings in an order shuffled by --seed (default: file order).
    #[arg(long)]
    pub shuffle: bool,
    /// Games to play (rounded up to an even number: each opening twice, colors reversed).
    #[arg(long)]
    pub games: usize,
    /// Milliseconds per move.
    #[arg(long, conflicts_with = "tc")]
    pub movetime: Option<u64>,
    /// Fischer clock BASE+INC in seconds, e.g. 2+0.02.
    #[arg(long)]
    pub tc: Option<String>,
    /// Depth limit per move in plies (alone, or with --movetime / --tc).
    #[arg(long)]
    pub depth: Option<u32>,
    /// Games played at once.
    #[arg(long, default_value_t = 1)]
    pub concurrency: usize,
    /// GSPRT ELO0,ELO1[,ALPHA,BETA] (logistic Elo; alpha, beta default 0.05): stop when decided.
    #[arg(long)]
    pub sprt: Option<String>,
    /// Write every finished game as PDN to this file (each game as it ends; at the end the
    /// file is rewritten in game order).
    #[arg(long)]
    pub pdn: Option<String>,
    /// Go on with the match whose games are in the --pdn file (same engines' names, same
    /// openings and options): its games count and are not played again, the new ones are
    /// added to it. Without the file, a new match starts.
    #[arg(long, requires = "pdn")]
    pub resume: bool,
    /// Draw by adjudication after this many plies played by the engines.
    #[arg(long, default_value_t = 400)]
    pub max_plies: usize,
    /// Play only the opening pairs FIRST..END (numbered from 0, END excluded; pair i is games
    /// 2i+1 and 2i+2 of the report, its opening with both colours): a worker's share of a
    /// distributed match (docs/cluster.md). The PDN keeps every game's number.
    #[arg(long, value_name = "FIRST..END")]
    pairs: Option<String>,
    /// Play nothing: report the games of the --pdn file as this match's (as --resume reads
    /// them), with the SPRT's state if --sprt is given.
    #[arg(long, requires = "pdn", conflicts_with = "pairs")]
    report_only: bool,
    /// Print the report as one line of JSON (W/D/L, pentanomial, Elo interval, LLR, SPRT
    /// state; docs/cluster.md) instead of text.
    #[arg(long)]
    json: bool,
    /// Adjudicate a game as soon as its position is in the endgame databases under DIR
    /// (without DIR: the default data directory): their result, noted in the PDN.
    #[arg(long, value_name = "DIR")]
    pub egdb: Option<Option<PathBuf>>,
    /// Adjudicate a draw once the engines have played PLIES plies and each of their last MOVES
    /// moves gave a score within ±CM centi-men (e.g. 60,8,10; docs/match.md).
    #[arg(long, value_name = "PLIES,MOVES,CM")]
    pub draw_adjudication: Option<String>,
    /// Adjudicate a win once each engine's last MOVES moves gave the same side at least CM
    /// centi-men (e.g. 4,400; docs/match.md).
    #[arg(long, value_name = "MOVES,CM")]
    pub win_adjudication: Option<String>,
}

/// `FIRST..END` (pair numbers from 0, END excluded, FIRST < END).
fn parse_pairs(text: &str) -> Result<std::ops::Range<usize>, String> {
    let bad = || format!("--pairs '{text}': expected FIRST..END, e.g. 0..10 (END excluded)");
    let (a, b) = text.split_once("..").ok_or_else(bad)?;
    let (a, b): (usize, usize) = (
        a.trim().parse().map_err(|_| bad())?,
        b.trim().parse().map_err(|_| bad())?,
    );
    if a >= b {
        return Err(bad());
    }
    Ok(a..b)
}

/// The values of `id` with their command-line positions.
fn indexed(m: &ArgMatches, id: &str) -> Vec<(usize, String)> {
    match (m.indices_of(id), m.get_many::<String>(id)) {
        (Some(i), Some(v)) => i.zip(v.cloned()).collect(),
        _ => Vec::new(),
    }
}

fn engine_specs(m: &ArgMatches) -> Result<[EngineSpec; 2], String> {
    let engines = indexed(m, "engine");
    if engines.len() != 2 {
        return Err(format!("give exactly two --engine, not {}", engines.len()));
    }
    let mut specs: Vec<EngineSpec> = engines
        .iter()
        .map(|(_, cmd)| {
            let command: Vec<String> = cmd.split_whitespace().map(String::from).collect();
            let name = command
                .first()
                .map(|p| p.rsplit('/').next().unwrap_or(p).to_string())
                .unwrap_or_default();
            EngineSpec {
                name,
                command,
                protocol: Protocol::Native,
                options: Vec::new(),
            }
        })
        .collect();
    if specs.iter().any(|s| s.command.is_empty()) {
        return Err("an --engine command is empty".into());
    }
    let owner = |idx: usize, flag: &str| -> Result<usize, String> {
        engines
            .iter()
            .rposition(|(i, _)| *i < idx)
            .ok_or_else(|| format!("{flag} must come after the --engine it applies to"))
    };
    for (i, v) in indexed(m, "name") {
        specs[owner(i, "--name")?].name = v;
    }
    for (i, v) in indexed(m, "protocol") {
        specs[owner(i, "--engine-protocol")?].protocol = v.parse()?;
    }
    for (i, v) in indexed(m, "option") {
        let (k, val) = v
            .split_once('=')
            .ok_or_else(|| format!("--option '{v}': expected NAME=VALUE"))?;
        specs[owner(i, "--option")?]
            .options
            .push((k.trim().to_string(), val.trim().to_string()));
    }
    if specs[0].name == specs[1].name {
        specs[0].name.push_str("-1");
        specs[1].name.push_str("-2");
    }
    Ok([specs.remove(0), specs.remove(0)])
}

/// The openings `a` asks for (a file, shuffled or not, or random openings of `variant`) and
/// how the report names them.
///
/// # Errors
/// No openings asked for, or a bad file: one line.
fn match_openings(a: &MatchArgs, variant: Variant) -> Result<(Vec<Opening>, String), String> {
    let (mut ops, source) = match (&a.openings, a.random_openings) {
        (Some(path), _) => match openings::read_openings(path, variant) {
            Ok(o) => (o, path.clone()),
            Err(e) => return Err(e.to_string()),
        },
        (None, Some(n)) => {
            let p = RandomOpenings {
                count: n,
                plies: a.opening_plies,
                seed: a.seed,
                depth: Depth(8),
                margin: 25,
            };
            match openings::random_openings(variant, p) {
                Ok(o) => (
                    o,
                    format!(
                        "random: {n} openings of {} plies, seed {}, depth 8 within ±25 cm",
                        a.opening_plies, a.seed
                    ),
                ),
                Err(e) => return Err(e.to_string()),
            }
        }
        (None, None) => return Err("give --openings FILE or --random-openings N".to_string()),
    };
    let mut source = source;
    if a.shuffle && a.openings.is_some() {
        openings::shuffle(&mut ops, a.seed);
        source.push_str(&format!(", shuffled with seed {}", a.seed));
    }
    Ok((ops, source))
}

/// The match `a` asks for, and the finished games of an earlier run (`--resume`,
/// `--report-only`; none otherwise).
///
/// # Errors
/// A bad argument or file: one line.
fn match_config(a: &MatchArgs, m: &ArgMatches) -> Result<(MatchConfig, Vec<FinishedGame>), String> {
    let variant: Variant = match a.variant.parse() {
        Ok(v) => v,
        Err(e) => return Err(e.to_string()),
    };
    let egdb = match a.egdb.clone().map(|d| d.unwrap_or_else(default_dir)) {
        Some(root) => match open_egdb(&root, variant, MAX_EGDB_PIECES) {
            Ok(db) => Some(Arc::new(db)),
            Err(e) => return Err(format!("--egdb: {e}")),
        },
        None => None,
    };
    let engines = match engine_specs(m) {
        Ok(e) => e,
        Err(e) => return Err(e.to_string()),
    };
    let fischer = match a.tc.as_deref().map(TimeControl::parse_tc).transpose() {
        Ok(f) => f,
        Err(e) => return Err(e.to_string()),
    };
    if a.movetime.is_none() && fischer.is_none() && a.depth.is_none() {
        return Err("give --movetime MS, --tc BASE+INC or --depth N".to_string());
    }
    let tc = TimeControl {
        movetime: a.movetime,
        fischer,
        depth: a.depth.map(Depth),
    };
    let sprt = match a.sprt.as_deref().map(Sprt::parse).transpose() {
        Ok(s) => s,
        Err(e) => return Err(e.to_string()),
    };
    let (draw_adjudication, win_adjudication) = match (
        a.draw_adjudication
            .as_deref()
            .map(DrawAdjudication::parse)
            .transpose(),
        a.win_adjudication
            .as_deref()
            .map(WinAdjudication::parse)
            .transpose(),
    ) {
        (Ok(d), Ok(w)) => (d, w),
        (Err(e), _) | (_, Err(e)) => return Err(e.to_string()),
    };
    let (ops, source) = match_openings(a, variant)?;
    if a.games == 0 {
        return Err("--games must be at least 1".to_string());
    }
    let pairs = if a.report_only {
        Some(0..0)
    } else {
        match a.pairs.as_deref().map(parse_pairs).transpose() {
            Ok(p) => p,
            Err(e) => return Err(e.to_string()),
        }
    };
    let names = [engines[0].name.clone(), engines[1].name.clone()];
    // The games of an earlier run of this match (`--resume`), with their PDN text.
    if a.report_only && !a.pdn.as_deref().is_some_and(|p| Path::new(p).exists()) {
        return Err(format!(
            "--report-only: no file {}",
            a.pdn.as_deref().unwrap_or_default()
        ));
    }
    let earlier = match (&a.pdn, a.resume || a.report_only) {
        (Some(path), true) => {
            match arena::match_file::read_earlier(path, variant, [&names[0], &names[1]]) {
                Ok(g) => g,
                Err(e) => return Err(e.to_string()),
            }
        }
        _ => Vec::new(),
    };
    let cfg = MatchConfig {
        variant,
        engines,
        openings: ops,
        openings_source: source,
        games: a.games.div_ceil(2) * 2,
        tc,
        concurrency: a.concurrency.max(1),
        sprt,
        max_plies: a.max_plies,
        egdb,
        draw_adjudication,
        win_adjudication,
        event: "damiera match".to_string(),
        done: earlier.iter().map(|g| g.record.clone()).collect(),
        pairs,
    };
    Ok((cfg, earlier))
}

/// Runs `damiera match`.
pub fn run(a: MatchArgs, m: &ArgMatches) -> ExitCode {
    let (cfg, earlier) = match match_config(&a, m) {
        Ok(c) => c,
        Err(e) => return fail(&e),
    };
    let variant = cfg.variant;
    let names = [cfg.engines[0].name.clone(), cfg.engines[1].name.clone()];
    // Each game is appended to the PDN file as it ends, so an interrupted match keeps it.
    let mut append = a
        .pdn
        .as_deref()
        .map(|path| arena::match_file::Appender::new(path, a.resume));
    if !earlier.is_empty() && !a.report_only {
        eprintln!(
            "resuming: {} games read from {}",
            earlier.len(),
            a.pdn.as_deref().unwrap_or_default()
        );
    }
    let abort = Arc::new(AtomicBool::new(false));
    let interrupted = Arc::new(AtomicBool::new(false));
    {
        let (abort, interrupted) = (Arc::clone(&abort), Arc::clone(&interrupted));
        let _ = ctrlc::set_handler(move || {
            interrupted.store(true, Ordering::SeqCst);
            abort.store(true, Ordering::SeqCst);
        });
    }
    let pdn_names = [names[0].as_str(), names[1].as_str()];
    let mut new_games: Vec<(usize, String)> = Vec::new();
    let mut on_game = |g: &arena::GameRecord| {
        let text = arena::pdn::game_pdn(variant, &cfg.event, g, pdn_names);
        if let Some(file) = &mut append {
            file.append(&text);
        }
        new_games.push((g.index, text));
    };
    let report = match arena::run_match_with(&cfg, abort, &mut on_game) {
        Ok(r) => r,
        Err(e) => return fail(&e),
    };
    if a.report_only {
        append = None;
    }
    if let Some(file) = append.take() {
        // In game order: the earlier run's games as they were written, then the new ones.
        arena::match_file::rewrite_in_order(file.path(), earlier, new_games);
    }
    let mut out = std::io::stdout().lock();
    if a.json {
        let _ = writeln!(out, "{}", arena::summary_json(&cfg, &report));
    } else {
        let _ = out.write_all(arena::report_text(&cfg, &report).as_bytes());
    }
    let _ = out.flush();
    if interrupted.load(Ordering::SeqCst) {
        ExitCode::from(130)
    } else {
        ExitCode::SUCCESS
    }
}
