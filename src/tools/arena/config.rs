//! The configuration of a match: the [`TimeControl`] of every move (with the no-answer limits
//! derived from it) and the [`MatchConfig`] given to [`run_match`](super::run_match).

use super::engine_spec::EngineSpec;
use super::openings::Opening;
use super::record::GameRecord;
use super::stats::Sprt;
use crate::core::variant::Variant;
use crate::egdb::Egdb;
use crate::engine::Depth;
use std::sync::Arc;

/// The time control of every move.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct TimeControl {
    /// Fixed time per move in milliseconds (`--movetime`).
    pub movetime: Option<u64>,
    /// Fischer clock: base and increment in milliseconds (`--tc BASE+INC`, given in seconds).
    pub fischer: Option<(u64, u64)>,
    /// Depth limit per move in plies (`--depth`), alone or with the others.
    pub depth: Option<Depth>,
}

/// The no-answer limit for a `--depth`-only move, in milliseconds.
pub const DEPTH_ONLY_TIMEOUT_MS: u64 = 60_000;
/// Under `--tc`, how long past the flag the runner still waits before killing the engine, in
/// milliseconds (the move is lost on time either way).
pub const TC_GRACE_MS: u64 = 1_000;

impl TimeControl {
    /// Parses `BASE+INC` in seconds (`2+0.02`, `60`): base and increment in milliseconds.
    ///
    /// # Errors
    /// A malformed or negative value.
    pub fn parse_tc(text: &str) -> Result<(u64, u64), String> {
        let (b, i) = text.split_once('+').unwrap_or((text, "0"));
        let secs = |t: &str| -> Result<u64, String> {
            match t.trim().parse::<f64>() {
                Ok(s) if s >= 0.0 && s.is_finite() => Ok((s * 1000.0).round() as u64),
                _ => Err(format!(
                    "--tc '{text}': expected BASE+INC in seconds, e.g. 2+0.02"
                )),
            }
        };
        let base = secs(b)?;
        if base == 0 {
            return Err(format!("--tc '{text}': the base time must be positive"));
        }
        Ok((base, secs(i)?))
    }

    /// The no-answer limit for a move with `movetime` ms asked (`movetime + max(1000,
    /// movetime)` ms): the margin documented in docs/match.md.
    pub fn movetime_limit(movetime: u64) -> u64 {
        movetime + movetime.max(1000)
    }

    /// A readable form (`movetime 20 ms`, `tc 2+0.02`, `depth 6`).
    pub fn describe(&self) -> String {
        let mut parts = Vec::new();
        if let Some(ms) = self.movetime {
            parts.push(format!("movetime {ms} ms"));
        }
        if let Some((b, i)) = self.fischer {
            parts.push(format!("tc {}+{}", b as f64 / 1000.0, i as f64 / 1000.0));
        }
        if let Some(d) = self.depth {
            parts.push(format!("depth {d}"));
        }
        parts.join(", ")
    }
}

/// Draw adjudication by the engines' scores (`--draw-adjudication PLIES,MOVES,CM`, as
/// cutechess-cli's `-draw movenumber= movecount= score=`): the game is a draw once the engines
/// have played at least `after_plies` plies and each of their last `moves` moves came with a
/// score within ±`within_cm` centi-men.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DrawAdjudication {
    /// Plies the engines must have played first (the opening's moves not counted).
    pub after_plies: usize,
    /// Moves of each engine in a row (so `2 × moves` plies).
    pub moves: usize,
    /// The largest score, in centi-men either way, that still counts as level.
    pub within_cm: i32,
}

/// Win adjudication by the engines' scores (`--win-adjudication MOVES,CM`, as cutechess-cli's
/// two-sided `-resign movecount= score= twosided=true`): a side wins once each engine's last
/// `moves` moves came with a score giving that side at least `margin_cm` centi-men (the
/// winner's own scores at least `margin_cm`, the loser's at most `-margin_cm`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct WinAdjudication {
    /// Moves of each engine in a row (so `2 × moves` plies).
    pub moves: usize,
    /// The smallest lead, in centi-men, both engines must agree on.
    pub margin_cm: i32,
}

