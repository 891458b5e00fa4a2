//! `damiera egdb convert`: does the engine win what its databases say is won? Random quiet
//! positions that the databases score as a win within the variant's draw counters are played
//! out, damiera against itself with the databases loaded, at a fixed time per move, under the
//! full rules (no-progress rule, FMJD endgame counters, threefold repetition); the referee is a
//! [`VariantGame`], not the databases. Issue 33's conversion check (docs/egdb.md).

use crate::core::dispatch::{dispatch_rules, RulesFn};
use crate::core::notation::fen::fen;
use crate::core::rules::Rules;
use crate::core::variant::Variant;
use crate::core::variant_position::{Outcome, VariantGame, VariantPosition};
use crate::egdb::build::position;
use crate::egdb::index::Indexer;
use crate::egdb::material::Material;
use crate::egdb::{Egdb, Wld};
use crate::engine::search::Limits;
use crate::engine::{Engine, MoveForm};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use std::path::PathBuf;

/// What to play.
#[derive(Clone, Debug)]
pub struct ConvertConfig {
    /// The variant (one with databases: not Italian Damone).
    pub variant: Variant,
    /// The databases' root directory (`<root>/<variant>/`).
    pub root: PathBuf,
    /// Pieces on the board in every start position (the databases must cover them).
    pub pieces: u32,
    /// How many start positions.
    pub positions: usize,
    /// Time per move in milliseconds.
    pub movetime_ms: u64,
    /// Seed of the start positions' `StdRng`.
    pub seed: u64,
    /// Transposition table per game, in MiB.
    pub hash_mib: usize,
    /// A game still going after this many plies counts as drawn.
    pub max_plies: u32,
}

/// One start position and how its game went.
#[derive(Clone, Debug)]
pub struct Conversion {
    /// The start position (PDN FEN).
    pub fen: String,
    /// The databases' distance to conversion there, in plies.
    pub distance: u16,
    /// The game's end for the side that was to move (and winning) at the start: `Some(true)`
    /// won, `Some(false)` lost, `None` drawn.
    pub won: Option<bool>,
    /// Why the game ended, in words.
    pub end: String,
    /// The moves played, in the variant's notation.
    pub moves: Vec<String>,
}

/// Start positions: `count` random quiet positions of `pieces` pieces, White to move, that the
/// databases score as won within the no-progress rule and, where the material is in an FMJD
/// endgame class, within its counter ([`Rules::endgame_draw_plies`]); uniform over the
/// positions of every material with both sides on the board. Returns (FEN, distance).
///
/// # Errors
/// The databases cannot be opened (one line naming the file), or the variant has none.
pub fn start_positions(cfg: &ConvertConfig) -> Result<Vec<(String, u16)>, String> {
    struct Sample<'a>(&'a ConvertConfig);
    impl RulesFn for Sample<'_> {
        type Output = Result<Vec<(String, u16)>, String>;
        fn call<R: Rules>(self) -> Self::Output {
            sample::<R>(self.0)
        }
    }
    dispatch_rules(cfg.variant, Sample(cfg))
        .unwrap_or_else(|| Err(format!("no endgame databases for {}", cfg.variant.name())))
}

fn sample<R: Rules>(cfg: &ConvertConfig) -> Result<Vec<(String, u16)>, String> {
    let db = Egdb::open(&cfg.root, R::VARIANT, cfg.pieces).map_err(|e| e.to_string())?;
    let tables: Vec<(Material, Indexer)> = Material::all_of::<R>(cfg.pieces)
        .into_iter()
        .filter(|m| u32::from(m.wm + m.wk + m.bm + m.bk) == cfg.pieces)
        .map(|m| (m, Indexer::new::<R::Board>(m)))
        .collect();
    let total: u64 = tables.iter().map(|(_, ix)| ix.size()).sum();
    if total == 0 {
        return Err(format!("no positions of {} pieces", cfg.pieces));
    }
    let mut rng = StdRng::seed_from_u64(cfg.seed);
    let mut out = Vec::with_capacity(cfg.positions);
    // Won positions are common (about half of every table); the cap only guards a table set
    // with none.
    for _ in 0..cfg.positions.saturating_mul(1000) {
        if out.len() == cfg.positions {
            break;
        }
        let mut i = rng.gen_range(0..total);
        let (m, ix) = tables
            .iter()
            .find(|(_, ix)| {
                let inside = i < ix.size();
                if !inside {
                    i -= ix.size();
                }
                inside
            })
            .expect("an index below the total");
        let pos = position::<R>(&ix.unrank(i));
        let Some(p) = db.probe(&pos) else { continue };
        let Some(d) = p.distance else { continue };
        let class = R::endgame_draw_plies(
            u32::from(m.wm + m.wk),
            u32::from(m.wk),
            u32::from(m.bm + m.bk),
            u32::from(m.bk),
        );
        let within = d <= u16::from(R::DRAW_PLIES) && (class == 0 || d <= u16::from(class));
        if p.value == Wld::Win && within {
            out.push((fen(&pos), d));
        }
    }
    Ok(out)
}

/// Plays one start position out: the engine (databases loaded, `cfg.movetime_ms` a move)
/// against itself.
///
/// # Errors
/// The databases or the FEN are refused, or the engine gives no or an illegal move.
pub fn play(cfg: &ConvertConfig, start: &str, distance: u16) -> Result<Conversion, String> {
    let mut engine = Engine::new(cfg.variant, cfg.hash_mib);
    engine.set_egdb(Some(&cfg.root), cfg.pieces)?;
    let first = VariantPosition::from_fen(cfg.variant, start).map_err(|e| e.to_string())?;
    let winner = first.side();
    let mut game = VariantGame::new(first);
    let mut moves: Vec<String> = Vec::new();
    let limits = Limits {
        movetime: Some(cfg.movetime_ms),
        ..Limits::default()
    };
    let (won, end) = loop {
        if let Some(o) = game.outcome() {
            break match o {
                Outcome::Win(c, _) => (Some(c == winner), o.to_string()),
                Outcome::Draw(_) => (None, o.to_string()),
            };
        }
        if moves.len() as u32 >= cfg.max_plies {
            break (None, format!("unfinished after {} plies", cfg.max_plies));
        }
        let refs: Vec<&str> = moves.iter().map(String::as_str).collect();
        engine.set_position(Some(start), &refs)?;
        let (best, _) = engine.search(limits.clone(), MoveForm::Native, |_| {});
        let best = best.ok_or("the engine gave no move")?;
        let name = game
            .play_text(&best)
            .map_err(|e| format!("the engine's move {best}: {e}"))?;
        moves.push(name);
    };
    Ok(Conversion {
        fen: start.to_string(),
        distance,
        won,
        end,
        moves,
    })
}

/// Wins, draws and losses of the side that was winning at the start.
pub fn tally(games: &[Conversion]) -> (usize, usize, usize) {
    let won = games.iter().filter(|g| g.won == Some(true)).count();
    let lost = games.iter().filter(|g| g.won == Some(false)).count();
    (won, games.len() - won - lost, lost)
}
