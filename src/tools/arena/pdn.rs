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
//! position. A final comment gives the ending reason.

use super::GameRecord;
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
