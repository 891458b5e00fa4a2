//! PDN output of finished games.
//!
//! Conventions (docs/match.md): `[GameType]` is PDN 3.0's number ([`crate::tools::pdn::game_type`];
//! Italian Damone is written `22` with a `[Variant "damone"]` tag). `[Result]` and the result token follow each variant's
//! convention ([`crate::tools::pdn::result_token`]: `2-0 1-1 0-2` with White's score first; English
//! `1-0` Black won, `1/2-1/2`, `0-1` White won, as CheckerBoard writes). Moves are in the
//! shortest unambiguous form (`15x29`, every landing square only when two legal captures share
//! from and to: [`crate::tools::pdn::pdn_move_names`]) and numbered as [`crate::tools::pdn::move_number`]
//! says. `[FEN]` (with `[SetUp "1"]`) is written only when the opening starts from a FEN; the
//! opening's moves are part of the move text, so the game replays from `[FEN]` or the start
//! position. A final comment gives the ending reason. [`read_finished`] reads such a file back
//! to go on with its match (`--resume`).

use super::{GameRecord, GameResult, Reason};
use crate::core::rules::Color;
use crate::core::variant::Variant;
use crate::tools::pdn;
use std::fmt::Write;

/// One game as PDN text (tags, a blank line, the move text, a blank line).
pub fn game_pdn(v: Variant, event: &str, g: &GameRecord, names: [&str; 2]) -> String {
    let mut s = String::new();
    let result = g.result.token(v);
    let _ = writeln!(s, "[Event \"{event}\"]");
    let _ = writeln!(s, "[Round \"{}\"]", g.index + 1);
    let _ = writeln!(s, "[White \"{}\"]", names[g.white_engine]);
    let _ = writeln!(s, "[Black \"{}\"]", names[1 - g.white_engine]);
    let _ = writeln!(s, "[Result \"{result}\"]");
    let _ = writeln!(s, "[GameType \"{}\"]", pdn::game_type(v));
    if let Some(tag) = pdn::variant_tag(v) {
        let _ = writeln!(s, "[Variant \"{tag}\"]");
    }
    if let Some(f) = &g.start_fen {
        let _ = writeln!(s, "[SetUp \"1\"]");
        let _ = writeln!(s, "[FEN \"{f}\"]");
    }
    let _ = writeln!(s, "[Opening \"{}\"]", g.opening_text.replace('"', "'"));
    let _ = writeln!(s, "[Termination \"{}\"]", g.reason.text());
    s.push('\n');
    // The moves were checked legal by the arbiter, so renaming them cannot fail; if it did,
    // the native names (every landing square) are still readable PDN.
    let native: Vec<&str> = g.all_moves().map(String::as_str).collect();
    let names = pdn::pdn_move_names(v, g.start_fen.as_deref(), &native)
        .unwrap_or_else(|_| native.iter().map(|m| m.to_string()).collect());
    let mut tokens: Vec<String> = Vec::new();
    for (ply, m) in names.into_iter().enumerate() {
        if ply == 0 || pdn::move_number(v, g.start_side, 1, ply).1 {
            tokens.push(pdn::move_label(v, g.start_side, 1, ply));
        }
        tokens.push(m);
    }
    tokens.push(format!("{{{}}}", g.comment().replace('}', ")")));
    tokens.push(result.to_string());
    wrap_move_text(&mut s, &tokens, 80);
    s
}