/// The comma-separated unsigned numbers of `text` for `flag`, exactly `n` of them.
fn numbers(flag: &str, text: &str, n: usize, form: &str) -> Result<Vec<u32>, String> {
    let v: Vec<u32> = text
        .split(',')
        .map(|t| t.trim().parse::<u32>())
        .collect::<Result<Vec<u32>, _>>()
        .map_err(|_| format!("{flag} '{text}': expected {form}"))?;
    if v.len() != n {
        return Err(format!("{flag} '{text}': expected {form}"));
    }
    Ok(v)
}

impl DrawAdjudication {
    /// Parses `PLIES,MOVES,CM` (`60,8,10`).
    ///
    /// # Errors
    /// Not three unsigned numbers, `MOVES` 0, or `CM` above 10,000.
    pub fn parse(text: &str) -> Result<Self, String> {
        let form = "PLIES,MOVES,CM, e.g. 60,8,10";
        let v = numbers("--draw-adjudication", text, 3, form)?;
        if v[1] == 0 || v[2] > 10_000 {
            return Err(format!(
                "--draw-adjudication '{text}': MOVES must be at least 1 and CM at most 10000"
            ));
        }
        Ok(DrawAdjudication {
            after_plies: v[0] as usize,
            moves: v[1] as usize,
            within_cm: v[2] as i32,
        })
    }
}

impl WinAdjudication {
    /// Parses `MOVES,CM` (`4,400`).
    ///
    /// # Errors
    /// Not two unsigned numbers, `MOVES` 0, or `CM` 0 or above 10,000.
    pub fn parse(text: &str) -> Result<Self, String> {
        let form = "MOVES,CM, e.g. 4,400";
        let v = numbers("--win-adjudication", text, 2, form)?;
        if v[0] == 0 || v[1] == 0 || v[1] > 10_000 {
            return Err(format!(
                "--win-adjudication '{text}': MOVES must be at least 1 and CM from 1 to 10000"
            ));
        }
        Ok(WinAdjudication {
            moves: v[0] as usize,
            margin_cm: v[1] as i32,
        })
    }
}

/// Everything a match needs.
#[derive(Clone, Debug)]
pub struct MatchConfig {
    /// The variant.
    pub variant: Variant,
    /// The two engines; results are given from the first one's view.
    pub engines: [EngineSpec; 2],
    /// The openings, in the order they are played.
    pub openings: Vec<Opening>,
    /// Where the openings come from (a path or a description), for the report.
    pub openings_source: String,
    /// Games to play (a multiple of 2: each opening twice, colors reversed).
    pub games: usize,
    /// The time control.
    pub tc: TimeControl,
    /// Games played at once (each with its own two engine processes).
    pub concurrency: usize,
    /// Stop when the GSPRT decides.
    pub sprt: Option<Sprt>,
    /// Draw by adjudication after this many plies of the game (opening moves not counted).
    pub max_plies: usize,
    /// `[Event]` of the PDN.
    pub event: String,
    /// Endgame databases (`--egdb`): a game ends as soon as its position (quiet, within the
    /// tables) is in them, with their result ([`super::Reason::Egdb`]).
    pub egdb: Option<Arc<Egdb>>,
    /// Draw adjudication by the engines' scores (`--draw-adjudication`), `None`: off.
    pub draw_adjudication: Option<DrawAdjudication>,
    /// Win adjudication by the engines' scores (`--win-adjudication`), `None`: off.
    pub win_adjudication: Option<WinAdjudication>,
    /// Games already played (`--resume`: read back from the match's PDN file): counted in the
    /// totals from the start and not played again. Empty for a new match.
    pub done: Vec<GameRecord>,
    /// Play only the games of these opening pairs (pair `i`: games `2i` and `2i + 1`, its
    /// opening with both colours), `None` for every game: a worker's share of a distributed
    /// match (docs/cluster.md). An empty range plays nothing (a report of `done`).
    pub pairs: Option<std::ops::Range<usize>>,
}
