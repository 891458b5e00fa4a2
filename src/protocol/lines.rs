//! Line input and output shared by the protocols: bounded line reading ([`input_lines`],
//! [`InputError`]), the output the command loop and the search thread write to ([`Output`]),
//! and error text cut and cleaned for one protocol line ([`clean_error`]).

use std::io::{BufRead, Write};
use std::sync::{Arc, Mutex};

/// The longest input line accepted, in bytes (1 MiB: a `position` line with some 100,000
/// moves). A longer line is read to its end, discarded and reported as [`InputError::TooLong`].
pub const MAX_LINE_BYTES: usize = 1 << 20;

/// Where protocol lines go: shared by the command loop and the search thread.
#[derive(Clone)]
pub struct Output {
    w: Arc<Mutex<Box<dyn Write + Send>>>,
    exit_when_closed: bool,
}

impl Output {
    /// Lines to `w` (a buffer in tests). A write error is ignored.
    pub fn new(w: Box<dyn Write + Send>) -> Output {
        Output {
            w: Arc::new(Mutex::new(w)),
            exit_when_closed: false,
        }
    }

    /// Lines to the process's stdout. When a line cannot be written (the front end that
    /// reads stdout has gone), nobody can receive a move any more: the process says so on
    /// stderr and exits with status 1, which also ends a search that would otherwise run on
    /// (`go infinite`, Hub `go analyze`) with its stdin still open.
    pub fn stdout() -> Output {
        Output {
            w: Arc::new(Mutex::new(Box::new(std::io::stdout()))),
            exit_when_closed: true,
        }
    }

    /// Writes one line and flushes it. A write error (the reader went away) ends the process
    /// for [`Output::stdout`] and is ignored otherwise.
    pub fn line(&self, text: &str) {
        let mut w = self.w.lock().unwrap_or_else(|p| p.into_inner());
        let r = writeln!(w, "{text}").and_then(|_| w.flush());
        if let Err(e) = r {
            if self.exit_when_closed {
                let _ = writeln!(
                    std::io::stderr(),
                    "error: cannot write to stdout ({e}); exiting"
                );
                std::process::exit(1);
            }
        }
    }
}

/// The longest quoted piece of input an error line repeats, in characters.
pub const QUOTED_CHARS: usize = 40;
/// The longest error line written, in characters (before the protocol's own prefix).
pub const ERROR_CHARS: usize = 400;

/// `text` with every control or otherwise unprintable character written as an escape (`\x07`,
/// `\u{202e}`), cut to `max_chars` characters with `…` where it was cut.
pub fn printable(text: &str, max_chars: usize) -> String {
    let mut out = String::new();
    for (n, c) in text.chars().enumerate() {
        if n == max_chars {
            out.push('…');
            break;
        }
        if c.is_control() || matches!(c, '\u{200b}'..='\u{200f}' | '\u{202a}'..='\u{202e}') {
            out.extend(c.escape_default());
        } else {
            out.push(c);
        }
    }
    out
}

/// An error message made safe to print as one protocol line: every `'...'` piece of input it
/// quotes is cut to [`QUOTED_CHARS`] characters (with its length in bytes when it was longer),
/// control characters are escaped, and the whole is cut to [`ERROR_CHARS`] characters. A bad
/// 1 MiB line is thus answered with a short, printable prefix of itself.
pub fn clean_error(message: &str) -> String {
    let mut out = String::new();
    let mut rest = message;
    while let Some(open) = rest.find('\'') {
        out.push_str(&rest[..=open]);
        let after = &rest[open + 1..];
        match after.find('\'') {
            Some(close) => {
                let quoted = &after[..close];
                out.push_str(&printable(quoted, QUOTED_CHARS));
                out.push('\'');
                if quoted.chars().count() > QUOTED_CHARS {
                    out.push_str(&format!(" ({} bytes)", quoted.len()));
                }
                rest = &after[close + 1..];
            }
            None => {
                out.push_str(&printable(after, QUOTED_CHARS));
                rest = "";
            }
        }
    }
    out.push_str(rest);
    printable(&out, ERROR_CHARS)
}

/// A line that could not be taken as a command.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum InputError {
    /// The line was longer than [`MAX_LINE_BYTES`]; its length in bytes.
    TooLong(usize),
}

