//! The PDN lexer: characters to tag pairs and words of move text, with the line and column of
//! each, skipping comments, variations, NAGs and escaped lines, and stopping an unterminated
//! comment or variation where the next game's tags begin.

use super::text::{PdnError, Span};

pub(super) struct Lexer<'a> {
    chars: std::iter::Peekable<std::str::Chars<'a>>,
    line: u32,
    col: u32,
    /// Only white space so far on the current line.
    at_line_start: bool,
    /// The previous line was blank (or this is the first line).
    after_blank_line: bool,
}

impl<'a> Lexer<'a> {
    pub(super) fn new(text: &'a str) -> Self {
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
pub(super) enum Token {
    Tag(String, String),
    Word(String),
}

/// A syntax error from the lexer; `resync` when it is an unterminated comment or variation cut
/// short where the next game's tags begin (the lexer stands there).
pub(super) struct LexError {
    pub(super) error: PdnError,
    pub(super) resync: bool,
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
pub(super) fn next_token(lx: &mut Lexer) -> Result<Option<(Token, Span)>, LexError> {
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
