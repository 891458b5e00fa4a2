//! `damiera egdb`: build, probe, verify and describe endgame databases (docs/egdb.md). The
//! work is in `damiera::egdb`; this file holds the arguments and the printing.

use super::shared::{fail, variant};
use clap::Subcommand;
use damiera::core::dispatch::{dispatch_rules, RulesFn};
use damiera::core::moves::MoveList;
use damiera::core::notation::fen::parse_fen;
use damiera::core::notation::moves::move_name;
use damiera::egdb::build::{
    build, build_one, position, unit_dependencies, unit_of, units, BuildOptions, BuildProgress,
};
use damiera::egdb::file::{file_name, read as read_table, tables_in, TableFile};
use damiera::egdb::index::Indexer;
use damiera::egdb::material::{flip_board, Material};
use damiera::egdb::verify::{verify, verify_tables};
use damiera::egdb::{default_dir, variant_dir, Egdb, EgdbError, Probe, Wld};
use damiera::tools::convert::{self, ConvertConfig};
use damiera::tools::progress;
use damiera::{Color, Duplicates, Play, Position, Rules};
use indicatif::ProgressBar;
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use std::path::PathBuf;
use std::process::ExitCode;
use std::thread;
use std::time::Instant;

/// `damiera egdb` and its subcommands.
#[derive(clap::Args)]
pub struct EgdbArgs {
    #[command(subcommand)]
    command: EgdbCommand,
}

/// Arguments every subcommand has.
#[derive(clap::Args, Clone)]
struct Common {
    /// english (american, checkers), italian, brazilian, russian, international, antidraughts,
    /// frisian or frysk (kings only).
    #[arg(long, short)]
    variant: String,
    /// The databases' root directory (a variant's tables are in <DIR>/<variant>/); default
    /// the user's data directory (~/.local/share/damiera/egdb on Linux).
    #[arg(long)]
    dir: Option<PathBuf>,
}

#[derive(Subcommand)]
enum EgdbCommand {
    /// Build every table up to --pieces pieces (resumes: finished tables are kept).
    Build {
        #[command(flatten)]
        common: Common,
        /// The most pieces on the board.
        #[arg(long, short)]
        pieces: u32,
        /// Worker threads (default: every core).
        #[arg(long)]
        threads: Option<usize>,
    },
    /// Build one unit (a material and its swap, e.g. w2k-b1k) from the units it depends on,
    /// which must be there: a task of a distributed build (docs/cluster.md). Kept if built.
    BuildUnit {
        #[command(flatten)]
        common: Common,
        /// A material of the unit, as in the table names: w<men>m<kings>k-b<men>m<kings>k.
        #[arg(long)]
        unit: String,
        /// Worker threads (default: every core).
        #[arg(long)]
        threads: Option<usize>,
    },
    /// The build's task graph up to --pieces pieces, in build order: one line a unit, its
    /// name, a tab, the units it depends on separated by spaces, a tab, its positions.
    Units {
        #[command(flatten)]
        common: Common,
        /// The most pieces on the board.
        #[arg(long, short)]
        pieces: u32,
    },
    /// The value of a position, its distance and every move's value.
    Probe {
        #[command(flatten)]
        common: Common,
        /// PDN FEN in the variant's notation.
        #[arg(long, short)]
        fen: String,
    },
    /// Recompute every stored value from its successors; exit status 1 on any inconsistency.
    /// Reads the tables up to --pieces pieces, or without it every table file (<material>.egdb)
    /// in <DIR>/<variant>/, with the tables they look up.
    Verify {
        #[command(flatten)]
        common: Common,
        /// The most pieces on the board (default: every table in the directory).
        #[arg(long, short)]
        pieces: Option<u32>,
        /// Worker threads (default: every core).
        #[arg(long)]
        threads: Option<usize>,
    },
    /// Per table: positions, wins, draws, losses (side to move), the longest win (plies to
    /// conversion) and file size; totals. Reads the tables up to --pieces pieces (all must be
    /// there), or without it every table file (<material>.egdb) in <DIR>/<variant>/.
    Info {
        #[command(flatten)]
        common: Common,
        /// The most pieces on the board (default: every table in the directory).
        #[arg(long, short)]
        pieces: Option<u32>,
    },
    /// Probe speed: random positions of every table (mostly cache misses), then positions
    /// whose blocks are cached.
    Bench {
        #[command(flatten)]
        common: Common,
        /// The most pieces on the board.
        #[arg(long, short)]
        pieces: u32,
        /// Probes per round.
        #[arg(long, default_value_t = 1_000_000)]
        probes: usize,
        /// Block cache in MiB.
        #[arg(long, default_value_t = 64)]
        cache_mib: usize,
    },
    /// Conversion check: random positions the databases score as won within the draw
    /// counters, played out by the engine against itself with the databases; prints how many
    /// the winning side won, drew and lost.
    Convert {
        #[command(flatten)]
        common: Common,
        /// Pieces on the board in every start position.
        #[arg(long, short)]
        pieces: u32,
        /// How many start positions.
        #[arg(long, default_value_t = 200)]
        positions: usize,
        /// Skip the first N start positions (to resume a run: the positions depend only on
        /// the seed).
        #[arg(long, default_value_t = 0)]
        skip: usize,
        /// Milliseconds per move.
        #[arg(long, default_value_t = 100)]
        movetime: u64,
        /// Seed of the start positions.
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// A game still going after this many plies counts as drawn.
        #[arg(long, default_value_t = 400)]
        max_plies: u32,
        /// Print every game (by default only those the winning side did not win).
        #[arg(long)]
        each: bool,
    },
}

