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

use crate::game::Game;
use crate::notation::{self, MoveError};
use crate::rules::Color;
use crate::variant::{Variant, VariantFn};
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

/// Result tokens of PDN 3.0 (draughts and chess forms).
const RESULTS: [&str; 8] = ["2-0", "0-2", "1-1", "0-0", "1-0", "0-1", "1/2-1/2", "*"];

struct Lexer<'a> {
    chars: std::iter::Peekable<std::str::Chars<'a>>,
    line: u32,
    col: u32,
    /// Only white space so far on the current line.
    at_line_start: bool,
    /// The previous line was blank (or this is the first line).
    after_blank_line: bool,
}

impl<'a> Lexer<'a> {
    fn new(text: &'a str) -> Self {
        Lexer {
            chars: text.chars().peekable(),
            line: 1,
            col: 1,
            at_line_start: true,
            after_blank_line: true,
        }
    }
    fn span(&self) -> Span {
        Span {
            line: self.line,
            col: self.col,
        }
    }
    fn peek(&mut self) -> Option<char> {
        self.chars.peek().copied()
    }
    fn bump(&mut self) -> Option<char> {
        let c = self.chars.next()?;
        if c == '\n' {
            self.after_blank_line = self.at_line_start;
            self.line += 1;
            self.col = 1;
            self.at_line_start = true;
        } else {
            self.col += 1;
            if !c.is_whitespace() {
                self.at_line_start = false;
            }
        }
        Some(c)
    }
    fn skip_line(&mut self) {
        while let Some(c) = self.bump() {
            if c == '\n' {
                break;
            }
        }
    }
    /// Whether the next game's tags start here: the rest of the line opens a tag pair
    /// (`[Name "`) at the start of a line, after a blank line or naming `Event` (the tag PDN
    /// puts first). Inside an unterminated comment or variation this is where reading
    /// resumes, so that only the bad game is lost.
    fn at_next_game(&self) -> bool {
        if !self.at_line_start {
            return false;
        }
        let mut it = self.chars.clone();
        if it.next() != Some('[') {
            return false;
        }
        let mut name = String::new();
        while let Some(c) = it.next() {
            if c.is_ascii_alphanumeric() || c == '_' {
                name.push(c);
            } else {
                let mut c = c;
                let mut spaced = false;
                while c == ' ' || c == '\t' {
                    spaced = true;
                    match it.next() {
                        Some(n) => c = n,
                        None => return false,
                    }
                }
                let is_tag =
                    spaced && c == '"' && name.starts_with(|c: char| c.is_ascii_alphabetic());
                return is_tag && (self.after_blank_line || name.eq_ignore_ascii_case("Event"));
            }
        }
        false
    }
}

/// One lexical item of the file.
enum Token {
    Tag(String, String),
    Word(String),
}

/// A syntax error from the lexer; `resync` when it is an unterminated comment or variation cut
/// short where the next game's tags begin (the lexer stands there).
struct LexError {
    error: PdnError,
    resync: bool,
}

impl From<PdnError> for LexError {
    fn from(error: PdnError) -> Self {
        LexError {
            error,
            resync: false,
        }
    }
}

