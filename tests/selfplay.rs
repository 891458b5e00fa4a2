//! Self-play through the native protocol: 20 games per variant at `go movetime 50`, the engine
//! playing both sides. The test keeps each game with the library, independently of the engine:
//! every `bestmove` is parsed against the current position with `Draughts::parse_move` (so it
//! must be legal and written in the variant's notation) and applied with `Draughts::make`, and
//! the game ends by the rules: the side to move has no legal move (it loses), the variant's
//! no-progress counter (`Draughts::draw_by_counter`), or the third occurrence of a position. A
//! game still running after `MAX_PLIES` plies, a `bestmove (none)` in a live position, an
//! illegal or misspelt move, a hang or a crash fails the test.
//!
//! The first 2-4 plies of each game are random (a seeded RNG, distinct openings per variant)
//! so that the 20 games differ. Two engine processes play at once (the machine has two
//! cores). Run with `--nocapture` to see the summary.

mod engine_io;

use damiera::core::dispatch::{Dispatch, VariantFn};
use damiera::core::variant::Variant;
use damiera::{Color, Draughts, Duplicates, MoveList};
use engine_io::EngineProcess;
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use std::collections::{HashSet, VecDeque};
use std::panic::AssertUnwindSafe;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

const GAMES_PER_VARIANT: usize = 20;
const MOVETIME_MS: u64 = 50;
/// A game this long has not ended by the rules: a failure, not a draw.
// The rules end every game, but not quickly: each man move (or, in Damone, Pedine move) and
// each capture restarts the no-progress count (80 plies in English, Italian and Damone), so a
// long king ending with a few men still to advance can legitimately run past 300 plies. This
// cap only catches a game that never ends.
const MAX_PLIES: usize = 1000;
/// Engine processes playing at once.
const WORKERS: usize = 2;
/// A bestmove later than this after `go movetime 50` is a hang.
const BESTMOVE_TIMEOUT: Duration = Duration::from_secs(5);

/// The variants played: the four of the issue, and Italian Damone.
const VARIANTS: [Variant; 5] = [
    Variant::English,
    Variant::Italian,
    Variant::Brazilian,
    Variant::Russian,
    Variant::Damone,
];

/// How a game ended by the rules.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Ending {
    /// This side won: the other had no legal move.
    Win(Color),
    /// Drawn, by this rule.
    Draw(&'static str),
}

#[derive(Debug)]
struct Record {
    variant: Variant,
    game: usize,
    moves: Vec<String>,
    /// The ending, or why the game failed.
    result: Result<Ending, String>,
    elapsed: Duration,
    /// The slowest bestmove after `go`.
    slowest: Duration,
}

struct Job {
    variant: Variant,
    game: usize,
    opening: Vec<String>,
}

/// Plays one game of `G` from `opening` (random plies), the engine choosing every later move.
struct Play<'a> {
    engine: &'a mut EngineProcess,
    opening: &'a [String],
    moves: &'a mut Vec<String>,
    slowest: &'a mut Duration,
}