enum Job {
    Build(u32, usize),
    BuildUnit(Material, usize),
    Units(u32),
    Probe(String),
    Verify(Option<u32>, usize),
    Info(Option<u32>),
    Bench(u32, usize, usize),
}

struct Run {
    root: PathBuf,
    job: Job,
}

fn threads(t: Option<usize>) -> usize {
    t.unwrap_or_else(|| thread::available_parallelism().map_or(1, |n| n.get()))
        .max(1)
}

/// Runs `damiera egdb ...`; exit status 2 on a usage or file error, 1 when verify finds an
/// inconsistency.
pub fn run(a: EgdbArgs) -> ExitCode {
    let (common, job) = match a.command {
        EgdbCommand::Build {
            common,
            pieces,
            threads: t,
        } => (common, Job::Build(pieces, threads(t))),
        EgdbCommand::BuildUnit {
            common,
            unit,
            threads: t,
        } => match unit.parse::<Material>() {
            Ok(m) if m.pieces() <= 8 && m.wm + m.wk > 0 && m.bm + m.bk > 0 => {
                (common, Job::BuildUnit(m, threads(t)))
            }
            Ok(_) => {
                return fail(&format!(
                    "--unit {unit}: 2 to 8 pieces, both sides on the board"
                ))
            }
            Err(e) => return fail(&format!("--unit {unit}: {e}")),
        },
        EgdbCommand::Units { common, pieces } => (common, Job::Units(pieces)),
        EgdbCommand::Probe { common, fen } => (common, Job::Probe(fen)),
        EgdbCommand::Verify {
            common,
            pieces,
            threads: t,
        } => (common, Job::Verify(pieces, threads(t))),
        EgdbCommand::Info { common, pieces } => (common, Job::Info(pieces)),
        EgdbCommand::Bench {
            common,
            pieces,
            probes,
            cache_mib,
        } => (common, Job::Bench(pieces, probes, cache_mib)),
        EgdbCommand::Convert {
            common,
            pieces,
            positions,
            skip,
            movetime,
            seed,
            max_plies,
            each,
        } => {
            let v = match variant(&common.variant) {
                Ok(v) => v,
                Err(e) => return fail(&e),
            };
            let cfg = ConvertConfig {
                variant: v,
                root: common.dir.unwrap_or_else(default_dir),
                pieces,
                positions: positions + skip,
                movetime_ms: movetime,
                seed,
                hash_mib: 16,
                max_plies,
            };
            return run_convert(&cfg, skip, each);
        }
    };
    let v = match variant(&common.variant) {
        Ok(v) => v,
        Err(e) => return fail(&e),
    };
    let pieces = match job {
        Job::Build(p, _) | Job::Units(p) | Job::Bench(p, ..) => Some(p),
        Job::Verify(p, _) | Job::Info(p) => p,
        Job::BuildUnit(..) | Job::Probe(_) => None,
    };
    if let Some(p) = pieces {
        if !(2..=8).contains(&p) {
            return fail(&format!("--pieces {p}: 2 to 8"));
        }
    }
    let root = common.dir.unwrap_or_else(default_dir);
    match dispatch_rules(v, Run { root, job }) {
        Some(Ok(code)) => code,
        Some(Err(e)) => fail(&e.to_string()),
        None => fail(&format!(
            "no endgame databases for {} (docs/egdb.md)",
            v.name()
        )),
    }
}

