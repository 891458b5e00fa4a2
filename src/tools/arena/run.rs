//! Running a match: the engines started before any game ([`start_all`]), DXP addresses
//! checked, and the games played on worker threads with the progress line and the SPRT
//! ([`run_match_with`]).

use super::config::MatchConfig;
use super::engine_spec::{EngineSpec, Protocol};
use super::game::{play_game, Seat};
use super::record::GameRecord;
use super::report::{progress_line, MatchReport, Tally};
use super::stats::SprtState;
use crate::tools::progress;
use std::io::IsTerminal;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{mpsc, Arc};

/// Starts `2 × concurrency` engine processes (the handshake of each), before any game.
///
/// # Errors
/// The first engine that does not start, as one line.
fn start_all(cfg: &MatchConfig, abort: &Arc<AtomicBool>) -> Result<Vec<[Seat; 2]>, String> {
    let mut out = Vec::new();
    for _ in 0..cfg.concurrency.max(1) {
        let mut pair = [
            Seat {
                spec: cfg.engines[0].clone(),
                proc: None,
            },
            Seat {
                spec: cfg.engines[1].clone(),
                proc: None,
            },
        ];
        for s in pair.iter_mut() {
            s.ensure(cfg.variant, abort)?;
        }
        out.push(pair);
    }
    Ok(out)
}

/// Refuses a match in which two connections would go to one DXP follower: a DXP address
/// serves one game at a time (Moby Dam drops the earlier connection when a second arrives,
/// Scan's `dxp` mode serves one), so `--concurrency` above 1 with a DXP engine, or both
/// engines at one address, cannot work.
///
/// # Errors
/// One line naming the address.
pub fn check_dxp_addresses(cfg: &MatchConfig) -> Result<(), String> {
    let dxp: Vec<&EngineSpec> = cfg
        .engines
        .iter()
        .filter(|s| s.protocol == Protocol::Dxp)
        .collect();
    if let Some(s) = dxp.first() {
        if cfg.concurrency > 1 {
            return Err(format!(
                "--concurrency {}: engine '{}' is the DXP follower at {}, which plays one game \
                 at a time; use --concurrency 1",
                cfg.concurrency,
                s.name,
                s.command.join(" ")
            ));
        }
    }
    if let [a, b] = dxp[..] {
        if a.command == b.command {
            return Err(format!(
                "both engines are the DXP follower at {}, which plays one game at a time",
                a.command.join(" ")
            ));
        }
    }
    Ok(())
}

/// Runs a match. `abort` is set by Ctrl-C (or anything else) to stop starting games and kill
/// the engines; finished games are kept. Every engine is started and handshaken before the
/// first game.
///
/// # Errors
/// Two connections to one DXP follower ([`check_dxp_addresses`]), or an engine that does not
/// start or fails its handshake (one line naming it).
pub fn run_match(cfg: &MatchConfig, abort: Arc<AtomicBool>) -> Result<MatchReport, String> {
    run_match_with(cfg, abort, &mut |_| {})
}