/// Reads the next token, skipping comments, variations, NAGs and escape lines. `Err` is a syntax
/// error at a span (the lexer has moved past the bad text, or stands at the next game's tags
/// after an unterminated comment or variation); `Ok(None)` is the end of the file.
fn next_token(lx: &mut Lexer) -> Result<Option<(Token, Span)>, LexError> {
    loop {
        let Some(c) = lx.peek() else { return Ok(None) };
        let start = lx.span();
        if c.is_whitespace() || c == '\u{feff}' {
            lx.bump();
            continue;
        }
        if c == '%' && lx.at_line_start {
            lx.skip_line();
            continue;
        }
        match c {
            ';' => lx.skip_line(),
            '{' => {
                lx.bump();
                let unterminated = || LexError {
                    error: PdnError {
                        span: start,
                        message: "unterminated comment (no closing '}')".into(),
                    },
                    resync: true,
                };
                loop {
                    if lx.at_next_game() {
                        return Err(unterminated());
                    }
                    match lx.bump() {
                        Some('}') => break,
                        Some(_) => {}
                        None => return Err(unterminated()),
                    }
                }
            }
            '(' => {
                lx.bump();
                let unterminated = || LexError {
                    error: PdnError {
                        span: start,
                        message: "unterminated variation (no closing ')')".into(),
                    },
                    resync: true,
                };
                let mut depth = 1;
                let mut in_comment = false; // a comment inside a variation may hold parentheses
                while depth > 0 {
                    if lx.at_next_game() {
                        return Err(unterminated());
                    }
                    match (lx.bump(), in_comment) {
                        (None, _) => return Err(unterminated()),
                        (Some('}'), true) => in_comment = false,
                        (Some(_), true) => {}
                        (Some('{'), false) => in_comment = true,
                        (Some('('), false) => depth += 1,
                        (Some(')'), false) => depth -= 1,
                        (Some(_), false) => {}
                    }
                }
            }
            ')' => {
                lx.bump();
                return Err(PdnError {
                    span: start,
                    message: "')' without a variation to close".into(),
                }
                .into());
            }
            '$' => {
                lx.bump();
                while lx.peek().is_some_and(|c| c.is_ascii_digit()) {
                    lx.bump();
                }
            }
            '[' => return Ok(Some((read_tag(lx)?, start))),
            _ => {
                let mut w = String::new();
                while let Some(c) = lx.peek() {
                    if c.is_whitespace() || matches!(c, '{' | '(' | ')' | '[' | ';' | '$') {
                        break;
                    }
                    w.push(c);
                    lx.bump();
                }
                return Ok(Some((Token::Word(w), start)));
            }
        }
    }
}

/// Reads `[Name "value"]` from its `[`; a malformed tag skips to the end of its line.
fn read_tag(lx: &mut Lexer) -> Result<Token, PdnError> {
    lx.bump(); // '['
    let bad = |lx: &mut Lexer, why: &str| {
        let span = lx.span();
        if lx.peek() != Some('\n') {
            lx.skip_line();
        }
        Err(PdnError {
            span,
            message: format!("malformed tag: {why}"),
        })
    };
    while lx.peek().is_some_and(|c| c == ' ' || c == '\t') {
        lx.bump();
    }
    let mut name = String::new();
    while let Some(c) = lx.peek() {
        if c.is_ascii_alphanumeric() || c == '_' {
            name.push(c);
            lx.bump();
        } else {
            break;
        }
    }
    if name.is_empty() {
        return bad(lx, "expected a tag name after '['");
    }
    while lx.peek().is_some_and(|c| c == ' ' || c == '\t') {
        lx.bump();
    }
    if lx.peek() != Some('"') {
        return bad(lx, &format!("expected '\"' after the tag name {name}"));
    }
    lx.bump();
    let mut value = String::new();
    loop {
        match lx.peek() {
            Some('"') => {
                lx.bump();
                break;
            }
            Some('\\') => {
                lx.bump();
                match lx.peek() {
                    Some(c @ ('"' | '\\')) => {
                        value.push(c);
                        lx.bump();
                    }
                    _ => value.push('\\'),
                }
            }
            Some('\n') | None => {
                return bad(lx, &format!("the value of tag {name} has no closing '\"'"))
            }
            Some(c) => {
                value.push(c);
                lx.bump();
            }
        }
    }
    while lx.peek().is_some_and(|c| c == ' ' || c == '\t') {
        lx.bump();
    }
    if lx.peek() != Some(']') {
        return bad(lx, &format!("expected ']' to close tag {name}"));
    }
    lx.bump();
    Ok(Token::Tag(name, value))
}