impl VariantFn for Play<'_> {
    type Output = Result<Ending, String>;
    fn call<G: Draughts>(self) -> Result<Ending, String> {
        let mut pos = G::start();
        // Keys of the positions since the last irreversible move, the current one included.
        let mut keys = vec![G::key(&pos)];
        loop {
            if !G::has_moves(&pos) {
                return Ok(Ending::Win(G::side(&pos).opponent()));
            }
            if G::draw_by_counter(&pos) {
                return Ok(Ending::Draw("no-progress rule"));
            }
            let key = G::key(&pos);
            if keys.iter().filter(|&&k| k == key).count() >= 3 {
                return Ok(Ending::Draw("threefold repetition"));
            }
            let ply = self.moves.len();
            if ply >= MAX_PLIES {
                return Err(format!(
                    "no result by the rules after {MAX_PLIES} plies: {}",
                    G::fen(&pos)
                ));
            }
            let text = match self.opening.get(ply) {
                Some(m) => m.clone(),
                None => {
                    let mut cmd = "position startpos".to_string();
                    if !self.moves.is_empty() {
                        cmd = format!("{cmd} moves {}", self.moves.join(" "));
                    }
                    self.engine.send(&cmd);
                    let sent = self.engine.send(&format!("go movetime {MOVETIME_MS}"));
                    let lines = self.engine.until_within("bestmove", BESTMOVE_TIMEOUT);
                    let last = lines.last().expect("bestmove");
                    *self.slowest = (*self.slowest).max(last.at - sent);
                    for l in &lines {
                        if l.text.starts_with("info string") {
                            return Err(format!("ply {ply}: {}", l.text));
                        }
                    }
                    let best = last.text.split(' ').nth(1).unwrap_or("").to_string();
                    if best == "(none)" {
                        return Err(format!(
                            "ply {ply}: bestmove (none) with legal moves in {}",
                            G::fen(&pos)
                        ));
                    }
                    best
                }
            };
            let mv = G::parse_move(&pos, &text)
                .map_err(|e| format!("ply {ply}: {text} in {}: {e}", G::fen(&pos)))?;
            let canonical = G::move_name(&pos, &mv);
            if canonical != text {
                return Err(format!(
                    "ply {ply}: {text} is written {canonical} in the variant's notation"
                ));
            }
            if G::is_irreversible(&pos, &mv) {
                keys.clear();
            }
            pos = G::make(&pos, &mv);
            keys.push(G::key(&pos));
            self.moves.push(text);
        }
    }
}

/// `count` distinct random openings of 2-4 plies for `G`, from `seed`.
struct Openings {
    seed: u64,
    count: usize,
}

impl VariantFn for Openings {
    type Output = Vec<Vec<String>>;
    fn call<G: Draughts>(self) -> Vec<Vec<String>> {
        let mut rng = StdRng::seed_from_u64(self.seed);
        let mut seen = HashSet::new();
        let mut out = Vec::new();
        while out.len() < self.count {
            let plies = rng.gen_range(2..=4);
            let mut pos = G::start();
            let mut line = Vec::new();
            let mut list = MoveList::new();
            for _ in 0..plies {
                G::generate(&pos, &mut list, Duplicates::Drop);
                if list.is_empty() {
                    break;
                }
                let mv = list[rng.gen_range(0..list.len())];
                line.push(G::move_name(&pos, &mv));
                pos = G::make(&pos, &mv);
            }
            if seen.insert(line.clone()) {
                out.push(line);
            }
        }
        out
    }
}

fn play_job(
    engine: &mut Option<EngineProcess>,
    current: &mut Option<Variant>,
    job: &Job,
) -> Record {
    let start = Instant::now();
    let mut moves = Vec::new();
    let mut slowest = Duration::ZERO;
    let outcome = std::panic::catch_unwind(AssertUnwindSafe(|| {
        let e = engine.get_or_insert_with(EngineProcess::spawn);
        if *current != Some(job.variant) {
            let lines = e.ask(&format!("setoption name Variant value {}", job.variant));
            assert!(lines.is_empty(), "{lines:?}");
            *current = Some(job.variant);
        }
        let lines = e.ask("ucinewgame");
        assert!(lines.is_empty(), "{lines:?}");
        job.variant.dispatch(Play {
            engine: e,
            opening: &job.opening,
            moves: &mut moves,
            slowest: &mut slowest,
        })
    }));
    let result = match outcome {
        Ok(r) => r,
        Err(panic) => {
            // A hang, a crash or a bad line: start a fresh engine for the next game.
            let what = panic
                .downcast_ref::<String>()
                .cloned()
                .or_else(|| panic.downcast_ref::<&str>().map(|s| s.to_string()))
                .unwrap_or_default();
            *engine = None;
            *current = None;
            Err(format!("the protocol failed: {what}"))
        }
    };
    Record {
        variant: job.variant,
        game: job.game,
        moves,
        result,
        elapsed: start.elapsed(),
        slowest,
    }
}

