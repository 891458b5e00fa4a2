//! PDN output of finished games.
//!
//! Conventions (docs/match.md): `[GameType]` is PDN 3.0's number (English 21, Italian 22,
//! Russian 25, Brazilian 26); Italian Damone has none, so it is written `22` with a
//! `[Variant "damone"]` tag. `[Result]` uses PDN 3.0's draughts form with White's score
//! first: `2-0` (White wins), `1-1` (draw), `0-2` (Black wins), in every variant (in English
//! checkers White is the second player). `[FEN]` (with `[SetUp "1"]`) is written only when the
//! opening starts from a FEN; the opening's moves are part of the move text, so the game
//! replays from `[FEN]` or the start position. A final comment gives the ending reason.

use super::GameRecord;
use crate::rules::Color;
use crate::variant::Variant;
use std::fmt::Write;

/// PDN 3.0 GameType number of a variant (Damone: 22, see the module docs).
pub fn game_type(v: Variant) -> u32 {
    match v {
        Variant::English => 21,
        Variant::Italian | Variant::Damone => 22,
        Variant::Russian => 25,
        Variant::Brazilian => 26,
        Variant::International => 20,
    }
}

/// The side that moves first in the variant's start position.
pub fn first_mover(v: Variant) -> Color {
    if v == Variant::English {
        Color::Black
    } else {
        Color::White
    }
}

/// One game as PDN text (tags, a blank line, the move text, a blank line).
pub fn game_pdn(v: Variant, event: &str, g: &GameRecord, names: [&str; 2]) -> String {
    let mut s = String::new();
    let result = g.result.token();
    let _ = writeln!(s, "[Event \"{event}\"]");
    let _ = writeln!(s, "[Round \"{}\"]", g.index + 1);
    let _ = writeln!(s, "[White \"{}\"]", names[g.white_engine]);
    let _ = writeln!(s, "[Black \"{}\"]", names[1 - g.white_engine]);
    let _ = writeln!(s, "[Result \"{result}\"]");
    let _ = writeln!(s, "[GameType \"{}\"]", game_type(v));
    if v == Variant::Damone {
        let _ = writeln!(s, "[Variant \"damone\"]");
    }
    if let Some(f) = &g.start_fen {
        let _ = writeln!(s, "[SetUp \"1\"]");
        let _ = writeln!(s, "[FEN \"{f}\"]");
    }
    let _ = writeln!(s, "[Opening \"{}\"]", g.opening_text.replace('"', "'"));
    let _ = writeln!(s, "[Termination \"{}\"]", g.reason.text());
    s.push('\n');
    // Move text with move numbers: a number before each first-mover move; "N..." when the
    // game starts with the second mover.
    let first = first_mover(v);
    let mut tokens: Vec<String> = Vec::new();
    let mut number = 1;
    let mut side = g.start_side;
    for (i, m) in g.all_moves().enumerate() {
        if side == first {
            tokens.push(format!("{number}."));
        } else if i == 0 {
            tokens.push(format!("{number}..."));
        }
        tokens.push(m.clone());
        if side != first {
            number += 1;
        }
        side = side.opponent();
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