/// Splits a word of move text into a move number (if it starts with one) and the rest.
/// `12.` → (12, ""), `12...` → (12, ""), `12.11-15` → (12, "11-15"), `11-15` → (None, "11-15").
fn split_number(w: &str) -> (Option<u32>, &str) {
    let digits = w.bytes().take_while(u8::is_ascii_digit).count();
    if digits > 0 && w[digits..].starts_with(['.', '…']) {
        let rest = w[digits..].trim_start_matches(['.', '…']);
        (w[..digits].parse().ok(), rest)
    } else {
        (None, w)
    }
}

/// Reads every game of a PDN file. A game with a syntax error is returned with
/// [`GameText::error`] set; reading goes on with the next game.
pub fn read_games(text: &str) -> Vec<GameText> {
    let mut lx = Lexer::new(text);
    let mut games = Vec::new();
    let mut game = GameText::default();
    let mut started = false; // the current game has at least one tag or move
    let mut in_moves = false; // the current game's move text has begun
    loop {
        let (tok, span) = match next_token(&mut lx) {
            Ok(Some(t)) => t,
            Ok(None) => break,
            Err(LexError { error, resync }) => {
                if !started {
                    game.span = error.span;
                    started = true;
                }
                game.error.get_or_insert(error);
                if resync {
                    // The next tag pair starts the next game.
                    in_moves = true;
                }
                continue;
            }
        };
        match tok {
            Token::Tag(name, value) => {
                if in_moves {
                    // The next game's tags: the current one had no result token.
                    games.push(std::mem::take(&mut game));
                    in_moves = false;
                    started = false;
                }
                if !started {
                    game.span = span;
                    started = true;
                }
                game.tags.push((name, value));
                game.tag_spans.push(span);
            }
            Token::Word(w) => {
                if !started {
                    game.span = span;
                    started = true;
                }
                in_moves = true;
                if RESULTS.contains(&w.as_str()) {
                    game.result = Some(w);
                    games.push(std::mem::take(&mut game));
                    in_moves = false;
                    started = false;
                    continue;
                }
                let (number, rest) = split_number(&w);
                if let Some(n) = number {
                    if game.moves.is_empty() && game.first_number.is_none() {
                        game.first_number = Some(n);
                    }
                }
                // Strength marks, and the `*` that checkers books put after an only move.
                let mv = rest.trim_end_matches(['!', '?', '*']);
                // An ellipsis standing for a move not given (`10. … c7-d6`, `24. d6-f8 …`).
                if mv.is_empty() || mv.chars().all(|c| c == '.' || c == '…') {
                    continue;
                }
                let offset = (w.chars().count() - rest.chars().count()) as u32;
                game.moves.push(MoveText {
                    text: mv.to_string(),
                    span: Span {
                        line: span.line,
                        col: span.col + offset,
                    },
                });
            }
        }
    }
    if started {
        games.push(game);
    }
    games
}

/// How the squares of a Russian or Brazilian file are numbered when they are numbers.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum Numbers {
    /// Square 1 = b8 (top left), 29 = a1: lidraughts (PDN notation `N2`).
    TopLeft,
    /// Square 1 = a1, 2 = c1, …, 32 = h8 (PDN notation `N0`).
    BottomLeft,
}

/// The variant a game is in: `[GameType]` (its first number) and, for 22, `[Variant]`;
/// `default` when there is no GameType.
///
/// Errors: an unsupported or malformed GameType, or none with no default.
pub fn variant_of(game: &GameText, default: Option<Variant>) -> Result<Variant, String> {
    let Some(gt) = game.tag("GameType") else {
        return default.ok_or_else(|| "no [GameType] tag (pass --variant)".to_string());
    };
    let number = gt.split(',').next().unwrap_or("").trim();
    match number {
        "21" => Ok(Variant::English),
        "22" => {
            let damone = game
                .tag("Variant")
                .is_some_and(|v| v.to_ascii_lowercase().contains("damone"));
            Ok(if damone {
                Variant::Damone
            } else {
                Variant::Italian
            })
        }
        "25" => Ok(Variant::Russian),
        "26" => Ok(Variant::Brazilian),
        "20" => Ok(Variant::International),
        other => match other.parse::<u32>() {
            Ok(n) => Err(format!("GameType {n} is not a supported variant (20 International, 21 English, 22 Italian, 25 Russian, 26 Brazilian)")),
            Err(_) => Err(format!("malformed GameType '{gt}'")),
        },
    }
}

