//! Opening files and random openings.
//!
//! File format: one opening a line; `#` starts a comment (to the end of the line); blank lines
//! are skipped. An opening is either moves from the variant's start position (`11-15 23-19
//! 8-11`, in any notation `Engine::move_name` accepts), or a PDN FEN (`W:W21-32:B1-12`, a
//! first token starting `W:` or `B:`) optionally followed by moves from it. Every opening is
//! checked legal when read.

use crate::core::rules::Color;
use crate::core::variant::Variant;
use crate::core::variant_position::{VariantGame, VariantPosition};
use crate::engine::search::Limits;
use crate::engine::{Depth, Engine, Event, MoveForm, Score};
use rand::rngs::StdRng;
use rand::seq::SliceRandom;
use rand::SeedableRng;
use std::collections::HashSet;

/// One opening: a start position and the moves played from it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Opening {
    /// The start FEN, `None` for the variant's start position.
    pub fen: Option<String>,
    /// The moves, as native PDN names.
    pub moves: Vec<String>,
    /// The line as written (without its comment), for reports.
    pub text: String,
}

/// Checks `fen` + `moves` in `variant` and returns the moves as native names.
fn check(variant: Variant, fen: Option<&str>, moves: &[&str]) -> Result<Vec<String>, String> {
    let start = VariantPosition::new(variant, fen)
        .map_err(|err| format!("bad FEN '{}': {err}", fen.unwrap_or("")))?;
    let mut game = VariantGame::new(start);
    let mut names: Vec<String> = Vec::new();
    for (i, m) in moves.iter().enumerate() {
        if game.outcome().is_some() {
            return Err(format!("move {} '{m}': the game is already over", i + 1));
        }
        let name = game
            .play_text(m)
            .map_err(|err| format!("illegal move {} '{m}': {err}", i + 1))?;
        names.push(name);
    }
    if game.outcome().is_some() {
        return Err("the game is already over after the opening".into());
    }
    Ok(names)
}

/// Parses an openings text; `source` names it in errors (`source:line: ...`).
///
/// # Errors
/// One line naming the source, the line number and what is wrong (bad FEN, illegal move with
/// its number and text, a finished game, or no opening at all).
pub fn parse_openings(text: &str, source: &str, variant: Variant) -> Result<Vec<Opening>, String> {
    let mut out = Vec::new();
    for (n, raw) in text.lines().enumerate() {
        let line = raw.split('#').next().unwrap_or("").trim();
        if line.is_empty() {
            continue;
        }
        let tokens: Vec<&str> = line.split_whitespace().collect();
        let (fen, moves) = if tokens[0].starts_with("W:") || tokens[0].starts_with("B:") {
            (Some(tokens[0].to_string()), &tokens[1..])
        } else {
            (None, &tokens[..])
        };
        let names = check(variant, fen.as_deref(), moves)
            .map_err(|e| format!("{source}:{}: {e}", n + 1))?;
        out.push(Opening {
            fen,
            moves: names,
            text: line.to_string(),
        });
    }
    if out.is_empty() {
        return Err(format!("{source}: no opening in the file"));
    }
    Ok(out)
}

/// Reads and checks an openings file.
///
/// # Errors
/// A missing or unreadable file, or a bad line (see [`parse_openings`]).
pub fn read_openings(path: &str, variant: Variant) -> Result<Vec<Opening>, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("{path}: {e}"))?;
    parse_openings(&text, path, variant)
}

/// The score (centi-men, side to move's view) of a depth-`depth` search of the current
/// position; wins and losses count as ±10000.
fn shallow_score(e: &mut Engine, depth: Depth) -> i32 {
    let limits = Limits {
        depth: Some(depth),
        ..Limits::default()
    };
    let mut last = 0;
    e.search(limits, MoveForm::Native, |ev| {
        if let Event::Info { score, .. } = ev {
            last = match score {
                Score::Cp(c) => c,
                Score::Win(_) => 10_000,
                Score::Loss(_) => -10_000,
            };
        }
    });
    last
}