/// [`run_match`], calling `on_game` with each game as it finishes (in the order they finish;
/// `damiera match` appends it to the PDN file there, so an interrupted match keeps its games).
/// The games of [`MatchConfig::done`] are counted first and not played; the report's games are
/// those and the new ones.
///
/// # Errors
/// As [`run_match`].
pub fn run_match_with(
    cfg: &MatchConfig,
    abort: Arc<AtomicBool>,
    on_game: &mut dyn FnMut(&GameRecord),
) -> Result<MatchReport, String> {
    check_dxp_addresses(cfg)?;
    let total = cfg.games;
    let done: std::collections::HashSet<usize> = cfg.done.iter().map(|g| g.index).collect();
    let wanted = |i: &usize| cfg.pairs.as_ref().is_none_or(|r| r.contains(&(i / 2)));
    let pending: Arc<Vec<usize>> = Arc::new(
        (0..total)
            .filter(|i| !done.contains(i) && wanted(i))
            .collect(),
    );
    let mut tally = Tally::default();
    let mut games = Vec::new();
    for g in cfg.done.iter().filter(|g| g.index < total) {
        tally.add(g);
        games.push(g.clone());
    }
    let mut sprt_state = None;
    if let Some(sp) = &cfg.sprt {
        let llr = sp.llr(&tally.penta);
        sprt_state = Some((llr, sp.state(llr)));
    }
    if pending.is_empty() || sprt_state.is_some_and(|(_, st)| st != SprtState::Continue) {
        games.sort_by_key(|g| g.index);
        return Ok(MatchReport {
            tally,
            games,
            interrupted: false,
            sprt_state,
        });
    }
    let seats = start_all(cfg, &abort)?;
    let stop = Arc::new(AtomicBool::new(false));
    let (rx, handles) = spawn_workers(cfg, seats, pending, &abort, &stop);
    let bar = progress::bar(
        total as u64,
        "[{elapsed_precise}] {bar:30} {pos}/{len} {msg}",
    );
    let quiet_terminal = !std::io::stderr().is_terminal();
    bar.set_position(tally.games());
    for g in rx.iter() {
        tally.add(&g);
        on_game(&g);
        let line = progress_line(cfg, &tally);
        if quiet_terminal {
            eprintln!(
                "game {} ({}/{}): {} {} ({}) | {line}",
                g.index + 1,
                tally.games(),
                total,
                if g.white_engine == 0 {
                    format!("{} vs {}", cfg.engines[0].name, cfg.engines[1].name)
                } else {
                    format!("{} vs {}", cfg.engines[1].name, cfg.engines[0].name)
                },
                g.result.token(cfg.variant),
                g.reason.text()
            );
        }
        bar.set_position(tally.games());
        bar.set_message(line);
        games.push(g);
        if let Some(sp) = &cfg.sprt {
            let llr = sp.llr(&tally.penta);
            let st = sp.state(llr);
            sprt_state = Some((llr, st));
            if st != SprtState::Continue && !stop.load(Ordering::SeqCst) {
                stop.store(true, Ordering::SeqCst);
                // Games still running are not needed: end them now.
                abort.store(true, Ordering::SeqCst);
            }
        }
    }
    bar.finish_and_clear();
    for h in handles {
        let _ = h.join();
    }
    let interrupted = abort.load(Ordering::SeqCst) && !stop.load(Ordering::SeqCst);
    games.sort_by_key(|g| g.index);
    Ok(MatchReport {
        tally,
        games,
        interrupted,
        sprt_state,
    })
}

/// One worker thread per seat pair, each taking the next pending game index (a game `i` plays
/// opening `i / 2` with the colours of `i % 2`) until none is left or `stop`/`abort` is set;
/// the finished games arrive on the returned receiver in the order they finish.
fn spawn_workers(
    cfg: &MatchConfig,
    seats: Vec<[Seat; 2]>,
    pending: Arc<Vec<usize>>,
    abort: &Arc<AtomicBool>,
    stop: &Arc<AtomicBool>,
) -> (mpsc::Receiver<GameRecord>, Vec<std::thread::JoinHandle<()>>) {
    let next = Arc::new(AtomicUsize::new(0));
    let (tx, rx) = mpsc::channel::<GameRecord>();
    let cfg_arc = Arc::new(cfg.clone());
    let mut handles = Vec::new();
    for mut seat_pair in seats {
        let (next, pending, stop, abort, tx, cfg) = (
            Arc::clone(&next),
            Arc::clone(&pending),
            Arc::clone(stop),
            Arc::clone(abort),
            tx.clone(),
            Arc::clone(&cfg_arc),
        );
        handles.push(std::thread::spawn(move || loop {
            if stop.load(Ordering::SeqCst) || abort.load(Ordering::SeqCst) {
                break;
            }
            let Some(&i) = pending.get(next.fetch_add(1, Ordering::SeqCst)) else {
                break;
            };
            let opening = &cfg.openings[(i / 2) % cfg.openings.len()];
            match play_game(&cfg, i, opening, &mut seat_pair, &abort) {
                Some(g) => {
                    if tx.send(g).is_err() {
                        break;
                    }
                }
                None => break,
            }
        }));
    }
    (rx, handles)
}