/// Appends move-text tokens to `s` as lines of at most `width` columns (a longer token gets a
/// line of its own), then a blank line.
pub fn wrap_move_text(s: &mut String, tokens: &[String], width: usize) {
    let mut line = String::new();
    for t in tokens {
        if !line.is_empty() && line.len() + 1 + t.len() > width {
            s.push_str(&line);
            s.push('\n');
            line.clear();
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str(t);
    }
    s.push_str(&line);
    s.push_str("\n\n");
}

/// A game read back from a match's PDN file ([`read_finished`]): its record, as far as the
/// tags hold it (no moves, no move times), and its text as written.
#[derive(Clone, Debug)]
pub struct FinishedGame {
    /// The record: number, colours, result and ending; moves and times empty.
    pub record: GameRecord,
    /// The game's PDN text, from its first tag to the next game.
    pub text: String,
}

/// Reads the games a `damiera match` wrote to its PDN file `text` (to go on with that match:
/// `--resume`): each game's number from `[Round]` (game `Round - 1`), which engine played
/// White from `[White]`/`[Black]` against `names` (the two engines' names, in the match's
/// order), the result from `[Result]` (the variant's tokens, [`pdn::parse_result`]) and the
/// ending from `[Termination]`. Games are returned in file order.
///
/// # Errors
/// One line with the PDN line number: a syntax error, a game of another variant
/// (`[GameType]`), players other than `names`, a missing or unreadable `[Round]`, `[Result]`
/// or `[Termination]`, or a game number that appears twice.
pub fn read_finished(
    text: &str,
    v: Variant,
    names: [&str; 2],
) -> Result<Vec<FinishedGame>, String> {
    let games = pdn::read_games(text);
    let lines: Vec<&str> = text.split_inclusive('\n').collect();
    let mut seen = std::collections::HashSet::new();
    let mut out = Vec::with_capacity(games.len());
    for (k, g) in games.iter().enumerate() {
        let at = g.span.line;
        if let Some(e) = &g.error {
            return Err(format!("line {}: {}", e.span.line, e.message));
        }
        let tag = |name: &str| {
            g.tag(name)
                .ok_or_else(|| format!("line {at}: a game without [{name}]"))
        };
        let game_type = pdn::game_type(v).to_string();
        if tag("GameType")?.split(',').next() != Some(game_type.as_str())
            || g.tag("Variant") != pdn::variant_tag(v)
        {
            return Err(format!("line {at}: a game of another variant than {v}"));
        }
        let round: usize = tag("Round")?
            .trim()
            .parse()
            .ok()
            .filter(|&r| r >= 1)
            .ok_or_else(|| format!("line {at}: [Round] is not a game number"))?;
        if !seen.insert(round) {
            return Err(format!("line {at}: game {round} appears twice"));
        }
        let (white, black) = (tag("White")?, tag("Black")?);
        let white_engine = match (white, black) {
            (w, b) if w == names[0] && b == names[1] => 0,
            (w, b) if w == names[1] && b == names[0] => 1,
            _ => {
                return Err(format!(
                    "line {at}: game {round} is {white} against {black}, not {} against {}",
                    names[0], names[1]
                ))
            }
        };
        let result = match pdn::parse_result(v, tag("Result")?) {
            Some(Some(c)) => GameResult::win_for(c),
            Some(None) => GameResult::Draw,
            None => return Err(format!("line {at}: game {round} has no result")),
        };
        let ending = tag("Termination")?;
        let reason = Reason::ALL
            .into_iter()
            .find(|r| r.text() == ending)
            .ok_or_else(|| format!("line {at}: unknown [Termination \"{ending}\"]"))?;
        let start = at.saturating_sub(1) as usize;
        let end = games
            .get(k + 1)
            .map_or(lines.len(), |n| n.span.line.saturating_sub(1) as usize);
        out.push(FinishedGame {
            record: GameRecord {
                index: round - 1,
                white_engine,
                start_fen: g.tag("FEN").map(str::to_string),
                start_side: Color::White,
                opening_text: g.tag("Opening").unwrap_or("").to_string(),
                opening_moves: Vec::new(),
                moves: Vec::new(),
                result,
                reason,
                detail: String::new(),
                times: Default::default(),
                book: Default::default(),
            },
            text: lines.get(start..end).unwrap_or_default().concat(),
        });
    }
    Ok(out)
}