/// The numbering of a Russian or Brazilian game's numeric squares.
fn numbers_of(game: &GameText) -> Numbers {
    let notation = game
        .tag("GameType")
        .and_then(|gt| gt.split(',').nth(4).map(|s| s.trim().to_ascii_uppercase()));
    match notation.as_deref() {
        Some("N0") => Numbers::BottomLeft,
        _ => Numbers::TopLeft,
    }
}

/// The algebraic name of square `n` (1-32) of an 8x8 board with a1 dark, in numbering `nb`.
fn algebraic(n: u32, nb: Numbers) -> Option<String> {
    if !(1..=32).contains(&n) {
        return None;
    }
    let i = n - 1;
    let (row, c) = (i / 4, i % 4);
    let rank = match nb {
        Numbers::TopLeft => 7 - row,
        Numbers::BottomLeft => row,
    };
    // a1 is dark: on even ranks (0-based) the dark squares are files a, c, e, g.
    let file = 2 * c + if rank % 2 == 0 { 0 } else { 1 };
    Some(format!("{}{}", (b'a' + file as u8) as char, rank + 1))
}

/// A move's numeric squares rewritten as algebraic ones (other text unchanged).
fn move_to_algebraic(text: &str, nb: Numbers) -> Option<String> {
    let mut out = String::new();
    let mut num = String::new();
    let flush = |num: &mut String, out: &mut String| -> Option<()> {
        if !num.is_empty() {
            out.push_str(&algebraic(num.parse().ok()?, nb)?);
            num.clear();
        }
        Some(())
    };
    for c in text.chars() {
        if c.is_ascii_digit() {
            num.push(c);
        } else {
            flush(&mut num, &mut out)?;
            out.push(c);
        }
    }
    flush(&mut num, &mut out)?;
    Some(out)
}

/// A numeric Russian or Brazilian FEN rewritten with algebraic squares (ranges expanded);
/// lidraughts' move counters (`H0`, `F1`) are kept as they are.
fn fen_to_algebraic(fen: &str, nb: Numbers) -> Result<String, String> {
    let mut fields = fen.trim().trim_end_matches('.').split(':');
    let mut out = fields.next().unwrap_or("").trim().to_string();
    for field in fields {
        let field = field.trim();
        if notation::counter_field(field).is_some() {
            out.push(':');
            out.push_str(field);
            continue;
        }
        let (colour, list) = field.split_at(field.chars().next().map_or(0, char::len_utf8));
        out.push(':');
        out.push_str(colour);
        let mut items = Vec::new();
        for item in list.split(',').map(str::trim).filter(|s| !s.is_empty()) {
            let (king, rest) = match item.strip_prefix(['K', 'k']) {
                Some(r) => ("K", r),
                None => ("", item),
            };
            let bad = || format!("bad FEN square '{item}'");
            if let Some((a, b)) = rest.split_once('-') {
                let b = b.trim_start_matches(['K', 'k']);
                let (lo, hi): (u32, u32) = (
                    a.trim().parse().map_err(|_| bad())?,
                    b.trim().parse().map_err(|_| bad())?,
                );
                for n in lo..=hi {
                    items.push(format!("{king}{}", algebraic(n, nb).ok_or_else(bad)?));
                }
            } else if rest.bytes().all(|b| b.is_ascii_digit()) {
                let n = rest.parse().map_err(|_| bad())?;
                items.push(format!("{king}{}", algebraic(n, nb).ok_or_else(bad)?));
            } else {
                items.push(item.to_string());
            }
        }
        out.push_str(&items.join(","));
    }
    Ok(out)
}

