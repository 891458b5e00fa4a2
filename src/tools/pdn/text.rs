//! What a PDN file's text holds before it is replayed: a position in the file ([`Span`]), a
//! read error ([`PdnError`]), a game's tag pairs and moves ([`GameText`], [`MoveText`]).

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
