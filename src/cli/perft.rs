//! `damiera perft`: leaves of the legal-move tree, optionally per root move, with progress on
//! stderr for long runs.

use super::shared::{fail, variant};
use clap::ValueEnum;
use damiera::core::dispatch::{Dispatch, VariantFn};
use damiera::core::movegen::Duplicates;
use damiera::core::perft;
use damiera::tools::progress;
use damiera::Draughts;
use std::io::Write;
use std::process::ExitCode;
use std::time::{Duration, Instant};

/// The `perft` subcommand's arguments.
#[derive(clap::Args)]
pub struct PerftArgs {
    /// english (american, checkers), italian, brazilian, russian, damone, international, antidraughts (losing), breakthrough (bt), frisian or frysk (frysk!).
    #[arg(long, short)]
    pub variant: String,
    /// PDN FEN in the variant's notation (default: the start position).
    #[arg(long, short)]
    pub fen: Option<String>,
    /// Depth in plies.
    #[arg(long, short)]
    pub depth: u32,
    /// One line `<move>: <count>` per legal root move.
    #[arg(long)]
    pub divide: bool,
    /// How identical captures reached by different paths count.
    #[arg(long, value_enum, default_value_t = DupArg::Drop)]
    pub duplicates: DupArg,
    /// Print the FEN of every position K plies below instead of counting, one a line and
    /// once per path, so that perft(depth) is the sum of perft(depth - K) over them (the
    /// split of a distributed perft, docs/cluster.md). K at most --depth.
    #[arg(long, value_name = "K", conflicts_with = "divide")]
    pub split: Option<u32>,
}

/// How identical captures reached by different paths count.
#[derive(Copy, Clone, ValueEnum)]
pub enum DupArg {
    /// Once per distinct move (from, to, captured set, promotion).
    Drop,
    /// Once per path of landing squares.
    Keep,
}

/// Runs `damiera perft`; exit status 2 on a bad variant or FEN.
pub fn run(a: PerftArgs) -> ExitCode {
    // Parsed here rather than by clap so that a bad name is a one-line error.
    let variant = match variant(&a.variant) {
        Ok(v) => v,
        Err(e) => return fail(&e),
    };
    let dups = match a.duplicates {
        DupArg::Drop => Duplicates::Drop,
        DupArg::Keep => Duplicates::Keep,
    };
    if let Some(k) = a.split.filter(|&k| k > a.depth) {
        return fail(&format!("--split {k}: at most --depth ({})", a.depth));
    }
    variant.dispatch(PerftJob {
        fen: a.fen,
        depth: a.depth,
        divide: a.divide,
        split: a.split,
        dups,
    })
}

struct PerftJob {
    fen: Option<String>,
    depth: u32,
    divide: bool,
    split: Option<u32>,
    dups: Duplicates,
}

impl VariantFn for PerftJob {
    type Output = ExitCode;
    fn call<G: Draughts>(self) -> ExitCode {
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
        if let Some(k) = self.split {
            let mut out = std::io::stdout().lock();
            perft::positions_at::<G>(&pos, k, self.dups, &mut |p| {
                let _ = writeln!(out, "{}", G::fen(p));
            });
            let _ = out.flush();
            return ExitCode::SUCCESS;
        }
        run_perft::<G>(&pos, self.depth, self.divide, self.dups);
        ExitCode::SUCCESS
    }
}

/// perft from the shell. Progress on stderr once a run is long enough to want it (half a
/// second): on a terminal a bar (root moves done of all, leaves per second, time left), else
/// one line per root move.
fn run_perft<G: Draughts>(pos: &G::Position, depth: u32, divide: bool, dups: Duplicates) {
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
            progress::hidden_bar(10_000, "[{elapsed_precise}] {bar:30} {msg}")
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
                    progress::show(b);
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