/// The bar of `damiera egdb build` on stderr (drawn when it is a terminal), fed by the
/// build's progress ([`BuildProgress`]): positions through the forward pass, and the unit
/// being solved.
#[derive(Default)]
struct BuildBar {
    bar: Option<ProgressBar>,
    unit: usize,
}

impl BuildBar {
    fn update(&mut self, p: BuildProgress) {
        let pb = self.bar.get_or_insert_with(|| {
            progress::bar(
                p.total,
                "{bar:30} {percent:>3}% {human_pos}/{human_len} positions, {per_sec}, eta {eta} {msg}",
            )
        });
        if p.unit != self.unit {
            self.unit = p.unit;
            let name: Vec<String> = p.tables.iter().map(|m| m.to_string()).collect();
            pb.set_message(format!("unit {}/{} {}", p.unit, p.units, name.join(" ")));
        }
        pb.set_position(p.positions);
    }

    /// The build is complete: the bar goes.
    fn finish(self) {
        if let Some(pb) = self.bar {
            pb.finish_and_clear();
        }
    }
}

impl RulesFn for Run {
    type Output = Result<ExitCode, EgdbError>;
    fn call<R: Rules>(self) -> Result<ExitCode, EgdbError> {
        match self.job {
            Job::Build(pieces, threads) => {
                let opts = BuildOptions {
                    root: self.root.clone(),
                    pieces,
                    threads,
                };
                let mut bar = BuildBar::default();
                let r = build::<R>(&opts, &mut |p| bar.update(p))?;
                bar.finish();
                let bytes: u64 = r.built.iter().map(|b| b.2).sum();
                println!(
                    "{}: built {} tables ({} positions, {} bytes) in {:.1} s ({:.0} positions/s), kept {}; in {}",
                    R::NAME,
                    r.built.len(),
                    r.positions,
                    bytes,
                    r.seconds,
                    r.positions as f64 / r.seconds.max(1e-9),
                    r.kept,
                    variant_dir(&self.root, R::VARIANT).display()
                );
                Ok(ExitCode::SUCCESS)
            }
            Job::BuildUnit(m, threads) => {
                let r = build_one::<R>(&self.root, m, threads)?;
                let bytes: u64 = r.built.iter().map(|b| b.2).sum();
                if r.built.is_empty() {
                    println!("{}: unit {} kept", R::NAME, unit_of(m)[0]);
                } else {
                    println!(
                        "{}: unit {} built ({} positions, {} bytes) in {:.1} s",
                        R::NAME,
                        unit_of(m)[0],
                        r.positions,
                        bytes,
                        r.seconds
                    );
                }
                Ok(ExitCode::SUCCESS)
            }
            Job::Units(pieces) => {
                let mut out = String::new();
                for u in units::<R>(pieces) {
                    let deps: Vec<String> = unit_dependencies(&u)
                        .iter()
                        .map(|d| d.to_string())
                        .collect();
                    let positions: u64 =
                        u.iter().map(|&m| Indexer::new::<R::Board>(m).size()).sum();
                    out.push_str(&format!("{}\t{}\t{positions}\n", u[0], deps.join(" ")));
                }
                print!("{out}");
                Ok(ExitCode::SUCCESS)
            }
            Job::Probe(fen) => probe::<R>(&self.root, &fen),
            Job::Verify(pieces, threads) => {
                let t0 = Instant::now();
                let on_table = |m, n, errors| {
                    println!("{m}: {n} positions, {errors} inconsistent");
                };
                let r = match pieces {
                    Some(p) => verify::<R>(&self.root, p, threads, on_table)?,
                    None => {
                        let present = tables_in(&self.root, R::VARIANT)?;
                        verify_tables::<R>(&self.root, &present, threads, on_table)?
                    }
                };
                for e in &r.examples {
                    println!("inconsistent: {e}");
                }
                println!(
                    "verified {} tables, {} positions in {:.1} s: {}",
                    r.tables,
                    r.positions,
                    t0.elapsed().as_secs_f64(),
                    if r.errors == 0 {
                        "all consistent".to_string()
                    } else {
                        format!("{} inconsistent", r.errors)
                    }
                );
                Ok(if r.errors == 0 {
                    ExitCode::SUCCESS
                } else {
                    ExitCode::from(1)
                })
            }
            Job::Info(pieces) => info::<R>(&self.root, pieces),
            Job::Bench(pieces, probes, mib) => bench::<R>(&self.root, pieces, probes, mib),
        }
    }
}