/// A game replayed through the rules: every move legal, named canonically.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Replay {
    /// The variant.
    pub variant: Variant,
    /// The start position's FEN in damiera's canonical form, when the game has a `[FEN]`.
    pub start_fen: Option<String>,
    /// The side to move at the start.
    pub start_side: Color,
    /// The number of the first move (from the move text, or the FEN's `F` field; else 1).
    pub first_number: u32,
    /// The moves in damiera's notation (every landing square of a capture).
    pub moves: Vec<String>,
}

struct ReplayJob<'a> {
    game: &'a GameText,
    variant: Variant,
}

impl VariantFn for ReplayJob<'_> {
    type Output = Result<Replay, PdnError>;
    fn call<G: Game>(self) -> Result<Replay, PdnError> {
        let game = self.game;
        let numeric_algebraic = matches!(self.variant, Variant::Russian | Variant::Brazilian);
        let nb = numbers_of(game);
        let at = |span: Span, message: String| PdnError { span, message };
        let (mut pos, start_fen, fen_number) = match game.tag("FEN") {
            Some(f) if !f.trim().is_empty() && f.trim() != "?" => {
                let fen_error =
                    |e: notation::FenError| at(game.tag_span("FEN"), format!("[FEN]: {e}"));
                let full = notation::fen_counters(f).map_err(fen_error)?.fullmove;
                let mut f = f.to_string();
                if numeric_algebraic {
                    // Numeric squares to algebraic; algebraic ones pass through unchanged.
                    f = fen_to_algebraic(&f, nb).map_err(|m| at(game.tag_span("FEN"), m))?;
                }
                let pos = G::parse_fen(&f).map_err(fen_error)?;
                (pos, Some(G::fen(&pos)), full)
            }
            _ => (G::start(), None, None),
        };
        let start_side = G::side(&pos);
        let mut moves = Vec::with_capacity(game.moves.len());
        for m in &game.moves {
            let text = if numeric_algebraic && m.text.starts_with(|c: char| c.is_ascii_digit()) {
                move_to_algebraic(&m.text, nb)
                    .ok_or_else(|| at(m.span, format!("'{}' is not a move", m.text)))?
            } else {
                m.text.clone()
            };
            if !G::has_moves(&pos) {
                return Err(at(
                    m.span,
                    format!("move {} after the end of the game", m.text),
                ));
            }
            // Checkers literature (and many English PDN files) writes jumps with `-` too
            // (`15-24`): a `-` move that is not a legal quiet move is read as `from x to`.
            let mv = match G::parse_move(&pos, &text) {
                Err(e @ MoveError::Illegal(_)) if text.matches('-').count() == 1 => {
                    G::parse_move(&pos, &text.replace('-', "x")).map_err(|_| e)
                }
                r => r,
            }
            .map_err(|e| at(m.span, e.to_string()))?;
            moves.push(G::move_name(&pos, &mv));
            pos = G::make(&pos, &mv);
        }
        Ok(Replay {
            variant: self.variant,
            start_fen,
            start_side,
            first_number: game.first_number.or(fen_number).unwrap_or(1).max(1),
            moves,
        })
    }
}

/// Replays a game's moves in `variant` (from [`variant_of`]).
///
/// Errors, each with its line and column: a bad `[FEN]`, a move that is not a move, illegal or
/// ambiguous here, or one after the game has ended.
pub fn replay(game: &GameText, variant: Variant) -> Result<Replay, PdnError> {
    if let Some(e) = &game.error {
        return Err(e.clone());
    }
    variant.dispatch(ReplayJob { game, variant })
}

