//! What damiera's two PDN writers (`match --pdn`, `analyse --out`) share besides the result
//! tokens: move numbers and labels ([`move_number`], [`move_label`]), the shortest
//! unambiguous move names ([`pdn_move_names`]) and escaped tag values ([`escape`]).

use crate::core::dispatch::{Dispatch, VariantFn};
use crate::core::draughts::Draughts;
use crate::core::rules::Color;
use crate::core::variant::Variant;

/// The move number of ply `ply` (0 = the game's first move) and whether a number is written
/// before it (it starts a numbered pair), for a game of `v` that starts with `start_side` to
/// move and whose first move has number `first_number`. Used by both PDN writers; the label is
/// [`move_label`].
///
/// - **English**: a move number counts a pair of plies from the game's first ply, whichever
///   side makes it, so a game from a FEN with White (the second player) to move is written
///   `1. 27-23 20x27 2. 18-22 ...`. pydraughts 0.6.7's `PDNReader` reads only this form for a
///   FEN with White to move (it splits the move text at the numbers and takes two moves after
///   each), and its `PDNWriter` writes it; CheckerBoard ignores move numbers when it reads.
///   From Black to move (the start position) this is the usual `1. 11-15 23-19`.
/// - **Other variants**: a number before each White move (White moves first), `1...` before a
///   first move by Black: PDN 3.0 and lidraughts' export (`PdnDump.scala` writes a Black
///   first move as `1... `).
pub fn move_number(v: Variant, start_side: Color, first_number: u32, ply: usize) -> (u32, bool) {
    let leader = if v == Variant::English {
        start_side
    } else {
        Color::White
    };
    let offset = usize::from(start_side != leader);
    let side = if ply.is_multiple_of(2) {
        start_side
    } else {
        start_side.opponent()
    };
    (first_number + ((ply + offset) / 2) as u32, side == leader)
}

/// The PDN label of ply `ply` ([`move_number`]): `12.` before a move that starts a numbered pair,
/// `12...` otherwise.
pub fn move_label(v: Variant, start_side: Color, first_number: u32, ply: usize) -> String {
    let (n, starts) = move_number(v, start_side, first_number, ply);
    format!("{n}{}", if starts { "." } else { "..." })
}

struct PdnNamesJob<'a> {
    fen: Option<&'a str>,
    moves: &'a [&'a str],
}

impl VariantFn for PdnNamesJob<'_> {
    type Output = Result<Vec<String>, String>;
    fn call<G: Draughts>(self) -> Result<Vec<String>, String> {
        let mut pos = match self.fen {
            None => G::start(),
            Some(f) => G::parse_fen(f).map_err(|e| e.to_string())?,
        };
        let mut out = Vec::with_capacity(self.moves.len());
        for (i, text) in self.moves.iter().enumerate() {
            let mv = G::parse_move(&pos, text)
                .map_err(|e| format!("{e} (move {} of the list)", i + 1))?;
            out.push(G::move_name_pdn(&pos, &mv));
            pos = G::make(&pos, &mv);
        }
        Ok(out)
    }
}

/// The moves of a game (in any form damiera reads) in the shortest unambiguous PDN form
/// ([`crate::core::notation::move_name_pdn`]), replayed from `fen` (`None`: the start position).
/// Both PDN writers name their moves through this.
///
/// Errors: a bad FEN, or a move that is not legal where it is played (with its number).
pub fn pdn_move_names(
    v: Variant,
    fen: Option<&str>,
    moves: &[&str],
) -> Result<Vec<String>, String> {
    v.dispatch(PdnNamesJob { fen, moves })
}

/// A tag value with `"` and `\` escaped, as PDN writes it.
pub fn escape(value: &str) -> String {
    value.replace('\\', "\\\\").replace('"', "\\\"")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn move_numbers() {
        use Color::{Black, White};
        let labels = |v, side, first, n: usize| -> Vec<String> {
            (0..n).map(|p| move_label(v, side, first, p)).collect()
        };
        // English from the start (Black first) and from a FEN with White to move: a number
        // before every other ply from the first (pydraughts' PDNReader and PDNWriter).
        assert_eq!(labels(Variant::English, Black, 1, 3), ["1.", "1...", "2."]);
        assert_eq!(labels(Variant::English, White, 1, 3), ["1.", "1...", "2."]);
        // International from Black to move: `1... 18-23 2. 32-28` (PDN 3.0, lidraughts).
        assert_eq!(
            labels(Variant::International, Black, 1, 3),
            ["1...", "2.", "2..."]
        );
        assert_eq!(labels(Variant::Russian, White, 12, 2), ["12.", "12..."]);
    }
}