#[test]
fn selfplay_20_games_per_variant_end_by_the_rules() {
    let started = Instant::now();
    let mut jobs = VecDeque::new();
    for (i, &variant) in VARIANTS.iter().enumerate() {
        let openings = variant.dispatch(Openings {
            seed: 0x5e1f_0000 + i as u64,
            count: GAMES_PER_VARIANT,
        });
        for (game, opening) in openings.into_iter().enumerate() {
            jobs.push_back(Job {
                variant,
                game,
                opening,
            });
        }
    }
    let jobs = Arc::new(Mutex::new(jobs));
    let records = Arc::new(Mutex::new(Vec::new()));
    let workers: Vec<_> = (0..WORKERS)
        .map(|_| {
            let (jobs, records) = (Arc::clone(&jobs), Arc::clone(&records));
            std::thread::spawn(move || {
                let mut engine = None;
                let mut current = None;
                loop {
                    let job = jobs.lock().unwrap().pop_front();
                    let Some(job) = job else { break };
                    let r = play_job(&mut engine, &mut current, &job);
                    records.lock().unwrap().push(r);
                }
            })
        })
        .collect();
    for w in workers {
        w.join().expect("a worker thread");
    }
    let mut records = std::mem::take(&mut *records.lock().unwrap());
    records.sort_by_key(|r| (VARIANTS.iter().position(|&v| v == r.variant), r.game));

    println!(
        "self-play, go movetime {MOVETIME_MS}, {GAMES_PER_VARIANT} games per variant, {WORKERS} engines at once"
    );
    println!(
        "{:<10} {:>5} {:>5} {:>5} {:>5} {:>6} {:>6} {:>6} {:>9} {:>8}  draws by",
        "variant", "white", "black", "draw", "fail", "plies", "min", "max", "time", "slowest"
    );
    let mut failures = Vec::new();
    for &variant in &VARIANTS {
        let rs: Vec<&Record> = records.iter().filter(|r| r.variant == variant).collect();
        let count = |f: &dyn Fn(&Record) -> bool| rs.iter().filter(|r| f(r)).count();
        let white = count(&|r| r.result == Ok(Ending::Win(Color::White)));
        let black = count(&|r| r.result == Ok(Ending::Win(Color::Black)));
        let draws = count(&|r| matches!(r.result, Ok(Ending::Draw(_))));
        let failed = count(&|r| r.result.is_err());
        let plies: Vec<usize> = rs.iter().map(|r| r.moves.len()).collect();
        let mut rules: Vec<&str> = rs
            .iter()
            .filter_map(|r| match r.result {
                Ok(Ending::Draw(rule)) => Some(rule),
                _ => None,
            })
            .collect();
        rules.sort();
        rules.dedup();
        println!(
            "{:<10} {:>5} {:>5} {:>5} {:>5} {:>6} {:>6} {:>6} {:>8.1}s {:>6}ms  {}",
            variant.name(),
            white,
            black,
            draws,
            failed,
            plies.iter().sum::<usize>(),
            plies.iter().min().unwrap_or(&0),
            plies.iter().max().unwrap_or(&0),
            rs.iter().map(|r| r.elapsed.as_secs_f64()).sum::<f64>(),
            rs.iter()
                .map(|r| r.slowest)
                .max()
                .unwrap_or_default()
                .as_millis(),
            rules.join(", ")
        );
        assert_eq!(rs.len(), GAMES_PER_VARIANT, "{variant}: every game played");
        let distinct: HashSet<&Vec<String>> = rs.iter().map(|r| &r.moves).collect();
        assert_eq!(distinct.len(), rs.len(), "{variant}: the games differ");
        for r in rs.iter().filter(|r| r.result.is_err()) {
            failures.push(format!(
                "{} game {}: {}\n  moves: {}",
                variant,
                r.game,
                r.result.as_ref().unwrap_err(),
                r.moves.join(" ")
            ));
        }
    }
    println!("wall time {:.1} s", started.elapsed().as_secs_f64());
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