fn show(p: Option<Probe>) -> String {
    match p {
        None => "unknown".into(),
        Some(Probe {
            value,
            distance: Some(d),
        }) => format!("{} in {d}", value.name()),
        Some(p) => p.value.name().into(),
    }
}

fn probe<R: Rules>(root: &std::path::Path, text: &str) -> Result<ExitCode, EgdbError> {
    let pos: Position<R> = parse_fen(text).map_err(|e| EgdbError(e.to_string()))?;
    let pieces = pos.occupied().count();
    let db = Egdb::open(root, R::VARIANT, pieces.max(2))?;
    let here = db.lookup(&pos);
    println!("value: {}", here.map_or("unknown", |p| p.value.name()));
    println!(
        "distance: {}",
        here.and_then(|p| p.distance)
            .map_or("-".to_string(), |d| format!("{d} plies to conversion"))
    );
    let mut list = MoveList::new();
    <R as Play>::generate(&pos, &mut list, Duplicates::Drop);
    let mut rows = Vec::new();
    for mv in list.iter() {
        let next = pos.make(mv);
        let conversion = mv.is_capture() || mv.promotes;
        // The mover's value through this move, and its distance to conversion.
        let p = db.lookup(&next);
        let mine = p.map(|p| Probe {
            value: p.value.opposite(),
            distance: p.distance.map(|d| if conversion { 1 } else { d + 1 }),
        });
        rows.push((move_name(&pos, mv), mine));
    }
    let rank = |p: &Option<Probe>| match p {
        Some(Probe {
            value: Wld::Win,
            distance: Some(d),
        }) => *d as i64,
        Some(Probe {
            value: Wld::Draw, ..
        }) => 100_000,
        Some(Probe {
            value: Wld::Loss,
            distance: Some(d),
        }) => 200_000 - *d as i64,
        _ => 300_000,
    };
    rows.sort_by_key(|r| rank(&r.1));
    let best = rows.first().map(|r| rank(&r.1));
    for (name, p) in &rows {
        let mark = if Some(rank(p)) == best { "best" } else { "" };
        println!("move {name}: {} {mark}", show(*p).trim_end());
    }
    Ok(ExitCode::SUCCESS)
}

/// `egdb info`: the tables up to `pieces` (all must be there), or every table present.
fn info<R: Rules>(root: &std::path::Path, pieces: Option<u32>) -> Result<ExitCode, EgdbError> {
    match pieces {
        Some(p) => info_rows(Egdb::open(root, R::VARIANT, p)?.tables()),
        None => {
            let dir = variant_dir(root, R::VARIANT);
            let mut files = Vec::new();
            for m in tables_in(root, R::VARIANT)? {
                let f = read_table(&dir, R::VARIANT, m)?;
                let size = Indexer::new::<R::Board>(m).size();
                if f.entries != size {
                    return Err(EgdbError(format!(
                        "{}: {} entries, the index has {size}",
                        dir.join(file_name(m)).display(),
                        f.entries
                    )));
                }
                files.push((m, f));
            }
            info_rows(files.iter().map(|(m, f)| (*m, f)))
        }
    }
}

/// Prints `egdb info`'s table: a row a table, then the totals.
fn info_rows<'a>(
    tables: impl Iterator<Item = (Material, &'a TableFile)>,
) -> Result<ExitCode, EgdbError> {
    let (mut tw, mut td, mut tl, mut tn, mut tb) = (0u64, 0u64, 0u64, 0u64, 0u64);
    let mut tfar = 0u16;
    println!("table positions wins draws losses max-win-distance bytes");
    for (m, f) in tables {
        let e = f.all_entries().map_err(EgdbError)?;
        let (mut w, mut d, mut l, mut far) = (0u64, 0u64, 0u64, 0u16);
        for x in e {
            match x & 3 {
                1 => {
                    w += 1;
                    far = far.max(x >> 2);
                }
                2 => l += 1,
                _ => d += 1,
            }
        }
        println!("{m} {} {w} {d} {l} {far} {}", f.entries, f.file_size);
        tfar = tfar.max(far);
        tw += w;
        td += d;
        tl += l;
        tn += f.entries;
        tb += f.file_size;
    }
    println!("total {tn} {tw} {td} {tl} {tfar} {tb}");
    Ok(ExitCode::SUCCESS)
}