/// The result token a variant's PDN uses (winner `None`: a draw). The convention is kept here
/// for both of damiera's PDN writers (`match --pdn`, `analyse --out`) and its reader
/// ([`parse_result`]):
///
/// - **English** (GameType 21): `1-0` Black won, `0-1` White won, `1/2-1/2` a draw: the
///   first number is the first player's (Black's). CheckerBoard writes this
///   (eygilbert/CheckerBoard `dialogs.c`: "Black wins" is saved as `1-0`; `CheckerBoard.c`
///   `dostats` in engine matches) and its PDN parser ends a game only at `1-0`, `0-1`,
///   `1/2-1/2` or `*` (`PDNparser.c`); pydraughts 0.6.7's `PDNReader` takes these too.
/// - **International** (20): `2-0` White won, `1-1` a draw, `0-2` Black won, White's score
///   first: PDN 3.0 (https://pdn.fmjd.org), the FMJD's points (2 a win, 1 a draw), lidraughts'
///   export (`PdnDump.scala`, `Color.showResult` with `draughtsResult`, its default).
/// - **Russian** (25) and **Brazilian** (26): the same `2-0 1-1 0-2`, as lidraughts exports
///   them (tests/pdn/russian-lidraughts.pdn).
/// - **Italian** (22) and **Italian Damone**: the same `2-0 1-1 0-2`, PDN 3.0's form. The FID
///   publishes no PDN convention we could find; CheckerBoard 1.73 writes Italian results as
///   English ones (`1-0` for its "Black" player), which [`parse_result`] does not follow for
///   Italian (there `1-0` is read as a White win, the first player's).
pub fn result_token(v: Variant, winner: Option<Color>) -> &'static str {
    match (v, winner) {
        (Variant::English, Some(Color::Black)) => "1-0",
        (Variant::English, Some(Color::White)) => "0-1",
        (Variant::English, None) => "1/2-1/2",
        (_, Some(Color::White)) => "2-0",
        (_, Some(Color::Black)) => "0-2",
        (_, None) => "1-1",
    }
}

