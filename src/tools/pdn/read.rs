//! Reading a file's games: [`read_games`] splits the lexer's tokens into games of tags, move
//! numbers, moves and result token.

use super::lex::{next_token, LexError, Lexer, Token};
use super::result::RESULTS;
use super::text::{GameText, MoveText, Span};

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
}
