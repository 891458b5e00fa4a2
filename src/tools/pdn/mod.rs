//! Reading PDN files: games as tag pairs and move text, replayed through damiera's rules.
//!
//! The grammar is PDN 3.0's (<https://pdn.fmjd.org>, which extends PGN's): tag pairs
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
//! shared by both writers); `text` (the types they share: spans, errors, a game's text); this module re-exports them.
//! The match's PDN writer stays in [`crate::tools::arena::pdn`]: it writes an
//! [`arena::GameRecord`](crate::tools::arena::GameRecord), and the arena uses this module, so moving it
//! here would make the two modules import each other.

mod lex;
mod read;
mod replay;
mod result;
mod text;
mod write;

pub use read::read_games;
pub use replay::{game_type, replay, replay_prefix, variant_of, variant_tag, Replay};
pub use result::{parse_result, result_token};
pub use text::{GameText, MoveText, PdnError, Span};
pub use write::{escape, move_label, move_number, pdn_move_names};