/// What a result token means in a variant: `Some(Some(winner))`, `Some(None)` for a draw,
/// `None` for `*` or anything else. Every variant reads every form: `2-0`/`0-2` with White's
/// score first (PDN 3.0), `1-1`, `1/2-1/2` and `0-0` as draws, and `1-0`/`0-1` with the first
/// player's score first: Black's in English (CheckerBoard), White's elsewhere (see
/// [`result_token`]).
pub fn parse_result(v: Variant, token: &str) -> Option<Option<Color>> {
    let first = if v == Variant::English {
        Color::Black
    } else {
        Color::White
    };
    match token.trim() {
        "2-0" => Some(Some(Color::White)),
        "0-2" => Some(Some(Color::Black)),
        "1-0" => Some(Some(first)),
        "0-1" => Some(Some(first.opponent())),
        "1-1" | "1/2-1/2" | "0-0" => Some(None),
        _ => None,
    }
}

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
    fn call<G: Game>(self) -> Result<Vec<String>, String> {
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
/// ([`crate::notation::move_name_pdn`]), replayed from `fen` (`None`: the start position).
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
    fn words_numbers_and_skipped_text() {
        let g = read_games(
            "% escaped line\n[Event \"a \\\"b\\\"\"]\n1. 11-15 {c (x} 23-19 $1 2.9-14? (2. 8-11 (3. 1-2)) 22x17! ; rest\n2... 5-9 1-1\n",
        );
        assert_eq!(g.len(), 1);
        assert_eq!(g[0].tag("event"), Some("a \"b\""));
        let moves: Vec<&str> = g[0].moves.iter().map(|m| m.text.as_str()).collect();
        assert_eq!(moves, ["11-15", "23-19", "9-14", "22x17", "5-9"]);
        assert_eq!(g[0].moves[2].span, Span { line: 3, col: 28 });
        assert_eq!(g[0].result.as_deref(), Some("1-1"));
        assert_eq!(g[0].first_number, Some(1));
    }

    #[test]
    fn results_per_variant() {
        use Color::{Black, White};
        // English as CheckerBoard: Black (the first player) first; the others PDN 3.0's form.
        assert_eq!(result_token(Variant::English, Some(Black)), "1-0");
        assert_eq!(result_token(Variant::English, Some(White)), "0-1");
        assert_eq!(result_token(Variant::English, None), "1/2-1/2");
        for v in [
            Variant::International,
            Variant::Russian,
            Variant::Brazilian,
            Variant::Italian,
        ] {
            assert_eq!(result_token(v, Some(White)), "2-0");
            assert_eq!(result_token(v, Some(Black)), "0-2");
            assert_eq!(result_token(v, None), "1-1");
            assert_eq!(parse_result(v, "1-0"), Some(Some(White)));
        }
        // Every form is read in every variant.
        assert_eq!(parse_result(Variant::English, "2-0"), Some(Some(White)));
        assert_eq!(parse_result(Variant::English, "0-2"), Some(Some(Black)));
        assert_eq!(parse_result(Variant::English, "1-0"), Some(Some(Black)));
        assert_eq!(parse_result(Variant::English, "1-1"), Some(None));
        assert_eq!(parse_result(Variant::Russian, "1/2-1/2"), Some(None));
        assert_eq!(parse_result(Variant::Russian, "*"), None);
        for v in [Variant::English, Variant::International, Variant::Damone] {
            for w in [Some(White), Some(Black), None] {
                assert_eq!(parse_result(v, result_token(v, w)), Some(w));
            }
        }
    }

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

    #[test]
    fn unterminated_comment_stops_at_the_next_game() {
        let text =
            "[Event \"a\"]\n\n1. 11-15 {no end\n[%clock w0:01:00]\n\n[Event \"b\"]\n\n1. 9-13 *\n";
        let g = read_games(text);
        assert_eq!(g.len(), 2);
        let e = g[0].error.as_ref().expect("an error");
        assert_eq!(
            (e.span, e.message.as_str()),
            (
                Span { line: 3, col: 10 },
                "unterminated comment (no closing '}')"
            )
        );
        assert_eq!(g[1].tag("Event"), Some("b"));
        assert_eq!(g[1].moves[0].text, "9-13");
        assert!(g[1].error.is_none());
        // A tag pair right after a line of moves (no blank line) does not end a comment,
        // unless it is the [Event] a game starts with.
        let g = read_games("1. 11-15 {a\n[White \"x\"] b} 23-19 *\n");
        assert_eq!(g.len(), 1);
        assert_eq!(g[0].moves.len(), 2);
        assert!(g[0].error.is_none());
        let g = read_games("1. 11-15 (1. 9-13\n[Event \"b\"]\n1. 9-14 *\n");
        assert_eq!(g.len(), 2);
        assert!(g[0]
            .error
            .as_ref()
            .is_some_and(|e| e.message.contains("variation")));
        assert_eq!(g[1].moves[0].text, "9-14");
    }

    #[test]
    fn lidraughts_numbers_to_algebraic() {
        assert_eq!(algebraic(1, Numbers::TopLeft).as_deref(), Some("b8"));
        assert_eq!(algebraic(29, Numbers::TopLeft).as_deref(), Some("a1"));
        assert_eq!(algebraic(21, Numbers::TopLeft).as_deref(), Some("a3"));
        assert_eq!(algebraic(1, Numbers::BottomLeft).as_deref(), Some("a1"));
        assert_eq!(algebraic(9, Numbers::BottomLeft).as_deref(), Some("a3"));
        assert_eq!(algebraic(32, Numbers::BottomLeft).as_deref(), Some("h8"));
        assert_eq!(
            move_to_algebraic("22x15x8", Numbers::TopLeft).as_deref(),
            Some("c3xe5xg7")
        );
        // lidraughts' move counters pass through to the FEN parser, which reads them.
        assert_eq!(
            fen_to_algebraic("W:W21-32:B1,2:H0:F7", Numbers::TopLeft).as_deref(),
            Ok("W:Wa3,c3,e3,g3,b2,d2,f2,h2,a1,c1,e1,g1:Bb8,d8:H0:F7")
        );
    }
}