fn bench<R: Rules>(
    root: &std::path::Path,
    pieces: u32,
    probes: usize,
    mib: usize,
) -> Result<ExitCode, EgdbError> {
    let mut rng = StdRng::seed_from_u64(1);
    let db = Egdb::open_with_cache(root, R::VARIANT, pieces, mib << 20)?;
    let tables: Vec<_> = db
        .tables()
        .map(|(m, _)| Indexer::new::<R::Board>(m))
        .collect();
    let total: u64 = tables.iter().map(|t| t.size()).sum();
    let mut positions: Vec<Position<R>> = Vec::with_capacity(probes);
    for _ in 0..probes {
        let mut i = rng.gen_range(0..total);
        let t = tables
            .iter()
            .find(|t| {
                if i < t.size() {
                    true
                } else {
                    i -= t.size();
                    false
                }
            })
            .expect("an index in range");
        let p: Position<R> = position(&t.unrank(i));
        // Half of them with Black to move (the colour flip is part of a probe).
        positions.push(if rng.gen_bool(0.5) { p } else { flip_side(&p) });
    }
    // Uniform random probes over every table: mostly cache misses once the tables'
    // decompressed size exceeds the cache (each a block decompressed).
    let t0 = Instant::now();
    let mut found = 0u64;
    for p in &positions {
        found += db.lookup(p).is_some() as u64;
    }
    let s = t0.elapsed().as_secs_f64();
    println!(
        "random: {probes} probes in {s:.3} s, {:.0} probes/s, {:.2} us/probe ({found} found; cache {} MiB, tables {} MiB decompressed)",
        probes as f64 / s,
        1e6 * s / probes as f64,
        db.cache_bytes() >> 20,
        (2 * total) >> 20
    );
    // Cache hits: 1000 of those positions (their blocks now cached), probed in turn.
    let hot = &positions[..positions.len().min(1000)];
    for p in hot {
        db.lookup(p);
    }
    let t0 = Instant::now();
    let mut found = 0u64;
    for k in 0..probes {
        found += db.lookup(&hot[k % hot.len()]).is_some() as u64;
    }
    let s = t0.elapsed().as_secs_f64();
    println!(
        "cached: {probes} probes in {s:.3} s, {:.0} probes/s, {:.3} us/probe ({found} found)",
        probes as f64 / s,
        1e6 * s / probes as f64
    );
    Ok(ExitCode::SUCCESS)
}

/// The same position with Black to move (board turned, colours swapped).
fn flip_side<R: Rules>(p: &Position<R>) -> Position<R> {
    let f = flip_board::<R::Board>;
    Position::from_parts(
        f(p.pieces(Color::Black)),
        f(p.pieces(Color::White)),
        f(p.kings()),
        Color::Black,
    )
}

/// `damiera egdb convert`: plays the start positions and prints the tally.
fn run_convert(cfg: &ConvertConfig, skip: usize, each: bool) -> ExitCode {
    let starts = match convert::start_positions(cfg) {
        Ok(s) => s,
        Err(e) => return fail(&e),
    };
    let starts = &starts[skip.min(starts.len())..];
    println!(
        "{}: {} won positions of {} pieces (seed {}, from #{skip}), {} ms a move",
        cfg.variant.name(),
        starts.len(),
        cfg.pieces,
        cfg.seed,
        cfg.movetime_ms
    );
    let bar = progress::bar(
        starts.len() as u64,
        "{bar:40} {pos}/{len} games, {elapsed} elapsed, {eta} left",
    );
    let mut games = Vec::with_capacity(starts.len());
    for (k, (fen, d)) in starts.iter().enumerate() {
        match convert::play(cfg, fen, *d) {
            Ok(g) => {
                if each || g.won != Some(true) {
                    bar.suspend(|| {
                        println!(
                            "#{}: {} (win in {} plies to conversion): {} after {} plies: {}",
                            skip + k,
                            g.fen,
                            g.distance,
                            g.end,
                            g.moves.len(),
                            g.moves.join(" ")
                        )
                    })
                }
                games.push(g);
            }
            Err(e) => {
                bar.finish_and_clear();
                return fail(&format!("#{}: {fen}: {e}", skip + k));
            }
        }
        bar.inc(1);
    }
    bar.finish_and_clear();
    let (w, d, l) = convert::tally(&games);
    let n = games.len().max(1);
    println!(
        "winning side: {w} won, {d} drawn, {l} lost of {} ({:.1}% won)",
        games.len(),
        100.0 * w as f64 / n as f64
    );
    ExitCode::SUCCESS
}