/// Parameters of [`random_openings`].
#[derive(Clone, Copy, Debug)]
pub struct RandomOpenings {
    /// How many distinct openings.
    pub count: usize,
    /// Random plies from the start position.
    pub plies: usize,
    /// Seed of the `StdRng`.
    pub seed: u64,
    /// Depth of the balance check search; 0 skips the search.
    pub depth: Depth,
    /// Largest accepted |score| in centi-men.
    pub margin: i32,
}

/// `count` distinct random openings: `plies` uniformly random legal moves from the start
/// position (an `StdRng` seeded with `seed`), kept when the game is not over, both sides have
/// the same number of pieces, and a depth-`depth` search scores the position within
/// ±`margin` centi-men. Deterministic for a given seed and damiera version.
///
/// # Errors
/// If not enough openings are found within `count × 1000` attempts.
pub fn random_openings(variant: Variant, p: RandomOpenings) -> Result<Vec<Opening>, String> {
    let mut rng = StdRng::seed_from_u64(p.seed);
    let mut seen = HashSet::new();
    let mut out = Vec::new();
    let mut e = Engine::new(variant, 1);
    let mut attempts = 0usize;
    while out.len() < p.count {
        attempts += 1;
        if attempts > p.count.max(1) * 1000 {
            return Err(format!(
                "only {} balanced random openings of {} plies found in {} attempts",
                out.len(),
                p.plies,
                attempts - 1
            ));
        }
        let mut moves: Vec<String> = Vec::new();
        let mut game = VariantGame::new(VariantPosition::start(variant));
        let mut ok = true;
        for _ in 0..p.plies {
            if game.outcome().is_some() {
                ok = false;
                break;
            }
            let legal = game.position().legal_moves();
            let Some(mv) = legal.as_slice().choose(&mut rng) else {
                ok = false;
                break;
            };
            moves.push(game.position().move_name(mv));
            game.play(mv);
        }
        if !ok || game.outcome().is_some() || !seen.insert(moves.clone()) {
            continue;
        }
        let pos = game.position();
        if pos.pieces_of(Color::White) != pos.pieces_of(Color::Black) {
            continue;
        }
        if p.depth > Depth(0) {
            let refs: Vec<&str> = moves.iter().map(String::as_str).collect();
            e.set_position(None, &refs).expect("legal moves");
            e.new_game();
            if shallow_score(&mut e, p.depth).abs() > p.margin {
                continue;
            }
        }
        out.push(Opening {
            fen: None,
            text: moves.join(" "),
            moves,
        });
    }
    Ok(out)
}

/// Shuffles openings with an `StdRng` seeded with `seed` (a Fisher-Yates shuffle).
pub fn shuffle(openings: &mut [Opening], seed: u64) {
    let mut rng = StdRng::seed_from_u64(seed);
    openings.shuffle(&mut rng);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_moves_fens_and_comments() {
        let text = "# header\n11-15 23-19 8-11 # Old Fourteenth? no\n\nB:W21-32:B1-12 9-13\n";
        let o = parse_openings(text, "t.txt", Variant::English).unwrap();
        assert_eq!(o.len(), 2);
        assert_eq!(o[0].moves, vec!["11-15", "23-19", "8-11"]);
        assert_eq!(o[1].fen.as_deref(), Some("B:W21-32:B1-12"));
        let err =
            parse_openings("11-15\n11-15 22-18 10-14\n", "t.txt", Variant::English).unwrap_err();
        assert!(err.starts_with("t.txt:2: illegal move 3 '10-14'"), "{err}");
    }

    #[test]
    fn random_openings_are_reproducible() {
        let p = RandomOpenings {
            count: 5,
            plies: 4,
            seed: 7,
            depth: Depth(4),
            margin: 25,
        };
        let a = random_openings(Variant::Damone, p).unwrap();
        let b = random_openings(Variant::Damone, p).unwrap();
        assert_eq!(a, b);
        assert_eq!(a.len(), 5);
        assert!(a.iter().all(|o| o.moves.len() == 4));
    }
}