impl std::fmt::Display for InputError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            InputError::TooLong(n) => write!(
                f,
                "line of {n} bytes ignored (at most {MAX_LINE_BYTES} bytes)"
            ),
        }
    }
}

/// The input of a protocol loop: one item per line.
pub type Input<'a> = &'a mut dyn Iterator<Item = Result<String, InputError>>;

/// The lines of `input`, up to the end of input or a read error, each at most
/// [`MAX_LINE_BYTES`] long (a longer one is skipped to its end and given as an error). A line
/// that is not UTF-8 is decoded lossily (so it reads as an unknown command or a bad argument)
/// rather than ending the session.
pub fn input_lines(input: impl BufRead) -> impl Iterator<Item = Result<String, InputError>> {
    BoundedLines { input, done: false }
}

struct BoundedLines<R> {
    input: R,
    done: bool,
}

impl<R: BufRead> Iterator for BoundedLines<R> {
    type Item = Result<String, InputError>;

    fn next(&mut self) -> Option<Self::Item> {
        if self.done {
            return None;
        }
        let mut line = Vec::new();
        let mut len = 0usize;
        loop {
            let buf = match self.input.fill_buf() {
                Ok(b) => b,
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
                Err(_) => &[],
            };
            if buf.is_empty() {
                // End of input (or an error): the last line may lack its newline.
                self.done = true;
                if len == 0 {
                    return None;
                }
                break;
            }
            let (chunk, found) = match buf.iter().position(|&b| b == b'\n') {
                Some(i) => (&buf[..i], true),
                None => (buf, false),
            };
            len = len.saturating_add(chunk.len());
            if len <= MAX_LINE_BYTES {
                line.extend_from_slice(chunk);
            } else {
                line = Vec::new();
            }
            let used = chunk.len() + found as usize;
            self.input.consume(used);
            if found {
                break;
            }
        }
        if len > MAX_LINE_BYTES {
            return Some(Err(InputError::TooLong(len)));
        }
        Some(Ok(String::from_utf8_lossy(&line).into_owned()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn error_lines_quote_a_short_printable_prefix() {
        let long = "x".repeat(1 << 20);
        let e = clean_error(&format!("unknown command '{long}'"));
        assert!(e.len() < 200, "{}", e.len());
        assert!(e.starts_with("unknown command 'xxxx"), "{e}");
        assert!(e.ends_with("…' (1048576 bytes)"), "{e}");
        let e = clean_error("bad FEN: side to move '\u{7}\u{1b}[2J' is not W or B");
        assert_eq!(e, "bad FEN: side to move '\\u{7}\\u{1b}[2J' is not W or B");
        assert!(!e.chars().any(char::is_control));
        // An unterminated quote, and a message without quotes, are still cut and cleaned.
        let e = clean_error(&format!("bad '{long}"));
        assert!(e.len() < 100 && e.ends_with('…'), "{e}");
        assert_eq!(clean_error("no quote here"), "no quote here");
        assert_eq!(printable("ab\tc", 10), "ab\\tc");
    }

    #[test]
    fn long_lines_are_skipped_whole_and_reported() {
        let mut text = b"isready\n".to_vec();
        text.extend(std::iter::repeat_n(b'x', MAX_LINE_BYTES + 5));
        text.extend_from_slice(b"\nquit");
        let lines: Vec<_> = input_lines(std::io::BufReader::with_capacity(7, &text[..])).collect();
        assert_eq!(
            lines,
            [
                Ok("isready".to_string()),
                Err(InputError::TooLong(MAX_LINE_BYTES + 5)),
                Ok("quit".to_string())
            ]
        );
    }

    #[test]
    fn a_line_of_exactly_the_limit_is_kept_and_bad_utf8_is_lossy() {
        let mut text = vec![b'y'; MAX_LINE_BYTES];
        text.extend_from_slice(b"\n\xff\n");
        let lines: Vec<_> = input_lines(&text[..]).collect();
        assert_eq!(lines.len(), 2);
        assert_eq!(lines[0].as_ref().map(|l| l.len()), Ok(MAX_LINE_BYTES));
        assert_eq!(lines[1], Ok("\u{fffd}".to_string()));
    }
}
