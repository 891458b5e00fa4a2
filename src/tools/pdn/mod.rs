//! Reading PDN files: games as tag pairs and move text, replayed through damiera's rules.
//!
//! The grammar is PDN 3.0's (https://pdn.fmjd.org, which extends PGN's): tag pairs
//! `[Name "value"]` (`\"` and `\\` escaped), then move text of move numbers (`12.`, `12...`,
//! `12. ...`, `10. …`, also glued to the move, `12.11-15`), moves with `-`, `x` or `:` between squares,
//! move-strength marks (`!`, `?`, `!!`, `??`, `!?`, `?!`, and checkers books' `*` for an only
//! move), numeric annotation glyphs (`$12`),
//! `{comments}`, `(variations)` (nested; skipped), `;` comments to the end of the line, lines
//! starting with `%` (escaped; skipped), and a result token (`2-0`, `1-1`, `0-2`, `0-0`, the
//! chess forms `1-0`, `1/2-1/2`, `0-1`, and `*`; what each means per variant:
//! [`parse_result`]). A file holds any number of games; a game ends at its result token, or
//! where the next game's tags begin. An unterminated comment or variation ends where the next
//! game's tags begin (a line opening a tag pair after a blank line, or opening `[Event "`), so
//! that only its game is lost.
//!
//! The conventions damiera's PDN writers follow are here too, for both of them: the result
//! tokens ([`result_token`]), the move numbers ([`move_number`]) and the move names
//! ([`pdn_move_names`], the shortest unambiguous form).
//!
//! The variant comes from `[GameType]` (PDN 3.0's numbers: 20 International, 21 English, 22
//! Italian, 25 Russian, 26 Brazilian; a `[Variant "damone"]` tag with 22 means Italian Damone, the convention of
//! damiera's own match files, docs/match.md). A start position comes from `[FEN]`.
//!
//! Russian and Brazilian are algebraic (`c3-d4`). lidraughts exports them, by default, with
//! numbers in its own numbering (square 1 = b8 at the top left, White on 21-32, as
//! pydraughts' "internal" numbering; lidraughts `PdnDump.scala`, which converts to algebraic
//! only on request). The numbering of a numeric Russian or Brazilian file is read from the
//! GameType's notation field (`N2`: square 1 top left, lidraughts; `N0`: square 1 = a1, the
//! numbering of some Brazilian books and pydraughts' numeric form); without it, numbers mean
//! lidraughts' numbering.
//!
//! Layout: `lex` (the lexer, with line and column), `read` (a file's games: tags, move numbers,
//! moves, result), `replay` (the variant, numeric squares, replaying through the rules),
//! `result` (the result tokens per variant), `write` (move numbers, move names and escaping,
//! shared by both writers); this module holds the types they share and re-exports the rest.
//! The match's PDN writer stays in [`crate::tools::arena::pdn`]: it writes an
//! [`arena::GameRecord`](crate::tools::arena::GameRecord), and the arena uses this module, so moving it
//! here would make the two modules import each other.

mod lex;
mod read;
mod replay;
mod result;
mod write;

pub use read::read_games;
pub use replay::{game_type, replay, variant_of, variant_tag, Replay};
pub use result::{parse_result, result_token};
pub use write::{escape, move_label, move_number, pdn_move_names};

use std::fmt;

/// A place in the PDN text: line and column, both counted from 1 (columns in characters).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Default)]
pub struct Span {
    /// Line, from 1.
    pub line: u32,
    /// Column, from 1.
    pub col: u32,
}

impl fmt::Display for Span {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}", self.line, self.col)
    }
}

/// An error in a PDN game, with where it is.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PdnError {
    /// Where the offending text starts.
    pub span: Span,
    /// What is wrong, in one line.
    pub message: String,
}

impl fmt::Display for PdnError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.span, self.message)
    }
}

impl std::error::Error for PdnError {}

/// One move as written in the file, move-strength marks removed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MoveText {
    /// The move (`11-15`, `22x15x8`, `c3:e5`).
    pub text: String,
    /// Where it is.
    pub span: Span,
}

/// One game of a PDN file as text: its tags, its moves and its result, not yet replayed.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct GameText {
    /// Where the game starts.
    pub span: Span,
    /// The tag pairs in file order (name, value).
    pub tags: Vec<(String, String)>,
    /// Where each tag of [`GameText::tags`] starts.
    pub tag_spans: Vec<Span>,
    /// The main line's moves.
    pub moves: Vec<MoveText>,
    /// The number of the first move number seen before the first move, if any.
    pub first_number: Option<u32>,
    /// The result token that ended the move text, if any.
    pub result: Option<String>,
    /// The first syntax error (a malformed tag, an unterminated comment or variation).
    pub error: Option<PdnError>,
}

impl GameText {
    /// The value of a tag (the first one of that name, compared without case).
    pub fn tag(&self, name: &str) -> Option<&str> {
        self.tags
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }

    /// The game's result: its result token unless that is `*`, else the `[Result]` tag.
    pub fn result_or_tag(&self) -> Option<&str> {
        self.result
            .as_deref()
            .filter(|r| *r != "*")
            .or_else(|| self.tag("Result"))
    }

    /// Where a tag starts (the first one of that name), else where the game starts.
    pub fn tag_span(&self, name: &str) -> Span {
        self.tags
            .iter()
            .position(|(n, _)| n.eq_ignore_ascii_case(name))
            .and_then(|i| self.tag_spans.get(i).copied())
            .unwrap_or(self.span)
    }
}
